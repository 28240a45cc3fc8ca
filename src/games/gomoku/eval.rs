//! Static evaluation from the threat values both sides hold on the empty
//! cells, which make/unmake keep summed.

use super::board::Board;
use super::pattern::{T_DOUBLE_THREE, T_FOUR_THREE, T_OPEN_FOUR, T_OPEN_THREE};
use crate::core::{EvalTerm, Score};

/// The side to move plays its threats first, so they weigh more (in 1/16).
const INITIATIVE_WEIGHT: i32 = 20;
/// A move that makes a four-three or two open threes wins unless the
/// opponent can force something first.
const WINNING_SHAPE_BONUS: i32 = 600;
/// Value sums are in shape units; this brings an open three near 200.
const SCALE_DIVISOR: i32 = 8;

fn shape_terms(board: &Board, side: usize) -> i32 {
    board.value_sum(side)
}

/// Bonus for the side to move holding a winning shape on the board while
/// the opponent has no open three to answer with.
fn initiative_bonus(board: &Board) -> i32 {
    let me = board.side();
    let them = me ^ 1;
    let their_pressure = board.count_at_least(them, T_OPEN_FOUR) > 0;
    if their_pressure {
        return 0;
    }
    let winning = board.threat_count(me, T_FOUR_THREE) + board.threat_count(me, T_DOUBLE_THREE);
    if winning > 0 {
        WINNING_SHAPE_BONUS
    } else {
        (board.threat_count(me, T_OPEN_THREE) as i32).min(4) * 15
    }
}

pub fn evaluate(board: &Board) -> Score {
    let me = board.side();
    let mine = shape_terms(board, me) * INITIATIVE_WEIGHT / 16;
    let theirs = shape_terms(board, me ^ 1);
    (mine - theirs) / SCALE_DIVISOR + initiative_bonus(board)
}

pub fn terms(board: &Board) -> Vec<EvalTerm> {
    let me = board.side();
    let per_side = |side: usize| shape_terms(board, side) / SCALE_DIVISOR;
    let mut initiative = [0; 2];
    initiative[me] = initiative_bonus(board);
    vec![
        EvalTerm {
            name: "shapes".to_string(),
            p1: per_side(0),
            p2: per_side(1),
        },
        EvalTerm {
            name: "initiative".to_string(),
            p1: initiative[0],
            p2: initiative[1],
        },
    ]
}
