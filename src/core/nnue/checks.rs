//! The checks every game's feature set must pass, written once: a game's
//! tests call them with its start position (tests only).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use std::sync::Arc;

use super::accumulator::Accumulator;
use super::network::{Activation, FloatNetwork, Network, QA, QB};
use super::{AccumulatorStack, Evaluation, FeatureSet, NetworkChoice};
use crate::core::game::{Game, Player};

/// A float network with random weights for the features `F`, and its
/// quantized form.
pub fn random_network<G: Game, F: FeatureSet<G>>(
    rng: &mut SmallRng,
    scale: f32,
) -> (FloatNetwork, Network) {
    let mut float = FloatNetwork::zeros(F::INPUTS, 16, scale);
    for (values, bound) in [
        (&mut float.input_weights, 0.2f32),
        (&mut float.input_bias, 0.5),
        (&mut float.output_weights, 1.5),
    ] {
        values
            .iter_mut()
            .for_each(|v| *v = rng.gen_range(-bound..bound));
    }
    float.output_bias = 0.05;
    let network = Network::quantize(&float, F::NAME);
    (float, network)
}

/// The position after up to `plies` random moves from `start`.
pub fn random_position<G: Game>(start: &G, rng: &mut SmallRng, plies: usize) -> G {
    let mut game = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.generate_moves(&mut moves);
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        game.make_move(moves[rng.gen_range(0..moves.len())]);
    }
    game
}

/// The quantized network's score is the float network's within the
/// rounding of its weights, on positions of random lines from `start`,
/// under each activation.
pub fn float_and_quantized_agree<G: Game, F: FeatureSet<G>>(start: &G, max_plies: usize) {
    for activation in [Activation::Clipped, Activation::SquaredClipped] {
        agree_under::<G, F>(start, max_plies, activation);
    }
}

fn agree_under<G: Game, F: FeatureSet<G>>(start: &G, max_plies: usize, activation: Activation) {
    let mut rng = SmallRng::seed_from_u64(7);
    let (mut float, _) = random_network::<G, F>(&mut rng, 49.2);
    float.activation = activation;
    let network = Network::quantize(&float, F::NAME);
    let mut stack = AccumulatorStack::<G, F>::default();
    let (mut mover, mut other) = (Vec::new(), Vec::new());
    let (mut total_error, mut total_size, mut total_rows) = (0.0, 0.0, 0.0);
    for _ in 0..300 {
        let plies = rng.gen_range(0..max_plies);
        let game = random_position(start, &mut rng, plies);
        let side = game.side_to_move();
        F::active(&game, side, &mut mover);
        F::active(&game, side.other(), &mut other);
        let expected = float.output(&mover, &other) * float.scale;
        let quantized = stack.evaluate(&network, &game) as f32;
        let error = (quantized - expected).abs();
        let bound = rounding_bound(&float, &mover, &other);
        assert!(
            error <= bound,
            "{activation:?}: float {expected}, quantized {quantized}, bound {bound}"
        );
        // In practice far inside that: 3 points and 2% for up to 33 summed
        // rows (Breakthrough's most), growing with the rows beyond, and
        // with a squared unit's slope.
        let rows = mover.len().max(other.len()) as f32;
        let slope = activation.max_slope();
        let usual = (3.0 + expected.abs() * 0.02) * slope * (rows / 33.0).max(1.0);
        assert!(
            error <= usual,
            "{activation:?}: float {expected}, quantized {quantized}, {rows} rows"
        );
        total_error += error;
        total_size += expected.abs();
        total_rows += rows;
    }
    // The bound is for the worst case; the rounding errors mostly cancel,
    // and grow with the rows summed as the usual error above does.
    let (mean_error, mean_size) = (total_error / 300.0, total_size / 300.0);
    let mean_rows = total_rows / 300.0;
    let allowed = 1.5 * (mean_rows / 33.0).max(1.0);
    assert!(
        mean_error <= allowed,
        "mean error {mean_error} points over {mean_rows} rows"
    );
    assert!(mean_size >= 20.0, "the scores tell positions apart");
}

/// How far the quantized score can be from the float one: each hidden
/// value is off by at most half a step (1/QA) per summed row, clipping
/// keeps that (a squared unit at most doubles it), each output weight is
/// off by half a step (1/QB), and the integer score is truncated.
fn rounding_bound(float: &FloatNetwork, mover: &[u16], other: &[u16]) -> f32 {
    let (qa, qb) = (QA as f32, QB as f32);
    let mut logit_error = 0.5 / (qa * qb);
    let slope = float.activation.max_slope();
    for (view, features) in [mover, other].into_iter().enumerate() {
        let hidden_error = (features.len() + 1) as f32 * 0.5 / qa * slope;
        let weights = &float.output_weights[view * float.hidden..][..float.hidden];
        for (value, weight) in float.hidden_values(features).iter().zip(weights) {
            let activated = float.activation.apply(*value);
            logit_error += weight.abs() * hidden_error + (activated + hidden_error) * 0.5 / qb;
        }
    }
    logit_error * float.scale + 1.0
}

/// After any line of moves and take-backs from `start`, the accumulators
/// updated move by move equal fresh ones, and only the root was computed
/// afresh.
pub fn incremental_accumulators_equal_fresh_ones<G: Game, F: FeatureSet<G>>(start: &G) {
    let mut rng = SmallRng::seed_from_u64(11);
    let (_, network) = random_network::<G, F>(&mut rng, 49.2);
    for line in 0..80 {
        // Every position looked at on half the lines, as before; on the
        // others some are skipped, as in a search, so that the changes of
        // several moves wait to be applied at once.
        let skipped_share = if line % 2 == 0 { 0.0 } else { 0.4 };
        let mut stack = AccumulatorStack::<G, F>::default();
        let mut game = start.clone();
        let mut played: Vec<G::Move> = Vec::new();
        let mut moves = Vec::new();
        stack.evaluate(&network, &game);
        for _ in 0..120 {
            game.generate_moves(&mut moves);
            if game.outcome().is_some() {
                moves.clear();
            }
            let back = !played.is_empty() && (moves.is_empty() || rng.gen_bool(0.35));
            if back {
                let mv = played.pop().expect("a move to take back");
                stack.take_back(&mut game, mv);
            } else if let Some(&mv) = moves.get(rng.gen_range(0..moves.len().max(1))) {
                stack.play(&network, &mut game, mv);
                played.push(mv);
            }
            if rng.gen_bool(skipped_share) {
                continue;
            }
            let views = stack
                .views(&network, &game)
                .expect("the top is this position");
            for (index, view) in [Player::P1, Player::P2].into_iter().enumerate() {
                let mut features = Vec::new();
                F::active(&game, view, &mut features);
                let fresh = Accumulator::fresh(&network, &features);
                assert_eq!(views[index], fresh, "after {} moves", played.len());
            }
        }
        assert_eq!(stack.refreshes(), 1, "positions computed afresh");
    }
}

/// Positions reached behind the stack's back (a new root) are computed
/// afresh and score as in a new stack.
pub fn positions_reached_otherwise_are_computed_afresh<G: Game, F: FeatureSet<G>>(start: &G) {
    let mut rng = SmallRng::seed_from_u64(3);
    let (_, network) = random_network::<G, F>(&mut rng, 49.2);
    let mut stack = AccumulatorStack::<G, F>::default();
    let first = random_position(start, &mut rng, 10);
    let second = random_position(start, &mut rng, 11);
    let score = stack.evaluate(&network, &first);
    let other = stack.evaluate(&network, &second);
    let mut fresh = AccumulatorStack::<G, F>::default();
    assert_eq!(other, fresh.evaluate(&network, &second));
    assert_eq!(score, stack.evaluate(&network, &first));
    assert_eq!(stack.refreshes(), 3);
}

/// A feature's mirror image is a feature, and mirroring twice gives it back.
pub fn mirror_is_an_involution<G: Game, F: FeatureSet<G>>() {
    for feature in 0..F::INPUTS as u16 {
        if let Some(image) = F::mirrored(feature) {
            assert!(usize::from(image) < F::INPUTS, "{feature} -> {image}");
            assert_eq!(F::mirrored(image), Some(feature));
        }
    }
}

/// The network compiled into a game's engine reads, is made for the game's
/// features, and is what the game's default settings evaluate with.
pub fn built_in_network_is_the_default<G: Game, F: FeatureSet<G>>(
    built_in: Option<Arc<Network>>,
    default: &NetworkChoice<G, F>,
) {
    let network = built_in.expect("the built-in network reads");
    assert_eq!(network.features(), F::NAME);
    assert_eq!(default.evaluation(), Evaluation::Network);
    assert_eq!(default.active().map(|n| n.hash()), Some(network.hash()));
}
