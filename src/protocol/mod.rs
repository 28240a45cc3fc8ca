//! Protocol front-ends over the one engine core: UCI/UGI here; GTP (Hex) and
//! Gomocup (Gomoku) beside it.

pub mod gtp;
pub mod gtp_analysis;
pub mod output;
pub mod pbrain;
pub mod selfplay;
pub mod ugi;

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver};

use crate::core::knowledge::Knowledge;
use crate::core::presentation::Presentation;
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
/// benchmark, `<game> selfplay [movetime-ms]` shows a game of the engine
/// against itself; no argument starts the UCI/UGI loop on stdin.
pub fn run_engine_main<G: Presentation, K: Knowledge<G>>() {
    init_logging();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || {
        eprintln!(
            "usage: {} [bench [depth] | selfplay [movetime-ms]]",
            G::NAME
        );
        std::process::exit(2);
    };
    let number = |default: u32| match args.get(1).map(|d| d.parse::<u32>()) {
        None => Some(default),
        Some(Ok(n)) if n > 0 => Some(n),
        Some(_) => None,
    };
    match args.first().map(String::as_str) {
        Some("bench") => match number(ugi::DEFAULT_BENCH_DEPTH) {
            Some(depth) => ugi::bench::<G, K>(depth),
            None => usage(),
        },
        Some("selfplay") => match number(100) {
            Some(ms) => selfplay::selfplay::<G, K>(std::time::Duration::from_millis(ms as u64)),
            None => usage(),
        },
        Some(_) => usage(),
        None => run_ugi::<G, K>(spawn_stdin_reader(), Vec::new()),
    }
}

/// Diagnostics to stderr, filtered by RUST_LOG (warnings by default).
pub fn init_logging() {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .try_init();
}
