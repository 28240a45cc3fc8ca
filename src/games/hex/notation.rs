//! Cell names (`a1`, `k11`, `swap`), the position string and the picture.
//!
//! FEN: rows 1..N separated by `/`, each row from column a, runs of empty
//! cells as decimal numbers, `x` Black, `o` White; then a space and the side
//! to move, `b` (or `x`) for Black, `w` (or `o`) for White. The board side is
//! the number of rows. Example, 3x3 with a Black stone on b2, White to move:
//! `3/1x1/3 w`.

use super::board::{Hex, HexMove, HexRules, BLACK, EMPTY, WHITE};
use super::geometry::{geometry, MAX_SIZE};
use crate::core::cell::parse_cell_name;
use crate::core::notation::fen_row;
use crate::core::Player;

/// `a1`-style name of a cell on a board of the given side.
pub fn cell_name(size: usize, cell: usize) -> String {
    let (col, row) = (cell % size, cell / size);
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// Parses `a1`-style cell names (any case) on a board of the given side.
pub fn parse_cell(size: usize, text: &str) -> Result<usize, String> {
    let text = text.trim();
    let (col, row) = parse_cell_name(text)
        .ok_or_else(|| format!("'{text}' is not a cell (expected e.g. a1)"))?;
    if col >= size || row >= size {
        return Err(format!("'{text}' is off the {size}x{size} board"));
    }
    Ok(row * size + col)
}

pub fn format_move(size: usize, mv: HexMove) -> String {
    if mv.is_swap() {
        "swap".to_string()
    } else {
        cell_name(size, mv.0 as usize)
    }
}

pub fn parse_move(size: usize, text: &str) -> Result<HexMove, String> {
    let lower = text.trim().to_ascii_lowercase();
    if lower == "swap" || lower == "swap-pieces" {
        return Ok(HexMove::SWAP);
    }
    parse_cell(size, &lower).map(HexMove::cell)
}

pub fn to_fen(hex: &Hex) -> String {
    let size = hex.size();
    let letter = |stone| match stone {
        EMPTY => None,
        BLACK => Some('x'),
        _ => Some('o'),
    };
    let rows: Vec<String> = (0..size)
        .map(|row| fen_row((0..size).map(|col| letter(hex.stone_at(row * size + col)))))
        .collect();
    let mut out = rows.join("/");
    out.push(' ');
    out.push(if hex.side_to_move_player() == Player::P1 {
        'b'
    } else {
        'w'
    });
    out
}

/// Parses one row of the FEN into stone codes.
fn parse_row(text: &str, row: usize) -> Result<Vec<u8>, String> {
    let mut stones = Vec::new();
    let mut run = String::new();
    let flush = |run: &mut String, stones: &mut Vec<u8>| -> Result<(), String> {
        if !run.is_empty() {
            let n: usize = run
                .parse()
                .map_err(|_| format!("bad number '{run}' in row {}", row + 1))?;
            if n == 0 || n > MAX_SIZE {
                return Err(format!("bad run length {n} in row {}", row + 1));
            }
            stones.extend(std::iter::repeat_n(EMPTY, n));
            run.clear();
        }
        Ok(())
    };
    for ch in text.chars() {
        match ch {
            '0'..='9' => run.push(ch),
            'x' | 'X' | 'o' | 'O' => {
                flush(&mut run, &mut stones)?;
                stones.push(if ch.eq_ignore_ascii_case(&'x') {
                    BLACK
                } else {
                    WHITE
                });
            }
            _ => return Err(format!("unexpected '{ch}' in row {}", row + 1)),
        }
        if stones.len() > MAX_SIZE {
            return Err(format!("row {} is too long", row + 1));
        }
    }
    flush(&mut run, &mut stones)?;
    Ok(stones)
}

pub fn from_fen(fen: &str, rules: &HexRules) -> Result<Hex, String> {
    let mut fields = fen.split_whitespace();
    let board = fields.next().ok_or("empty position string")?;
    let side = fields
        .next()
        .ok_or("missing side to move (b or w) after the board")?;
    if let Some(extra) = fields.next() {
        return Err(format!("unexpected '{extra}' after the side to move"));
    }
    let rows: Vec<&str> = board.split('/').collect();
    let size = rows.len();
    if size > MAX_SIZE {
        return Err(format!("{size} rows: the board side is at most {MAX_SIZE}"));
    }
    let mut stones = Vec::with_capacity(size * size);
    for (row, text) in rows.iter().enumerate() {
        let parsed = parse_row(text, row)?;
        if parsed.len() != size {
            return Err(format!(
                "row {} has {} cells, expected {size} (one per row)",
                row + 1,
                parsed.len()
            ));
        }
        stones.extend(parsed);
    }
    let to_move = match side {
        "b" | "B" | "x" | "X" => Player::P1,
        "w" | "W" | "o" | "O" => Player::P2,
        _ => return Err(format!("side to move '{side}' is not b or w")),
    };
    let position_rules = HexRules {
        board_size: size,
        swap: rules.swap,
    };
    let mut hex = Hex::empty(&position_rules);
    let mut winners = [false, false];
    for (cell, &stone) in stones.iter().enumerate() {
        if stone != EMPTY {
            hex.place_stone(cell, stone);
            if let Some(w) = hex.winner() {
                winners[w.index()] = true;
            }
        }
    }
    if winners[0] && winners[1] {
        return Err("both players are connected".to_string());
    }
    hex.set_side_to_move(to_move);
    let placed = hex.stone_count[0] + hex.stone_count[1];
    hex.ply = placed;
    if winners[0] || winners[1] {
        hex.winner = Some(if winners[0] { Player::P1 } else { Player::P2 });
    }
    Ok(hex)
}

/// Board picture: rows shifted right as they go down, as the rhombus lies.
pub fn render(hex: &Hex) -> String {
    let size = hex.size();
    let letters: String = (0..size)
        .map(|c| format!("{} ", (b'a' + c as u8) as char))
        .collect();
    let mut out = format!("    {}\n", letters.trim_end());
    for row in 0..size {
        out.push_str(&" ".repeat(row));
        out.push_str(&format!("{:>2}  ", row + 1));
        let line: Vec<&str> = (0..size)
            .map(|col| match hex.stone_at(row * size + col) {
                BLACK => "x",
                WHITE => "o",
                _ => ".",
            })
            .collect();
        out.push_str(&line.join(" "));
        out.push_str(&format!("  {}\n", row + 1));
    }
    out.push_str(&" ".repeat(size + 3));
    out.push_str(letters.trim_end());
    out.push('\n');
    out
}

/// Checks that the board side is one the engine supports.
pub fn check_size(size: usize) -> Result<(), String> {
    if (1..=MAX_SIZE).contains(&size) {
        let _ = geometry(size);
        Ok(())
    } else {
        Err(format!("board size {size} is outside 1..{MAX_SIZE}"))
    }
}
