//! The two-distance maps of `eval`, a layer at a time on bitboards.
//!
//! Cells at two-distance d+1 are exactly the unreached empty cells with at
//! least two distinct reached neighbours once every cell up to distance d is
//! reached (the breadth-first definition, read a layer at a time). So each
//! pass grows a wave: the cells reached so far, and two bit planes that
//! count, per cell, one or two reached neighbours (a counter that saturates
//! at two). Stones come from the board as one word a row, and the neighbours
//! of a whole row in the rows above and below are shifts of the same words.
//!
//! A reached cell counts once for each target, as in the breadth-first
//! version: a direct neighbour through the six shifted planes; a cell that
//! shares a friendly group with the target through the group's count of
//! reached liberties. Two reached liberties reach every liberty of the group
//! at once; a single one counts as one more neighbour of the liberties it
//! does not already touch directly (several groups with the same single
//! liberty counting it once).

// A plane's rows are read together with the same rows of other planes and
// with the rows either side: a row index says that more plainly than
// zipped iterators.
#![allow(clippy::needless_range_loop)]

use super::board::{Hex, BLACK, WHITE};
use super::eval::FAR;
use super::geometry::{BOTTOM, LEFT, MAX_SIZE, NO_CELL, RIGHT, TOP};

/// One bit a cell, one word a row, with an empty padding row above and
/// below: row r of the board is word r + 1, so neighbours never fall off.
type Plane = [u32; MAX_SIZE + 2];

const NO_GROUP: u16 = u16::MAX;

/// A group's count of reached liberties stops at two: all its liberties are
/// then reached as well.
const ALL_LIBERTIES: u8 = 2;

/// Scratch for the waves of one evaluation, kept between calls so that
/// evaluating allocates nothing once the sizes are known.
#[derive(Clone, Debug, Default)]
pub struct Waves {
    size: usize,
    empty: Plane,
    /// The colour being measured: each stone's group, each group's liberties
    /// and goal edges; `group_of_root` is cleared again after each use.
    group_of_cell: Vec<u16>,
    group_of_root: Vec<u16>,
    roots: Vec<u16>,
    liberties: Vec<Plane>,
    /// The liberties of every group of the colour.
    any_liberty: Plane,
    group_edges: Vec<u8>,
    /// Per pass: each group's count of reached liberties (0, 1 or
    /// `ALL_LIBERTIES`) and, at one, which liberty it is.
    reached_liberties: Vec<u8>,
    single_liberty: Vec<u16>,
    /// Groups whose first liberty was reached in the current layer.
    newly_touched: Vec<u16>,
    one: Plane,
    two: Plane,
    reached: Plane,
}

/// The cells next to the cells of `plane` in board row `row` (a word).
fn spread_row(plane: &Plane, row: usize) -> u32 {
    let (up, here, down) = (plane[row - 1], plane[row], plane[row + 1]);
    (here << 1) | (here >> 1) | up | (up >> 1) | down | (down << 1)
}

impl Waves {
    /// Reads the empty cells of `hex` and sizes the scratch for its board.
    pub fn prepare(&mut self, hex: &Hex) {
        let size = hex.size();
        let cells = size * size;
        if self.group_of_cell.len() != cells {
            self.group_of_cell = vec![NO_GROUP; cells];
            self.group_of_root = vec![NO_GROUP; cells];
        }
        self.size = size;
        let width = if size >= 32 {
            u32::MAX
        } else {
            (1u32 << size) - 1
        };
        self.empty = [0; MAX_SIZE + 2];
        let (black, white) = (hex.stone_rows(BLACK), hex.stone_rows(WHITE));
        for row in 0..size {
            self.empty[row + 1] = width & !(black[row] | white[row]);
        }
    }

    /// Finds the groups of `stone` (from the board's union-find) and their
    /// liberties; both passes of that colour share them.
    pub fn collect_groups(&mut self, hex: &Hex, stone: u8) {
        let size = self.size;
        self.liberties.clear();
        self.group_edges.clear();
        self.roots.clear();
        for (row, &word) in hex.stone_rows(stone).iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let col = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let cell = row * size + col;
                let root = hex.find(cell);
                let mut group = self.group_of_root[root];
                if group == NO_GROUP {
                    group = self.group_edges.len() as u16;
                    self.group_of_root[root] = group;
                    self.roots.push(root as u16);
                    self.group_edges.push(hex.edges_of_group(root));
                    self.liberties.push([0; MAX_SIZE + 2]);
                }
                self.group_of_cell[cell] = group;
                // The group's stones for now; their liberties below.
                self.liberties[group as usize][row + 1] |= 1 << col;
            }
        }
        for &root in &self.roots {
            self.group_of_root[root as usize] = NO_GROUP;
        }
        self.any_liberty = [0; MAX_SIZE + 2];
        for stones in self.liberties.iter_mut() {
            let copy = *stones;
            for row in 1..=size {
                stones[row] = spread_row(&copy, row) & self.empty[row];
                self.any_liberty[row] |= stones[row];
            }
        }
        self.reached_liberties.resize(self.group_edges.len(), 0);
        self.single_liberty.resize(self.group_edges.len(), NO_CELL);
    }

    /// The two-distances of `stone`'s cells to `edge` (one of its own),
    /// into `dist`; `collect_groups` must have run for `stone`.
    pub fn distances(&mut self, hex: &Hex, stone: u8, edge: u8, dist: &mut [u16]) {
        let size = self.size;
        dist.fill(FAR);
        self.one = [0; MAX_SIZE + 2];
        self.two = [0; MAX_SIZE + 2];
        self.reached = [0; MAX_SIZE + 2];
        self.reached_liberties.iter_mut().for_each(|r| *r = 0);
        let mut layer = self.edge_cells(edge);
        for (group, liberties) in self.liberties.iter().enumerate() {
            if self.group_edges[group] & edge != 0 {
                for row in 1..=size {
                    layer[row] |= liberties[row];
                }
            }
        }
        let mut distance = 1u16;
        while let Some((low, high)) = Self::row_span(&layer, size) {
            for row in low..=high {
                let mut bits = layer[row];
                self.reached[row] |= bits;
                while bits != 0 {
                    let col = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    dist[(row - 1) * size + col] = distance;
                }
            }
            // Only rows whose counts changed can hold new cells: every cell
            // counted twice before was reached in the layer after.
            let (mut changed_low, mut changed_high) =
                (low.saturating_sub(1).max(1), (high + 1).min(size));
            self.count_neighbours(&layer, changed_low, changed_high);
            if !self.group_edges.is_empty()
                && self.count_group_liberties(hex, stone, &layer, low, high)
            {
                (changed_low, changed_high) = (1, size);
            }
            layer = [0; MAX_SIZE + 2];
            for row in changed_low..=changed_high {
                layer[row] = self.two[row] & self.empty[row] & !self.reached[row];
            }
            distance += 1;
        }
    }

    /// The empty cells along `edge`.
    fn edge_cells(&self, edge: u8) -> Plane {
        let size = self.size;
        let mut plane = [0; MAX_SIZE + 2];
        for row in 1..=size {
            let along = match edge {
                TOP if row == 1 => u32::MAX,
                BOTTOM if row == size => u32::MAX,
                LEFT => 1,
                RIGHT => 1 << (size - 1),
                _ => 0,
            };
            plane[row] = along & self.empty[row];
        }
        plane
    }

    /// The first and last rows of `plane` holding a cell, if any.
    fn row_span(plane: &Plane, size: usize) -> Option<(usize, usize)> {
        let low = (1..=size).find(|&row| plane[row] != 0)?;
        let high = (low..=size).rev().find(|&row| plane[row] != 0)?;
        Some((low, high))
    }

    /// Counts the cells of `layer` as neighbours, each of the six
    /// directions a distinct cell, in rows `low..=high`.
    fn count_neighbours(&mut self, layer: &Plane, low: usize, high: usize) {
        for row in low..=high {
            let (up, here, down) = (layer[row - 1], layer[row], layer[row + 1]);
            let (mut one, mut two) = (self.one[row], self.two[row]);
            for shifted in [here << 1, here >> 1, up, up >> 1, down, down << 1] {
                two |= one & shifted;
                one |= shifted;
            }
            self.one[row] = one;
            self.two[row] = two;
        }
    }

    /// Counts the cells of `layer` (rows `low..=high`) that are liberties
    /// of friendly groups as neighbours of the groups' other liberties;
    /// whether any count changed.
    fn count_group_liberties(
        &mut self,
        hex: &Hex,
        stone: u8,
        layer: &Plane,
        low: usize,
        high: usize,
    ) -> bool {
        let size = self.size;
        let geo = hex.geometry();
        self.newly_touched.clear();
        let mut changed = false;
        for (row, &word) in layer.iter().enumerate().take(high + 1).skip(low) {
            let mut bits = word & self.any_liberty[row];
            while bits != 0 {
                let col = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let cell = (row - 1) * size + col;
                let mut groups = [NO_GROUP; 6];
                for (slot, &n) in geo.ring[cell].iter().enumerate() {
                    if n == NO_CELL || hex.stone_at(n as usize) != stone {
                        continue;
                    }
                    let group = self.group_of_cell[n as usize];
                    if groups[..slot].contains(&group) {
                        continue;
                    }
                    groups[slot] = group;
                    changed |= self.count_liberty(group, cell);
                }
            }
        }
        let mut index = 0;
        while index < self.newly_touched.len() {
            let group = self.newly_touched[index];
            index += 1;
            if group == NO_GROUP || self.reached_liberties[group as usize] != 1 {
                continue;
            }
            let group = group as usize;
            let source = self.single_liberty[group];
            let mut targets = self.liberties[group];
            // Other groups whose single reached liberty is the same cell
            // count it once.
            for later in index..self.newly_touched.len() {
                let other = self.newly_touched[later];
                if other == NO_GROUP {
                    continue;
                }
                let other = other as usize;
                if self.reached_liberties[other] == 1 && self.single_liberty[other] == source {
                    for row in 1..=size {
                        targets[row] |= self.liberties[other][row];
                    }
                    self.newly_touched[later] = NO_GROUP;
                }
            }
            self.count_single_source(&mut targets, source as usize);
        }
        changed
    }

    /// One more reached liberty of `group`: `cell`. Whether the group
    /// counts it (the first two only).
    fn count_liberty(&mut self, group: u16, cell: usize) -> bool {
        let g = group as usize;
        match self.reached_liberties[g] {
            0 => {
                self.reached_liberties[g] = 1;
                self.single_liberty[g] = cell as u16;
                self.newly_touched.push(group);
                true
            }
            1 => {
                self.reached_liberties[g] = ALL_LIBERTIES;
                for row in 1..=self.size {
                    self.two[row] |= self.liberties[g][row];
                }
                true
            }
            _ => false,
        }
    }

    /// Counts `source` as a neighbour of `targets`, except of the cells it
    /// touches, which counted it already.
    fn count_single_source(&mut self, targets: &mut Plane, source: usize) {
        let size = self.size;
        let (col, row) = (source % size, source / size + 1);
        let bit = 1u32 << col;
        targets[row - 1] &= !(bit | (bit << 1));
        targets[row] &= !((bit << 1) | (bit >> 1));
        targets[row + 1] &= !(bit | (bit >> 1));
        for row in 1..=size {
            self.two[row] |= self.one[row] & targets[row];
            self.one[row] |= targets[row];
        }
    }

    /// The empty cells, in index order.
    pub fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        let size = self.size;
        (1..=size).flat_map(move |row| {
            let mut bits = self.empty[row];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let col = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    (row - 1) * size + col
                })
            })
        })
    }
}

#[cfg(test)]
mod reference;
