//! Inferior cell analysis (after Henderson and Hayward): cells whose
//! stone is provably never better than another move, or which can be
//! filled in without changing the value of the position.
//!
//! - dead (`dead.rs`): the colour of the cell never decides the game;
//! - captured (`captured.rs`): a pair one player can fill in, answering an
//!   intrusion into one with the other;
//! - vulnerable (`vulnerable.rs`): the mover's stone there dies to one
//!   opponent reply, the killer;
//! - dominated (`dominated.rs`): another cell, the dominator, is at least
//!   as good for the mover.
//!
//! Dead and captured cells are filled in to a fixed point first; the
//! other two are found on the filled board. Everything rests on
//! monotonicity (a stone never hurts its owner) and on local rules over a
//! cell's ring that stay true as stones are added.

pub mod captured;
pub mod dead;
pub mod dominated;
pub mod vulnerable;

use super::board::{stone_of, Hex, HexMove};
use super::geometry::Geometry;
use super::vc::CellSet;
use crate::core::Player;
use captured::{fill_in, FillIn};
use dead::Stones;

/// The inferior cells of a position for one player, the mover.
#[derive(Clone, Debug)]
pub struct InferiorCells {
    pub mover: Player,
    /// The dead and captured cells filled in, to a fixed point.
    pub fill: FillIn,
    /// The position with the fill-in's stones (the same side to move): of
    /// the same value as the one analysed.
    pub filled: Hex,
    /// Vulnerable cells of the filled position, each with its killer.
    pub vulnerable: Vec<(usize, usize)>,
    /// Dominated cells of the filled position, each with a dominator (a
    /// cell may appear once for each of its dominators).
    pub dominated: Vec<(usize, usize)>,
}

/// The cells within `steps` (1 or 2) of `cells`: what the rules here
/// read when they name one of them. A dead cell's rule reads its ring, a
/// captured pair's the rings of both (each a filled cell), a vulnerable
/// cell's its ring; a dominated cell's may read a captured partner's
/// ring, two steps away. Whoever owns the cells beyond, the rules still
/// hold.
pub fn pattern_cells(geo: &Geometry, cells: impl Iterator<Item = usize>, steps: u32) -> CellSet {
    let mut near = CellSet::EMPTY;
    for cell in cells {
        near.insert(cell);
        for first in geo.neighbours(cell) {
            near.insert(first);
            if steps >= 2 {
                for second in geo.neighbours(first) {
                    near.insert(second);
                }
            }
        }
    }
    near
}

/// What `InferiorCells::prune` left out of a move list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    pub filled: usize,
    pub vulnerable: usize,
    pub dominated: usize,
    /// The cells their rules read (`pattern_cells`): a vulnerable cell's
    /// ring (the killer is in it); a dominated one's two steps, since a
    /// captured partner's ring may count.
    pub patterns: CellSet,
}

impl InferiorCells {
    /// Analyses `hex` for `mover`. Vulnerable and dominated cells are
    /// looked for only when the fill-in leaves the game undecided.
    pub fn analyse(hex: &Hex, mover: Player) -> InferiorCells {
        let mut stones = Stones::of(hex);
        let fill = fill_in(&mut stones);
        let mut filled = hex.clone();
        for (cell, colour) in fill.stones() {
            filled.place_stone(cell, colour);
        }
        let (mut vulnerable, mut dominated) = (Vec::new(), Vec::new());
        if filled.winner().is_none() {
            let colour = stone_of(mover);
            vulnerable = vulnerable::vulnerable_cells(&mut stones, colour);
            dominated = dominated::dominated_cells(&mut stones, colour);
        }
        InferiorCells {
            mover,
            fill,
            filled,
            vulnerable,
            dominated,
        }
    }

    /// The player whose edges the fill-in joined: the winner.
    pub fn filled_winner(&self) -> Option<Player> {
        self.filled.winner()
    }

    /// The dead cells, in the order filled.
    pub fn dead(&self) -> impl Iterator<Item = usize> + '_ {
        self.fill.dead.iter().map(|&(cell, _)| cell)
    }

    /// The cells captured by `player`.
    pub fn captured_by(&self, player: Player) -> &[usize] {
        &self.fill.captured[player as usize]
    }

    /// What the mover's move list needs from this analysis.
    pub fn pruning(&self) -> MovePruning {
        let mut vulnerable = CellSet::EMPTY;
        for &(cell, _) in &self.vulnerable {
            vulnerable.insert(cell);
        }
        let filled = self.fill.stones().map(|(cell, _)| cell);
        MovePruning {
            open: self.filled.empty_cells().collect(),
            fill_patterns: pattern_cells(self.filled.geometry(), filled, 1),
            vulnerable,
            dominated: self
                .dominated
                .iter()
                .map(|&(cell, by)| (cell as u16, by as u16))
                .collect(),
        }
    }
}

/// The part of an analysis that prunes the mover's moves, kept per
/// position by the proof search.
#[derive(Clone, Debug)]
pub struct MovePruning {
    /// The cells the fill-in left empty.
    pub open: CellSet,
    /// The cells the rules of every filled cell read (`pattern_cells`),
    /// which a pruning rule on the filled board may rest on.
    pub fill_patterns: CellSet,
    pub vulnerable: CellSet,
    /// (dominated cell, dominator) pairs.
    pub dominated: Vec<(u16, u16)>,
}

impl MovePruning {
    /// Leaves out of `moves` (the mover's cells, no swap) those the mover
    /// need not try: filled cells, vulnerable cells, and dominated cells
    /// whose dominator stays. Whenever a move of `moves` wins and `moves`
    /// holds every winning move among the cells the fill-in left empty,
    /// a kept move wins (module and rule comments). When the rules leave
    /// nothing, no move wins, and the first is kept as the one to lose with.
    pub fn prune(&self, moves: &mut Vec<HexMove>, geo: &Geometry) -> Pruned {
        let mut pruned = Pruned::default();
        let Some(&first) = moves.first() else {
            return pruned;
        };
        if moves.iter().any(|mv| mv.is_swap()) {
            return pruned;
        }
        let cell_of = |mv: &HexMove| mv.0 as usize;
        let before = moves.len();
        moves.retain(|mv| self.open.contains(cell_of(mv)));
        pruned.filled = before - moves.len();
        let before = moves.len();
        let vulnerable: Vec<usize> = moves
            .iter()
            .map(cell_of)
            .filter(|&cell| self.vulnerable.contains(cell))
            .collect();
        moves.retain(|mv| !self.vulnerable.contains(cell_of(mv)));
        pruned.vulnerable = before - moves.len();
        // One at a time, and only for a dominator still kept: of two cells
        // dominating each other, the second survives.
        let mut kept: CellSet = moves.iter().map(cell_of).collect();
        let mut dominated_cells = Vec::new();
        for mv in moves.iter() {
            let cell = mv.0;
            let dominated = self
                .dominated
                .iter()
                .any(|&(c, by)| c == cell && kept.contains(by as usize));
            if dominated {
                kept.remove(cell as usize);
                pruned.dominated += 1;
                dominated_cells.push(cell as usize);
            }
        }
        moves.retain(|mv| kept.contains(cell_of(mv)));
        pruned.patterns = pattern_cells(geo, vulnerable.into_iter(), 1).union(&pattern_cells(
            geo,
            dominated_cells.into_iter(),
            2,
        ));
        if moves.is_empty() {
            moves.push(first);
        }
        pruned
    }
}
