//! A Renju forbidden-point checker written for the tests: slow, straight
//! from the Renju International Federation's definitions, on a plain grid
//! and sharing nothing with the engine's line keys or shape tables.
//!
//! A four is a set of four Black stones that one more stone turns into
//! exactly five: fours are counted as distinct sets of stones, so a straight
//! four (two cells completing the same four stones) is one four. A three is
//! a line that one more stone turns into a straight four holding the new
//! stone, that stone making no five and itself not forbidden.

use std::collections::BTreeSet;

use boardgames::core::notation::fen_row;

pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;

const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[derive(Clone)]
pub struct Grid {
    pub size: usize,
    /// Row by row from y = 0 (row 1).
    pub cells: Vec<u8>,
}

impl Grid {
    pub fn new(size: usize) -> Grid {
        Grid {
            size,
            cells: vec![EMPTY; size * size],
        }
    }

    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        let size = self.size as i32;
        (x >= 0 && y >= 0 && x < size && y < size).then(|| self.cells[(y * size + x) as usize])
    }

    pub fn set(&mut self, x: i32, y: i32, stone: u8) {
        let size = self.size as i32;
        self.cells[(y * size + x) as usize] = stone;
    }

    /// Black stones in a row through (x, y) along (dx, dy), itself counted.
    fn black_run(&self, x: i32, y: i32, (dx, dy): (i32, i32)) -> usize {
        let mut length = 1;
        for sign in [1, -1] {
            let mut step = 1;
            while self.get(x + sign * step * dx, y + sign * step * dy) == Some(BLACK) {
                length += 1;
                step += 1;
            }
        }
        length
    }

    /// Whether Black may not play on empty (x, y).
    pub fn is_forbidden(&mut self, x: i32, y: i32) -> bool {
        self.set(x, y, BLACK);
        let verdict = self.judge_placed(x, y);
        self.set(x, y, EMPTY);
        verdict
    }

    /// The verdict on the Black stone just placed on (x, y).
    fn judge_placed(&mut self, x: i32, y: i32) -> bool {
        let runs: Vec<usize> = DIRECTIONS
            .iter()
            .map(|&d| self.black_run(x, y, d))
            .collect();
        if runs.contains(&5) {
            return false;
        }
        if runs.iter().any(|&run| run >= 6) {
            return true;
        }
        if self.fours_through(x, y) >= 2 {
            return true;
        }
        let threes = DIRECTIONS
            .iter()
            .filter(|&&d| self.has_three(x, y, d))
            .count();
        threes >= 2
    }

    /// The distinct fours holding the Black stone on (x, y): five-cell
    /// windows with four Black stones and one empty cell that, filled,
    /// makes exactly five.
    fn fours_through(&mut self, x: i32, y: i32) -> usize {
        let mut fours = BTreeSet::new();
        for (direction, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            for start in -4..=0 {
                let window: Vec<(i32, i32)> = (start..start + 5)
                    .map(|k| (x + k * dx, y + k * dy))
                    .collect();
                let contents: Vec<Option<u8>> =
                    window.iter().map(|&(wx, wy)| self.get(wx, wy)).collect();
                let blacks = contents.iter().filter(|&&c| c == Some(BLACK)).count();
                let empties: Vec<usize> = (0..5).filter(|&i| contents[i] == Some(EMPTY)).collect();
                if blacks != 4 || empties.len() != 1 {
                    continue;
                }
                let (ex, ey) = window[empties[0]];
                self.set(ex, ey, BLACK);
                let five = self.black_run(ex, ey, (dx, dy)) == 5;
                self.set(ex, ey, EMPTY);
                if five {
                    let stones: Vec<(i32, i32)> = window
                        .iter()
                        .copied()
                        .filter(|&(wx, wy)| (wx, wy) != (ex, ey))
                        .collect();
                    fours.insert((direction, stones));
                }
            }
        }
        fours.len()
    }

    /// Whether (x, y), holding a Black stone, lies in four Black stones in a
    /// row along `d` whose two ends are empty and each complete exactly
    /// five, the four also holding `also`.
    fn straight_four_holding(
        &mut self,
        x: i32,
        y: i32,
        (dx, dy): (i32, i32),
        also: (i32, i32),
    ) -> bool {
        (-3..=0).any(|first| {
            let stones: Vec<(i32, i32)> = (first..first + 4)
                .map(|k| (x + k * dx, y + k * dy))
                .collect();
            if !stones.contains(&also)
                || stones
                    .iter()
                    .any(|&(sx, sy)| self.get(sx, sy) != Some(BLACK))
            {
                return false;
            }
            let ends = [
                (x + (first - 1) * dx, y + (first - 1) * dy),
                (x + (first + 4) * dx, y + (first + 4) * dy),
            ];
            ends.iter().all(|&(ex, ey)| {
                if self.get(ex, ey) != Some(EMPTY) {
                    return false;
                }
                self.set(ex, ey, BLACK);
                let five = self.black_run(ex, ey, (dx, dy)) == 5;
                self.set(ex, ey, EMPTY);
                five
            })
        })
    }

    /// Whether the Black stone on (x, y) makes a three along `d`: one more
    /// Black stone on the line makes a straight four with it, "without at
    /// the same time a five in a row is made" (the RIF's definition of a
    /// three), and that stone is not itself forbidden (the RIF's note on
    /// double threes).
    fn has_three(&mut self, x: i32, y: i32, d: (i32, i32)) -> bool {
        (-4..=4).filter(|&k| k != 0).any(|k| {
            let (ex, ey) = (x + k * d.0, y + k * d.1);
            if self.get(ex, ey) != Some(EMPTY) {
                return false;
            }
            self.set(ex, ey, BLACK);
            let straight = self.straight_four_holding(x, y, d, (ex, ey));
            let five = DIRECTIONS.iter().any(|&e| self.black_run(ex, ey, e) == 5);
            self.set(ex, ey, EMPTY);
            straight && !five && !self.is_forbidden(ex, ey)
        })
    }

    /// Every cell forbidden to Black, as (x, y).
    pub fn forbidden_cells(&mut self) -> BTreeSet<(i32, i32)> {
        let size = self.size as i32;
        let mut found = BTreeSet::new();
        for y in 0..size {
            for x in 0..size {
                if self.get(x, y) == Some(EMPTY) && self.is_forbidden(x, y) {
                    found.insert((x, y));
                }
            }
        }
        found
    }

    /// The position string (`x` Black, `o` White) with the side to move.
    pub fn to_fen(&self, black_to_move: bool) -> String {
        let size = self.size as i32;
        let rows: Vec<String> = (0..size)
            .rev()
            .map(|y| {
                fen_row((0..size).map(|x| match self.get(x, y) {
                    Some(BLACK) => Some('x'),
                    Some(WHITE) => Some('o'),
                    _ => None,
                }))
            })
            .collect();
        format!(
            "{} {}",
            rows.join("/"),
            if black_to_move { "x" } else { "o" }
        )
    }
}

/// A cell name (`h8`) as (x, y).
pub fn point(name: &str) -> (i32, i32) {
    let column = name.as_bytes()[0] - b'a';
    let row: i32 = name[1..].parse().expect("a row number");
    (column as i32, row - 1)
}

/// (x, y) as a cell name.
pub fn name(x: i32, y: i32) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}
