//! The game's exact root solver inside a search: a share of a timed
//! search before it, and slices between the iterations of an analysis.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{AlphaBetaKnowledge, Searcher};
use crate::core::control::{proven_score, SearchResult, MAX_PLY};
use crate::core::game::Game;
use crate::core::knowledge::Deadline;

/// A game's exact root solver may use this fraction (1/n) of a timed search.
const EXACT_SOLVE_SHARE: u32 = 2;
/// The shortest try of a game's solver during `go infinite`.
const LEAST_ANALYSIS_SOLVE_SLICE: Duration = Duration::from_millis(10);
impl<G: Game, K: AlphaBetaKnowledge<G>> Searcher<'_, G, K> {
    /// Gives the game's own exact solver the first part of a timed search
    /// (not of a search limited by depth or nodes, whose result must not
    /// depend on the clock). A proven win or draw is played at once; a proven
    /// loss is left to the search, which picks the most stubborn defence.
    pub(super) fn solve_root_exactly(&mut self) -> Option<SearchResult<G::Move>> {
        let hard = self.control.budget.maximum?;
        if self.control.ponder || !self.solver_may_answer() {
            return None;
        }
        let share = self.control.budget.optimum.unwrap_or(hard).min(hard) / EXACT_SOLVE_SHARE;
        let deadline = Deadline::new(Some(self.start + share), Arc::clone(self.stop));
        let solution = self
            .knowledge
            .solve_root(&mut self.game, &deadline, &mut self.nodes)?;
        if solution.plies < 0 {
            return None;
        }
        let mut result = SearchResult::empty();
        result.best_move = Some(solution.best_move);
        result.pv = vec![solution.best_move];
        result.depth = 1;
        result.score = proven_score(solution.plies);
        result.nodes = self.nodes;
        result.elapsed = self.start.elapsed();
        Some(result)
    }

    /// A timed search of one line over the whole root, bound by no node
    /// count or depth: where the game's solver may decide the move (a result
    /// bound by nodes or depth must not depend on the clock).
    pub(super) fn solver_may_answer(&self) -> bool {
        self.control.budget.maximum.is_some()
            && !self.analysing()
            && self.control.max_nodes.is_none()
            && self.control.max_depth >= MAX_PLY as u32 - 1
            && self.whole_root_one_line()
    }

    /// `go infinite` has no clock to share out, so between two iterations
    /// the game's solver gets as long as the search has run so far: at most
    /// about half the time goes to attempts that fail, and the analyst sees a
    /// proof soon after one is within reach. A proven loss keeps the
    /// search's move, the most stubborn defence it has found.
    pub(super) fn prove_root_between_iterations(
        &mut self,
        searched: &SearchResult<G::Move>,
    ) -> Option<SearchResult<G::Move>> {
        let slice = self.start.elapsed().max(LEAST_ANALYSIS_SOLVE_SLICE);
        let deadline = Deadline::new(Some(Instant::now() + slice), Arc::clone(self.stop));
        let solution = self
            .knowledge
            .solve_root(&mut self.game, &deadline, &mut self.nodes)?;
        let mut result = searched.clone();
        result.score = proven_score(solution.plies);
        if solution.plies >= 0 {
            result.best_move = Some(solution.best_move);
            result.pv = vec![solution.best_move];
        }
        Some(result)
    }
}
