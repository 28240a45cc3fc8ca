//! What the search knows of Jogo do Cavalo beyond its rules, one value per
//! search thread: the evaluation and move ordering, the endgame solver's
//! memo, the exact solver's bounds table, and the running search's deadline
//! that both solvers respect.

use super::board;
use super::endgame::{self, EndgameMemo};
use super::eval;
use super::exact::{self, BoundsTable};
use super::position::{Cavalo, Move};
use crate::core::dfpn::ProofKnowledge;
use crate::core::mcts::MonteCarloKnowledge;
use crate::core::search::AlphaBetaKnowledge;
use crate::core::weights::{LinearEval, WeightTable};
use crate::core::{Deadline, EvalTerm, Knowledge, RootSolution, Score};

/// A search thread's knowledge of Jogo do Cavalo. A new one allocates
/// nothing: the endgame memo grows with the endgames solved (about 50 MB at
/// most, see `endgame`), and the exact solver's 16 MiB bounds table is made
/// by the first root solve, which only the main search thread tries.
#[derive(Default)]
pub struct CavaloKnowledge {
    /// When the running search must answer: the endgame solver, called at
    /// its nodes, gives up then.
    deadline: Deadline,
    /// Endgames solved, or given up, in this thread's searches so far.
    endgame_memo: EndgameMemo,
    /// The exact solver's bounds, kept from one move's root solve to the
    /// next; `None` until the first one.
    exact_bounds: Option<BoundsTable>,
}

impl Knowledge<Cavalo> for CavaloKnowledge {
    type Settings = ();

    fn new(_settings: &()) -> Self {
        CavaloKnowledge::default()
    }

    // No pruning is on by default (`SearchParams::default`): at 50 ms a move
    // on 200 boards, both colours, against the engine without it, the
    // verified null move from depth 3 scored -19 +/- 12 Elo (pentanomial),
    // late-move pruning to depth 3 +2 +/- 6, reverse futility -5 +/- 8
    // (margin 30 to depth 3) and -2 +/- 6 (margin 60 to depth 2).

    fn prepare_search(&mut self, _root: &Cavalo, deadline: &Deadline) {
        self.deadline = deadline.clone();
    }

    fn evaluate(&mut self, position: &Cavalo) -> Score {
        eval::evaluate(position)
    }

    fn eval_terms(&mut self, position: &Cavalo) -> Vec<EvalTerm> {
        eval::terms(position)
    }

    fn search_moves(&mut self, position: &Cavalo, moves: &mut Vec<Move>) {
        position.generate(moves);
        if moves.iter().any(|m| m.removes != board::NO_CELL) {
            endgame::drop_equivalent_double_choices(exact::reachable_cells(position), moves);
        }
    }

    fn forced_result(&mut self, position: &mut Cavalo) -> Option<i32> {
        endgame::forced_result(position, &mut self.endgame_memo, &self.deadline)
    }

    fn solve_root(
        &mut self,
        position: &mut Cavalo,
        deadline: &Deadline,
        nodes: &mut u64,
    ) -> Option<RootSolution<Move>> {
        // Earlier in the game a proof takes longer than this move has: the
        // whole move's time is better spent on the search.
        if position.present_cells().count_ones() > exact::most_cells_to_try(deadline.remaining()) {
            return None;
        }
        let table = self.exact_bounds.get_or_insert_with(BoundsTable::default);
        let limit = exact::Limit::Time(deadline.clone());
        let solution = exact::solve_counting(position, table, limit, nodes)?;
        let length = exact::plies_bound(position);
        Some(RootSolution {
            best_move: solution.best_move,
            plies: match solution.verdict {
                exact::Verdict::Win => length,
                exact::Verdict::Draw => 0,
                exact::Verdict::Loss => -length,
            },
        })
    }

    fn move_order_hint(&mut self, position: &Cavalo, mv: Move) -> i32 {
        eval::move_order_hint(position, mv)
    }

    /// History learns where jumps land: the double a landing removes, if
    /// any, shares its slot (a pass has its own, after the board's cells).
    fn move_index(&self, _position: &Cavalo, mv: Move) -> usize {
        mv.to as usize
    }

    fn move_index_bound(&self, _position: &Cavalo) -> usize {
        board::CELLS + 1
    }
}

impl AlphaBetaKnowledge<Cavalo> for CavaloKnowledge {}

impl ProofKnowledge<Cavalo> for CavaloKnowledge {}

impl MonteCarloKnowledge<Cavalo> for CavaloKnowledge {}

impl LinearEval<Cavalo> for CavaloKnowledge {
    fn weights() -> WeightTable {
        eval::WEIGHT_TABLE.clone()
    }

    fn check(table: &WeightTable) -> Result<(), String> {
        eval::check_table(table)
    }

    fn features(position: &Cavalo, features: &mut Vec<i32>) {
        features.clear();
        features.extend(eval::features(position));
    }
}
