//! Singular extension: where the table's move alone holds a node (every
//! other move, searched shallower, falls clearly short of its score), that
//! move is searched a ply deeper; where the others reach beta even without
//! it, the node is cut at once (multi-cut).

use super::negamax::Node;
use super::AlphaBetaKnowledge;
use super::Searcher;
use crate::core::game::{Game, Score, MATE_BOUND};
use crate::core::tt::{Bound, Hit};

/// What the test of the table's move decided.
pub(super) enum Singular {
    /// Plies added to the table move's search (-1, 0 or 1).
    Extend(i32),
    /// The node's score: other moves beat beta too.
    Cut(Score),
}

/// Plies the table entry may be shallower than the node and still be
/// trusted for the test.
const TABLE_DEPTH_SLACK: i32 = 3;

impl<G: Game, K: AlphaBetaKnowledge<G>> Searcher<'_, G, K> {
    /// Tests whether the table's move is the only one that holds this node,
    /// searching the others to half the depth against a bound below the
    /// table's score. Only below the root, at a node not itself inside such
    /// a test, within twice the iteration's depth (the extensions stay
    /// finite), and when the table's score is a lower bound that is no mate.
    pub(super) fn singular_test(
        &mut self,
        node: Node,
        table: Option<Hit<G::Move>>,
        moves: &[G::Move],
        beta: Score,
    ) -> Singular {
        let (depth, ply) = (node.depth, node.ply);
        let params = self.control.params;
        // The cheap checks first: most nodes, and every node of a game
        // with the extension off, stop here.
        if params.singular_min_depth == 0
            || depth < params.singular_min_depth
            || ply == 0
            || self.singular_skip[ply].is_some()
            || !self.may_extend_at(ply)
        {
            return Singular::Extend(0);
        }
        let Some((table_move, score)) = table.and_then(|hit| {
            let trusted = hit.depth as i32 >= depth - TABLE_DEPTH_SLACK
                && hit.bound != Bound::Upper
                && hit.score.abs() < MATE_BOUND;
            hit.best_move.filter(|_| trusted).map(|mv| (mv, hit.score))
        }) else {
            return Singular::Extend(0);
        };
        // The knowledge may have left the table's move out of this node's.
        if !moves.contains(&table_move) {
            return Singular::Extend(0);
        }
        let singular_beta = score - params.singular_margin * depth;
        self.singular_skip[ply] = Some(table_move);
        let kind = node.kind.with_null_window();
        let others = self.negamax(depth / 2, singular_beta - 1, singular_beta, ply, kind);
        self.singular_skip[ply] = None;
        // The test's line is no line of this node's.
        self.pv[ply].clear();
        if self.aborted {
            Singular::Extend(0)
        } else if others < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if score >= beta {
            Singular::Extend(-params.singular_negative)
        } else {
            Singular::Extend(0)
        }
    }
}
