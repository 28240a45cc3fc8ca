//! The `hex` binary end to end: transcripts in protocol/transcripts, UGI and
//! GTP sessions, bad input, small-board solving.

use assert_cmd::Command;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

fn run(input: &str) -> String {
    let output = Command::cargo_bin("bg-hex")
        .expect("hex binary")
        .write_stdin(input)
        .timeout(Duration::from_secs(60))
        .output()
        .expect("run hex");
    assert!(
        output.status.success(),
        "hex exited with {:?}",
        output.status
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// Replays one transcript: `> ` lines are the input, `< ` lines the exact
/// expected output in order, `<* ` skips output up to a line starting with
/// the rest.
fn replay(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).expect("transcript");
    let input: String = text
        .lines()
        .filter_map(|l| l.strip_prefix("> "))
        .map(|l| format!("{l}\n"))
        .collect();
    let output = run(&input);
    let mut lines = output.lines();
    for (number, expected) in text.lines().enumerate() {
        let where_ = format!("{}:{}", path.display(), number + 1);
        if let Some(prefix) = expected.strip_prefix("<* ") {
            let found = lines.by_ref().any(|l| l.starts_with(prefix));
            assert!(
                found,
                "{where_}: no line starting with {prefix:?}\n{output}"
            );
        } else if let Some(rest) = expected.strip_prefix('<') {
            let want = rest.strip_prefix(' ').unwrap_or(rest);
            let got = lines.next();
            assert_eq!(got, Some(want), "{where_}\nfull output:\n{output}");
        }
    }
}

#[test]
fn transcripts_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/transcripts");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("transcripts dir") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("hex-") && name.ends_with(".txt") {
            replay(&path);
            count += 1;
        }
    }
    assert!(count >= 3, "expected the hex transcripts, found {count}");
}

fn lines_starting<'a>(output: &'a str, prefix: &str) -> Vec<&'a str> {
    output.lines().filter(|l| l.starts_with(prefix)).collect()
}

#[test]
fn ugi_search_returns_one_legal_bestmove() {
    let output = run(
        "ugi\nsetoption name BoardSize value 7\nposition startpos moves d4\ngo depth 2\nisready\n",
    );
    let best = lines_starting(&output, "bestmove ");
    assert_eq!(best.len(), 1, "{output}");
    let mv = best[0].trim_start_matches("bestmove ");
    assert_ne!(mv, "d4");
    assert!(mv == "swap" || mv.len() == 2, "{mv}");
    assert!(output.contains("readyok"));
}

/// Runs a UGI session, keeping input open until a line starting with
/// `until` appears (end of input would stop the search early).
fn run_until(input: &str, until: &str) -> String {
    let mut child = Process::new(env!("CARGO_BIN_EXE_bg-hex"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn hex");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdin.write_all(input.as_bytes()).expect("write");
    stdin.flush().expect("flush");
    let mut output = String::new();
    loop {
        let mut line = String::new();
        if stdout.read_line(&mut line).expect("read") == 0 {
            break;
        }
        output.push_str(&line);
        if line.starts_with(until) {
            break;
        }
    }
    writeln!(stdin, "quit").expect("write");
    drop(stdin);
    assert!(child.wait().expect("wait").success());
    output
}

#[test]
fn ugi_proves_small_boards_with_mate_scores() {
    let setup = "setoption name Swap value false\nsetoption name BoardSize value ";
    // 3x3: Black wins by taking the centre.
    let output = run_until(&format!("{setup}3\ngo depth 20\n"), "bestmove");
    let last_info = lines_starting(&output, "info depth").pop().expect("info");
    assert!(last_info.contains("score mate "), "{output}");
    assert!(!last_info.contains("score mate -"), "{output}");
    assert_eq!(lines_starting(&output, "bestmove "), vec!["bestmove b2"]);
    // 3x3 after Black takes a corner: White, to move, wins.
    let output = run_until(
        &format!("{setup}3\nposition startpos moves a1\ngo depth 20\n"),
        "bestmove",
    );
    let last_info = lines_starting(&output, "info depth").pop().expect("info");
    assert!(last_info.contains("score mate "), "{output}");
    assert!(!last_info.contains("score mate -"), "{output}");
    // 4x4: the first player wins.
    let output = run_until(&format!("{setup}4\ngo depth 30\n"), "bestmove");
    let last_info = lines_starting(&output, "info depth").pop().expect("info");
    assert!(last_info.contains("score mate "), "{output}");
    assert!(!last_info.contains("score mate -"), "{output}");
}

#[test]
fn ugi_proves_small_boards_lost_for_the_first_player_under_the_pie_rule() {
    // With the swap every first stone loses: White swaps or plays on.
    for size in [3, 4] {
        let output = run_until(
            &format!("setoption name Swap value true\nsetoption name BoardSize value {size}\ngo depth 3\n"),
            "bestmove",
        );
        let last_info = lines_starting(&output, "info depth").pop().expect("info");
        assert!(last_info.contains("score mate -"), "{output}");
    }
}

#[test]
fn gtp_interrupt_ends_a_long_genmove() {
    let mut child = Process::new(env!("CARGO_BIN_EXE_bg-hex"))
        .arg("--gtp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn hex");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    // A long clock: the search would think for many seconds.
    writeln!(stdin, "boardsize 11 11\ntime_left b 3000 0\ngenmove b").expect("write");
    let mut line = String::new();
    for _ in 0..4 {
        line.clear();
        stdout.read_line(&mut line).expect("read");
    }
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    writeln!(stdin, "# interrupt").expect("write");
    line.clear();
    stdout.read_line(&mut line).expect("read");
    let answered = asked.elapsed();
    assert!(line.starts_with("= "), "{line}");
    assert!(line.trim().len() >= 4, "a move, not an empty reply: {line}");
    assert!(
        answered < Duration::from_secs(5),
        "interrupt took {answered:?}"
    );
    writeln!(stdin, "quit").expect("write");
    drop(stdin);
    let status = child.wait().expect("wait");
    assert!(status.success());
}

#[test]
fn gtp_rejects_bad_input_and_keeps_the_position() {
    let output = run("--\n");
    assert!(output.contains("info string error"), "{output}");
    let output = run(
        "boardsize 5 5\nplay black c3\nplay white c3\nplay purple a1\nplay black\nboardsize x\nundo\nundo\nhex-fen\ngenmove\ntime_left b -3\nhex-setfen 5/5 b\nhex-fen\n",
    );
    let replies: Vec<&str> = output.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies[0], "= ");
    assert_eq!(replies[1], "= ");
    for (i, reply) in replies.iter().enumerate().skip(2).take(4) {
        assert!(reply.starts_with("? "), "reply {i}: {reply}");
    }
    assert_eq!(replies[6], "= ");
    assert!(
        replies[7].starts_with("? "),
        "nothing left to undo: {}",
        replies[7]
    );
    assert_eq!(replies[8], "= 5/5/5/5/5 b");
    assert!(replies[9].starts_with("? "));
    assert!(replies[10].starts_with("? "));
    assert!(replies[11].starts_with("? "));
    assert_eq!(replies[12], "= 5/5/5/5/5 b");
}

#[test]
fn gtp_is_detected_from_the_first_command_and_plays_out_of_turn() {
    let output = run("protocol_version\nplay white a1\nplay white b1\nhex-fen\nshowboard\n");
    assert!(output.starts_with("= 2\n\n= \n\n= \n\n"), "{output}");
    assert!(
        output.contains("= oo9/11/11/11/11/11/11/11/11/11/11 b"),
        "{output}"
    );
}

/// The analysis commands HexGui draws: carriers, edge connections,
/// must-play and dead cells; bad colours and cells are GTP errors.
#[test]
fn gtp_shows_virtual_connections_and_must_play() {
    let output = run("boardsize 5\nplay b c2\nplay w b3\nplay b c4\n\
         hexgui-analyze_commands\n\
         vc-between-cells-semi b c2 c4\nvc-between-cells-full b c2 c4\n\
         vc-must-play w\nvc-verdict w\nvc-verdict b\nvc-edge w\n\
         vc-between-cells-full b c2 c1\ninferior-cells\n\
         vc-between-cells-full b c2 b3\nvc-between-cells-full x c2 c4\n\
         vc-between-cells-full b z9 c4\nvc-between-cells-semi b swap c4\n\
         vc-between-cells-full b c2\nvc-must-play\nvc-edge b extra\nhex-fen\n\
         inferior-captured w\ninferior-report b\n");
    let replies: Vec<&str> = output.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies[..4], ["= "; 4]);
    for line in [
        "plist/VC Between Cells Full/vc-between-cells-full %c %P",
        "plist/VC Must-Play/vc-must-play %m",
        "plist/Inferior Cells/inferior-cells %m",
        "plist/Inferior Captured/inferior-captured %c",
        "string/Inferior Report/inferior-report %m",
    ] {
        assert!(replies[4].contains(line), "{}", replies[4]);
    }
    // c2 and c4 share c3 alone (White holds b3): a semi connection.
    assert_eq!(replies[5], "= c3");
    assert_eq!(replies[6], "= ");
    // So White must play c3, and Black on the move wins.
    assert_eq!(replies[7], "= c3");
    assert_eq!(replies[8], "= must play c3");
    assert!(replies[9].starts_with("= win within "), "{}", replies[9]);
    assert_eq!(replies[10], "= none");
    // Adjacent cells: a full connection with an empty carrier.
    assert_eq!(replies[11], "= ");
    // White to move: Black's c2 and c4 hold their edges and need only c3
    // between them, so every other cell is filled in or inferior.
    assert_eq!(
        replies[12],
        "= a1 b1 c1 d1 e1 a2 b2 d2 e2 a3 d3 e3 a4 b4 d4 e4 a5 b5 c5 d5 e5"
    );
    for (i, reply) in replies.iter().enumerate().skip(13).take(7) {
        assert!(reply.starts_with("? "), "reply {i}: {reply}");
    }
    // The analysis leaves the position and the side to move alone.
    assert_eq!(replies[20], "= 5/2x2/1o3/2x2/5 w");
    // White's b3 captures its edge bridge a3-a4, then b4 and a5.
    assert_eq!(replies[21], "= a3 a4 b4 a5");
    let report: Vec<&str> = replies[22].lines().collect();
    assert_eq!(report[0], "= dead");
    assert!(
        report[1].starts_with("captured-black c1 d1"),
        "{}",
        replies[22]
    );
    assert!(report[3].starts_with("vulnerable e1>e2"), "{}", replies[22]);
    assert!(report[4].contains("c3>d2"), "{}", replies[22]);
}

/// `hex-move-values` scores every move of the position for HexGui's
/// `pspairs` display, best first, and leaves the position alone.
#[test]
fn gtp_move_values_score_every_move_best_first() {
    let output = run("boardsize 9\nhex-setoption Swap false\nplay b e5\n\
         hex-move-values 1\nhex-move-values 0\nhex-move-values x\nhex-fen\n");
    let replies: Vec<&str> = output.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies[..3], ["= "; 3]);
    let words: Vec<&str> = replies[3]
        .strip_prefix("= ")
        .unwrap_or_else(|| panic!("{}", replies[3]))
        .split_whitespace()
        .collect();
    let pairs: Vec<(&str, i32)> = words
        .chunks(2)
        .map(|pair| {
            (
                pair[0],
                pair[1].parse().unwrap_or_else(|_| panic!("{pair:?}")),
            )
        })
        .collect();
    // Eighty empty cells, none dead on a board with one stone.
    assert_eq!(pairs.len(), 80, "{}", replies[3]);
    let mut cells: Vec<&str> = pairs.iter().map(|p| p.0).collect();
    cells.sort_unstable();
    cells.dedup();
    assert_eq!(cells.len(), 80);
    assert!(!cells.contains(&"e5"));
    assert!(pairs.windows(2).all(|w| w[0].1 >= w[1].1), "{}", replies[3]);
    assert!(replies[4].starts_with("? usage"), "{}", replies[4]);
    assert!(replies[5].starts_with("? usage"), "{}", replies[5]);
    assert_eq!(replies[6], "= 9/9/9/9/4x4/9/9/9/9 w");
}
