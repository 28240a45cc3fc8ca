//! The compliance check's analysis checks (`referee --compliance`): every
//! engine of the project passes them all, and each can fail: a relay that
//! breaks one thing at a time in front of a sound engine is caught by the
//! check for that thing, while the others still pass; an engine without a
//! `Ponder` option has the ponder checks skipped as "not offered".

use std::path::PathBuf;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;

mod common;

/// The analysis checks, as the report names them.
const MULTIPV: &str = "MultiPV 2: two lines at the final depth, distinct legal first moves";
const BAD_VALUES: &str = "bad analysis option values refused, nothing changed";
const SEARCHMOVES_ONE: &str = "go searchmoves <one legal move> answers that move";
const SEARCHMOVES_ILLEGAL: &str =
    "go searchmoves <illegal move> refused: error line, no bestmove, isready answered";
const PONDERHIT_IDLE: &str =
    "ponderhit with nothing pondering: error line, the engine keeps answering";
const GO_PONDER: &str = "go ponder movetime 100: no bestmove before ponderhit, then one";
const PONDER_MOVE: &str = "Ponder on: bestmove X ponder Y with Y legal after X";
const WDL: &str = "UCI_ShowWDL: wdl W D L on every scored line, summing to 1000";
const CLEAR_HASH: &str = "Clear Hash accepted, the engine keeps answering";
const WEAKEST: &str = "UCI_LimitStrength at the lowest UCI_Elo plays a legal move";

const ANALYSIS: [&str; 10] = [
    MULTIPV,
    BAD_VALUES,
    SEARCHMOVES_ONE,
    SEARCHMOVES_ILLEGAL,
    PONDERHIT_IDLE,
    GO_PONDER,
    PONDER_MOVE,
    WDL,
    CLEAR_HASH,
    WEAKEST,
];

/// A relay between the referee and a real engine that breaks one thing:
///
///   silent-ponderhit   drops the error line a stray `ponderhit` gets
///   eager-ponder       passes `go ponder ...` on as `go ...` (bestmove at once)
///   wrong-ponder-move  answers `bestmove X ponder X`
///   ignore-searchmoves drops `searchmoves` and its moves from `go`
///   bad-wdl            adds one to the loss of every `wdl W D L`
///   one-pv             drops the `multipv 2` lines
///   lax-options        drops the error lines of refused option values
///
/// It exits when it passes `quit` on.
const RELAY: &str = r#"
import subprocess, sys, threading
mode, engine_command = sys.argv[1], sys.argv[2:]
engine = subprocess.Popen(engine_command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)

def out(line):
    words = line.split()
    if mode == "silent-ponderhit" and line.startswith("info string error: ponderhit"):
        return None
    if mode == "lax-options" and line.startswith("info string error: option"):
        return None
    if mode == "one-pv" and words[:1] == ["info"] and "multipv" in words:
        if words[words.index("multipv") + 1] == "2":
            return None
    if mode == "wrong-ponder-move" and words[:1] == ["bestmove"] and len(words) == 4:
        return f"bestmove {words[1]} ponder {words[1]}"
    if mode == "bad-wdl" and "wdl" in words:
        at = words.index("wdl") + 3
        words[at] = str(int(words[at]) + 1)
        return " ".join(words)
    return line

def relay():
    for line in engine.stdout:
        line = out(line.rstrip("\n"))
        if line is not None:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

threading.Thread(target=relay, daemon=True).start()
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["go"]:
        if mode == "eager-ponder" and "ponder" in words:
            words.remove("ponder")
        if mode == "ignore-searchmoves" and "searchmoves" in words:
            at = words.index("searchmoves")
            words = words[:at] + words[at + 2:]
        line = " ".join(words) + "\n"
    engine.stdin.write(line)
    engine.stdin.flush()
    if words[:1] == ["quit"]:
        break
engine.wait()
"#;

/// Runs `referee --compliance` for `game`; the exit code and the report.
fn compliance(game: &str, command: &str) -> (Option<i32>, String) {
    let output = Command::new(cargo_bin("bg-referee"))
        .args(["--game", game, "--compliance", command])
        // Twenty times the protocol's time limits: a loaded CI machine can
        // delay any process, and no failure is taken out of the report.
        .args(["--timing-scale", "20"])
        .output()
        .expect("the referee runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// The report's line for the check `name`, if any.
fn line_of<'a>(report: &'a str, name: &str) -> Option<&'a str> {
    report.lines().find(|line| {
        line.split_once(' ')
            .is_some_and(|(_, rest)| rest.starts_with(name))
    })
}

fn assert_verdict(report: &str, name: &str, verdict: &str) {
    let line = line_of(report, name).unwrap_or_else(|| panic!("no '{name}' in\n{report}"));
    assert!(
        line.starts_with(&format!("{verdict} ")),
        "'{name}' should be {verdict}:\n{report}"
    );
}

fn python3() -> &'static str {
    common::require_python();
    "python3"
}

fn our_engine_passes(game: &str) {
    let engine = common::binary(game).display().to_string();
    let (_, report) = compliance(game, &engine);
    for name in ANALYSIS {
        assert_verdict(&report, name, "PASS");
    }
    assert!(!report.contains("FAIL"), "{report}");
    assert!(report.contains(", 0 skipped"), "{report}");
}

#[test]
fn breakthrough_passes_the_analysis_checks() {
    our_engine_passes("breakthrough");
}

#[test]
fn hex_passes_the_analysis_checks() {
    our_engine_passes("hex");
}

#[test]
fn gomoku_passes_the_analysis_checks() {
    our_engine_passes("gomoku");
}

#[test]
fn cavalo_passes_the_analysis_checks() {
    our_engine_passes("cavalo");
}

/// The relay written where `mode`'s test alone uses it.
fn relay_script(mode: &str) -> PathBuf {
    let path = common::temp_path("compliance-analysis", &format!("relay-{mode}.py"));
    std::fs::write(&path, RELAY).expect("write the relay");
    path
}

/// The report for Breakthrough behind the relay in `mode`: it fails, the
/// checks in `failing` fail with a reason containing the paired text, and
/// every other analysis check passes.
fn broken_by(mode: &str, failing: &[(&str, &str)]) {
    let relay = relay_script(mode);
    let command = format!(
        "{} {} {mode} {}",
        python3(),
        relay.display(),
        common::breakthrough_command()
    );
    let (code, report) = compliance("breakthrough", &command);
    let _ = std::fs::remove_file(&relay);
    assert_eq!(code, Some(1), "{mode}:\n{report}");
    assert_verdict(&report, "handshake", "PASS");
    for name in ANALYSIS {
        match failing.iter().find(|(failed, _)| *failed == name) {
            Some((_, reason)) => {
                assert_verdict(&report, name, "FAIL");
                let line = line_of(&report, name).unwrap_or_default();
                assert!(line.contains(reason), "{mode}: '{reason}' in\n{report}");
            }
            None => assert_verdict(&report, name, "PASS"),
        }
    }
}

#[test]
fn a_silent_ponderhit_fails_its_check() {
    broken_by(
        "silent-ponderhit",
        &[(PONDERHIT_IDLE, "no 'info string error' for a ponderhit")],
    );
}

#[test]
fn a_bestmove_while_pondering_fails_its_check() {
    broken_by(
        "eager-ponder",
        &[(
            GO_PONDER,
            "after 'go ponder movetime 100', before ponderhit",
        )],
    );
}

#[test]
fn an_illegal_ponder_move_fails_its_check() {
    broken_by("wrong-ponder-move", &[(PONDER_MOVE, "is illegal after")]);
}

#[test]
fn ignoring_searchmoves_fails_both_searchmoves_checks() {
    broken_by(
        "ignore-searchmoves",
        &[
            (SEARCHMOVES_ONE, "answered '"),
            (SEARCHMOVES_ILLEGAL, "the command must be refused"),
        ],
    );
}

#[test]
fn wdl_that_does_not_sum_to_1000_fails_its_check() {
    broken_by("bad-wdl", &[(WDL, "sums to 1001, not 1000")]);
}

#[test]
fn a_missing_second_line_fails_the_multipv_checks() {
    broken_by(
        "one-pv",
        &[
            (MULTIPV, "no 'multipv 2' line at depth"),
            (
                BAD_VALUES,
                "no 'multipv 2' line after a refused MultiPV value",
            ),
        ],
    );
}

#[test]
fn bad_option_values_taken_silently_fail_their_check() {
    broken_by(
        "lax-options",
        &[(
            BAD_VALUES,
            "no 'info string error' for 'setoption name MultiPV value 0'",
        )],
    );
}

#[test]
fn an_engine_without_ponder_has_the_ponder_checks_skipped() {
    let command = format!(
        "{} {} noponder -- {}",
        python3(),
        common::misbehave_fixture(),
        common::breakthrough_command()
    );
    let (_, report) = compliance("breakthrough", &command);
    for name in [PONDERHIT_IDLE, GO_PONDER, PONDER_MOVE] {
        assert_verdict(&report, name, "SKIP");
        let line = line_of(&report, name).unwrap_or_default();
        assert!(
            line.ends_with("not offered: the engine declares no Ponder option"),
            "{report}"
        );
    }
    for name in ANALYSIS
        .iter()
        .filter(|name| ![PONDERHIT_IDLE, GO_PONDER, PONDER_MOVE].contains(name))
    {
        assert_verdict(&report, name, "PASS");
    }
    assert!(report.contains(", 3 skipped"), "{report}");
}
