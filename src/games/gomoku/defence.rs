//! Defence against a VCF the opponent holds without showing it: no five
//! and no open four to make, yet a win by fours if we let them move. A
//! stone of ours off their winning line leaves every four of it a four and
//! every reply forced, so only the cells of that line (and our own fours,
//! which take the move from them) can hold.

use super::board::Board;
use super::pattern::{BLOCKED_THREE, FOUR, T_FIVE};
use super::threats::{add_line_cells, has_open_four, playable_fours};
use super::vcf::VcfSolver;
use super::Move;

/// The moves that may still hold when the opponent of the side to move has
/// a VCF found within `budget` nodes and no five or open four to make
/// (those are answered elsewhere): our fours and the cells that spoil their
/// line. `None` when there is no such VCF. `board` is left as it was.
pub fn moves_against_hidden_vcf(
    board: &mut Board,
    vcf: &mut VcfSolver,
    budget: u32,
) -> Option<Vec<Move>> {
    let me = board.side();
    let them = me ^ 1;
    if board.winner().is_some()
        || board.threat_count(them, T_FIVE) > 0
        || board.threat_count(me, T_FIVE) > 0
        || has_open_four(board, them)
    {
        return None;
    }
    board.pass();
    let line = vcf.find_line(board, budget);
    let defences = line.map(|line| line_defences(board, &line));
    board.pass();
    let mut moves = defences?;
    playable_fours(board, me, &mut moves);
    moves.retain(|&mv| !board.is_forbidden_to(me, mv as usize));
    moves.sort_unstable();
    moves.dedup();
    Some(moves)
}

/// The empty cells whose stone for the defender breaks `line`, played from
/// `board` with the attacker to move: its moves; around the last one (an
/// open four or a double five), the cells of its fours; and around each
/// forced reply, the cells that would let the reply make a four of the
/// defender's own, which the attacker would have to answer.
fn line_defences(board: &mut Board, line: &[usize]) -> Vec<Move> {
    let attacker = board.side();
    let defender = attacker ^ 1;
    let mut cells = Vec::new();
    for (index, &cell) in line.iter().enumerate() {
        let is_reply = index % 2 == 1;
        let (side, reach_from) = if is_reply {
            (defender, BLOCKED_THREE)
        } else {
            (attacker, FOUR)
        };
        let is_last = index + 1 == line.len();
        if is_reply || is_last {
            add_line_cells(board, side, cell, reach_from, &mut cells);
        }
        cells.push(cell as Move);
        board.play(cell);
    }
    for &cell in line.iter().rev() {
        board.unplay(cell);
    }
    cells
}
