//! `bg-tune spsa`: asks the engine which spins it has, then plays each step's
//! game pairs through the referee's match loop (the plus engine against
//! the minus engine, each opening with both colours) and logs every step.
//! Any UGI or UCI engine can be tuned; the games are refereed with the
//! project's own rules.

use std::path::PathBuf;
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};

use crate::core::Game;
use crate::referee::adjudication::Termination;
use crate::referee::cli::board_size;
use crate::referee::client::{DeclaredOption, EngineClient, EngineSpec, Timeouts};
use crate::referee::openings::OpeningSource;
use crate::referee::play::GameSettings;
use crate::referee::record::RecordHeader;
use crate::referee::tournament::{run_match, MatchConfig, MatchSummary};

use super::plot::draw_trajectories;
use super::spsa::{perturb, update, Schedule, SpsaParam, SpsaState};
use super::spsa_log::{RunSettings, SpsaLog, StepLine};

/// A parameter as asked on the command line; what is left out comes from
/// the engine's declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamRequest {
    pub name: String,
    pub start: Option<f64>,
    pub range: Option<(f64, f64)>,
    pub c_end: Option<f64>,
    pub r_end: Option<f64>,
}

impl ParamRequest {
    /// `NAME`, `NAME=START`, `NAME=START,MIN,MAX` or
    /// `NAME=START,MIN,MAX,C_END,R_END`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (name, numbers) = text.split_once('=').unwrap_or((text, ""));
        if name.trim().is_empty() {
            return Err(format!("'{text}' names no option"));
        }
        let values = numbers
            .split(',')
            .filter(|v| !v.trim().is_empty())
            .map(|v| {
                v.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("'{v}' in '{text}' is not a number"))
            })
            .collect::<Result<Vec<f64>, String>>()?;
        if !matches!(values.len(), 0 | 1 | 3 | 5) {
            return Err(format!(
                "'{text}': give NAME, NAME=START, NAME=START,MIN,MAX or NAME=START,MIN,MAX,C_END,R_END"
            ));
        }
        Ok(ParamRequest {
            name: name.trim().to_owned(),
            start: values.first().copied(),
            range: (values.len() >= 3).then(|| (values[1], values[2])),
            c_end: values.get(3).copied(),
            r_end: values.get(4).copied(),
        })
    }

    /// The full parameter, checked against what the engine declared.
    fn resolve(&self, declared: &[DeclaredOption]) -> Result<SpsaParam, String> {
        let Some(option) = declared
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(&self.name))
        else {
            let spins: Vec<&str> = declared
                .iter()
                .filter(|o| o.kind == "spin")
                .map(|o| o.name.as_str())
                .collect();
            return Err(format!(
                "the engine has no option '{}' (its spins: {})",
                self.name,
                if spins.is_empty() {
                    "none".to_owned()
                } else {
                    spins.join(", ")
                }
            ));
        };
        if option.kind != "spin" {
            return Err(format!(
                "option '{}' is a {}, not a spin: SPSA tunes integer spins",
                option.name, option.kind
            ));
        }
        let declared_start = option
            .default
            .as_deref()
            .and_then(|d| d.parse::<f64>().ok());
        let start = self
            .start
            .or(declared_start)
            .ok_or_else(|| format!("option '{}' declares no default: give a start", option.name))?;
        let (min, max) = match (self.range, option.min, option.max) {
            (Some(range), _, _) => range,
            (None, Some(min), Some(max)) => (min as f64, max as f64),
            _ => {
                return Err(format!(
                    "option '{}' declares no range: give MIN,MAX",
                    option.name
                ))
            }
        };
        if !(min < max && (min..=max).contains(&start)) {
            return Err(format!(
                "option '{}': the start {start} must lie in [{min}, {max}]",
                option.name
            ));
        }
        let c_end = self.c_end.unwrap_or(((max - min) / 20.0).max(0.5));
        let r_end = self.r_end.unwrap_or(0.002);
        if c_end <= 0.0 || r_end <= 0.0 {
            return Err(format!(
                "option '{}': C_END and R_END must be positive",
                option.name
            ));
        }
        Ok(SpsaParam {
            name: option.name.clone(),
            start,
            min,
            max,
            c_end,
            r_end,
        })
    }
}

/// One tuning run; the game (its name, its default board size) is the
/// type `run_spsa` is called with.
pub struct SpsaJob {
    /// The engine as the referee takes it: command, time limits, fixed
    /// options.
    pub engine: EngineSpec,
    /// The engine's words as given, which a resumed run must repeat.
    pub engine_words: String,
    pub params: Vec<ParamRequest>,
    pub total_pairs: usize,
    pub pairs_per_step: usize,
    pub concurrency: usize,
    pub openings: OpeningSource,
    pub rule_options: Vec<(String, String)>,
    /// A draw after this many plies, opening included.
    pub max_plies: Option<usize>,
    pub seed: u64,
    pub log: PathBuf,
    pub resume: bool,
    /// The final values as `option.X=V` words.
    pub out: Option<PathBuf>,
    /// The trajectories as SVG.
    pub plot: Option<PathBuf>,
}

/// Starts the engine once to read its options.
fn declared_options(job: &SpsaJob) -> Result<Vec<DeclaredOption>, String> {
    let mut client = EngineClient::new(
        Arc::new(job.engine.clone()),
        "probe",
        Timeouts::default(),
        None,
        job.rule_options.clone(),
    );
    let started = client.ensure_started();
    client.shutdown();
    started.map_err(|fault| format!("cannot start the engine: {fault:?}"))?;
    Ok(std::mem::take(&mut client.declared_options))
}

fn with_values(
    engine: &EngineSpec,
    params: &[SpsaParam],
    values: &[i64],
    name: &str,
) -> EngineSpec {
    let mut spec = engine.clone();
    spec.name = Some(name.to_owned());
    spec.options
        .retain(|(option, _)| !params.iter().any(|p| p.name.eq_ignore_ascii_case(option)));
    spec.options.extend(
        params
            .iter()
            .zip(values)
            .map(|(p, v)| (p.name.clone(), v.to_string())),
    );
    spec
}

/// A game that did not end by the board means the engine, not the
/// parameters, failed: the run stops rather than learn from it.
fn engine_failure(summary: &MatchSummary) -> Option<String> {
    let failures: Vec<String> = summary
        .terminations
        .iter()
        .filter(|(t, _)| {
            matches!(
                t,
                Termination::Crash
                    | Termination::Stall
                    | Termination::ProtocolError
                    | Termination::IllegalMove
            )
        })
        .map(|(t, n)| format!("{n} {}", t.keyword()))
        .collect();
    (!failures.is_empty()).then(|| failures.join(", "))
}

fn play_step<G: Game>(
    job: &SpsaJob,
    params: &[SpsaParam],
    plus: &[i64],
    minus: &[i64],
    first_pair: usize,
    pairs: usize,
) -> Result<MatchSummary, String> {
    let config = MatchConfig {
        engines: [
            Arc::new(with_values(&job.engine, params, plus, "plus")),
            Arc::new(with_values(&job.engine, params, minus, "minus")),
        ],
        games: 2 * pairs,
        concurrency: job.concurrency,
        openings: job.openings.clone(),
        first_pair,
        settings: GameSettings {
            max_plies: job.max_plies,
            board_size: board_size::<G>(&job.rule_options),
            // The steps' games are not recorded.
            header: RecordHeader::default(),
            swap2: false,
        },
        sprt: None,
        records: None,
        transcript: None,
        rule_options: job.rule_options.clone(),
        timeouts: Timeouts::default(),
        quiet: true,
        shard: None,
    };
    run_match::<G>(&config)
}

fn progress_bar(total: usize, done: usize) -> ProgressBar {
    let bar = ProgressBar::new(total as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {pos}/{len} pairs, {elapsed} spent, {eta} left  {msg}",
    ) {
        bar.set_style(style);
    }
    bar.set_position(done as u64);
    bar
}

fn values_text(params: &[SpsaParam], values: &[i64]) -> String {
    params
        .iter()
        .zip(values)
        .map(|(p, v)| format!("option.{}={v}", p.name))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs (or resumes) the tuning; returns the report. The log keeps every
/// finished step whatever goes wrong.
pub fn run_spsa<G: Game>(job: &SpsaJob) -> Result<String, String> {
    if job.params.is_empty() {
        return Err("name at least one --param".to_owned());
    }
    let declared = declared_options(job)?;
    let params = job
        .params
        .iter()
        .map(|p| p.resolve(&declared))
        .collect::<Result<Vec<_>, _>>()?;
    let settings = RunSettings {
        game: G::NAME.to_owned(),
        engine: job.engine_words.clone(),
        params: params.clone(),
        schedule: Schedule::new(job.total_pairs),
        pairs_per_step: job.pairs_per_step.max(1),
        seed: job.seed,
    };
    let mut log = if job.resume {
        SpsaLog::resume(&job.log, &settings)?
    } else {
        SpsaLog::create(&job.log, &settings)?
    };
    let mut state: SpsaState = log.state(&params);
    let bar = progress_bar(job.total_pairs, state.pairs_done);
    while state.pairs_done < job.total_pairs {
        let step = log.steps.len();
        let pairs = settings
            .pairs_per_step
            .min(job.total_pairs - state.pairs_done);
        let p = perturb(&params, &settings.schedule, &state, job.seed, step);
        let summary = play_step::<G>(job, &params, &p.plus, &p.minus, state.pairs_done, pairs)?;
        if let Some(failure) = engine_failure(&summary) {
            bar.abandon();
            return Err(format!(
                "step {} stopped the run: {failure} (see the referee's messages above); \
                 the log keeps the {step} steps before it, and --resume continues from there",
                step + 1
            ));
        }
        let r = &summary.results;
        let balance = r.wins as i64 - r.losses as i64;
        update(
            &params,
            &settings.schedule,
            &mut state,
            &p.direction,
            balance,
            pairs,
        );
        log.record(StepLine {
            step,
            plus: p.plus,
            minus: p.minus,
            wins: r.wins,
            losses: r.losses,
            draws: r.draws,
            pairs_done: state.pairs_done,
            theta: state.theta.clone(),
        })?;
        bar.set_position(state.pairs_done as u64);
        bar.set_message(values_text(&params, &state.rounded()));
    }
    bar.finish_and_clear();
    finish(job, &params, &log, &state)
}

fn finish(
    job: &SpsaJob,
    params: &[SpsaParam],
    log: &SpsaLog,
    state: &SpsaState,
) -> Result<String, String> {
    let words = values_text(params, &state.rounded());
    if let Some(path) = &job.out {
        std::fs::write(path, format!("{words}\n"))
            .map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
    }
    if let Some(path) = &job.plot {
        draw_trajectories(path, params, &log.steps)?;
    }
    let mut report = format!(
        "{} pairs in {} steps; log {}\n",
        state.pairs_done,
        log.steps.len(),
        job.log.display()
    );
    for (param, theta) in params.iter().zip(&state.theta) {
        report.push_str(&format!(
            "  {:<24} {:>8} -> {:.2}  (range {} to {})\n",
            param.name, param.start, theta, param.min, param.max
        ));
    }
    report.push_str(&format!("tuned: {words}\n"));
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(name: &str) -> DeclaredOption {
        DeclaredOption {
            name: name.to_owned(),
            kind: "spin".to_owned(),
            default: Some("3".to_owned()),
            min: Some(0),
            max: Some(100),
            vars: Vec::new(),
        }
    }

    #[test]
    fn parameters_take_what_is_not_given_from_the_engine() {
        let declared = [spin("NullMoveMinDepth")];
        let p = ParamRequest::parse("nullmovemindepth")
            .unwrap()
            .resolve(&declared)
            .unwrap();
        assert_eq!(
            (p.name.as_str(), p.start, p.min, p.max),
            ("NullMoveMinDepth", 3.0, 0.0, 100.0)
        );
        assert_eq!((p.c_end, p.r_end), (5.0, 0.002));
        let p = ParamRequest::parse("NullMoveMinDepth=2,1,6,0.5,0.01")
            .unwrap()
            .resolve(&declared)
            .unwrap();
        assert_eq!(
            (p.start, p.min, p.max, p.c_end, p.r_end),
            (2.0, 1.0, 6.0, 0.5, 0.01)
        );
    }

    #[test]
    fn bad_parameters_are_named() {
        let mut check = spin("Ponder");
        check.kind = "check".to_owned();
        let declared = [spin("Depth"), check];
        let missing = ParamRequest::parse("Width")
            .unwrap()
            .resolve(&declared)
            .unwrap_err();
        assert!(
            missing.contains("no option 'Width'") && missing.contains("Depth"),
            "{missing}"
        );
        let not_spin = ParamRequest::parse("Ponder")
            .unwrap()
            .resolve(&declared)
            .unwrap_err();
        assert!(not_spin.contains("not a spin"), "{not_spin}");
        let outside = ParamRequest::parse("Depth=7,1,5")
            .unwrap()
            .resolve(&declared)
            .unwrap_err();
        assert!(outside.contains("[1, 5]"), "{outside}");
        assert!(ParamRequest::parse("Depth=1,2").is_err());
        assert!(ParamRequest::parse("Depth=x").is_err());
        assert!(ParamRequest::parse("=3").is_err());
    }
}
