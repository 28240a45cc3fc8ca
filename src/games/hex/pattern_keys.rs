//! The move policy's pattern keys (`policy.rs`) of every cell, for both
//! players, kept up to date as stones are placed: a stone changes one digit
//! of the twelve cells whose pattern it lies in, so a playout reads a key
//! instead of looking at twelve cells, at a cost of 24 additions a stone.

use super::board::{BLACK, EMPTY};
use super::geometry::NO_CELL;
use super::policy::{seen_key, slot_offset};

const POWERS: [u32; 12] = powers_of_three();

const fn powers_of_three() -> [u32; 12] {
    let mut powers = [1; 12];
    let mut slot = 1;
    while slot < 12 {
        powers[slot] = powers[slot - 1] * 3;
        slot += 1;
    }
    powers
}

/// Keys for one board size: those of the empty board, the cells each
/// cell's stone changes, and the current keys. Index 0 is Black's view,
/// 1 White's.
#[derive(Debug, Default)]
pub struct PatternKeys {
    size: usize,
    empty_board: [Vec<u32>; 2],
    /// For a stone on a cell, the cell whose pattern holds it in each slot.
    holders: [Vec<[u16; 12]>; 2],
    keys: [Vec<u32>; 2],
}

impl PatternKeys {
    /// Starts from the board `stone_at` shows on a board of `size`.
    pub fn load(&mut self, size: usize, stone_at: impl Fn(usize) -> u8) {
        if self.size != size {
            self.prepare(size);
        }
        for view in 0..2 {
            self.keys[view].clone_from(&self.empty_board[view]);
        }
        for cell in 0..size * size {
            let stone = stone_at(cell);
            if stone != EMPTY {
                self.place(cell, stone);
            }
        }
    }

    /// Tables for a new size.
    fn prepare(&mut self, size: usize) {
        let (n, cells) = (size as i32, size * size);
        for view in 0..2 {
            let mine = if view == 0 {
                BLACK
            } else {
                super::board::WHITE
            };
            self.empty_board[view] = (0..cells)
                .map(|cell| seen_key(size, cell, mine, |_| EMPTY))
                .collect();
            self.holders[view] = (0..cells)
                .map(|cell| {
                    let (col, row) = ((cell % size) as i32, (cell / size) as i32);
                    std::array::from_fn(|slot| {
                        let (dc, dr) = slot_offset(slot, view == 0);
                        let (c, r) = (col - dc, row - dr);
                        match (0..n).contains(&c) && (0..n).contains(&r) {
                            true => (r * n + c) as u16,
                            false => NO_CELL,
                        }
                    })
                })
                .collect();
        }
        self.size = size;
    }

    /// A stone of colour `stone` (`BLACK` or `WHITE`) on empty `cell`.
    pub fn place(&mut self, cell: usize, stone: u8) {
        for view in 0..2 {
            // Digit 1 is the viewer's stone, 2 the opponent's.
            let own = (stone == BLACK) == (view == 0);
            let digit = if own { 1 } else { 2 };
            let keys = &mut self.keys[view];
            for (slot, &holder) in self.holders[view][cell].iter().enumerate() {
                if holder != NO_CELL {
                    keys[holder as usize] += digit * POWERS[slot];
                }
            }
        }
    }

    /// The key around `cell` for the player with stones `mine`, as
    /// `seen_key` gives it.
    pub fn key(&self, cell: usize, mine: u8) -> u32 {
        self.keys[usize::from(mine != BLACK)][cell]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hex::board::WHITE;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn kept_keys_equal_fresh_ones_after_any_stones() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut keys = PatternKeys::default();
        for size in [1, 2, 3, 7, 11, 13] {
            for _ in 0..20 {
                let mut cells = vec![EMPTY; size * size];
                // Some stones before the load, more placed one by one.
                for cell in cells.iter_mut() {
                    if rng.gen_bool(0.2) {
                        *cell = if rng.gen_bool(0.5) { BLACK } else { WHITE };
                    }
                }
                keys.load(size, |cell| cells[cell]);
                for (cell, at) in cells.iter_mut().enumerate() {
                    if *at == EMPTY && rng.gen_bool(0.5) {
                        *at = if rng.gen_bool(0.5) { BLACK } else { WHITE };
                        keys.place(cell, *at);
                    }
                }
                for cell in 0..size * size {
                    for mine in [BLACK, WHITE] {
                        let fresh = seen_key(size, cell, mine, |at| cells[at]);
                        assert_eq!(keys.key(cell, mine), fresh, "size {size} cell {cell}");
                    }
                }
            }
        }
    }
}
