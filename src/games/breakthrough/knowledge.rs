//! What the search asks of Breakthrough beyond its rules: the evaluation,
//! exact tactics (wins in one and two, unstoppable runners, intruders that
//! must be taken), the moves quiescence resolves, and move ordering. Its
//! only state is the network's accumulators along the search's line, when
//! the `network` evaluation is chosen; every other answer is read off the
//! board.

use std::sync::Arc;

use super::board::Move;
use super::network::PieceFeatures;
use super::settings::BreakthroughSettings;
use super::{eval, tactics, Breakthrough};
use crate::core::dfpn::ProofKnowledge;
use crate::core::mcts::MonteCarloKnowledge;
use crate::core::nnue::{AccumulatorStack, Network};
use crate::core::search::AlphaBetaKnowledge;
use crate::core::weights::{LinearEval, WeightTable};
use crate::core::{EvalTerm, Knowledge, Score};

/// Ordering hints: winning and capturing moves first, then steps onto the
/// rank before the goal, which the opponent must answer.
const HINT_CAPTURE: i32 = 100;
const HINT_THREAT: i32 = 60;

#[derive(Clone, Debug)]
pub struct BreakthroughKnowledge {
    /// The network the search evaluates with; `None`: the classical terms.
    network: Option<Arc<Network>>,
    accumulators: AccumulatorStack<Breakthrough, PieceFeatures>,
}

/// The knowledge an engine with default options makes: the built-in
/// network's.
impl Default for BreakthroughKnowledge {
    fn default() -> Self {
        BreakthroughKnowledge::new(&BreakthroughSettings::default())
    }
}

impl Knowledge<Breakthrough> for BreakthroughKnowledge {
    type Settings = BreakthroughSettings;

    fn new(settings: &BreakthroughSettings) -> Self {
        BreakthroughKnowledge {
            network: settings.network.active(),
            accumulators: AccumulatorStack::default(),
        }
    }

    /// A win in one is played at once, and an intruder one step from our home
    /// rank must be captured: every other move loses on the spot.
    fn search_moves(&mut self, position: &Breakthrough, moves: &mut Vec<Move>) {
        let board = position.board();
        moves.clear();
        if board.outcome().is_some() {
            return;
        }
        let us = board.side;
        let geometry = board.geometry();
        if board.own() & geometry.last_step_rank(us) != 0 {
            board.push_moves(moves, geometry.goal_rank(us));
            return;
        }
        let intruders = tactics::intruders(board);
        if intruders != 0 {
            board.push_moves(moves, intruders);
            if !moves.is_empty() {
                return;
            }
        }
        if let Some(answers) = tactics::answers_to_safe_step(board) {
            *moves = answers;
            return;
        }
        board.push_moves(moves, !0);
    }

    fn move_order_hint(&mut self, position: &Breakthrough, mv: Move) -> i32 {
        let board = position.board();
        let (side, geometry) = (board.side, board.geometry());
        let to = 1u64 << mv.to;
        let mut hint = 0;
        if mv.capture {
            // Prefer captures deep in the enemy's half, and with a piece
            // that was itself attacked.
            hint += HINT_CAPTURE + 8 * geometry.relative_rank(side, u32::from(mv.to)) as i32;
            let enemy_attacks = geometry.attacks(side.other(), board.enemy());
            if enemy_attacks & (1u64 << mv.from) != 0 {
                hint += 10;
            }
        }
        if to & (geometry.last_step_rank(side) | geometry.goal_rank(side)) != 0 {
            hint += HINT_THREAT;
        }
        hint
    }

    fn move_index(&self, position: &Breakthrough, mv: Move) -> usize {
        position.board().side.index() * 4096 + mv.from as usize * 64 + mv.to as usize
    }

    fn move_index_bound(&self, _position: &Breakthrough) -> usize {
        2 * 4096
    }

    fn evaluate(&mut self, position: &Breakthrough) -> Score {
        // The fields borrowed apart: no reference count touched per node.
        self.accumulators
            .evaluate_fitting(self.network.as_deref(), position)
            .unwrap_or_else(|| eval::evaluate(position.board()))
    }

    fn eval_terms(&mut self, position: &Breakthrough) -> Vec<EvalTerm> {
        let network = self.network.as_deref();
        match self.accumulators.evaluate_fitting(network, position) {
            Some(score) => vec![EvalTerm::for_side_to_move(
                network.map(Network::describe).unwrap_or_default(),
                position.board().side,
                score,
            )],
            None => eval::eval_terms(position.board()),
        }
    }

    fn forced_result(&mut self, position: &mut Breakthrough) -> Option<i32> {
        tactics::forced_result(position.board())
    }
}

impl AlphaBetaKnowledge<Breakthrough> for BreakthroughKnowledge {
    fn noisy_moves(&mut self, position: &Breakthrough, moves: &mut Vec<Move>) {
        let board = position.board();
        moves.clear();
        if board.outcome().is_none() {
            let geometry = board.geometry();
            board.push_moves(
                moves,
                board.enemy()
                    | geometry.last_step_rank(board.side)
                    | geometry.goal_rank(board.side),
            );
        }
    }

    fn must_respond(&mut self, position: &Breakthrough) -> bool {
        tactics::intruders(position.board()) != 0
    }

    fn play(&mut self, position: &mut Breakthrough, mv: Move) {
        self.accumulators
            .play_fitting(self.network.as_deref(), position, mv);
    }

    fn take_back(&mut self, position: &mut Breakthrough, mv: Move) {
        self.accumulators.take_back(position, mv);
    }
}

impl ProofKnowledge<Breakthrough> for BreakthroughKnowledge {}

impl MonteCarloKnowledge<Breakthrough> for BreakthroughKnowledge {}

impl LinearEval<Breakthrough> for BreakthroughKnowledge {
    fn weights() -> WeightTable {
        eval::WEIGHT_TABLE.clone()
    }

    fn check(table: &WeightTable) -> Result<(), String> {
        eval::check_table(table)
    }

    fn features(position: &Breakthrough, features: &mut Vec<i32>) {
        features.clear();
        features.extend(eval::features(position.board()));
    }

    fn feature_scale() -> i32 {
        eval::PHASE_SCALE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::breakthrough::BreakthroughRules;

    #[test]
    fn search_moves_answer_an_intruder() {
        let game = Breakthrough::from_fen(
            "pppp4/8/8/8/8/8/1p6/P1P5 w 0 1",
            &BreakthroughRules::default(),
        )
        .expect("valid");
        let mut moves = Vec::new();
        BreakthroughKnowledge::default().search_moves(&game, &mut moves);
        let names: Vec<String> = moves.iter().map(|&m| game.format_move(m)).collect();
        assert_eq!(names.len(), 2);
        assert!(names.iter().all(|n| n.ends_with("b2")), "{names:?}");
    }
}
