//! The proof search's table: proof and disproof numbers by position key.
//!
//! A node's numbers are worth keeping long after the search has left it:
//! df-pn re-enters the same subtrees again and again with higher thresholds,
//! and only what the table remembers spares it from starting them over.
//! Four entries make a bucket; a new position replaces the entry whose
//! subtree cost the least work to build.

use super::proof_cells::ProofCellStore;
use super::{Numbers, NO_MOVE_CODE};
use crate::core::game::MOVE_CODE_LIMIT;

const BUCKET_SIZE: usize = 4;

/// One position's numbers, with the move that decided it (or the most
/// promising one, while it is open) as a move code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub key: u64,
    pub numbers: Numbers,
    /// Nodes spent below this position, saturating: 0 marks an empty slot.
    pub work: u32,
    pub best_code: u32,
}

/// An entry packed in three words, so that a new table is zeroed memory
/// the system hands out as it is touched, not written through at the start,
/// and so that a table of a given size holds as many positions as it can
/// (a long proof fills any table). The third word holds the bound in 24
/// bits (`UNLIMITED` as all ones; no game here lasts 16 million plies), the
/// work in 16 bits on a logarithmic scale (it only ranks entries for
/// replacement) and the 24-bit move code.
type Slot = [u64; 3];

const BOUND_BITS: u32 = 24;
const BOUND_ALL_ONES: u32 = (1 << BOUND_BITS) - 1;
/// Works below this are kept exactly; above, as a power of two and the
/// eleven bits below its leading one.
const EXACT_WORK: u32 = 1 << 11;

/// A bound too long for 24 bits is kept as the longest that fits: for a
/// disproof that is a weaker claim, never a stronger one.
fn pack_bound(bound: u32) -> u64 {
    match bound {
        u32::MAX => u64::from(BOUND_ALL_ONES),
        bound => u64::from(bound.min(BOUND_ALL_ONES - 1)),
    }
}

fn unpack_bound(bits: u64) -> u32 {
    match bits as u32 & BOUND_ALL_ONES {
        BOUND_ALL_ONES => u32::MAX,
        bound => bound,
    }
}

/// Work as a 16-bit number that keeps its order: exact below `EXACT_WORK`,
/// then the position of the leading one and the 11 bits after it.
fn pack_work(work: u32) -> u64 {
    if work < EXACT_WORK {
        return u64::from(work);
    }
    let shift = 31 - work.leading_zeros() - 11;
    u64::from(((shift + 1) << 11) | ((work >> shift) & (EXACT_WORK - 1)))
}

fn unpack_work(bits: u64) -> u32 {
    let bits = bits as u32 & 0xffff;
    if bits < EXACT_WORK {
        return bits;
    }
    let shift = (bits >> 11) - 1;
    ((bits & (EXACT_WORK - 1)) | EXACT_WORK) << shift
}

impl Entry {
    fn pack(self) -> Slot {
        let Numbers { pn, dn, bound } = self.numbers;
        [
            self.key,
            u64::from(pn) << 32 | u64::from(dn),
            pack_bound(bound) << 40
                | pack_work(self.work) << 24
                | u64::from(self.best_code & MOVE_CODE_LIMIT),
        ]
    }

    fn unpack(slot: &Slot) -> Entry {
        Entry {
            key: slot[0],
            numbers: Numbers {
                pn: (slot[1] >> 32) as u32,
                dn: slot[1] as u32,
                bound: unpack_bound(slot[2] >> 40),
            },
            work: unpack_work(slot[2] >> 24),
            best_code: match slot[2] as u32 & MOVE_CODE_LIMIT {
                MOVE_CODE_LIMIT => NO_MOVE_CODE,
                code => code,
            },
        }
    }
}

/// Proof and disproof numbers of the positions searched, by key.
pub struct ProofTable {
    slots: Vec<Slot>,
    buckets: usize,
    /// The proof sets of settled positions, one for each bucket at most
    /// (some 30 bytes against the bucket's 96).
    pub(super) cells: ProofCellStore,
}

impl ProofTable {
    /// A table of about `megabytes` (at least one bucket). Any number of
    /// buckets: a key's high bits, scaled to the count, pick its bucket,
    /// so the whole `Hash` is used, not the power of two below it.
    pub fn new(megabytes: usize) -> Self {
        let bucket_bytes = BUCKET_SIZE * std::mem::size_of::<Slot>();
        let buckets = ((megabytes.max(1) << 20) / bucket_bytes).max(1);
        ProofTable {
            slots: vec![[0; 3]; buckets * BUCKET_SIZE],
            buckets,
            cells: ProofCellStore::new(buckets),
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill([0; 3]);
        self.cells.clear();
    }

    /// Entries in use, per mille, from the first thousand slots.
    pub fn permille_full(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| Entry::unpack(slot).work > 0)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let index = (u128::from(key) * self.buckets as u128) >> 64;
        let start = index as usize * BUCKET_SIZE;
        start..start + BUCKET_SIZE
    }

    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.bucket(key)]
            .iter()
            .map(Entry::unpack)
            .find(|entry| entry.work > 0 && entry.key == key)
    }

    /// Stores `entry` over the same position's, or else over the bucket's
    /// cheapest entry.
    pub(super) fn store(&mut self, entry: Entry) {
        let range = self.bucket(entry.key);
        let bucket = &mut self.slots[range];
        let old = |i: usize| Entry::unpack(&bucket[i]);
        let slot = (0..BUCKET_SIZE)
            .find(|&i| old(i).work > 0 && old(i).key == entry.key)
            .or_else(|| (0..BUCKET_SIZE).min_by_key(|&i| old(i).work))
            .unwrap_or(0);
        bucket[slot] = Entry {
            work: entry.work.max(1),
            ..entry
        }
        .pack();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, work: u32) -> Entry {
        Entry {
            key,
            numbers: Numbers::proven(3),
            work,
            best_code: 7,
        }
    }

    #[test]
    fn an_entry_packs_and_unpacks_whole() {
        let entry = Entry {
            key: u64::MAX - 5,
            numbers: Numbers {
                pn: u32::MAX / 2,
                dn: 3,
                bound: u32::MAX,
            },
            work: 77,
            best_code: (1 << 24) - 2,
        };
        assert_eq!(Entry::unpack(&entry.pack()), entry);
        let unsettled = Entry {
            best_code: NO_MOVE_CODE,
            numbers: Numbers::proven(41),
            ..entry
        };
        assert_eq!(Entry::unpack(&unsettled.pack()), unsettled);
    }

    #[test]
    fn a_stored_entry_is_found_and_updated_in_place() {
        let mut table = ProofTable::new(1);
        table.store(entry(42, 10));
        assert_eq!(table.probe(42).map(|e| e.work), Some(10));
        table.store(entry(42, 3));
        assert_eq!(table.probe(42).map(|e| e.work), Some(3));
        assert_eq!(table.probe(43), None);
    }

    #[test]
    fn a_full_bucket_gives_up_its_cheapest_entry() {
        let mut table = ProofTable::new(1);
        // Keys that differ only in their low bits share a bucket.
        let key = |i: u64| (1 << 63) + i;
        assert_eq!(table.bucket(key(0)), table.bucket(key(9)));
        for (i, work) in [50, 5, 70, 60].into_iter().enumerate() {
            table.store(entry(key(i as u64), work));
        }
        table.store(entry(key(9), 20));
        assert_eq!(table.probe(key(1)), None, "the cheapest went");
        for i in [0, 2, 3, 9] {
            assert!(table.probe(key(i)).is_some(), "entry {i} kept");
        }
        table.clear();
        assert_eq!(table.probe(key(0)), None);
    }

    #[test]
    fn packed_work_keeps_its_order_and_small_values_exactly() {
        let works = [
            0,
            1,
            2047,
            2048,
            2049,
            4095,
            4096,
            70_000,
            1 << 30,
            u32::MAX,
        ];
        for pair in works.windows(2) {
            assert!(pack_work(pair[0]) <= pack_work(pair[1]), "{pair:?}");
        }
        for work in [0, 1, 77, 2047, 2048, 4096, 1 << 30] {
            assert_eq!(unpack_work(pack_work(work)), work);
        }
        assert!(pack_work(u32::MAX) < 1 << 16);
        let rounded = unpack_work(pack_work(123_456_789));
        assert!(rounded <= 123_456_789 && rounded > 123_456_789 - (123_456_789 >> 10));
    }

    #[test]
    fn a_bound_too_long_for_its_bits_only_ever_shrinks() {
        assert_eq!(unpack_bound(pack_bound(u32::MAX)), u32::MAX);
        assert_eq!(unpack_bound(pack_bound(199)), 199);
        let long = unpack_bound(pack_bound(u32::MAX - 1));
        assert!(long < u32::MAX - 1 && long > 1 << 23);
    }

    #[test]
    fn the_table_uses_the_whole_size_asked() {
        let table = ProofTable::new(3);
        let bytes = table.slots.len() * std::mem::size_of::<Slot>();
        assert!(bytes > (3 << 20) - 100 && bytes <= 3 << 20, "{bytes}");
        assert!(table.buckets > 1 << 13);
    }
}
