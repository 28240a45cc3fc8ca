//! What `tune sample` and `tune texel` do for one game, apart from reading
//! the command line: files in, files out, a report on stdout.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::core::weights::LinearEval;
use crate::core::{Game, Knowledge};
use crate::referee::record::parse_json_lines;
use crate::referee::tournament::build_rules;

use super::plot::draw_loss_curve;
use super::sample::{sample_positions, LabelledPosition, SampleFilter};
use super::texel::{fit, fit_scale, loss, Dataset, EpochLoss, FitSettings};

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write '{}': {e}", path.display()))
}

pub struct SampleJob {
    pub records: Vec<PathBuf>,
    pub rule_options: Vec<(String, String)>,
    pub filter: SampleFilter,
    pub out: PathBuf,
}

/// Samples labelled positions from JSON-lines records into `out`; returns
/// the report.
pub fn run_sample<G: Game, K: Knowledge<G>>(job: &SampleJob) -> Result<String, String> {
    let rules = build_rules::<G>(&job.rule_options)?;
    let mut records = Vec::new();
    for path in &job.records {
        let games =
            parse_json_lines(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
        records.extend(games);
    }
    let (positions, counts) = sample_positions::<G, K>(&records, &rules, job.filter)?;
    let text: String = positions.iter().map(|p| p.to_line() + "\n").collect();
    write(&job.out, &text)?;
    Ok(format!(
        "{} games ({} not ended by the rules, skipped): {} positions kept in {}; \
         dropped {} opening, {} forcing, {} repeated\n",
        counts.games,
        counts.games_skipped,
        counts.positions,
        job.out.display(),
        counts.opening,
        counts.forcing,
        counts.repeated
    ))
}

pub struct TexelJob {
    pub positions: PathBuf,
    pub rule_options: Vec<(String, String)>,
    pub settings: FitSettings,
    /// Weights kept as they are, by name.
    pub frozen: Vec<String>,
    /// One position in this many is held back from the fit.
    pub hold_back: usize,
    /// How much of the fitted target comes from the search's score rather
    /// than the result (0 to 1).
    pub score_weight: f64,
    pub out: PathBuf,
    /// The loss of every epoch as CSV, if wanted.
    pub curve: Option<PathBuf>,
    /// The loss curve drawn as SVG, if wanted.
    pub plot: Option<PathBuf>,
}

/// Fits `T`'s weights to the positions; writes the tuned weight table (the
/// same file with new numbers) to `out`; returns the report.
pub fn run_texel<G: Game, T: LinearEval<G>>(
    job: &TexelJob,
    on_epoch: impl FnMut(&EpochLoss),
) -> Result<String, String> {
    let rules = build_rules::<G>(&job.rule_options)?;
    let table = T::weights();
    let mut settings = job.settings.clone();
    for name in &job.frozen {
        let index = table
            .names()
            .iter()
            .position(|known| known == name)
            .ok_or_else(|| format!("no weight named '{name}' to freeze"))?;
        settings.frozen.push(index);
    }
    let data = read_dataset::<G, T>(&job.positions, &rules)?;
    if data.len() < 2 * job.hold_back.max(1) {
        return Err(format!("only {} positions: too few to fit", data.len()));
    }
    let (mut fit_data, held) = data.split(job.hold_back);
    let start: Vec<f64> = table.values().iter().map(|&v| f64::from(v)).collect();
    let scale = fit_scale(&fit_data, &start);
    if job.score_weight > 0.0 {
        fit_data
            .blend_scores(job.score_weight, scale)
            .map_err(|missing| {
                format!("{missing} positions have no score: sample them from records with scores")
            })?;
    }
    let (weights, curve) = fit(&fit_data, &held, &start, scale, &settings, on_epoch);
    let rounded: Vec<i32> = weights.iter().map(|w| w.round() as i32).collect();
    let tuned = table.with_values(&rounded)?;
    T::check(&tuned).map_err(|e| {
        format!("the evaluation would refuse the fitted weights ({e}): freeze the weight it names")
    })?;
    write(&job.out, tuned.text())?;
    if let Some(path) = &job.curve {
        let mut csv = String::from("epoch,fit_loss,held_back_loss\n");
        for point in &curve {
            let _ = writeln!(csv, "{},{:.8},{:.8}", point.epoch, point.fit, point.held);
        }
        write(path, &csv)?;
    }
    if let Some(path) = &job.plot {
        draw_loss_curve(path, &curve)?;
    }
    let rounded_f64: Vec<f64> = rounded.iter().map(|&v| f64::from(v)).collect();
    let mut report = format!(
        "{} positions fitted, {} held back; scale {:.6} (1/{:.1} per evaluation unit)\n\
         loss on held-back positions: {:.6} before, {:.6} after (fitted: {:.6} -> {:.6})\n",
        fit_data.len(),
        held.len(),
        scale,
        1.0 / (scale * f64::from(T::feature_scale())),
        loss(&held, &start, scale),
        loss(&held, &rounded_f64, scale),
        loss(&fit_data, &start, scale),
        loss(&fit_data, &rounded_f64, scale),
    );
    for ((name, old), new) in table.names().iter().zip(table.values()).zip(&rounded) {
        if old != new {
            let _ = writeln!(report, "  {name}: {old} -> {new}");
        }
    }
    let _ = writeln!(report, "tuned weights written to {}", job.out.display());
    Ok(report)
}

fn read_dataset<G: Game, T: LinearEval<G>>(
    path: &Path,
    rules: &G::Rules,
) -> Result<Dataset, String> {
    let mut data = Dataset::default();
    let mut features = Vec::new();
    for (index, line) in read(path)?.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |e: String| format!("{} line {}: {e}", path.display(), index + 1);
        let labelled = LabelledPosition::parse_line(line).map_err(at)?;
        let position = G::from_fen(&labelled.fen, rules).map_err(at)?;
        T::features(&position, &mut features);
        let score = labelled.score.map(|s| s.saturating_mul(T::feature_scale()));
        data.push(features.clone(), labelled.result, score);
    }
    Ok(data)
}
