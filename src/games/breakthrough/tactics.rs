//! Breakthrough results proven without search: a win next move, intruders
//! that cannot all be taken, and unstoppable runners racing each other.

use once_cell::sync::Lazy;

use super::board::{Bitboard, Board, Geometry, Move};
use crate::core::Player;

/// For each side and square, the squares in front of a piece there from
/// which an enemy piece could still intercept it. A runner walking straight
/// ahead closes the gap by two ranks per full move while an enemy piece
/// drifts one file per move, so an enemy `d` ranks ahead matters only within
/// `d / 2 + 1` files (that bound already allows the enemy the first move).
/// A piece with nothing at all in its cone walks straight to the goal and
/// nobody can catch or block it.
static CONES: Lazy<[[Bitboard; 64]; 2]> = Lazy::new(|| {
    let mut cones = [[0; 64]; 2];
    #[allow(clippy::needless_range_loop)] // both sides' tables are filled per square
    for square in 0..64usize {
        let (file, rank) = ((square % 8) as i32, (square / 8) as i32);
        for other in 0..64usize {
            let (f, r) = ((other % 8) as i32, (other / 8) as i32);
            if r > rank && (f - file).abs() <= (r - rank) / 2 + 1 {
                cones[0][square] |= 1u64 << other;
            }
            if r < rank && (f - file).abs() <= (rank - r) / 2 + 1 {
                cones[1][square] |= 1u64 << other;
            }
        }
    }
    cones
});

/// The squares in front of `side`'s piece on `square` from which an enemy
/// piece could still stop it (see `CONES`).
pub fn cone(side: Player, square: u32) -> Bitboard {
    CONES[side.index()][square as usize]
}

/// Moves the fastest piece of `side` needs to reach the goal, ignoring
/// everything in its way: a lower bound on how soon `side` can win.
fn fastest_possible(board: &Board, side: Player) -> u32 {
    let pieces = board.pieces[side.index()];
    let front = match side {
        Player::P1 => 63 - pieces.leading_zeros(),
        Player::P2 => pieces.trailing_zeros(),
    };
    to_goal(board.geometry(), side, front)
}

/// Moves a piece of `side` on `square` needs to reach the goal.
fn to_goal(geometry: &Geometry, side: Player, square: u32) -> u32 {
    geometry.rows() as u32 - 1 - geometry.relative_rank(side, square) as u32
}

/// Moves the fastest unstoppable runner of `side` needs, if it has one.
fn unstoppable_runner(board: &Board, side: Player) -> Option<u32> {
    let occupied = board.occupied();
    let mut rest = board.pieces[side.index()];
    let mut best: Option<u32> = None;
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        if cone(side, square) & occupied == 0 {
            let distance = to_goal(board.geometry(), side, square);
            best = Some(best.map_or(distance, |b| b.min(distance)));
        }
    }
    best
}

/// Whether `side` (to move, with no enemy piece one step from its goal) can
/// step a piece onto the rank before the goal where no enemy piece attacks
/// it: nothing can then take it, the opponent has no win in one, and from
/// that rank a diagonal step to the goal is always open, so it wins on the
/// next move.
fn safe_step_to_last_rank(board: &Board, side: Player) -> bool {
    let geometry = board.geometry();
    let rows = geometry.rows() as usize;
    let own = board.pieces[side.index()];
    let enemy = board.pieces[side.other().index()];
    let runners = own & geometry.relative_rank_mask(side, rows - 3);
    if runners == 0 {
        return false;
    }
    let empty_steps = geometry.steps_ahead(side, runners) & !board.occupied();
    let captures = geometry.attacks(side, runners) & enemy;
    let reachable = empty_steps | captures;
    reachable & !geometry.attacks(side.other(), enemy) != 0
}

/// Pieces of the opponent one step from their goal, which the side to move
/// must capture at once.
pub fn intruders(board: &Board) -> Bitboard {
    board.enemy() & board.geometry().last_step_rank(board.side.other())
}

/// See `Game::forced_result`: plies to a win (positive) or loss (negative)
/// that hold whatever either side plays.
pub fn forced_result(board: &Board) -> Option<i32> {
    let us = board.side;
    let them = us.other();
    if board.own() & board.geometry().last_step_rank(us) != 0 {
        return Some(1);
    }
    let intruders = intruders(board);
    if intruders != 0 {
        let capturable = intruders & board.geometry().attacks(us, board.own());
        if intruders.count_ones() > 1 || capturable == 0 {
            return Some(-2);
        }
        return None;
    }
    if safe_step_to_last_rank(board, us) {
        return Some(3);
    }
    if let Some(moves) = unstoppable_runner(board, us) {
        if moves <= fastest_possible(board, them) {
            return Some(2 * moves as i32 - 1);
        }
    }
    if let Some(moves) = unstoppable_runner(board, them) {
        if moves < fastest_possible(board, us) {
            return Some(-2 * moves as i32);
        }
    }
    // Every move allows the opponent's threatened safe step: lost in four.
    (safe_step_to_last_rank(board, them) && answers_to_safe_step(board).is_none()).then_some(-4)
}

/// Whether after `mv` the opponent, with no intruder to take, has a safe step
/// to the rank before its goal: `mv` then loses in four plies.
fn allows_safe_step(board: &Board, mv: Move) -> bool {
    let mut after = board.clone();
    after.make_move(mv);
    intruders(&after) == 0 && safe_step_to_last_rank(&after, after.side)
}

/// The moves that do not lose in four plies to a safe step (see
/// `allows_safe_step`), if the opponent threatens one and some move answers
/// it; `None` when every move may be searched. A move that loses faster
/// than the rest is never the best, and what remains loses in no fewer
/// plies, so proofs within any number of plies keep their verdict.
pub fn answers_to_safe_step(board: &Board) -> Option<Vec<Move>> {
    if intruders(board) != 0 || board.own() & board.geometry().last_step_rank(board.side) != 0 {
        return None;
    }
    if !safe_step_to_last_rank(board, board.side.other()) {
        return None;
    }
    let mut moves = Vec::new();
    board.generate_moves(&mut moves);
    moves.retain(|&mv| !allows_safe_step(board, mv));
    (!moves.is_empty()).then_some(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::notation::parse_fen;

    fn board(fen: &str) -> Board {
        parse_fen(fen, Geometry::STANDARD).expect("test FEN is valid")
    }

    #[test]
    fn a_piece_on_the_seventh_rank_wins_next_move() {
        let b = board("pppp4/P7/8/8/8/8/8/8 w 0 1");
        assert_eq!(forced_result(&b), Some(1));
    }

    #[test]
    fn two_intruders_cannot_both_be_captured() {
        // Black pieces on a2 and h2; White to move cannot take both.
        let b = board("pppp4/8/8/8/8/8/p6p/1PPPPPP1 w 0 1");
        assert_eq!(forced_result(&b), Some(-2));
    }

    #[test]
    fn a_capturable_intruder_is_not_a_loss() {
        // Black on b2 is attacked by White's a1 and c1.
        let b = board("pppp4/8/8/8/8/8/1p6/P1P5 w 0 1");
        assert_eq!(forced_result(&b), None);
    }

    #[test]
    fn an_unstoppable_runner_wins_the_race() {
        // White's e5 has an empty cone; Black's pieces are far from White's home.
        let b = board("pp6/8/8/4P3/8/8/8/8 w 0 1");
        assert_eq!(forced_result(&b), Some(5));
    }

    #[test]
    fn a_safe_step_to_the_rank_before_the_goal_wins_in_three_plies() {
        // e8 guards d7 and f7, but e7 is free.
        let b = board("4p3/8/4P3/8/8/8/8/8 w 0 1");
        assert_eq!(forced_result(&b), Some(3));
        // A capture onto an unguarded square counts too.
        let b = board("2p5/4p3/3P4/8/8/8/8/8 w 0 1");
        assert_eq!(forced_result(&b), Some(3));
    }

    #[test]
    fn a_step_onto_guarded_squares_is_not_proven() {
        let b = board("2ppp1p1/8/4P3/8/8/8/8/8 w 0 1");
        assert_eq!(forced_result(&b), None);
        // Black to move, mirrored: its d3 runner finds c2, d2 and e2 guarded.
        let b = board("8/8/8/8/8/3p4/8/1PPP1P2 b 0 1");
        assert_eq!(forced_result(&b), None);
    }

    #[test]
    fn a_runner_with_a_stopper_in_its_cone_is_not_proven() {
        let b = board("8/8/3p4/4P3/8/8/8/8 w 0 1");
        assert_eq!(forced_result(&b), None);
    }
}
