//! `--log`: every line exchanged with every engine, in order, one per line:
//! `<milliseconds since start> <engine label> <direction> <text>`, where the
//! direction is `>` for a line sent to the engine and `<` for one it wrote.
//! `scripts/replay` feeds one label's `>` lines back to an engine.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::Mutex;
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    ToEngine,
    FromEngine,
}

pub struct Transcript {
    started: Instant,
    out: Mutex<BufWriter<File>>,
}

impl Transcript {
    pub fn create(path: &str) -> Result<Self, String> {
        let file = File::create(path).map_err(|e| format!("cannot create log '{path}': {e}"))?;
        Ok(Transcript {
            started: Instant::now(),
            out: Mutex::new(BufWriter::new(file)),
        })
    }

    pub fn record(&self, label: &str, direction: Direction, text: &str) {
        let arrow = match direction {
            Direction::ToEngine => '>',
            Direction::FromEngine => '<',
        };
        let millis = self.started.elapsed().as_millis();
        if let Ok(mut out) = self.out.lock() {
            // Flushed line by line: the log matters most when the referee dies.
            let _ = writeln!(out, "{millis} {label} {arrow} {text}").and_then(|_| out.flush());
        }
    }
}

/// One parsed transcript line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptLine {
    pub millis: u64,
    pub label: String,
    pub direction: Direction,
    pub text: String,
}

pub fn parse_line(line: &str) -> Option<TranscriptLine> {
    let mut parts = line.splitn(4, ' ');
    let millis = parts.next()?.parse().ok()?;
    let label = parts.next()?.to_owned();
    let direction = match parts.next()? {
        ">" => Direction::ToEngine,
        "<" => Direction::FromEngine,
        _ => return None,
    };
    let text = parts.next().unwrap_or("").to_owned();
    Some(TranscriptLine {
        millis,
        label,
        direction,
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_lines_parse_back() {
        let path = std::env::temp_dir().join(format!("transcript-{}.log", std::process::id()));
        let path = path.to_str().unwrap().to_owned();
        let transcript = Transcript::create(&path).unwrap();
        transcript.record("bt#1", Direction::ToEngine, "position startpos moves a2a3");
        transcript.record("bt#1", Direction::FromEngine, "bestmove h7h6");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<_> = text.lines().filter_map(parse_line).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].text, "position startpos moves a2a3");
        assert_eq!(lines[1].direction, Direction::FromEngine);
        assert_eq!(lines[1].label, "bt#1");
        let _ = std::fs::remove_file(&path);
    }
}
