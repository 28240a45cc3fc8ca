//! The recursive search: negamax with principal-variation search, the
//! transposition table, pruning and late-move reductions, then quiescence
//! over the game's noisy moves.

use super::ordering::{pick_next, MoveKind};
use super::pruning::ThreatCheck;
use super::singular::Singular;
use super::AlphaBetaKnowledge;
use super::{Searcher, MAX_PLY};
use crate::core::game::{Game, Outcome, Score, INFINITY, MATE};
use crate::core::tt::{Bound, Hit};

/// What a node is expected to do: hold the principal variation, fail high
/// (a cut node) or fail low (an all node). The last two share a null window
/// and differ in how much a wrong reduction costs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum NodeKind {
    Pv,
    Cut,
    All,
}

impl NodeKind {
    /// The kind of a child searched at full depth with a null window: a
    /// cut node's replies are all expected to fail low, and the other way
    /// round; a PV node's other moves are expected to be refuted.
    pub(super) fn null_window_child(self) -> NodeKind {
        match self {
            NodeKind::Cut => NodeKind::All,
            NodeKind::Pv | NodeKind::All => NodeKind::Cut,
        }
    }

    /// The kind of the same node searched again with a null window (to
    /// test a move's singularity): a PV node loses its window.
    pub(super) fn with_null_window(self) -> NodeKind {
        match self {
            NodeKind::Cut => NodeKind::Cut,
            NodeKind::Pv | NodeKind::All => NodeKind::All,
        }
    }
}

/// Where a node stands in the tree: plies left, plies from the root, and
/// its kind.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) depth: i32,
    pub(super) ply: usize,
    pub(super) kind: NodeKind,
    /// Its quiet moves are searched a ply shallower (fail-high reduction).
    pub(super) likely_fail_high: bool,
}

impl Node {
    fn pv_node(self) -> bool {
        self.kind == NodeKind::Pv
    }
}

impl<G: Game, K: AlphaBetaKnowledge<G>> Searcher<'_, G, K> {
    /// Score of a finished game for the side to move, `ply` plies from the root.
    pub(super) fn terminal_score(&self, outcome: Outcome, ply: usize) -> Score {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(winner) if winner == self.game.side_to_move() => MATE - ply as Score,
            Outcome::Win(_) => -(MATE - ply as Score),
        }
    }

    pub(super) fn forced_score(plies: i32, ply: usize) -> Score {
        if plies > 0 {
            MATE - (ply as Score + plies)
        } else {
            -(MATE - (ply as Score - plies))
        }
    }

    pub(super) fn negamax(
        &mut self,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        kind: NodeKind,
    ) -> Score {
        self.pv[ply].clear();
        if ply > 0 {
            if let Some(score) = self.settled_before_search(&mut alpha, &mut beta, ply) {
                return score;
            }
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(alpha, beta, ply);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        let node = Node {
            depth,
            ply,
            kind,
            likely_fail_high: false,
        };
        let pv_node = node.pv_node();
        // A null move's reply, searched before this node's moves are
        // known, inherits the line's tenths as they stand.
        self.reply_tenths[ply] = if ply > 0 {
            self.reply_tenths[ply - 1]
        } else {
            0
        };
        let key = self.game.hash();
        let table = self.tt.probe(key, ply);
        let table_move = table.and_then(|hit| hit.best_move);
        let singular_test = self.singular_skip[ply].is_some();
        if let Some(score) = table.and_then(|hit| Self::table_cutoff(hit, node, alpha, beta)) {
            if !singular_test {
                return score;
            }
        }
        let mut threat = ThreatCheck::default();
        if !singular_test {
            self.note_static_eval(ply, pv_node);
        }
        if !pv_node && !singular_test {
            if let Some(score) = self.prune_before_moves(node, beta, table, &mut threat) {
                return score;
            }
        }
        let likely_fail_high =
            !singular_test && self.likely_fail_high(node, beta, table, &mut threat);
        let iir = self
            .control
            .params
            .iir_reduction(depth, ply, table_move.is_some());
        let node = Node {
            depth: depth - iir,
            likely_fail_high,
            ..node
        };

        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        let mut keys = std::mem::take(&mut self.key_buffers[ply]);
        match ply {
            0 => self.generate_root_moves(&mut moves),
            _ => self.knowledge.search_moves(&self.game, &mut moves),
        }
        let best = if moves.is_empty() {
            None
        } else {
            self.order_moves(&moves, &mut keys, table_move, ply);
            let extension = self.single_reply_extension(moves.len(), ply);
            let searched = Node {
                depth: node.depth + extension,
                ..node
            };
            let tested = match extension {
                0 => self.singular_test(node, table, &moves, beta),
                _ => Singular::Extend(0),
            };
            match tested {
                Singular::Cut(score) => Some((score, None)),
                Singular::Extend(plies) => Some(self.search_moves(
                    &mut moves,
                    &mut keys,
                    (searched, plies),
                    (alpha, beta),
                    &mut threat,
                )),
            }
        };
        self.move_buffers[ply] = moves;
        self.key_buffers[ply] = keys;
        let Some((best_score, best_move)) = best else {
            return self.knowledge.evaluate(&self.game);
        };
        if self.aborted {
            return 0;
        }
        if best_move.is_some() && !singular_test {
            self.store_result(key, node, (alpha, beta), best_score, best_move);
        }
        best_score
    }

    /// Plies added to the search of a node below the root with `moves`
    /// moves: a forced reply is not counted (and earns the line its tenths
    /// of a ply, spent a whole ply at a time), up to twice the iteration's
    /// depth from the root so that the tree stays finite.
    fn single_reply_extension(&mut self, moves: usize, ply: usize) -> i32 {
        let params = &self.control.params;
        let (whole, tenths) = (params.single_reply_extension, params.single_reply_tenths);
        if (whole == 0 && tenths == 0) || moves != 1 || ply == 0 || !self.may_extend_at(ply) {
            return 0;
        }
        let earned = self.reply_tenths[ply] + tenths;
        self.reply_tenths[ply] = earned % 10;
        whole + earned / 10
    }

    /// The score of a node below the root that needs no search: a finished
    /// game, an abort, a window closed by a shorter mate, or the knowledge's
    /// proven result. Narrows the window to the mates still possible.
    fn settled_before_search(
        &mut self,
        alpha: &mut Score,
        beta: &mut Score,
        ply: usize,
    ) -> Option<Score> {
        if let Some(outcome) = self.game.outcome() {
            return Some(self.terminal_score(outcome, ply));
        }
        if self.should_abort() {
            return Some(0);
        }
        // No line from here can beat a shorter mate already found.
        *alpha = (*alpha).max(-(MATE - ply as Score));
        *beta = (*beta).min(MATE - ply as Score - 1);
        if *alpha >= *beta {
            return Some(*alpha);
        }
        let forced = self.knowledge.forced_result(&mut self.game);
        self.nodes += self.knowledge.take_prover_nodes();
        forced.map(|plies| Self::forced_score(plies, ply))
    }

    /// The table's score when it is deep and bound enough to end a non-PV
    /// node.
    fn table_cutoff(hit: Hit<G::Move>, node: Node, alpha: Score, beta: Score) -> Option<Score> {
        let usable = !node.pv_node()
            && hit.depth as i32 >= node.depth
            && Self::bound_holds(hit, alpha, beta);
        usable.then_some(hit.score)
    }

    /// Searches the ordered moves of a node until one fails high: the best
    /// score and move. Late quiet moves may be skipped or searched reduced;
    /// the table's move is searched `table_extension` plies deeper.
    fn search_moves(
        &mut self,
        moves: &mut [G::Move],
        keys: &mut [(i64, MoveKind)],
        (node, table_extension): (Node, i32),
        (mut alpha, beta): (Score, Score),
        threat: &mut ThreatCheck,
    ) -> (Score, Option<G::Move>) {
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut quiet_moves = 0;
        for index in 0..moves.len() {
            let (mv, kind) = pick_next(moves, keys, index);
            if Some(mv) == self.singular_skip[node.ply] {
                continue;
            }
            let reducible = kind == MoveKind::Quiet
                || (kind == MoveKind::Tactical && self.control.hints_every_move);
            let mut reduction = if kind == MoveKind::Table {
                -table_extension
            } else {
                0
            };
            if !reducible
                && kind == MoveKind::Tactical
                && index > 0
                && self.mildly_tactical(keys[index].0)
            {
                reduction = self.late_move_reduction(node, index, mv);
            }
            if reducible && index > 0 {
                quiet_moves += 1;
                if !node.pv_node()
                    && self.skip_late_move((node.depth, node.ply), quiet_moves, best_score, threat)
                {
                    continue;
                }
                reduction = self.late_move_reduction(node, index, mv);
            }
            let searched = match node.likely_fail_high && kind != MoveKind::Tactical {
                true => Node {
                    depth: node.depth - 1,
                    ..node
                },
                false => node,
            };
            self.knowledge.play(&mut self.game, mv);
            let score = self.search_child(searched, index, reduction, alpha, beta);
            self.knowledge.take_back(&mut self.game, mv);
            if self.aborted {
                break;
            }
            if score <= best_score {
                continue;
            }
            best_score = score;
            best_move = Some(mv);
            if score > alpha {
                alpha = score;
                self.update_pv(node.ply, mv);
                if score >= beta {
                    self.cutoffs += 1;
                    if kind != MoveKind::Table
                        && (kind != MoveKind::Tactical || self.control.hints_every_move)
                    {
                        self.reward_quiet_move(mv, node.depth, node.ply, &moves[..index]);
                    }
                    break;
                }
            }
        }
        (best_score, best_move)
    }

    /// Principal-variation search of the move just made: the first with the
    /// full window, the others with a null window (reduced first, if they
    /// are), searched again in full when they beat alpha. A reduced search
    /// expects to fail low here, so its child is a cut node.
    fn search_child(
        &mut self,
        node: Node,
        index: usize,
        reduction: i32,
        alpha: Score,
        beta: Score,
    ) -> Score {
        let (depth, ply) = (node.depth, node.ply);
        let child = node.kind.null_window_child();
        if index == 0 {
            // The table's move, searched once: a negative extension is no
            // reduction to search again.
            let kind = if node.pv_node() { NodeKind::Pv } else { child };
            return -self.negamax(depth - 1 - reduction, -beta, -alpha, ply + 1, kind);
        }
        let (child_alpha, child_beta) = (-alpha - 1, -alpha);
        let first = if reduction > 0 { NodeKind::Cut } else { child };
        let mut score = -self.negamax(
            depth - 1 - reduction,
            child_alpha,
            child_beta,
            ply + 1,
            first,
        );
        if score > alpha && reduction > 0 {
            let deeper = if self.may_extend_at(ply) {
                let params = &self.control.params;
                params.deeper_after_reduction(score - alpha, reduction)
            } else {
                0
            };
            score = -self.negamax(depth - 1 + deeper, child_alpha, child_beta, ply + 1, child);
        }
        if score > alpha && score < beta && node.pv_node() {
            score = -self.negamax(depth - 1, -beta, -alpha, ply + 1, NodeKind::Pv);
        }
        score
    }

    /// Stores a searched node's score with the bound its window gives it.
    fn store_result(
        &self,
        key: u64,
        node: Node,
        (alpha, beta): (Score, Score),
        best_score: Score,
        best_move: Option<G::Move>,
    ) {
        let bound = Self::bound_of(best_score, (alpha, beta));
        // A root searched with moves left out has no value of its own.
        if node.ply > 0 || self.whole_root() {
            self.tt.store(
                key,
                node.ply,
                node.depth as i16,
                best_score,
                bound,
                best_move,
            );
        }
    }

    pub(super) fn quiescence(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = self.game.outcome() {
            return self.terminal_score(outcome, ply);
        }
        if self.should_abort() {
            return 0;
        }
        let forced = self.knowledge.forced_result(&mut self.game);
        self.nodes += self.knowledge.take_prover_nodes();
        if let Some(plies) = forced {
            return Self::forced_score(plies, ply);
        }
        let window = (alpha, beta);
        // The key of a position the table does not hold, for quiescence to
        // leave its result under.
        let mut unknown_key = None;
        if self.control.params.quiescence_table > 0 {
            let key = self.game.hash();
            match self.tt.probe(key, ply) {
                Some(hit) if Self::bound_holds(hit, alpha, beta) => return hit.score,
                Some(_) => {}
                None => unknown_key = Some(key),
            }
        }
        let must_respond = ply < MAX_PLY - 1 && self.knowledge.must_respond(&self.game);
        let mut best = -INFINITY;
        if !must_respond {
            let stand_pat = self.knowledge.evaluate(&self.game);
            if stand_pat >= beta || ply >= MAX_PLY - 1 {
                if let Some(key) = unknown_key.filter(|_| stand_pat >= beta) {
                    self.tt.store(key, ply, 0, stand_pat, Bound::Lower, None);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }

        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        let mut keys = std::mem::take(&mut self.key_buffers[ply]);
        if must_respond {
            self.knowledge.search_moves(&self.game, &mut moves);
        } else {
            self.knowledge.noisy_moves(&self.game, &mut moves);
        }
        keys.clear();
        for &mv in &moves {
            let hint = self.knowledge.move_order_hint(&self.game, mv);
            keys.push((hint as i64, MoveKind::Tactical));
        }
        if moves.is_empty() && must_respond {
            best = self.knowledge.evaluate(&self.game);
        }
        let mut best_move = None;
        for index in 0..moves.len() {
            let (mv, _) = pick_next(&mut moves, &mut keys, index);
            self.knowledge.play(&mut self.game, mv);
            let score = -self.quiescence(-beta, -alpha, ply + 1);
            self.knowledge.take_back(&mut self.game, mv);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        self.cutoffs += 1;
                        break;
                    }
                }
            }
        }
        self.move_buffers[ply] = moves;
        self.key_buffers[ply] = keys;
        // Only where the table knew nothing: a quiescence result must not
        // take the place of a deeper search's.
        if let Some(key) = unknown_key.filter(|_| !self.aborted) {
            let bound = Self::bound_of(best, window);
            self.tt.store(key, ply, 0, best, bound, best_move);
        }
        best
    }

    /// Whether a node `ply` plies from the root may be extended: every
    /// extension stops at twice the iteration's depth, so that the tree
    /// stays finite.
    pub(super) fn may_extend_at(&self, ply: usize) -> bool {
        (ply as i32) < 2 * self.iteration_depth
    }

    /// Whether a table entry's bound settles a node searched with the
    /// window (`alpha`, `beta`).
    fn bound_holds(hit: Hit<G::Move>, alpha: Score, beta: Score) -> bool {
        match hit.bound {
            Bound::Exact => true,
            Bound::Lower => hit.score >= beta,
            Bound::Upper => hit.score <= alpha,
        }
    }

    /// The bound a score found with the window (`alpha`, `beta`) gives.
    fn bound_of(score: Score, (alpha, beta): (Score, Score)) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    pub(super) fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }
}
