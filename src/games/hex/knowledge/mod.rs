//! What the Hex engine knows beyond the rules, one value per search thread:
//! the two-distance evaluation and its scratch, the moves worth searching
//! (dead cells left out, forced answers, the opening policy), proven
//! results (virtual-connection chains, the small-board solver and its
//! proofs) and the ordering hints built from all of them.

use std::collections::HashMap;

mod carried;
mod proof_cells;
mod verdicts;

use super::analysis::{bridge_replies, immediate_wins, is_dead, ImmediateWins};
use super::board::{Hex, HexMove};
use super::chain::{find_chain, ChainScratch};
use super::eval::{self, TwoDistance};
use super::opening;
use super::playout::{PlayoutBoard, PlayoutStyle};
use super::policy::{HexPolicy, DENSE_GAMMAS, GAMMAS};
use super::proving::{self, NodeAnalysis, ProofStats, RootProver};
use super::resistance::{EvalSettings, Evaluation, Resistance};
use super::solver::{self, SolverCache};
use super::vc::CellSet;
use crate::core::dfpn::ProofCells;
use crate::core::dfpn::ProofKnowledge;
use crate::core::mcts::MonteCarloKnowledge;
use crate::core::mcts::PlayoutRecord;
use crate::core::search::AlphaBetaKnowledge;
use crate::core::weights::{LinearEval, WeightTable};
use crate::core::{Deadline, EvalTerm, Game, Knowledge, Player, RootSolution, Score};
use rand::rngs::SmallRng;

/// Move-ordering hints. Positive hints make a move "tactical" to the search
/// (tried early, never reduced): the reply that saves an intruded bridge and
/// the swap. Every other cell is a quiet move whose hint is minus its slack,
/// how far it lies off both players' best routes (two-distance), weighted to
/// outrank the history heuristic.
const HINT_BRIDGE: i32 = 500_000;
const HINT_SWAP: i32 = 400_000;
const HINT_SLACK_STEP: i32 = 4_000;

/// Monte Carlo priors: every move starts with this many simulations'
/// worth of belief, at a mean that falls with its slack from the best
/// routes' and is high for the reply that saves an intruded bridge.
const PRIOR_SIMULATIONS: f32 = 10.0;
const PRIOR_BEST_MEAN: f32 = 0.6;
const PRIOR_MEAN_PER_SLACK: f32 = 0.03;
const PRIOR_WORST_MEAN: f32 = 0.2;
const PRIOR_BRIDGE_MEAN: f32 = 0.9;

/// Hex knowledge for one search thread.
#[derive(Debug, Default)]
pub struct HexKnowledge {
    /// Evaluation scratch and the last results, keyed by position hash.
    two_distance: TwoDistance,
    resistance: Resistance,
    /// The evaluation in use and its weights, as the options chose them
    /// when the engine made this knowledge.
    eval_settings: EvalSettings,
    /// Replies to an intruded bridge at the position `bridge_replies_key`
    /// names, for ordering.
    bridge_replies: Vec<usize>,
    bridge_replies_key: Option<u64>,
    chain_scratch: ChainScratch,
    /// The last position's immediate wins, by key: a node asks for them
    /// up to three times (its result, its moves, its quiescence).
    immediate: Option<(u64, ImmediateWins)>,
    /// Positions the small-board solver proved (or gave up on) during this
    /// search.
    pub(super) solver_cache: SolverCache,
    /// The running search's limits, which the solver respects.
    pub(super) deadline: Deadline,
    /// The ply of the running search's root.
    root_ply: u32,
    /// H-search verdicts of this search, by position key, and in proof
    /// mode the inferior cells the mover's moves leave out.
    verdicts: HashMap<u64, NodeAnalysis>,
    /// Set by `prepare_proof`: H-search at every node, no opening policy.
    proof_mode: bool,
    /// Set by `prepare_proof` when the proof has no length limit that can
    /// bind: the inferior cells keep who wins but not how fast.
    inferior_in_proof: bool,
    /// The proof set of the result last settled, and the cells that
    /// justify the moves last left out, by position key (`proof_cells.rs`).
    settled_cells: Option<(u64, CellSet)>,
    narrowing: Option<(u64, CellSet)>,
    /// What H-search settled and pruned in proof searches.
    pub proof_stats: ProofStats,
    /// The root solver's proof table, kept from move to move.
    pub(super) root_prover: RootProver,
    /// Monte Carlo search's playout board, also the scratch board of the
    /// tree's fill-in.
    playouts: PlayoutBoard,
    /// The cells fill-in left empty at the last node (`TreeFillIn`).
    live_cells: Vec<usize>,
    /// Both players' connections at the nodes the closer look saw, kept
    /// from search to search (they are facts of the position).
    carried: carried::CarriedConnections,
}

impl HexKnowledge {
    /// The two-distance results for `hex`, computed unless they are the
    /// last ones computed.
    fn two_distance_at(&mut self, hex: &Hex) -> &TwoDistance {
        if self.two_distance.key != Some(hex.hash_key()) {
            self.two_distance.compute(hex);
        }
        &self.two_distance
    }

    /// The carrier cells of a chain the opponent could complete with its
    /// next move (one half connection at most), sorted; any other move of
    /// ours leaves that chain standing, and loses.
    fn opponent_threat(&mut self, hex: &Hex) -> Option<Vec<usize>> {
        if hex.swap_is_legal() {
            return None;
        }
        let opponent = hex.side_to_move_player().other();
        let scratch = &mut self.chain_scratch;
        find_chain(hex, opponent, true, scratch).map(|_| {
            let mut cells: Vec<usize> = scratch.carriers.iter().map(|&c| c as usize).collect();
            cells.sort_unstable();
            cells
        })
    }

    /// The engine's search moves without the small-board solver: a win on
    /// the spot, the block of one, the carrier of a threatened chain, or
    /// every live cell, and the ordering data for them.
    pub(super) fn unsolved_search_moves(&mut self, hex: &Hex, moves: &mut Vec<HexMove>) {
        moves.clear();
        if hex.winner().is_some() {
            return;
        }
        // The policy is a judgement, not a proof.
        if let Some(policy) = opening::policy_moves(hex).filter(|_| !self.proof_mode) {
            moves.extend(policy);
            return;
        }
        let wins = self.immediate_wins(hex);
        if let Some(forced) = wins.mine.or(wins.theirs[0]) {
            // Either we win on the spot, or every move but this one lets the
            // opponent win on the spot.
            moves.push(HexMove::cell(forced));
            self.note_narrowing(hex, CellSet::single(forced));
        } else if let Some(carriers) = self.opponent_threat(hex) {
            // The opponent, moving next, would complete a proven chain:
            // only a stone in its carrier can stop it.
            self.note_narrowing(hex, carriers.iter().copied().collect());
            moves.extend(carriers.into_iter().map(HexMove::cell));
        } else if self.eval_settings.tree_fill_in && !self.proof_mode {
            // Fill-in keeps who wins but not how fast, which a proof of
            // bounded length needs; its rules read stones only.
            self.playouts
                .cells_left_by_fill_in(hex, &mut self.live_cells);
            moves.extend(self.live_cells.iter().map(|&cell| HexMove::cell(cell)));
            if moves.is_empty() {
                moves.extend(hex.empty_cells().map(HexMove::cell));
            }
        } else {
            // A dead cell's rule reads stones only: it needs no cells.
            moves.extend(
                hex.empty_cells()
                    .filter(|&cell| !is_dead(hex, cell))
                    .map(HexMove::cell),
            );
            if moves.is_empty() {
                moves.extend(hex.empty_cells().map(HexMove::cell));
            }
        }
        if hex.swap_is_legal() {
            moves.push(HexMove::SWAP);
        }
        if moves.len() > 1 {
            self.note_ordering_data(hex);
        }
    }

    fn immediate_wins(&mut self, hex: &Hex) -> ImmediateWins {
        let key = hex.hash_key();
        match self.immediate {
            Some((known, wins)) if known == key => wins,
            _ => {
                let wins = immediate_wins(hex);
                self.immediate = Some((key, wins));
                wins
            }
        }
    }

    /// Computes what `move_order_hint` reads for `hex`: its two-distance
    /// and its bridge replies.
    fn note_ordering_data(&mut self, hex: &Hex) {
        self.two_distance_at(hex);
        bridge_replies(hex, &mut self.bridge_replies);
        self.bridge_replies_key = Some(hex.hash_key());
    }

    /// Results proven without search: a win on the spot, a double threat,
    /// or a chain of virtual connections (see `chain`).
    pub(super) fn quick_result(&mut self, hex: &Hex) -> Option<i32> {
        if hex.winner().is_some() {
            return None;
        }
        let me = hex.side_to_move_player();
        let wins = self.immediate_wins(hex);
        if let Some(win) = wins.mine {
            self.note_settled_cells(hex, CellSet::single(win));
            return Some(1);
        }
        if hex.swap_is_legal() {
            return None;
        }
        if let [Some(first), Some(second)] = wins.theirs {
            let threats = CellSet::single(first).union(&CellSet::single(second));
            self.note_settled_cells(hex, threats);
            return Some(-2);
        }
        // A chain of virtual connections holds whoever moves first: its
        // owner fills one link per move, answering any intrusion in the same
        // link. The side to move may also complete one half connection.
        let scratch = &mut self.chain_scratch;
        let plies = match find_chain(hex, me, true, scratch) {
            Some(chain) => 2 * chain.moves as i32 - 1,
            None => -2 * find_chain(hex, me.other(), false, scratch)?.moves as i32,
        };
        let carriers = self.chain_scratch.carriers.iter().map(|&c| c as usize);
        let carriers = carriers.collect();
        self.note_settled_cells(hex, carriers);
        Some(plies)
    }
}

impl Knowledge<Hex> for HexKnowledge {
    type Settings = EvalSettings;

    fn new(settings: &EvalSettings) -> Self {
        HexKnowledge {
            eval_settings: *settings,
            ..HexKnowledge::default()
        }
    }

    // No pruning is on by default (`SearchParams::default`): at 100 ms a
    // move on 11x11 against the engine without it, the null move from depth
    // 3 scored 206-194 and 183-217 (-10 Elo over 800 games; the search is
    // some 4 plies deep there, where a pass saves little).

    /// Solver proofs and give-ups hold for one search's time limits. The
    /// ordering data is forgotten too: hints read it only where it was last
    /// computed, and a search must order its moves the same way whatever
    /// the previous search ended on.
    fn prepare_search(&mut self, root: &Hex, deadline: &Deadline) {
        self.proof_mode = false;
        self.inferior_in_proof = false;
        self.deadline = deadline.clone();
        self.root_ply = root.ply();
        self.verdicts.clear();
        self.solver_cache = SolverCache::default();
        self.two_distance.key = None;
        self.bridge_replies_key = None;
    }

    fn evaluate(&mut self, hex: &Hex) -> Score {
        let to_move = hex.side_to_move_player();
        let settings = self.eval_settings;
        if settings.evaluation == Evaluation::Resistance {
            return self
                .resistance
                .at(hex, settings.bridge)
                .score(&settings, to_move);
        }
        let td = self.two_distance_at(hex);
        eval::score(td, hex.size(), to_move)
    }

    fn eval_terms(&mut self, hex: &Hex) -> Vec<EvalTerm> {
        let to_move = hex.side_to_move_player();
        let settings = self.eval_settings;
        if settings.evaluation == Evaluation::Resistance {
            let circuit = self.resistance.at(hex, settings.bridge);
            return circuit.eval_terms(&settings, to_move);
        }
        let td = self.two_distance_at(hex);
        eval::eval_terms(td, hex.size(), to_move)
    }

    fn search_moves(&mut self, hex: &Hex, moves: &mut Vec<HexMove>) {
        moves.clear();
        self.narrowing = None;
        if hex.winner().is_some() {
            return;
        }
        // At a solved swap decision only the proven winning move needs a
        // search (e.g. at the root, where `forced_result` is not asked).
        if hex.swap_is_legal() && hex.size() <= solver::SOLVE_MAX_SIZE {
            if let Some(best) = solver::solve(self, hex).and_then(|proof| proof.best) {
                moves.push(best);
                return;
            }
        }
        self.unsolved_search_moves(hex, moves);
        self.keep_must_play(hex, moves);
    }

    fn forced_result(&mut self, hex: &mut Hex) -> Option<i32> {
        let quick = self.quick_result(hex);
        if quick.is_some() {
            return quick;
        }
        // A proof search asks H-search once it expands a node
        // (`expansion_result`), not at each child it generates.
        if !self.proof_mode {
            if let Some(plies) = self.verdict_result(hex) {
                return Some(plies);
            }
        }
        // On small boards the swap decision is solved outright: the shared
        // search cannot prove every first move lost in reasonable time. The
        // positions inside those proofs are then known to the search too.
        if hex.size() > solver::SOLVE_MAX_SIZE {
            return None;
        }
        let proof = if hex.swap_is_legal() {
            solver::solve(self, hex)
        } else {
            solver::cached(self, hex)
        };
        proof.map(|proof| {
            let plies = proof.plies as i32;
            if proof.win {
                plies
            } else {
                -plies
            }
        })
    }

    fn solve_root(
        &mut self,
        hex: &mut Hex,
        deadline: &Deadline,
        nodes: &mut u64,
    ) -> Option<RootSolution<HexMove>> {
        proving::solve_root(self, hex, deadline, nodes)
    }

    /// The plain key: `Game::hash` joins a position with its half turn.
    fn exact_key(&self, hex: &Hex) -> u64 {
        hex.hash_key()
    }

    fn move_order_hint(&mut self, hex: &Hex, mv: HexMove) -> i32 {
        if mv.is_swap() {
            return HINT_SWAP;
        }
        let cell = mv.0 as usize;
        let key = Some(hex.hash_key());
        if self.bridge_replies_key == key && self.bridge_replies.contains(&cell) {
            return HINT_BRIDGE;
        }
        let td = &self.two_distance;
        if td.key != key {
            return 0;
        }
        let slack = (td.cell_potential(0, cell) as i32 - td.potential[0] as i32)
            + (td.cell_potential(1, cell) as i32 - td.potential[1] as i32);
        -slack.min(50) * HINT_SLACK_STEP
    }

    fn move_index(&self, hex: &Hex, mv: HexMove) -> usize {
        if mv.is_swap() {
            hex.geometry().cells()
        } else {
            mv.0 as usize
        }
    }

    fn move_index_bound(&self, hex: &Hex) -> usize {
        hex.geometry().cells() + 1
    }
}

impl AlphaBetaKnowledge<Hex> for HexKnowledge {
    fn noisy_moves(&mut self, hex: &Hex, moves: &mut Vec<HexMove>) {
        moves.clear();
        if hex.winner().is_some() {
            return;
        }
        let mut replies = Vec::new();
        bridge_replies(hex, &mut replies);
        moves.extend(replies.into_iter().map(HexMove::cell));
    }

    /// The opponent threatens to win on the spot: standing pat would ignore
    /// it, and the one block is all there is to search.
    fn must_respond(&mut self, hex: &Hex) -> bool {
        if hex.winner().is_some() {
            return false;
        }
        self.immediate_wins(hex).theirs[0].is_some()
    }
}

impl ProofKnowledge<Hex> for HexKnowledge {
    /// Each H-search in a proof may settle a node and its whole subtree,
    /// or narrow the defence to the must-play cells: it runs everywhere.
    /// The inferior cells join in only where no length limit can bind,
    /// since filling and pruning may stretch a win (`go mate N` with N
    /// below the empty cells does without them).
    fn prepare_proof(&mut self, root: &Hex, deadline: &Deadline, within_plies: u32) {
        self.prepare_search(root, deadline);
        self.proof_mode = true;
        self.inferior_in_proof = within_plies >= root.empty_cells().count() as u32;
    }

    fn expansion_result(&mut self, hex: &mut Hex) -> Option<i32> {
        if self.proof_mode {
            self.verdict_result(hex)
        } else {
            None
        }
    }

    fn settled_cells(&mut self, hex: &Hex) -> Option<ProofCells> {
        self.settled_proof_cells(hex)
    }

    fn narrowing_cells(&mut self, hex: &Hex) -> Option<ProofCells> {
        self.narrowing_proof_cells(hex)
    }
}

impl MonteCarloKnowledge<Hex> for HexKnowledge {
    fn playout(
        &mut self,
        hex: &mut Hex,
        rng: &mut SmallRng,
        record: &mut PlayoutRecord,
    ) -> Option<Player> {
        let style = PlayoutStyle {
            policy: self.eval_settings.playout_policy.then(|| &*DENSE_GAMMAS),
            fill_in: self.eval_settings.playout_fill_in,
        };
        Some(self.playouts.play(hex, rng, record, style))
    }

    fn closer_look(&mut self, hex: &mut Hex, moves: &mut Vec<HexMove>) -> Option<i32> {
        self.closer_look_by_setting(hex, moves)
    }

    fn move_prior(&mut self, hex: &Hex, mv: HexMove) -> (f32, f32) {
        let hint = self.move_order_hint(hex, mv);
        let mean = if hint >= HINT_BRIDGE {
            PRIOR_BRIDGE_MEAN
        } else if hint > 0 {
            // The swap: no belief either way.
            0.5
        } else {
            let slack = (-hint / HINT_SLACK_STEP) as f32;
            (PRIOR_BEST_MEAN - PRIOR_MEAN_PER_SLACK * slack).max(PRIOR_WORST_MEAN)
        };
        (PRIOR_SIMULATIONS, PRIOR_SIMULATIONS * mean)
    }

    fn move_policy(&mut self, hex: &Hex, moves: &[HexMove], policy: &mut Vec<f32>) {
        GAMMAS.policy::<Hex, HexPolicy>(hex, moves, policy);
    }
}

impl LinearEval<Hex> for HexKnowledge {
    fn weights() -> WeightTable {
        eval::WEIGHT_TABLE.clone()
    }

    fn check(table: &WeightTable) -> Result<(), String> {
        eval::check_table(table)
    }

    fn features(position: &Hex, features: &mut Vec<i32>) {
        features.clear();
        features.extend(eval::features(position));
    }
}

#[cfg(test)]
mod tests;
