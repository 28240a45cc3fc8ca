//! A compliance run's engine process: commands out, answers in, with the
//! time limits the protocol allows.

use std::time::{Duration, Instant};

use super::positions::position_command;
use crate::referee::process::{EngineProcess, Line, ProcessError};
use crate::wire::ugi::{parse_engine_line, Command, EngineLine};

/// A search's answer: its info lines and `bestmove X [ponder Y]`.
pub(super) struct Searched {
    pub info: Vec<String>,
    pub best: String,
    pub ponder: Option<String>,
}

/// `bestmove X` or `bestmove X ponder Y`, split.
pub(super) fn parse_bestmove(line: &str) -> Result<(String, Option<String>), String> {
    match parse_engine_line(line) {
        Some(EngineLine::BestMove { mv, ponder }) => Ok((mv, ponder)),
        _ => Err(format!(
            "'{line}' is not 'bestmove X' or 'bestmove X ponder Y'"
        )),
    }
}

/// Time allowed for a shallow fixed-depth search.
pub(super) const SEARCH_PATIENCE: Duration = Duration::from_secs(20);

pub(super) struct Session {
    pub process: EngineProcess,
}

impl Session {
    pub(super) fn start(command: &str) -> Result<Self, String> {
        Ok(Session {
            process: EngineProcess::spawn(command, None, "compliance", None)?,
        })
    }

    pub(super) fn send(&mut self, line: &str) -> Result<Instant, String> {
        self.process
            .send(line)
            .map_err(|e| format!("could not send '{line}': {e:?}"))
    }

    /// Lines until one satisfies `stop` (included), or the time runs out.
    pub(super) fn collect_until(
        &mut self,
        within: Duration,
        stop: impl Fn(&str) -> bool,
    ) -> Result<Vec<Line>, String> {
        let deadline = Instant::now() + within;
        let mut lines = Vec::new();
        loop {
            match self.process.receive(deadline) {
                Ok(line) => {
                    let done = stop(line.text.trim());
                    lines.push(line);
                    if done {
                        return Ok(lines);
                    }
                }
                Err(ProcessError::Timeout) => {
                    let seen: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
                    return Err(format!(
                        "no answer within {} ms (saw {:?})",
                        within.as_millis(),
                        seen
                    ));
                }
                Err(ProcessError::Closed(why)) => return Err(format!("engine went away: {why}")),
            }
        }
    }

    /// Sends `line` then `isready`; the lines before `readyok`.
    pub(super) fn exchange(&mut self, line: &str) -> Result<Vec<String>, String> {
        self.send(line)?;
        self.send("isready")?;
        let lines = self.collect_until(Duration::from_secs(5), |l| l == "readyok")?;
        Ok(lines
            .into_iter()
            .map(|l| l.text.trim().to_owned())
            .filter(|l| l != "readyok")
            .collect())
    }

    pub(super) fn query(&mut self, what: &str) -> Result<String, String> {
        self.send(&Command::Query(what.to_owned()).to_string())?;
        let lines = self.collect_until(Duration::from_secs(2), |l| l.starts_with("response"))?;
        let last = lines.last().map(|l| l.text.trim()).unwrap_or_default();
        match parse_engine_line(last) {
            Some(EngineLine::Response(answer)) => Ok(answer),
            _ => Ok(String::new()),
        }
    }

    pub(super) fn bestmove(
        &mut self,
        go: &str,
        within: Duration,
    ) -> Result<(String, Duration), String> {
        let sent = self.send(go)?;
        let lines = self.collect_until(within, |l| l.starts_with("bestmove"))?;
        let line = lines.last().ok_or("no bestmove")?;
        match parse_engine_line(&line.text) {
            Some(EngineLine::BestMove { mv, ponder: None }) => {
                Ok((mv, line.at.saturating_duration_since(sent)))
            }
            _ => Err(format!("'{}' is not exactly two words", line.text.trim())),
        }
    }

    /// Every line that comes within `within` (trimmed), ending early after
    /// one that `stop` takes.
    pub(super) fn lines_for(
        &mut self,
        within: Duration,
        stop: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + within;
        let mut lines = Vec::new();
        loop {
            match self.process.receive(deadline) {
                Ok(line) => {
                    let text = line.text.trim().to_owned();
                    let done = stop(&text);
                    lines.push(text);
                    if done {
                        return Ok(lines);
                    }
                }
                Err(ProcessError::Timeout) => return Ok(lines),
                Err(ProcessError::Closed(why)) => return Err(format!("engine went away: {why}")),
            }
        }
    }

    /// Sends `go`; the lines up to its `bestmove X [ponder Y]`.
    pub(super) fn search(&mut self, go: &str, within: Duration) -> Result<Searched, String> {
        self.send(go)?;
        let lines = self.collect_until(within, |l| l.starts_with("bestmove"))?;
        let mut info: Vec<String> = lines.iter().map(|l| l.text.trim().to_owned()).collect();
        let last = info.pop().ok_or("no bestmove")?;
        let (best, ponder) = parse_bestmove(&last)?;
        Ok(Searched { info, best, ponder })
    }

    /// `setoption name N value V`, which must not be refused.
    pub(super) fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let command = Command::SetOption {
            name: name.to_owned(),
            value: value.to_owned(),
        }
        .to_string();
        let lines = self.exchange(&command)?;
        match lines.iter().find(|l| l.contains("error")) {
            Some(error) => Err(format!("'{command}' refused: {error}")),
            None => Ok(()),
        }
    }

    /// A position the engine must take without complaint.
    pub(super) fn position(&mut self, moves: &[String]) -> Result<(), String> {
        let command = position_command(moves);
        let lines = self.exchange(&command)?;
        match lines.iter().find(|l| l.contains("error")) {
            Some(error) => Err(format!("'{command}' refused: {error}")),
            None => Ok(()),
        }
    }

    /// After a failed check: stops whatever may still run and drops its
    /// late lines, so that the next check starts clean.
    pub(super) fn settle(&mut self) {
        let _ = self.send("stop");
        let _ = self.exchange("");
        std::thread::sleep(Duration::from_millis(50));
        self.process.drain();
    }
}
