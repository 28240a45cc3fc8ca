//! Opening policy under the pie rule, on boards too large to solve.
//!
//! Hex is a first-player win, so with the pie rule the first move should be
//! as close to balanced as possible and the answer to it is a judgement of
//! its strength. Solved boards up to 9x9 show the pattern this follows:
//! first moves off the border win (so they are swapped), and most border
//! moves lose (so they are not); a stone on the opponent's border a few
//! cells from the corners is the classic near-balanced opening. On 6x6 to
//! 8x8, where every opening is solved (`proving::published_first_player_wins`,
//! 6x6 proven again by `hex solve 6`), the swap follows the map instead.

use super::board::{Hex, HexMove, BLACK};
use super::proving::published_first_player_wins;
use crate::core::Player;

/// Boards below this side are left to the search, which can solve them.
pub const POLICY_MIN_SIZE: usize = 6;

fn on_border(hex: &Hex, cell: usize) -> bool {
    let n = hex.size();
    let (col, row) = hex.geometry().col_row(cell);
    col == 0 || row == 0 || col == n - 1 || row == n - 1
}

/// The moves the policy allows here, or `None` when it has nothing to say.
pub fn policy_moves(hex: &Hex) -> Option<Vec<HexMove>> {
    let n = hex.size();
    if !hex.swap_rule || n < POLICY_MIN_SIZE || hex.winner().is_some() {
        return None;
    }
    if hex.stones_on_board() == 0 && hex.side_to_move_player() == Player::P1 {
        // Black's first stone on White's border, on the third or fourth
        // row from an acute corner (a3, a4 and their half-turn images).
        let geo = hex.geometry();
        let mut moves = Vec::new();
        for row in [2, 3] {
            moves.push(HexMove::cell(geo.cell(0, row)));
            moves.push(HexMove::cell(geo.cell(n - 1, n - 1 - row)));
        }
        return Some(moves);
    }
    if hex.swap_is_legal() {
        let stone = hex.occupied_cells().find(|&c| hex.stone_at(c) == BLACK)?;
        // Where every opening is solved, swap exactly the winning ones.
        if let Some(wins) = published_first_player_wins(n, stone) {
            return Some(if wins {
                vec![HexMove::SWAP]
            } else {
                hex.empty_cells().map(HexMove::cell).collect()
            });
        }
        if !on_border(hex, stone) {
            return Some(vec![HexMove::SWAP]);
        }
        return Some(hex.empty_cells().map(HexMove::cell).collect());
    }
    None
}
