//! A few sessions of `scripts/protocol-fuzz.py` against every front-end:
//! random good, malformed and hostile input must never crash an engine,
//! hang it, leave a command unanswered or change a position it refused.
//! (Longer runs are the script's job: see README, Benchmarks.)

use std::path::Path;
use std::process::Command;

use common::{binary, python_available};

mod common;

/// Runs four fuzz sessions of `engine` through `front_end` and checks that
/// none failed.
fn fuzz(front_end: &[&str], engine: &str, seed: u32) {
    if !python_available() {
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/protocol-fuzz.py");
    let output = Command::new("python3")
        .arg(&script)
        .args(front_end)
        .args(["--sessions", "4", "--seed", &seed.to_string()])
        .arg("--binary")
        .arg(binary(engine))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("4 sessions") && stdout.contains(", 0 failed"),
        "{front_end:?}: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn breakthrough_survives_random_input() {
    fuzz(&["ugi", "breakthrough"], "breakthrough", 101);
}

#[test]
fn hex_survives_random_input() {
    fuzz(&["ugi", "hex"], "hex", 102);
}

#[test]
fn hex_gtp_survives_random_input() {
    fuzz(&["gtp"], "hex", 103);
}

#[test]
fn gomoku_survives_random_input() {
    fuzz(&["ugi", "gomoku"], "gomoku", 104);
}

#[test]
fn gomoku_pbrain_survives_random_input() {
    fuzz(&["pbrain"], "gomoku", 105);
}

#[test]
fn cavalo_survives_random_input() {
    fuzz(&["ugi", "cavalo"], "cavalo", 106);
}
