//! `--compliance <command>`: checks an engine against protocol/PROTOCOL.md
//! and prints what fails. Positions and moves are judged with the project's
//! own rules. The analysis checks (MultiPV, searchmoves, pondering, WDL,
//! bad option values) run only as far as the engine declares the options
//! they need; the others are reported as skipped, "not offered".

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::core::{Game, Outcome, Player};

use super::client::Proto;
use super::process::{EngineProcess, Line, ProcessError};
use crate::wire::ugi::{parse_engine_line, Command, EngineLine};

mod analysis;
use analysis::analysis_checks;

/// What one check concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Fail(String),
    /// Not run, and why (typically an option the engine does not declare).
    Skip(String),
}

/// The verdicts so far, in order.
#[derive(Default)]
struct Report {
    results: Vec<(String, Verdict)>,
}

impl Report {
    fn record(&mut self, name: &str, outcome: Result<(), String>) {
        let verdict = match outcome {
            Ok(()) => Verdict::Pass,
            Err(why) => Verdict::Fail(why),
        };
        self.results.push((name.to_owned(), verdict));
    }

    fn skip(&mut self, name: &str, why: String) {
        self.results.push((name.to_owned(), Verdict::Skip(why)));
    }
}

/// One `option name N type T [default D] [min A] [max B] ...` line.
struct OptionDecl {
    kind: String,
    min: Option<i64>,
    max: Option<i64>,
}

/// The options the engine declared in its handshake, by lower-case name.
#[derive(Default)]
struct Declared {
    options: HashMap<String, OptionDecl>,
}

impl Declared {
    fn from_handshake(lines: &[&str]) -> Self {
        let mut options = HashMap::new();
        for line in lines {
            let Some(EngineLine::Option(option)) = parse_engine_line(line) else {
                continue;
            };
            let decl = OptionDecl {
                kind: option.kind.to_ascii_lowercase(),
                min: option.min,
                max: option.max,
            };
            options.insert(option.name.to_ascii_lowercase(), decl);
        }
        Declared { options }
    }

    /// The option `name` when it is declared with type `kind`; otherwise
    /// why a check that needs it is skipped.
    fn need(&self, name: &str, kind: &str) -> Result<&OptionDecl, String> {
        match self.options.get(&name.to_ascii_lowercase()) {
            Some(decl) if decl.kind == kind => Ok(decl),
            Some(decl) => Err(format!(
                "not offered: {name} is declared as type {}, not {kind}",
                decl.kind
            )),
            None => Err(format!("not offered: the engine declares no {name} option")),
        }
    }

    fn has(&self, name: &str, kind: &str) -> bool {
        self.need(name, kind).is_ok()
    }
}

/// A search's answer: its info lines and `bestmove X [ponder Y]`.
struct Searched {
    info: Vec<String>,
    best: String,
    ponder: Option<String>,
}

/// `bestmove X` or `bestmove X ponder Y`, split.
fn parse_bestmove(line: &str) -> Result<(String, Option<String>), String> {
    match parse_engine_line(line) {
        Some(EngineLine::BestMove { mv, ponder }) => Ok((mv, ponder)),
        _ => Err(format!(
            "'{line}' is not 'bestmove X' or 'bestmove X ponder Y'"
        )),
    }
}

/// Time allowed for a shallow fixed-depth search.
const SEARCH_PATIENCE: Duration = Duration::from_secs(20);

struct Session {
    process: EngineProcess,
}

impl Session {
    fn start(command: &str) -> Result<Self, String> {
        Ok(Session {
            process: EngineProcess::spawn(command, None, "compliance", None)?,
        })
    }

    fn send(&mut self, line: &str) -> Result<Instant, String> {
        self.process
            .send(line)
            .map_err(|e| format!("could not send '{line}': {e:?}"))
    }

    /// Lines until one satisfies `stop` (included), or the time runs out.
    fn collect_until(
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
    fn exchange(&mut self, line: &str) -> Result<Vec<String>, String> {
        self.send(line)?;
        self.send("isready")?;
        let lines = self.collect_until(Duration::from_secs(5), |l| l == "readyok")?;
        Ok(lines
            .into_iter()
            .map(|l| l.text.trim().to_owned())
            .filter(|l| l != "readyok")
            .collect())
    }

    fn query(&mut self, what: &str) -> Result<String, String> {
        self.send(&Command::Query(what.to_owned()).to_string())?;
        let lines = self.collect_until(Duration::from_secs(2), |l| l.starts_with("response"))?;
        let last = lines.last().map(|l| l.text.trim()).unwrap_or_default();
        match parse_engine_line(last) {
            Some(EngineLine::Response(answer)) => Ok(answer),
            _ => Ok(String::new()),
        }
    }

    fn bestmove(&mut self, go: &str, within: Duration) -> Result<(String, Duration), String> {
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
    fn lines_for(
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
    fn search(&mut self, go: &str, within: Duration) -> Result<Searched, String> {
        self.send(go)?;
        let lines = self.collect_until(within, |l| l.starts_with("bestmove"))?;
        let mut info: Vec<String> = lines.iter().map(|l| l.text.trim().to_owned()).collect();
        let last = info.pop().ok_or("no bestmove")?;
        let (best, ponder) = parse_bestmove(&last)?;
        Ok(Searched { info, best, ponder })
    }

    /// `setoption name N value V`, which must not be refused.
    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
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
    fn position(&mut self, moves: &[String]) -> Result<(), String> {
        let command = position_command(moves);
        let lines = self.exchange(&command)?;
        match lines.iter().find(|l| l.contains("error")) {
            Some(error) => Err(format!("'{command}' refused: {error}")),
            None => Ok(()),
        }
    }

    /// After a failed check: stops whatever may still run and drops its
    /// late lines, so that the next check starts clean.
    fn settle(&mut self) {
        let _ = self.send("stop");
        let _ = self.exchange("");
        std::thread::sleep(Duration::from_millis(50));
        self.process.drain();
    }
}

/// A random legal game from the start, played to its end (or `max` plies).
fn random_game<G: Game>(rules: &G::Rules, seed: u64, max: usize) -> (G, Vec<String>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut position = G::start_position(rules);
    let mut texts = Vec::new();
    let mut legal = Vec::new();
    while position.outcome().is_none() && texts.len() < max {
        position.generate_moves(&mut legal);
        let Some(&mv) = legal.choose(&mut rng) else {
            break;
        };
        texts.push(position.format_move(mv));
        position.make_move(mv);
    }
    (position, texts)
}

fn position_command(moves: &[String]) -> String {
    let moves = moves.to_vec();
    Command::Position { fen: None, moves }.to_string()
}

/// The position after `moves` from the start, if every move parses.
fn position_after<G: Game>(rules: &G::Rules, moves: &[String]) -> Option<G> {
    let mut position = G::start_position(rules);
    for text in moves {
        let mv = position.parse_move(text).ok()?;
        position.make_move(mv);
    }
    Some(position)
}

fn is_legal<G: Game>(rules: &G::Rules, moves: &[String], answer: &str) -> bool {
    let Some(position) = position_after::<G>(rules, moves) else {
        return false;
    };
    position.parse_legal_move(answer).is_ok()
}

/// The legal moves after `moves`, as the game writes them; none when the
/// game is over there.
fn legal_moves<G: Game>(rules: &G::Rules, moves: &[String]) -> Vec<String> {
    let Some(position) = position_after::<G>(rules, moves) else {
        return Vec::new();
    };
    if position.outcome().is_some() {
        return Vec::new();
    }
    let mut legal = Vec::new();
    position.generate_moves(&mut legal);
    legal
        .into_iter()
        .map(|mv| position.format_move(mv))
        .collect()
}

fn expected_result(outcome: &Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(Player::P1)) => "p1win",
        Some(Outcome::Win(Player::P2)) => "p2win",
        Some(Outcome::Draw) => "draw",
        None => "none",
    }
}

/// Runs every check; returns (name, verdict) in order.
/// `timing_scale` multiplies the time limits of the timing checks (1: the
/// protocol's own limits; more on a loaded machine, where an engine's
/// answers can be late for reasons of its own).
pub fn check<G: Game>(
    command: &str,
    proto: Proto,
    rules: &G::Rules,
    rule_options: &[(String, String)],
    timing_scale: u32,
) -> Vec<(String, Verdict)> {
    let mut report = Report::default();
    let mut session = match Session::start(command) {
        Ok(session) => session,
        Err(e) => {
            report.record("start", Err(e));
            return report.results;
        }
    };
    let ugi = proto != Proto::Uci;
    let hello = Command::Hello { ugi }.to_string();
    let ok = EngineLine::HelloOk { ugi }.to_string();

    // Handshake: id name, options, then the ok word that was asked for.
    let handshake = session.send(&hello).and_then(|_| {
        session.collect_until(Duration::from_secs(10), |l| l == "uciok" || l == "ugiok")
    });
    let mut declared = Declared::default();
    let handshake = handshake.and_then(|lines| {
        let texts: Vec<&str> = lines.iter().map(|l| l.text.trim()).collect();
        declared = Declared::from_handshake(&texts);
        if texts.last() != Some(&ok.as_str()) {
            return Err(format!(
                "answered '{hello}' with {:?}, not {ok}",
                texts.last()
            ));
        }
        if !texts.iter().any(|l| l.starts_with("id name ")) {
            return Err("no 'id name' line".to_owned());
        }
        Ok(())
    });
    let fatal = handshake.is_err();
    report.record("handshake", handshake);
    if fatal {
        return report.results;
    }
    for (name, value) in rule_options {
        let outcome = session
            .exchange(
                &Command::SetOption {
                    name: name.clone(),
                    value: value.clone(),
                }
                .to_string(),
            )
            .and_then(|lines| match lines.iter().find(|l| l.contains("error")) {
                Some(error) => Err(error.clone()),
                None => Ok(()),
            });
        report.record(&format!("setoption {name}"), outcome);
    }
    // An empty line is harmless input; only the missing readyok counts.
    report.record("isready", session.exchange("").map(|_| ()));
    let newgame = Command::NewGame { ugi }.to_string();
    report.record(
        &newgame,
        session.exchange(&newgame).and_then(|lines| {
            if lines.is_empty() {
                Ok(())
            } else {
                Err(format!("answered with {lines:?}; expected nothing"))
            }
        }),
    );

    // A move from the start and from a random middle position.
    let (_, opening) = random_game::<G>(rules, 11, 6);
    for (name, moves) in [
        ("go depth 1 from the start", Vec::new()),
        ("go depth 1 mid-game", opening.clone()),
    ] {
        let outcome = session
            .exchange(&position_command(&moves))
            .and_then(|_| session.bestmove("go depth 1", Duration::from_secs(10)))
            .and_then(|(answer, _)| {
                if is_legal::<G>(rules, &moves, &answer) {
                    Ok(())
                } else {
                    Err(format!("bestmove '{answer}' is illegal"))
                }
            });
        report.record(name, outcome);
    }
    let movetime = session
        .exchange(&position_command(&opening))
        .and_then(|_| session.bestmove("go movetime 100", Duration::from_secs(2)));
    let (legal_answer, in_time) = match movetime {
        Ok((answer, took)) => (
            if is_legal::<G>(rules, &opening, &answer) {
                Ok(())
            } else {
                Err(format!("bestmove '{answer}' is illegal"))
            },
            if took > Duration::from_millis(100) * timing_scale {
                Err(format!("bestmove after {} ms", took.as_millis()))
            } else {
                Ok(())
            },
        ),
        Err(e) => (Err(e.clone()), Err(e)),
    };
    report.record("go movetime 100", legal_answer);
    report.record(
        &format!("go movetime 100 within {} ms (timing)", 100 * timing_scale),
        in_time,
    );

    // isready during a search, then stop.
    let mut latency = Err("not measured".to_owned());
    let infinite = session.exchange(&position_command(&opening)).and_then(|_| {
        session.send("go infinite")?;
        std::thread::sleep(Duration::from_millis(100));
        let asked = session.send("isready")?;
        let lines = session.collect_until(Duration::from_secs(1), |l| {
            l == "readyok" || l.starts_with("bestmove")
        })?;
        let last = lines.last().ok_or("nothing")?;
        if last.text.trim() != "readyok" {
            return Err("bestmove before readyok during go infinite".to_owned());
        }
        let ready = last.at.saturating_duration_since(asked);
        let stopped = session.send("stop")?;
        let lines = session.collect_until(Duration::from_secs(1), |l| l.starts_with("bestmove"))?;
        let took = lines
            .last()
            .map(|l| l.at.saturating_duration_since(stopped))
            .unwrap_or_default();
        let (ready_limit, stop_limit) = (10 * timing_scale, 20 * timing_scale);
        let late = ready > Duration::from_millis(ready_limit.into())
            || took > Duration::from_millis(stop_limit.into());
        latency = if late {
            Err(format!(
                "readyok after {} ms ({ready_limit} allowed), bestmove {} ms after stop \
                 ({stop_limit} allowed)",
                ready.as_millis(),
                took.as_millis()
            ))
        } else {
            Ok(())
        };
        Ok(())
    });
    report.record("isready during go infinite, then stop", infinite);
    report.record(
        &format!(
            "readyok within {} ms, bestmove within {} ms of stop (timing)",
            10 * timing_scale,
            20 * timing_scale
        ),
        latency,
    );

    // A finished game: bestmove 0000 and the queries.
    let (end, game) = random_game::<G>(rules, 5, 10_000);
    let finished = session
        .exchange(&position_command(&game))
        .and_then(|errors| {
            if !errors.is_empty() {
                return Err(format!("refused a legal game: {errors:?}"));
            }
            let over = session.query("gameover")?;
            let result = session.query("result")?;
            let expected = expected_result(&end.outcome());
            if end.outcome().is_some() && over != "true" {
                return Err(format!(
                    "query gameover said '{over}' after a finished game"
                ));
            }
            if result != expected {
                return Err(format!(
                    "query result said '{result}', the rules say '{expected}'"
                ));
            }
            if end.outcome().is_some() {
                let (answer, _) = session.bestmove("go depth 1", Duration::from_secs(5))?;
                if answer != "0000" {
                    return Err(format!("bestmove '{answer}' in a finished game, not 0000"));
                }
            }
            Ok(())
        });
    report.record("finished game: queries and bestmove 0000", finished);

    // Bad input keeps the engine answering and the position unchanged.
    let bad_input = session
        .exchange(&position_command(&opening[..1]))
        .and_then(|_| {
            let before = session.query("p1turn")?;
            for garbage in [
                "flibbertigibbet",
                "position startpos moves zz99",
                "position fen not-a-fen",
                "go depth x",
                "setoption name",
            ] {
                let lines = session.exchange(garbage)?;
                if garbage.starts_with("position")
                    && !lines.iter().any(|l| l.starts_with("info string"))
                {
                    return Err(format!("no 'info string error' for '{garbage}'"));
                }
            }
            let after = session.query("p1turn")?;
            if before != after || before != "false" {
                return Err(format!(
                    "position changed by bad input: p1turn {before} -> {after}"
                ));
            }
            Ok(())
        });
    // `go depth x` may legitimately answer bestmove; drain it.
    session.process.drain();
    report.record("bad input refused, position kept", bad_input);

    analysis_checks::<G>(&mut session, rules, &opening, &declared, &mut report);

    let quit_sent = session.send("quit");
    let quit = quit_sent.and_then(|_| {
        let until = Instant::now() + Duration::from_secs(1);
        while session.process.is_alive() {
            if Instant::now() > until {
                return Err("still running 1 s after quit".to_owned());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(())
    });
    report.record("quit", quit);
    session.process.shutdown(None, Duration::from_millis(100));
    report.results
}

/// Prints the report; the exit code is 0 when no check failed (a skipped
/// check is not a failure).
pub fn report(results: &[(String, Verdict)]) -> i32 {
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for (name, verdict) in results {
        match verdict {
            Verdict::Pass => {
                passed += 1;
                println!("PASS {name}");
            }
            Verdict::Fail(why) => {
                failed += 1;
                println!("FAIL {name}: {why}");
            }
            Verdict::Skip(why) => {
                skipped += 1;
                println!("SKIP {name}: {why}");
            }
        }
    }
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    i32::from(failed > 0)
}
