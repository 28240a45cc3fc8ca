//! Protocol front-ends over the one engine core: UCI/UGI here; GTP (Hex) and
//! Gomocup (Gomoku) beside it.

pub mod command;
pub mod output;
pub mod pbrain;
pub mod ugi;

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver};

use crate::core::game::Game;
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

/// What a plain game binary's `main` does: `<game> bench [depth]` runs the
/// benchmark; anything else starts the UCI/UGI loop on stdin.
pub fn run_engine_main<G: Game>() {
    init_logging();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => {
            let depth = match args.get(1).map(|d| d.parse::<u32>()) {
                None => ugi::DEFAULT_BENCH_DEPTH,
                Some(Ok(depth)) if depth > 0 => depth,
                Some(_) => {
                    eprintln!("usage: {} bench [depth]", G::NAME);
                    std::process::exit(2);
                }
            };
            ugi::bench::<G>(depth);
        }
        Some(other) => {
            eprintln!(
                "{}: unknown argument '{other}' (usage: {} [bench [depth]])",
                G::NAME,
                G::NAME
            );
            std::process::exit(2);
        }
        None => run_ugi::<G>(spawn_stdin_reader(), Vec::new()),
    }
}

/// Diagnostics to stderr, filtered by RUST_LOG (warnings by default).
pub fn init_logging() {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .try_init();
}
