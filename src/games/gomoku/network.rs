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
//!
//! Beside the two sets, each cell where either side would make a three or
//! more has one feature for the pair of threats the two sides would make
//! there (`pattern::combine`): a cell that is both an attack and a defence
//! (a contested point) is worth more than the sum of what each side sees,
//! which sums of cells apart cannot say.

use once_cell::sync::Lazy;

use super::board::{cell_of, Board};
use super::pattern::{
    combination_shapes, combination_table, shape_set_index, Threat, ONE, SHAPE_COUNT, SHAPE_SETS,
    SHAPE_SET_COUNT, THREAT_COUNT, T_QUIET,
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

/// The first threat pair's feature: after both sides' shape sets.
const THREAT_PAIR_FIRST: usize = 2 * SHAPE_SET_COUNT;

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

    /// The feature of the threats the viewer (`mine`) and the other side
    /// would make on one cell, where either makes a three or more.
    fn threat_pair(mine: Threat, theirs: Threat) -> Option<u16> {
        (mine.max(theirs) > T_QUIET).then(|| {
            (THREAT_PAIR_FIRST + usize::from(mine) * THREAT_COUNT + usize::from(theirs)) as u16
        })
    }

    /// The threat pair feature of a cell whose combinations are `combos`
    /// (the first player's, the second's), for each view.
    fn threat_pairs(combos: [u16; 2]) -> [Option<u16>; 2] {
        let table = combination_table();
        let [first, second] = combos.map(|combo| table[usize::from(combo)].0);
        [
            Self::threat_pair(first, second),
            Self::threat_pair(second, first),
        ]
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
                let combos = [0, 1].map(|side| board.combination(side, cell) as u16);
                features.extend(Self::threat_pairs(combos)[view.index()]);
            }
        }
    }
}

impl FeatureSet<Gomoku> for ShapeSetFeatures {
    const NAME: &'static str = "gomoku-shape-sets-threat-pairs";
    const INPUTS: usize = THREAT_PAIR_FIRST + THREAT_COUNT * THREAT_COUNT;
    /// The shape sets alone: a network of them starts a training run of
    /// these features, the threat pairs' rows at zero.
    const EXTENDS: Option<(&'static str, usize)> = Some(("gomoku-shape-sets", THREAT_PAIR_FIRST));

    fn fits(_position: &Gomoku) -> bool {
        true
    }

    fn active(position: &Gomoku, view: Player, features: &mut Vec<u16>) {
        features.clear();
        Self::collect(position.board(), view, features);
    }

    const CHANGES_AFTER_MOVE: bool = true;

    /// The stone's cell leaves both sides' features; each cell it reshaped
    /// trades its old set and threat pair for its new ones, where they
    /// differ. Read from the board's notes of the move
    /// (`Board::reshapes_of`), where a cell's two sides follow each other.
    fn changes(position: &Gomoku, mv: Move, changes: &mut [FeatureChanges; 2]) -> bool {
        changes.iter_mut().for_each(FeatureChanges::clear);
        let board = position.board();
        let cell = mv as usize;
        let Some(reshapes) = board.reshapes_of(cell) else {
            return false;
        };
        let [first, second] = changes;
        let mut trade = |old: [Option<u16>; 2], new: [Option<u16>; 2]| {
            if old != new {
                old[0].into_iter().for_each(|feature| first.remove(feature));
                old[1]
                    .into_iter()
                    .for_each(|feature| second.remove(feature));
                new[0].into_iter().for_each(|feature| first.add(feature));
                new[1].into_iter().for_each(|feature| second.add(feature));
            }
        };
        let sets = |side: usize, combo: u16| {
            let set = SET_OF_COMBINATION[usize::from(combo)];
            let features = [0, 1].map(|view| Self::feature(set, side == view));
            features.map(|feature| (set != NOTHING).then_some(feature))
        };
        let combos_at = |cell: usize| [0, 1].map(|side| board.combination(side, cell) as u16);
        let stone_combos = combos_at(cell);
        for (side, &combo) in stone_combos.iter().enumerate() {
            trade(sets(side, combo), [None; 2]);
        }
        trade(Self::threat_pairs(stone_combos), [None; 2]);
        let mut index = 0;
        while index < reshapes.len() {
            let reshape = reshapes[index];
            let cell = usize::from(reshape.cell);
            let new = combos_at(cell);
            let mut old = new;
            let both = reshapes
                .get(index + 1)
                .filter(|next| next.cell == reshape.cell);
            for changed in std::iter::once(reshape).chain(both.copied()) {
                let side = usize::from(changed.side);
                old[side] = changed.old;
                trade(sets(side, changed.old), sets(side, changed.new));
            }
            trade(Self::threat_pairs(old), Self::threat_pairs(new));
            index += 1 + usize::from(both.is_some());
        }
        true
    }

    fn placement_key(position: &Gomoku) -> u64 {
        position.board().stones_hash()
    }
}

#[cfg(test)]
mod tests;
