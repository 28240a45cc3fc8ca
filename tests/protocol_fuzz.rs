//! A few sessions of `scripts/protocol-fuzz.py` against every front-end:
//! random good, malformed and hostile input must never crash an engine,
//! hang it, leave a command unanswered or change a position it refused.
//! UGI sessions include the analysis commands (bad option values,
//! `searchmoves`, `go ponder` ended by `ponderhit`, `stop` or neither,
//! `ponderhit` with no ponder search), and the script's count of what it
//! sent shows they were used. (Longer runs are the script's job: see
//! README, Benchmarks.)

use std::path::Path;
use std::process::Command;

use common::{binary, require_python};

/// What every UGI session sends at least once (the script's tour of the
/// analysis commands), as its `sent:` line names it.
const UGI_ANALYSIS: [&str; 8] = [
    "bad analysis option value refused",
    "analysis option set",
    "go searchmoves with legal moves",
    "go searchmoves refused",
    "go ponder then ponderhit",
    "go ponder then stop",
    "go ponder then neither",
    "ponderhit with no ponder search",
];

const SESSIONS: usize = 4;

/// How many times the `sent:` line says `what` was sent.
fn sent(stdout: &str, what: &str) -> usize {
    stdout
        .lines()
        .filter_map(|line| line.strip_prefix("sent: "))
        .flat_map(|counts| counts.split(", "))
        .filter_map(|count| count.rsplit_once(' '))
        .filter(|(name, _)| *name == what)
        .filter_map(|(_, n)| n.parse::<usize>().ok())
        .sum()
}

mod common;

/// Runs four fuzz sessions of `engine` through `front_end`, checks that
/// none failed, and returns the script's output.
fn fuzz(front_end: &[&str], engine: &str, seed: u32) -> String {
    require_python();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/protocol-fuzz.py");
    let output = Command::new("python3")
        .arg(&script)
        .args(front_end)
        .args([
            "--sessions",
            &SESSIONS.to_string(),
            "--seed",
            &seed.to_string(),
        ])
        .arg("--binary")
        .arg(binary(engine))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success()
            && stdout.contains(&format!("{SESSIONS} sessions"))
            && stdout.contains(", 0 failed"),
        "{front_end:?}: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// A UGI run, which must have used every analysis command in every session.
fn fuzz_ugi(game: &str, seed: u32) {
    let stdout = fuzz(&["ugi", game], game, seed);
    for what in UGI_ANALYSIS {
        assert!(
            sent(&stdout, what) >= SESSIONS,
            "{game}: '{what}' fewer than {SESSIONS} times:\n{stdout}"
        );
    }
}

#[test]
fn breakthrough_survives_random_input() {
    fuzz_ugi("breakthrough", 101);
}

#[test]
fn hex_survives_random_input() {
    fuzz_ugi("hex", 102);
}

#[test]
fn hex_gtp_survives_random_input() {
    fuzz(&["gtp"], "hex", 103);
}

#[test]
fn gomoku_survives_random_input() {
    fuzz_ugi("gomoku", 104);
}

#[test]
fn gomoku_pbrain_survives_random_input() {
    fuzz(&["pbrain"], "gomoku", 105);
}

#[test]
fn cavalo_survives_random_input() {
    fuzz_ugi("cavalo", 106);
}
