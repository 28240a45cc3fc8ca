//! Breakthrough's network inputs: each piece on its square, seen from one
//! side ("mine" or "theirs", ranks counted from the viewer's home), on the
//! standard 8x8 board. 128 features a view; at most 32 active.

use super::board::{Geometry, Move};
use super::Breakthrough;
use crate::core::game::{Game, Player};
use crate::core::nnue::{FeatureChanges, FeatureSet};

#[derive(Clone, Copy, Debug, Default)]
pub struct PieceFeatures;

/// The square as `view` sees it: ranks counted from the viewer's home.
fn relative_square(view: Player, square: u8) -> u16 {
    match view {
        Player::P1 => u16::from(square),
        Player::P2 => u16::from(square ^ 56),
    }
}

fn feature(view: Player, owner: Player, square: u8) -> u16 {
    let theirs = if owner == view { 0 } else { 64 };
    theirs + relative_square(view, square)
}

impl FeatureSet<Breakthrough> for PieceFeatures {
    const NAME: &'static str = "breakthrough-pieces-8x8";
    const INPUTS: usize = 128;

    fn fits(position: &Breakthrough) -> bool {
        *position.board().geometry() == Geometry::STANDARD
    }

    fn active(position: &Breakthrough, view: Player, features: &mut Vec<u16>) {
        features.clear();
        for owner in [Player::P1, Player::P2] {
            let mut pieces = position.board().pieces[owner.index()];
            while pieces != 0 {
                let square = pieces.trailing_zeros() as u8;
                features.push(feature(view, owner, square));
                pieces &= pieces - 1;
            }
        }
    }

    fn changes(position: &Breakthrough, mv: Move, view: Player, changes: &mut FeatureChanges) {
        let mover = position.side_to_move();
        changes.clear();
        changes.remove(feature(view, mover, mv.from));
        changes.add(feature(view, mover, mv.to));
        if mv.capture {
            changes.remove(feature(view, mover.other(), mv.to));
        }
    }

    /// Left and right swapped: the square's file mirrored.
    fn mirrored(feature: u16) -> Option<u16> {
        Some(feature ^ 7)
    }

    fn placement_key(position: &Breakthrough) -> u64 {
        let [white, black] = position.board().pieces;
        // Two odd multipliers and a rotation: distinct placements of the
        // few pieces on 64 squares practically never share a key.
        white.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ black.rotate_left(29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::nnue::network::{FloatNetwork, Network, QA};
    use crate::core::nnue::AccumulatorStack;
    use crate::games::breakthrough::BreakthroughRules;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn random_network(rng: &mut SmallRng) -> (FloatNetwork, Network) {
        let mut float = FloatNetwork::zeros(PieceFeatures::INPUTS, 16, 49.2);
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
        let network = Network::quantize(&float, PieceFeatures::NAME);
        (float, network)
    }

    fn random_line(rng: &mut SmallRng, plies: usize) -> (Breakthrough, Vec<Move>) {
        let mut game = Breakthrough::start_position(&BreakthroughRules::default());
        let mut line = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..plies {
            game.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.make_move(mv);
            line.push(mv);
        }
        (game, line)
    }

    #[test]
    fn float_and_quantized_outputs_agree_within_a_bound() {
        let mut rng = SmallRng::seed_from_u64(7);
        let (float, network) = random_network(&mut rng);
        let mut stack = AccumulatorStack::<Breakthrough, PieceFeatures>::default();
        let (mut mover, mut other) = (Vec::new(), Vec::new());
        for _ in 0..300 {
            let plies = rng.gen_range(0..60);
            let (game, _) = random_line(&mut rng, plies);
            let side = game.side_to_move();
            PieceFeatures::active(&game, side, &mut mover);
            PieceFeatures::active(&game, side.other(), &mut other);
            let expected = float.output(&mover, &other) * float.scale;
            let quantized = stack.evaluate(&network, &game) as f32;
            // Rounding: 1/(2 QA) per weight over 33 summed rows, 1/(2 QB)
            // per output weight, times the scale.
            assert!(
                (quantized - expected).abs() <= 3.0 + expected.abs() * 0.02,
                "float {expected}, quantized {quantized} (QA {QA})"
            );
        }
    }

    #[test]
    fn incremental_accumulators_equal_fresh_ones_after_any_line() {
        let mut rng = SmallRng::seed_from_u64(11);
        let (_, network) = random_network(&mut rng);
        for _ in 0..40 {
            let mut stack = AccumulatorStack::<Breakthrough, PieceFeatures>::default();
            let mut game = Breakthrough::start_position(&BreakthroughRules::default());
            let mut played: Vec<Move> = Vec::new();
            let mut moves = Vec::new();
            stack.evaluate(&network, &game);
            for _ in 0..120 {
                game.generate_moves(&mut moves);
                let back = played.last().is_some() && (moves.is_empty() || rng.gen_bool(0.35));
                if back {
                    let mv = played.pop().expect("a move to take back");
                    stack.take_back(&mut game, mv);
                } else if let Some(&mv) = moves.get(rng.gen_range(0..moves.len().max(1))) {
                    stack.play(&network, &mut game, mv);
                    played.push(mv);
                }
                let views = stack.views(&game).expect("the top is this position");
                for (index, view) in [Player::P1, Player::P2].into_iter().enumerate() {
                    let mut features = Vec::new();
                    PieceFeatures::active(&game, view, &mut features);
                    let fresh =
                        crate::core::nnue::accumulator::Accumulator::fresh(&network, &features);
                    assert_eq!(views[index], fresh, "after {played:?}");
                }
            }
            assert_eq!(stack.refreshes(), 1, "only the root is computed afresh");
        }
    }

    #[test]
    fn a_position_reached_behind_the_stacks_back_is_computed_afresh() {
        let mut rng = SmallRng::seed_from_u64(3);
        let (_, network) = random_network(&mut rng);
        let mut stack = AccumulatorStack::<Breakthrough, PieceFeatures>::default();
        let (first, _) = random_line(&mut rng, 10);
        let (second, _) = random_line(&mut rng, 11);
        let score = stack.evaluate(&network, &first);
        let other = stack.evaluate(&network, &second);
        let mut fresh = AccumulatorStack::<Breakthrough, PieceFeatures>::default();
        assert_eq!(other, fresh.evaluate(&network, &second));
        assert_eq!(score, stack.evaluate(&network, &first));
        assert_eq!(stack.refreshes(), 3);
    }
}
