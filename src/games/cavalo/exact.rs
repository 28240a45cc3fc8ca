//! The exact solver: whether the side to move wins, draws or loses with best
//! play to the very end of the game, found by null-window alpha-beta over
//! the *future* score difference (what the mover will still gain minus what
//! the other will gain).
//!
//! Only the sign of the final difference matters, so each question asked is
//! a yes/no one ("can the mover gain more than t?"), which prunes far more
//! than searching the exact score. Three things make it fast:
//! - a table of bounds on the future difference, keyed by the board without
//!   the scores (the future does not depend on them), which the search
//!   thread's knowledge keeps between moves;
//! - optimistic bounds: a knight can gain at most the values of the cells
//!   its jumps can still reach, and its landings alternate between the two
//!   kinds of cells (as on a chessboard), so a node whose bound cannot cross
//!   the threshold is cut at once;
//! - removing a double no knight can reach is one choice, not many.

use std::time::Duration;

use super::board::{bit, cells_of, knight_jumps, Cells, NO_CELL};
use super::endgame::{drop_equivalent_double_choices, gain_of, memo_key};
use super::eval::{flood, value_sum};
use super::position::{Cavalo, Move};
use crate::core::{Deadline, Player};

/// A timed search tries to solve only positions with at most this many
/// cells left when it has at least this long for the proof, or with at most
/// 64 cells. Fewer cells, far fewer nodes: at 2.6 million nodes a second,
/// `bg-cavalo-tools solvebench 12 0 CELLS` proves most of its positions within
/// these times (typical proofs: 30 thousand nodes at 64 cells, 70 thousand at
/// 68 and 70, a few hundred thousand at 72 and 74, 3 million at 76, 6 at 78,
/// 10 to 25 million at 80). A solve that cannot finish only takes time from
/// the search.
const CELLS_BY_SOLVE_TIME: [(Duration, u32); 8] = [
    (Duration::from_millis(4000), 80),
    (Duration::from_millis(1500), 78),
    (Duration::from_millis(400), 76),
    (Duration::from_millis(200), 74),
    (Duration::from_millis(90), 72),
    (Duration::from_millis(35), 70),
    (Duration::from_millis(18), 68),
    (Duration::from_millis(8), 66),
];
const CELLS_ALWAYS_TRIED: u32 = 64;

/// The most cells a solve with `time` for its proof is tried on (no limit
/// counts as the longest time).
pub fn most_cells_to_try(time: Option<Duration>) -> u32 {
    CELLS_BY_SOLVE_TIME
        .iter()
        .find(|&&(least, _)| time.is_none_or(|time| time >= least))
        .map_or(CELLS_ALWAYS_TRIED, |&(_, cells)| cells)
}

/// Entries of the bounds table (16 bytes each: 16 MiB).
const TABLE_ENTRIES: usize = 1 << 20;
/// Nodes between two looks at the clock.
const CLOCK_INTERVAL: u64 = 1024;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    lower: i16,
    upper: i16,
    best_to: u8,
    best_removes: u8,
}

/// Bounds on the future difference of the positions solved so far, kept
/// from one solve to the next: the next move's proof starts where the last
/// one left off.
pub struct BoundsTable {
    entries: Vec<Entry>,
}

impl Default for BoundsTable {
    fn default() -> Self {
        BoundsTable {
            entries: vec![Entry::default(); TABLE_ENTRIES],
        }
    }
}

impl BoundsTable {
    /// Forgets every stored bound, so that the next solve starts cold (for
    /// benchmarks that must not depend on what was solved before).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (TABLE_ENTRIES - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries[self.slot(key)];
        (entry.key == key).then_some(entry)
    }

    fn store(&mut self, key: u64, lower: i32, upper: i32, best: Option<Move>) {
        let slot = self.slot(key);
        let clamp = |v: i32| v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        let (best_to, best_removes) = best.map_or((NO_CELL, NO_CELL), |m| (m.to, m.removes));
        self.entries[slot] = Entry {
            key,
            lower: clamp(lower),
            upper: clamp(upper),
            best_to,
            best_removes,
        };
    }
}

/// A proven result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
}

/// When a solve must give up.
#[derive(Clone, Debug)]
pub enum Limit {
    Nodes(u64),
    Time(Deadline),
}

struct Solver<'a> {
    table: &'a mut BoundsTable,
    limit: Limit,
    nodes: u64,
    aborted: bool,
    move_buffers: Vec<Vec<Move>>,
}

/// The flood of knight jumps from `player`'s knight over present cells.
fn region(position: &Cavalo, player: Player) -> Cells {
    position.knight(player).map_or(0, |knight| {
        flood(knight, position.present_cells(), 0, u32::MAX)
    })
}

/// Every cell either knight could still land on.
pub fn reachable_cells(position: &Cavalo) -> Cells {
    region(position, Player::P1) | region(position, Player::P2)
}

/// Cells whose row and column have the same parity. A knight's jump always
/// lands on the other kind.
const EVEN_CELLS: Cells = even_cells();

const fn even_cells() -> Cells {
    let mut mask = 0;
    let mut cell = 0;
    while cell < 100 {
        if (cell / 10 + cell % 10) % 2 == 0 {
            mask |= 1u128 << cell;
        }
        cell += 1;
    }
    mask
}

/// The sum of the `count` highest values held by `cells`.
fn top_values(position: &Cavalo, cells: Cells, count: u32) -> i32 {
    let mut values: u128 = 0;
    for cell in cells_of(cells) {
        values |= 1u128 << position.value_at[cell as usize];
    }
    let mut sum = 0;
    for _ in 0..count {
        if values == 0 {
            break;
        }
        let highest = 127 - values.leading_zeros();
        sum += highest as i32;
        values &= !(1u128 << highest);
    }
    sum
}

/// The most `player`'s knight can still gain within `region`: its landings
/// alternate between the two kinds of cells, so it takes at most one more
/// cell of the kind it jumps to next than of the other kind.
fn gain_ceiling(position: &Cavalo, player: Player, region: Cells) -> i32 {
    let Some(knight) = position.knight(player) else {
        return value_sum(position, region);
    };
    let (next, after) = if EVEN_CELLS & bit(knight) != 0 {
        (region & !EVEN_CELLS, region & EVEN_CELLS)
    } else {
        (region & EVEN_CELLS, region & !EVEN_CELLS)
    };
    let (next_count, after_count) = (next.count_ones(), after.count_ones());
    if next_count <= after_count {
        value_sum(position, next) + top_values(position, after, next_count)
    } else {
        value_sum(position, after) + top_values(position, next, after_count + 1)
    }
}

impl Solver<'_> {
    fn out_of_budget(&mut self) -> bool {
        if self.nodes.is_multiple_of(CLOCK_INTERVAL) {
            self.aborted |= match &self.limit {
                Limit::Nodes(max) => self.nodes >= *max,
                Limit::Time(deadline) => deadline.passed(),
            };
        }
        self.aborted
    }

    /// The future difference for the side to move, fail-soft: exact inside
    /// (alpha, beta), a bound outside. Meaningless once `aborted`.
    fn search(&mut self, position: &mut Cavalo, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let mover = position.side_to_move();
        let mine = region(position, mover);
        let theirs = region(position, mover.other());
        if mine == 0 && theirs == 0 {
            return 0;
        }
        // The mover gains at most its region's values, the other at most its own.
        let ceiling = gain_ceiling(position, mover, mine);
        let floor = -gain_ceiling(position, mover.other(), theirs);
        if ceiling <= alpha {
            return ceiling;
        }
        if floor >= beta {
            return floor;
        }
        let key = memo_key(position);
        let mut best_move = None;
        let known = self.table.probe(key);
        if let Some(entry) = known {
            let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            if entry.best_to != NO_CELL {
                best_move = Some(Move {
                    to: entry.best_to,
                    removes: entry.best_removes,
                });
            }
        }
        let (alpha_in, beta_in) = (alpha, beta);

        if self.move_buffers.len() <= ply {
            self.move_buffers.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        position.generate(&mut moves);
        drop_equivalent_double_choices(mine | theirs, &mut moves);
        if moves.is_empty() {
            // Neither knight can land anywhere: the game is over.
            self.move_buffers[ply] = moves;
            return 0;
        }
        order_moves(position, &mut moves, best_move);

        let mut best = i32::MIN;
        let mut best_found = None;
        for &mv in &moves {
            let gain = gain_of(position, mv);
            position.make(mv);
            let value = gain - self.search(position, gain - beta, gain - alpha, ply + 1);
            position.unmake(mv);
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                best_found = Some(mv);
            }
            if best > alpha {
                alpha = best;
            }
            if alpha >= beta {
                break;
            }
        }
        self.move_buffers[ply] = moves;
        if self.aborted {
            return 0;
        }
        let (lower, upper) = if best <= alpha_in {
            (i32::from(i16::MIN), best)
        } else if best >= beta_in {
            (best, i32::from(i16::MAX))
        } else {
            (best, best)
        };
        // Merge with what the table knew, so bounds only tighten.
        let (lower, upper) = match known {
            Some(e) => (lower.max(i32::from(e.lower)), upper.min(i32::from(e.upper))),
            None => (lower, upper),
        };
        self.table.store(
            key,
            lower,
            upper.max(lower),
            best_found.filter(|m| !m.is_pass()),
        );
        best
    }
}

/// Points a move's order key gives each onward jump it leaves its knight,
/// and each jump it takes from the other knight (a knight that keeps its
/// options and takes the other's decides the game more often than the
/// biggest landing does). Fitted with `bg-cavalo-tools solvebench`: boards
/// 0-11 at 74 cells, 31.2 to 9.3 million nodes; boards 100-115 at 72
/// cells, 16.9 to 11.8 million.
const ONWARD_JUMP_POINTS: i32 = 60;
const DENIED_JUMP_POINTS: i32 = 60;

/// The table's move first, then by four times the points taken plus the
/// jumps left to the mover and taken from the other knight.
fn order_moves(position: &Cavalo, moves: &mut [Move], first: Option<Move>) {
    let mover = position.side_to_move();
    let present = position.present_cells();
    let open_to_mover = present & !position.denied_to(mover);
    let their_jumps = position
        .knight(mover.other())
        .map_or(0, |knight| knight_jumps(knight) & present);
    moves.sort_by_key(|&mv| {
        if Some(mv) == first {
            return i32::MIN;
        }
        if mv.is_pass() {
            return 0;
        }
        let jumps = knight_jumps(mv.to);
        let onward = (jumps & open_to_mover).count_ones() as i32;
        let denied = (jumps & their_jumps).count_ones() as i32;
        -(4 * i32::from(position.value_at[mv.to as usize])
            + ONWARD_JUMP_POINTS * onward
            + DENIED_JUMP_POINTS * denied)
    });
}

/// What `solve` proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    pub verdict: Verdict,
    /// A move that achieves the verdict (for a loss: the move with the
    /// least proven loss found).
    pub best_move: Move,
    pub nodes: u64,
}

/// The proven result of `position` for the side to move, or `None` if the
/// limit ran out first or the game is over. `table` keeps what the solve
/// learnt for the next one.
pub fn solve(position: &Cavalo, table: &mut BoundsTable, limit: Limit) -> Option<Solution> {
    solve_counting(position, table, limit, &mut 0)
}

/// `solve`, adding the positions it visited to `visited` whether or not it
/// succeeds: a search that gave the solver part of its time reports them.
pub fn solve_counting(
    position: &Cavalo,
    table: &mut BoundsTable,
    limit: Limit,
    visited: &mut u64,
) -> Option<Solution> {
    if position.in_placement() || position.outcome().is_some() {
        return None;
    }
    let mut solver = Solver {
        table,
        limit,
        nodes: 0,
        aborted: false,
        move_buffers: Vec::new(),
    };
    let solution = solver.solve_root(position.clone());
    *visited += solver.nodes;
    solution
}

impl Solver<'_> {
    /// The verdict for the side to move and a move that achieves it.
    fn solve_root(&mut self, mut position: Cavalo) -> Option<Solution> {
        let scores = position.scores();
        let mover = position.side_to_move().index();
        // The mover wins if its future difference exceeds `behind`.
        let behind = scores[1 - mover] - scores[mover];
        let mut moves = Vec::new();
        position.generate(&mut moves);
        drop_equivalent_double_choices(reachable_cells(&position), &mut moves);
        order_moves(&position, &mut moves, None);
        // First: is there a move that wins? Then: one that draws?
        let mut best_loss: Option<(i32, Move)> = None;
        for (verdict, threshold) in [(Verdict::Win, behind + 1), (Verdict::Draw, behind)] {
            for &mv in &moves {
                let gain = gain_of(&position, mv);
                position.make(mv);
                let value =
                    gain - self.search(&mut position, gain - threshold, gain - threshold + 1, 1);
                position.unmake(mv);
                if self.aborted {
                    log::debug!("cavalo exact: gave up after {} nodes", self.nodes);
                    return None;
                }
                if value >= threshold {
                    log::debug!("cavalo exact: {verdict:?} in {} nodes", self.nodes);
                    return Some(Solution {
                        verdict,
                        best_move: mv,
                        nodes: self.nodes,
                    });
                }
                if best_loss.is_none_or(|(v, _)| value > v) {
                    best_loss = Some((value, mv));
                }
            }
        }
        log::debug!("cavalo exact: Loss in {} nodes", self.nodes);
        best_loss.map(|(_, mv)| Solution {
            verdict: Verdict::Loss,
            best_move: mv,
            nodes: self.nodes,
        })
    }
}

/// How long the rest of the game can last at most, in plies: every jump
/// takes a cell, and between two jumps there is at most one pass.
pub fn plies_bound(position: &Cavalo) -> i32 {
    let cells = reachable_cells(position).count_ones();
    (2 * cells as i32).max(1)
}
