//! The Breakthrough engine driven through its real binary: the protocol
//! contract of protocol/PROTOCOL.md, perft against an independent move
//! generator, game end, and bad input.

mod common;

use common::{replay_transcript, transcripts_of, Engine};

const ENGINE: &str = "breakthrough";
const START_FEN: &str = "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1";

/// A deliberately plain Breakthrough move generator on a grid of any size,
/// written apart from the engine's bitboards so that perft checks one
/// against the other.
mod reference {
    #[derive(Clone)]
    pub struct Position {
        /// `cells[rank][file]`: 1 White, 2 Black, 0 empty; rank 0 is rank 1.
        pub cells: Vec<Vec<u8>>,
        pub white_to_move: bool,
    }

    /// Reads the board's size from the FEN itself: one rank per `/`.
    pub fn from_fen(fen: &str) -> Position {
        let mut fields = fen.split_whitespace();
        let mut cells: Vec<Vec<u8>> = Vec::new();
        for text in fields.next().unwrap_or_default().split('/') {
            let mut rank = Vec::new();
            for c in text.chars() {
                match c {
                    'P' => rank.push(1),
                    'p' => rank.push(2),
                    d => rank.extend(std::iter::repeat_n(0, d.to_digit(10).unwrap_or(0) as usize)),
                }
            }
            cells.push(rank);
        }
        cells.reverse();
        Position {
            cells,
            white_to_move: fields.next() == Some("w"),
        }
    }

    fn over(p: &Position) -> bool {
        let count = |side| p.cells.iter().flatten().filter(|&&c| c == side).count();
        let last = p.cells.len() - 1;
        p.cells[last].contains(&1) || p.cells[0].contains(&2) || count(1) == 0 || count(2) == 0
    }

    fn children(p: &Position) -> Vec<Position> {
        let (me, them, step): (u8, u8, i32) = if p.white_to_move {
            (1, 2, 1)
        } else {
            (2, 1, -1)
        };
        let (rows, columns) = (p.cells.len() as i32, p.cells[0].len() as i32);
        let mut out = Vec::new();
        for rank in 0..rows {
            for file in 0..columns {
                if p.cells[rank as usize][file as usize] != me {
                    continue;
                }
                let to_rank = rank + step;
                if !(0..rows).contains(&to_rank) {
                    continue;
                }
                for df in [-1i32, 0, 1] {
                    let to_file = file + df;
                    if !(0..columns).contains(&to_file) {
                        continue;
                    }
                    let target = p.cells[to_rank as usize][to_file as usize];
                    let allowed = if df == 0 {
                        target == 0
                    } else {
                        target == 0 || target == them
                    };
                    if allowed {
                        let mut next = p.clone();
                        next.cells[rank as usize][file as usize] = 0;
                        next.cells[to_rank as usize][to_file as usize] = me;
                        next.white_to_move = !p.white_to_move;
                        out.push(next);
                    }
                }
            }
        }
        out
    }

    /// Positions exactly `depth` plies deep: a game over sooner adds nothing.
    pub fn perft_strict(p: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if over(p) {
            return 0;
        }
        children(p).iter().map(|c| perft_strict(c, depth - 1)).sum()
    }

    pub fn perft(p: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if over(p) {
            return 0;
        }
        children(p)
            .iter()
            .map(|c| if over(c) { 1 } else { perft(c, depth - 1) })
            .sum()
    }
}

fn engine_perft(engine: &mut Engine, fen: &str, depth: u32) -> u64 {
    engine_perft_counting(engine, fen, &depth.to_string())
}

/// `go perft` with `depth` and what follows it (e.g. `3 strict`).
fn engine_perft_counting(engine: &mut Engine, fen: &str, depth: &str) -> u64 {
    engine.send(&format!("position fen {fen}"));
    let lines = engine.ask(&format!("go perft {depth}"), "Nodes searched:");
    let total: u64 = lines
        .last()
        .and_then(|l| l.split(':').nth(1))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    let per_move: u64 = lines
        .iter()
        .filter(|l| l.len() > 5 && l.as_bytes()[4] == b':')
        .filter_map(|l| l[5..].trim().parse::<u64>().ok())
        .sum();
    assert_eq!(per_move, total, "the per-move counts add up to the total");
    total
}

#[test]
fn perft_strict_counts_only_positions_at_the_full_depth() {
    let mut engine = Engine::start(ENGINE);
    let fens = [
        // White's a7 wins at once; the rest of the game goes on.
        "pppp4/P7/8/8/8/8/1p6/P1P5 w 0 1",
        "1ppp4/8/P7/3pp3/3PP3/8/1p6/P1PP4 b 0 1",
        "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1",
    ];
    let mut differ = 0;
    for fen in fens {
        let position = reference::from_fen(fen);
        for depth in 1..=3 {
            let strict = engine_perft_counting(&mut engine, fen, &format!("{depth} strict"));
            let ends = engine_perft(&mut engine, fen, depth);
            assert_eq!(
                strict,
                reference::perft_strict(&position, depth),
                "{fen} {depth}"
            );
            assert_eq!(ends, reference::perft(&position, depth), "{fen} {depth}");
            differ += usize::from(strict != ends);
        }
    }
    assert!(differ >= 2, "the two counts never differed");
}

#[test]
fn perft_matches_the_published_counts_from_the_start() {
    let mut engine = Engine::start(ENGINE);
    let expected = [22u64, 484, 11_132, 256_036, 6_182_818];
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(
            engine_perft(&mut engine, START_FEN, depth as u32 + 1),
            count
        );
    }
}

#[test]
fn perft_matches_an_independent_generator_in_middle_games() {
    let positions = [
        // Openings and middle games with captures available, edge pieces and
        // pieces one step from the goal (moves that end the game are leaves).
        "pppppppp/p1pp1ppp/1p2p3/8/3P4/2P5/PP2PPPP/PPPPPPPP w 0 4",
        "1ppp2pp/p2p1p2/3P4/1p4P1/8/2P1P3/PP3PPP/1PPPPP1P b 0 12",
        "2p3p1/1P3p2/p1p5/3pP3/8/2P2p2/P4P1P/1P3PP1 w 0 20",
        "pp3ppp/2pP4/8/1p6/5P2/1p6/P3P2P/2PP4 b 0 25",
    ];
    let mut engine = Engine::start(ENGINE);
    for fen in positions {
        let reference = reference::from_fen(fen);
        for depth in 1..=4 {
            assert_eq!(
                engine_perft(&mut engine, fen, depth),
                reference::perft(&reference, depth),
                "{fen} depth {depth}"
            );
        }
    }
}

#[test]
fn smaller_boards_match_the_independent_generator() {
    // Rows by columns, from the start and from a middle game of each.
    let boards = [
        (
            5,
            5,
            "ppppp/ppppp/5/PPPPP/PPPPP w 0 1",
            "p1ppp/1p1p1/1P3/P1P1P/1PP1P b 0 4",
        ),
        (
            6,
            5,
            "ppppp/ppppp/5/5/PPPPP/PPPPP w 0 1",
            "pp1pp/2p1p/p4/1P2P/P1P2/1P1PP w 0 5",
        ),
        (4, 3, "ppp/ppp/PPP/PPP w 0 1", "p1p/1pP/P2/PP1 b 0 3"),
        (
            7,
            8,
            "pppppppp/pppppppp/8/8/8/PPPPPPPP/PPPPPPPP w 0 1",
            "pppp1ppp/4p3/8/8/3P4/PPP1PPPP/PPPPPPPP b 0 2",
        ),
    ];
    for (rows, columns, start, middle) in boards {
        let mut engine = Engine::start(ENGINE);
        engine.send(&format!("setoption name Rows value {rows}"));
        engine.send(&format!("setoption name Columns value {columns}"));
        engine.send("position startpos");
        let shown = engine.ask("d", "Fen:");
        assert!(
            shown.last().is_some_and(|l| l.ends_with(start)),
            "{shown:?}"
        );
        for fen in [start, middle] {
            let reference = reference::from_fen(fen);
            for depth in 1..=5 {
                assert_eq!(
                    engine_perft(&mut engine, fen, depth),
                    reference::perft(&reference, depth),
                    "{rows}x{columns} {fen} depth {depth}"
                );
            }
        }
        // An 8x8 position does not fit.
        engine.send(&format!("position fen {START_FEN}"));
        let lines = engine.ask("isready", "readyok");
        assert!(
            lines.iter().any(|l| l.starts_with("info string error")),
            "{lines:?}"
        );
    }
}

#[test]
fn handshake_answers_in_the_dialect_it_was_greeted_in() {
    for (hello, ok) in [("uci", "uciok"), ("ugi", "ugiok")] {
        let mut engine = Engine::start(ENGINE);
        let lines = engine.ask(hello, ok);
        assert!(lines[0].starts_with("id name breakthrough"), "{lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("id author ")));
        for option in ["Hash", "Depth", "MoveOverhead"] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {option} type spin"))),
                "{option}: {lines:?}"
            );
        }
        assert_eq!(lines.last().map(String::as_str), Some(ok));
    }
}

#[test]
fn isready_is_answered_during_a_search_and_stop_gives_one_bestmove() {
    let mut engine = Engine::start(ENGINE);
    engine.send("position startpos");
    engine.send("go infinite");
    let before = engine.sync();
    assert!(
        before.iter().all(|l| !l.starts_with("bestmove")),
        "infinite search ended by itself: {before:?}"
    );
    let lines = engine.ask("stop", "bestmove");
    let last_info = lines
        .iter()
        .rev()
        .nth(1)
        .expect("a final info line before bestmove");
    assert!(last_info.starts_with("info depth "), "{lines:?}");
    // No second bestmove follows.
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn every_go_gets_exactly_one_bestmove() {
    let mut engine = Engine::start(ENGINE);
    for go in [
        "go depth 3",
        "go nodes 2000",
        "go movetime 50",
        "go wtime 3000 btime 3000 winc 10 binc 10",
        "go p1time 2000 p2time 2000",
    ] {
        engine.send("position startpos moves e2e3 d7d6");
        let lines = engine.ask(go, "bestmove");
        let bestmove = lines.last().expect("bestmove line");
        assert_eq!(bestmove.split_whitespace().count(), 2, "{bestmove}");
        let info = &lines[lines.len() - 2];
        assert!(
            info.contains(" nodes ")
                && info.contains(" nps ")
                && info.contains(" time ")
                && info.contains(" pv "),
            "{info}"
        );
        assert!(
            engine.sync().iter().all(|l| !l.starts_with("bestmove")),
            "{go} gave a second bestmove"
        );
    }
}

#[test]
fn depth_option_caps_the_search() {
    let mut engine = Engine::start(ENGINE);
    engine.send("setoption name depth value 2");
    let lines = engine.ask("go movetime 2000", "bestmove");
    let deepest = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|rest| rest.split_whitespace().next()?.parse::<u32>().ok())
        .max();
    assert_eq!(deepest, Some(2), "{lines:?}");
}

#[test]
fn a_won_position_answers_bestmove_0000_and_queries_tell_the_result() {
    let mut engine = Engine::start(ENGINE);
    // White's b7 steps to a8 and wins.
    engine.send("position fen pp6/1P6/8/8/8/8/8/8 w 0 1 moves b7a8");
    assert_eq!(
        engine.ask("query gameover", "response"),
        vec!["response true"]
    );
    assert_eq!(
        engine.ask("query result", "response"),
        vec!["response p1win"]
    );
    assert_eq!(
        engine
            .ask("go depth 3", "bestmove")
            .last()
            .map(String::as_str),
        Some("bestmove 0000")
    );
    engine.send("position startpos");
    assert_eq!(
        engine.ask("query gameover", "response"),
        vec!["response false"]
    );
    assert_eq!(
        engine.ask("query p1turn", "response"),
        vec!["response true"]
    );
    assert_eq!(
        engine.ask("query result", "response"),
        vec!["response none"]
    );
    engine.send("position startpos moves a2a3");
    assert_eq!(
        engine.ask("query p1turn", "response"),
        vec!["response false"]
    );
}

#[test]
fn the_engine_finds_a_forced_win_and_reports_it_as_mate() {
    let mut engine = Engine::start(ENGINE);
    // White's e5 runner cannot be caught: it arrives in 3 moves.
    engine.send("position fen pp6/8/8/4P3/8/8/8/7P w 0 1");
    let lines = engine.ask("go depth 6", "bestmove");
    let final_info = &lines[lines.len() - 2];
    assert!(final_info.contains("score mate 3"), "{final_info}");
    // Black to move faces two intruders on its second rank: it is lost.
    engine.send("position fen pppp4/8/8/8/8/8/p6p/1PPPPPP1 w 0 1");
    let lines = engine.ask("go depth 4", "bestmove");
    assert!(
        lines[lines.len() - 2].contains("score mate -1"),
        "{lines:?}"
    );
}

#[test]
fn go_mate_proves_a_win_or_says_there_is_none() {
    let mut engine = Engine::start(ENGINE);
    // The e5 runner arrives in three moves and no sooner.
    engine.send("position fen pp6/8/8/4P3/8/8/8/7P w 0 1");
    let lines = engine.ask("go mate 3", "bestmove");
    let proof = &lines[lines.len() - 2];
    assert!(
        proof.contains("score mate 3") && proof.contains(" pv e5"),
        "{lines:?}"
    );
    assert!(
        lines[lines.len() - 1].starts_with("bestmove e5"),
        "{lines:?}"
    );
    let lines = engine.ask("go mate 2", "bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l == "info string no forced win within 2 moves"),
        "{lines:?}"
    );
    assert!(lines[lines.len() - 1].starts_with("bestmove "), "{lines:?}");
    // On a 5x3 board Black, second to move, wins from the start.
    engine.send("setoption name Rows value 5");
    engine.send("setoption name Columns value 3");
    engine.send("position startpos");
    let lines = engine.ask("go mate 50", "bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l == "info string no forced win within 50 moves"),
        "{lines:?}"
    );
    engine.send("position startpos moves b2b3");
    let lines = engine.ask("go mate 50", "bestmove");
    assert!(
        lines.iter().any(|l| l.contains(" score mate ")),
        "{lines:?}"
    );
}

#[test]
fn go_mate_answers_within_its_time_or_when_stopped() {
    let mut engine = Engine::start(ENGINE);
    engine.send("position startpos");
    let lines = engine.ask("go mate 20 movetime 200", "bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("found before the search stopped")),
        "{lines:?}"
    );
    engine.send("go mate 20");
    std::thread::sleep(std::time::Duration::from_millis(100));
    let lines = engine.ask("stop", "bestmove");
    let answers = lines.iter().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(answers, 1, "{lines:?}");
    assert_ne!(lines[lines.len() - 1], "bestmove 0000");
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut engine = Engine::start(ENGINE);
    engine.send("position startpos moves e2e3");
    let before = engine.fen();
    for bad in [
        "hello there",
        "position",
        "position fen",
        "position fen pppppppp/8 w 0 1",
        "position fen pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP q 0 1",
        "position startpos moves e2e3 e7e6 e3e5",
        "position startpos moves e2e3 zz99",
        "position startpos moves e2e3 e3e4",
        "go depth",
        "go depth -1",
        "go mate",
        "go mate x",
        "setoption name Hash value lots",
        "setoption name Depth value 1000",
        "setoption name Threads value 0",
        "setoption name Threads value 100000",
        "setoption name NoSuchOption value 1",
        "query whatever",
        "\u{1b}[A\u{0}",
    ] {
        let replies = engine.ask(bad, "info string error: ");
        assert_eq!(replies.len(), 1, "{bad}: {replies:?}");
        assert_eq!(engine.fen(), before, "{bad} changed the position");
    }
    // Still fully working afterwards.
    let lines = engine.ask("go depth 2", "bestmove");
    assert!(lines
        .last()
        .is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove 0000"));
}

#[test]
fn several_threads_answer_once_and_agree_on_a_forced_win() {
    let mut engine = Engine::start(ENGINE);
    engine.send("setoption name Threads value 3");
    let replies = engine.sync();
    assert!(replies.iter().all(|l| !l.contains("error")), "{replies:?}");
    // White's e5 runner cannot be caught: it arrives in 3 moves.
    engine.send("position fen pp6/8/8/4P3/8/8/8/7P w 0 1");
    let lines = engine.ask("go depth 7", "bestmove");
    assert!(lines[lines.len() - 2].contains("score mate 3"), "{lines:?}");
    for go in ["go movetime 100", "go nodes 20000"] {
        engine.send("position startpos moves e2e3 d7d6");
        let lines = engine.ask(go, "bestmove");
        assert!(
            lines
                .last()
                .is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove 0000"),
            "{go}: {lines:?}"
        );
    }
    engine.send("go infinite");
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.ask("stop", "bestmove");
    // The helpers have stopped with the main thread: nothing more comes.
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn commands_out_of_order_are_harmless() {
    let mut engine = Engine::start(ENGINE);
    // stop with no search, go before uci, position during a search.
    engine.send("stop");
    let lines = engine.ask("go depth 1", "bestmove");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));
    engine.send("go infinite");
    engine.send("position startpos moves a2a3");
    engine.send("ucinewgame");
    // ucinewgame stopped the running search: its bestmove came out.
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert!(!lines.is_empty());
    assert_eq!(
        engine.fen(),
        "pppppppp/pppppppp/8/8/8/P7/1PPPPPPP/PPPPPPPP b 0 1"
    );
}

#[test]
fn end_of_input_ends_a_running_search_and_the_process() {
    let mut engine = Engine::start(ENGINE);
    engine.send("go infinite");
    let rest = engine.finish();
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{rest:?}"
    );
}

#[test]
fn display_shows_board_fen_side_and_key() {
    let mut engine = Engine::start(ENGINE);
    let lines = engine.ask("d", "Key: ");
    assert!(lines.iter().any(|l| l == &format!("Fen: {START_FEN}")));
    assert!(lines.iter().any(|l| l == "Side to move: white"));
    let key = lines
        .last()
        .map(|l| l["Key: ".len()..].to_string())
        .unwrap_or_default();
    assert_eq!(key.len(), 16);
    // The same position reached by another move order has the same key.
    engine.send("position startpos moves a2a3 a7a6 b2b3 b7b6");
    let first = engine.ask("d", "Key: ").pop();
    engine.send("position startpos moves b2b3 b7b6 a2a3 a7a6");
    assert_eq!(engine.ask("d", "Key: ").pop(), first);
}

#[test]
fn eval_lists_its_terms_and_a_total() {
    let mut engine = Engine::start(ENGINE);
    let lines = engine.ask("eval", "info string eval total");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("network breakthrough-pieces-8x8") && l.contains("hash ")),
        "the built-in network by default: {lines:?}"
    );
    engine.send("setoption name Evaluation value classical");
    let lines = engine.ask("eval", "info string eval total");
    assert!(lines.len() >= 4, "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("material")));
}

#[test]
fn bench_node_count_is_a_stable_signature() {
    let run = || {
        let output = assert_cmd::Command::cargo_bin(format!("bg-{ENGINE}"))
            .expect("binary")
            .args(["bench", "5"])
            .output()
            .expect("runs");
        let text = String::from_utf8_lossy(&output.stdout).to_string();
        let nodes = text
            .lines()
            .find_map(|l| l.strip_prefix("Nodes searched  : ").map(str::to_string));
        (
            nodes,
            text.lines()
                .last()
                .unwrap_or_default()
                .starts_with("Nodes/second"),
        )
    };
    let (first, nps_last) = run();
    assert!(first.is_some() && nps_last);
    assert_eq!(first, run().0);
}

#[test]
fn transcripts_replay() {
    let transcripts = transcripts_of(ENGINE);
    assert!(!transcripts.is_empty());
    for path in transcripts {
        replay_transcript(ENGINE, &path);
    }
}
