//! Proof sets: the cells a settled result rests on, and the pruning they
//! allow (after Henderson, Arneson and Hayward's Hex solver, 2009).
//!
//! In a game where a stone never hurts its owner and no game is drawn
//! (Hex), the winner of a settled position often needs only some of the
//! empty cells: it still wins if the loser is given any of the others. When
//! one of the mover's moves is refuted, every other move onto a cell
//! outside the refutation's set is refuted by the same strategy, so only
//! the moves inside the set remain to be searched. The sets are built up
//! the tree: a winning move adds its cell to its child's set; a lost
//! position joins its children's sets and the cells that justified leaving
//! moves out (`ProofKnowledge::narrowing_cells`). A game that cannot say gives
//! `None`, which is the set of every cell and prunes nothing.

use std::collections::HashMap;

/// A set of move indices (`Knowledge::move_index`) below 128.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ProofCells(u128);

impl ProofCells {
    pub const EMPTY: ProofCells = ProofCells(0);
    /// Every cell: what is known of a result whose set was not kept.
    pub const ALL: ProofCells = ProofCells(u128::MAX);
    /// The indices a set can hold.
    pub const CAPACITY: usize = 128;

    /// The set of `indices`, or `ALL` if one of them does not fit.
    pub fn of(indices: impl IntoIterator<Item = usize>) -> ProofCells {
        let mut set = ProofCells::EMPTY;
        for index in indices {
            if index >= Self::CAPACITY {
                return ProofCells::ALL;
            }
            set.0 |= 1 << index;
        }
        set
    }

    /// Whether the set holds `index` (every index past the capacity).
    pub fn contains(self, index: usize) -> bool {
        index >= Self::CAPACITY || self.0 >> index & 1 == 1
    }

    pub fn union(self, other: ProofCells) -> ProofCells {
        ProofCells(self.0 | other.0)
    }

    pub fn intersection(self, other: ProofCells) -> ProofCells {
        ProofCells(self.0 & other.0)
    }

    pub fn with(self, index: usize) -> ProofCells {
        self.union(ProofCells::of([index]))
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// The sets of settled positions, by the knowledge's exact key
/// (`Knowledge::exact_key`: the table's key may join a position with its
/// mirror image, whose cells differ). Starts over when full; a forgotten
/// set is `ALL`, which is always sound.
pub(super) struct ProofCellStore {
    sets: HashMap<u64, ProofCells>,
    limit: usize,
}

impl ProofCellStore {
    pub fn new(limit: usize) -> Self {
        ProofCellStore {
            sets: HashMap::new(),
            limit: limit.max(1),
        }
    }

    pub fn get(&self, key: u64) -> ProofCells {
        self.sets.get(&key).copied().unwrap_or(ProofCells::ALL)
    }

    pub fn insert(&mut self, key: u64, cells: ProofCells) {
        if cells == ProofCells::ALL {
            return;
        }
        if self.sets.len() >= self.limit {
            self.sets.clear();
        }
        self.sets.insert(key, cells);
    }

    pub fn clear(&mut self) {
        self.sets.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_hold_their_indices_and_overflow_to_every_cell() {
        let set = ProofCells::of([3, 64, 127]);
        assert!(set.contains(3) && set.contains(64) && set.contains(127));
        assert!(!set.contains(4));
        assert_eq!(set.len(), 3);
        assert_eq!(ProofCells::of([2, 128]), ProofCells::ALL);
        assert!(ProofCells::EMPTY.contains(200));
        assert_eq!(
            set.intersection(ProofCells::of([3, 5])),
            ProofCells::of([3])
        );
        assert_eq!(ProofCells::EMPTY.with(9).union(set).len(), 4);
    }

    #[test]
    fn the_store_forgets_as_every_cell() {
        let mut store = ProofCellStore::new(2);
        store.insert(1, ProofCells::of([1]));
        store.insert(2, ProofCells::of([2]));
        assert_eq!(store.get(1), ProofCells::of([1]));
        store.insert(3, ProofCells::of([3]));
        assert_eq!(store.get(1), ProofCells::ALL);
        assert_eq!(store.get(3), ProofCells::of([3]));
        store.insert(4, ProofCells::ALL);
        assert_eq!(store.get(4), ProofCells::ALL);
    }
}
