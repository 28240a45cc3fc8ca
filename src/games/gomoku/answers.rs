//! The answers of whole solver probes, kept for the rest of a search: a
//! position the search meets again (each iteration meets most of them)
//! costs one look-up.

use super::Move;

const ANSWER_SLOTS: usize = 1 << 15;

/// What a whole probe found: a win with its first move and length, or none
/// within a budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Win { first: Move, plies: i32 },
    NoneWithin(u32),
}

/// One answer a slot, keyed by the position's Zobrist key (which holds the
/// side to move), the latest answer winning the slot. An entry holds the
/// key and, packed in one word, the search it belongs to (a generation, so
/// that a new search forgets without clearing) and the answer: a win's
/// first move and length, or the budget a probe spent in vain.
pub struct AnswerTable {
    entries: Vec<(u64, u64)>,
    generation: u32,
}

const WIN_FLAG: u64 = 1 << 31;

impl Default for AnswerTable {
    fn default() -> Self {
        // Zeroed memory comes from the system untouched, and generation 0
        // is never current, so the empty table needs no filling.
        AnswerTable {
            entries: vec![(0, 0); ANSWER_SLOTS],
            generation: 1,
        }
    }
}

impl AnswerTable {
    pub fn forget(&mut self) {
        self.generation = self.generation.wrapping_add(1).max(1);
    }

    /// The answer for `key` that settles a probe with `budget`: a win, or
    /// none within at least that budget.
    pub fn answer(&self, key: u64, budget: u32) -> Option<Option<(Move, i32)>> {
        let (stored, data) = self.entries[key as usize % ANSWER_SLOTS];
        if stored != key || (data >> 32) as u32 != self.generation {
            return None;
        }
        match Self::unpack(data) {
            Answer::Win { first, plies } => Some(Some((first, plies))),
            Answer::NoneWithin(spent) if spent >= budget => Some(None),
            Answer::NoneWithin(_) => None,
        }
    }

    pub fn record(&mut self, key: u64, answer: Answer) {
        let payload = match answer {
            Answer::Win { first, plies } => WIN_FLAG | (plies as u64) << 16 | first as u64,
            Answer::NoneWithin(budget) => budget.min(WIN_FLAG as u32 - 1) as u64,
        };
        self.entries[key as usize % ANSWER_SLOTS] = (key, (self.generation as u64) << 32 | payload);
    }

    fn unpack(data: u64) -> Answer {
        if data & WIN_FLAG != 0 {
            Answer::Win {
                first: (data & 0xffff) as Move,
                plies: ((data >> 16) & 0x7fff) as i32,
            }
        } else {
            Answer::NoneWithin((data & (WIN_FLAG - 1)) as u32)
        }
    }
}
