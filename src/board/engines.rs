//! Engines as the board starts them: the project's own executable for the
//! game (found beside the board's), or any command in any of the referee's
//! protocols, at a level the page chose; driven by the referee's clients.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::referee::client::{EngineClient, EngineSpec, Proto, Timeouts};

use super::messages::Level;

/// Whether a page may name any command as an engine. The server clears it
/// when it listens beyond this machine without `--allow-commands`: a page
/// from elsewhere must not run programs here.
static ALLOW_COMMANDS: AtomicBool = AtomicBool::new(true);

pub fn allow_commands(allowed: bool) {
    ALLOW_COMMANDS.store(allowed, Ordering::Relaxed);
}

/// Where the project's engine for `game` is: beside the running
/// executable (`target/release/bg-hex` beside `target/release/bg-board`).
pub fn own_engine_path(game: &str) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find own executable: {e}"))?;
    let dir = exe
        .parent()
        .ok_or_else(|| "the executable has no folder".to_owned())?;
    // Test binaries live one folder deeper (target/release/deps).
    let name = format!("bg-{game}");
    for folder in [Some(dir), dir.parent()].into_iter().flatten() {
        let candidate = folder.join(&name);
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    Err(format!(
        "the {game} engine {name} is not beside {} (build it: cargo build --release --bin {name})",
        exe.display()
    ))
}

/// The referee's spec for one engine seat.
pub fn engine_spec(
    game: &str,
    command: Option<&str>,
    proto: Option<&str>,
    level: &Level,
) -> Result<EngineSpec, String> {
    let command = match command.map(str::trim).filter(|c| !c.is_empty()) {
        Some(_) if !ALLOW_COMMANDS.load(Ordering::Relaxed) => {
            return Err(
                "this server takes only its own engines (start it with --allow-commands \
                 to let pages run engine commands)"
                    .to_owned(),
            )
        }
        Some(command) => command.to_owned(),
        None => {
            let path = own_engine_path(game)?;
            let text = path.to_string_lossy().into_owned();
            // The command is split like a shell would: quote the path.
            shell_words::quote(&text).into_owned()
        }
    };
    let mut words = vec![format!("cmd={command}")];
    if let Some(proto) = proto {
        Proto::parse(proto)?;
        words.push(format!("proto={proto}"));
    }
    match level {
        Level::Depth(depth) if (1..=64).contains(depth) => words.push(format!("depth={depth}")),
        Level::Nodes(nodes) if *nodes > 0 => words.push(format!("nodes={nodes}")),
        Level::MovetimeMs(ms) if (1..=3_600_000).contains(ms) => {
            words.push(format!("st={}", *ms as f64 / 1000.0));
            // A browser game forgives lateness generously: a late move is
            // played, not forfeited.
            words.push("timemargin=5000".to_owned());
        }
        other => return Err(format!("level {other:?} is out of range")),
    }
    // The cmd word may hold spaces: parse the others and set it directly.
    let mut spec = EngineSpec::parse(&words)?;
    spec.command = command;
    Ok(spec)
}

/// A client for one seat (or the hint engine), not started yet.
pub fn client(spec: EngineSpec, label: &str, rule_options: &[(String, String)]) -> EngineClient {
    let timeouts = Timeouts {
        handshake: Duration::from_secs(10),
        ready: Duration::from_secs(10),
        ping_interval: Duration::from_secs(5),
        grace: Duration::from_millis(500),
    };
    EngineClient::new(Arc::new(spec), label, timeouts, None, rule_options.to_vec())
}

/// What the page shows as an engine's name before it gives its own.
pub fn describe(level: &Level) -> String {
    match level {
        Level::Depth(2) => "easy (depth 2)".to_owned(),
        Level::Depth(3) => "medium (depth 3)".to_owned(),
        Level::Depth(4) => "hard (depth 4)".to_owned(),
        Level::Depth(d) => format!("depth {d}"),
        Level::Nodes(n) => format!("{n} nodes"),
        Level::MovetimeMs(ms) => format!("{ms} ms a move"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_carry_the_level_and_protocol() {
        let spec =
            engine_spec("hex", Some("my engine --x"), Some("gtp"), &Level::Depth(3)).unwrap();
        assert_eq!(spec.command, "my engine --x");
        assert_eq!(spec.proto, Proto::Gtp);
        assert_eq!(spec.time.depth, Some(3));
        let spec = engine_spec("hex", Some("e"), None, &Level::MovetimeMs(250)).unwrap();
        assert_eq!(spec.time.move_time, Some(Duration::from_millis(250)));
        assert_eq!(spec.proto, Proto::Ugi);
        assert!(engine_spec("hex", Some("e"), Some("smoke"), &Level::Depth(2)).is_err());
        assert!(engine_spec("hex", Some("e"), None, &Level::Depth(0)).is_err());
        assert!(engine_spec("hex", Some("e"), None, &Level::Nodes(0)).is_err());
    }
}
