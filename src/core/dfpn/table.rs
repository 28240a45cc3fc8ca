//! The proof search's table: proof and disproof numbers by position key.
//!
//! A node's numbers are worth keeping long after the search has left it:
//! df-pn re-enters the same subtrees again and again with higher thresholds,
//! and only what the table remembers spares it from starting them over.
//! Four entries make a bucket; a new position replaces the entry whose
//! subtree cost the least work to build.

use super::Numbers;

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

/// An entry packed in four words, so that a new table is zeroed memory the
/// system hands out as it is touched, not written through at the start.
type Slot = [u64; 4];

impl Entry {
    fn pack(self) -> Slot {
        let Numbers { pn, dn, bound } = self.numbers;
        [
            self.key,
            u64::from(pn) << 32 | u64::from(dn),
            u64::from(bound) << 32 | u64::from(self.work),
            u64::from(self.best_code),
        ]
    }

    fn unpack(slot: &Slot) -> Entry {
        Entry {
            key: slot[0],
            numbers: Numbers {
                pn: (slot[1] >> 32) as u32,
                dn: slot[1] as u32,
                bound: (slot[2] >> 32) as u32,
            },
            work: slot[2] as u32,
            best_code: slot[3] as u32,
        }
    }
}

/// Proof and disproof numbers of the positions searched, by key.
pub struct ProofTable {
    slots: Vec<Slot>,
    bucket_mask: usize,
}

impl ProofTable {
    /// A table of about `megabytes` (at least one bucket), a power of two
    /// buckets so that a key's low bits pick its bucket.
    pub fn new(megabytes: usize) -> Self {
        let bucket_bytes = BUCKET_SIZE * std::mem::size_of::<Slot>();
        let wanted = (megabytes.max(1) << 20) / bucket_bytes;
        let buckets = if wanted.is_power_of_two() {
            wanted
        } else {
            (wanted.next_power_of_two() / 2).max(1)
        };
        ProofTable {
            slots: vec![[0; 4]; buckets * BUCKET_SIZE],
            bucket_mask: buckets - 1,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill([0; 4]);
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
        let start = (key as usize & self.bucket_mask) * BUCKET_SIZE;
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
        let stride = (table.bucket_mask as u64) + 1;
        for (i, work) in [50, 5, 70, 60].into_iter().enumerate() {
            table.store(entry(1 + stride * i as u64, work));
        }
        table.store(entry(1 + stride * 9, 20));
        assert_eq!(table.probe(1 + stride), None, "the cheapest went");
        for i in [0, 2, 3, 9] {
            assert!(table.probe(1 + stride * i).is_some(), "entry {i} kept");
        }
        table.clear();
        assert_eq!(table.probe(1), None);
    }
}
