//! Texel tuning: fit an evaluation's weights so that a logistic function of
//! the evaluation predicts game results. The scale of the logistic is fitted
//! first with the weights as they are, then the weights move by Adam on the
//! mean squared error; a share of the positions is held back to show the fit
//! generalises.

/// Positions as the fit sees them: each position's features (one per
/// weight, from the side to move's view), its target (the result for the
/// side to move, 1 a win, 0.5 a draw, 0 a loss, or a blend with the
/// search's score) and the search's score in centipawns if known.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub features: Vec<Vec<i32>>,
    pub results: Vec<f64>,
    pub scores: Vec<Option<i32>>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.results.len()
    }

    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    pub fn push(&mut self, features: Vec<i32>, result: f64, score: Option<i32>) {
        self.features.push(features);
        self.results.push(result);
        self.scores.push(score);
    }

    /// Moves every target towards the search's verdict on the position:
    /// `(1 - weight) * result + weight * sigmoid(scale * score)`. Fails,
    /// giving the count, if positions have no score.
    pub fn blend_scores(&mut self, weight: f64, scale: f64) -> Result<(), usize> {
        let unscored = self.scores.iter().filter(|s| s.is_none()).count();
        if unscored > 0 {
            return Err(unscored);
        }
        for (result, score) in self.results.iter_mut().zip(&self.scores) {
            let searched = sigmoid(scale * f64::from(score.unwrap_or(0)));
            *result = (1.0 - weight) * *result + weight * searched;
        }
        Ok(())
    }

    /// The weights whose feature is nonzero in fewer than `min` positions.
    pub fn rarely_seen(&self, min: usize) -> Vec<usize> {
        let width = self.features.first().map_or(0, Vec::len);
        let mut seen = vec![0usize; width];
        for features in &self.features {
            for (count, &feature) in seen.iter_mut().zip(features) {
                *count += usize::from(feature != 0);
            }
        }
        (0..width).filter(|&i| seen[i] < min).collect()
    }

    /// Every `every`th position held back (from the first), the rest to fit.
    pub fn split(self, every: usize) -> (Dataset, Dataset) {
        let (mut fit, mut held) = (Dataset::default(), Dataset::default());
        let rows = self.features.into_iter().zip(self.results).zip(self.scores);
        for (index, ((features, result), score)) in rows.enumerate() {
            let part = if every > 0 && index % every == 0 {
                &mut held
            } else {
                &mut fit
            };
            part.push(features, result, score);
        }
        (fit, held)
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn evaluation(weights: &[f64], features: &[i32]) -> f64 {
    weights
        .iter()
        .zip(features)
        .map(|(w, &f)| w * f64::from(f))
        .sum()
}

/// Mean squared error of the predicted results, `sigmoid(scale * eval)`.
pub fn loss(data: &Dataset, weights: &[f64], scale: f64) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let total: f64 = data
        .features
        .iter()
        .zip(&data.results)
        .map(|(features, result)| {
            let predicted = sigmoid(scale * evaluation(weights, features));
            (result - predicted).powi(2)
        })
        .sum();
    total / data.len() as f64
}

/// The scale that fits the results best for the given weights: a golden
/// section search on its logarithm (the loss is unimodal in the scale).
pub fn fit_scale(data: &Dataset, weights: &[f64]) -> f64 {
    // Wide enough for features in fractions of the evaluation's unit.
    let (mut low, mut high) = ((1e-8f64).ln(), 1.0f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let at = |log_scale: f64| loss(data, weights, log_scale.exp());
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if at(a) < at(b) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0).exp()
}

/// How the weights move.
#[derive(Clone, Debug)]
pub struct FitSettings {
    pub epochs: usize,
    /// Adam's step, in weight units (centipawns for our engines).
    pub learning_rate: f64,
    /// Weights that keep their value (e.g. the piece, which anchors the
    /// scale of the others).
    pub frozen: Vec<usize>,
}

impl Default for FitSettings {
    fn default() -> Self {
        FitSettings {
            epochs: 300,
            learning_rate: 1.0,
            frozen: Vec::new(),
        }
    }
}

/// One epoch's losses, for the curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    pub epoch: usize,
    pub fit: f64,
    pub held: f64,
}

/// The gradient of the loss with respect to every weight.
fn gradient(data: &Dataset, weights: &[f64], scale: f64) -> Vec<f64> {
    let mut gradient = vec![0.0; weights.len()];
    for (features, result) in data.features.iter().zip(&data.results) {
        let predicted = sigmoid(scale * evaluation(weights, features));
        // d/dw (r - s)^2 = -2 (r - s) s (1 - s) scale f
        let common = -2.0 * (result - predicted) * predicted * (1.0 - predicted) * scale;
        for (g, &f) in gradient.iter_mut().zip(features) {
            *g += common * f64::from(f);
        }
    }
    let n = data.len().max(1) as f64;
    gradient.iter_mut().for_each(|g| *g /= n);
    gradient
}

/// Adam on full batches: returns the fitted weights and each epoch's loss
/// on the fitted and the held-back positions. `on_epoch` sees every epoch
/// (a progress bar, a log).
pub fn fit(
    fit_data: &Dataset,
    held: &Dataset,
    start: &[f64],
    scale: f64,
    settings: &FitSettings,
    mut on_epoch: impl FnMut(&EpochLoss),
) -> (Vec<f64>, Vec<EpochLoss>) {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;
    let mut weights = start.to_vec();
    let (mut m, mut v) = (vec![0.0; weights.len()], vec![0.0; weights.len()]);
    let mut curve = Vec::with_capacity(settings.epochs + 1);
    let first = EpochLoss {
        epoch: 0,
        fit: loss(fit_data, &weights, scale),
        held: loss(held, &weights, scale),
    };
    on_epoch(&first);
    curve.push(first);
    for epoch in 1..=settings.epochs {
        let gradient = gradient(fit_data, &weights, scale);
        let t = epoch as i32;
        for (i, g) in gradient.into_iter().enumerate() {
            if settings.frozen.contains(&i) {
                continue;
            }
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
            let m_hat = m[i] / (1.0 - BETA1.powi(t));
            let v_hat = v[i] / (1.0 - BETA2.powi(t));
            weights[i] -= settings.learning_rate * m_hat / (v_hat.sqrt() + EPSILON);
        }
        let point = EpochLoss {
            epoch,
            fit: loss(fit_data, &weights, scale),
            held: loss(held, &weights, scale),
        };
        on_epoch(&point);
        curve.push(point);
    }
    (weights, curve)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Positions drawn from a known model: random features, each result
    /// drawn with the probability the true weights give.
    fn synthetic(truth: &[f64], scale: f64, count: usize, seed: u64) -> Dataset {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut data = Dataset::default();
        for _ in 0..count {
            let features: Vec<i32> = truth.iter().map(|_| rng.gen_range(-4..=4)).collect();
            let p = sigmoid(scale * evaluation(truth, &features));
            let result = if rng.gen_bool(p) { 1.0 } else { 0.0 };
            data.push(features, result, None);
        }
        data
    }

    #[test]
    fn the_fit_recovers_known_weights_from_their_results() {
        let truth = [100.0, 40.0, -25.0, 10.0];
        let scale = 0.004;
        let (fit_data, held) = synthetic(&truth, scale, 40_000, 5).split(10);
        let start = [100.0, 0.0, 0.0, 0.0];
        let settings = FitSettings {
            epochs: 400,
            learning_rate: 2.0,
            frozen: vec![0],
        };
        let (weights, curve) = fit(&fit_data, &held, &start, scale, &settings, |_| {});
        for (found, expected) in weights.iter().zip(truth) {
            assert!((found - expected).abs() < 6.0, "{weights:?}");
        }
        let (first, last) = (curve[0], curve[curve.len() - 1]);
        assert!(
            last.held < first.held && last.fit < first.fit,
            "{first:?} {last:?}"
        );
        assert_eq!(weights[0], 100.0, "a frozen weight keeps its value");
    }

    #[test]
    fn the_scale_is_found_for_the_weights_given() {
        let truth = [100.0, 40.0];
        let data = synthetic(&truth, 0.01, 40_000, 9);
        let scale = fit_scale(&data, &truth);
        assert!((scale / 0.01 - 1.0).abs() < 0.15, "{scale}");
    }

    #[test]
    fn weights_seen_in_too_few_positions_are_named() {
        let mut data = Dataset::default();
        for features in [vec![1, 0, 0], vec![2, -1, 0], vec![3, 0, 0]] {
            data.push(features, 1.0, None);
        }
        assert_eq!(data.rarely_seen(0), Vec::<usize>::new());
        assert_eq!(data.rarely_seen(1), vec![2]);
        assert_eq!(data.rarely_seen(2), vec![1, 2]);
        assert_eq!(data.rarely_seen(4), vec![0, 1, 2]);
    }

    #[test]
    fn held_back_positions_are_every_nth() {
        let mut data = Dataset::default();
        for i in 0..10 {
            data.push(vec![i], 1.0, None);
        }
        let (fit_data, held) = data.split(5);
        assert_eq!(held.features, [vec![0], vec![5]]);
        assert_eq!(fit_data.len(), 8);
    }
}
