//! The one way protocol lines reach stdout: whole lines, flushed at once, so
//! that the search thread and the input thread never interleave.

use std::io::Write;

pub fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // A closed stdout means the GUI is gone; the input side will see EOF.
    if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
        log::warn!("stdout closed; dropped: {line}");
    }
    log::debug!(">> {line}");
}

/// `info string error: ...`, the answer to any input the engine cannot use.
pub fn error(message: &str) {
    send(&format!("info string error: {message}"));
}
