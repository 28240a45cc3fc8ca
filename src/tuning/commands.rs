//! What `tune sample`, `bg-tune texel` and `bg-tune wdl` do, apart from reading
//! the command line: files in, files out, a report on stdout.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::core::search::AlphaBetaKnowledge;
use crate::core::wdl::WdlModel;
use crate::core::weights::LinearEval;
use crate::core::Game;
use crate::referee::record::parse_json_lines;
use crate::referee::tournament::build_rules;

use super::plot::draw_loss_curve;
use super::sample::{sample_positions, LabelledPosition, SampleFilter};
use super::texel::{fit, fit_scale, loss, Dataset, EpochLoss, FitSettings};
use super::wdl_fit::{
    base_rate_loss, calibration_table, fit_wdl, log_loss, model_file, WdlData, SCALE_RANGE,
};
use super::{datagen, dataset};

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
pub fn run_sample<G: Game, K: AlphaBetaKnowledge<G>>(job: &SampleJob) -> Result<String, String> {
    let rules = build_rules::<G>(&job.rule_options)?;
    let mut records = Vec::new();
    for path in &job.records {
        if dataset::is_data_file(path) {
            let (data, _) = dataset::read_games_of::<G>(path)?;
            records.extend(datagen::to_records::<G>(&data)?);
            continue;
        }
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
    /// Weights kept as they are, by name; `*` stands for any run of
    /// characters (`to_move_*`).
    pub frozen: Vec<String>,
    /// Weights whose feature is nonzero in fewer fitted positions than
    /// this are kept as they are: too little data to move them.
    pub min_seen: usize,
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
    for pattern in &job.frozen {
        let before = settings.frozen.len();
        let names = table.names().iter().enumerate();
        settings.frozen.extend(
            names
                .filter(|(_, name)| name_matches(pattern, name))
                .map(|(index, _)| index),
        );
        if settings.frozen.len() == before {
            return Err(format!("no weight named '{pattern}' to freeze"));
        }
    }
    let data = read_dataset::<G, T>(&job.positions, &rules)?;
    if data.len() < 2 * job.hold_back.max(1) {
        return Err(format!("only {} positions: too few to fit", data.len()));
    }
    let (mut fit_data, held) = data.split(job.hold_back);
    let rarely_seen = fit_data.rarely_seen(job.min_seen);
    let rarely_seen_count = rarely_seen.len();
    settings.frozen.extend(rarely_seen);
    settings.frozen.sort_unstable();
    settings.frozen.dedup();
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
        draw_loss_curve(path, "Texel tuning: loss per epoch", &curve)?;
    }
    let rounded_f64: Vec<f64> = rounded.iter().map(|&v| f64::from(v)).collect();
    let mut report = format!(
        "{} weights fitted, {} kept ({} of them seen in fewer than {} positions)\n\
         {} positions fitted, {} held back; scale {:.6} (1/{:.1} per evaluation unit)\n\
         loss on held-back positions: {:.6} before, {:.6} after (fitted: {:.6} -> {:.6})\n",
        table.values().len() - settings.frozen.len(),
        settings.frozen.len(),
        rarely_seen_count,
        job.min_seen,
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

/// Whether a weight's name matches a `--freeze` pattern, in which `*`
/// stands for any run of characters.
fn name_matches(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
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

pub struct WdlJob {
    /// Positions files from `tune sample` (with scores).
    pub positions: Vec<PathBuf>,
    /// Fit a draw margin even if no position's game was drawn.
    pub draws: bool,
    /// The model in use (a game's `wdl.txt`), to compare against.
    pub current: Option<PathBuf>,
    /// Where the fitted `wdl.txt` goes, if wanted.
    pub out: Option<PathBuf>,
    /// Lines for the written file's header: where the games came from.
    pub notes: Vec<String>,
    /// The command as typed, for the header.
    pub command: String,
}

/// Fits a game's win/draw/loss model to the results of scored positions;
/// returns the report (and writes the model file if asked).
pub fn run_wdl(job: &WdlJob) -> Result<String, String> {
    let mut data = WdlData::default();
    for path in &job.positions {
        for (index, line) in read(path)?.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let position = LabelledPosition::parse_line(line)
                .map_err(|e| format!("{} line {}: {e}", path.display(), index + 1))?;
            data.add(&position);
        }
    }
    let (wins, draws, losses) = data.counts();
    if wins == 0 || losses == 0 {
        return Err(format!(
            "{} scored positions ({wins} won, {draws} drawn, {losses} lost): \
             a fit needs both wins and losses (sample records that keep the searches' scores)",
            data.samples.len()
        ));
    }
    let current = match &job.current {
        Some(path) => {
            Some(WdlModel::parse(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let with_draws = job.draws || draws > 0;
    let fitted = fit_wdl(&data.samples, with_draws);
    let samples = &data.samples;
    let mut report = format!(
        "{} positions: {wins} won, {draws} drawn, {losses} lost (for the side to move); \
         left out {} without a score, {} with a mate score\n",
        samples.len(),
        data.unscored,
        data.mates
    );
    let _ = writeln!(
        report,
        "fitted: scale {:.1}, draw_margin {:.1}{}",
        fitted.scale,
        fitted.draw_margin,
        if with_draws {
            ""
        } else {
            " (no draws: margin not fitted)"
        }
    );
    if fitted.scale <= SCALE_RANGE.0 * 1.01 || fitted.scale >= SCALE_RANGE.1 * 0.99 {
        let _ = writeln!(
            report,
            "warning: the scale is at the end of its range: the scores do not predict the results"
        );
    }
    let _ = writeln!(
        report,
        "log-loss per position: {:.6} ignoring the score (outcome shares alone)",
        base_rate_loss(samples)
    );
    if let Some(model) = &current {
        let _ = write!(
            report,
            "                       {:.6} with the current model (scale {}, draw_margin {})",
            log_loss(samples, model),
            model.scale,
            model.draw_margin
        );
        if model.draw_margin == 0.0 && draws > 0 {
            report.push_str(" (no chance for a draw: each drawn position costs -ln 1e-9)");
        }
        report.push('\n');
    }
    let _ = writeln!(
        report,
        "                       {:.6} fitted",
        log_loss(samples, &fitted)
    );
    for score in [0.0, 100.0, 200.0] {
        let (win, loss) = fitted.chances(score);
        let _ = writeln!(
            report,
            "at {score:>3}: win {:.1}%, draw {:.1}%, loss {:.1}%",
            100.0 * win,
            100.0 * (1.0 - win - loss).max(0.0),
            100.0 * loss
        );
    }
    report.push_str("calibration (fitted model):\n");
    report.push_str(&calibration_table(samples, &fitted));
    if let Some(path) = &job.out {
        let mut notes = vec![format!(
            "Fitted by bg-tune wdl (maximum likelihood of the results): {} positions, \
             {wins} won, {draws} drawn, {losses} lost;",
            samples.len()
        )];
        notes.extend(job.notes.iter().cloned());
        notes.push(format!(
            "log-loss {:.4} ignoring the score, {:.4} fitted.",
            base_rate_loss(samples),
            log_loss(samples, &fitted)
        ));
        notes.push(job.command.clone());
        write(path, &model_file(&fitted, &notes))?;
        let _ = writeln!(report, "model written to {}", path.display());
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::name_matches;

    #[test]
    fn freeze_patterns_match_whole_names_with_stars_for_any_run() {
        assert!(name_matches("to_move_shape_one", "to_move_shape_one"));
        assert!(!name_matches("to_move_shape_one", "to_move_shape_one_more"));
        assert!(name_matches("to_move_*", "to_move_set_one+one+one+one"));
        assert!(!name_matches("to_move_*", "waiting_shape_one"));
        assert!(name_matches("*_threat_*", "waiting_threat_four"));
        assert!(!name_matches("*_threat_*", "waiting_shape_four"));
        assert!(name_matches("*five", "to_move_shape_five"));
        assert!(name_matches("a*b*b", "abb"));
        assert!(!name_matches("a*bb*b", "abb"));
        assert!(name_matches("*", "anything"));
    }
}
