//! The move policy end to end: Hex self-play data, `bg-tune fit-policy`
//! fitting gammas to the played moves (held-back first-choice rate above
//! the uniform policy's), a file the engine's reader takes; data of another
//! game refused.
#![cfg(feature = "tune")]

use std::path::{Path, PathBuf};

use boardgames::core::policy::Gammas;
use boardgames::games::hex::policy::HexPolicy;
use boardgames::games::hex::Hex;
use common::{path_text as text, run_tune as tune};

mod common;

fn temp_path(name: &str) -> PathBuf {
    common::temp_path("policy", name)
}

fn datagen(game: &str, rules: &[&str], games: &str, out: &Path) {
    common::datagen(game, rules, games, "random:2:5", out);
}

/// The first-choice rates of the summary's held-back line: fitted, uniform
/// ("held back: played move first F% (every gamma 1: U%), ...").
fn first_choice_rates(summary: &str) -> (f64, f64) {
    let line = summary
        .lines()
        .find(|line| line.starts_with("held back: played move first "))
        .unwrap_or_else(|| panic!("no held-back line in {summary}"));
    let percent_after = |marker: &str| -> f64 {
        let rest = &line[line.find(marker).expect(marker) + marker.len()..];
        rest[..rest.find('%').expect("a percentage")]
            .parse()
            .expect("a number")
    };
    (
        percent_after("played move first "),
        percent_after("every gamma 1: "),
    )
}

#[test]
fn gammas_fitted_to_self_play_predict_held_back_moves_better_than_uniform() {
    let data = temp_path("hex7.bgdata");
    let policy = temp_path("hex7-policy.txt");
    datagen("hex", &["BoardSize=7", "Swap=false"], "40", &data);
    let fit = |extra: &[&str]| {
        let mut args = vec!["fit-policy", "--game", "hex", "--data", text(&data)];
        args.extend(["--out", text(&policy)]);
        args.extend_from_slice(extra);
        tune(&args)
    };
    let (ok, stdout, stderr) = fit(&[
        "--iterations",
        "8",
        "--min-seen",
        "3",
        "--held-every",
        "5",
        "--note",
        "40 games on 7x7",
    ]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("iteration 8:"), "{stderr}");
    let (fitted, uniform) = first_choice_rates(&stdout);
    assert!(
        fitted > uniform + 10.0,
        "fitted {fitted}% against uniform {uniform}%: {stdout}"
    );
    let written = std::fs::read_to_string(&policy).expect("the policy file");
    assert!(
        written.starts_with("# tune fit-policy --game hex"),
        "{written}"
    );
    assert!(written.contains("# 40 games on 7x7\n"), "{written}");
    let gammas = Gammas::parse::<Hex, HexPolicy>(&written).expect("the engine's reader takes it");
    assert!(gammas.stored() > 10, "{written}");

    // Only the named groups are fitted: a table for the playouts.
    let fit_groups =
        |groups: &str| fit(&["--iterations", "2", "--min-seen", "3", "--groups", groups]);
    let (ok, _, stderr) = fit_groups("pattern,last");
    assert!(ok, "{stderr}");
    let written = std::fs::read_to_string(&policy).expect("the policy file");
    let groups_written: std::collections::BTreeSet<&str> = written
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert_eq!(
        groups_written,
        ["last", "pattern"].into_iter().collect(),
        "{written}"
    );
    let (ok, _, stderr) = fit_groups("pattern,shape");
    assert!(!ok);
    assert!(
        stderr.contains("no feature group 'shape'") && stderr.contains("own_last"),
        "{stderr}"
    );
    let _ = std::fs::remove_file(&data);
    let _ = std::fs::remove_file(&policy);
}

#[test]
fn another_game_s_data_is_refused() {
    let data = temp_path("breakthrough.bgdata");
    let policy = temp_path("never-written.txt");
    datagen("breakthrough", &[], "2", &data);
    let (ok, _, stderr) = tune(&[
        "fit-policy",
        "--game",
        "hex",
        "--data",
        text(&data),
        "--out",
        text(&policy),
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("holds breakthrough games, not hex"),
        "{stderr}"
    );
    assert!(!policy.exists());
    let _ = std::fs::remove_file(&data);
}
