//! What the search knows of Gomoku beyond the rules: the evaluation, the
//! threat-driven move choice, and the VCF and VCT solvers with their
//! memories, one `GomokuKnowledge` per search thread.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use super::board::{Board, CELL_COUNT};
use super::defence::moves_against_hidden_vcf;
use super::eval;
use super::network::ShapeSetFeatures;
use super::pattern::{T_DOUBLE_THREE, T_FOUR};
use super::threats;
use super::vcf::{VcfSolver, VcfStats};
use super::vct::VctSolver;
use super::{Gomoku, GomokuSettings, Move};
use crate::core::dfpn::ProofKnowledge;
use crate::core::mcts::MonteCarloKnowledge;
use crate::core::nnue::{AccumulatorStack, Network};
use crate::core::search::AlphaBetaKnowledge;
use crate::core::weights::{LinearEval, WeightTable};
use crate::core::{Deadline, EvalTerm, Knowledge, RootSolution, Score};

/// Nodes a VCF probe may visit inside the main search, deeper than one ply
/// below its root: none, so that only the wins a position already shows
/// (a five, an open four) settle a node there, and the fours are left to
/// quiescence. With 120 nodes a probe, the probes took some 60% of a
/// search's time, and leaving them out won +151 +/- 86 Elo at 100 ms a move
/// (docs/results/gomoku.md, "The VCF probes inside the search").
const SEARCH_VCF_BUDGET: u32 = 0;
/// Nodes a VCF probe may visit one ply below the search's root, where the
/// root's fours (and the opponent's wins after each root move) are proven.
/// A probe runs at some 80,000 nodes a second and cannot be interrupted, so
/// this also bounds how late a timed search can stop (about 12 ms).
const ROOT_VCF_BUDGET: u32 = 1000;
/// The part (1/n) of the time the search offers its root solver that the
/// threat search takes.
const VCT_SHARE_OF_SOLVER_TIME: u32 = 4;
/// Plies below the root down to which the threat search runs where the side
/// to move can make two threes at once (deeper, only the VCF probes run).
const VCT_MAX_PLY: usize = 1;
/// Threat-search nodes each such search may visit.
const SEARCH_VCT_NODES: u64 = 60;
/// The part (1/n) of a timed search's time, from its start, during which
/// the threat searches below the root run: unbounded, they could keep a
/// search at 50 ms a move from finishing its first iteration.
const VCT_BELOW_ROOT_TIME_SHARE: u32 = 5;

/// Positions whose defence against a hidden VCF a search remembers before
/// it starts afresh (a bound on its memory).
const DEFENCE_MEMORY: usize = 1 << 16;

#[derive(Default)]
pub struct GomokuKnowledge {
    /// The options this knowledge was made with.
    settings: GomokuSettings,
    vcf: VcfSolver,
    vct: VctSolver,
    /// Stones on the board where the current search started: the VCF probes
    /// right below its root get a much larger budget than those deeper.
    /// Outside a search (`None`), every position asked about is a root.
    root_stones: Option<usize>,
    /// The deadline of the running search, which the threat searches
    /// below its root respect.
    deadline: Deadline,
    /// When the threat searches below the root stop; `None` (no hard time
    /// limit: `go depth`, `go nodes`, the bench) runs none, so that those
    /// searches' answers and node counts stay as they were.
    vct_below_root_until: Option<Instant>,
    /// The provers' node count the search has already been told of.
    prover_nodes_reported: u64,
    /// A copy of the position for the probes that `search_moves`, which
    /// may not change its position, runs.
    scratch: Option<Box<Board>>,
    /// The moves that can break the opponent's hidden VCF, or `None`
    /// where they have none, by position key, for the running search.
    hidden_vcf_defences: HashMap<u64, Option<Vec<Move>>>,
    /// The network the search evaluates with; `None`: the classical shapes.
    network: Option<Arc<Network>>,
    accumulators: AccumulatorStack<Gomoku, ShapeSetFeatures>,
}

impl GomokuKnowledge {
    /// The move of the forced win by continuous fours for the side to move,
    /// with its length in plies, if one is found within `budget` nodes. The
    /// solver plays its sequences on the position's own board and takes
    /// them back.
    pub fn find_vcf(&mut self, position: &mut Gomoku, budget: u32) -> Option<(Move, i32)> {
        self.vcf.find(position.board_mut(), budget)
    }

    /// A win by continuous threats for the side to move, found within
    /// `max_nodes` threat-search nodes and before `deadline`: its first move
    /// and its length in plies.
    pub fn find_vct(
        &mut self,
        position: &mut Gomoku,
        max_nodes: u64,
        deadline: &Deadline,
    ) -> Option<(Move, i32)> {
        self.vct
            .find(position.board_mut(), &mut self.vcf, max_nodes, deadline)
    }

    pub fn vcf_stats(&self) -> VcfStats {
        self.vcf.stats()
    }

    /// Threat-search nodes so far, the VCF probes inside not counted.
    pub fn vct_nodes(&self) -> u64 {
        self.vct.nodes()
    }

    /// Nodes of both provers so far, the VCF's inside the VCT included.
    fn prover_nodes(&self) -> u64 {
        self.vct.nodes() + self.vcf.stats().nodes
    }

    /// Whether the threat search runs at this node of the main search: near
    /// its root, where a proven win or loss settles a move of the root, and
    /// only when the side to move can make a double three (or more), the
    /// threat most threat wins grow from: where any three to make was
    /// enough, the search spent its time in the threat searches and no
    /// longer finished its first iteration at 50 ms a move.
    fn vct_pays(&self, position: &Gomoku) -> bool {
        let board = position.board();
        let Some(root) = self.root_stones else {
            return false;
        };
        let ply = board.stone_count().saturating_sub(root);
        (1..=VCT_MAX_PLY).contains(&ply)
            && board.count_at_least(board.side(), T_DOUBLE_THREE) > 0
            && self
                .vct_below_root_until
                .is_some_and(|until| Instant::now() < until)
    }

    /// The moves that can break a VCF the opponent holds without a visible
    /// threat, when they hold one; only inside a search, so that the move
    /// lists asked for outside one stay the plain ones.
    fn hidden_vcf_defence(&mut self, position: &Gomoku) -> Option<&Vec<Move>> {
        let board = position.board();
        // Without a four to make there is no VCF, and no copy to pay for.
        if self.root_stones.is_none()
            || !self.settings.hidden_vcf_defence
            || board.count_at_least(board.side() ^ 1, T_FOUR) == 0
        {
            return None;
        }
        let key = position.board().hash();
        if !self.hidden_vcf_defences.contains_key(&key) {
            if self.hidden_vcf_defences.len() >= DEFENCE_MEMORY {
                self.hidden_vcf_defences.clear();
            }
            let budget = self.vcf_budget(position);
            let scratch = match &mut self.scratch {
                Some(board) => {
                    board.as_mut().clone_from(position.board());
                    board
                }
                None => self.scratch.insert(Box::new(position.board().clone())),
            };
            let defence = moves_against_hidden_vcf(scratch, &mut self.vcf, budget);
            self.hidden_vcf_defences.insert(key, defence);
        }
        self.hidden_vcf_defences.get(&key)?.as_ref()
    }

    fn vcf_budget(&self, position: &Gomoku) -> u32 {
        let near_root = self
            .root_stones
            .is_none_or(|root| position.board().stone_count() <= root + 1);
        if near_root {
            ROOT_VCF_BUDGET
        } else {
            SEARCH_VCF_BUDGET
        }
    }
}

impl Knowledge<Gomoku> for GomokuKnowledge {
    type Settings = GomokuSettings;

    fn new(settings: &GomokuSettings) -> Self {
        GomokuKnowledge {
            settings: settings.clone(),
            network: settings.network.active(),
            ..GomokuKnowledge::default()
        }
    }

    fn prepare_search(&mut self, root: &Gomoku, deadline: &Deadline) {
        self.root_stones = Some(root.board().stone_count());
        // Each search starts with empty solver memories, as when they lived
        // in the copy of the position each search was given: the failures
        // are true, but kept they would leave the budgeted probes more to
        // spend and so change what the search finds.
        self.vcf.start_search(deadline);
        self.vct.start_search();
        self.hidden_vcf_defences.clear();
        self.deadline = deadline.clone();
        self.vct_below_root_until = deadline
            .remaining()
            .filter(|_| self.settings.vct_below_root)
            .map(|left| Instant::now() + left / VCT_BELOW_ROOT_TIME_SHARE);
        self.prover_nodes_reported = self.prover_nodes();
    }

    fn evaluate(&mut self, position: &Gomoku) -> Score {
        self.accumulators
            .evaluate_fitting(self.network.as_deref(), position)
            .unwrap_or_else(|| eval::evaluate(position.board()))
    }

    fn eval_terms(&mut self, position: &Gomoku) -> Vec<EvalTerm> {
        let network = self.network.as_deref();
        match self.accumulators.evaluate_fitting(network, position) {
            Some(score) => vec![EvalTerm::for_side_to_move(
                network.map(Network::describe).unwrap_or_default(),
                crate::core::Game::side_to_move(position),
                score,
            )],
            None => eval::terms(position.board()),
        }
    }

    fn search_moves(&mut self, position: &Gomoku, moves: &mut Vec<Move>) {
        threats::search_moves(position.board(), moves);
        if moves.len() <= 1 {
            return;
        }
        if let Some(defence) = self.hidden_vcf_defence(position) {
            // Nothing holds when every defence is forbidden: then any move
            // loses and the search may as well see them all.
            if moves.iter().any(|mv| defence.binary_search(mv).is_ok()) {
                moves.retain(|mv| defence.binary_search(mv).is_ok());
            }
        }
    }

    fn forced_result(&mut self, position: &mut Gomoku) -> Option<i32> {
        let budget = self.vcf_budget(position);
        let forced = threats::forced_plies(position.board_mut(), &mut self.vcf, budget);
        if forced.is_some() || !self.vct_pays(position) {
            return forced;
        }
        let deadline = self.deadline.clone();
        self.find_vct(position, SEARCH_VCT_NODES, &deadline)
            .map(|(_, plies)| plies)
    }

    fn take_prover_nodes(&mut self) -> u64 {
        let nodes = self.prover_nodes();
        let new = nodes - self.prover_nodes_reported;
        self.prover_nodes_reported = nodes;
        new
    }

    fn solve_root(
        &mut self,
        position: &mut Gomoku,
        deadline: &Deadline,
        nodes: &mut u64,
    ) -> Option<RootSolution<Move>> {
        // Most positions hold no VCT, so the threat search gets only part
        // of the solver's share and the rest goes back to the search.
        let deadline = deadline.within(deadline.remaining()? / VCT_SHARE_OF_SOLVER_TIME);
        let before = self.prover_nodes();
        let found = self.find_vct(position, u64::MAX, &deadline);
        *nodes += self.prover_nodes() - before;
        // Counted here: the search must not be told of them again.
        self.prover_nodes_reported = self.prover_nodes();
        found.map(|(best_move, plies)| RootSolution { best_move, plies })
    }

    fn move_order_hint(&mut self, position: &Gomoku, mv: Move) -> i32 {
        threats::order_hint(position.board(), mv as usize)
    }

    fn move_index(&self, _position: &Gomoku, mv: Move) -> usize {
        mv as usize
    }

    fn move_index_bound(&self, _position: &Gomoku) -> usize {
        CELL_COUNT
    }
}

impl AlphaBetaKnowledge<Gomoku> for GomokuKnowledge {
    fn noisy_moves(&mut self, position: &Gomoku, moves: &mut Vec<Move>) {
        threats::noisy_moves(position.board(), moves);
    }

    fn play(&mut self, position: &mut Gomoku, mv: Move) {
        self.accumulators
            .play_fitting(self.network.as_deref(), position, mv);
    }

    fn take_back(&mut self, position: &mut Gomoku, mv: Move) {
        self.accumulators.take_back(position, mv);
    }
}

impl ProofKnowledge<Gomoku> for GomokuKnowledge {}

impl MonteCarloKnowledge<Gomoku> for GomokuKnowledge {}

/// Unlike the trait's other games, the weighted features are the
/// evaluation times `feature_scale()` (128 with the table's divisor of 8),
/// less than one unit off once divided: the board sums shape units, and no
/// integer feature in evaluation units could carry a shape value of 1,
/// worth 5/32 of a unit to the side to move. A fit must divide by it.
impl LinearEval<Gomoku> for GomokuKnowledge {
    fn weights() -> WeightTable {
        eval::WEIGHT_TABLE.clone()
    }

    fn features(position: &Gomoku, features: &mut Vec<i32>) {
        features.clear();
        features.extend(eval::features(position.board()));
    }

    fn check(table: &WeightTable) -> Result<(), String> {
        eval::check_table(table)
    }

    fn feature_scale() -> i32 {
        eval::feature_scale()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::gomoku::GomokuRules;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// Black to move wins by fours: h8, then h5 makes two fours.
    const TWO_STEP_VCF: &str = "15/15/15/15/15/15/7o7/3oxxx8/7x7/7x7/3oxxx8/15/15/15/15 x";

    fn fen(text: &str) -> Gomoku {
        Gomoku::from_fen(text, &GomokuRules::default()).expect("test position")
    }

    fn snapshot(game: &Gomoku) -> (String, u64, Vec<Move>) {
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        (game.to_fen(), game.hash(), moves)
    }

    #[test]
    fn the_provers_play_on_the_position_and_leave_it_as_it_was() {
        let mut game = fen(TWO_STEP_VCF);
        let before = snapshot(&game);
        let mut knowledge = GomokuKnowledge::default();
        knowledge.prepare_search(&game, &Deadline::default());
        assert_eq!(knowledge.forced_result(&mut game), Some(5));
        assert_eq!(snapshot(&game), before);
        let ten_seconds = Instant::now() + Duration::from_secs(10);
        let deadline = Deadline::new(Some(ten_seconds), Arc::new(AtomicBool::new(false)));
        let solved = knowledge.solve_root(&mut game, &deadline, &mut 0);
        assert!(solved.is_some_and(|solution| solution.plies > 0));
        assert_eq!(snapshot(&game), before);
    }

    #[test]
    fn the_linear_features_weigh_up_to_the_search_evaluation() {
        let weights = <GomokuKnowledge as LinearEval<Gomoku>>::weights();
        let scale = GomokuKnowledge::feature_scale();
        let mut features = Vec::new();
        let mut knowledge = GomokuKnowledge::default();
        for text in <Gomoku as crate::core::Presentation>::bench_positions() {
            let game = fen(text);
            <GomokuKnowledge as LinearEval<Gomoku>>::features(&game, &mut features);
            assert_eq!(features.len(), weights.values().len());
            let weighted: i32 = weights
                .values()
                .iter()
                .zip(&features)
                .map(|(w, f)| w * f)
                .sum();
            let evaluation = knowledge.evaluate(&game);
            assert!((weighted - scale * evaluation).abs() < scale, "{text}");
        }
    }

    #[test]
    fn a_search_line_gets_the_budget_of_its_depth() {
        let mut game = fen(TWO_STEP_VCF);
        let mut knowledge = GomokuKnowledge::default();
        knowledge.prepare_search(&game, &Deadline::default());
        assert_eq!(knowledge.vcf_budget(&game), ROOT_VCF_BUDGET);
        for name in ["a1", "o15"] {
            let mv = game.parse_move(name).expect("test move");
            game.make_move(mv);
        }
        assert_eq!(knowledge.vcf_budget(&game), SEARCH_VCF_BUDGET);
    }
}
