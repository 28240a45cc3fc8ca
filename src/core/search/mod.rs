//! Game-independent alpha-beta search: negamax with principal-variation search,
//! iterative deepening, aspiration windows, a transposition table, killer and
//! history move ordering, late-move reductions and quiescence over the game's
//! noisy moves. `threads.rs` runs one `Searcher` per thread (Lazy SMP).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

mod knowledge;
mod limits;
mod negamax;
mod ordering;
mod pruning;
mod refutation;
mod root;
mod singular;
mod solving;
mod tables;
#[cfg(test)]
mod tests;
mod threads;

pub use knowledge::AlphaBetaKnowledge;
pub use tables::SearchTables;
pub use threads::search;

use super::control::{SearchControl, SearchInfo, SearchResult, MAX_PLY};
use super::game::{Game, Score, INFINITY, MATE_BOUND};
use super::knowledge::Deadline;
use super::params::LateMoveCounts;
use super::time::{IterationTimer, PonderHit};
use super::tt::TranspositionTable;
use negamax::NodeKind;
use ordering::MoveKind;
use threads::{CompletedIteration, HelperReports};

/// What every search thread of one search shares: the transposition table,
/// the stop flag, and where helpers report to the main thread.
struct SharedSearch<'a, M> {
    tt: &'a TranspositionTable<M>,
    stop: &'a Arc<AtomicBool>,
    ponderhit: &'a PonderHit,
    reports: &'a HelperReports<M>,
    /// `go searchmoves`: the only root moves searched (empty: all).
    root_moves: &'a [M],
}

impl<M> Clone for SharedSearch<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for SharedSearch<'_, M> {}

/// One thread's search: its own position, knowledge, move ordering and
/// counts; the transposition table is shared.
struct Searcher<'a, G: Game, K> {
    game: G,
    knowledge: &'a mut K,
    tt: &'a TranspositionTable<G::Move>,
    history: Vec<i32>,
    stop: &'a Arc<AtomicBool>,
    ponderhit: &'a PonderHit,
    control: SearchControl,
    start: Instant,
    nodes: u64,
    cutoffs: u64,
    /// 0 for the main thread, which reports and answers; 1.. for helpers.
    thread_id: usize,
    helper_reports: &'a HelperReports<G::Move>,
    /// The part of `nodes` and `cutoffs` a helper has reported already.
    reported: (u64, u64),
    seldepth: usize,
    aborted: bool,
    /// How settled the main thread's iterations are, for a clocked search.
    timer: IterationTimer,
    /// `passed_at[ply]`: the node at `ply` was reached by a null move.
    passed_at: Vec<bool>,
    /// Inside the search that confirms a null move's fail-high: no passes.
    verifying_null_move: bool,
    /// `static_evals[ply]`: the node's static evaluation, where it was
    /// worked out, to tell whether a side's position improves.
    static_evals: Vec<Option<Score>>,
    late_move_counts: LateMoveCounts,
    killers: Vec<[Option<G::Move>; 2]>,
    /// `singular_skip[ply]`: the move a singular test at `ply` leaves out;
    /// such a search neither reads its node's score from the table nor
    /// stores one there (the position is the same, the moves are not).
    singular_skip: Vec<Option<G::Move>>,
    /// `reply_tenths[ply]`: the tenths of a ply of extension the line to
    /// the node at `ply` has earned by forced replies and not yet spent.
    reply_tenths: Vec<i32>,
    move_buffers: Vec<Vec<G::Move>>,
    key_buffers: Vec<Vec<(i64, MoveKind)>>,
    pv: Vec<Vec<G::Move>>,
    /// The root moves searched (`go searchmoves`; empty: the knowledge's).
    root_moves: Vec<G::Move>,
    /// Root moves left out of this line: the better lines' first moves.
    excluded: Vec<G::Move>,
    /// Best moves checked against the opponent's forced win, and those it
    /// refuted, which every later iteration leaves out.
    root_checks: refutation::RootChecks<G::Move>,
    first_iteration_done: bool,
    /// The running iteration's depth, which bounds the extensions.
    iteration_depth: i32,
}

impl<'a, G: Game, K: AlphaBetaKnowledge<G>> Searcher<'a, G, K> {
    fn new(
        game: G,
        knowledge: &'a mut K,
        history: Vec<i32>,
        control: SearchControl,
        shared: SharedSearch<'a, G::Move>,
        thread_id: usize,
    ) -> Self {
        let SharedSearch {
            tt,
            stop,
            ponderhit,
            reports: helper_reports,
            root_moves,
        } = shared;
        let start = Instant::now();
        // A ponder search has no deadline until `ponderhit`; the engine
        // then stops it at the maximum.
        let hard = match control.ponder {
            true => None,
            false => control.budget.maximum.map(|hard| start + hard),
        };
        knowledge.prepare_search(&game, &Deadline::new(hard, Arc::clone(stop)));
        let late_move_counts = LateMoveCounts::new(&control.params);
        Searcher {
            game,
            knowledge,
            tt,
            history,
            stop,
            ponderhit,
            control,
            start,
            nodes: 0,
            cutoffs: 0,
            thread_id,
            helper_reports,
            reported: (0, 0),
            seldepth: 0,
            aborted: false,
            timer: IterationTimer::default(),
            passed_at: vec![false; MAX_PLY + 1],
            verifying_null_move: false,
            static_evals: vec![None; MAX_PLY + 1],
            late_move_counts,
            killers: vec![[None; 2]; MAX_PLY + 1],
            singular_skip: vec![None; MAX_PLY + 1],
            reply_tenths: vec![0; MAX_PLY + 1],
            move_buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            key_buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            root_moves: root_moves.to_vec(),
            excluded: Vec::new(),
            root_checks: refutation::RootChecks::default(),
            first_iteration_done: false,
            iteration_depth: 0,
        }
    }

    fn with_totals(&self, mut result: SearchResult<G::Move>) -> SearchResult<G::Move> {
        result.nodes = self.total_nodes();
        result.cutoffs = self.total_cutoffs();
        result.elapsed = self.start.elapsed();
        result
    }

    /// A helper deepens like the main thread, without reporting, solving or
    /// answering; odd helpers run one depth ahead, so that the threads spread
    /// over two depths and fill the shared table with deeper entries.
    fn run_helper(&mut self) {
        self.decay_history();
        let mut previous_score = 0;
        let first_depth = 1 + (self.thread_id % 2) as u32;
        for depth in first_depth..=self.control.max_depth.min(MAX_PLY as u32 - 1) {
            let score = self.aspiration(depth as i32, previous_score);
            if self.aborted {
                break;
            }
            previous_score = score;
            let mut deepest = self.helper_reports.deepest();
            if deepest.as_ref().is_none_or(|d| d.depth < depth) && !self.pv[0].is_empty() {
                *deepest = Some(CompletedIteration {
                    depth,
                    score,
                    pv: self.pv[0].clone(),
                });
            }
        }
        self.report_helper_counts();
    }

    /// A helper one depth ahead may have completed an iteration deeper than
    /// the main thread's last: its move is then the better informed.
    fn adopt_deeper_helper_iteration(&self, result: &mut SearchResult<G::Move>) {
        let deepest = self.helper_reports.deepest();
        let deeper = |h: &&CompletedIteration<G::Move>| {
            h.depth > result.depth
                && h.pv
                    .first()
                    .is_none_or(|mv| !self.root_checks.is_refuted(mv))
        };
        if let Some(helper) = deepest.as_ref().filter(deeper) {
            result.depth = helper.depth;
            result.score = helper.score;
            result.pv = helper.pv.clone();
            result.best_move = helper.pv.first().copied();
        }
    }

    /// The history table, for the next search.
    fn take_history(&mut self) -> Vec<i32> {
        std::mem::take(&mut self.history)
    }

    fn report_helper_counts(&mut self) {
        let (nodes, cutoffs) = self.reported;
        self.helper_reports
            .add_counts(self.nodes - nodes, self.cutoffs - cutoffs);
        self.reported = (self.nodes, self.cutoffs);
    }

    /// This thread's nodes, and for the main thread the helpers' too.
    fn total_nodes(&self) -> u64 {
        match self.thread_id {
            0 => self.nodes + self.helper_reports.counts().0,
            _ => self.nodes,
        }
    }

    fn total_cutoffs(&self) -> u64 {
        match self.thread_id {
            0 => self.cutoffs + self.helper_reports.counts().1,
            _ => self.cutoffs,
        }
    }

    /// The info line for `result`, with the PV in the game's notation.
    fn info(&self, result: &SearchResult<G::Move>, finished: bool) -> SearchInfo {
        let pv = self.game.format_line(&result.pv);
        SearchInfo {
            depth: result.depth,
            seldepth: (self.seldepth as u32).max(result.depth),
            score: result.score,
            nodes: self.total_nodes(),
            cutoffs: self.total_cutoffs(),
            elapsed: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv,
            best_move: result.best_move.map(|mv| self.game.format_move(mv)),
            finished,
            multipv: None,
        }
    }

    fn aspiration(&mut self, depth: i32, previous: Score) -> Score {
        if depth < 4 || previous.abs() >= MATE_BOUND {
            return self.negamax(depth, -INFINITY, INFINITY, 0, NodeKind::Pv);
        }
        let mut delta = self.control.params.aspiration_window;
        let mut alpha = (previous - delta).max(-INFINITY);
        let mut beta = (previous + delta).min(INFINITY);
        loop {
            let score = self.negamax(depth, alpha, beta, 0, NodeKind::Pv);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta = delta.saturating_mul(3);
            if delta > 2_000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }
}
