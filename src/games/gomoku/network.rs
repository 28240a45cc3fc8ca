//! Gomoku's network inputs for the learned evaluation: on every empty cell,
//! the shape set each side would make there (its four line shapes, the
//! directions forgotten; `pattern::SHAPE_SETS`), "mine" or "theirs" as one
//! side sees it. A feature is a shape set, active once per cell holding it,
//! so the accumulator sums a row per cell: the network starts from what the
//! classical evaluation knows, where a network over bare stones (which lost
//! 1-79 to it, docs/results/learned-evaluation.md, step 3) had to learn
//! every shape from data. The features do not depend on where on the board
//! a cell lies, so one network serves every size.
//!
//! A stone changes the shapes of up to forty cells along its lines; the
//! board notes which as it plays the stone (`Board::reshapes_of`), and a
//! move's changes list the old and new sets of those cells, once for both
//! views.

use once_cell::sync::Lazy;

use super::board::{cell_of, Board};
use super::pattern::{
    combination_shapes, shape_set_index, ONE, SHAPE_COUNT, SHAPE_SETS, SHAPE_SET_COUNT,
};
use super::{Gomoku, Move};
use crate::core::game::Player;
use crate::core::nnue::{FeatureChanges, FeatureSet};

/// `SET_OF_COMBINATION`'s mark of a cell with nothing to build on.
const NOTHING: u16 = u16::MAX;

/// The shape set of each combination of four direction shapes, or
/// `NOTHING` where no shape is better than a lone stone: such cells, most
/// of the board, are left out of the features.
static SET_OF_COMBINATION: Lazy<Vec<u16>> = Lazy::new(|| {
    (0..SHAPE_COUNT.pow(4))
        .map(|index| {
            let set = shape_set_index(combination_shapes(index));
            if SHAPE_SETS[set][0] <= ONE {
                NOTHING
            } else {
                set as u16
            }
        })
        .collect()
});

#[derive(Clone, Copy, Debug, Default)]
pub struct ShapeSetFeatures;

impl ShapeSetFeatures {
    /// The feature of a cell's shape set for `view`: "mine" first.
    fn feature(set: u16, mine: bool) -> u16 {
        if mine {
            set
        } else {
            SHAPE_SET_COUNT as u16 + set
        }
    }

    /// The features of `board` for `view`, read from its kept combinations.
    fn collect(board: &Board, view: Player, features: &mut Vec<u16>) {
        let size = board.size();
        for y in 0..size {
            for x in 0..size {
                let cell = cell_of(x, y);
                if !board.is_empty(cell) {
                    continue;
                }
                for side in 0..2 {
                    let set = SET_OF_COMBINATION[board.combination(side, cell)];
                    if set != NOTHING {
                        features.push(Self::feature(set, side == view.index()));
                    }
                }
            }
        }
    }
}

impl FeatureSet<Gomoku> for ShapeSetFeatures {
    const NAME: &'static str = "gomoku-shape-sets";
    const INPUTS: usize = 2 * SHAPE_SET_COUNT;

    fn fits(_position: &Gomoku) -> bool {
        true
    }

    fn active(position: &Gomoku, view: Player, features: &mut Vec<u16>) {
        features.clear();
        Self::collect(position.board(), view, features);
    }

    const CHANGES_AFTER_MOVE: bool = true;

    /// The stone's cell leaves both sides' features; each cell it reshaped
    /// trades its old set for its new one, where they differ. Read from
    /// the board's notes of the move (`Board::reshapes_of`).
    fn changes(position: &Gomoku, mv: Move, changes: &mut [FeatureChanges; 2]) -> bool {
        changes.iter_mut().for_each(FeatureChanges::clear);
        let board = position.board();
        let cell = mv as usize;
        let Some(reshapes) = board.reshapes_of(cell) else {
            return false;
        };
        let [first, second] = changes;
        let mut trade = |side: usize, old: u16, new: u16| {
            if old != NOTHING {
                first.remove(Self::feature(old, side == 0));
                second.remove(Self::feature(old, side == 1));
            }
            if new != NOTHING {
                first.add(Self::feature(new, side == 0));
                second.add(Self::feature(new, side == 1));
            }
        };
        for side in 0..2 {
            trade(
                side,
                SET_OF_COMBINATION[board.combination(side, cell)],
                NOTHING,
            );
        }
        for reshape in reshapes {
            let old = SET_OF_COMBINATION[usize::from(reshape.old)];
            let new = SET_OF_COMBINATION[usize::from(reshape.new)];
            if old != new {
                trade(usize::from(reshape.side), old, new);
            }
        }
        true
    }

    fn placement_key(position: &Gomoku) -> u64 {
        position.board().stones_hash()
    }
}

#[cfg(test)]
mod tests;
