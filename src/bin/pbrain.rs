//! The Gomoku engine under the name Gomocup managers look for
//! (`pbrain-*`), so Piskvork, c-gomoku-cli or GomocupJudge run it as it is:
//! the Gomocup protocol from the first line, no copy or link by hand.

use boardgames::protocol::{init_logging, pbrain, spawn_stdin_reader};
use clap::Parser;

/// Managers start the engine with no argument; `--version` and `--help`
/// are for people.
#[derive(Parser, Debug)]
#[command(
    name = "pbrain-bg-gomoku",
    version,
    about = "The Gomoku engine speaking the Gomocup (pbrain) protocol on stdin and stdout"
)]
struct PbrainArgs {}

fn main() {
    init_logging();
    PbrainArgs::parse();
    pbrain::run_pbrain(spawn_stdin_reader(), Vec::new());
}
