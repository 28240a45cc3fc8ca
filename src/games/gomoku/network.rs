//! Gomoku's network inputs for the learned-evaluation experiment: each
//! stone on its cell, "mine" or "theirs" as one side sees it, on the 15x15
//! board only. 450 features a view; a move adds one to each view. Stones
//! alone make the network learn every shape from data, where the classical
//! evaluation is told them (docs/results/learned-evaluation.md, step 3).

use super::board::{coordinates, EMPTY, STRIDE};
use super::{Gomoku, Move};
use crate::core::game::{Game, Player};
use crate::core::nnue::{FeatureChanges, FeatureSet};

/// The one board size the features describe.
pub const NETWORK_SIZE: usize = 15;
const CELLS: u16 = (NETWORK_SIZE * NETWORK_SIZE) as u16;

#[derive(Clone, Copy, Debug, Default)]
pub struct StoneFeatures;

fn feature(view: Player, owner: usize, cell: usize) -> u16 {
    let (x, y) = coordinates(cell);
    let theirs = if owner == view.index() { 0 } else { CELLS };
    theirs + (y * NETWORK_SIZE + x) as u16
}

impl FeatureSet<Gomoku> for StoneFeatures {
    const NAME: &'static str = "gomoku-stones-15x15";
    const INPUTS: usize = 2 * CELLS as usize;

    fn fits(position: &Gomoku) -> bool {
        position.board().size() == NETWORK_SIZE
    }

    fn active(position: &Gomoku, view: Player, features: &mut Vec<u16>) {
        features.clear();
        let board = position.board();
        for y in 0..NETWORK_SIZE {
            for x in 0..NETWORK_SIZE {
                let cell = y * STRIDE + x;
                let stone = board.stone(cell);
                // Stones are 1 (Black, player index 0) and 2 (White).
                if stone != EMPTY {
                    features.push(feature(view, usize::from(stone) - 1, cell));
                }
            }
        }
    }

    fn changes(position: &Gomoku, mv: Move, view: Player, changes: &mut FeatureChanges) {
        changes.clear();
        let mover = position.side_to_move().index();
        changes.add(feature(view, mover, usize::from(mv)));
    }

    /// Left and right swapped; the rules keep all eight symmetries of the
    /// square, the trainer uses this one.
    fn mirrored(feature: u16) -> Option<u16> {
        let (side, cell) = (feature / CELLS, feature % CELLS);
        let size = NETWORK_SIZE as u16;
        let (x, y) = (cell % size, cell / size);
        Some(side * CELLS + y * size + (size - 1 - x))
    }

    fn placement_key(position: &Gomoku) -> u64 {
        position.board().stones_hash()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::nnue::checks;
    use crate::games::gomoku::GomokuRules;

    fn start() -> Gomoku {
        Gomoku::start_position(&GomokuRules::default())
    }

    #[test]
    fn float_and_quantized_outputs_agree_within_a_bound() {
        checks::float_and_quantized_agree::<Gomoku, StoneFeatures>(&start(), 80);
    }

    #[test]
    fn incremental_accumulators_equal_fresh_ones_after_any_line() {
        checks::incremental_accumulators_equal_fresh_ones::<Gomoku, StoneFeatures>(&start());
    }

    #[test]
    fn a_position_reached_behind_the_stacks_back_is_computed_afresh() {
        checks::positions_reached_otherwise_are_computed_afresh::<Gomoku, StoneFeatures>(&start());
    }

    #[test]
    fn the_mirror_image_of_a_feature_is_a_feature() {
        checks::mirror_is_an_involution::<Gomoku, StoneFeatures>();
    }

    #[test]
    fn the_side_to_move_does_not_change_the_placement_key() {
        let mut game = start();
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        game.make_move(moves[0]);
        let key = StoneFeatures::placement_key(&game);
        assert!(game.make_null_move());
        assert_eq!(StoneFeatures::placement_key(&game), key);
    }

    #[test]
    fn other_sizes_keep_the_classical_evaluation() {
        let small = Gomoku::start_position(&GomokuRules {
            size: 13,
            ..GomokuRules::default()
        });
        assert!(!StoneFeatures::fits(&small));
        assert!(StoneFeatures::fits(&start()));
    }
}
