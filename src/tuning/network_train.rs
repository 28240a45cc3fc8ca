//! The trainer of the NNUE-shaped network (`core::nnue`), by hand for this
//! one shape: sparse inputs make the first layer's forward and backward
//! passes sums over a position's few active rows, which a general tensor
//! library would do as dense products. Mini-batches are split over threads,
//! each summing its own gradients; Adam steps; the weights stay within
//! `WEIGHT_LIMIT` so that the quantized network cannot overflow.
//!
//! The prediction is sigmoid(output); its target blends the search score's
//! winning chance, sigmoid(score / scale), with the game's result.

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::network_data::{Sample, TrainingSet};
use crate::core::nnue::network::{Activation, FloatNetwork, WEIGHT_LIMIT};

#[derive(Clone, Debug)]
pub struct TrainSettings {
    pub hidden: usize,
    /// The hidden units' activation; `None`: a network started from a
    /// file keeps its own, a fresh one is clipped.
    pub activation: Option<Activation>,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    /// The learning rate is multiplied by `decay` after every `decay_every`
    /// epochs.
    pub decay: f32,
    pub decay_every: usize,
    /// Weight of the search score in the target; the game's result has the
    /// rest.
    pub score_weight: f32,
    /// Score units per unit of output: the game's win/draw/loss scale.
    pub scale: f32,
    pub threads: usize,
    pub seed: u64,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            hidden: 128,
            activation: None,
            epochs: 20,
            batch: 16_384,
            learning_rate: 0.001,
            decay: 0.3,
            decay_every: 8,
            score_weight: 0.5,
            scale: 100.0,
            threads: 2,
            seed: 1,
        }
    }
}

/// The first and second moments of Adam, per weight.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamState {
    pub step: u64,
    pub first: FloatNetwork,
    pub second: FloatNetwork,
}

/// A network being trained: its weights, the optimizer's state and the
/// epochs done. A checkpoint file holds exactly this.
#[derive(Clone, Debug, PartialEq)]
pub struct Training {
    pub network: FloatNetwork,
    pub adam: AdamState,
    pub epochs_done: usize,
}

impl Training {
    /// Small random weights; the hidden biases start where the clipped
    /// units pass their input on, so none starts dead.
    pub fn new(inputs: usize, settings: &TrainSettings) -> Self {
        let mut rng = SmallRng::seed_from_u64(settings.seed);
        let hidden = settings.hidden;
        let mut network = FloatNetwork::zeros(inputs, hidden, settings.scale);
        network.activation = settings.activation.unwrap_or_default();
        let input_bound = 0.5 / (inputs as f32).sqrt().max(1.0);
        network
            .input_weights
            .iter_mut()
            .for_each(|w| *w = rng.gen_range(-input_bound..input_bound));
        network.input_bias.iter_mut().for_each(|b| *b = 0.25);
        let output_bound = 1.0 / (2.0 * hidden as f32).sqrt();
        network
            .output_weights
            .iter_mut()
            .for_each(|w| *w = rng.gen_range(-output_bound..output_bound));
        Training::from_network(network)
    }

    /// Training that goes on from `network`'s weights, with Adam's moments
    /// at zero: the next generation starts from what the last one learnt.
    pub fn from_network(network: FloatNetwork) -> Self {
        let mut zeros = FloatNetwork::zeros(network.inputs, network.hidden, network.scale);
        zeros.activation = network.activation;
        Training {
            network,
            adam: AdamState {
                step: 0,
                first: zeros.clone(),
                second: zeros,
            },
            epochs_done: 0,
        }
    }

    /// `network` with `hidden` units a side (no fewer than it has), the
    /// same function up to a little noise: each new unit copies an old
    /// one, whose output weight the two then share. The noise on the
    /// copies' input weights lets them learn apart. A wider network thus
    /// starts from what a narrower one learnt.
    pub fn widened(network: &FloatNetwork, hidden: usize, noise: f32, seed: u64) -> FloatNetwork {
        let old = network.hidden;
        if old == 0 || hidden <= old {
            return network.clone();
        }
        let source = |unit: usize| unit % old;
        let copies = |unit: usize| (hidden - source(unit) - 1) / old + 1;
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut wide = FloatNetwork::zeros(network.inputs, hidden, network.scale);
        wide.activation = network.activation;
        for feature in 0..network.inputs {
            let row = &network.input_weights[feature * old..][..old];
            for (unit, w) in wide.input_weights[feature * hidden..][..hidden]
                .iter_mut()
                .enumerate()
            {
                let jitter = if unit < old {
                    0.0
                } else {
                    noise * rng.gen_range(-1.0..1.0)
                };
                *w = (row[source(unit)] + jitter).clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
            }
        }
        for unit in 0..hidden {
            wide.input_bias[unit] = network.input_bias[source(unit)];
            for view in 0..2 {
                let weight = network.output_weights[view * old + source(unit)];
                wide.output_weights[view * hidden + unit] = weight / copies(unit) as f32;
            }
        }
        wide.output_bias = network.output_bias;
        wide
    }

    /// One epoch over `set` in a shuffled order; returns its mean loss.
    pub fn epoch(&mut self, set: &TrainingSet, settings: &TrainSettings) -> f64 {
        let mut order: Vec<u32> = (0..set.len() as u32).collect();
        let mut rng = SmallRng::seed_from_u64(settings.seed ^ (self.epochs_done as u64 + 1));
        order.shuffle(&mut rng);
        let rate = settings.learning_rate
            * settings
                .decay
                .powi((self.epochs_done / settings.decay_every.max(1)) as i32);
        let mut total = 0.0;
        for batch in order.chunks(settings.batch.max(1)) {
            let gradients = batch_gradients(&self.network, set, batch, settings);
            total += gradients.loss;
            self.adam_step(&gradients.network, batch.len(), rate);
        }
        self.epochs_done += 1;
        total / set.len().max(1) as f64
    }

    fn adam_step(&mut self, gradient: &FloatNetwork, count: usize, rate: f32) {
        const BETA1: f32 = 0.9;
        const BETA2: f32 = 0.999;
        const EPSILON: f32 = 1e-8;
        self.adam.step += 1;
        let step = self.adam.step as i32;
        let rate = rate * (1.0 - BETA2.powi(step)).sqrt() / (1.0 - BETA1.powi(step));
        let scale = 1.0 / count.max(1) as f32;
        let parts = [
            (
                &mut self.network.input_weights,
                &gradient.input_weights,
                &mut self.adam.first.input_weights,
                &mut self.adam.second.input_weights,
            ),
            (
                &mut self.network.input_bias,
                &gradient.input_bias,
                &mut self.adam.first.input_bias,
                &mut self.adam.second.input_bias,
            ),
            (
                &mut self.network.output_weights,
                &gradient.output_weights,
                &mut self.adam.first.output_weights,
                &mut self.adam.second.output_weights,
            ),
        ];
        let update = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            let g = g * scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w = (*w - rate * *m / (v.sqrt() + EPSILON)).clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
        };
        for (weights, gradients, first, second) in parts {
            for (((w, &g), m), v) in weights
                .iter_mut()
                .zip(gradients)
                .zip(first.iter_mut())
                .zip(second.iter_mut())
            {
                update(w, g, m, v);
            }
        }
        update(
            &mut self.network.output_bias,
            gradient.output_bias,
            &mut self.adam.first.output_bias,
            &mut self.adam.second.output_bias,
        );
    }
}

/// The target of a sample: its score's winning chance and its result,
/// blended.
fn target(sample: &Sample, settings: &TrainSettings) -> f32 {
    let from_score = sigmoid(sample.score / settings.scale);
    settings.score_weight * from_score + (1.0 - settings.score_weight) * sample.result
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean loss of `network` over `set`, without training.
pub fn mean_loss(network: &FloatNetwork, set: &TrainingSet, settings: &TrainSettings) -> f64 {
    let total: f64 = set
        .samples
        .iter()
        .map(|sample| {
            let (mover, other) = set.views(sample);
            let error = sigmoid(network.output(mover, other)) - target(sample, settings);
            f64::from(error * error)
        })
        .sum();
    total / set.len().max(1) as f64
}

/// Gradients summed over some samples, in the network's own shape.
struct Gradients {
    network: FloatNetwork,
    loss: f64,
}

fn batch_gradients(
    network: &FloatNetwork,
    set: &TrainingSet,
    batch: &[u32],
    settings: &TrainSettings,
) -> Gradients {
    let threads = settings.threads.clamp(1, 64);
    let share = batch.len().div_ceil(threads).max(1);
    let parts: Vec<Gradients> = std::thread::scope(|scope| {
        let handles: Vec<_> = batch
            .chunks(share)
            .map(|part| scope.spawn(move || part_gradients(network, set, part, settings)))
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
            .collect()
    });
    let mut parts = parts.into_iter();
    let Some(mut sum) = parts.next() else {
        return Gradients {
            network: FloatNetwork::zeros(network.inputs, network.hidden, network.scale),
            loss: 0.0,
        };
    };
    for part in parts {
        add_into(&mut sum.network.input_weights, &part.network.input_weights);
        add_into(&mut sum.network.input_bias, &part.network.input_bias);
        add_into(
            &mut sum.network.output_weights,
            &part.network.output_weights,
        );
        sum.network.output_bias += part.network.output_bias;
        sum.loss += part.loss;
    }
    sum
}

fn add_into(sum: &mut [f32], part: &[f32]) {
    sum.iter_mut().zip(part).for_each(|(s, p)| *s += p);
}

/// Forward and backward over `part`: squared error of sigmoid(output).
fn part_gradients(
    network: &FloatNetwork,
    set: &TrainingSet,
    part: &[u32],
    settings: &TrainSettings,
) -> Gradients {
    let hidden = network.hidden;
    let mut gradient = FloatNetwork::zeros(network.inputs, hidden, network.scale);
    let mut loss = 0.0f64;
    let (mut mover_hidden, mut other_hidden) = (vec![0.0f32; hidden], vec![0.0f32; hidden]);
    let mut delta = vec![0.0f32; hidden];
    let (mover_out, other_out) = network.output_weights.split_at(hidden);
    for &index in part {
        let sample = &set.samples[index as usize];
        let (mover, other) = set.views(sample);
        forward_view(network, mover, &mut mover_hidden);
        forward_view(network, other, &mut other_hidden);
        let output = network.output_bias
            + activated_dot(network.activation, &mover_hidden, mover_out)
            + activated_dot(network.activation, &other_hidden, other_out);
        let prediction = sigmoid(output);
        let error = prediction - target(sample, settings);
        loss += f64::from(error * error);
        let d_output = 2.0 * error * prediction * (1.0 - prediction);
        gradient.output_bias += d_output;
        let (mover_grad, other_grad) = gradient.output_weights.split_at_mut(hidden);
        for (values, out_weights, out_grad, features) in [
            (&mover_hidden, mover_out, mover_grad, mover),
            (&other_hidden, other_out, other_grad, other),
        ] {
            for h in 0..hidden {
                let v = values[h];
                out_grad[h] += d_output * network.activation.apply(v);
                delta[h] = d_output * out_weights[h] * network.activation.slope(v);
            }
            add_into(&mut gradient.input_bias, &delta);
            for &feature in features {
                let row = usize::from(feature) * hidden;
                add_into(&mut gradient.input_weights[row..row + hidden], &delta);
            }
        }
    }
    Gradients {
        network: gradient,
        loss,
    }
}

fn forward_view(network: &FloatNetwork, features: &[u16], values: &mut [f32]) {
    let hidden = network.hidden;
    values.copy_from_slice(&network.input_bias);
    for &feature in features {
        let row = usize::from(feature) * hidden;
        add_into(values, &network.input_weights[row..row + hidden]);
    }
}

fn activated_dot(activation: Activation, values: &[f32], weights: &[f32]) -> f32 {
    values
        .iter()
        .zip(weights)
        .map(|(&v, w)| activation.apply(v) * w)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::network_checkpoint;

    /// Positions of random sparse features, scored by a known network.
    fn teacher_set(teacher: &FloatNetwork, count: usize, rng: &mut SmallRng) -> TrainingSet {
        let mut set = TrainingSet::default();
        for _ in 0..count {
            let mut pick = || -> Vec<u16> {
                let mut features: Vec<u16> = (0..teacher.inputs as u16).collect();
                features.shuffle(rng);
                features.truncate(5);
                features
            };
            let (mover, other) = (pick(), pick());
            let score = teacher.output(&mover, &other) * teacher.scale;
            set.push(&mover, &other, score, 0.5);
        }
        set
    }

    #[test]
    fn a_widened_network_computes_what_the_narrow_one_did() {
        let settings = TrainSettings {
            hidden: 6,
            ..TrainSettings::default()
        };
        let narrow = Training::new(30, &settings).network;
        let exact = Training::widened(&narrow, 16, 0.0, 3);
        let noisy = Training::widened(&narrow, 16, 0.01, 3);
        assert_eq!(exact.hidden, 16);
        assert_ne!(exact.input_weights, noisy.input_weights);
        let mut rng = SmallRng::seed_from_u64(8);
        for _ in 0..50 {
            let mut pick = || -> Vec<u16> { (0..6).map(|_| rng.gen_range(0..30)).collect() };
            let (mover, other) = (pick(), pick());
            let want = narrow.output(&mover, &other);
            assert!((exact.output(&mover, &other) - want).abs() < 1e-5);
            assert!((noisy.output(&mover, &other) - want).abs() < 0.05);
        }
        assert_eq!(Training::widened(&narrow, 4, 0.0, 3), narrow);
    }

    #[test]
    fn training_on_a_known_networks_scores_recovers_them() {
        recovers_a_known_network(Activation::Clipped);
    }

    #[test]
    fn training_squared_units_recovers_a_known_network_of_them() {
        recovers_a_known_network(Activation::SquaredClipped);
    }

    fn recovers_a_known_network(activation: Activation) {
        let mut rng = SmallRng::seed_from_u64(5);
        let settings = TrainSettings {
            activation: Some(activation),
            hidden: 8,
            epochs: 60,
            batch: 64,
            learning_rate: 0.01,
            decay_every: 40,
            score_weight: 1.0,
            scale: 50.0,
            threads: 2,
            ..TrainSettings::default()
        };
        let mut teacher = Training::new(
            24,
            &TrainSettings {
                seed: 99,
                ..settings.clone()
            },
        )
        .network;
        teacher.output_weights.iter_mut().for_each(|w| *w *= 6.0);
        let (fit, held) = (
            teacher_set(&teacher, 3000, &mut rng),
            teacher_set(&teacher, 500, &mut rng),
        );
        let mut student = Training::new(24, &settings);
        let before = mean_loss(&student.network, &held, &settings);
        while student.epochs_done < settings.epochs {
            student.epoch(&fit, &settings);
        }
        let after = mean_loss(&student.network, &held, &settings);
        assert!(
            after < before / 20.0 && after < 2e-4,
            "{activation:?}: held-back loss {before} -> {after}"
        );
        assert_eq!(student.network.activation, activation);
        let bytes = network_checkpoint::to_bytes(&student);
        assert_eq!(network_checkpoint::from_bytes(&bytes), Ok(student));
        assert!(network_checkpoint::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    }
}
