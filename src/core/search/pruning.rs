//! Pruning that trades exactness for depth, each switched on per game by
//! its parameters (`core/params.rs`) and, for the null move, by what its
//! knowledge says is sound. Only non-PV nodes are pruned, never a node whose
//! side to move must answer a threat, and never against a proven score.

use super::negamax::{Node, NodeKind};
use super::AlphaBetaKnowledge;
use super::Searcher;
use crate::core::game::{Game, Score, MATE_BOUND};
use crate::core::params::NullMove;

/// Whether the side to move must answer a threat, asked of the knowledge
/// once per node and only when some pruning needs it.
#[derive(Default)]
pub(super) struct ThreatCheck(Option<bool>);

impl<G: Game, K: AlphaBetaKnowledge<G>> Searcher<'_, G, K> {
    pub(super) fn threatened(&mut self, check: &mut ThreatCheck) -> bool {
        *check
            .0
            .get_or_insert_with(|| self.knowledge.must_respond(&self.game))
    }

    /// A score to return at once for a non-PV node, before its moves are
    /// generated: reverse futility (the static evaluation is far above
    /// beta), razoring (it is far below, and quiescence agrees), then the
    /// null move (passing still fails high).
    pub(super) fn prune_before_moves(
        &mut self,
        node: Node,
        beta: Score,
        threat: &mut ThreatCheck,
    ) -> Option<Score> {
        let (depth, ply) = (node.depth, node.ply);
        let params = self.control.params;
        let futile = depth <= params.rfp_max_depth;
        let razor = depth <= params.razor_max_depth;
        let null_move = self.null_move_allowed(depth, ply);
        if !(futile || razor || null_move) || beta.abs() >= MATE_BOUND || self.threatened(threat) {
            return None;
        }
        let eval = self.knowledge.evaluate(&self.game);
        self.static_evals[ply] = Some(eval);
        if futile && eval - params.rfp_margin * depth >= beta {
            return Some(eval);
        }
        // A non-PV node's window is (beta - 1, beta).
        if razor && eval + params.razor_margin * depth < beta - 1 {
            let score = self.quiescence(beta - 1, beta, ply);
            if score < beta && score.abs() < MATE_BOUND {
                return Some(score);
            }
        }
        if null_move && eval >= beta {
            return self.null_move_search(node, beta);
        }
        None
    }

    fn null_move_allowed(&self, depth: i32, ply: usize) -> bool {
        let min_depth = self.control.params.null_move_min_depth;
        min_depth > 0
            && depth >= min_depth
            && self.control.null_move != NullMove::Unsound
            && !self.verifying_null_move
            && !self.passed_at[ply]
    }

    /// Passes and searches the opponent's reply shallower with a null
    /// window at beta; a fail-high there is a fail-high here (confirmed by
    /// a shallower search without passes where zugzwang exists). The
    /// opponent's reply is expected to fail low where this node was
    /// expected to fail high, and the other way round.
    fn null_move_search(&mut self, node: Node, beta: Score) -> Option<Score> {
        let (depth, ply) = (node.depth, node.ply);
        if !self.game.make_null_move() {
            return None;
        }
        let params = self.control.params;
        let reduced =
            depth - 1 - params.null_move_reduction - depth / params.null_move_depth_divisor;
        self.passed_at[ply + 1] = true;
        let reply = node.kind.null_window_child();
        let score = -self.negamax(reduced, -beta, -beta + 1, ply + 1, reply);
        self.passed_at[ply + 1] = false;
        self.game.unmake_null_move();
        if self.aborted || score < beta {
            return None;
        }
        // A mate found after a pass is no proof of one without it.
        let score = if score >= MATE_BOUND { beta } else { score };
        if self.control.null_move == NullMove::Verified {
            self.verifying_null_move = true;
            let verified = self.negamax(reduced.max(1), beta - 1, beta, ply, NodeKind::All);
            self.verifying_null_move = false;
            if self.aborted || verified < beta {
                return None;
            }
        }
        Some(score)
    }

    /// Late-move pruning: past the first few quiet moves of a non-PV node
    /// (more of them the deeper it is), once a move has been found that is
    /// not a lost one, the rest are not searched; fewer of them where the
    /// side's position is getting worse.
    pub(super) fn skip_late_move(
        &mut self,
        (depth, ply): (i32, usize),
        quiet_index: i32,
        best_score: Score,
        threat: &mut ThreatCheck,
    ) -> bool {
        quiet_index >= self.late_move_counts.get(depth, self.improving(ply))
            && best_score > -MATE_BOUND
            && !self.threatened(threat)
    }

    /// Whether the static evaluation of the node at `ply` is better than two
    /// plies before, for its side; taken as improving where either is
    /// unknown (a node under threat, or one no pruning evaluated).
    pub(super) fn improving(&self, ply: usize) -> bool {
        let before = ply.checked_sub(2).and_then(|ply| self.static_evals[ply]);
        match (self.static_evals[ply], before) {
            (Some(now), Some(before)) => now > before,
            _ => true,
        }
    }

    /// Records the static evaluation of a PV node, which no pruning asks
    /// for, when late moves are pruned or reduced by comparing evaluations
    /// two plies apart.
    pub(super) fn note_static_eval(&mut self, ply: usize, pv_node: bool) {
        self.static_evals[ply] = None;
        if pv_node && self.control.params.tracks_improvement() {
            self.static_evals[ply] = Some(self.knowledge.evaluate(&self.game));
        }
    }
}
