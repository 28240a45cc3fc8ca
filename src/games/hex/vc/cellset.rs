//! A fixed-size set of cells: the carrier of a virtual connection.
//!
//! Fixed size (enough for the largest board, 25 x 25 = 625 cells) so that
//! a carrier is a plain `Copy` value the H-search can keep by the
//! thousand without allocating; the operations the rules need (union,
//! disjointness, subset) are word-wise.
//!
//! Boards of up to 64 cells (8x8, where the proof search works) use
//! `SmallCellSet`, one machine word: the H-search is generic over
//! `Carrier`, and on those boards a tenth of the memory and of the work
//! per comparison makes it several times faster (`hex vc-bench`).

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

/// What the H-search needs of a carrier: a set of cells with word-wise
/// operations, convertible to and from the full-size `CellSet`.
pub trait Carrier: Copy + Eq + Default + std::fmt::Debug {
    /// Cells it can hold: 0..CAPACITY.
    const CAPACITY: usize;
    fn insert(&mut self, cell: usize);
    fn remove(&mut self, cell: usize);
    fn contains(&self, cell: usize) -> bool;
    fn is_empty(&self) -> bool;
    fn len(&self) -> usize;
    fn union(&self, other: &Self) -> Self;
    fn intersection(&self, other: &Self) -> Self;
    fn is_disjoint(&self, other: &Self) -> bool;
    fn is_subset(&self, other: &Self) -> bool;
    fn to_cell_set(&self) -> CellSet;
    /// The same cells; those at `CAPACITY` or beyond are not kept.
    fn from_cell_set(set: &CellSet) -> Self;
}

impl Carrier for CellSet {
    const CAPACITY: usize = MAX_CELLS;
    fn insert(&mut self, cell: usize) {
        CellSet::insert(self, cell)
    }
    fn remove(&mut self, cell: usize) {
        CellSet::remove(self, cell)
    }
    fn contains(&self, cell: usize) -> bool {
        CellSet::contains(self, cell)
    }
    fn is_empty(&self) -> bool {
        CellSet::is_empty(self)
    }
    fn len(&self) -> usize {
        CellSet::len(self)
    }
    fn union(&self, other: &Self) -> Self {
        CellSet::union(self, other)
    }
    fn intersection(&self, other: &Self) -> Self {
        CellSet::intersection(self, other)
    }
    fn is_disjoint(&self, other: &Self) -> bool {
        CellSet::is_disjoint(self, other)
    }
    fn is_subset(&self, other: &Self) -> bool {
        CellSet::is_subset(self, other)
    }
    fn to_cell_set(&self) -> CellSet {
        *self
    }
    fn from_cell_set(set: &CellSet) -> Self {
        *set
    }
}

/// A set of cells 0..64 in one word: the carriers of boards up to 8x8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SmallCellSet(u64);

impl std::fmt::Debug for SmallCellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.to_cell_set().fmt(f)
    }
}

impl Carrier for SmallCellSet {
    const CAPACITY: usize = 64;
    fn insert(&mut self, cell: usize) {
        self.0 |= 1 << cell;
    }
    fn remove(&mut self, cell: usize) {
        if cell < 64 {
            self.0 &= !(1 << cell);
        }
    }
    fn contains(&self, cell: usize) -> bool {
        cell < 64 && self.0 & (1 << cell) != 0
    }
    fn is_empty(&self) -> bool {
        self.0 == 0
    }
    fn len(&self) -> usize {
        self.0.count_ones() as usize
    }
    fn union(&self, other: &Self) -> Self {
        SmallCellSet(self.0 | other.0)
    }
    fn intersection(&self, other: &Self) -> Self {
        SmallCellSet(self.0 & other.0)
    }
    fn is_disjoint(&self, other: &Self) -> bool {
        self.0 & other.0 == 0
    }
    fn is_subset(&self, other: &Self) -> bool {
        self.0 & !other.0 == 0
    }
    fn to_cell_set(&self) -> CellSet {
        let mut set = CellSet::EMPTY;
        set.words[0] = self.0;
        set
    }
    fn from_cell_set(set: &CellSet) -> Self {
        SmallCellSet(set.words[0])
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

    #[test]
    fn a_small_set_agrees_with_the_full_size_one() {
        let a: CellSet = [0, 5, 63].into_iter().collect();
        let b: CellSet = [5, 40].into_iter().collect();
        let (small_a, small_b) = (
            SmallCellSet::from_cell_set(&a),
            SmallCellSet::from_cell_set(&b),
        );
        assert_eq!(small_a.to_cell_set(), a);
        assert_eq!(small_a.union(&small_b).to_cell_set(), a.union(&b));
        assert_eq!(
            small_a.intersection(&small_b).to_cell_set(),
            a.intersection(&b)
        );
        assert_eq!(Carrier::len(&small_a), 3);
        assert!(!Carrier::is_disjoint(&small_a, &small_b));
        assert!(Carrier::is_subset(
            &SmallCellSet::from_cell_set(&CellSet::single(63)),
            &small_a
        ));
        assert!(Carrier::contains(&small_a, 63) && !Carrier::contains(&small_a, 64));
    }
}
