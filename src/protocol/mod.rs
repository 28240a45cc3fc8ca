//! Protocol front-ends over the one engine core: UCI/UGI here; GTP (Hex) and
//! Gomocup (Gomoku) beside it.

pub mod engine_cli;
pub mod gtp;
pub mod gtp_analysis;
pub mod gtp_mcts;
pub mod gtp_time;
pub mod gtp_values;
pub mod output;
pub mod pbrain;
pub mod selfplay;
pub mod ugi;

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver};

pub use engine_cli::run_engine_main;
pub use ugi::run_ugi;

/// Reads stdin on its own thread so that the protocol loop can answer while
/// a search runs. The channel closes at the end of input.
pub fn spawn_stdin_reader() -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            for line in stdin.lock().lines() {
                match line {
                    Ok(line) => {
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        // Invalid UTF-8 and the like: report it and keep reading.
                        if e.kind() == std::io::ErrorKind::InvalidData {
                            if sender.send(String::from("\u{fffd}")).is_err() {
                                break;
                            }
                            continue;
                        }
                        break;
                    }
                }
            }
        });
    if let Err(e) = spawned {
        log::error!("could not start the input thread: {e}");
    }
    receiver
}

/// Diagnostics to stderr, filtered by RUST_LOG (warnings by default).
pub fn init_logging() {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .try_init();
}
