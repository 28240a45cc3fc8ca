//! Leaves no engine behind, whatever ends the referee.
//!
//! Engines run in process groups of their own, so a Ctrl-C at the terminal
//! reaches the referee but not them. Std offers no signal handlers; instead
//! the referee starts a small watchdog (this same executable with
//! `--watchdog`, in its own process group) and tells it, through a pipe,
//! each engine group it starts and ends. When the referee goes away for any
//! reason (normal end, error, Ctrl-C, even SIGKILL) the pipe closes and the
//! watchdog kills the groups still listed.

use std::collections::BTreeSet;
use std::io::{BufRead, Write};
use std::os::unix::process::CommandExt;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use super::process::kill_process_group;

static PIPE: OnceLock<Mutex<ChildStdin>> = OnceLock::new();

/// Starts the watchdog; engines started before this are not covered.
pub fn start() -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find own executable: {e}"))?;
    let mut child = Command::new(exe)
        .arg("--watchdog")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start the watchdog: {e}"))?;
    let stdin = child
        .stdin
        .take()
        .ok_or_else(|| "watchdog stdin not captured".to_owned())?;
    let _ = PIPE.set(Mutex::new(stdin));
    // Not waited for: it outlives us by design and init reaps it.
    drop(child);
    Ok(())
}

fn tell(message: String) {
    if let Some(pipe) = PIPE.get() {
        if let Ok(mut pipe) = pipe.lock() {
            let _ = pipe
                .write_all(message.as_bytes())
                .and_then(|_| pipe.flush());
        }
    }
}

pub fn register(pgid: u32) {
    tell(format!("+{pgid}\n"));
}

pub fn unregister(pgid: u32) {
    tell(format!("-{pgid}\n"));
}

/// The watchdog's own main loop: track groups until the pipe closes, then
/// kill what is left.
pub fn run() {
    let mut groups = BTreeSet::new();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let (sign, number) = line.split_at(line.len().min(1));
        match (sign, number.parse::<u32>()) {
            ("+", Ok(pgid)) => {
                groups.insert(pgid);
            }
            ("-", Ok(pgid)) => {
                groups.remove(&pgid);
            }
            _ => {}
        }
    }
    for pgid in groups {
        kill_process_group(pgid);
    }
}
