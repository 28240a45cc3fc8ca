//! Alpha-beta's tables that outlive one search: kept between moves of a
//! game, cleared by `ucinewgame`.

use crate::core::game::Game;
use crate::core::tt::TranspositionTable;

/// The transposition table all threads share, and the main thread's move
/// history. (Each thread's knowledge is the engine's, handed in.)
pub struct SearchTables<G: Game> {
    pub tt: TranspositionTable<G::Move>,
    tt_megabytes: usize,
    /// The table's memory was handed back for another search.
    tt_released: bool,
    pub(super) history: Vec<i32>,
}

impl<G: Game> SearchTables<G> {
    pub fn new(hash_megabytes: usize) -> Self {
        SearchTables {
            tt: TranspositionTable::new(hash_megabytes),
            tt_megabytes: hash_megabytes,
            tt_released: false,
            history: Vec::new(),
        }
    }

    /// The memory the options give the search's tables.
    pub fn hash_megabytes(&self) -> usize {
        self.tt_megabytes
    }

    /// Hands the transposition table's memory back to the system: a proof
    /// search or a Monte Carlo tree, which take the `Hash` size of their
    /// own, would otherwise hold twice that. The next alpha-beta search
    /// makes it anew.
    pub fn release_tt(&mut self) {
        self.tt = TranspositionTable::new(1);
        self.tt_released = true;
    }

    /// Makes the transposition table again after `release_tt` (empty).
    pub fn restore_tt(&mut self) {
        if self.tt_released {
            self.tt = TranspositionTable::new(self.tt_megabytes);
            self.tt_released = false;
        }
    }

    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
    }
}
