//! The cavalo binary driven through its protocol: the transcripts in
//! protocol/transcripts/cavalo-*.txt, searches, bench and bad input.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use assert_cmd::Command;
use boardgames::core::Presentation;
use boardgames::games::cavalo::Cavalo;

mod common;

/// Runs the engine on `input` and returns its output lines.
fn run(input: &str) -> Vec<String> {
    let output = Command::cargo_bin("bg-cavalo")
        .expect("the cavalo binary is built")
        .write_stdin(input)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("the engine runs");
    assert!(output.status.success(), "exit status {:?}", output.status);
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Sends `setup` and a `go`, and reads the output up to its `bestmove`
/// before quitting (the end of input would stop the search early).
fn run_search(setup: &str, go: &str) -> Vec<String> {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("bg-cavalo"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "{setup}\n{go}").expect("engine reads");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut lines = Vec::new();
    for line in stdout.lines() {
        let line = line.expect("engine writes");
        let done = line.starts_with("bestmove");
        lines.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").expect("engine reads");
    drop(stdin);
    assert!(child.wait().expect("engine exits").success());
    lines
}

/// Replays a transcript: `> ` lines are sent, `< ` lines must appear in the
/// output in order.
fn replay(name: &str) {
    let path = format!("{}/protocol/transcripts/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("transcript exists");
    let input: String = text
        .lines()
        .filter_map(|l| l.strip_prefix("> "))
        .map(|l| format!("{l}\n"))
        .collect();
    let output = run(&input);
    let mut next = 0;
    for expected in text.lines().filter_map(|l| l.strip_prefix("< ")) {
        match output[next..].iter().position(|l| l == expected) {
            Some(offset) => next += offset + 1,
            None => panic!("{name}: missing '{expected}' after line {next} of\n{output:#?}"),
        }
    }
}

#[test]
fn transcript_seed_game() {
    replay("cavalo-seed-game.txt");
}

#[test]
fn transcript_basics() {
    replay("cavalo-basics.txt");
}

fn bestmove(output: &[String]) -> String {
    let lines: Vec<&String> = output
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .collect();
    assert_eq!(lines.len(), 1, "exactly one bestmove in {output:#?}");
    lines[0]["bestmove ".len()..].to_string()
}

fn legal_moves(position: &str) -> Vec<String> {
    run(&format!("{position}\ngo perft 1\n"))
        .into_iter()
        .filter_map(|l| l.split_once(": ").map(|(m, _)| m.to_string()))
        .filter(|m| m != "Nodes searched")
        .collect()
}

#[test]
fn a_search_reports_depth_nodes_cutoffs_and_time_and_plays_a_legal_move() {
    let position = "position startpos moves f1 g10/d2 e3";
    let output = run_search(position, "go depth 8");
    let best = bestmove(&output);
    assert!(legal_moves(position).contains(&best), "{best}");
    let last_info = output
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .expect("an info line");
    for field in [" nodes ", " time ", " score ", " pv "] {
        assert!(last_info.contains(field), "{last_info}");
    }
    assert!(output.iter().any(|l| l.starts_with("info string cutoffs ")));
    assert!(last_info.starts_with("info depth 8 "), "{last_info}");
}

#[test]
fn a_forced_pass_is_played_and_the_end_is_reported() {
    // White's knight on a1 is stuck; Black can still go to h9, then nothing.
    let mut rows = vec!["x,x,x,x,x,x,x,x,x,x".to_string(); 10];
    rows[8] = "x,x,x,x,x,x,x,50,x,x".to_string();
    let fen = format!("{} a1 j10 60 20 w 2", rows.join("/"));
    assert_eq!(
        bestmove(&run_search(
            &format!("position fen {fen}"),
            "go movetime 200"
        )),
        "pass"
    );
    let output = run(&format!(
        "position fen {fen}\nquery gameover\nposition fen {fen} moves pass h9\nquery result\nquery score\n"
    ));
    assert!(output.contains(&"response false".to_string()));
    assert!(output.contains(&"response p2win".to_string()));
    assert!(output.contains(&"response 60 70".to_string()));
}

#[test]
fn bad_input_is_answered_and_changes_nothing() {
    let output = run(concat!(
        "position startpos moves f1 g10\n",
        "garbage\n",
        "position fen nonsense\n",
        "position startpos moves f1 g10 e3 e3\n",
        "position startpos moves f1 g10 zz\n",
        "setoption name Placement value sometimes\n",
        "go perft x\n",
        "query score\n",
        "d\n",
    ));
    let errors = output
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert_eq!(errors, 6, "{output:#?}");
    assert!(output.contains(&"response 98 99".to_string()));
    assert!(output
        .iter()
        .any(|l| l.starts_with("Fen: ") && l.ends_with(" f1 g10 98 99 w 2")));
}

#[test]
fn rule_options_change_the_start_position_and_the_moves() {
    let output = run(concat!(
        "setoption name Placement value choose\n",
        "position startpos\n",
        "go perft 1\n",
        "setoption name BoardSeed value 12\n",
        "d\n",
    ));
    assert!(output.contains(&"Nodes searched: 10".to_string()));
    let default_start = run("d\n");
    let fen = |lines: &[String]| lines.iter().find(|l| l.starts_with("Fen: ")).cloned();
    assert_ne!(fen(&output), fen(&default_start));
}

#[test]
fn bench_prints_nodes_and_speed() {
    let output = Command::cargo_bin("bg-cavalo")
        .expect("the cavalo binary is built")
        .args(["bench", "6"])
        .output()
        .expect("bench runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("Nodes searched"), "{text}");
    let last = text.trim_end().lines().last().unwrap_or("").to_string();
    assert!(last.starts_with("Nodes/second"), "{text}");
}

#[test]
fn a_timed_search_reports_the_solvers_proven_win() {
    // White (120) to move against Black (100), whose knight on h9 can only
    // ever reach the 4 on g7: every move wins, and the solver proves it.
    let mut grid = vec!["x"; 100];
    grid[12] = "30"; // c2
    grid[21] = "5"; // b3
    grid[66] = "4"; // g7
    let rows: Vec<String> = grid.chunks(10).map(|r| r.join(",")).collect();
    let fen = format!("{} a1 h9 120 100 w 2", rows.join("/"));
    let output = run_search(&format!("uci\nposition fen {fen}"), "go movetime 300");
    let last_info = output
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    assert!(last_info.contains("score mate "), "{last_info}");
    assert!(!last_info.contains("score mate -"), "{last_info}");
    assert!(last_info.starts_with("info depth 1 "), "{last_info}");
    assert!(
        !last_info.contains(" nodes 0 "),
        "the solver's nodes count: {last_info}"
    );
    let mv = bestmove(&output);
    assert!(["c2", "b3"].contains(&mv.as_str()), "{mv}");
    // A depth-limited search does not ask the solver: its answer must not
    // depend on the clock.
    let output = run_search(&format!("uci\nposition fen {fen}"), "go depth 3");
    assert!(output.iter().any(|l| l.starts_with("info depth 3 ")));
}

#[test]
fn an_analysis_reports_the_solvers_proof_and_waits_for_stop() {
    // The fourth bench position, 64 cells: few enough for the root solver,
    // which proves it a loss for White between two iterations of
    // `go infinite`.
    let fen = Cavalo::bench_positions()[3];
    let mut engine = common::Engine::start("cavalo");
    engine.send(&format!("position fen {fen}"));
    engine.send("go infinite");
    let lines = engine.read_until(|l| l.contains(" score mate "));
    let proof = lines.last().expect("the line read last");
    assert!(proof.contains(" score mate -"), "{proof}");
    // Between two iterations: the proof repeats the depth of the last one.
    let depth_of = |line: &str| line.split_whitespace().nth(2).map(str::to_string);
    let iteration = &lines[lines.len() - 2];
    assert_eq!(depth_of(proof), depth_of(iteration), "{lines:?}");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    // The proof ends the deepening, not the analysis: nothing more comes
    // until `stop`, and the move played is the one the proof line shows.
    assert_eq!(
        engine.line_within(std::time::Duration::from_millis(300)),
        None
    );
    let pv_move = proof
        .split(" pv ")
        .nth(1)
        .and_then(|pv| pv.split_whitespace().next())
        .expect("a pv")
        .to_string();
    let rest = engine.ask("stop", "bestmove");
    assert_eq!(
        rest.last().map(String::as_str),
        Some(format!("bestmove {pv_move}").as_str())
    );
}

/// The moves of a self-played game of board 0 and its result line.
fn self_played_game() -> (Vec<String>, String) {
    let output = Command::cargo_bin("bg-cavalo")
        .unwrap()
        .args(["selfplay", "5"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    let moves = text
        .lines()
        .filter_map(|line| line.split(" plays ").nth(1))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_string)
        .collect();
    let result = text
        .lines()
        .find(|line| line.starts_with("Result:"))
        .unwrap_or_default()
        .to_string();
    (moves, result)
}

/// The standard output of a `cavalo-tools` run, which must succeed.
fn cavalo_tools_output(args: &[&str]) -> String {
    let output = Command::cargo_bin("bg-cavalo-tools")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{args:?}");
    String::from_utf8_lossy(&output.stdout).to_string()
}

#[test]
fn the_verdicts_of_a_games_last_positions_name_its_winner() {
    let (moves, result) = self_played_game();
    assert!(moves.len() > 20, "{moves:?}");
    let winner = if result.contains("white wins") {
        "white wins"
    } else if result.contains("black wins") {
        "black wins"
    } else {
        "draw"
    };
    let mut args = vec!["verdicts", "0", "10000000", "44"];
    args.extend(moves.iter().map(String::as_str));
    let text = cavalo_tools_output(&args);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 5, "{text}");
    for line in &lines {
        assert!(line.ends_with(" nodes)"), "not settled: {line}");
        assert!(line.contains(winner), "{line} but the game ended: {result}");
    }
}

#[test]
fn verdicts_refuse_an_illegal_move() {
    // On board 0 White's placement is f1: the highest cell of row 1.
    let output = Command::cargo_bin("bg-cavalo-tools")
        .unwrap()
        .args(["verdicts", "0", "1000", "100", "a1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("illegal"));
}

#[test]
fn the_seeds_lisp_plays_only_with_its_own_evaluation() {
    let output = Command::cargo_bin("bg-cavalo-tools")
        .unwrap()
        .args(["match", "boards", "1", "search", "lisp", "eval", "diff"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("use it with eval abs"));
    assert!(output.stdout.is_empty());
    // With |p1 - p2| it plays: one board, one colour, quick times.
    let text = cavalo_tools_output(&[
        "match",
        "boards",
        "1",
        "first-seed",
        "3",
        "colour",
        "white",
        "search",
        "lisp",
        "eval",
        "abs",
        "ours",
        "20",
        "baseline",
        "20",
    ]);
    assert!(text.starts_with("board 3 engine as white: "), "{text}");
    assert!(text.contains(" in 1 games: "), "{text}");
}

#[test]
fn balance_scores_each_board_after_the_placements() {
    let text = cavalo_tools_output(&["balance", "2", "0", "20"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (line, board) in lines.iter().zip(["board 0: ", "board 1: "]) {
        assert!(
            line.starts_with(board) && line.ends_with(" for white"),
            "{line}"
        );
        let score = &line[board.len()..line.len() - " for white".len()];
        assert!(score.parse::<i32>().is_ok_and(|s| s.abs() < 1000), "{line}");
    }
    assert!(lines[2].starts_with("2 boards: mean "), "{text}");
}

/// The nodes of a `solvebench` line ("... Win for the mover, 123 nodes, 4 ms").
fn solve_nodes(line: &str) -> u64 {
    let before = line.split(" nodes").next().unwrap_or_default();
    let number = before.rsplit(' ').next().unwrap_or_default();
    number
        .parse()
        .unwrap_or_else(|_| panic!("no node count in {line}"))
}

#[test]
fn solvebench_solves_the_same_positions_with_the_same_nodes_every_time() {
    let args = ["solvebench", "3", "0", "60", "10000000"];
    let first = cavalo_tools_output(&args);
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 4, "{first}");
    let mut sum = 0;
    for line in &lines[..3] {
        assert!(line.starts_with("board "), "{line}");
        assert!(
            [" Win ", " Loss ", " Draw "]
                .iter()
                .any(|v| line.contains(v)),
            "not solved: {line}"
        );
        let cells: u32 = line
            .split(": ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(u32::MAX);
        assert!(cells <= 60, "{line}");
        sum += solve_nodes(line);
    }
    assert!(sum > 0);
    assert!(
        lines[3].starts_with(&format!("total {sum} nodes, ")) && lines[3].ends_with(" 0 unsolved"),
        "{first}"
    );
    // The positions do not depend on the clock and each solve starts from an
    // empty table, so a second run repeats every count.
    let again = cavalo_tools_output(&args);
    let counts = |text: &str| -> Vec<u64> { text.lines().take(3).map(solve_nodes).collect() };
    assert_eq!(counts(&first), counts(&again));
}

#[test]
fn a_match_counts_the_boards_the_engine_leads_over_both_colours() {
    let text = cavalo_tools_output(&[
        "match",
        "boards",
        "2",
        "first-seed",
        "0",
        "ours",
        "5",
        "baseline",
        "5",
        "eval",
        "diff",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    let mut expected = (0, 0);
    for pair in lines[..4].chunks(2) {
        let mut margin = 0;
        for line in pair {
            // "board 0 engine as white: win (1145 to 1084)"
            let scores: Vec<i32> = line
                .rsplit('(')
                .next()
                .unwrap_or_default()
                .trim_end_matches(')')
                .split(" to ")
                .filter_map(|n| n.parse().ok())
                .collect();
            assert_eq!(scores.len(), 2, "{line}");
            margin += if line.contains("as white") {
                scores[0] - scores[1]
            } else {
                scores[1] - scores[0]
            };
        }
        match margin.cmp(&0) {
            std::cmp::Ordering::Greater => expected.0 += 1,
            std::cmp::Ordering::Less => expected.1 += 1,
            std::cmp::Ordering::Equal => {}
        }
    }
    assert!(lines[4].starts_with("engine "), "{text}");
    assert_eq!(
        lines[5],
        format!(
            "over both colours of a board, the engine's margin was ahead on {} and behind on {} of 2 boards",
            expected.0, expected.1
        )
    );
}

#[test]
fn features_follow_one_game_ply_by_ply() {
    // One quick self-played game: each line is one position of the middle
    // game. A jump gains its landing value (0 to 99) and a pass nothing, so
    // the futures of two positions in a row, each for its own mover, add up
    // to what the first mover's move gained; and the knights' colours
    // compare the other way round after a jump, as every jump changes colour.
    let text = cavalo_tools_output(&["features", "1", "5", "5"]);
    let rows: Vec<Vec<i32>> = text
        .lines()
        .map(|line| line.split(' ').map(|f| f.parse().unwrap()).collect())
        .collect();
    assert!(rows.len() >= 10, "{text}");
    for row in &rows {
        assert_eq!(row.len(), 22, "{row:?}");
        assert!((60..=94).contains(&row[1]), "{row:?}");
    }
    for pair in rows.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let gained = before[0] + after[0];
        if after[1] < before[1] {
            assert!((0..=99).contains(&gained), "{before:?} then {after:?}");
            assert_ne!(before[19], after[19], "{before:?} then {after:?}");
        } else {
            assert_eq!(after[1], before[1], "{before:?} then {after:?}");
            assert_eq!(gained, 0, "a pass gains nothing: {before:?} then {after:?}");
        }
    }
}

#[test]
fn a_match_gives_the_engine_its_late_time_once_few_cells_are_left() {
    let text = cavalo_tools_output(&[
        "match",
        "boards",
        "1",
        "first-seed",
        "3",
        "colour",
        "white",
        "ours",
        "5",
        "ours-late",
        "9",
        "late-cells",
        "80",
        "baseline",
        "7",
        "eval",
        "diff",
        "verbose",
        "1",
    ]);
    let (mut early, mut late) = (0, 0);
    for line in text.lines().filter(|l| l.starts_with("  ")) {
        // "  engine d3 196 83 (96 cells, 5 ms)"
        let inside = line.rsplit('(').next().unwrap_or_default();
        let numbers: Vec<u32> = inside
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse().ok())
            .collect();
        assert_eq!(numbers.len(), 2, "{line}");
        let (cells, ms) = (numbers[0], numbers[1]);
        if line.starts_with("  seed") {
            assert_eq!(ms, 7, "{line}");
        } else if cells > 80 {
            assert_eq!(ms, 5, "{line}");
            early += 1;
        } else {
            assert_eq!(ms, 9, "{line}");
            late += 1;
        }
    }
    assert!(early >= 3 && late >= 3, "{text}");
    let refused = Command::cargo_bin("bg-cavalo-tools")
        .unwrap()
        .args(["match", "late-cells", "-1"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a number"));
}

#[test]
fn cavalo_tools_refuses_a_bad_number_instead_of_using_its_default() {
    for args in [
        vec!["balance", "abc"],
        vec!["solvebench", "12", "0", "many"],
        vec!["labels", "10", "1", "1000", "80", "70"],
        vec!["match", "boards", "x"],
        vec!["nonsense"],
    ] {
        let output = Command::cargo_bin("bg-cavalo-tools")
            .unwrap()
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?} printed results");
        assert!(!output.stderr.is_empty(), "{args:?} said nothing");
    }
    let help = Command::cargo_bin("bg-cavalo-tools")
        .unwrap()
        .arg("--help")
        .output()
        .unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("verdicts"));
}
