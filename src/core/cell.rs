//! Cell names as every board of the project writes them: a column letter
//! from `a`, then a row number from 1 (`a1`, `h8`, `y25`). The one reader
//! of that form; each game checks that the cell is on its board.

use nom::character::complete::{satisfy, u8 as row_number};
use nom::combinator::{all_consuming, recognize, verify};
use nom::sequence::pair;
use nom::IResult;

/// The largest column a letter can name (`z`).
pub const MAX_COLUMNS: usize = 26;

fn letter_and_row(input: &str) -> IResult<&str, (char, u8)> {
    let digits = verify(recognize(row_number), |d: &str| d.len() <= 2);
    let (input, (letter, row)) = pair(satisfy(|c| c.is_ascii_alphabetic()), digits)(input)?;
    let row = row.parse().unwrap_or(0);
    Ok((input, (letter, row)))
}

/// `h8` (any case) -> (column 7, row 7), both from 0. Rows have one or two
/// digits and start at 1; `None` for anything else.
pub fn parse_cell_name(text: &str) -> Option<(usize, usize)> {
    let (_, (letter, row)) = all_consuming(letter_and_row)(text.trim()).ok()?;
    if row == 0 {
        return None;
    }
    let column = usize::from(letter.to_ascii_lowercase() as u8 - b'a');
    Some((column, usize::from(row) - 1))
}

/// (column 7, row 7) -> `h8`; `None` past column `z`.
pub fn cell_name(column: usize, row: usize) -> Option<String> {
    let letter = u8::try_from(column)
        .ok()
        .filter(|&c| usize::from(c) < MAX_COLUMNS)
        .map(|c| char::from(b'a' + c))?;
    Some(format!("{letter}{}", row + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip_and_nonsense_is_refused() {
        assert_eq!(parse_cell_name("h8"), Some((7, 7)));
        assert_eq!(parse_cell_name("A12"), Some((0, 11)));
        assert_eq!(parse_cell_name("a01"), Some((0, 0)));
        assert_eq!(cell_name(24, 24).as_deref(), Some("y25"));
        for bad in ["", "h", "8h", "h0", "h-1", "hh", "h123", "h8x", "é1"] {
            assert_eq!(parse_cell_name(bad), None, "{bad}");
        }
        assert_eq!(cell_name(26, 0), None);
        for column in 0..MAX_COLUMNS {
            for row in 0..99 {
                let name = cell_name(column, row).unwrap_or_default();
                assert_eq!(parse_cell_name(&name), Some((column, row)));
            }
        }
    }
}
