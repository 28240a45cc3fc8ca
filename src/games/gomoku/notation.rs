//! Moves (`h8`: column letter from `a`, row number from 1), the position
//! string, and the picture of the board.

use super::board::{cell_of, coordinates, stone_of, Board, BLACK, EMPTY, MAX_SIZE, MIN_SIZE};
use super::renju::{forbidden_cells, forbidden_kind};
use super::GomokuRules;
use crate::core::cell::parse_cell_name;
use crate::core::notation::fen_row;

pub fn format_cell(cell: usize) -> String {
    let (x, y) = coordinates(cell);
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

pub fn parse_cell(text: &str, size: usize) -> Result<usize, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("empty move".to_string());
    }
    let (x, y) = parse_cell_name(text)
        .ok_or_else(|| format!("'{text}': a move is a column letter and a row number, like h8"))?;
    if x >= size || y >= size {
        return Err(format!("'{text}' is off the {size}x{size} board"));
    }
    Ok(cell_of(x, y))
}

/// Board rows from the top (highest row number) down, runs of empty cells
/// as numbers, `x` Black and `o` White, then the side to move.
pub fn to_fen(board: &Board) -> String {
    let size = board.size();
    let letter = |stone| match stone {
        EMPTY => None,
        _ if stone == stone_of(0) => Some('x'),
        _ => Some('o'),
    };
    let rows: Vec<String> = (0..size)
        .rev()
        .map(|y| fen_row((0..size).map(|x| letter(board.stone(cell_of(x, y))))))
        .collect();
    let side = if board.side() == 0 { 'x' } else { 'o' };
    format!("{} {side}", rows.join("/"))
}

/// Parses a position string; the board size must be the one the rules set.
pub fn from_fen(fen: &str, rules: &GomokuRules) -> Result<Board, String> {
    let mut fields = fen.split_whitespace();
    let placement = fields
        .next()
        .ok_or_else(|| "empty position string".to_string())?;
    let side_field = fields
        .next()
        .ok_or_else(|| "the position string lacks the side to move (x or o)".to_string())?;
    if let Some(extra) = fields.next() {
        return Err(format!("unexpected '{extra}' after the side to move"));
    }
    let side = match side_field {
        "x" | "X" => 0,
        "o" | "O" => 1,
        other => return Err(format!("side to move '{other}' is neither x nor o")),
    };
    let size = rules.size;
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != size {
        return Err(format!(
            "{} rows in the position string, but BoardSize is {size}",
            rows.len()
        ));
    }
    debug_assert!((MIN_SIZE..=MAX_SIZE).contains(&size));
    let mut board = Board::new(size, rules.rule);
    for (row_number, row) in rows.iter().enumerate() {
        let y = size - 1 - row_number;
        let mut x = 0usize;
        let mut digits = String::new();
        let flush = |digits: &mut String, x: &mut usize| -> Result<(), String> {
            if !digits.is_empty() {
                let run: usize = digits
                    .parse()
                    .map_err(|_| format!("bad number in row {}", y + 1))?;
                if run == 0 {
                    return Err(format!("empty run of 0 in row {}", y + 1));
                }
                *x += run;
                digits.clear();
            }
            Ok(())
        };
        for ch in row.chars() {
            if ch.is_ascii_digit() {
                digits.push(ch);
                if digits.len() > 2 {
                    return Err(format!("bad number in row {}", y + 1));
                }
                continue;
            }
            flush(&mut digits, &mut x)?;
            let owner = match ch {
                'x' | 'X' => 0,
                'o' | 'O' => 1,
                other => return Err(format!("unexpected '{other}' in row {}", y + 1)),
            };
            if x >= size {
                return Err(format!("row {} is longer than {size}", y + 1));
            }
            board.put(cell_of(x, y), owner);
            x += 1;
        }
        flush(&mut digits, &mut x)?;
        if x != size {
            return Err(format!("row {} has {x} cells, not {size}", y + 1));
        }
    }
    board.set_side(side);
    let mut winners = [false; 2];
    for y in 0..size {
        for x in 0..size {
            let cell = cell_of(x, y);
            if board.stone(cell) != EMPTY && board.five_through(cell) {
                winners[(board.stone(cell) - 1) as usize] = true;
            }
        }
    }
    match winners {
        [true, true] => return Err("both sides have five in a row".to_string()),
        [true, false] => board.set_winner(Some(0)),
        [false, true] => board.set_winner(Some(1)),
        [false, false] => {}
    }
    Ok(board)
}

/// How `render` shows a cell where Black, to move, may not play (renju).
pub const FORBIDDEN_MARK: char = '*';

/// The board as text, row numbers on the left and column letters below;
/// under renju with Black to move, its forbidden points marked.
pub fn render(board: &Board, last_move: Option<usize>) -> String {
    let size = board.size();
    let forbidden = if board.side() == BLACK {
        forbidden_cells(board)
    } else {
        Vec::new()
    };
    let mut out = String::new();
    for y in (0..size).rev() {
        out.push_str(&format!("{:>2} ", y + 1));
        for x in 0..size {
            let cell = cell_of(x, y);
            let symbol = match board.stone(cell) {
                EMPTY if forbidden.contains(&cell) => FORBIDDEN_MARK,
                EMPTY => '.',
                stone if stone == stone_of(0) => 'x',
                _ => 'o',
            };
            if last_move == Some(cell) {
                out.push_str(&format!("({symbol})"));
            } else {
                out.push_str(&format!(" {symbol} "));
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str("   ");
    for x in 0..size {
        out.push(' ');
        out.push((b'a' + x as u8) as char);
        out.push(' ');
    }
    out.push('\n');
    out
}

/// The line under the picture naming Black's forbidden points and why
/// (renju, Black to move); empty otherwise.
pub fn forbidden_legend(board: &Board) -> String {
    if board.side() != BLACK {
        return String::new();
    }
    let points: Vec<String> = forbidden_cells(board)
        .into_iter()
        .filter_map(|cell| {
            forbidden_kind(board, cell)
                .map(|kind| format!("{} ({})", format_cell(cell), kind.name()))
        })
        .collect();
    if points.is_empty() {
        return String::new();
    }
    format!(
        "Forbidden to Black ({FORBIDDEN_MARK}): {}\n",
        points.join(", ")
    )
}
