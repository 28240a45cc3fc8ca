//! `--compliance <command>`: checks an engine against protocol/PROTOCOL.md
//! and prints what fails. Positions and moves are judged with the project's
//! own rules. The analysis checks (MultiPV, searchmoves, pondering, WDL,
//! bad option values) run only as far as the engine declares the options
//! they need; the others are reported as skipped, "not offered".

use std::collections::HashMap;

use crate::core::Game;

use super::client::Proto;
use crate::wire::ugi::{parse_engine_line, EngineLine};

mod analysis;
mod basics;
mod positions;
mod session;
use analysis::analysis_checks;
use positions::random_game;
use session::Session;

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
    let declared = match basics::handshake(&mut session, ugi) {
        Ok(declared) => declared,
        Err(e) => {
            report.record("handshake", Err(e));
            return report.results;
        }
    };
    report.record("handshake", Ok(()));
    basics::setup(&mut session, &mut report, rule_options, ugi);
    // A move from the start and from a random middle position.
    let (_, opening) = random_game::<G>(rules, 11, 6);
    basics::searches::<G>(&mut session, &mut report, rules, &opening, timing_scale);
    basics::stop_during_search(&mut session, &mut report, &opening, timing_scale);
    basics::finished_game::<G>(&mut session, &mut report, rules);
    basics::bad_input(&mut session, &mut report, &opening);
    analysis_checks::<G>(&mut session, rules, &opening, &declared, &mut report);
    basics::quit(&mut session, &mut report);
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
