//! The seed's player, re-implemented as a yardstick for strength matches and
//! kept out of the engine's search: negamax with alpha-beta cut-offs, no
//! transposition table, children ordered by their evaluation, a leaf value of
//! the score difference |p1 - p2| (the seed's) or p1 - p2, both seen from the
//! player the search is for. As in the seed, a position whose mover cannot
//! jump is a leaf (passes are the game loop's business, not the search's),
//! and the search stops when the time is up.
//!
//! Two ways to spend the clock:
//! - [`SeedDepth::SinglePass`] is the seed's own: one search to depth 50
//!   that the clock cuts off. Every node reached after the time is up is a
//!   leaf, so in the opening only the first root moves get a deep look and
//!   the rest are judged by the score they take; near the end the pass
//!   finishes and the seed plays perfectly.
//! - [`SeedDepth::Deepening`] is a stronger yardstick than the seed ever
//!   was: it deepens iteratively under the same clock and keeps the last
//!   finished depth's move.

use std::time::{Duration, Instant};

use super::position::{Cavalo, Move};
use crate::core::Player;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedEvaluation {
    /// |p1 - p2|: the seed's own.
    AbsoluteDifference,
    /// p1 - p2 for the player the search is for.
    Difference,
}

/// How the baseline spends its time (see the module's comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedDepth {
    /// The seed's single pass to depth 50, cut off by the clock.
    SinglePass,
    /// Iterative deepening, keeping the last finished depth's move.
    Deepening,
}

/// The depth of the seed's single pass (its default `d-maximo`).
const SEED_MAX_DEPTH: u32 = 50;

struct SeedSearch {
    root_player: Player,
    evaluation: SeedEvaluation,
    deadline: Instant,
    nodes: u64,
    out_of_time: bool,
}

impl SeedSearch {
    /// The seed's utility of a position, for the root player.
    fn utility(&self, position: &Cavalo) -> i32 {
        let scores = position.scores();
        let me = scores[self.root_player.index()];
        let other = scores[self.root_player.other().index()];
        match self.evaluation {
            SeedEvaluation::AbsoluteDifference => (me - other).abs(),
            SeedEvaluation::Difference => me - other,
        }
    }

    /// The leaf value for the side to move (the seed's `c * f`).
    fn leaf(&self, position: &Cavalo) -> i32 {
        let value = self.utility(position);
        if position.side_to_move() == self.root_player {
            value
        } else {
            -value
        }
    }

    fn children(&self, position: &mut Cavalo) -> Vec<Move> {
        let mut moves = Vec::new();
        position.generate(&mut moves);
        moves.retain(|m| !m.is_pass());
        // The seed sorts successors by their utility: best for the mover first.
        let maximizing = position.side_to_move() == self.root_player;
        let mut keyed: Vec<(i32, Move)> = moves
            .into_iter()
            .map(|mv| {
                position.make(mv);
                let value = self.utility(position);
                position.unmake(mv);
                (if maximizing { -value } else { value }, mv)
            })
            .collect();
        keyed.sort_by_key(|&(key, _)| key);
        keyed.into_iter().map(|(_, mv)| mv).collect()
    }

    fn negamax(&mut self, position: &mut Cavalo, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(256) && Instant::now() >= self.deadline {
            self.out_of_time = true;
        }
        let moves = self.children(position);
        if depth == 0 || moves.is_empty() || self.out_of_time {
            return self.leaf(position);
        }
        let mut best = i32::MIN + 1;
        for mv in moves {
            position.make(mv);
            let value = -self.negamax(position, depth - 1, -beta, -alpha);
            position.unmake(mv);
            best = best.max(value);
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// One pass over the root moves to `depth`: the best of them.
    fn root_pass(
        &mut self,
        position: &mut Cavalo,
        root_moves: &[Move],
        depth: u32,
    ) -> Option<Move> {
        let mut alpha = i32::MIN + 1;
        let mut best = None;
        for &mv in root_moves {
            position.make(mv);
            let value = -self.negamax(position, depth - 1, i32::MIN + 1, -alpha);
            position.unmake(mv);
            if best.is_none() || value > alpha {
                alpha = value;
                best = Some(mv);
            }
        }
        best
    }
}

/// The seed player's move in `position` within `time`; `None` if the game
/// is over. A forced move (a pass, a placement) is played at once.
pub fn seed_move(
    position: &Cavalo,
    time: Duration,
    evaluation: SeedEvaluation,
    depth: SeedDepth,
) -> Option<Move> {
    let mut position = position.clone();
    let mut legal = Vec::new();
    position.generate(&mut legal);
    match legal.len() {
        0 => return None,
        1 => return legal.first().copied(),
        _ => {}
    }
    let mut search = SeedSearch {
        root_player: position.side_to_move(),
        evaluation,
        deadline: Instant::now() + time,
        nodes: 0,
        out_of_time: false,
    };
    let root_moves = search.children(&mut position);
    match depth {
        SeedDepth::SinglePass => {
            // Once the clock has run out the remaining root moves are still
            // scored, as leaves: the seed kept whatever came out best.
            let mv = search.root_pass(&mut position, &root_moves, SEED_MAX_DEPTH);
            log::debug!("seed baseline: single pass, {} nodes", search.nodes);
            mv
        }
        SeedDepth::Deepening => {
            let mut best_move = root_moves.first().copied();
            for depth in 1..=SEED_MAX_DEPTH {
                let depth_best = search.root_pass(&mut position, &root_moves, depth);
                if search.out_of_time {
                    break;
                }
                best_move = depth_best.or(best_move);
                log::debug!("seed baseline: depth {depth} done, {} nodes", search.nodes);
            }
            best_move
        }
    }
}
