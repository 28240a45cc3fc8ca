//! Simultaneous perturbation stochastic approximation (Spall 1992; gain
//! sequences as in Spall 1998, "Implementation of the simultaneous
//! perturbation algorithm for stochastic optimization") over an engine's
//! integer options. Every step moves all parameters at once along a random
//! ±1 direction: one engine plays with the parameters pushed up that way,
//! the other with them pushed down, and the game pairs' wins minus losses
//! say which way to go.
//!
//! The parameterisation is the one engine authors know from fishtest: each
//! parameter has the perturbation size `c_end` and the learning rate
//! `r_end` it should have at the last pair, and the schedule counts game
//! pairs, so a run's gains do not depend on how its pairs are batched.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// One tuned option and how far and fast it may move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaParam {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation at the end of the run, in the option's units.
    pub c_end: f64,
    /// The learning rate at the end of the run: the step is
    /// `r * c * (wins - losses)`.
    pub r_end: f64,
}

/// The decay of the gains over a run of `total_pairs` game pairs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    pub total_pairs: usize,
    /// Decay of the step size (Spall's recommended 0.602).
    pub alpha: f64,
    /// Decay of the perturbation (Spall's recommended 0.101).
    pub gamma: f64,
    /// Spall's stability constant `A` as a fraction of the run.
    pub a_ratio: f64,
}

impl Schedule {
    pub fn new(total_pairs: usize) -> Self {
        Schedule {
            total_pairs,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
        }
    }

    /// The perturbation `c_k` and the step factor `a_k / c_k` for
    /// `param` when `pairs_done` pairs have been played.
    pub fn gains(&self, param: &SpsaParam, pairs_done: usize) -> (f64, f64) {
        let n = self.total_pairs.max(1) as f64;
        let k = (pairs_done + 1) as f64;
        let stability = self.a_ratio * n;
        let c = param.c_end * n.powf(self.gamma);
        let a_end = param.r_end * param.c_end * param.c_end;
        let a = a_end * (stability + n).powf(self.alpha);
        let c_k = c / k.powf(self.gamma);
        let a_k = a / (stability + k).powf(self.alpha);
        (c_k, a_k / c_k)
    }
}

/// Where a run stands: the current estimate and the pairs behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaState {
    pub pairs_done: usize,
    pub theta: Vec<f64>,
}

impl SpsaState {
    pub fn start(params: &[SpsaParam]) -> Self {
        SpsaState {
            pairs_done: 0,
            theta: params.iter().map(|p| p.start).collect(),
        }
    }

    /// The estimate as the integers the engine takes.
    pub fn rounded(&self) -> Vec<i64> {
        self.theta.iter().map(|v| v.round() as i64).collect()
    }
}

/// The two engines of one step.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// ±1 per parameter.
    pub direction: Vec<f64>,
    pub plus: Vec<i64>,
    pub minus: Vec<i64>,
}

/// The random source of step `step`: fixed by the run's seed, so a resumed
/// run draws what an uninterrupted one would.
fn step_rng(seed: u64, step: usize) -> StdRng {
    StdRng::seed_from_u64(seed ^ (step as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Rounds up with probability equal to the fraction, so that a
/// perturbation smaller than one unit still moves the option on average.
fn stochastic_round(value: f64, rng: &mut StdRng) -> i64 {
    (value + rng.gen::<f64>()).floor() as i64
}

pub fn perturb(
    params: &[SpsaParam],
    schedule: &Schedule,
    state: &SpsaState,
    seed: u64,
    step: usize,
) -> Perturbation {
    let mut rng = step_rng(seed, step);
    let mut direction = Vec::with_capacity(params.len());
    let mut plus = Vec::with_capacity(params.len());
    let mut minus = Vec::with_capacity(params.len());
    for (param, &theta) in params.iter().zip(&state.theta) {
        let sign = if rng.gen::<bool>() { 1.0 } else { -1.0 };
        let (c_k, _) = schedule.gains(param, state.pairs_done);
        let up = (theta + sign * c_k).clamp(param.min, param.max);
        let down = (theta - sign * c_k).clamp(param.min, param.max);
        direction.push(sign);
        plus.push(stochastic_round(up, &mut rng));
        minus.push(stochastic_round(down, &mut rng));
    }
    Perturbation {
        direction,
        plus,
        minus,
    }
}

/// Moves the estimate after `pairs` pairs in which the plus engine scored
/// `wins - losses = balance`.
pub fn update(
    params: &[SpsaParam],
    schedule: &Schedule,
    state: &mut SpsaState,
    direction: &[f64],
    balance: i64,
    pairs: usize,
) {
    for ((param, theta), sign) in params.iter().zip(&mut state.theta).zip(direction) {
        let (_, step) = schedule.gains(param, state.pairs_done);
        *theta = (*theta + step * balance as f64 * sign).clamp(param.min, param.max);
    }
    state.pairs_done += pairs;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, start: f64) -> SpsaParam {
        SpsaParam {
            name: name.to_owned(),
            start,
            min: 0.0,
            max: 100.0,
            c_end: 4.0,
            r_end: 0.002,
        }
    }

    #[test]
    fn the_gains_end_at_c_end_and_r_end() {
        let schedule = Schedule::new(1000);
        let p = param("x", 50.0);
        let (c, step) = schedule.gains(&p, 999);
        assert!((c - 4.0).abs() < 1e-9);
        assert!((step - 0.002 * 4.0).abs() < 1e-9);
        let (c_first, step_first) = schedule.gains(&p, 0);
        assert!(c_first > c && step_first > step);
    }

    /// Games between two settings of a model engine whose strength peaks
    /// at `best`: the plus side wins a game with a logistic probability of
    /// the strength difference.
    fn play_pairs(
        rng: &mut StdRng,
        plus: &[i64],
        minus: &[i64],
        best: &[f64],
        pairs: usize,
    ) -> i64 {
        let strength = |x: &[i64]| -> f64 {
            -x.iter()
                .zip(best)
                .map(|(&v, b)| (v as f64 - b).powi(2))
                .sum::<f64>()
                / 100.0
        };
        let p_plus = 1.0 / (1.0 + (-(strength(plus) - strength(minus))).exp());
        (0..2 * pairs)
            .map(|_| if rng.gen::<f64>() < p_plus { 1 } else { -1 })
            .sum()
    }

    #[test]
    fn spsa_walks_a_model_engine_to_its_best_settings() {
        let params = [param("a", 20.0), param("b", 80.0), param("c", 50.0)];
        let best = [45.0, 60.0, 50.0];
        let schedule = Schedule::new(4000);
        let mut state = SpsaState::start(&params);
        let mut games = StdRng::seed_from_u64(11);
        let mut step = 0;
        while state.pairs_done < schedule.total_pairs {
            let p = perturb(&params, &schedule, &state, 3, step);
            let balance = play_pairs(&mut games, &p.plus, &p.minus, &best, 4);
            update(&params, &schedule, &mut state, &p.direction, balance, 4);
            step += 1;
        }
        for (theta, target) in state.theta.iter().zip(best) {
            assert!(
                (theta - target).abs() < 8.0,
                "{:?} vs {best:?}",
                state.theta
            );
        }
    }

    #[test]
    fn perturbations_stay_in_range_and_repeat_for_a_seed() {
        let params = [param("edge", 99.0)];
        let schedule = Schedule::new(100);
        let state = SpsaState::start(&params);
        for step in 0..50 {
            let p = perturb(&params, &schedule, &state, 7, step);
            assert!(p.plus[0] <= 100 && p.minus[0] <= 100);
            assert_eq!(p, perturb(&params, &schedule, &state, 7, step));
        }
    }
}
