//! The referee driving real engine binaries: a match between depths, engines
//! that misbehave on purpose (tests/fixtures/misbehave.py wraps a real
//! engine), records read back and replayed with the rules, and no process
//! left behind, also after Ctrl-C.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use boardgames::core::{Game, Player};
use boardgames::referee::adjudication::Termination;
use boardgames::referee::record::{parse_json_lines, parse_text, GameRecord};
use common::require_python;

mod common;

fn temp_path(name: &str) -> PathBuf {
    common::temp_path("referee-test", name)
}

fn engine() -> String {
    common::breakthrough_command()
}

fn fixture() -> String {
    common::misbehave_fixture()
}

/// Pids of live processes whose command line contains `tag`.
fn processes_tagged(tag: &str) -> Vec<u32> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            if String::from_utf8_lossy(&cmdline).contains(tag) {
                found.push(pid);
            }
        }
    }
    found
}

fn assert_nothing_left(tag: &str) {
    // The watchdog and the kills are asynchronous to the referee's exit.
    let until = Instant::now() + Duration::from_secs(3);
    while !processes_tagged(tag).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        processes_tagged(tag),
        Vec::<u32>::new(),
        "processes left behind"
    );
}

fn run_referee(args: &[String]) -> (String, String) {
    let output = Command::new(cargo_bin("bg-referee"))
        .args(args)
        .output()
        .expect("run the referee");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "referee failed: {stdout}\n{stderr}"
    );
    (stdout, stderr)
}

/// A `.jsonl` records file gets one JSON object a game, with each engine
/// move's score and depth: the data the tuning tools read.
#[test]
fn json_line_records_hold_every_game_with_its_scores() {
    let records = temp_path("games.jsonl");
    run_referee(&common::strings(&[
        "--game",
        "breakthrough",
        "--engine",
        &format!("cmd={}", engine()),
        "depth=2",
        "--engine",
        &format!("cmd={}", engine()),
        "depth=3",
        "--games",
        "2",
        "--openings",
        "random:2:5",
        "--records",
        records.to_str().unwrap(),
        "--quiet",
    ]));
    let text = std::fs::read_to_string(&records).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    let games = parse_json_lines(&text).unwrap();
    for game in &games {
        common::replay_breakthrough_record(game);
        for m in game.moves.iter().filter(|m| !m.book) {
            assert!(m.score.is_some() && m.depth.is_some(), "{m:?}");
        }
    }
    std::fs::remove_file(&records).ok();
}

#[test]
fn a_match_between_depths_is_refereed_recorded_and_read_back() {
    let records = temp_path("depths.txt");
    let transcript = temp_path("depths.log");
    let (stdout, _) = run_referee(&common::strings(&[
        "--game",
        "breakthrough",
        "--engine",
        &format!("cmd={}", engine()),
        "name=depth1",
        "depth=1",
        "--engine",
        &format!("cmd={}", engine()),
        "name=depth2",
        "depth=2",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--openings",
        "random:2:7",
        "--records",
        records.to_str().unwrap(),
        "--log",
        transcript.to_str().unwrap(),
        "--quiet",
    ]));
    let score_line = stdout
        .lines()
        .find(|l| l.starts_with("Score of depth1 vs depth2:"))
        .unwrap_or_else(|| panic!("no score line in {stdout}"));
    let numbers: Vec<u64> = score_line
        .split(':')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(numbers[0] + numbers[1] + numbers[2], 4, "{score_line}");
    assert!(stdout.contains("Game ends: rules 4,"), "{stdout}");

    let games = parse_text(&std::fs::read_to_string(&records).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    let mut rounds: Vec<usize> = games.iter().map(|g| g.round).collect();
    rounds.sort();
    assert_eq!(rounds, [1, 2, 3, 4]);
    for game in &games {
        common::replay_breakthrough_record(game);
        assert!(game.moves[0].book && game.moves[1].book && !game.moves[2].book);
        // Colours alternate within a pair, the opening repeats.
        let expected = if game.round % 2 == 1 {
            ["depth1", "depth2"]
        } else {
            ["depth2", "depth1"]
        };
        assert_eq!(game.players, expected);
        assert!(game.notes.is_empty(), "engines disagreed: {:?}", game.notes);
        assert!(game
            .moves
            .iter()
            .filter(|m| !m.book)
            .all(|m| m.depth.is_some()));
    }
    let pair_openings = |round: usize| {
        let game = games.iter().find(|g| g.round == round).unwrap();
        (game.moves[0].mv.clone(), game.moves[1].mv.clone())
    };
    assert_eq!(pair_openings(1), pair_openings(2));
    assert_eq!(pair_openings(3), pair_openings(4));

    let log = std::fs::read_to_string(&transcript).unwrap();
    assert!(log.lines().any(|l| l.contains(" > go depth 1")));
    assert!(log.lines().any(|l| l.contains(" < bestmove ")));
    let _ = std::fs::remove_file(records);
    let _ = std::fs::remove_file(transcript);
}

/// Two games between a misbehaving engine and a sound one; returns the
/// records and checks nothing is left running.
fn misbehaving_match(
    name: &str,
    mode_args: &[&str],
    limits: &[&str],
    extra: &[&str],
) -> Vec<GameRecord> {
    let tag = format!("tag-{}-{name}", std::process::id());
    let records = temp_path(&format!("{name}.txt"));
    let mut bad = vec![format!(
        "cmd=python3 {} {} --tag {tag} -- {}",
        fixture(),
        mode_args.join(" "),
        engine()
    )];
    bad.push("name=bad".to_owned());
    bad.extend(limits.iter().map(|l| (*l).to_owned()));
    let mut args = common::strings(&["--game", "breakthrough", "--engine"]);
    args.extend(bad);
    args.push("--engine".to_owned());
    args.push(format!("cmd={}", engine()));
    args.push("name=good".to_owned());
    args.extend(limits.iter().map(|l| (*l).to_owned()));
    args.extend(common::strings(&[
        "--games",
        "2",
        "--quiet",
        "--records",
        records.to_str().unwrap(),
    ]));
    args.extend(common::strings(extra));
    run_referee(&args);
    assert_nothing_left(&tag);
    let games = parse_text(&std::fs::read_to_string(&records).unwrap()).unwrap();
    let _ = std::fs::remove_file(records);
    assert_eq!(games.len(), 2);
    games
}

/// The side the misbehaving engine had in a game.
fn bad_side(game: &GameRecord) -> Player {
    if game.players[0] == "bad" {
        Player::P1
    } else {
        Player::P2
    }
}

fn assert_bad_lost_by(games: &[GameRecord], termination: Termination) {
    for game in games {
        common::replay_breakthrough_record(game);
        assert_eq!(game.result.termination, termination, "{:?}", game.result);
        assert_eq!(
            game.result.winner,
            Some(bad_side(game).other()),
            "{:?}",
            game.result
        );
    }
}

#[test]
fn an_illegal_move_loses_the_game() {
    require_python();
    let games = misbehaving_match("illegal", &["illegal", "--after", "2"], &["depth=1"], &[]);
    assert_bad_lost_by(&games, Termination::IllegalMove);
    assert!(games
        .iter()
        .all(|g| g.result.reason.contains("illegal move '")));
}

#[test]
fn a_crash_mid_game_loses_and_the_engine_is_restarted() {
    require_python();
    let games = misbehaving_match("crash", &["crash", "--after", "2"], &["depth=1"], &[]);
    // Both games reach the crash: the crashed engine was started again.
    assert_bad_lost_by(&games, Termination::Crash);
    assert!(games.iter().all(|g| g.moves.len() >= 4));
}

#[test]
fn an_engine_that_never_answers_loses_on_time() {
    require_python();
    let games = misbehaving_match(
        "hang",
        &["hang", "--after", "1"],
        &["st=0.05", "timemargin=150"],
        &["--grace", "100"],
    );
    assert_bad_lost_by(&games, Termination::TimeForfeit);
}

#[test]
fn a_late_answer_loses_on_time() {
    require_python();
    let games = misbehaving_match(
        "late",
        &["late", "--after", "1", "--delay", "600"],
        &["st=0.05", "timemargin=150"],
        &[],
    );
    assert_bad_lost_by(&games, Termination::TimeForfeit);
}

#[test]
fn an_engine_that_stops_answering_isready_is_a_stall() {
    require_python();
    // Untimed searches are watched with isready pings.
    let games = misbehaving_match(
        "stall",
        &["hang", "--after", "1"],
        &["depth=1"],
        &["--ping", "100", "--ready-timeout", "300", "--grace", "100"],
    );
    assert_bad_lost_by(&games, Termination::Stall);
    // And between games, a new game must be acknowledged.
    let games = misbehaving_match(
        "noready",
        &["noready", "--after", "1"],
        &["depth=1"],
        &["--ready-timeout", "300"],
    );
    assert_eq!(
        games[1].result.termination,
        Termination::Stall,
        "{:?}",
        games[1].result
    );
    assert_eq!(games[1].result.winner, Some(bad_side(&games[1]).other()));
}

/// Python's few lines that restore SIGINT's default action and then run
/// the command: a process started in the background by a shell without job
/// control ignores SIGINT, and its children inherit that, so the referee is
/// started through this to be interruptible wherever the tests run.
const WITH_DEFAULT_SIGINT: &str =
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])";

#[test]
fn ctrl_c_leaves_no_engine_behind() {
    require_python();
    let tag = format!("tag-{}-sigint", std::process::id());
    let hanging = format!(
        "cmd=python3 {} hang --after 0 --tag {tag} -- {}",
        fixture(),
        engine()
    );
    let referee_path = cargo_bin("bg-referee");
    let mut referee = Command::new("python3")
        .args(["-c", WITH_DEFAULT_SIGINT])
        .arg(&referee_path)
        .args(common::strings(&[
            "--game",
            "breakthrough",
            "--engine",
            &hanging,
            "depth=1",
            "--engine",
            &hanging,
            "depth=1",
            "--games",
            "2",
            "--no-records",
            "--quiet",
            "--ping",
            "60000",
        ]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the referee");
    // Wait until the engine hangs in its first search.
    let until = Instant::now() + Duration::from_secs(10);
    while processes_tagged(&tag).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(800));
    assert!(
        !processes_tagged(&tag).is_empty(),
        "the engine never started"
    );
    let status = Command::new("kill")
        .args(["-INT", &referee.id().to_string()])
        .status()
        .expect("send SIGINT");
    assert!(status.success());
    let exit = referee.wait().expect("referee exits");
    assert!(!exit.success());
    assert_nothing_left(&tag);
}

#[test]
fn a_gomocup_engine_plays_through_the_pbrain_adapter() {
    use boardgames::games::gomoku::Gomoku;
    use boardgames::referee::record::parse_sgf;
    let gomoku = cargo_bin("bg-gomoku");
    let records = temp_path("pbrain.sgf");
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gomoku-openings.txt");
    run_referee(&common::strings(&[
        "--game",
        "gomoku",
        "--engine",
        &format!("cmd={} --pbrain", gomoku.display()),
        "proto=pbrain",
        "name=pbrain",
        "st=0.05",
        "timemargin=500",
        "--engine",
        &format!("cmd={}", gomoku.display()),
        "name=ugi",
        "depth=2",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--records",
        records.to_str().unwrap(),
        "--quiet",
    ]));
    let games = parse_sgf(&std::fs::read_to_string(&records).unwrap()).unwrap();
    let _ = std::fs::remove_file(&records);
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(
            game.result.termination,
            Termination::Rules,
            "{:?}",
            game.result
        );
        let mut position = Gomoku::start_position(&Default::default());
        let mut legal = Vec::new();
        for m in &game.moves {
            position.generate_moves(&mut legal);
            let mv = position.parse_move(&m.mv).expect("recorded move parses");
            assert!(legal.contains(&mv), "illegal recorded move {}", m.mv);
            position.make_move(mv);
        }
        assert!(position.outcome().is_some());
        assert_eq!(&game.moves[0].mv, "h8");
    }
}

/// A GTP engine is told the pie rule with benzene's `param_game allow_swap`
/// (GTP has no word for it): without the rule, ours never answers `swap`,
/// and with it the engine is told so.
#[test]
fn a_gtp_engine_is_told_the_pie_rule() {
    let hex = cargo_bin("bg-hex");
    for swap in ["false", "true"] {
        let records = temp_path(&format!("gtp-swap-{swap}.jsonl"));
        let transcript = temp_path(&format!("gtp-swap-{swap}.log"));
        run_referee(&common::strings(&[
            "--game",
            "hex",
            "--rule",
            "BoardSize=5",
            "--rule",
            &format!("Swap={swap}"),
            "--engine",
            &format!("cmd={} --gtp", hex.display()),
            "proto=gtp",
            "name=gtp",
            "st=0.05",
            "timemargin=500",
            "--engine",
            &format!("cmd={}", hex.display()),
            "name=ugi",
            "nodes=300",
            "--games",
            "4",
            "--openings",
            "random:1:5",
            "--records",
            records.to_str().unwrap(),
            "--log",
            transcript.to_str().unwrap(),
            "--quiet",
        ]));
        let log = std::fs::read_to_string(&transcript).unwrap();
        let told = format!("> param_game allow_swap {}", u8::from(swap == "true"));
        assert!(
            log.lines().any(|l| l.contains(&told)),
            "{told} not sent:\n{log}"
        );
        let games = parse_json_lines(&std::fs::read_to_string(&records).unwrap()).unwrap();
        assert_eq!(games.len(), 4);
        for game in &games {
            // A 5x5 game is soon solved: the GTP engine resigns a lost one.
            let ending = game.result.termination;
            assert!(
                matches!(ending, Termination::Rules | Termination::Resignation),
                "{:?}",
                game.result
            );
            if swap == "false" {
                assert!(
                    game.moves.iter().all(|m| m.mv != "swap"),
                    "{:?}",
                    game.moves
                );
            }
        }
        let _ = std::fs::remove_file(records);
        let _ = std::fs::remove_file(transcript);
    }
}

/// A brain that loses the word TURN when it comes while it finishes its
/// own move, as Rapfi does against an engine that answers at once, and
/// the word START of its second game: the referee sends each again, and
/// every game ends by the rules.
#[test]
fn a_brain_that_loses_a_turn_or_a_start_gets_it_again() {
    use boardgames::referee::record::parse_sgf;
    common::require_python();
    let gomoku = cargo_bin("bg-gomoku");
    let records = temp_path("busy.sgf");
    let dropped = temp_path("busy-dropped.txt");
    let _ = std::fs::remove_file(&dropped);
    let brain = format!(
        "python3 '{}/tests/fixtures/busy_brain.py' --dropped '{}' --drop-start -- '{}' --pbrain",
        env!("CARGO_MANIFEST_DIR"),
        dropped.display(),
        gomoku.display()
    );
    run_referee(&common::strings(&[
        "--game",
        "gomoku",
        "--rule",
        "BoardSize=9",
        "--engine",
        &format!("cmd={brain}"),
        "proto=pbrain",
        "name=busy",
        "st=0.05",
        "timemargin=500",
        "--engine",
        &format!("cmd={}", gomoku.display()),
        "name=quick",
        "depth=1",
        "--games",
        "2",
        "--openings",
        "random:2",
        "--records",
        records.to_str().unwrap(),
        "--quiet",
    ]));
    let games = parse_sgf(&std::fs::read_to_string(&records).unwrap()).unwrap();
    let lost = std::fs::read_to_string(&dropped).unwrap_or_default();
    let _ = (
        std::fs::remove_file(&records),
        std::fs::remove_file(&dropped),
    );
    let (starts, turns): (Vec<&str>, Vec<&str>) =
        lost.lines().partition(|line| line.starts_with("START"));
    assert!(turns.len() >= 2, "the brain lost no TURN: {lost:?}");
    assert_eq!(starts, ["START 9"], "the second game's START was lost once");
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(
            game.result.termination,
            Termination::Rules,
            "{:?}",
            game.result
        );
    }
}

/// Runs the referee and returns its standard output; it must succeed.
fn referee_output(args: &[String]) -> String {
    let output = Command::new(cargo_bin("bg-referee"))
        .args(args)
        .output()
        .expect("the referee runs");
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{args:?}: {text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    text
}

/// The summary lines both a whole match and a merge print (the time line
/// and the records' path are the run's own).
fn comparable_summary(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with("Moves:") && !l.starts_with("Records:"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn four_slices_merged_equal_the_whole_match_game_for_game() {
    let match_args = |records: &Path, shard: Option<&str>| {
        let mut words = common::strings(&[
            "--game",
            "breakthrough",
            "--engine",
            &format!("cmd={}", engine()),
            "name=deep",
            "depth=2",
            "--engine",
            &format!("cmd={}", engine()),
            "name=shallow",
            "depth=1",
            "--games",
            "14",
            "--concurrency",
            "2",
            "--openings",
            "random:4:9",
            "--quiet",
            "--records",
            records.to_str().expect("a path"),
        ]);
        if let Some(shard) = shard {
            words.extend(["--shard".to_owned(), shard.to_owned()]);
        }
        words
    };
    let sprt = common::strings(&["--sprt", "elo0=0", "elo1=5"]);
    let whole_records = temp_path("whole.jsonl");
    let mut whole_args = match_args(&whole_records, None);
    whole_args.extend(sprt.iter().cloned());
    let whole = referee_output(&whole_args);
    let mut merge_args = vec!["merge".to_owned()];
    merge_args.extend(sprt.iter().cloned());
    for k in 1..=4 {
        let records = temp_path(&format!("slice-{k}.jsonl"));
        referee_output(&match_args(&records, Some(&format!("{k}/4"))));
        merge_args.push(records.to_str().expect("a path").to_owned());
    }
    let merged = referee_output(&merge_args);
    assert_eq!(
        comparable_summary(&merged),
        comparable_summary(&whole),
        "{merged}\n{whole}"
    );
    assert!(
        whole.contains("Pentanomial") && whole.contains("SPRT"),
        "{whole}"
    );

    let read = |path: &str| parse_json_lines(&std::fs::read_to_string(path).expect("records"));
    let mut whole_games = read(whole_records.to_str().unwrap()).expect("whole records");
    let mut slice_games = Vec::new();
    for path in &merge_args[4..] {
        slice_games.extend(read(path).expect("slice records"));
        let _ = std::fs::remove_file(path);
    }
    let _ = std::fs::remove_file(&whole_records);
    whole_games.sort_by_key(|g| g.round);
    slice_games.sort_by_key(|g| g.round);
    assert_eq!(whole_games.len(), 14);
    assert_eq!(slice_games.len(), 14);
    for (whole, slice) in whole_games.iter().zip(&slice_games) {
        assert_eq!(whole.round, slice.round);
        assert_eq!(whole.opening, slice.opening, "game {}", whole.round);
        let moves = |g: &GameRecord| g.moves.iter().map(|m| m.mv.clone()).collect::<Vec<_>>();
        assert_eq!(moves(whole), moves(slice), "game {}", whole.round);
        assert_eq!(
            whole.result.winner, slice.result.winner,
            "game {}",
            whole.round
        );
    }
}

#[test]
fn merge_refuses_a_game_found_twice_and_a_missing_file() {
    let records = temp_path("twice.jsonl");
    referee_output(&common::strings(&[
        "--game",
        "breakthrough",
        "--engine",
        &format!("cmd={}", engine()),
        "depth=1",
        "--engine",
        &format!("cmd={}", engine()),
        "depth=1",
        "--games",
        "2",
        "--quiet",
        "--shard",
        "1/1",
        "--records",
        records.to_str().unwrap(),
    ]));
    let path = records.to_str().unwrap();
    for args in [
        vec!["merge", path, path],
        vec!["merge", "/nonexistent/records.jsonl"],
    ] {
        let output = Command::new(cargo_bin("bg-referee"))
            .args(&args)
            .output()
            .expect("the referee runs");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(!output.stderr.is_empty());
    }
    let _ = std::fs::remove_file(&records);
}
