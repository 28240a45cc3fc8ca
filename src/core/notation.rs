//! The board part of a FEN as every board game of the project writes it: a
//! row of cells, each a piece's letter, with runs of empty cells written as
//! their count (`2x3o`).

/// One row: each cell's letter, `None` for an empty cell.
pub fn fen_row(cells: impl IntoIterator<Item = Option<char>>) -> String {
    let mut row = String::new();
    let mut empty_run = 0;
    for cell in cells {
        match cell {
            None => empty_run += 1,
            Some(letter) => {
                push_run(&mut row, empty_run);
                empty_run = 0;
                row.push(letter);
            }
        }
    }
    push_run(&mut row, empty_run);
    row
}

/// One row drawn with `.` for an empty cell, as tests and tools write boards.
pub fn fen_row_of_dots(cells: &str) -> String {
    fen_row(cells.chars().map(|c| (c != '.').then_some(c)))
}

/// The rows of a FEN's board part (rows split by `/`), each cell's letter
/// and `None` for an empty one: what `fen_row` wrote, read back.
pub fn fen_rows(placement: &str) -> Vec<Vec<Option<char>>> {
    placement
        .split('/')
        .map(|row| {
            let mut cells = Vec::new();
            let mut run = 0usize;
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(digit) => run = run * 10 + digit as usize,
                    None => {
                        cells.extend(std::iter::repeat_n(None, run));
                        run = 0;
                        cells.push(Some(c));
                    }
                }
            }
            cells.extend(std::iter::repeat_n(None, run));
            cells
        })
        .collect()
}

fn push_run(row: &mut String, empty_run: usize) {
    if empty_run > 0 {
        row.push_str(&empty_run.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_runs_become_their_counts() {
        assert_eq!(fen_row_of_dots("..x...o"), "2x3o");
        assert_eq!(fen_row_of_dots("xo.."), "xo2");
        assert_eq!(fen_row_of_dots("..........."), "11");
        assert_eq!(fen_row_of_dots(""), "");
        assert_eq!(fen_row([Some('P'), None, Some('p')]), "P1p");
    }

    #[test]
    fn rows_read_back_what_fen_row_wrote() {
        let rows = fen_rows("2x3o/11/P1p");
        assert_eq!(
            rows[0],
            [None, None, Some('x'), None, None, None, Some('o')]
        );
        assert_eq!(rows[1], vec![None; 11]);
        assert_eq!(rows[2], [Some('P'), None, Some('p')]);
        for row in &rows {
            assert_eq!(fen_rows(&fen_row(row.iter().copied()))[0], *row);
        }
    }
}
