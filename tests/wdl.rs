//! `tune wdl`: scored positions in, a fitted win/draw/loss model out; and
//! every game's compiled-in model is a fitted one.
#![cfg(feature = "tune")]

use std::path::PathBuf;

use boardgames::core::wdl::WdlModel;

mod common;

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tune-wdl-test-{}-{name}", std::process::id()))
}

fn tune(args: &[&str]) -> (bool, String, String) {
    common::run_tune(args)
}

/// A positions file as `tune sample` writes it, results drawn from `truth`
/// by a fixed little generator, plus lines the fit must leave out.
fn positions_text(truth: &WdlModel, count: usize) -> String {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut text = String::new();
    for _ in 0..count {
        let score = ((next() - 0.5) * 8.0 * truth.scale).round();
        let (win, loss) = truth.chances(score);
        let u = next();
        let result = if u < win {
            "1"
        } else if u < win + loss {
            "0"
        } else {
            "0.5"
        };
        text.push_str(&format!(
            "8/8/8/8/8/8/PPPPPPPP/pppppppp w 0 1 | {result} | {score}\n"
        ));
    }
    text.push_str("8/8/8/8/8/8/PPPPPPPP/pppppppp w 0 1 | 1\n");
    text.push_str("8/8/8/8/8/8/PPPPPPPP/pppppppp w 0 1 | 0 | -3000\n");
    text
}

#[test]
fn scored_positions_become_a_fitted_model_file() {
    let truth = WdlModel {
        scale: 90.0,
        draw_margin: 45.0,
    };
    let (positions, current, out) = (
        temp_path("positions.txt"),
        temp_path("current.txt"),
        temp_path("wdl.txt"),
    );
    std::fs::write(&positions, positions_text(&truth, 20_000)).unwrap();
    std::fs::write(&current, "scale 100\ndraw_margin 0\n").unwrap();
    let (ok, report, err) = tune(&[
        "wdl",
        "--positions",
        positions.to_str().unwrap(),
        "--current",
        current.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--note",
        "20000 made-up positions",
    ]);
    assert!(ok, "{report}{err}");
    for expected in [
        "20000 positions",
        "left out 1 without a score, 1 with a mate score",
        "with the current model",
        "fitted",
        "draw observed",
    ] {
        assert!(report.contains(expected), "{expected}: {report}");
    }
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("# 20000 made-up positions\n"), "{text}");
    assert!(text.contains("# tune wdl --positions"), "{text}");
    assert!(!text.contains("--note"), "{text}");
    let fitted = WdlModel::parse(&text).unwrap();
    assert!((fitted.scale / 90.0 - 1.0).abs() < 0.05, "{fitted:?}");
    assert!((fitted.draw_margin / 45.0 - 1.0).abs() < 0.05, "{fitted:?}");

    // Without draws in the data, no margin unless asked.
    let decisive: String = positions_text(&truth, 3_000)
        .lines()
        .filter(|line| !line.contains("| 0.5 |"))
        .map(|line| format!("{line}\n"))
        .collect();
    std::fs::write(&positions, decisive).unwrap();
    let (ok, report, err) = tune(&[
        "wdl",
        "--positions",
        positions.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok && report.contains("margin not fitted"), "{report}{err}");
    let fitted = WdlModel::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(fitted.draw_margin, 0.0);
    for path in [positions, current, out] {
        std::fs::remove_file(path).ok();
    }
}

#[test]
fn bad_positions_get_a_clear_error_and_write_nothing() {
    let (positions, out) = (temp_path("bad.txt"), temp_path("never.txt"));
    let cases = [
        ("fen w | 1 | 20\nfen b | 0.7 | 5\n", "line 2"),
        ("fen w | 1\nfen b | 0\n", "needs both wins and losses"),
        (
            "fen w | 1 | 20\nfen b | 1 | -5\n",
            "needs both wins and losses",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(&positions, text).unwrap();
        let (ok, _, err) = tune(&[
            "wdl",
            "--positions",
            positions.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(!ok && err.contains(expected), "{text}: {err}");
    }
    let missing = temp_path("missing.txt");
    let (ok, _, err) = tune(&["wdl", "--positions", missing.to_str().unwrap()]);
    assert!(!ok && err.contains("cannot read"), "{err}");
    let (ok, _, err) = tune(&["wdl"]);
    assert!(!ok && err.contains("--positions"), "{err}");
    assert!(!out.exists());
    std::fs::remove_file(positions).ok();
}

#[test]
fn every_game_has_a_fitted_model_and_draws_only_where_the_game_has_them() {
    let files = [
        (
            "breakthrough",
            include_str!("../src/games/breakthrough/wdl.txt"),
        ),
        ("hex", include_str!("../src/games/hex/wdl.txt")),
        ("gomoku", include_str!("../src/games/gomoku/wdl.txt")),
        ("cavalo", include_str!("../src/games/cavalo/wdl.txt")),
    ];
    for (game, text) in files {
        let model = WdlModel::parse(text).unwrap_or_else(|e| panic!("{game}: {e}"));
        assert!(text.contains("Fitted by bg-tune wdl"), "{game}: {text}");
        assert!(text.contains("# bg-tune wdl --positions"), "{game}: {text}");
        if matches!(game, "breakthrough" | "hex") {
            assert_eq!(model.draw_margin, 0.0, "{game} has no draws");
        }
    }
}
