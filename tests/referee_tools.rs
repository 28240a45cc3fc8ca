//! The referee's other faces: human play driven through stdin, and the
//! compliance checker against a sound engine and a misbehaving one.

use std::path::Path;
use std::process::{Command, Stdio};

use assert_cmd::cargo::cargo_bin;
use assert_cmd::Command as AssertCommand;
use boardgames::referee::adjudication::Termination;
use boardgames::referee::record::parse_text;

fn engine() -> String {
    cargo_bin("bg-breakthrough").display().to_string()
}

#[test]
fn a_human_game_refuses_bad_input_undoes_hints_and_saves_the_record() {
    let record = std::env::temp_dir().join(format!("referee-human-{}.txt", std::process::id()));
    let output = AssertCommand::cargo_bin("bg-referee")
        .unwrap()
        .args([
            "--game",
            "breakthrough",
            "--human",
            "white",
            "--engine",
            &format!("cmd={}", engine()),
            "depth=1",
            "--records",
            record.to_str().unwrap(),
        ])
        .write_stdin("a2a5\nnonsense\nundo\nhint\nb2b3\nundo\nc2c3\nresign\n")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("illegal move 'a2a5'"), "{text}");
    assert!(text.contains("illegal move 'nonsense'"), "{text}");
    assert!(text.contains("nothing to undo"), "{text}");
    assert!(text.contains("hint: "), "{text}");
    assert!(text.contains(" plays "), "{text}");
    assert!(text.contains("result 0-1: p1 loses: resigned"), "{text}");
    let games = parse_text(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let _ = std::fs::remove_file(&record);
    // b2b3 and its answer were undone: c2c3 is the first move kept.
    let moves: Vec<&str> = games[0].moves.iter().map(|m| m.mv.as_str()).collect();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0], "c2c3");
    assert_eq!(games[0].players[0], "human");
    assert_eq!(games[0].result.termination, Termination::Resignation);
}

#[test]
fn two_humans_take_turns_and_one_undo_is_one_ply() {
    let output = AssertCommand::cargo_bin("bg-referee")
        .unwrap()
        .args(["--game", "breakthrough", "--human", "both"])
        .write_stdin("a2a3\nundo\nh2h3\nh7h6\nmoves\n")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    // After h2h3 h7h6 White may advance h3h4 but no longer a3a4.
    let listing = text
        .lines()
        .map(|l| l.trim_start_matches("white (P, moving up the board) to move> "))
        .find(|l| l.contains("h3h4"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(!listing.contains("a3a4"), "{listing}");
    assert!(text.contains("black (p, moving down the board) to move>"));
}

#[test]
fn a_person_is_told_their_colour_and_what_it_joins() {
    for (game, options, first, second) in [
        (
            "hex",
            vec!["--rule", "BoardSize=7"],
            "black (x, joins row 1 to row 7) to move>",
            "white (o, joins column a to column g) to move>",
        ),
        ("gomoku", vec![], "black (x) to move>", "white (o) to move>"),
        (
            "cavalo",
            vec![],
            "white (knight W) to move>",
            "black (knight B) to move>",
        ),
    ] {
        let mut args = vec!["--game", game, "--human", "both"];
        args.extend(options);
        let output = AssertCommand::cargo_bin("bg-referee")
            .unwrap()
            .args(&args)
            .write_stdin("moves\n")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains(first), "{game}: {text}");
        let first_move = text
            .lines()
            .find_map(|l| l.strip_prefix(first))
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or_else(|| panic!("{game}: no moves listed: {text}"))
            .to_owned();
        let output = AssertCommand::cargo_bin("bg-referee")
            .unwrap()
            .args(&args)
            .write_stdin(format!("{first_move}\n"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains(second), "{game}: {text}");
    }
}

#[test]
fn the_compliance_check_passes_our_engine_and_flags_a_broken_one() {
    let output = AssertCommand::cargo_bin("bg-referee")
        .unwrap()
        .args(["--game", "breakthrough", "--compliance", &engine()])
        // A loaded CI machine can delay any process's answer: the timing
        // checks get twenty times the protocol's limits, and none of the
        // checks' failures is taken out.
        .args(["--timing-scale", "20"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(!text.contains("FAIL"), "{text}");
    assert!(
        text.contains("PASS go movetime 100 within 2000 ms (timing)"),
        "{text}"
    );
    assert!(
        text.lines().filter(|l| l.starts_with("PASS")).count() >= 8,
        "{text}"
    );

    let python = Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .status();
    assert!(
        python.is_ok_and(|s| s.success()),
        "python3 is needed for the misbehaving engine"
    );
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/misbehave.py");
    let broken = format!(
        "python3 {} illegal --after 1 -- {}",
        fixture.display(),
        engine()
    );
    let output = AssertCommand::cargo_bin("bg-referee")
        .unwrap()
        .args(["--game", "breakthrough", "--compliance", &broken])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL finished game"), "{text}");
    assert!(text.contains("PASS handshake"), "{text}");
    assert!(
        text.contains("FAIL go depth 1 mid-game: bestmove"),
        "{text}"
    );
}

#[test]
fn help_prints_the_usage_and_succeeds() {
    for flag in ["--help", "-h"] {
        let output = AssertCommand::cargo_bin("bg-referee")
            .expect("the referee is built")
            .arg(flag)
            .output()
            .expect("the referee runs");
        assert!(output.status.success(), "{flag}: {:?}", output.status);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.starts_with("usage:"), "{flag}: {text}");
        assert!(text.contains("--engine"), "{flag}: {text}");
    }
}
