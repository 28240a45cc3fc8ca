//! Drives scripts/openspiel_engine.py, the adapter that lets OpenSpiel's MCTS
//! bot play through our protocol. These tests need python3 with OpenSpiel
//! (`pip install open_spiel`), which a machine with only the Rust toolchain
//! lacks: they are ignored by default, and `.ci/run` installs OpenSpiel and
//! runs them (`cargo test --release -- --include-ignored`). Run without
//! OpenSpiel, they fail and say so.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/openspiel_engine.py")
}

fn require_pyspiel() {
    let available = Command::new("python3")
        .args(["-c", "import pyspiel"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    assert!(
        available,
        "python3 with OpenSpiel is needed: pip install open_spiel"
    );
}

fn run_session(game: &str, input: &str) -> Vec<String> {
    let mut child = Command::new("python3")
        .arg(script())
        .args(["--game", game, "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the adapter");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the session");
    let output = child.wait_with_output().expect("adapter output");
    assert!(output.status.success(), "adapter failed: {output:?}");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
#[ignore = "needs python3 with OpenSpiel (pip install open_spiel); scripts/test-all installs it and runs it"]
fn translation_agrees_with_independent_rules_over_random_games() {
    require_pyspiel();
    let output = Command::new("python3")
        .arg(script())
        .args(["--selftest", "8", "--seed", "11"])
        .output()
        .expect("run the self-test");
    assert!(
        output.status.success(),
        "self-test failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
#[ignore = "needs python3 with OpenSpiel (pip install open_spiel); scripts/test-all installs it and runs it"]
fn breakthrough_session_follows_the_protocol() {
    require_pyspiel();
    let lines = run_session(
        "breakthrough",
        "ugi\nisready\nposition startpos moves a2a3 h7h6\ngo nodes 200\nquery p1turn\n\
         position startpos moves a2a5\nquery p1turn\nquery result\nquit\n",
    );
    assert_eq!(lines.iter().filter(|l| *l == "ugiok").count(), 1);
    assert!(lines.contains(&"readyok".to_owned()));
    let bestmove = lines
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove");
    // White (ranks 1-2, moving up) is to move after two plies.
    let from_rank = bestmove.as_bytes()[1];
    let to_rank = bestmove.as_bytes()[3];
    assert_eq!(to_rank, from_rank + 1, "White must move up: {bestmove}");
    // The illegal position is refused and the previous one (White to move) kept.
    assert!(lines.iter().any(|l| l.starts_with("info string error")));
    let turns: Vec<_> = lines.iter().filter(|l| l.starts_with("response")).collect();
    assert_eq!(turns, ["response true", "response true", "response none"]);
}

#[test]
#[ignore = "needs python3 with OpenSpiel (pip install open_spiel); scripts/test-all installs it and runs it"]
fn hex_and_gomoku_sessions_report_results_in_our_notation() {
    require_pyspiel();
    // Black joins row 1 to row 3 along column a: a win for p1.
    let hex = run_session(
        "hex",
        "setoption name BoardSize value 3\nposition startpos moves a1 b1 a2 c1 a3\n\
         query gameover\nquery result\ngo\n",
    );
    assert_eq!(
        hex,
        [
            "response true",
            "response p1win",
            "info string game over",
            "bestmove 0000"
        ]
    );
    // Five in a column (letter fixed, numbers rising) for Black.
    let gomoku = run_session(
        "gomoku",
        "position startpos moves h4 a1 h5 a2 h6 a3 h7 a4 h8\nquery result\n",
    );
    assert_eq!(gomoku, ["response p1win"]);
}
