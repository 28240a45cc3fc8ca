//! Transposition table: a fixed number of buckets, each holding a few entries,
//! replaced by depth and age. The search threads share one table: each
//! bucket has its own lock, so two threads rarely wait for each other and a
//! reader never sees an entry half written.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, MutexGuard};

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

type Bucket<M> = [Option<Entry<M>>; BUCKET_SIZE];

pub struct TranspositionTable<M: Copy> {
    buckets: Vec<Mutex<Bucket<M>>>,
    age: AtomicU8,
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
        let bucket_size = std::mem::size_of::<Mutex<Bucket<M>>>().max(1);
        let bytes = megabytes.max(1) * 1024 * 1024;
        let bucket_count = (bytes / bucket_size).max(1);
        TranspositionTable {
            buckets: (0..bucket_count)
                .map(|_| Mutex::new([None; BUCKET_SIZE]))
                .collect(),
            age: AtomicU8::new(0),
        }
    }

    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            let bucket = bucket
                .get_mut()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            *bucket = [None; BUCKET_SIZE];
        }
        *self.age.get_mut() = 0;
    }

    /// Called once per search so that entries of earlier searches are the
    /// first to be replaced.
    pub fn new_search(&mut self) {
        let age = self.age.get_mut();
        *age = age.wrapping_add(1);
    }

    fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed)
    }

    fn bucket(&self, key: u64) -> MutexGuard<'_, Bucket<M>> {
        // Multiply-shift maps the key onto the bucket range without a modulo bias.
        self.lock(((key as u128 * self.buckets.len() as u128) >> 64) as usize)
    }

    fn lock(&self, index: usize) -> MutexGuard<'_, Bucket<M>> {
        // A thread that panicked while holding the lock wrote entries whole
        // (they are plain values), so the poison flag can be ignored.
        self.buckets[index]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit<M>> {
        self.bucket(key)
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
        &self,
        key: u64,
        ply: usize,
        depth: i16,
        score: Score,
        bound: Bound,
        best_move: Option<M>,
    ) {
        let age = self.age();
        let mut bucket = self.bucket(key);
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
        let age = self.age();
        let sample = self.buckets.len().min(250);
        let used: usize = (0..sample)
            .map(|index| {
                self.lock(index)
                    .iter()
                    .flatten()
                    .filter(|e| e.age == age)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * BUCKET_SIZE).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::MATE;

    #[test]
    fn stores_and_finds_entries() {
        let tt: TranspositionTable<u16> = TranspositionTable::new(1);
        tt.store(42, 0, 5, 17, Bound::Exact, Some(7));
        let hit = tt.probe(42, 0).expect("stored entry is found");
        assert_eq!((hit.score, hit.depth, hit.best_move), (17, 5, Some(7)));
        assert!(tt.probe(43, 0).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt: TranspositionTable<u16> = TranspositionTable::new(1);
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
