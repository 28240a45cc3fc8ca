//! Opening policy under the pie rule, on boards too large to solve.
//!
//! Hex is a first-player win, so with the pie rule the first move should be
//! as close to balanced as possible and the answer to it is a judgement of
//! its strength. On 6x6 to 8x8, where every opening is solved
//! (`proving::published_first_player_wins`, 6x6 proven again by `hex
//! solve 6`), the swap follows the map. On the sizes of `swap.txt` it
//! follows the first player's self-play score of each first stone
//! (`scripts/hex-swap-stats`): swap what scores at least half, and open
//! with the unswapped stone that scores best. Elsewhere the pattern of the
//! solved boards stands in: first moves off the border win (so they are
//! swapped), most border moves lose (so they are not), and a stone on the
//! opponent's border a few cells from the corners is the classic
//! near-balanced opening.

use once_cell::sync::Lazy;

use super::board::{Hex, HexMove, BLACK};
use super::proving::published_first_player_wins;
use crate::core::Player;

/// Boards below this side are left to the search, which can solve them.
pub const POLICY_MIN_SIZE: usize = 6;

/// The first player's self-play score (percent) of each first stone, by
/// board size, cells in index order (row 1 from column a first).
struct SwapTable {
    size: usize,
    percent: Vec<u8>,
}

static SWAP_TABLES: Lazy<Vec<SwapTable>> = Lazy::new(|| {
    parse_swap_tables(include_str!("swap.txt")).unwrap_or_else(|e| panic!("swap.txt: {e}"))
});

/// `size N` then N lines of N percentages, row 1 first; `#` comments.
fn parse_swap_tables(text: &str) -> Result<Vec<SwapTable>, String> {
    let mut tables: Vec<SwapTable> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(size) = line.strip_prefix("size ") {
            let size = size
                .trim()
                .parse()
                .map_err(|_| format!("line {}: bad size", number + 1))?;
            tables.push(SwapTable {
                size,
                percent: Vec::new(),
            });
            continue;
        }
        let table = tables
            .last_mut()
            .ok_or_else(|| format!("line {}: a row before any size", number + 1))?;
        for word in line.split_whitespace() {
            let value: u8 = word
                .parse()
                .ok()
                .filter(|&v| v <= 100)
                .ok_or_else(|| format!("line {}: '{word}' is not a percentage", number + 1))?;
            table.percent.push(value);
        }
    }
    match tables.iter().find(|t| t.percent.len() != t.size * t.size) {
        Some(t) => Err(format!("size {} has {} cells", t.size, t.percent.len())),
        None => Ok(tables),
    }
}

fn swap_table(size: usize) -> Option<&'static SwapTable> {
    SWAP_TABLES.iter().find(|t| t.size == size)
}

/// Whether White should take Black's first stone on `cell`, where a solved
/// map or a self-play table knows.
pub fn known_swap(size: usize, cell: usize) -> Option<bool> {
    published_first_player_wins(size, cell)
        .or_else(|| swap_table(size).map(|t| 2 * t.percent[cell] as usize >= 100))
}

fn on_border(hex: &Hex, cell: usize) -> bool {
    let n = hex.size();
    let (col, row) = hex.geometry().col_row(cell);
    col == 0 || row == 0 || col == n - 1 || row == n - 1
}

/// Black's first stones: the best scoring unswapped cells of the table, or
/// a3, a4 and their half-turn images (White's border, third and fourth
/// rows from an acute corner).
fn first_stones(hex: &Hex) -> Vec<HexMove> {
    let n = hex.size();
    if let Some(table) = swap_table(n) {
        let kept = |v: &u8| 2 * (*v as usize) < 100;
        if let Some(best) = table.percent.iter().copied().filter(kept).max() {
            return (0..n * n)
                .filter(|&cell| table.percent[cell] == best)
                .map(HexMove::cell)
                .collect();
        }
    }
    let geo = hex.geometry();
    let mut moves = Vec::new();
    for row in [2, 3] {
        moves.push(HexMove::cell(geo.cell(0, row)));
        moves.push(HexMove::cell(geo.cell(n - 1, n - 1 - row)));
    }
    moves
}

/// The moves the policy allows here, or `None` when it has nothing to say.
pub fn policy_moves(hex: &Hex) -> Option<Vec<HexMove>> {
    let n = hex.size();
    if !hex.swap_rule || n < POLICY_MIN_SIZE || hex.winner().is_some() {
        return None;
    }
    if hex.stones_on_board() == 0 && hex.side_to_move_player() == Player::P1 {
        return Some(first_stones(hex));
    }
    if hex.swap_is_legal() {
        let stone = hex.occupied_cells().find(|&c| hex.stone_at(c) == BLACK)?;
        let swap = known_swap(n, stone).unwrap_or(!on_border(hex, stone));
        return Some(if swap {
            vec![HexMove::SWAP]
        } else {
            hex.empty_cells().map(HexMove::cell).collect()
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_swap_table_is_complete_and_half_turn_symmetric() {
        for table in SWAP_TABLES.iter() {
            let cells = table.size * table.size;
            for cell in 0..cells {
                assert_eq!(
                    table.percent[cell],
                    table.percent[cells - 1 - cell],
                    "size {} cell {cell}",
                    table.size
                );
            }
        }
    }

    #[test]
    fn a_table_with_a_missing_cell_or_a_bad_number_is_refused() {
        assert!(parse_swap_tables("size 2\n10 20\n30\n").is_err());
        assert!(parse_swap_tables("size 2\n10 20\n30 101\n").is_err());
        assert!(parse_swap_tables("10 20\n").is_err());
        let tables = parse_swap_tables("# two\nsize 2\n10 60 # a1 b1\n60 10\n").unwrap();
        assert_eq!(tables[0].percent, vec![10, 60, 60, 10]);
    }

    #[test]
    fn swap_follows_the_solved_map_then_the_table_then_the_border() {
        // 7x7 a1 loses for the first player (published), the centre wins.
        assert_eq!(known_swap(7, 0), Some(false));
        assert_eq!(known_swap(7, 24), Some(true));
        for table in SWAP_TABLES.iter() {
            let cells = table.size * table.size;
            for cell in 0..cells {
                let expected = table.percent[cell] >= 50;
                if published_first_player_wins(table.size, cell).is_none() {
                    assert_eq!(known_swap(table.size, cell), Some(expected));
                }
            }
        }
    }
}
