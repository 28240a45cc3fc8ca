//! A fixed-size set of cells: the carrier of a virtual connection.
//!
//! Fixed size (enough for the largest board, 25 x 25 = 625 cells) so that
//! a carrier is a plain `Copy` value the H-search can keep by the
//! thousand without allocating; the operations the rules need (union,
//! disjointness, subset) are word-wise.

use super::super::geometry::MAX_CELLS;

const WORDS: usize = MAX_CELLS.div_ceil(64);

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet {
    words: [u64; WORDS],
}

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl CellSet {
    pub const EMPTY: CellSet = CellSet { words: [0; WORDS] };

    pub fn single(cell: usize) -> CellSet {
        let mut set = CellSet::EMPTY;
        set.insert(cell);
        set
    }

    pub fn insert(&mut self, cell: usize) {
        self.words[cell / 64] |= 1 << (cell % 64);
    }

    pub fn remove(&mut self, cell: usize) {
        self.words[cell / 64] &= !(1 << (cell % 64));
    }

    pub fn contains(&self, cell: usize) -> bool {
        self.words[cell / 64] & (1 << (cell % 64)) != 0
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn union(&self, other: &CellSet) -> CellSet {
        CellSet {
            words: std::array::from_fn(|i| self.words[i] | other.words[i]),
        }
    }

    pub fn intersection(&self, other: &CellSet) -> CellSet {
        CellSet {
            words: std::array::from_fn(|i| self.words[i] & other.words[i]),
        }
    }

    pub fn is_disjoint(&self, other: &CellSet) -> bool {
        self.words.iter().zip(&other.words).all(|(a, b)| a & b == 0)
    }

    pub fn is_subset(&self, other: &CellSet) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .all(|(a, b)| a & !b == 0)
    }

    /// The cells in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(i * 64 + bit)
            })
        })
    }
}

impl FromIterator<usize> for CellSet {
    fn from_iter<I: IntoIterator<Item = usize>>(cells: I) -> CellSet {
        let mut set = CellSet::EMPTY;
        for cell in cells {
            set.insert(cell);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_agree_with_their_definitions() {
        let a: CellSet = [0, 63, 64, 624].into_iter().collect();
        let b: CellSet = [63, 100].into_iter().collect();
        assert_eq!(a.len(), 4);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 63, 64, 624]);
        assert!(!a.is_disjoint(&b));
        assert_eq!(a.intersection(&b), CellSet::single(63));
        assert_eq!(a.union(&b).len(), 5);
        assert!(CellSet::single(624).is_subset(&a));
        assert!(!b.is_subset(&a));
        let mut c = a;
        c.remove(63);
        assert!(c.is_disjoint(&b) && !c.contains(63) && c.contains(624));
        assert!(CellSet::EMPTY.is_empty());
    }
}
