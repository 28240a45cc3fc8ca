//! Exact endgames. Once the cells both knights can still reach are few, the
//! rest of the game is solved outright: the best difference of future gains
//! for the side to move, by a full minimax over the remaining moves with a
//! memo kept by the search thread's knowledge. The search receives the
//! result through `forced_result` as a win or a loss in a number of plies; a
//! proven draw is left to the search.

use std::collections::HashMap;

use super::board::{bit, Cells, NO_CELL};
use super::eval::flood;
use super::position::{difference_key, Cavalo, Move};
use crate::core::{Deadline, Player};

/// Solve when the knights' regions hold at most this many cells together.
pub const SOLVE_REGION_CELLS: u32 = 14;
/// Give up on a solve that needs more positions than this.
const SOLVE_BUDGET: u32 = 40_000;
/// Nodes between two looks at the search's deadline.
const CLOCK_INTERVAL: u32 = 1024;
/// Memo entries kept before the memo is cleared: about 50 MB at most (24
/// bytes an entry and a control byte, in a table twice the entries' count).
const MEMO_LIMIT: usize = 1 << 20;

/// Exact future of a position: the side to move's gains minus the other's,
/// with best play by both, and the number of plies to the end of that line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    pub future: i32,
    pub plies: u32,
}

/// Solved positions, and positions whose solve ran out of budget (`None`),
/// so that a search does not try them again at every node. Its keys leave
/// out the scores, so that one solve serves every line that reaches the
/// same board.
#[derive(Debug, Default)]
pub struct EndgameMemo {
    known: HashMap<u64, Option<Solved>>,
}

/// Cells either knight could ever land on: the flood of knight jumps from
/// each knight over the cells still on the board. Stops early, returning
/// `None`, once more than `limit` cells are found.
pub fn contested_cells(position: &Cavalo, limit: u32) -> Option<Cells> {
    let present = position.present_cells();
    if present.count_ones() <= limit {
        return Some(present);
    }
    let mut union = 0;
    for player in [Player::P1, Player::P2] {
        if let Some(knight) = position.knight(player) {
            union = flood(knight, present, union, limit);
            if union.count_ones() > limit {
                return None;
            }
        }
    }
    Some(union)
}

/// The memo key: the position without its scores (the future does not
/// depend on them), plus the rules that change the moves.
pub(super) fn memo_key(position: &Cavalo) -> u64 {
    let scores = position.scores();
    let rules = position.rules();
    position.hash
        ^ difference_key(scores[0] - scores[1])
        ^ (u64::from(rules.attack_rule) * 0x5bd1_e995_1234_5677)
        ^ (u64::from(rules.single_digit_symmetric) * 0x27d4_eb2f_1656_67c5)
}

/// Removing a double no knight can reach (outside `relevant`) changes
/// nothing: one such choice per landing stands for all of them. Doubles have
/// no symmetric value, so the choice has no other effect.
pub fn drop_equivalent_double_choices(relevant: Cells, moves: &mut Vec<Move>) {
    let mut seen_irrelevant: Cells = 0;
    moves.retain(|m| {
        if m.removes == NO_CELL || relevant & bit(m.removes) != 0 {
            true
        } else if seen_irrelevant & bit(m.to) != 0 {
            false
        } else {
            seen_irrelevant |= bit(m.to);
            true
        }
    });
}

/// Solves the position if it is small enough, within the budget and before
/// `deadline`.
pub fn solve(position: &Cavalo, memo: &mut EndgameMemo, deadline: &Deadline) -> Option<Solved> {
    if position.in_placement() || position.outcome().is_some() {
        return None;
    }
    let relevant = contested_cells(position, SOLVE_REGION_CELLS)?;
    if memo.known.len() > MEMO_LIMIT {
        memo.known.clear();
    }
    let root_key = memo_key(position);
    if let Some(&known) = memo.known.get(&root_key) {
        return known;
    }
    let mut budget = Budget {
        nodes_left: SOLVE_BUDGET,
        timed_out: false,
        deadline,
    };
    // The solver plays its lines on a copy: the caller's position is the
    // search's, and the solve is rare next to the calls answered above.
    let mut line = position.clone();
    let solved = solve_inner(&mut line, relevant, &mut memo.known, &mut budget);
    // A solve cut short by the clock may succeed in the next search.
    if solved.is_none() && !budget.timed_out {
        memo.known.insert(root_key, None);
    }
    solved
}

/// What a solve may still spend: nodes, and the search's time.
struct Budget<'a> {
    nodes_left: u32,
    timed_out: bool,
    deadline: &'a Deadline,
}

impl Budget<'_> {
    /// Takes one node; false once the nodes or the search's time run out.
    /// The clock is read at the first node and every CLOCK_INTERVAL after.
    fn spend(&mut self) -> bool {
        if self.nodes_left == 0 {
            return false;
        }
        let first_of_interval = (SOLVE_BUDGET - self.nodes_left).is_multiple_of(CLOCK_INTERVAL);
        self.nodes_left -= 1;
        if first_of_interval && self.deadline.passed() {
            self.timed_out = true;
            self.nodes_left = 0;
        }
        !self.timed_out
    }
}

fn solve_inner(
    position: &mut Cavalo,
    relevant: Cells,
    memo: &mut HashMap<u64, Option<Solved>>,
    budget: &mut Budget<'_>,
) -> Option<Solved> {
    if position.outcome().is_some() {
        return Some(Solved {
            future: 0,
            plies: 0,
        });
    }
    let key = memo_key(position);
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    if !budget.spend() {
        return None;
    }
    let mut moves = Vec::new();
    position.generate(&mut moves);
    drop_equivalent_double_choices(relevant, &mut moves);
    let mut best: Option<Solved> = None;
    for mv in moves {
        let gain = gain_of(position, mv);
        position.make(mv);
        let child = solve_inner(position, relevant, memo, budget);
        position.unmake(mv);
        let child = child?;
        let candidate = Solved {
            future: gain - child.future,
            plies: child.plies + 1,
        };
        if best.is_none_or(|b| better(candidate, b)) {
            best = Some(candidate);
        }
    }
    let best = best?;
    memo.insert(key, Some(best));
    Some(best)
}

/// A larger future; among equal ones, a shorter game.
fn better(a: Solved, b: Solved) -> bool {
    a.future > b.future || (a.future == b.future && a.plies < b.plies)
}

/// What a move adds to the mover's score.
pub(super) fn gain_of(position: &Cavalo, mv: Move) -> i32 {
    if mv.is_pass() {
        0
    } else {
        position.landing_effects(mv).0
    }
}

/// The solved result for `forced_result`: plies to a win (positive) or a
/// loss (negative) for the side to move; `None` for a draw or no solve.
pub fn forced_result(
    position: &Cavalo,
    memo: &mut EndgameMemo,
    deadline: &Deadline,
) -> Option<i32> {
    let solved = solve(position, memo, deadline)?;
    let scores = position.scores();
    let mover = position.side_to_move().index();
    let final_difference = scores[mover] - scores[1 - mover] + solved.future;
    let plies = solved.plies.max(1) as i32;
    match final_difference.signum() {
        1 => Some(plies),
        -1 => Some(-plies),
        _ => None,
    }
}
