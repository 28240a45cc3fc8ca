//! Transposition table shared by all search threads, without locks.
//!
//! An entry is two 64-bit words: the packed data (move, score, depth, bound,
//! age) and the position's key XORed with that data. Threads read and write
//! the words with plain atomic loads and stores; when two writes to one
//! entry interleave, a reader may see the data of one and the key word of
//! the other, and then `key word ^ data` no longer equals the key it looks
//! for, so the torn entry reads as a miss (Hyatt and Mann's lockless
//! hashing). Four entries make a 64-byte bucket, one cache line.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use super::game::{MoveCode, Score, MATE_BOUND, MOVE_CODE_LIMIT};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true score is at least this (a fail-high).
    Lower,
    /// The true score is at most this (a fail-low).
    Upper,
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

/// The data word, low bits first: move code (24), score (22, signed),
/// depth (8), bound (2, 0 for an empty entry), age (8).
const MOVE_BITS: u32 = 24;
const SCORE_BITS: u32 = 22;
const SCORE_SHIFT: u32 = MOVE_BITS;
const DEPTH_SHIFT: u32 = SCORE_SHIFT + SCORE_BITS;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + 8;
const AGE_SHIFT: u32 = BOUND_SHIFT + 2;
const NO_MOVE: u32 = MOVE_CODE_LIMIT;
/// Scores are clamped into the signed 22-bit range (mates are about 10^6).
const SCORE_LIMIT: Score = (1 << (SCORE_BITS - 1)) - 1;

/// One entry, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Data {
    move_code: u32,
    score: Score,
    depth: u8,
    bound: Option<Bound>,
    age: u8,
}

impl Data {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            None => 0,
            Some(Bound::Exact) => 1,
            Some(Bound::Lower) => 2,
            Some(Bound::Upper) => 3,
        };
        let score = self.score.clamp(-SCORE_LIMIT, SCORE_LIMIT) as u64 & ((1 << SCORE_BITS) - 1);
        u64::from(self.move_code & NO_MOVE)
            | score << SCORE_SHIFT
            | u64::from(self.depth) << DEPTH_SHIFT
            | bound << BOUND_SHIFT
            | u64::from(self.age) << AGE_SHIFT
    }

    fn unpack(word: u64) -> Data {
        // Shifting the score's top bit into the sign bit and back extends it.
        let score =
            ((word << (64 - SCORE_SHIFT - SCORE_BITS)) as i64 >> (64 - SCORE_BITS)) as Score;
        Data {
            move_code: (word as u32) & NO_MOVE,
            score,
            depth: (word >> DEPTH_SHIFT) as u8,
            bound: match (word >> BOUND_SHIFT) & 3 {
                1 => Some(Bound::Exact),
                2 => Some(Bound::Lower),
                3 => Some(Bound::Upper),
                _ => None,
            },
            age: (word >> AGE_SHIFT) as u8,
        }
    }
}

#[derive(Default)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry if it holds `key` and was not torn by a concurrent write.
    fn read(&self, key: u64) -> Option<Data> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.key_xor_data.load(Ordering::Relaxed);
        let entry = Data::unpack(data);
        (check ^ data == key && entry.bound.is_some()).then_some(entry)
    }

    /// The entry whatever its key, for choosing whom to replace.
    fn read_any(&self) -> Data {
        Data::unpack(self.data.load(Ordering::Relaxed))
    }

    fn write(&self, key: u64, entry: Data) {
        let data = entry.pack();
        self.key_xor_data.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }

    fn clear(&mut self) {
        *self.key_xor_data.get_mut() = 0;
        *self.data.get_mut() = 0;
    }
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; BUCKET_SIZE]);

pub struct TranspositionTable<M> {
    buckets: Vec<Bucket>,
    age: AtomicU8,
    moves: PhantomData<fn() -> M>,
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

impl<M: MoveCode> TranspositionTable<M> {
    /// A table of about `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> Self {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let bucket_count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: (0..bucket_count).map(|_| Bucket::default()).collect(),
            age: AtomicU8::new(0),
            moves: PhantomData,
        }
    }

    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            bucket.0.iter_mut().for_each(Slot::clear);
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

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the bucket range without a modulo bias.
        &self.buckets[((key as u128 * self.buckets.len() as u128) >> 64) as usize]
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit<M>> {
        let entry = self.bucket(key).0.iter().find_map(|slot| slot.read(key))?;
        Some(Hit {
            best_move: (entry.move_code != NO_MOVE).then(|| M::from_code(entry.move_code)),
            score: score_from_table(entry.score, ply),
            depth: i16::from(entry.depth),
            bound: entry.bound?,
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
        let depth = depth.clamp(0, u8::MAX as i16) as u8;
        let bucket = &self.bucket(key).0;
        let same = bucket
            .iter()
            .find_map(|slot| slot.read(key).map(|e| (slot, e)));
        let (slot, previous_move) = match same {
            Some((slot, old)) => {
                // A shallow bound must not overwrite a deeper result of the same search.
                if old.age == age && old.depth > depth.saturating_add(2) && bound != Bound::Exact {
                    return;
                }
                (slot, old.move_code)
            }
            None => (Self::victim(bucket, age), NO_MOVE),
        };
        let move_code = best_move.map_or(previous_move, |mv| mv.to_code().min(NO_MOVE));
        slot.write(
            key,
            Data {
                move_code,
                score: score_to_table(score, ply),
                depth,
                bound: Some(bound),
                age,
            },
        );
    }

    /// The entry to give up for a new position: an empty one, else the
    /// least valuable (old entries first, then shallow ones).
    fn victim(bucket: &[Slot; BUCKET_SIZE], age: u8) -> &Slot {
        let worth = |slot: &Slot| {
            let entry = slot.read_any();
            match entry.bound {
                None => i32::MIN,
                Some(_) => i32::from(entry.depth) - 8 * i32::from(age.wrapping_sub(entry.age)),
            }
        };
        bucket
            .iter()
            .min_by_key(|slot| worth(slot))
            .unwrap_or(&bucket[0])
    }

    /// Permille of sampled entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let sample = self.buckets.len().min(250);
        let used = self.buckets[..sample]
            .iter()
            .flat_map(|bucket| bucket.0.iter())
            .map(Slot::read_any)
            .filter(|e| e.bound.is_some() && e.age == age)
            .count();
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
    fn every_field_survives_packing() {
        for score in [
            0,
            1,
            -1,
            1234,
            -1234,
            MATE,
            -MATE,
            SCORE_LIMIT,
            -SCORE_LIMIT,
        ] {
            for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
                let data = Data {
                    move_code: 0xAB_CDEF,
                    score,
                    depth: 200,
                    bound: Some(bound),
                    age: 255,
                };
                assert_eq!(Data::unpack(data.pack()), data);
            }
        }
        let no_move = Data {
            move_code: NO_MOVE,
            score: -5,
            depth: 0,
            bound: Some(Bound::Upper),
            age: 0,
        };
        assert_eq!(Data::unpack(no_move.pack()), no_move);
    }

    #[test]
    fn a_new_entry_without_a_move_keeps_the_old_move() {
        let tt: TranspositionTable<u16> = TranspositionTable::new(1);
        tt.store(5, 0, 3, 10, Bound::Lower, Some(9));
        tt.store(5, 0, 4, 11, Bound::Upper, None);
        let hit = tt.probe(5, 0).expect("found");
        assert_eq!(
            (hit.depth, hit.best_move, hit.bound),
            (4, Some(9), Bound::Upper)
        );
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

    #[test]
    fn a_full_bucket_gives_up_its_oldest_shallowest_entry() {
        let mut tt: TranspositionTable<u16> = TranspositionTable::new(1);
        // One bucket holds every key below 2^64 / buckets; keys 1..=4 share bucket 0.
        for (key, depth) in [(1, 9), (2, 3), (3, 7), (4, 8)] {
            tt.store(key, 0, depth, 0, Bound::Exact, None);
        }
        tt.store(5, 0, 1, 0, Bound::Exact, None);
        assert!(tt.probe(2, 0).is_none(), "the shallowest entry went");
        assert!([1, 3, 4, 5].iter().all(|&k| tt.probe(k, 0).is_some()));
        // Next search: an old deep entry goes before a new shallow one.
        tt.new_search();
        tt.store(6, 0, 1, 0, Bound::Exact, None);
        tt.new_search();
        tt.store(7, 0, 1, 0, Bound::Exact, None);
        assert!(tt.probe(6, 0).is_some() && tt.probe(7, 0).is_some());
        assert!(tt.probe(3, 0).is_none(), "depth 7 two searches old went");
    }

    /// Threads overwrite the same few buckets as fast as they can; every
    /// entry written for key k carries values derived from k, so a hit whose
    /// values do not match its key would be a torn entry let through.
    #[test]
    fn racing_writers_never_yield_a_torn_entry() {
        let tt: TranspositionTable<u16> = TranspositionTable::new(1);
        let keys: Vec<u64> = (1..=64u64).map(|k| k.wrapping_mul(0x9E37_79B9)).collect();
        let expected = |key: u64| {
            (
                (key % 1000) as Score,
                (key % 200) as i16,
                (key % 60_000) as u16,
            )
        };
        std::thread::scope(|scope| {
            for thread in 0..4 {
                let (tt, keys) = (&tt, &keys);
                scope.spawn(move || {
                    for round in 0..20_000 {
                        let key = keys[(round * 7 + thread * 13) % keys.len()];
                        let (score, depth, mv) = expected(key);
                        tt.store(key, 0, depth, score, Bound::Exact, Some(mv));
                        for &probe in keys.iter().skip(round % 8).step_by(8) {
                            if let Some(hit) = tt.probe(probe, 0) {
                                let (score, depth, mv) = expected(probe);
                                assert_eq!(
                                    (hit.score, hit.depth, hit.best_move),
                                    (score, depth, Some(mv))
                                );
                            }
                        }
                    }
                });
            }
        });
    }
}
