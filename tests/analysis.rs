//! What analysts and players expect of every engine (PROTOCOL.md,
//! "Analysis"): several lines, restricted root moves, mate search,
//! pondering, win/draw/loss and reproducible strength levels, checked on
//! all four games through the real binaries.

mod common;

use std::time::{Duration, Instant};

use boardgames::wire::ugi::{parse_engine_line, EngineLine};
use boardgames::wire::Score;
use common::{best_move, info, Engine};

/// A game's binary, a position worth analysing, and one it can prove a
/// forced win in (with the moves it is asked within).
struct Case {
    engine: &'static str,
    setup: &'static [&'static str],
    depth: u32,
    mate_setup: &'static [&'static str],
    mate_within: u32,
}

const CAVALO_MATE: &str = "position fen x,x,x,x,x,x,x,x,x,x/x,x,30,x,x,x,x,x,x,x/x,5,x,x,x,x,x,x,x,x/x,x,x,x,x,x,x,x,x,x/x,x,x,x,x,x,x,x,x,x/x,x,x,x,x,x,x,x,x,x/x,x,x,x,x,x,4,x,x,x/x,x,x,x,x,x,x,x,x,x/x,x,x,x,x,x,x,x,x,x/x,x,x,x,x,x,x,x,x,x a1 h9 120 100 w 2";

const CASES: [Case; 4] = [
    Case {
        engine: "breakthrough",
        setup: &["position startpos moves d2d3 e7e6"],
        depth: 4,
        mate_setup: &["position fen pp6/8/8/4P3/8/8/8/7P w 0 1"],
        mate_within: 3,
    },
    Case {
        engine: "hex",
        setup: &[
            "setoption name BoardSize value 7",
            "position startpos moves d4",
        ],
        depth: 3,
        mate_setup: &["setoption name Swap value false", "position fen 3/3/3 b"],
        mate_within: 3,
    },
    Case {
        engine: "gomoku",
        setup: &["position startpos moves h8 h9 i8"],
        depth: 3,
        mate_setup: &["position fen 15/15/15/15/15/15/15/6xxx6/15/15/15/15/15/15/oo13 x"],
        mate_within: 2,
    },
    Case {
        engine: "cavalo",
        setup: &["position startpos moves f1"],
        depth: 4,
        mate_setup: &[CAVALO_MATE],
        mate_within: 3,
    },
];

fn start(case: &Case) -> Engine {
    let mut engine = Engine::start(case.engine);
    for line in case.setup {
        engine.send(line);
    }
    engine
}

/// The legal moves of the engine's current position, from `go perft 1`.
fn legal_moves(engine: &mut Engine) -> Vec<String> {
    let lines = engine.ask("go perft 1", "Nodes searched");
    lines
        .iter()
        .filter_map(|l| l.split_once(": ").map(|(mv, _)| mv.to_string()))
        .filter(|mv| !mv.contains(' '))
        .collect()
}

fn pv(line: &str) -> Vec<String> {
    info(line).map(|info| info.pv).unwrap_or_default()
}

/// A score as a number that orders mates beyond every centipawn score.
fn score_rank(line: &str) -> i64 {
    match info(line).and_then(|info| info.score).expect("a score") {
        Score::Mate(moves) if moves > 0 => 1_000_000 - i64::from(moves),
        Score::Mate(moves) => -1_000_000 - i64::from(moves),
        Score::Centipawns(cp) => i64::from(cp),
    }
}

fn bestmove(lines: &[String]) -> String {
    let last = lines.last().expect("a bestmove line");
    best_move(last).expect("a move").0
}

#[test]
fn multipv_lines_are_distinct_legal_moves_best_first() {
    for case in &CASES {
        let mut engine = start(case);
        let legal = legal_moves(&mut engine);
        engine.send("setoption name MultiPV value 3");
        let lines = engine.ask(&format!("go depth {}", case.depth), "bestmove");
        let last_depth: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with(&format!("info depth {} ", case.depth)))
            .filter(|l| l.contains(" multipv "))
            .collect();
        assert_eq!(last_depth.len(), 3, "{}: {lines:#?}", case.engine);
        let firsts: Vec<String> = last_depth.iter().map(|l| pv(l)[0].clone()).collect();
        for (k, line) in last_depth.iter().enumerate() {
            assert_eq!(info(line).and_then(|i| i.multipv), Some(k as u32 + 1));
            assert!(legal.contains(&firsts[k]), "{}: {line}", case.engine);
        }
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        let ranks: Vec<i64> = last_depth.iter().map(|l| score_rank(l)).collect();
        assert!(ranks.windows(2).all(|w| w[0] >= w[1]), "{ranks:?}");
        assert_eq!(bestmove(&lines), firsts[0], "{}", case.engine);

        let mut single = start(case);
        let lines = single.ask(&format!("go depth {}", case.depth), "bestmove");
        assert!(!lines.iter().any(|l| l.contains(" multipv ")));
        assert_eq!(
            bestmove(&lines),
            firsts[0],
            "{}: line 1 is the one-line search's move",
            case.engine
        );
    }
}

#[test]
fn searchmoves_keeps_the_search_to_the_moves_named() {
    for case in &CASES {
        let mut engine = start(case);
        let legal = legal_moves(&mut engine);
        let named = &legal[legal.len() - 2..];
        let go = format!("go depth {} searchmoves {}", case.depth, named.join(" "));
        let answer = bestmove(&engine.ask(&go, "bestmove"));
        assert!(named.contains(&answer), "{}: {answer}", case.engine);

        engine.send("setoption name MultiPV value 3");
        let lines = engine.ask(&go, "bestmove");
        let shown: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with(&format!("info depth {} ", case.depth)))
            .filter(|l| l.contains(" multipv "))
            .collect();
        assert_eq!(shown.len(), 2, "two moves, two lines: {shown:#?}");
        assert!(shown.iter().all(|l| named.contains(&pv(l)[0])));

        // A bad list refuses the whole command: an error, no search.
        for bad in [
            "go searchmoves zz99",
            &format!("go searchmoves {} zz99", named[0]),
        ] {
            let before = engine.sync();
            assert!(before.is_empty());
            engine.send(bad);
            let said = engine.sync();
            assert_eq!(said.len(), 1, "{}: {said:?}", case.engine);
            assert!(said[0].starts_with("info string error: searchmoves"));
        }
    }
}

#[test]
fn go_mate_proves_each_games_forced_win() {
    for case in &CASES {
        let mut engine = Engine::start(case.engine);
        for line in case.mate_setup {
            engine.send(line);
        }
        let lines = engine.ask(&format!("go mate {}", case.mate_within), "bestmove");
        let proof = lines
            .iter()
            .find(|l| l.contains(" score mate "))
            .unwrap_or_else(|| panic!("{}: no proof in {lines:#?}", case.engine));
        let Some(Score::Mate(moves)) = info(proof).and_then(|i| i.score) else {
            panic!("no 'mate N' in {proof}");
        };
        let moves = u32::try_from(moves).expect("a win, not a loss");
        assert!((1..=case.mate_within).contains(&moves), "{proof}");
        assert_eq!(bestmove(&lines), pv(proof)[0], "{}", case.engine);
    }
}

#[test]
fn pondering_answers_only_after_ponderhit_or_stop() {
    for case in &CASES {
        let mut engine = start(case);
        engine.send("setoption name Ponder value true");
        let lines = engine.ask(&format!("go depth {}", case.depth), "bestmove");
        let last = lines.last().expect("bestmove");
        let reply = best_move(last)
            .and_then(|(_, ponder)| ponder)
            .unwrap_or_else(|| panic!("{}: no ponder move in '{last}'", case.engine));
        let best = bestmove(&lines);
        // The expected reply is legal after the move.
        let position = case.setup.last().expect("a position");
        let joiner = if position.contains(" moves ") {
            ""
        } else {
            " moves"
        };
        engine.send(&format!("{position}{joiner} {best}"));
        assert!(legal_moves(&mut engine).contains(&reply), "{}", case.engine);

        engine.send(&format!("{position}{joiner} {best} {reply}"));
        engine.send("go ponder movetime 100");
        std::thread::sleep(Duration::from_millis(400));
        let meanwhile = engine.sync();
        assert!(
            !meanwhile.iter().any(|l| l.starts_with("bestmove")),
            "{}: bestmove while pondering",
            case.engine
        );
        let hit = Instant::now();
        engine.send("ponderhit");
        let lines = engine.read_until(|l| l.starts_with("bestmove"));
        assert!(hit.elapsed() < Duration::from_secs(5));
        assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));

        engine.send("go ponder movetime 100");
        std::thread::sleep(Duration::from_millis(200));
        engine.send("stop");
        engine.read_until(|l| l.starts_with("bestmove"));

        // Nothing to hit now: an error, and the engine carries on.
        engine.send("ponderhit");
        let said = engine.sync();
        assert_eq!(said.len(), 1);
        assert!(said[0].starts_with("info string error: ponderhit"));
    }
}

#[test]
fn without_the_ponder_option_bestmove_stays_two_words() {
    for case in &CASES {
        let mut engine = start(case);
        let lines = engine.ask(&format!("go depth {}", case.depth), "bestmove");
        assert_eq!(lines.last().map(|l| l.split_whitespace().count()), Some(2));
    }
}

#[test]
fn wdl_chances_add_up_and_games_without_draws_show_none() {
    for case in &CASES {
        let mut engine = start(case);
        engine.send("setoption name UCI_ShowWDL value true");
        let lines = engine.ask(&format!("go depth {}", case.depth), "bestmove");
        let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
        assert!(!scored.is_empty());
        for line in scored {
            let chances = info(line).and_then(|i| i.wdl).expect("wdl on every line");
            let wdl = [chances.win, chances.draw, chances.loss];
            assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
            if matches!(case.engine, "breakthrough" | "hex") {
                assert_eq!(wdl[1], 0, "{line}");
            }
            assert!(
                (score_rank(line) > 0) == (wdl[0] > wdl[2]) || score_rank(line) == 0,
                "{line}"
            );
        }
    }
}

/// Six moves of a weakened level from the start, each played on.
fn level_game(case: &Case, elo: &str, seed: u32) -> Vec<String> {
    let mut engine = Engine::start(case.engine);
    for line in &case.setup[..case.setup.len() - 1] {
        engine.send(line);
    }
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send(&format!("setoption name UCI_Elo value {elo}"));
    engine.send(&format!("setoption name StrengthSeed value {seed}"));
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..6 {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        let legal = legal_moves(&mut engine);
        if legal.is_empty() {
            break;
        }
        let answer = bestmove(&engine.ask("go movetime 5000", "bestmove"));
        assert!(legal.contains(&answer), "{}: {answer}", case.engine);
        moves.push(answer);
    }
    moves
}

#[test]
fn a_level_plays_the_same_moves_from_the_same_seed() {
    for case in &CASES {
        let mut engine = Engine::start(case.engine);
        let options = engine.ask("uci", "uciok");
        let elo = options
            .iter()
            .find_map(|l| match parse_engine_line(l) {
                Some(EngineLine::Option(option)) if option.name == "UCI_Elo" => Some(option),
                _ => None,
            })
            .expect("UCI_Elo is announced");
        let (min, max) = (elo.min.expect("min"), elo.max.expect("max"));
        for elo in [min + (max - min) / 10, (min + max) / 2] {
            let elo = elo.to_string();
            let first = level_game(case, &elo, 7);
            assert_eq!(first, level_game(case, &elo, 7), "{} at {elo}", case.engine);
        }
    }
}
