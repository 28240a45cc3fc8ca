//! The evaluation's weighted features and terms against the evaluation itself.

use super::*;
use crate::core::{Game, Player, Presentation};
use crate::games::hex::HexRules;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// What the weighted-features check saw: positions, and how many had
/// their mobility lead clamped or not.
#[derive(Default)]
struct Checked {
    positions: usize,
    clamped: usize,
    unclamped: usize,
}

/// Plays random games of `size` from the start, checking that the
/// features weighted by the table are the search's evaluation at every
/// position on the way.
fn check_random_games(size: usize, games: usize, rng: &mut SmallRng, seen: &mut Checked) {
    let rules = HexRules {
        board_size: size,
        swap: true,
    };
    let weights = HexKnowledge::weights();
    let mut knowledge = HexKnowledge::default();
    let (mut features, mut moves) = (Vec::new(), Vec::new());
    for _ in 0..games {
        let mut hex = Hex::start_position(&rules);
        while hex.outcome().is_none() {
            HexKnowledge::features(&hex, &mut features);
            let weighted: Score = weights
                .values()
                .iter()
                .zip(&features)
                .map(|(w, f)| w * f)
                .sum();
            assert_eq!(weighted, knowledge.evaluate(&hex), "{}", hex.to_fen());
            seen.positions += 1;
            seen.clamped += usize::from(features[2] != 0);
            seen.unclamped += usize::from(features[1] != 0);
            hex.generate_moves(&mut moves);
            hex.make_move(moves[rng.gen_range(0..moves.len())]);
        }
    }
}

/// The tuner fits weights to features alone: weighted by the table they
/// must be the evaluation, exactly, whichever side is to move, on
/// boards small and large, with the mobility clamp on and off.
#[test]
fn the_weighted_features_are_the_evaluation() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut seen = Checked::default();
    for (size, games) in [
        (1, 2),
        (2, 10),
        (3, 20),
        (5, 40),
        (8, 30),
        (11, 30),
        (14, 10),
    ] {
        check_random_games(size, games, &mut rng, &mut seen);
    }
    assert!(seen.positions > 5000, "{}", seen.positions);
    assert!(seen.clamped > 100, "{}", seen.clamped);
    assert!(seen.unclamped > 100, "{}", seen.unclamped);
}

/// The `eval` command's terms are Black's and White's shares of the
/// score, tempo included: their difference, signed for the side to
/// move, is the evaluation.
#[test]
fn the_eval_terms_add_up_to_the_evaluation() {
    let rules = HexRules::default();
    let mut knowledge = HexKnowledge::default();
    for fen in Hex::bench_positions() {
        let mut hex = Hex::from_fen(fen, &rules).expect("bench positions are valid");
        for _ in 0..2 {
            let terms = knowledge.eval_terms(&hex);
            let black: Score = terms.iter().map(|t| t.p1 - t.p2).sum();
            let sign = if hex.side_to_move() == Player::P1 {
                1
            } else {
                -1
            };
            assert_eq!(sign * black, knowledge.evaluate(&hex), "{fen}");
            let first_empty = hex.empty_cells().next().expect("bench boards have room");
            hex.make_move(HexMove::cell(first_empty));
        }
    }
}
