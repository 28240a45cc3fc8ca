//! Make/unmake's incremental part: the line keys of the cells within
//! `HALF_WINDOW` of a stone put or taken away, and the threats, values and
//! totals of the empty cells whose shapes that changed.

use super::{coordinates, Board, DIRECTIONS, EMPTY, STRIDE};
use crate::games::gomoku::pattern::{
    combination_index, digit_position, Shape, COMBINATION_PLACES, DIGIT_BLOCKED, DIGIT_OWN,
    HALF_WINDOW, POW3, T_FOUR,
};

/// A key word holding the same key for both sides, per unit of the key.
pub(super) const BOTH_SIDES: u32 = 1 | 1 << 16;

/// One side's line key out of a cell's key word.
#[inline(always)]
pub(super) fn side_key(word: u32, side: usize) -> u16 {
    (word >> (16 * side)) as u16
}

/// What a stone of each side adds to the key word of a cell it lies
/// `offset` from (index `HALF_WINDOW + offset`): an own digit to its side's
/// key, a blocked one to the other's.
const KEY_STEPS: [[u32; 2 * HALF_WINDOW + 1]; 2] = [key_steps(0), key_steps(1)];

const fn key_steps(side: usize) -> [u32; 2 * HALF_WINDOW + 1] {
    let mut steps = [0; 2 * HALF_WINDOW + 1];
    let mut index = 0;
    while index < steps.len() {
        let offset = index as i32 - HALF_WINDOW as i32;
        if offset != 0 {
            let power = POW3[digit_position(offset)] as u32;
            let (own, blocked) = (DIGIT_OWN as u32 * power, DIGIT_BLOCKED as u32 * power);
            steps[index] = if side == 0 {
                own | blocked << 16
            } else {
                blocked | own << 16
            };
        }
        index += 1;
    }
    steps
}

impl Board {
    pub(super) fn update_lines(&mut self, cell: usize, side: usize, adding: bool) {
        // Each case compiled on its own, the side's half of a key word fixed.
        match (adding, side) {
            (true, 0) => self.update_lines_by::<true, 0>(cell),
            (true, _) => self.update_lines_by::<true, 1>(cell),
            (false, 0) => self.update_lines_by::<false, 0>(cell),
            (false, _) => self.update_lines_by::<false, 1>(cell),
        }
    }

    /// Changes the line keys of the cells within `HALF_WINDOW` of `cell`
    /// along each direction for a stone of `SIDE` put there (`ADDING`) or
    /// taken away, and rescores the empty ones whose shape changed.
    fn update_lines_by<const ADDING: bool, const SIDE: usize>(&mut self, cell: usize) {
        let side = SIDE;
        let (own_table, their_table) = (self.tables[side], self.tables[side ^ 1]);
        walk_lines(self.size, cell, |direction, slot, neighbour| {
            let before = self.keys[neighbour][direction];
            let after = if ADDING {
                before + KEY_STEPS[side][slot]
            } else {
                before - KEY_STEPS[side][slot]
            };
            self.keys[neighbour][direction] = after;
            // Most cells a few steps away keep their shape: then nothing
            // derived from it changes for that side.
            if self.cells[neighbour] != EMPTY {
                return;
            }
            let (own_key, own_new) = (side_key(before, side), side_key(after, side));
            let (old, new) = (own_table[own_key as usize], own_table[own_new as usize]);
            if old != new {
                self.reshape::<ADDING>(side, neighbour, direction, old, new);
            }
            let (their_key, their_new) = (side_key(before, side ^ 1), side_key(after, side ^ 1));
            let (old, new) = (
                their_table[their_key as usize],
                their_table[their_new as usize],
            );
            if old != new {
                self.reshape::<ADDING>(side ^ 1, neighbour, direction, old, new);
            }
        });
    }

    /// Removes an empty cell's threats and values from the totals.
    pub(super) fn forget_cell(&mut self, cell: usize) {
        self.refresh_cell(cell, -1);
    }

    /// With `sign` 1, recomputes an empty cell's threats and values from its
    /// keys and adds them to the totals; with -1, subtracts the stored ones.
    pub(super) fn refresh_cell(&mut self, cell: usize, sign: i32) {
        for side in 0..2 {
            self.refresh_side(side, cell, sign);
        }
    }

    /// `refresh_cell` for one side.
    #[inline]
    fn refresh_side(&mut self, side: usize, cell: usize, sign: i32) {
        let (word, bit) = (cell / 64, 1u64 << (cell % 64));
        if sign > 0 {
            let shapes = [0, 1, 2, 3].map(|direction| self.shape(side, cell, direction));
            let combo = combination_index(shapes);
            self.combos[side][cell] = combo as u16;
            let (threat, values) = self.combinations[combo];
            self.threats[side][cell] = threat;
            self.values[side][cell] = values;
            self.threat_counts[side][threat as usize] += 1;
            if threat >= T_FOUR {
                self.four_cells[side][word] |= bit;
            }
            for (sum, value) in self.value_sums[side].iter_mut().zip(values) {
                *sum += value as i32;
            }
        } else {
            self.threat_counts[side][self.threats[side][cell] as usize] -= 1;
            self.four_cells[side][word] &= !bit;
            let values = self.values[side][cell];
            for (sum, value) in self.value_sums[side].iter_mut().zip(values) {
                *sum -= value as i32;
            }
        }
    }

    /// An empty cell's shape for `side` along `direction` went from `old`
    /// to `new`: brings its stored threat and values (and the totals) up to
    /// date, as `refresh_side` out and in again would, in one pass. A stone
    /// put (`NOTED`) notes the change of combination.
    #[inline(always)]
    fn reshape<const NOTED: bool>(
        &mut self,
        side: usize,
        cell: usize,
        direction: usize,
        old: Shape,
        new: Shape,
    ) {
        let place = COMBINATION_PLACES[direction] as u16;
        let old_combo = self.combos[side][cell];
        let combo = old_combo + new as u16 * place - old as u16 * place;
        self.combos[side][cell] = combo;
        if NOTED {
            self.reshapes.note(cell, side, old_combo, combo);
        }
        let (threat, values) = self.combinations[combo as usize];
        // Written without branches: whether the threat or the values
        // changed is a coin toss the processor would often guess wrong.
        let old_threat = self.threats[side][cell];
        self.threat_counts[side][old_threat as usize] -= 1;
        self.threat_counts[side][threat as usize] += 1;
        self.threats[side][cell] = threat;
        let (word, bit) = (cell / 64, 1u64 << (cell % 64));
        let four = u64::from(threat >= T_FOUR).wrapping_neg() & bit;
        self.four_cells[side][word] = (self.four_cells[side][word] & !bit) | four;
        let old_values = self.values[side][cell];
        for ((sum, new), old) in self.value_sums[side].iter_mut().zip(values).zip(old_values) {
            *sum += new as i32 - old as i32;
        }
        self.values[side][cell] = values;
    }
}

/// Calls `visit(direction, slot, neighbour)` for each on-board cell within
/// `HALF_WINDOW` of `cell` along its four lines, where `slot` is the
/// stone's place in the neighbour's key (`KEY_STEPS`). Only the on-board
/// part of each line is walked, a constant stride apart.
#[inline(always)]
fn walk_lines(size: usize, cell: usize, mut visit: impl FnMut(usize, usize, usize)) {
    let (x, y) = coordinates(cell);
    for (direction, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
        let stride = dy as isize * STRIDE as isize + dx as isize;
        let behind = steps_on_board(size, x, y, -dx, -dy) as isize;
        let ahead = steps_on_board(size, x, y, dx, dy) as isize;
        for offset in -behind..=ahead {
            if offset != 0 {
                let neighbour = (cell as isize + offset * stride) as usize;
                // Seen from the neighbour, the stone lies at -offset.
                visit(
                    direction,
                    (HALF_WINDOW as isize - offset) as usize,
                    neighbour,
                );
            }
        }
    }
}

/// How many steps of (`dx`, `dy`) from (`x`, `y`) stay on a board of
/// `size`, at most `HALF_WINDOW`.
fn steps_on_board(size: usize, x: usize, y: usize, dx: i32, dy: i32) -> usize {
    let room = |at: usize, d: i32| match d {
        1 => size - 1 - at,
        -1 => at,
        _ => HALF_WINDOW,
    };
    room(x, dx).min(room(y, dy)).min(HALF_WINDOW)
}
