//! The Gomoku engine under the name Gomocup managers look for
//! (`pbrain-*`), so Piskvork, c-gomoku-cli or GomocupJudge run it as it is:
//! the Gomocup protocol from the first line, no copy or link by hand.

use boardgames::protocol::pbrain::{self, PbrainSettings};
use boardgames::protocol::{init_logging, spawn_stdin_reader};
use clap::Parser;

/// Managers start the engine with no argument; `--version`, `--help` and
/// `--seed` are for people and tests.
#[derive(Parser, Debug)]
#[command(
    name = "pbrain-bg-gomoku",
    version,
    about = "The Gomoku engine speaking the Gomocup (pbrain) protocol on stdin and stdout"
)]
struct PbrainArgs {
    /// Seed of the draw among near-balanced Swap2 proposals (default: a
    /// new one each run), so that a session can be replayed.
    #[arg(long)]
    seed: Option<u64>,
}

fn main() {
    init_logging();
    let args = PbrainArgs::parse();
    let settings = PbrainSettings { seed: args.seed };
    pbrain::run_pbrain_with(spawn_stdin_reader(), Vec::new(), settings);
}
