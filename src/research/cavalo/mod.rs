//! Research on Jogo do Cavalo (`cavalo-tools`): measurement tools and the
//! seed program's player, kept apart from the game (`games::cavalo`) and its
//! engine binary (`cavalo`), which only runs the shared protocol loop. The
//! experiments' notes are in docs/research/cavalo.md.
//!
//! `bg-cavalo-tools solvepoint [boards]` measures from which ply of a self-played
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
//! `bg-cavalo-tools solvebench [positions] [first-seed] [cells] [max-nodes]`
//! times the exact solver on positions reached by deterministic play: the
//! benchmark for making the solver faster.
//!
//! `bg-cavalo-tools match ...` is a separate helper, kept out of the engine's play:
//! it plays the engine against the seed's algorithm (see
//! `seed_baseline`) and prints the results.

use crate::games::cavalo::CavaloKnowledge;
use std::time::Duration;

use crate::core::Game;
use crate::engine::{Engine, SearchLimits};
use crate::games::cavalo::Cavalo;
use clap::{Parser, Subcommand};

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
pub mod seed_baseline;
mod solver_bench;
mod strength_match;

#[cfg(test)]
mod seed_baseline_tests;

const MATCH_USAGE: &str = "usage: bg-cavalo-tools match [boards N] [first-seed S] [ours MS] [ours-late MS] [late-cells N] [baseline MS] [eval abs|diff] [search seed|deepening|lisp] [colour white|black|both] [threads T] [verbose 1]";

/// The command line; each number has its default and a bad one is an error.
#[derive(Parser)]
#[command(
    name = "bg-cavalo-tools",
    version,
    about = "Research tools for the Jogo do Cavalo engine"
)]
struct Cli {
    #[command(subcommand)]
    tool: Tool,
}

#[derive(Subcommand)]
enum Tool {
    /// Plays the engine against the seed's player (settings as key-value pairs).
    #[command(after_help = MATCH_USAGE)]
    Match {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        settings: Vec<String>,
    },
    /// From which ply of a self-played game a one-second search proves the result.
    Solvepoint {
        #[arg(default_value_t = 3)]
        boards: u64,
    },
    /// Times the exact solver on positions reached by deterministic play.
    Solvebench {
        #[arg(default_value_t = 12)]
        positions: u64,
        #[arg(default_value_t = 0)]
        first_seed: u64,
        #[arg(default_value_t = 74)]
        cells: u32,
        #[arg(default_value_t = 50_000_000)]
        max_nodes: u64,
    },
    /// The engine's score for White after the placements of each board.
    Balance {
        #[arg(default_value_t = 100)]
        boards: u64,
        #[arg(default_value_t = 1000)]
        first_seed: u64,
        #[arg(default_value_t = 1000)]
        ms: u64,
    },
    /// The exact solver's verdict after each move of a game.
    Verdicts {
        board_seed: u64,
        max_nodes: u64,
        most_cells: u32,
        moves: Vec<String>,
    },
    /// Positions labelled by the exact solver, for tuning the evaluation.
    Labels {
        #[arg(default_value_t = 100)]
        games: u64,
        #[arg(default_value_t = 7000)]
        first_seed: u64,
        #[arg(default_value_t = 10_000_000)]
        nodes: u64,
        #[arg(default_value_t = 76)]
        least_cells: u32,
        #[arg(default_value_t = 84)]
        most_cells: u32,
    },
    /// Middle-game positions of self-played games with their features.
    Features {
        #[arg(default_value_t = 100)]
        games: u64,
        #[arg(default_value_t = 20000)]
        first_seed: u64,
        #[arg(default_value_t = 20)]
        ms: u64,
    },
}

/// Runs `cavalo-tools` with its command line (the program name first);
/// returns the exit status: 0, or 2 for a usage error.
pub fn run<I: IntoIterator<Item = String>>(args: I) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return error.exit_code();
        }
    };
    match run_tool(cli.tool) {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("cavalo-tools: {message}");
            2
        }
    }
}

fn run_tool(tool: Tool) -> Result<(), String> {
    match tool {
        Tool::Solvepoint { boards } => solver_bench::solve_point(boards),
        Tool::Solvebench {
            positions,
            first_seed,
            cells,
            max_nodes,
        } => solver_bench::solve_bench(positions, first_seed, cells, max_nodes),
        Tool::Balance {
            boards,
            first_seed,
            ms,
        } => analysis::balance(boards, first_seed, Duration::from_millis(ms)),
        Tool::Labels {
            games,
            first_seed,
            nodes,
            least_cells,
            most_cells,
        } => {
            if least_cells > most_cells {
                return Err(format!(
                    "labels: least-cells {least_cells} is above most-cells {most_cells}"
                ));
            }
            analysis::labels(games, first_seed, nodes, least_cells..=most_cells);
        }
        Tool::Features {
            games,
            first_seed,
            ms,
        } => analysis::features(games, first_seed, ms),
        Tool::Verdicts {
            board_seed,
            max_nodes,
            most_cells,
            moves,
        } => analysis::verdicts(board_seed, max_nodes, most_cells, &moves)
            .map_err(|message| format!("verdicts: {message}"))?,
        Tool::Match { settings } => {
            let settings = strength_match::MatchSettings::parse(&settings)
                .map_err(|message| format!("match: {message}\n{MATCH_USAGE}"))?;
            strength_match::run_match(&settings);
        }
    }
    Ok(())
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
