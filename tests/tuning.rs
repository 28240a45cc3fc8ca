//! `tune` from records to a weight table: the referee writes JSON-lines
//! games, `tune sample` labels their quiet positions, `tune texel` fits
//! Breakthrough's weights and writes the table back with new numbers only.
#![cfg(feature = "tune")]

use std::path::PathBuf;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use boardgames::core::weights::WeightTable;
use boardgames::core::Game;
use boardgames::games::breakthrough::Breakthrough;
use boardgames::tuning::sample::LabelledPosition;

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tune-test-{}-{name}", std::process::id()))
}

fn run(binary: &str, args: &[&str]) -> (bool, String, String) {
    let output = Command::new(cargo_bin(format!("bg-{binary}")))
        .args(args)
        .output()
        .expect("run the binary");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `tune sample` over Breakthrough records, six opening plies skipped.
fn sample_breakthrough(
    records: &std::path::Path,
    out: &std::path::Path,
    extra: &[&str],
) -> (bool, String, String) {
    let mut args = vec![
        "sample",
        "--game",
        "breakthrough",
        "--records",
        records.to_str().unwrap(),
        "--skip",
        "6",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run("tune", &args)
}

#[test]
fn records_become_positions_and_a_tuned_weight_table() {
    let engine = format!("cmd={}", cargo_bin("bg-breakthrough").display());
    let (records, positions, weights, curve, plot) = (
        temp_path("games.jsonl"),
        temp_path("positions.txt"),
        temp_path("weights.txt"),
        temp_path("curve.csv"),
        temp_path("curve.svg"),
    );
    let (ok, out, err) = run(
        "referee",
        &[
            "--game",
            "breakthrough",
            "--engine",
            &engine,
            "depth=3",
            "--engine",
            &engine,
            "depth=2",
            "--games",
            "30",
            "--openings",
            "random:6:9",
            "--records",
            records.to_str().unwrap(),
            "--quiet",
        ],
    );
    assert!(ok, "{out}{err}");

    let (ok, out, err) = sample_breakthrough(&records, &positions, &[]);
    assert!(ok, "{out}{err}");
    assert!(out.starts_with("30 games"), "{out}");
    let lines: Vec<LabelledPosition> = std::fs::read_to_string(&positions)
        .unwrap()
        .lines()
        .map(|line| LabelledPosition::parse_line(line).unwrap())
        .collect();
    assert!(lines.len() > 100, "{} positions", lines.len());
    assert!(lines.iter().any(|p| p.result == 1.0) && lines.iter().any(|p| p.result == 0.0));

    // With captures on the board kept too, more positions, each a superset.
    let noisy_path = temp_path("noisy.txt");
    let (ok, out, err) = sample_breakthrough(&records, &noisy_path, &["--keep-noisy"]);
    assert!(ok, "{out}{err}");
    let noisy = std::fs::read_to_string(&noisy_path).unwrap();
    std::fs::remove_file(&noisy_path).ok();
    let noisy: std::collections::HashSet<&str> = noisy.lines().collect();
    let quiet = std::fs::read_to_string(&positions).unwrap();
    assert!(
        2 * noisy.len() > 3 * lines.len(),
        "{} against {}",
        noisy.len(),
        lines.len()
    );
    assert!(quiet.lines().all(|line| noisy.contains(line)));

    let (ok, out, err) = run(
        "tune",
        &[
            "texel",
            "--game",
            "breakthrough",
            "--positions",
            positions.to_str().unwrap(),
            "--freeze",
            "piece",
            "--epochs",
            "50",
            "--out",
            weights.to_str().unwrap(),
            "--curve",
            curve.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
        ],
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("loss on held-back positions"), "{out}");
    let original = include_str!("../src/games/breakthrough/weights.txt");
    let original = WeightTable::parse(original).unwrap();
    let tuned = WeightTable::parse(&std::fs::read_to_string(&weights).unwrap()).unwrap();
    assert_eq!(tuned.names(), original.names());
    assert_eq!(tuned.get("piece"), Ok(100), "a frozen weight stays");
    assert_eq!(
        tuned.text().lines().filter(|l| l.starts_with('#')).count(),
        original
            .text()
            .lines()
            .filter(|l| l.starts_with('#'))
            .count()
    );
    let curve_text = std::fs::read_to_string(&curve).unwrap();
    assert_eq!(curve_text.lines().count(), 1 + 51, "{curve_text}");
    assert!(
        lines.iter().filter(|p| p.score.is_some()).count() > lines.len() / 2,
        "the engines' scores label the positions"
    );
    let (ok, out, err) = run(
        "tune",
        &[
            "texel",
            "--game",
            "breakthrough",
            "--positions",
            positions.to_str().unwrap(),
            "--score-weight",
            "0.5",
            "--epochs",
            "10",
            "--out",
            weights.to_str().unwrap(),
        ],
    );
    assert!(
        ok && out.contains("loss on held-back positions"),
        "{out}{err}"
    );
    let picture = std::fs::read_to_string(&plot).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("held-back positions"));
    for path in [records, positions, weights, curve, plot] {
        std::fs::remove_file(path).ok();
    }
}

#[test]
fn bad_input_gets_a_clear_error_and_writes_nothing() {
    let out = temp_path("never.txt");
    let missing = temp_path("missing.jsonl");
    let (ok, _, err) = run(
        "tune",
        &[
            "sample",
            "--game",
            "hex",
            "--records",
            missing.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(!ok && err.contains("cannot read"), "{err}");
    assert!(!out.exists());

    let positions = temp_path("bad-positions.txt");
    let (positions_arg, out_arg) = (positions.to_str().unwrap(), out.to_str().unwrap());
    // (positions file, game, extra arguments, what the error must say)
    let unscored = format!(
        "{} | 1\n",
        Breakthrough::start_position(&Default::default()).to_fen()
    )
    .repeat(30);
    let cases: [(&str, &str, &[&str], &str); 4] = [
        (
            "8/8/8/8/8/8/PPPPPPPP/pppppppp w 0 1 | 2\n",
            "breakthrough",
            &[],
            "line 1",
        ),
        (
            "",
            "breakthrough",
            &["--freeze", "queen"],
            "no weight named 'queen'",
        ),
        (
            &unscored,
            "breakthrough",
            &["--score-weight", "0.5"],
            "have no score",
        ),
        (
            &unscored,
            "breakthrough",
            &["--score-weight", "2"],
            "from 0 to 1",
        ),
    ];
    for (text, game, extra, expected) in cases {
        std::fs::write(&positions, text).unwrap();
        let mut args = vec!["texel", "--game", game, "--positions", positions_arg];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out_arg]);
        let (ok, _, err) = run("tune", &args);
        assert!(!ok && err.contains(expected), "{args:?}: {err}");
    }
    let (ok, _, _) = run("tune", &["texel", "--game", "chess"]);
    assert!(!ok);
    assert!(!out.exists());
    std::fs::remove_file(positions).ok();
}
