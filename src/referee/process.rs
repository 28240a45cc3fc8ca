//! One engine process: its own process group, a reader thread that stamps
//! every line with the instant it arrived, and a shutdown that always ends in
//! a reaped child and an empty process group.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

use super::transcript::{Direction, Transcript};
use super::watchdog;

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessError {
    /// Nothing arrived before the deadline.
    Timeout,
    /// The engine closed its output or its input (it exited or crashed).
    Closed(String),
}

/// A line the engine wrote, with the instant the reader saw it.
#[derive(Clone, Debug)]
pub struct Line {
    pub text: String,
    pub at: Instant,
}

enum ReaderEvent {
    Line(Line),
    Eof,
}

pub struct EngineProcess {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<ReaderEvent>,
    output_closed: bool,
    transcript: Option<Arc<Transcript>>,
    reaped: bool,
}

/// Splits a command line into words as a POSIX shell would (quotes and
/// backslash escapes; no variables, globs or pipes).
pub fn split_command(command: &str) -> Result<Vec<String>, String> {
    let words =
        shell_words::split(command).map_err(|e| format!("engine command '{command}': {e}"))?;
    if words.is_empty() {
        return Err("empty engine command".to_owned());
    }
    Ok(words)
}

impl EngineProcess {
    /// Starts `command` (split by [`split_command`]) in a process group of
    /// its own, so a Ctrl-C at the terminal reaches the referee alone and a
    /// kill of the group takes the engine's own children with it.
    pub fn spawn(
        command: &str,
        working_dir: Option<&str>,
        label: &str,
        transcript: Option<Arc<Transcript>>,
    ) -> Result<Self, String> {
        let words = split_command(command)?;
        let mut builder = Command::new(&words[0]);
        builder
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0);
        if let Some(dir) = working_dir {
            builder.current_dir(dir);
        }
        let mut child = builder
            .spawn()
            .map_err(|e| format!("cannot start engine '{command}': {e}"))?;
        watchdog::register(child.id());
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| "engine stdout was not captured".to_owned())?;
        let (sender, lines) = mpsc::channel();
        let reader_transcript = transcript.clone();
        let reader_label = label.to_owned();
        thread::Builder::new()
            .name(format!("read-{label}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match reader.read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let at = Instant::now();
                            let text = String::from_utf8_lossy(&buffer)
                                .trim_end_matches(['\n', '\r'])
                                .to_owned();
                            if let Some(t) = &reader_transcript {
                                t.record(&reader_label, Direction::FromEngine, &text);
                            }
                            if sender.send(ReaderEvent::Line(Line { text, at })).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = sender.send(ReaderEvent::Eof);
            })
            .map_err(|e| format!("cannot start reader thread: {e}"))?;
        log::debug!("started {label}: {command} (pid {})", child.id());
        Ok(EngineProcess {
            label: label.to_owned(),
            child,
            stdin,
            lines,
            output_closed: false,
            transcript,
            reaped: false,
        })
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A second handle on the engine's input, for another thread to write
    /// one line while this one waits for an answer (the board's "move
    /// now" sends `stop` so). The engine sees its input end only when every
    /// handle is dropped: drop it when the search ends.
    pub fn input_handle(&self) -> Option<std::fs::File> {
        use std::os::fd::AsFd;
        let stdin = self.stdin.as_ref()?;
        stdin
            .as_fd()
            .try_clone_to_owned()
            .ok()
            .map(std::fs::File::from)
    }

    /// Writes one line and flushes it.
    pub fn send(&mut self, line: &str) -> Result<Instant, ProcessError> {
        if let Some(t) = &self.transcript {
            t.record(&self.label, Direction::ToEngine, line);
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| ProcessError::Closed("input already closed".to_owned()))?;
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        let sent_at = Instant::now();
        match written {
            Ok(()) => Ok(sent_at),
            Err(e) => Err(ProcessError::Closed(self.exit_description(&e.to_string()))),
        }
    }

    /// The next line, waiting at most until `deadline`.
    pub fn receive(&mut self, deadline: Instant) -> Result<Line, ProcessError> {
        if self.output_closed {
            return Err(ProcessError::Closed(self.exit_description("output closed")));
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(ReaderEvent::Line(line)) => Ok(line),
            Ok(ReaderEvent::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.output_closed = true;
                Err(ProcessError::Closed(self.exit_description("output closed")))
            }
            Err(RecvTimeoutError::Timeout) => Err(ProcessError::Timeout),
        }
    }

    /// Lines already waiting, without blocking (late answers to discard).
    pub fn drain(&mut self) {
        while let Ok(event) = self.lines.try_recv() {
            if let ReaderEvent::Eof = event {
                self.output_closed = true;
            }
        }
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        !self.reaped && matches!(self.child.try_wait(), Ok(None))
    }

    fn exit_description(&mut self, what: &str) -> String {
        // Give a dying process a moment so its exit status can be reported.
        let until = Instant::now() + Duration::from_millis(50);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("{what}; engine exited with {status}"),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(2)),
                _ => return what.to_owned(),
            }
        }
    }

    /// Asks the engine to quit, waits up to `grace`, then kills its whole
    /// process group; always reaps the child.
    pub fn shutdown(&mut self, quit_line: Option<&str>, grace: Duration) {
        if self.reaped {
            return;
        }
        if let Some(line) = quit_line {
            let _ = self.send(line);
        }
        // Closing stdin is the end-of-input that our engines treat as quit.
        self.stdin = None;
        let until = Instant::now() + grace;
        let exited = loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break true,
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(2)),
                _ => break false,
            }
        };
        let pid = self.child.id();
        if !exited {
            log::debug!("{} did not quit within {:?}: killing", self.label, grace);
        }
        // The group may hold the engine's own children even when it exited.
        kill_process_group(pid);
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reaped = true;
        watchdog::unregister(pid);
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shutdown(None, Duration::from_millis(200));
    }
}

/// Sends SIGKILL to every process in group `pgid`; a group already gone
/// is not an error.
pub fn kill_process_group(pgid: u32) {
    let Ok(raw) = i32::try_from(pgid) else {
        log::warn!("process group {pgid} is out of range");
        return;
    };
    match killpg(Pid::from_raw(raw), Signal::SIGKILL) {
        Ok(()) | Err(Errno::ESRCH) => {}
        Err(e) => log::warn!("cannot kill process group {pgid}: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell_would() {
        assert_eq!(
            split_command(r#"python3 'a b.py' --x "c d" e\ f"#).unwrap(),
            ["python3", "a b.py", "--x", "c d", "e f"]
        );
        assert!(split_command("  ").is_err());
        assert!(split_command("a 'b").is_err());
        assert_eq!(
            split_command("'/opt/my engines/hex' --gtp").unwrap(),
            ["/opt/my engines/hex", "--gtp"]
        );
    }

    #[test]
    fn a_quoted_argument_reaches_the_engine_as_one_word() {
        let mut process =
            EngineProcess::spawn("printf '%s|\\n' 'two words' one", None, "printf", None).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(process.receive(deadline).unwrap().text, "two words|");
        assert_eq!(process.receive(deadline).unwrap().text, "one|");
    }

    #[test]
    fn lines_arrive_and_the_group_is_gone_after_shutdown() {
        let mut process = EngineProcess::spawn("cat", None, "cat", None).unwrap();
        process.send("hello").unwrap();
        let line = process
            .receive(Instant::now() + Duration::from_secs(5))
            .unwrap();
        assert_eq!(line.text, "hello");
        let pid = process.pid();
        process.shutdown(None, Duration::from_secs(1));
        assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
    }

    #[test]
    fn an_engine_ignoring_quit_is_killed_after_the_grace_period() {
        let mut process = EngineProcess::spawn(
            "sh -c 'trap \"\" TERM; while true; do sleep 1; done'",
            None,
            "stubborn",
            None,
        )
        .unwrap();
        let started = Instant::now();
        process.shutdown(Some("quit"), Duration::from_millis(100));
        assert!(started.elapsed() < Duration::from_secs(3));
        assert!(!process.is_alive());
        assert!(matches!(
            process.receive(Instant::now() + Duration::from_secs(2)),
            Err(ProcessError::Closed(_))
        ));
    }
}
