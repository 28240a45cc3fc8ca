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
//! - [`SeedDepth::AsWritten`] is the seed's Lisp (`negamax` and
//!   `negamax-aux` in its report) step by step, slips included. The other two
//!   follow the report's pseudocode, which keeps the best child; the Lisp
//!   does not (see [`SeedSearch::lisp_negamax_aux`]), and what it plays is
//!   always the last root child in its order: the jump that leaves the
//!   smallest |p1 - p2|. The seed's logged game agrees with that at every
//!   one of the program's moves (a test replays it).

use std::time::{Duration, Instant};

use crate::core::Player;
use crate::games::cavalo::{Cavalo, Move};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedEvaluation {
    /// |p1 - p2|: the seed's own.
    AbsoluteDifference,
    /// p1 - p2 for the player the search is for.
    Difference,
}

/// How the baseline searches and spends its time (see the module's comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedDepth {
    /// The seed's single pass to depth 50, cut off by the clock.
    SinglePass,
    /// Iterative deepening, keeping the last finished depth's move.
    Deepening,
    /// The seed's Lisp as written, with its search results discarded.
    AsWritten,
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

    /// The children the seed's `gerar-sucessores` and `ordenar-negamax`
    /// produce, with their utility: sorted by it, largest first when
    /// `largest_first` (the seed's MAX nodes), else smallest first; ties in
    /// generation order (its quicksort keeps them).
    fn sorted_children(&self, position: &mut Cavalo, largest_first: bool) -> Vec<(i32, Move)> {
        let mut moves = Vec::new();
        position.generate(&mut moves);
        moves.retain(|m| !m.is_pass());
        let mut children: Vec<(i32, Move)> = moves
            .into_iter()
            .map(|mv| {
                position.make(mv);
                let f = self.utility(position);
                position.unmake(mv);
                (f, mv)
            })
            .collect();
        if largest_first {
            children.sort_by_key(|&(f, _)| std::cmp::Reverse(f));
        } else {
            children.sort_by_key(|&(f, _)| f);
        }
        children
    }

    /// The moves in the seed's order: best for the mover first.
    fn children(&self, position: &mut Cavalo) -> Vec<Move> {
        let maximizing = position.side_to_move() == self.root_player;
        self.sorted_children(position, maximizing)
            .into_iter()
            .map(|(_, mv)| mv)
            .collect()
    }

    /// Counts a node and looks at the clock now and then.
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(256) && Instant::now() >= self.deadline {
            self.out_of_time = true;
        }
    }

    fn negamax(&mut self, position: &mut Cavalo, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.count_node();
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

/// What the Lisp's `negamax` returns, reduced to what matters here: the
/// utility `f` of the node it hands back and the root move above that node.
#[derive(Clone, Copy, Debug)]
struct LispSolution {
    f: i32,
    root_move: Option<Move>,
}

impl SeedSearch {
    /// The Lisp's `negamax`: a node's children are expanded first; at depth
    /// 0, with no child or once the time is up, the node itself is the
    /// solution. Values are never negated on the way up (f is |p1 - p2| at
    /// every level).
    fn lisp_negamax(
        &mut self,
        position: &mut Cavalo,
        node: LispSolution,
        depth: u32,
        colour: i64,
        alpha: i64,
        beta: i64,
    ) -> LispSolution {
        self.count_node();
        let children = self.sorted_children(position, colour == 1);
        if depth == 0 || children.is_empty() || self.out_of_time {
            return node;
        }
        self.lisp_negamax_aux(position, node, &children, depth, colour, alpha, beta)
    }

    /// The Lisp's `negamax-aux`. It compares each child's solution with the
    /// parent only to raise alpha, and on a cut-off returns the parent; but
    /// it never keeps the best solution: with one child left it returns that
    /// child's solution, whatever came before. At the root no cut-off can
    /// happen (beta is the largest fixnum), so the move played is always the
    /// last root child's.
    #[allow(clippy::too_many_arguments)]
    fn lisp_negamax_aux(
        &mut self,
        position: &mut Cavalo,
        parent: LispSolution,
        children: &[(i32, Move)],
        depth: u32,
        colour: i64,
        mut alpha: i64,
        beta: i64,
    ) -> LispSolution {
        for (index, &(f, mv)) in children.iter().enumerate() {
            let child = LispSolution {
                f,
                root_move: parent.root_move.or(Some(mv)),
            };
            position.make(mv);
            let solution = self.lisp_negamax(position, child, depth - 1, -colour, -beta, -alpha);
            position.unmake(mv);
            if index + 1 == children.len() {
                return solution;
            }
            // `max-no-f`: the parent wins ties.
            let best_f = if solution.f > parent.f {
                solution.f
            } else {
                parent.f
            };
            alpha = alpha.max(i64::from(best_f));
            if alpha >= beta {
                return parent;
            }
        }
        parent
    }
}

/// The Lisp's starting window: its most negative and most positive fixnums
/// (LispWorks 64-bit; only their size matters).
const LISP_MOST_NEGATIVE: i64 = -(1 << 60);
const LISP_MOST_POSITIVE: i64 = (1 << 60) - 1;

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
    match depth {
        SeedDepth::SinglePass => {
            let root_moves = search.children(&mut position);
            // Once the clock has run out the remaining root moves are still
            // scored, as leaves: the seed kept whatever came out best.
            let mv = search.root_pass(&mut position, &root_moves, SEED_MAX_DEPTH);
            log::debug!("seed baseline: single pass, {} nodes", search.nodes);
            mv
        }
        SeedDepth::Deepening => {
            let root_moves = search.children(&mut position);
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
        SeedDepth::AsWritten => {
            let root = LispSolution {
                f: search.utility(&position),
                root_move: None,
            };
            let solution = search.lisp_negamax(
                &mut position,
                root,
                SEED_MAX_DEPTH,
                1,
                LISP_MOST_NEGATIVE,
                LISP_MOST_POSITIVE,
            );
            log::debug!("seed baseline: as written, {} nodes", search.nodes);
            solution.root_move
        }
    }
}
