//! Helpers shared by the integration tests: drive a real engine binary line
//! by line, and replay the transcripts in protocol/transcripts/.
#![allow(dead_code)] // each test crate uses a different part of this module

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub mod gomoku;
pub mod hex;
pub mod renju;

use boardgames::wire::ugi::{parse_engine_line, EngineLine, Info};

/// An engine's `info` line, read with the protocol's own type.
pub fn info(line: &str) -> Option<Info> {
    match parse_engine_line(line) {
        Some(EngineLine::Info(info)) => Some(info),
        _ => None,
    }
}

/// The move and the expected reply of a `bestmove X [ponder Y]` line.
pub fn best_move(line: &str) -> Option<(String, Option<String>)> {
    match parse_engine_line(line) {
        Some(EngineLine::BestMove { mv, ponder }) => Some((mv, ponder)),
        _ => None,
    }
}

/// Generous: only a hung engine ever waits this long.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// The project's executable for `name` (a game, `referee`, `tune`): every
/// one carries the `bg-` prefix.
pub fn binary(name: &str) -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin(format!("bg-{name}"))
}

/// A file of this test process in the temporary directory.
pub fn temp_path(test: &str, name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("{test}-{}-{name}", std::process::id()))
}

/// The Breakthrough engine's path, as a referee `cmd=` takes it.
pub fn breakthrough_command() -> String {
    binary("breakthrough").display().to_string()
}

/// The misbehaving engine the referee tests play against.
pub fn misbehave_fixture() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/misbehave.py")
        .display()
        .to_string()
}

/// Runs `tune` and returns whether it succeeded, its stdout and its stderr.
pub fn run_tune<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (bool, String, String) {
    let output = Command::new(binary("tune"))
        .args(args)
        .output()
        .expect("run tune");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A temp path as the command-line text the tools take.
pub fn path_text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temp path")
}

/// Self-play data of `game` at 200 nodes a move into `out` (replaced),
/// through `bg-tune datagen`; `rules` are `Name=Value` rule settings.
pub fn datagen(game: &str, rules: &[&str], games: &str, openings: &str, out: &Path) {
    let _ = std::fs::remove_file(out);
    let mut args = vec![
        "datagen",
        "--game",
        game,
        "--nodes",
        "200",
        "--games",
        games,
        "--openings",
        openings,
        "--out",
        path_text(out),
    ];
    for rule in rules {
        args.extend(["--rule", rule]);
    }
    let (ok, _, stderr) = run_tune(&args);
    assert!(ok, "{stderr}");
}

/// Fails the test with a clear message unless python3 runs here (the
/// misbehaving-engine fixtures and the protocol fuzzer are Python).
pub fn require_python() {
    let ok = Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "python3 is needed: the misbehaving engines and the fuzzer are Python scripts"
    );
}

/// A running engine with its output read on a background thread.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start(name: &str) -> Engine {
        Engine::start_with_args(name, &[])
    }

    pub fn start_with_args(name: &str, args: &[&str]) -> Engine {
        Engine::start_program(&binary(name), args)
    }

    /// Any executable, `pbrain-bg-gomoku` among them.
    pub fn start_program(program: &Path, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        writeln!(stdin, "{line}").expect("engine reads its input");
        stdin.flush().expect("engine reads its input");
    }

    /// Next output line, or `None` if none comes within `wait`.
    pub fn line_within(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns all of them, that one last.
    pub fn read_until(&mut self, mut done: impl FnMut(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        while let Some(line) = self.line_within(deadline.saturating_duration_since(Instant::now()))
        {
            let finished = done(&line);
            seen.push(line);
            if finished {
                return seen;
            }
        }
        panic!("engine never answered as expected; it said: {seen:#?}");
    }

    /// Sends `line` and returns the output up to the first line starting with `prefix`.
    pub fn ask(&mut self, line: &str, prefix: &str) -> Vec<String> {
        self.send(line);
        self.read_until(|l| l.starts_with(prefix))
    }

    /// Sends `isready` and returns what came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        let mut lines = self.ask("isready", "readyok");
        lines.pop();
        lines
    }

    /// The FEN the engine reports with `d`.
    pub fn fen(&mut self) -> String {
        let lines = self.ask("d", "Key: ");
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .unwrap_or_default()
            .to_string()
    }

    /// Closes stdin and waits for the process to exit by itself.
    pub fn finish(self) -> Vec<String> {
        self.finish_with_status().1
    }

    /// `finish`, with how the process exited.
    pub fn finish_with_status(mut self) -> (std::process::ExitStatus, Vec<String>) {
        drop(self.stdin.take());
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "engine did not exit at end of input"
            );
            std::thread::sleep(Duration::from_millis(5));
        };
        // The reader thread may not have passed on the last lines the
        // engine wrote before it exited (a loaded machine delays it): read
        // until the thread closes the channel at the end of the output.
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(PATIENCE) {
            rest.push(line);
        }
        (status, rest)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Replays a transcript: `> ` lines are sent (after a `go` that is not
/// `infinite`, the next line waits for its `bestmove`); the engine's whole
/// output must match the other lines in order, where `...` matches any number
/// of lines and a `*` word matches any one word.
pub fn replay_transcript(engine_name: &str, path: &Path) {
    let text = std::fs::read_to_string(path).expect("transcript is readable");
    let mut inputs = Vec::new();
    let mut expected = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') && !line.starts_with("# ")
            || line.is_empty() && expected.is_empty() && inputs.is_empty()
        {
            continue;
        }
        match line.strip_prefix("> ") {
            Some(input) => inputs.push(input.to_string()),
            None => expected.push(line.to_string()),
        }
    }
    let mut engine = Engine::start(engine_name);
    let mut output = Vec::new();
    // A `go infinite` or `go ponder` answers after `stop` or `ponderhit`.
    let mut waiting = false;
    let mut unanswered_isready = 0;
    for input in &inputs {
        let words: Vec<&str> = input.split_whitespace().collect();
        let go = words.first() == Some(&"go") && !words.contains(&"perft");
        if go {
            // What earlier commands said comes first, so that an error line
            // read after this `go` is its own: our `isready` is answered
            // after those the transcript sent, and only its answer is dropped.
            engine.send("isready");
            let mut answers = 0;
            let mut said = engine.read_until(|l| {
                answers += usize::from(l == "readyok");
                answers > unanswered_isready
            });
            said.pop();
            output.extend(said);
            unanswered_isready = 0;
        }
        unanswered_isready += usize::from(input.trim() == "isready");
        engine.send(input);
        let open_ended = words.contains(&"infinite") || words.contains(&"ponder");
        let answers = matches!(words.first(), Some(&"stop") | Some(&"ponderhit")) && waiting;
        if go && open_ended {
            waiting = true;
        } else if go || answers {
            waiting = false;
            // A refused `go` answers with its error instead.
            output.extend(
                engine.read_until(|l| {
                    l.starts_with("bestmove") || l.starts_with("info string error")
                }),
            );
        }
    }
    output.extend(engine.finish());
    assert!(
        lines_match(&expected, &output),
        "{}: output does not match.\nexpected:\n{}\n\nactual:\n{}",
        path.display(),
        expected.join("\n"),
        output.join("\n")
    );
}

fn line_matches(pattern: &str, line: &str) -> bool {
    let pattern_words: Vec<&str> = pattern.split_whitespace().collect();
    let words: Vec<&str> = line.split_whitespace().collect();
    words_match(&pattern_words, &words)
}

/// `*` matches one word, a last `**` the rest of the line (none or more).
fn words_match(pattern: &[&str], words: &[&str]) -> bool {
    match (pattern.split_first(), words.split_first()) {
        (Some((&"**", [])), _) => true,
        (None, None) => true,
        (Some((p, pattern)), Some((w, words))) => {
            (*p == "*" || p == w) && words_match(pattern, words)
        }
        _ => false,
    }
}

fn lines_match(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => match actual.split_first() {
            Some((line, actual_rest)) => {
                line_matches(first, line) && lines_match(rest, actual_rest)
            }
            None => false,
        },
    }
}

/// Transcripts in protocol/transcripts/ whose file name starts with `<engine>-`.
pub fn transcripts_of(engine_name: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/transcripts");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.retain(|p| {
        p.extension().is_some_and(|e| e == "txt")
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{engine_name}-")))
    });
    paths.sort();
    paths
}

pub fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

/// Replays a Breakthrough record with the rules: every move legal, and the
/// recorded result the one the rules give (for games the rules ended).
pub fn replay_breakthrough_record(record: &boardgames::referee::record::GameRecord) {
    use boardgames::core::{Game, Outcome};
    use boardgames::games::breakthrough::Breakthrough;
    use boardgames::referee::adjudication::Termination;
    let mut position = Breakthrough::start_position(&Default::default());
    let mut legal = Vec::new();
    for m in &record.moves {
        position.generate_moves(&mut legal);
        let mv = position.parse_move(&m.mv).expect("recorded move parses");
        assert!(legal.contains(&mv), "recorded move {} is illegal", m.mv);
        position.make_move(mv);
    }
    if record.result.termination == Termination::Rules {
        let winner = match position.outcome() {
            Some(Outcome::Win(player)) => Some(player),
            other => panic!("record says the rules ended the game, rules say {other:?}"),
        };
        assert_eq!(record.result.winner, winner);
    }
}
