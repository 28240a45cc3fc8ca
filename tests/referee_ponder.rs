//! The referee with pondering on (`--ponder`, `ponder=true`): the engines
//! think on their opponent's time, the referee sends `ponderhit` when the
//! predicted reply is played and `stop` when it is not, and the transcript
//! (`--log`) shows every ponder search ended one way or the other.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use boardgames::referee::adjudication::Termination;
use boardgames::referee::record::{parse_text, GameRecord};
use boardgames::referee::transcript::{parse_line, Direction};
use common::require_python;

mod common;

fn temp_path(name: &str) -> PathBuf {
    common::temp_path("referee-ponder", name)
}

fn engine() -> String {
    common::breakthrough_command()
}

fn fixture() -> String {
    common::misbehave_fixture()
}

/// Runs a match with `--log` and `--records`; returns stdout, stderr, the
/// transcript and the records.
fn run_match(args: &[String], name: &str) -> (String, String, String, Vec<GameRecord>) {
    let records = temp_path(&format!("{name}.txt"));
    let log = temp_path(&format!("{name}.log"));
    let output = Command::new(cargo_bin("bg-referee"))
        .args(args)
        .args(["--quiet", "--records"])
        .arg(&records)
        .arg("--log")
        .arg(&log)
        .output()
        .expect("run the referee");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "referee failed: {stdout}\n{stderr}"
    );
    let transcript = std::fs::read_to_string(&log).unwrap_or_default();
    let games = parse_text(&std::fs::read_to_string(&records).unwrap_or_default())
        .expect("records read back");
    let _ = std::fs::remove_file(records);
    let _ = std::fs::remove_file(log);
    (stdout, stderr, transcript, games)
}

/// The summary's `Ponderhits: a H/S, b H/S` as (hits, searches) by engine.
fn ponderhits(stdout: &str) -> [(u64, u64); 2] {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Ponderhits: "))
        .unwrap_or_else(|| panic!("no Ponderhits line in {stdout}"));
    let counts: Vec<(u64, u64)> = line
        .split(", ")
        .map(|part| {
            let fraction = part.rsplit(' ').next().unwrap_or_default();
            let (hits, searches) = fraction.split_once('/').expect("H/S");
            (
                hits.parse().expect("hits"),
                searches.parse().expect("searches"),
            )
        })
        .collect();
    assert_eq!(counts.len(), 2, "{line}");
    [counts[0], counts[1]]
}

/// What one engine process saw of pondering in the transcript.
#[derive(Debug, Default)]
struct PonderLog {
    searches: u64,
    hits: u64,
    stops: u64,
    /// `stop`s of a missed ponder search followed by the usual `position`
    /// and a plain `go`.
    stops_then_asked_again: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    Idle,
    Searching,
    Pondering,
    Stopping,
}

/// Walks each process's lines and checks the ponder protocol: a `go
/// ponder` always ends in `ponderhit` or `stop`, no `bestmove` comes while
/// pondering, and nothing else is sent before the search has answered.
/// Returns the tallies by engine name (the label up to its `.w`).
fn check_transcript(transcript: &str) -> HashMap<String, PonderLog> {
    let mut states: HashMap<String, State> = HashMap::new();
    let mut after_stop: HashMap<String, u8> = HashMap::new();
    let mut logs: HashMap<String, PonderLog> = HashMap::new();
    for line in transcript.lines().filter_map(parse_line) {
        let name = line.label.split(".w").next().unwrap_or_default().to_owned();
        let log = logs.entry(name).or_default();
        let state = states.entry(line.label.clone()).or_insert(State::Idle);
        let text = line.text.as_str();
        let context = format!("{} {:?} {text}", line.label, *state);
        match line.direction {
            Direction::ToEngine => {
                let step = after_stop.remove(&line.label).unwrap_or(0);
                if text.starts_with("go ponder") {
                    assert_eq!(*state, State::Idle, "{context}");
                    assert!(text.len() > "go ponder ".len(), "no limits: {context}");
                    log.searches += 1;
                    *state = State::Pondering;
                } else if text == "ponderhit" {
                    assert_eq!(*state, State::Pondering, "{context}");
                    log.hits += 1;
                    *state = State::Searching;
                } else if text == "stop" {
                    if *state == State::Pondering {
                        log.stops += 1;
                        *state = State::Stopping;
                    }
                } else if text.starts_with("go") {
                    assert_eq!(*state, State::Idle, "{context}");
                    if step == 2 {
                        log.stops_then_asked_again += 1;
                    }
                    *state = State::Searching;
                } else if text.starts_with("position") {
                    assert_eq!(*state, State::Idle, "{context}");
                    if step == 1 {
                        after_stop.insert(line.label.clone(), 2);
                    }
                } else if text.starts_with("query") || text.ends_with("newgame") {
                    assert_eq!(*state, State::Idle, "{context}");
                }
            }
            Direction::FromEngine => {
                if text.starts_with("bestmove") {
                    assert_ne!(
                        *state,
                        State::Pondering,
                        "bestmove while pondering: {context}"
                    );
                    if *state == State::Stopping {
                        after_stop.insert(line.label.clone(), 1);
                    }
                    *state = State::Idle;
                }
            }
        }
    }
    for (label, state) in &states {
        assert!(
            matches!(state, State::Idle | State::Searching),
            "{label} left {state:?}"
        );
    }
    logs
}

fn assert_no_faults(stdout: &str, games: &[GameRecord]) {
    assert!(
        stdout.contains(
            "illegal move 0, time forfeit 0, crash 0, stall 0, resignation 0, protocol error 0"
        ),
        "{stdout}"
    );
    for game in games {
        common::replay_breakthrough_record(game);
        assert!(game.notes.is_empty(), "engines disagreed: {:?}", game.notes);
    }
}

/// Two of our engines pondering at a small clock: predicted replies are
/// hit, each `go ponder` carries the clock a move would get, and the counts
/// in the summary are the transcript's.
#[test]
fn both_engines_ponder_and_their_predictions_are_hit() {
    // The margin only keeps a busy test machine from turning a slow move
    // into a loss on time; the engines still play to the clock.
    let mut args = common::strings(&["--game", "breakthrough", "--ponder"]);
    for name in ["a", "b"] {
        args.extend(common::strings(&[
            "--engine",
            &format!("cmd={}", engine()),
            &format!("name={name}"),
            "tc=0.5+0.02",
            "timemargin=5000",
            "option.Threads=1",
        ]));
    }
    args.extend(common::strings(&[
        "--games",
        "2",
        "--openings",
        "random:2:11",
    ]));
    let (stdout, _, transcript, games) = run_match(&args, "both");
    assert_eq!(games.len(), 2);
    assert!(stdout.contains("Game ends: rules 2,"), "{stdout}");
    assert_no_faults(&stdout, &games);
    assert!(transcript.contains(" > setoption name Ponder value true"));
    assert!(
        transcript.contains(" > go ponder p1time "),
        "the clock is sent"
    );

    let summary = ponderhits(&stdout);
    let logs = check_transcript(&transcript);
    for (index, name) in ["a", "b"].iter().enumerate() {
        let (hits, searches) = summary[index];
        let log = &logs[*name];
        assert!(hits > 0, "{name} never hit: {stdout}");
        assert_eq!(
            (log.hits, log.searches),
            (hits, searches),
            "{name}: {log:?}"
        );
        assert_eq!(log.hits + log.stops, log.searches, "{name}: {log:?}");
    }
}

/// One engine ponders, against an engine that plays a weaker line than the
/// one predicted: the ponder searches are stopped, their moves thrown away,
/// and the engine asked for its move as usual. The other engine never
/// ponders.
#[test]
fn a_wrong_prediction_is_stopped_and_the_move_asked_for_again() {
    let args = common::strings(&[
        "--game",
        "breakthrough",
        "--engine",
        &format!("cmd={}", engine()),
        "name=ponderer",
        "st=0.03",
        "timemargin=5000",
        "ponder=true",
        "--engine",
        &format!("cmd={}", engine()),
        "name=weak",
        "st=0.03",
        "timemargin=5000",
        "option.UCI_LimitStrength=true",
        "option.UCI_Elo=0",
        "--games",
        "2",
    ]);
    let (stdout, _, transcript, games) = run_match(&args, "miss");
    assert_eq!(games.len(), 2);
    assert_no_faults(&stdout, &games);
    let [(hits, searches), weak] = ponderhits(&stdout);
    assert_eq!(weak, (0, 0), "{stdout}");
    assert!(searches > hits, "no miss: {stdout}");
    let logs = check_transcript(&transcript);
    let ponderer = &logs["ponderer"];
    assert_eq!((ponderer.hits, ponderer.searches), (hits, searches));
    assert!(ponderer.stops > 0, "{ponderer:?}");
    // Stops at the end of a game are not followed by a move request.
    assert!(ponderer.stops_then_asked_again > 0, "{ponderer:?}");
    assert_eq!(logs["weak"].searches, 0);
    assert!(!transcript
        .lines()
        .any(|l| l.contains("weak.") && l.contains(" > ") && l.contains("Ponder")));
}

/// An engine that declares no `Ponder` option plays without pondering,
/// with one warning however many processes are started; pondering on more
/// games at once than the cores allow is warned about.
#[test]
fn an_engine_without_ponder_plays_without_it_and_is_warned_about_once() {
    require_python();
    let args = common::strings(&[
        "--game",
        "breakthrough",
        "--ponder",
        "--engine",
        &format!("cmd=python3 {} noponder -- {}", fixture(), engine()),
        "name=plain",
        "depth=3",
        "--engine",
        &format!("cmd={}", engine()),
        "name=thinker",
        "depth=3",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--openings",
        "random:2:3",
    ]);
    let (stdout, stderr, transcript, games) = run_match(&args, "noponder");
    assert_eq!(games.len(), 4);
    assert_no_faults(&stdout, &games);
    assert_eq!(
        stderr.matches("declares no Ponder option").count(),
        1,
        "{stderr}"
    );
    let logs = check_transcript(&transcript);
    assert_eq!(logs["plain"].searches, 0);
    assert!(logs["thinker"].searches > 0);
    let [plain, _] = ponderhits(&stdout);
    assert_eq!(plain, (0, 0));
    // Two games at once, each with two single-threaded engines.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(stderr.contains("need 4 cores"), cores < 4, "{stderr}");
}

/// A ponder search that does not answer `stop` is a stall: the engine loses
/// that game and is restarted for the next.
#[test]
fn an_engine_that_ignores_stop_while_pondering_stalls() {
    require_python();
    let args = common::strings(&[
        "--game",
        "breakthrough",
        "--engine",
        &format!("cmd=python3 {} nostop -- {}", fixture(), engine()),
        "name=deaf",
        "st=0.03",
        "timemargin=5000",
        "ponder=true",
        "--engine",
        &format!("cmd={}", engine()),
        "name=weak",
        "st=0.03",
        "timemargin=5000",
        "option.UCI_LimitStrength=true",
        "option.UCI_Elo=0",
        "--games",
        "2",
        "--ready-timeout",
        "500",
        "--grace",
        "200",
    ]);
    let (_, _, transcript, games) = run_match(&args, "nostop");
    assert_eq!(games.len(), 2);
    for game in &games {
        common::replay_breakthrough_record(game);
        assert_eq!(
            game.result.termination,
            Termination::Stall,
            "{:?}",
            game.result
        );
        assert!(
            game.result.reason.contains("stopping a ponder search"),
            "{:?}",
            game.result
        );
        let deaf_is_p1 = game.players[0] == "deaf";
        assert_eq!(
            game.result.winner.map(|w| w.index() == 0),
            Some(!deaf_is_p1),
            "{:?}",
            game.result
        );
    }
    assert!(
        transcript.contains("deaf.w1#2 "),
        "restarted after the stall"
    );
}
