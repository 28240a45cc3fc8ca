//! Transposition table: a fixed number of buckets, each holding a few entries,
//! replaced by depth and age.

use super::game::{Score, MATE_BOUND};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true score is at least this (a fail-high).
    Lower,
    /// The true score is at most this (a fail-low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<M: Copy> {
    key: u64,
    pub best_move: Option<M>,
    score: Score,
    pub depth: i16,
    pub bound: Bound,
    age: u8,
}

/// What a probe returns: the stored move, and the score already converted
/// back to "plies from this node" for mate scores.
#[derive(Clone, Copy, Debug)]
pub struct Hit<M: Copy> {
    pub best_move: Option<M>,
    pub score: Score,
    pub depth: i16,
    pub bound: Bound,
}

const BUCKET_SIZE: usize = 4;

pub struct TranspositionTable<M: Copy> {
    entries: Vec<Option<Entry<M>>>,
    bucket_count: usize,
    age: u8,
}

/// Mate scores are stored relative to the node, not the root, so that a
/// position reached at another ply reads the right distance to mate.
fn score_to_table(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

fn score_from_table(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of about `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> Self {
        let entry_size = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let bytes = megabytes.max(1) * 1024 * 1024;
        let bucket_count = (bytes / (entry_size * BUCKET_SIZE)).max(1);
        TranspositionTable {
            entries: vec![None; bucket_count * BUCKET_SIZE],
            bucket_count,
            age: 0,
        }
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
        self.age = 0;
    }

    /// Called once per search so that entries of earlier searches are the
    /// first to be replaced.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        // Multiply-shift maps the key onto the bucket range without a modulo bias.
        let index = ((key as u128 * self.bucket_count as u128) >> 64) as usize;
        let start = index * BUCKET_SIZE;
        start..start + BUCKET_SIZE
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit<M>> {
        self.entries[self.bucket(key)]
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .map(|e| Hit {
                best_move: e.best_move,
                score: score_from_table(e.score, ply),
                depth: e.depth,
                bound: e.bound,
            })
    }

    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        depth: i16,
        score: Score,
        bound: Bound,
        best_move: Option<M>,
    ) {
        let age = self.age;
        let range = self.bucket(key);
        let bucket = &mut self.entries[range];
        // Same position: keep its move if the new entry has none.
        let slot = match bucket.iter().position(|e| e.is_some_and(|e| e.key == key)) {
            Some(i) => i,
            None => match bucket.iter().position(|e| e.is_none()) {
                Some(i) => i,
                None => {
                    // Replace the least valuable: old entries first, then shallow ones.
                    let worth = |e: &Option<Entry<M>>| match e {
                        Some(e) => {
                            let stale = age.wrapping_sub(e.age) as i32;
                            e.depth as i32 - 8 * stale
                        }
                        None => i32::MIN,
                    };
                    let mut victim = 0;
                    for i in 1..BUCKET_SIZE {
                        if worth(&bucket[i]) < worth(&bucket[victim]) {
                            victim = i;
                        }
                    }
                    victim
                }
            },
        };
        let previous_move = bucket[slot]
            .filter(|e| e.key == key)
            .and_then(|e| e.best_move);
        if let Some(old) = bucket[slot] {
            // Don't let a shallow non-exact result overwrite a deeper one of the same search.
            if old.key == key && old.age == age && old.depth > depth + 2 && bound != Bound::Exact {
                return;
            }
        }
        bucket[slot] = Some(Entry {
            key,
            best_move: best_move.or(previous_move),
            score: score_to_table(score, ply),
            depth,
            bound,
            age,
        });
    }

    /// Permille of sampled entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .flatten()
            .filter(|e| e.age == self.age)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::MATE;

    #[test]
    fn stores_and_finds_entries() {
        let mut tt: TranspositionTable<u16> = TranspositionTable::new(1);
        tt.store(42, 0, 5, 17, Bound::Exact, Some(7));
        let hit = tt.probe(42, 0).expect("stored entry is found");
        assert_eq!((hit.score, hit.depth, hit.best_move), (17, 5, Some(7)));
        assert!(tt.probe(43, 0).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let mut tt: TranspositionTable<u16> = TranspositionTable::new(1);
        // Mate in 3 plies from a node at ply 4 is MATE - 7 from the root.
        tt.store(1, 4, 3, MATE - 7, Bound::Exact, None);
        // Seen from ply 6, the same node is mate at MATE - 9.
        assert_eq!(tt.probe(1, 6).map(|h| h.score), Some(MATE - 9));
    }

    #[test]
    fn clear_empties_the_table() {
        let mut tt: TranspositionTable<u16> = TranspositionTable::new(1);
        tt.store(9, 0, 1, 0, Bound::Lower, None);
        tt.clear();
        assert!(tt.probe(9, 0).is_none());
    }
}
