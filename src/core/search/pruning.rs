//! Pruning that trades exactness for depth, each switched on per game by
//! its parameters (`core/params.rs`) and, for the null move, by what its
//! knowledge says is sound. Only non-PV nodes are pruned, never a node whose
//! side to move must answer a threat, and never against a proven score.

use super::negamax::{Node, NodeKind};
use super::AlphaBetaKnowledge;
use super::Searcher;
use crate::core::game::{Game, Score, MATE_BOUND};
use crate::core::params::NullMove;
use crate::core::tt::{Bound, Hit};

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
        table: Option<Hit<G::Move>>,
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
        let static_eval = self.knowledge.evaluate(&self.game);
        self.static_evals[ply] = Some(static_eval);
        let eval = self.pruning_eval(static_eval, table);
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

    /// The static evaluation as the pruning sees it: with `table_eval`,
    /// the table's score where its bound allows (`eval_with_table`).
    fn pruning_eval(&self, static_eval: Score, table: Option<Hit<G::Move>>) -> Score {
        match self.control.params.table_eval {
            0 => static_eval,
            _ => eval_with_table(static_eval, table),
        }
    }

    /// Whether a cut node's moves, but the tactical ones, are searched a
    /// ply shallower: its evaluation (as the pruning sees it) beats beta by
    /// `fail_high_margin` a ply, and it answers no threat.
    pub(super) fn likely_fail_high(
        &mut self,
        node: Node,
        beta: Score,
        table: Option<Hit<G::Move>>,
        threat: &mut ThreatCheck,
    ) -> bool {
        let margin = self.control.params.fail_high_margin;
        if margin == 0
            || node.kind != NodeKind::Cut
            || beta.abs() >= MATE_BOUND
            || self.threatened(threat)
        {
            return false;
        }
        let static_eval = match self.static_evals[node.ply] {
            Some(eval) => eval,
            None => {
                let eval = self.knowledge.evaluate(&self.game);
                self.static_evals[node.ply] = Some(eval);
                eval
            }
        };
        self.pruning_eval(static_eval, table) >= beta + margin * node.depth
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

/// The table's score where its bound says the node's score lies beyond the
/// static evaluation on the table's side (a searched bound knows more than
/// the evaluation does), else the evaluation; proven scores stay out of the
/// pruning.
fn eval_with_table<M: Copy>(static_eval: Score, table: Option<Hit<M>>) -> Score {
    let Some(hit) = table.filter(|hit| hit.score.abs() < MATE_BOUND) else {
        return static_eval;
    };
    let beyond = match hit.bound {
        Bound::Exact => true,
        Bound::Lower => hit.score > static_eval,
        Bound::Upper => hit.score < static_eval,
    };
    if beyond {
        hit.score
    } else {
        static_eval
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(score: Score, bound: Bound) -> Option<Hit<u16>> {
        Some(Hit {
            best_move: None,
            score,
            depth: 3,
            bound,
        })
    }

    #[test]
    fn the_table_replaces_the_evaluation_only_where_its_bound_reaches_past_it() {
        assert_eq!(eval_with_table(50, hit(200, Bound::Lower)), 200);
        assert_eq!(eval_with_table(50, hit(-20, Bound::Lower)), 50);
        assert_eq!(eval_with_table(50, hit(-20, Bound::Upper)), -20);
        assert_eq!(eval_with_table(50, hit(200, Bound::Upper)), 50);
        assert_eq!(eval_with_table(50, hit(-20, Bound::Exact)), -20);
        assert_eq!(eval_with_table(50, None::<Hit<u16>>), 50);
        assert_eq!(eval_with_table(50, hit(MATE_BOUND + 5, Bound::Lower)), 50);
    }
}
