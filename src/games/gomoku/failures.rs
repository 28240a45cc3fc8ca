//! Positions proven to hold no forced win within some number of attacking
//! moves, so that a solver does not search transposed attacks twice.

/// A table of `SLOTS` entries, one per key modulo `SLOTS`, the latest
/// failure winning the slot.
pub struct FailureTable<const SLOTS: usize> {
    entries: Vec<(u64, u32)>,
}

impl<const SLOTS: usize> Default for FailureTable<SLOTS> {
    fn default() -> Self {
        // Zeroed memory comes from the system untouched: a table only a few
        // probes use costs only the pages they reach.
        FailureTable {
            entries: vec![(0, 0); SLOTS],
        }
    }
}

impl<const SLOTS: usize> FailureTable<SLOTS> {
    /// True when `key` was proven to hold no win within `moves` (or more).
    pub fn known(&self, key: u64, moves: u32) -> bool {
        let (stored, proven) = self.entries[key as usize % SLOTS];
        stored == key && proven >= moves
    }

    pub fn record(&mut self, key: u64, moves: u32) {
        self.entries[key as usize % SLOTS] = (key, moves);
    }

    pub fn forget(&mut self) {
        self.entries.fill((0, 0));
    }
}
