//! Measurement tools for the Jogo do Cavalo engine (`cavalo-tools`), kept
//! apart from the engine binary (`cavalo`), which only runs the shared
//! protocol loop.
//!
//! `cavalo-tools solvepoint [boards]` measures from which ply of a self-played
//! game a one-second search proves the result.
//!
//! `cavalo-tools balance [boards] [first-seed] [ms]` prints the engine's
//! score for White after the placements of each board: how far a board
//! favours one colour before either player has chosen anything.
//!
//! `cavalo-tools verdicts BOARD_SEED MAX_NODES MOST_CELLS MOVE...` replays a
//! game and prints the exact solver's verdict after each move: where a lost
//! game was lost.
//!
//! `cavalo-tools labels [games] [first-seed] [nodes] [least-cells]
//! [most-cells]` prints positions labelled by the exact solver, for tuning
//! the evaluation.
//!
//! `cavalo-tools features [games] [first-seed] [ms]` prints the middle-game
//! positions of self-played games with their evaluation features and what
//! the side to move went on to gain more than the other.
//!
//! `cavalo-tools solvebench [positions] [first-seed] [cells] [max-nodes]`
//! times the exact solver on positions reached by deterministic play: the
//! benchmark for making the solver faster.
//!
//! `cavalo-tools match ...` is a separate helper, kept out of the engine's play:
//! it plays the engine against the seed's algorithm (see
//! `games::cavalo::seed_baseline`) and prints the results.

use crate::games::cavalo::CavaloKnowledge;
use std::time::Duration;

use crate::core::Game;
use crate::engine::{Engine, SearchLimits};
use crate::games::cavalo::Cavalo;

/// `println!` that ends the tool quietly once its output is closed (piped
/// into `head`, say) instead of panicking on the broken pipe.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

mod analysis;
mod solver_bench;
mod strength_match;

const MATCH_USAGE: &str = "usage: cavalo-tools match [boards N] [first-seed S] [ours MS] [ours-late MS] [late-cells N] [baseline MS] [eval abs|diff] [search seed|deepening|lisp] [colour white|black|both] [threads T] [verbose 1]";

const USAGE: &str = "usage: cavalo-tools match [...] | solvepoint [boards] | solvebench [positions] [first-seed] [cells] [max-nodes] | balance [boards] [first-seed] [ms] | verdicts BOARD_SEED MAX_NODES MOST_CELLS MOVE... | labels [games] [first-seed] [nodes] [least-cells] [most-cells] | features [games] [first-seed] [ms]";

/// Runs `cavalo-tools` with its arguments (the program name left out);
/// returns the exit status: 0, or 2 for a usage error.
pub fn run(args: &[String]) -> i32 {
    let number = |i: usize, default: u64| {
        args.get(i)
            .and_then(|n: &String| n.parse().ok())
            .unwrap_or(default)
    };
    match args.first().map(String::as_str) {
        Some("solvepoint") => solver_bench::solve_point(number(1, 3)),
        Some("solvebench") => solver_bench::solve_bench(
            number(1, 12),
            number(2, 0),
            number(3, 74) as u32,
            number(4, 50_000_000),
        ),
        Some("balance") => analysis::balance(
            number(1, 100),
            number(2, 1000),
            Duration::from_millis(number(3, 1000)),
        ),
        Some("labels") => {
            let (least, most) = (number(4, 76) as u32, number(5, 84) as u32);
            if least > most {
                eprintln!("cavalo-tools labels: least-cells {least} is above most-cells {most}");
                return 2;
            }
            analysis::labels(
                number(1, 100),
                number(2, 7000),
                number(3, 10_000_000),
                least..=most,
            );
        }
        Some("features") => analysis::features(number(1, 100), number(2, 20000), number(3, 20)),
        Some("verdicts") => {
            if let Err(message) = analysis::verdicts(&args[1..]) {
                eprintln!("cavalo-tools verdicts: {message}");
                eprintln!("usage: cavalo-tools verdicts BOARD_SEED MAX_NODES MOST_CELLS MOVE...");
                return 2;
            }
        }
        Some("match") => match strength_match::MatchSettings::parse(&args[1..]) {
            Ok(settings) => strength_match::run_match(&settings),
            Err(message) => {
                eprintln!("cavalo-tools match: {message}");
                eprintln!("{MATCH_USAGE}");
                return 2;
            }
        },
        _ => {
            eprintln!("{USAGE}");
            return 2;
        }
    }
    0
}

fn depth_limit(depth: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(depth),
        ..Default::default()
    }
}

/// The engine's move (and score) with `time` to think.
fn engine_search(
    engine: &mut Engine<Cavalo, CavaloKnowledge>,
    game: &Cavalo,
    time: Duration,
) -> Option<(<Cavalo as Game>::Move, i32)> {
    let limits = SearchLimits {
        movetime: Some(time),
        ..Default::default()
    };
    engine_search_limited(engine, game, limits)
}

/// The engine's move (and score) within `limits`.
fn engine_search_limited(
    engine: &mut Engine<Cavalo, CavaloKnowledge>,
    game: &Cavalo,
    limits: SearchLimits,
) -> Option<(<Cavalo as Game>::Move, i32)> {
    if let Err(message) = engine.set_position(Some(&game.to_fen()), &[]) {
        log::error!("engine rejected its position: {message}");
        return None;
    }
    let result = engine.start_search(limits, Box::new(|_| {})).wait();
    result.best_move.map(|mv| (mv, result.score))
}
