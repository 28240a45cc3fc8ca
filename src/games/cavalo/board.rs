//! Geometry of the 10x10 board: cell indices, names, knight jumps as
//! bitboards, the value digits rules, and the seeded board generator.

use once_cell::sync::Lazy;

use crate::core::cell::parse_cell_name;

/// Number of cells; a cell index is `(row - 1) * 10 + column`, column 0 = `a`.
pub const CELLS: usize = 100;
pub const SIDE: usize = 10;
/// Marks "no cell" (a knight not yet placed, no symmetric cell, no choice).
pub const NO_CELL: u8 = 255;

/// One bit per cell; bit `i` is cell `i`.
pub type Cells = u128;

pub const ALL_CELLS: Cells = (1u128 << CELLS) - 1;

pub fn bit(cell: u8) -> Cells {
    1u128 << cell
}

/// Iterates over the cells of a bitboard, lowest index first.
pub fn cells_of(mut set: Cells) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let cell = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(cell)
        }
    })
}

/// Row 1 (White's home row) or row 10 (Black's).
pub fn row_mask(row: usize) -> Cells {
    ((1u128 << SIDE) - 1) << ((row - 1) * SIDE)
}

static KNIGHT_JUMPS: Lazy<[Cells; CELLS]> = Lazy::new(|| {
    let mut table = [0u128; CELLS];
    for (cell, jumps) in table.iter_mut().enumerate() {
        let row = (cell / SIDE) as i32;
        let col = (cell % SIDE) as i32;
        for (dr, dc) in [
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ] {
            let (r, c) = (row + dr, col + dc);
            if (0..SIDE as i32).contains(&r) && (0..SIDE as i32).contains(&c) {
                *jumps |= 1u128 << (r as usize * SIDE + c as usize);
            }
        }
    }
    table
});

/// The cells one knight's jump away from `cell`.
pub fn knight_jumps(cell: u8) -> Cells {
    KNIGHT_JUMPS[cell as usize]
}

/// The cell's colour as on a chessboard (0 or 1): every jump changes it.
pub fn colour(cell: u8) -> u8 {
    (cell / 10 + cell % 10) % 2
}

pub fn cell_name(cell: u8) -> String {
    let col = (b'a' + cell % SIDE as u8) as char;
    format!("{}{}", col, cell / SIDE as u8 + 1)
}

/// Parses `a1`..`j10`.
pub fn parse_cell(text: &str) -> Result<u8, String> {
    match parse_cell_name(text) {
        // Only the plain form: lower case, no leading zero.
        Some((col, row)) if col < SIDE && row < SIDE => {
            let cell = (row * SIDE + col) as u8;
            if cell_name(cell) == text {
                Ok(cell)
            } else {
                Err(format!("'{text}' is not a cell (columns a-j, rows 1-10)"))
            }
        }
        _ => Err(format!("'{text}' is not a cell (columns a-j, rows 1-10)")),
    }
}

/// 11, 22, ..., 99.
pub fn is_double(value: u8) -> bool {
    value >= 11 && value.is_multiple_of(11)
}

/// The value whose removal landing on `value` causes, if its digits differ:
/// 57 -> 75, 7 -> 70 and 30 -> 3 (values below 10 read as two digits). With
/// `single_digit_symmetric` off, values below 10 have none (30 still gives 3).
pub fn symmetric_value(value: u8, single_digit_symmetric: bool) -> Option<u8> {
    let (tens, units) = (value / 10, value % 10);
    if tens == units || (tens == 0 && !single_digit_symmetric) {
        None
    } else {
        Some(units * 10 + tens)
    }
}

/// SplitMix64: a tiny, fully specified generator, so a board seed gives the
/// same board in every language and with every version of our dependencies.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The board of `BoardSeed` `seed`: start from value `i` on cell `i`, then
/// for `i` from 99 down to 1 swap cell `i` with cell `next_u64() % (i + 1)`.
pub fn generate_board(seed: u64) -> [u8; CELLS] {
    let mut values = [0u8; CELLS];
    for (cell, value) in values.iter_mut().enumerate() {
        *value = cell as u8;
    }
    let mut rng = SplitMix64::new(seed);
    for i in (1..CELLS).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        values.swap(i, j);
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_round_trip() {
        for cell in 0..CELLS as u8 {
            assert_eq!(parse_cell(&cell_name(cell)), Ok(cell));
        }
        assert_eq!(cell_name(0), "a1");
        assert_eq!(cell_name(99), "j10");
        for bad in ["k1", "a0", "a11", "a01", "", "a", "1a", "e5x"] {
            assert!(parse_cell(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn knight_jumps_from_corner_and_centre() {
        let corner: Vec<String> = cells_of(knight_jumps(0)).map(cell_name).collect();
        assert_eq!(corner, ["c2", "b3"]);
        assert_eq!(knight_jumps(parse_cell("e5").unwrap_or(0)).count_ones(), 8);
        let total: u32 = (0..CELLS as u8).map(|c| knight_jumps(c).count_ones()).sum();
        // 8 jump directions, each fits (10-1)*(10-2) times.
        assert_eq!(total, 8 * 9 * 8);
    }

    #[test]
    fn symmetric_and_double_values() {
        assert_eq!(symmetric_value(57, true), Some(75));
        assert_eq!(symmetric_value(7, true), Some(70));
        assert_eq!(symmetric_value(7, false), None);
        assert_eq!(symmetric_value(30, false), Some(3));
        assert_eq!(symmetric_value(70, true), Some(7));
        assert_eq!(symmetric_value(0, true), None);
        assert_eq!(symmetric_value(44, true), None);
        assert!(is_double(44) && is_double(99) && !is_double(0) && !is_double(10));
    }

    #[test]
    fn generator_is_a_reproducible_permutation() {
        let board = generate_board(0);
        assert_eq!(board, generate_board(0));
        assert_ne!(board, generate_board(1));
        let mut sorted = board;
        sorted.sort_unstable();
        assert!(sorted.iter().enumerate().all(|(i, &v)| v as usize == i));
        // SplitMix64's first output for seed 0 is a published test vector.
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }
}
