//! Opening policy under the pie rule, on boards too large to solve.
//!
//! Hex is a first-player win, so with the pie rule the first move should be
//! as close to balanced as possible and the answer to it is a judgement of
//! its strength. On 6x6 to 8x8, where every opening is solved
//! (`proving::published_first_player_wins`, 6x6 and 7x7 proven again by
//! `bg-hex solve`), the swap follows the map. On 9x9 to 19x19 it follows the
//! tables in `swap-table.txt`, estimated from self-play by
//! `scripts/hex-swap-table`. Beyond them a rule the maps bear out: first
//! moves off the border are swapped, border moves are not.

use super::board::{Hex, HexMove, BLACK};
use super::proving::published_first_player_wins;
use crate::core::Player;
use once_cell::sync::Lazy;

/// Boards below this side are left to the search, which can solve them.
pub const POLICY_MIN_SIZE: usize = 6;

/// `(size, one flag per cell: White swaps that first stone)`, row by row.
static SWAP_TABLES: Lazy<Vec<(usize, Vec<bool>)>> =
    Lazy::new(|| match parse_swap_tables(include_str!("swap-table.txt")) {
        Ok(tables) => tables,
        Err(e) => {
            log::warn!("swap-table.txt: {e}; the border rule decides instead");
            Vec::new()
        }
    });

/// Reads the `size N` blocks of N rows of `W` (swap) and `l` (play on).
pub fn parse_swap_tables(text: &str) -> Result<Vec<(usize, Vec<bool>)>, String> {
    let mut tables: Vec<(usize, Vec<bool>)> = Vec::new();
    let lines = text.lines().map(str::trim);
    for (number, line) in lines
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
    {
        if let Some(size) = line.strip_prefix("size ") {
            let size = size
                .parse()
                .map_err(|_| format!("line {}: bad size", number + 1))?;
            tables.push((size, Vec::with_capacity(size * size)));
            continue;
        }
        let (size, cells) = tables
            .last_mut()
            .ok_or_else(|| format!("line {}: a row before any `size`", number + 1))?;
        if line.len() != *size || cells.len() + line.len() > *size * *size {
            return Err(format!(
                "line {}: not a row of the {size}x{size} table",
                number + 1
            ));
        }
        for mark in line.chars() {
            match mark {
                'W' => cells.push(true),
                'l' => cells.push(false),
                other => return Err(format!("line {}: `{other}` is neither W nor l", number + 1)),
            }
        }
    }
    match tables
        .iter()
        .find(|(size, cells)| cells.len() != size * size)
    {
        Some((size, _)) => Err(format!("the {size}x{size} table is short")),
        None => Ok(tables),
    }
}

/// Whether White should swap a first stone on `cell` of an N x N board:
/// the published map, then the self-play table, then the border rule.
pub fn swap_first_stone(hex: &Hex, cell: usize) -> bool {
    let n = hex.size();
    if let Some(wins) = published_first_player_wins(n, cell) {
        return wins;
    }
    if let Some((_, cells)) = SWAP_TABLES.iter().find(|(size, _)| *size == n) {
        return cells[cell];
    }
    !on_border(hex, cell)
}

fn on_border(hex: &Hex, cell: usize) -> bool {
    let n = hex.size();
    let (col, row) = hex.geometry().col_row(cell);
    col == 0 || row == 0 || col == n - 1 || row == n - 1
}

/// Black's first stone: on White's border, on the third or fourth row from
/// an acute corner (a3, a4 and their half-turn images), the classic
/// near-balanced opening; where the swap rule would take those, every
/// stone it leaves.
fn first_stones(hex: &Hex) -> Vec<HexMove> {
    let n = hex.size();
    let geo = hex.geometry();
    let classic = [2, 3]
        .into_iter()
        .flat_map(|row| [geo.cell(0, row), geo.cell(n - 1, n - 1 - row)])
        .filter(|&cell| !swap_first_stone(hex, cell));
    let mut moves: Vec<HexMove> = classic.map(HexMove::cell).collect();
    if moves.is_empty() {
        moves = hex
            .empty_cells()
            .filter(|&c| !swap_first_stone(hex, c))
            .map(HexMove::cell)
            .collect();
    }
    moves
}

/// The moves the policy allows here, or `None` when it has nothing to say.
pub fn policy_moves(hex: &Hex) -> Option<Vec<HexMove>> {
    if !hex.swap_rule || hex.size() < POLICY_MIN_SIZE || hex.winner().is_some() {
        return None;
    }
    if hex.stones_on_board() == 0 && hex.side_to_move_player() == Player::P1 {
        return Some(first_stones(hex)).filter(|moves| !moves.is_empty());
    }
    if hex.swap_is_legal() {
        let stone = hex.occupied_cells().find(|&c| hex.stone_at(c) == BLACK)?;
        return Some(if swap_first_stone(hex, stone) {
            vec![HexMove::SWAP]
        } else {
            hex.empty_cells().map(HexMove::cell).collect()
        });
    }
    None
}
