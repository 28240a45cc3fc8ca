//! Board cells in the project's notation (`h8`: column letter from `a`, row
//! number from 1), and the 0-based pairs the GTP and Gomocup dialects use.

/// `h8` -> (column 7, row 7).
pub fn parse_cell(text: &str) -> Option<(u32, u32)> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: u32 = digits.parse().ok()?;
    if row == 0 {
        return None;
    }
    Some((letter as u32 - 'a' as u32, row - 1))
}

/// (column 7, row 7) -> `h8`.
pub fn cell_name(column: u32, row: u32) -> Option<String> {
    let letter = char::from_u32('a' as u32 + column).filter(|c| c.is_ascii_lowercase())?;
    Some(format!("{letter}{}", row + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip_and_nonsense_is_refused() {
        assert_eq!(parse_cell("h8"), Some((7, 7)));
        assert_eq!(parse_cell("A12"), Some((0, 11)));
        assert_eq!(cell_name(24, 24).as_deref(), Some("y25"));
        for bad in ["", "h", "8h", "h0", "h-1", "hh"] {
            assert_eq!(parse_cell(bad), None, "{bad}");
        }
        assert_eq!(cell_name(26, 0), None);
    }
}
