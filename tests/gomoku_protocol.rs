//! The gomoku binary under both front-ends: transcripts, a full Gomocup game,
//! BOARD resumption and TAKEBACK, front-end selection, and bad input.

mod common;

use std::time::{Duration, Instant};

use common::{replay_transcript, transcripts_of, Engine};

#[test]
fn transcripts_replay() {
    let transcripts = transcripts_of("gomoku");
    assert!(transcripts.len() >= 2);
    // Our transcripts carry `#` comment lines; the shared replayer gets them
    // without.
    let dir = std::env::temp_dir().join(format!("gomoku-transcripts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for path in transcripts {
        let text = std::fs::read_to_string(&path).expect("transcript is readable");
        let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        let copy = dir.join(path.file_name().expect("a file name"));
        std::fs::write(&copy, kept.join("\n") + "\n").expect("temp transcript");
        replay_transcript("gomoku", &copy);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn parse_point(line: &str) -> (usize, usize) {
    let (x, y) = line.split_once(',').expect("a move is x,y");
    (
        x.trim().parse().expect("x is a number"),
        y.trim().parse().expect("y is a number"),
    )
}

/// Reads the engine's move after a BEGIN/TURN/BOARD, skipping MESSAGE lines.
fn engine_move(engine: &mut Engine) -> (usize, usize) {
    let lines = engine.read_until(|l| !l.starts_with("MESSAGE"));
    parse_point(lines.last().expect("a move line"))
}

fn five_from(board: &[Vec<u8>], x: usize, y: usize) -> bool {
    let size = board.len() as i32;
    let stone = board[y][x];
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let mut length = 1;
        for sign in [1, -1] {
            let (mut nx, mut ny) = (x as i32 + sign * dx, y as i32 + sign * dy);
            while nx >= 0
                && ny >= 0
                && nx < size
                && ny < size
                && board[ny as usize][nx as usize] == stone
            {
                length += 1;
                nx += sign * dx;
                ny += sign * dy;
            }
        }
        length >= 5
    })
}

/// A whole game through START / BEGIN / TURN against an opponent that takes
/// the first empty cell: every engine move is legal and the engine wins.
#[test]
fn a_full_gomocup_game_is_won() {
    let mut engine = Engine::start_with_args("gomoku", &["--pbrain"]);
    let size = 15;
    engine.send("INFO timeout_turn 100");
    assert_eq!(engine.ask("START 15", "OK"), ["OK"]);
    let mut board = vec![vec![0u8; size]; size];
    engine.send("BEGIN");
    let mut winner = 0;
    for _ in 0..60 {
        let (x, y) = engine_move(&mut engine);
        assert_eq!(board[y][x], 0, "engine played on a stone at {x},{y}");
        board[y][x] = 1;
        if five_from(&board, x, y) {
            winner = 1;
            break;
        }
        let (ox, oy) = (0..size * size)
            .map(|i| (i % size, i / size))
            .find(|&(cx, cy)| board[cy][cx] == 0)
            .expect("an empty cell");
        board[oy][ox] = 2;
        assert!(!five_from(&board, ox, oy), "the naive opponent won");
        engine.send(&format!("TURN {ox},{oy}"));
    }
    assert_eq!(winner, 1);
    engine.send("END");
    engine.finish();
}

#[test]
fn board_resumption_and_takeback_keep_the_game_consistent() {
    let mut engine = Engine::start_with_args("gomoku", &["--pbrain"]);
    engine.send("INFO timeout_turn 150");
    engine.ask("START 15", "OK");
    // We (1) have an open three on row 4: the engine makes an open four.
    engine.send("BOARD");
    for line in [
        "5,3,1", "0,14,2", "6,3,1", "14,14,2", "7,3,1", "14,0,2", "DONE",
    ] {
        engine.send(line);
    }
    let (x, y) = engine_move(&mut engine);
    assert!(y == 3 && (x == 4 || x == 8), "engine played {x},{y}");
    // Take back the engine's move and ours, then replay ours: same threat.
    assert_eq!(engine.ask(&format!("TAKEBACK {x},{y}"), "OK"), ["OK"]);
    assert_eq!(engine.ask("TAKEBACK 14,0", "OK"), ["OK"]);
    engine.send("TURN 14,0");
    let (x, y) = engine_move(&mut engine);
    assert!(y == 3 && (x == 4 || x == 8), "engine played {x},{y}");
    // Taking back a stone that is not the last move is refused.
    assert!(engine.ask("TAKEBACK 5,3", "ERROR")[0].starts_with("ERROR"));
    engine.send("END");
    engine.finish();
}

#[test]
fn front_end_is_chosen_by_flag_name_or_first_line() {
    // By the first line.
    let mut engine = Engine::start("gomoku");
    let about = engine.ask("ABOUT", "name=");
    assert!(about[0].starts_with("name=\"gomoku\""));
    engine.send("END");
    engine.finish();
    // UGI otherwise.
    let mut engine = Engine::start("gomoku");
    assert_eq!(
        engine.ask("ugi", "ugiok").last().map(String::as_str),
        Some("ugiok")
    );
    engine.send("quit");
    engine.finish();
    // By the executable's name.
    let dir = std::env::temp_dir().join(format!("gomoku-pbrain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let renamed = dir.join("pbrain-boardgames");
    std::fs::copy(common::binary("gomoku"), &renamed).expect("copy the binary");
    let output = std::process::Command::new(&renamed)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            if let Some(stdin) = child.stdin.as_mut() {
                stdin.write_all(b"\nABOUT\nEND\n")?;
            }
            child.wait_with_output()
        })
        .expect("the renamed binary runs");
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("name=\"gomoku\""), "{text}");
}

/// The executable a Gomocup manager runs as it is: Gomocup from the first
/// line, even one UGI would take.
#[test]
fn pbrain_bg_gomoku_speaks_gomocup_from_the_start() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-bg-gomoku"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            if let Some(stdin) = child.stdin.as_mut() {
                stdin.write_all(b"ugi\nINFO thread_num 2\nSTART 15\nABOUT\nEND\n")?;
            }
            child.wait_with_output()
        })
        .expect("pbrain-bg-gomoku runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("UNKNOWN"), "{text}");
    assert_eq!(lines[1], "OK", "{text}");
    assert!(lines[2].starts_with("name=\"gomoku\""), "{text}");
    assert_eq!(lines.len(), 3, "{text}");
}

#[test]
fn gomocup_bad_input_is_answered_and_changes_nothing() {
    let mut engine = Engine::start_with_args("gomoku", &["--pbrain"]);
    engine.send("INFO timeout_turn 100");
    for (line, prefix) in [
        ("START 4", "ERROR"),
        ("START 23", "ERROR"),
        ("START", "ERROR"),
        ("RECTSTART 20,15", "ERROR"),
        ("START 15", "OK"),
        ("TURN", "ERROR"),
        ("TURN -1,3", "ERROR"),
        ("TURN 3,x", "ERROR"),
        ("TAKEBACK 3,3", "ERROR"),
        ("INFO", "ERROR"),
        ("hello there", "UNKNOWN"),
        ("\u{fffd}", "UNKNOWN"),
    ] {
        let answer = engine.ask(line, prefix);
        assert_eq!(answer.len(), 1, "{line}: {answer:?}");
    }
    // A bad BOARD line is reported; the block goes on.
    engine.send("BOARD");
    assert!(engine.ask("7,7", "ERROR")[0].starts_with("ERROR"));
    engine.send("7,7,2");
    engine.send("DONE");
    let (x, y) = engine_move(&mut engine);
    assert_ne!((x, y), (7, 7));
    assert!(x.abs_diff(7) <= 2 && y.abs_diff(7) <= 2, "{x},{y}");
    engine.send("END");
    engine.finish();
}

#[test]
fn gomocup_time_limits_are_respected() {
    let mut engine = Engine::start_with_args("gomoku", &["--pbrain"]);
    engine.ask("START 15", "OK");
    engine.send("INFO timeout_turn 2000");
    engine.send("INFO timeout_match 600000");
    // Little left on the match clock: the move must come well within it.
    engine.send("INFO time_left 600");
    engine.send("BOARD");
    for line in ["7,7,2", "8,8,1", "8,7,2", "DONE"] {
        engine.send(line);
    }
    let start = Instant::now();
    engine_move(&mut engine);
    assert!(
        start.elapsed() < Duration::from_millis(600),
        "took {:?}",
        start.elapsed()
    );
    engine.send("END");
    engine.finish();
}

#[test]
fn ugi_reports_a_forced_win_as_mate() {
    let mut engine = Engine::start("gomoku");
    engine.ask("ugi", "ugiok");
    // Black: h8 makes a four and h6-h7-h8; after i8, h5 makes two fours.
    engine.send("position fen 15/15/15/15/15/15/7o7/3oxxx8/7x7/7x7/3oxxx8/15/15/15/15 x");
    let lines = engine.ask("go depth 4", "bestmove");
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    assert!(last_info.contains("score mate "), "{last_info}");
    engine.send("quit");
    engine.finish();
}

#[test]
fn a_timed_search_plays_a_threat_win_at_once() {
    let mut engine = Engine::start("gomoku");
    engine.ask("ugi", "ugiok");
    // Black f8-g8 and h9-h10: h8 makes two open threes, a win in 5 plies
    // that no sequence of fours reaches.
    engine.send("position startpos moves f8 a1 g8 a15 h10 o1 h9 o15");
    let lines = engine.ask("go movetime 2000", "bestmove");
    let first_info = lines
        .iter()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    assert!(
        first_info.starts_with("info depth 1 ") && first_info.contains(" score mate 3 "),
        "{first_info}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("bestmove h8"));
    engine.send("quit");
    engine.finish();
}
