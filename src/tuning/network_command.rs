//! `bg-tune train-network`: loads self-play data, trains (resuming from the
//! checkpoint when there is one), and after every epoch saves the
//! checkpoint and the quantized network, so a stopped run loses at most
//! one epoch and always leaves a network to play with.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::network_checkpoint;
use super::network_data::{self, LoadReport};
use super::network_train::{mean_loss, TrainSettings, Training};
use super::plot::draw_loss_curve;
use super::texel::EpochLoss;
use crate::core::game::Game;
use crate::core::nnue::choice::network_for;
use crate::core::nnue::{FeatureSet, Network};

pub struct NetworkJob {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub checkpoint: PathBuf,
    /// Start afresh even if the checkpoint exists.
    pub fresh: bool,
    /// A network file to start from instead of random weights, where the
    /// run does not resume a checkpoint.
    pub init: Option<PathBuf>,
    /// The games numbered a multiple of this are held back.
    pub held_every: u32,
    /// Train on each position's mirror image too.
    pub mirror: bool,
    /// The loss curve as SVG, if wanted.
    pub plot: Option<PathBuf>,
    pub settings: TrainSettings,
}

/// What the caller shows after each epoch.
pub struct EpochReport {
    pub epoch: usize,
    pub epochs: usize,
    pub training_loss: f64,
    pub held_loss: f64,
    pub seconds: f64,
}

pub fn run_network_training<G: Game, F: FeatureSet<G>>(
    job: &NetworkJob,
    on_loaded: impl FnOnce(&LoadReport),
    mut on_epoch: impl FnMut(&EpochReport),
) -> Result<String, String> {
    let settings = &job.settings;
    let (training_set, held_set, loaded) =
        network_data::load::<G, F>(&job.data, job.held_every, job.mirror)?;
    if training_set.is_empty() {
        return Err("no scored positions to train on".into());
    }
    on_loaded(&loaded);
    let mut training = start_or_resume::<G, F>(job)?;
    let resumed_at = training.epochs_done;
    // Where a run starts from a file, the file's own loss is the mark the
    // new epochs must beat.
    let start_loss = (job.init.is_some() && starts_afresh(job))
        .then(|| mean_loss(&training.network, &held_set, settings));
    let mut curve = Vec::new();
    let started = Instant::now();
    while training.epochs_done < settings.epochs {
        let epoch_start = Instant::now();
        let training_loss = training.epoch(&training_set, settings);
        let held_loss = mean_loss(&training.network, &held_set, settings);
        network_checkpoint::save(&job.checkpoint, &training)?;
        write_network(&job.out, &Network::quantize(&training.network, F::NAME))?;
        curve.push(EpochLoss {
            epoch: training.epochs_done,
            fit: training_loss,
            held: held_loss,
        });
        on_epoch(&EpochReport {
            epoch: training.epochs_done,
            epochs: settings.epochs,
            training_loss,
            held_loss,
            seconds: epoch_start.elapsed().as_secs_f64(),
        });
    }
    if let (Some(path), false) = (&job.plot, curve.is_empty()) {
        draw_loss_curve(path, "Network training: loss per epoch", &curve)?;
    }
    let network = Network::quantize(&training.network, F::NAME);
    write_network(&job.out, &network)?;
    let seconds = started.elapsed().as_secs_f64();
    let epochs_run = training.epochs_done - resumed_at;
    let mut report = format!(
        "{} games: {} positions trained on, {} held back ({} of another board skipped)\n",
        loaded.games, loaded.training, loaded.held_back, loaded.unfit
    );
    if resumed_at > 0 {
        report += &format!("resumed after epoch {resumed_at}\n");
    }
    if let Some(loss) = start_loss {
        report += &format!("epoch   0: loss {loss:.6} held back (the --init network)\n");
    }
    for point in &curve {
        report += &format!(
            "epoch {:>3}: loss {:.6} trained, {:.6} held back\n",
            point.epoch, point.fit, point.held
        );
    }
    report += &format!(
        "{epochs_run} epochs in {seconds:.1} s ({:.0} positions/s); {} written to {}\n",
        (epochs_run * training_set.len()) as f64 / seconds.max(1e-9),
        network.describe(),
        job.out.display()
    );
    Ok(report)
}

/// Whether the run does not resume a checkpoint.
fn starts_afresh(job: &NetworkJob) -> bool {
    job.fresh || !job.checkpoint.exists()
}

fn start_or_resume<G: Game, F: FeatureSet<G>>(job: &NetworkJob) -> Result<Training, String> {
    let inputs = F::INPUTS;
    if starts_afresh(job) {
        return match &job.init {
            Some(path) => start_from_file::<G, F>(path, &job.settings),
            None => Ok(Training::new(inputs, &job.settings)),
        };
    }
    let training = network_checkpoint::load(&job.checkpoint)?;
    let network = &training.network;
    if let Some(asked) = job.settings.activation.filter(|&a| a != network.activation) {
        return Err(format!(
            "checkpoint '{}' holds a network of {} units, not {}: pass --fresh to start again",
            job.checkpoint.display(),
            network.activation.name(),
            asked.name()
        ));
    }
    if network.inputs != inputs || network.hidden != job.settings.hidden {
        return Err(format!(
            "checkpoint '{}' holds a network of {} inputs and {} hidden units, not {} and {}: \
             pass --fresh to start again",
            job.checkpoint.display(),
            network.inputs,
            network.hidden,
            inputs,
            job.settings.hidden
        ));
    }
    Ok(training)
}

/// Training that starts from a network file's weights: one of this
/// feature set, with the hidden units asked for, at the game's scale; its
/// weights may go on under another activation (`--activation`).
fn start_from_file<G: Game, F: FeatureSet<G>>(
    path: &Path,
    settings: &TrainSettings,
) -> Result<Training, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("cannot read network '{}': {e}", path.display()))?;
    let network =
        network_for::<G, F>(&bytes).map_err(|e| format!("network '{}': {e}", path.display()))?;
    if network.hidden() > settings.hidden {
        return Err(format!(
            "network '{}' has {} hidden units a side, more than the {} asked for (--hidden)",
            path.display(),
            network.hidden(),
            settings.hidden
        ));
    }
    let mut float = network.dequantize();
    // The target's scale is the run's; the file's is what it was trained at.
    if (float.scale - settings.scale).abs() > 0.005 {
        return Err(format!(
            "network '{}' was trained at scale {}, this run's is {} (--scale)",
            path.display(),
            float.scale,
            settings.scale
        ));
    }
    float.scale = settings.scale;
    float.activation = settings.activation.unwrap_or(float.activation);
    // A wider run starts from the file's function, its units copied.
    let float = Training::widened(&float, settings.hidden, WIDENING_NOISE, settings.seed);
    Ok(Training::from_network(float))
}

/// The spread of the noise on a widened network's copied input weights:
/// about a tenth of a trained weight's usual size.
const WIDENING_NOISE: f32 = 0.01;

fn write_network(path: &Path, network: &Network) -> Result<(), String> {
    std::fs::write(path, network.to_bytes())
        .map_err(|e| format!("cannot write network '{}': {e}", path.display()))
}
