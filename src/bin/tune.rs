//! The `tune` executable: positions from game records, and Texel tuning of
//! an evaluation's weight table. Games come from the referee
//! (`--records games.jsonl`); see README, "Tuning".

use std::path::PathBuf;
use std::process::ExitCode;

use boardgames::core::weights::LinearEval;
use boardgames::core::Game;
use boardgames::games::breakthrough::{Breakthrough, BreakthroughKnowledge};
use boardgames::games::cavalo::{Cavalo, CavaloKnowledge};
use boardgames::games::gomoku::{Gomoku, GomokuKnowledge};
use boardgames::games::hex::{Hex, HexKnowledge};
use boardgames::tuning::commands::{run_sample, run_texel, SampleJob, TexelJob};
use boardgames::tuning::texel::FitSettings;
use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(version, about = "Fit an engine's evaluation to game results")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum GameName {
    Breakthrough,
    Hex,
    Gomoku,
    Cavalo,
}

#[derive(Subcommand)]
enum Command {
    /// Labelled positions from JSON-lines game records: the opening plies,
    /// forcing positions and repeats left out; each labelled with its
    /// game's result for the side to move.
    Sample {
        #[arg(long, value_enum)]
        game: GameName,
        /// A records file written by `referee --records FILE.jsonl` (repeat
        /// for several).
        #[arg(long = "records", required = true)]
        records: Vec<PathBuf>,
        /// Opening plies to skip in every game.
        #[arg(long, default_value_t = 8)]
        skip: usize,
        /// A rule option as the referee takes it, `NAME=VALUE`.
        #[arg(long = "rule", value_parser = parse_rule)]
        rules: Vec<(String, String)>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits the evaluation's weight table to labelled positions (Texel's
    /// method: a logistic model of the result, scale first, then Adam) and
    /// writes the table with the new numbers.
    Texel {
        #[arg(long, value_enum)]
        game: GameName,
        /// Positions from `tune sample`.
        #[arg(long)]
        positions: PathBuf,
        #[arg(long, default_value_t = 300)]
        epochs: usize,
        /// Adam's step, in weight units.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// A weight to keep as it is (repeat for several); the piece value
        /// is a good anchor.
        #[arg(long = "freeze")]
        frozen: Vec<String>,
        /// One position in this many is held back to measure the fit.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..))]
        hold_back: u64,
        #[arg(long = "rule", value_parser = parse_rule)]
        rules: Vec<(String, String)>,
        /// Where the tuned weight table goes.
        #[arg(long)]
        out: PathBuf,
        /// The loss of every epoch, as CSV.
        #[arg(long)]
        curve: Option<PathBuf>,
    },
}

fn parse_rule(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .ok_or_else(|| format!("'{text}' is not NAME=VALUE"))
}

fn texel<G: Game, T: LinearEval<G>>(job: &TexelJob) -> Result<String, String> {
    run_texel::<G, T>(job, |point| {
        if point.epoch % 50 == 0 {
            log::info!(
                "epoch {}: loss {:.6} fitted, {:.6} held back",
                point.epoch,
                point.fit,
                point.held
            );
        }
    })
}

fn run(cli: Cli) -> Result<String, String> {
    match cli.command {
        Command::Sample {
            game,
            records,
            skip,
            rules,
            out,
        } => {
            let job = SampleJob {
                records,
                rule_options: rules,
                skip_plies: skip,
                out,
            };
            match game {
                GameName::Breakthrough => run_sample::<Breakthrough, BreakthroughKnowledge>(&job),
                GameName::Hex => run_sample::<Hex, HexKnowledge>(&job),
                GameName::Gomoku => run_sample::<Gomoku, GomokuKnowledge>(&job),
                GameName::Cavalo => run_sample::<Cavalo, CavaloKnowledge>(&job),
            }
        }
        Command::Texel {
            game,
            positions,
            epochs,
            rate,
            frozen,
            hold_back,
            rules,
            out,
            curve,
        } => {
            let job = TexelJob {
                positions,
                rule_options: rules,
                settings: FitSettings {
                    epochs,
                    learning_rate: rate,
                    frozen: Vec::new(),
                },
                frozen,
                hold_back: hold_back as usize,
                out,
                curve,
            };
            match game {
                GameName::Breakthrough => texel::<Breakthrough, BreakthroughKnowledge>(&job),
                GameName::Hex | GameName::Gomoku | GameName::Cavalo => {
                    Err("this game's evaluation has no weight table to tune yet".to_owned())
                }
            }
        }
    }
}

fn main() -> ExitCode {
    boardgames::protocol::init_logging();
    match run(Cli::parse()) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::FAILURE
        }
    }
}
