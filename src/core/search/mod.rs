//! Game-independent alpha-beta search: negamax with principal-variation search,
//! iterative deepening, aspiration windows, a transposition table, killer and
//! history move ordering, late-move reductions and quiescence over the game's
//! noisy moves. `threads.rs` runs one `Searcher` per thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod pruning;
mod root;

use super::game::{Game, Outcome, Score, INFINITY, MATE, MATE_BOUND};
use super::knowledge::{Deadline, Knowledge};
use super::params::SearchParams;
use super::strength::Skill;
use super::threads::{CompletedIteration, HelperReports, HELPER_COUNT_INTERVAL};
use super::time::{IterationTimer, PonderHit, TimeBudget};
use super::tt::{Bound, TranspositionTable};
use pruning::ThreatCheck;

/// Deepest ply the search tracks (main search plus quiescence).
pub const MAX_PLY: usize = 128;

/// Tables that outlive one search: kept between moves of a game, cleared by
/// `ucinewgame`. Each search thread has its own knowledge (index 0 is the
/// main thread's); the transposition table is shared.
pub struct SearchTables<G: Game, K> {
    pub tt: TranspositionTable<G::Move>,
    pub(super) history: Vec<i32>,
    pub(super) knowledge: Vec<K>,
}

impl<G: Game, K: Knowledge<G>> SearchTables<G, K> {
    pub fn new(hash_megabytes: usize) -> Self {
        SearchTables {
            tt: TranspositionTable::new(hash_megabytes),
            history: Vec::new(),
            knowledge: Vec::new(),
        }
    }

    /// The main search thread's knowledge (its statistics), once a search
    /// has made it.
    pub fn main_knowledge(&self) -> Option<&K> {
        self.knowledge.first()
    }

    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.knowledge.clear();
    }
}

/// Progress of a search, reported after each completed iteration and once
/// more when the search ends (`finished`).
#[derive(Clone, Debug, Default)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    /// Beta cut-offs so far (the statistic the seed programs logged per move).
    pub cutoffs: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub pv: Vec<String>,
    pub best_move: Option<String>,
    pub finished: bool,
    /// With `MultiPV` above 1, which line this is (1 the best); `None` for
    /// a single-line search and for the final report.
    pub multipv: Option<usize>,
}

impl SearchInfo {
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / micros
    }

    /// Moves (not plies) to a proven result: positive when the side to move
    /// wins, negative when it loses; `None` for an ordinary score.
    pub fn mate_in(&self) -> Option<i32> {
        mate_distance_in_moves(self.score)
    }
}

/// Converts a mate score to moves to mate (UCI `score mate N`).
pub fn mate_distance_in_moves(score: Score) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-((MATE + score + 1) / 2))
    } else {
        None
    }
}

/// The outcome of a whole search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best_move: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub cutoffs: u64,
    pub pv: Vec<M>,
    pub elapsed: Duration,
}

impl<M> SearchResult<M> {
    /// No move, no search: the result before the first iteration completes.
    pub fn empty() -> Self {
        SearchResult {
            best_move: None,
            score: 0,
            depth: 0,
            nodes: 0,
            cutoffs: 0,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }
}

/// Limits the search itself enforces (the protocol turns `go` into these).
#[derive(Clone, Copy, Debug)]
pub struct SearchControl {
    pub max_depth: u32,
    pub max_nodes: Option<u64>,
    pub budget: TimeBudget,
    /// `go infinite`: answer only when stopped, even when a result is proven.
    pub until_stopped: bool,
    pub params: SearchParams,
    /// Root lines reported (`MultiPV`): each after the first is searched
    /// with the better ones left out.
    pub lines: usize,
    /// `go ponder`: no time limit until `ponderhit`, then `budget` from
    /// that moment; no answer before `ponderhit` or `stop`.
    pub ponder: bool,
    /// Below full strength: several lines, one picked at random.
    pub skill: Option<Skill>,
}

impl Default for SearchControl {
    /// As deep as the search goes, with no other limit.
    fn default() -> Self {
        SearchControl {
            max_depth: MAX_PLY as u32 - 1,
            max_nodes: None,
            budget: TimeBudget::UNLIMITED,
            until_stopped: false,
            params: SearchParams::default(),
            lines: 1,
            ponder: false,
            skill: None,
        }
    }
}

/// How a caller reaches a running search: `stop`, and `ponderhit` for a
/// search started with `ponder`.
#[derive(Clone, Debug, Default)]
pub struct SearchSignals {
    pub stop: Arc<AtomicBool>,
    pub ponderhit: Arc<PonderHit>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum MoveKind {
    Table,
    Tactical,
    Killer,
    Quiet,
}

/// A game's exact root solver may use this fraction (1/n) of a timed search.
const EXACT_SOLVE_SHARE: u32 = 2;
/// The shortest try of a game's solver during `go infinite`.
const LEAST_ANALYSIS_SOLVE_SLICE: Duration = Duration::from_millis(10);
const HISTORY_LIMIT: i32 = 1 << 20;
/// Ordering keys, far apart so that one category never overtakes another.
const KEY_TABLE: i64 = 1 << 62;
const KEY_TACTICAL: i64 = 1 << 50;
const KEY_KILLER: i64 = 1 << 40;

/// What every search thread of one search shares: the transposition table,
/// the stop flag, and where helpers report to the main thread.
pub(super) struct SharedSearch<'a, M> {
    pub(super) tt: &'a TranspositionTable<M>,
    pub(super) stop: &'a Arc<AtomicBool>,
    pub(super) ponderhit: &'a PonderHit,
    pub(super) reports: &'a HelperReports<M>,
    /// `go searchmoves`: the only root moves searched (empty: all).
    pub(super) root_moves: &'a [M],
}

impl<M> Clone for SharedSearch<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for SharedSearch<'_, M> {}

/// One thread's search: its own position, knowledge, move ordering and
/// counts; the transposition table is shared.
pub(super) struct Searcher<'a, G: Game, K> {
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
    /// `Game::hints_every_move`, read once.
    every_move_hinted: bool,
    killers: Vec<[Option<G::Move>; 2]>,
    move_buffers: Vec<Vec<G::Move>>,
    key_buffers: Vec<Vec<(i64, MoveKind)>>,
    pv: Vec<Vec<G::Move>>,
    /// The root moves searched (`go searchmoves`; empty: the knowledge's).
    root_moves: Vec<G::Move>,
    /// Root moves left out of this line: the better lines' first moves.
    excluded: Vec<G::Move>,
    first_iteration_done: bool,
}

impl<'a, G: Game, K: Knowledge<G>> Searcher<'a, G, K> {
    pub(super) fn new(
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
            every_move_hinted: K::hints_every_move(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            move_buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            key_buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            root_moves: root_moves.to_vec(),
            excluded: Vec::new(),
            first_iteration_done: false,
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
    pub(super) fn run_helper(&mut self) {
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
        if let Some(helper) = deepest.as_ref().filter(|h| h.depth > result.depth) {
            result.depth = helper.depth;
            result.score = helper.score;
            result.pv = helper.pv.clone();
            result.best_move = helper.pv.first().copied();
        }
    }

    /// The history table, for the next search.
    pub(super) fn take_history(&mut self) -> Vec<i32> {
        std::mem::take(&mut self.history)
    }

    /// Old games' habits fade but are not forgotten.
    fn decay_history(&mut self) {
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    fn report_helper_counts(&mut self) {
        let (nodes, cutoffs) = self.reported;
        self.helper_reports
            .add_counts(self.nodes - nodes, self.cutoffs - cutoffs);
        self.reported = (self.nodes, self.cutoffs);
    }

    /// This thread's nodes, and for the main thread the helpers' too.
    pub(super) fn total_nodes(&self) -> u64 {
        match self.thread_id {
            0 => self.nodes + self.helper_reports.counts().0,
            _ => self.nodes,
        }
    }

    pub(super) fn total_cutoffs(&self) -> u64 {
        match self.thread_id {
            0 => self.cutoffs + self.helper_reports.counts().1,
            _ => self.cutoffs,
        }
    }

    /// Gives the game's own exact solver the first part of a timed search
    /// (not of a search limited by depth or nodes, whose result must not
    /// depend on the clock). A proven win or draw is played at once; a proven
    /// loss is left to the search, which picks the most stubborn defence.
    fn solve_root_exactly(&mut self) -> Option<SearchResult<G::Move>> {
        let hard = self.control.budget.maximum?;
        let unlimited_depth = self.control.max_depth >= MAX_PLY as u32 - 1;
        if self.analysing()
            || self.control.ponder
            || self.control.max_nodes.is_some()
            || !unlimited_depth
            || !self.whole_root_one_line()
        {
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
        result.score = Self::proven_score(solution.plies);
        result.nodes = self.nodes;
        result.elapsed = self.start.elapsed();
        Some(result)
    }

    /// `go infinite` has no clock to share out, so between two iterations
    /// the game's solver gets as long as the search has run so far: at most
    /// about half the time goes to attempts that fail, and the analyst sees a
    /// proof soon after one is within reach. A proven loss keeps the
    /// search's move, the most stubborn defence it has found.
    fn prove_root_between_iterations(
        &mut self,
        searched: &SearchResult<G::Move>,
    ) -> Option<SearchResult<G::Move>> {
        let slice = self.start.elapsed().max(LEAST_ANALYSIS_SOLVE_SLICE);
        let deadline = Deadline::new(Some(Instant::now() + slice), Arc::clone(self.stop));
        let solution = self
            .knowledge
            .solve_root(&mut self.game, &deadline, &mut self.nodes)?;
        let mut result = searched.clone();
        result.score = Self::proven_score(solution.plies);
        if solution.plies >= 0 {
            result.best_move = Some(solution.best_move);
            result.pv = vec![solution.best_move];
        }
        Some(result)
    }

    fn proven_score(plies: i32) -> Score {
        match plies {
            0 => 0,
            plies => Self::forced_score(plies, 0),
        }
    }

    /// The info line for `result`, with the PV in the game's notation.
    pub(super) fn info(&self, result: &SearchResult<G::Move>, finished: bool) -> SearchInfo {
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
            return self.negamax(depth, -INFINITY, INFINITY, 0, true);
        }
        let mut delta = self.control.params.aspiration_window;
        let mut alpha = (previous - delta).max(-INFINITY);
        let mut beta = (previous + delta).min(INFINITY);
        loop {
            let score = self.negamax(depth, alpha, beta, 0, true);
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

    /// No new iteration starts past the optimum time, scaled under a clock
    /// by how settled the search is (but never past the maximum).
    fn soft_time_is_up(&self) -> bool {
        let budget = self.control.budget;
        let (Some(optimum), Some(clock_start)) = (budget.optimum, self.clock_start()) else {
            return false;
        };
        let limit = if budget.adaptive {
            let scaled = optimum.mul_f64(self.timer.scale());
            budget.maximum.map_or(scaled, |maximum| scaled.min(maximum))
        } else {
            optimum
        };
        clock_start.elapsed() >= limit
    }

    /// When the clock started: at the start of the search, or for a ponder
    /// search at `ponderhit` (`None` before it: no time limit yet).
    fn clock_start(&self) -> Option<Instant> {
        match self.control.ponder {
            true => self.ponderhit.hit_at(),
            false => Some(self.start),
        }
    }

    /// `go infinite`, or pondering before `ponderhit`: deepen until stopped.
    fn analysing(&self) -> bool {
        self.control.until_stopped || self.clock_start().is_none()
    }

    /// A node limit never cuts the first iteration short: a search always
    /// has a searched move to give (and a weakened level lines to choose from).
    fn node_limit_reached(&self) -> bool {
        self.first_iteration_done
            && self
                .control
                .max_nodes
                .is_some_and(|max| self.total_nodes() >= max)
    }

    /// Polled at every node: the stop flag, the hard deadline, the node limit.
    /// Every node, not every few: a game's node may cost milliseconds (a
    /// threat-space probe), and a clock read costs nanoseconds.
    fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.thread_id > 0 && self.nodes - self.reported.0 >= HELPER_COUNT_INTERVAL {
            self.report_helper_counts();
        }
        let out_of_time = match (self.control.budget.maximum, self.clock_start()) {
            (Some(hard), Some(clock_start)) => clock_start.elapsed() >= hard,
            _ => false,
        };
        if out_of_time || self.node_limit_reached() || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Score of a finished game for the side to move, `ply` plies from the root.
    fn terminal_score(&self, outcome: Outcome, ply: usize) -> Score {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(winner) if winner == self.game.side_to_move() => MATE - ply as Score,
            Outcome::Win(_) => -(MATE - ply as Score),
        }
    }

    fn forced_score(plies: i32, ply: usize) -> Score {
        if plies > 0 {
            MATE - (ply as Score + plies)
        } else {
            -(MATE - (ply as Score - plies))
        }
    }

    fn negamax(
        &mut self,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        pv_node: bool,
    ) -> Score {
        self.pv[ply].clear();
        if ply > 0 {
            if let Some(outcome) = self.game.outcome() {
                return self.terminal_score(outcome, ply);
            }
            if self.should_abort() {
                return 0;
            }
            // No line from here can beat a shorter mate already found.
            alpha = alpha.max(-(MATE - ply as Score));
            beta = beta.min(MATE - ply as Score - 1);
            if alpha >= beta {
                return alpha;
            }
            let forced = self.knowledge.forced_result(&mut self.game);
            self.nodes += self.knowledge.take_prover_nodes();
            if let Some(plies) = forced {
                return Self::forced_score(plies, ply);
            }
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(alpha, beta, ply);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        let key = self.game.hash();
        let hit = self.tt.probe(key, ply);
        let table_move = hit.and_then(|h| h.best_move);
        if let Some(hit) = hit {
            if !pv_node && hit.depth as i32 >= depth {
                let usable = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if usable {
                    return hit.score;
                }
            }
        }

        let mut threat = ThreatCheck::default();
        if !pv_node {
            if let Some(score) = self.prune_before_moves(depth, beta, ply, &mut threat) {
                return score;
            }
        }

        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        let mut keys = std::mem::take(&mut self.key_buffers[ply]);
        match ply {
            0 => self.generate_root_moves(&mut moves),
            _ => self.knowledge.search_moves(&self.game, &mut moves),
        }
        if moves.is_empty() {
            self.move_buffers[ply] = moves;
            self.key_buffers[ply] = keys;
            return self.knowledge.evaluate(&self.game);
        }
        self.order_moves(&moves, &mut keys, table_move, ply);

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut quiet_moves = 0;
        for index in 0..moves.len() {
            let (mv, kind) = pick_next(&mut moves, &mut keys, index);
            let reducible =
                kind == MoveKind::Quiet || (kind == MoveKind::Tactical && self.every_move_hinted);
            if reducible && index > 0 {
                quiet_moves += 1;
                if !pv_node && self.skip_late_move(depth, quiet_moves, best_score, &mut threat) {
                    continue;
                }
            }
            let reduction = if reducible && index > 0 {
                self.late_move_reduction(depth, index, mv)
            } else {
                0
            };
            self.game.make_move(mv);
            let score = if index == 0 {
                -self.negamax(depth - 1, -beta, -alpha, ply + 1, pv_node)
            } else {
                let mut score =
                    -self.negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, false);
                if score > alpha && reduction > 0 {
                    score = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.negamax(depth - 1, -beta, -alpha, ply + 1, true);
                }
                score
            };
            self.game.unmake_move(mv);
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        self.cutoffs += 1;
                        if kind != MoveKind::Table
                            && (kind != MoveKind::Tactical || self.every_move_hinted)
                        {
                            self.reward_quiet_move(mv, depth, ply, &moves[..index]);
                        }
                        break;
                    }
                }
            }
        }
        self.move_buffers[ply] = moves;
        self.key_buffers[ply] = keys;
        if self.aborted {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A root searched with moves left out has no value of its own.
        if ply > 0 || self.whole_root() {
            self.tt
                .store(key, ply, depth as i16, best_score, bound, best_move);
        }
        best_score
    }

    fn quiescence(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
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
        let must_respond = ply < MAX_PLY - 1 && self.knowledge.must_respond(&self.game);
        let mut best = -INFINITY;
        if !must_respond {
            let stand_pat = self.knowledge.evaluate(&self.game);
            if stand_pat >= beta || ply >= MAX_PLY - 1 {
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
        for index in 0..moves.len() {
            let (mv, _) = pick_next(&mut moves, &mut keys, index);
            self.game.make_move(mv);
            let score = -self.quiescence(-beta, -alpha, ply + 1);
            self.game.unmake_move(mv);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
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
        best
    }

    fn order_moves(
        &mut self,
        moves: &[G::Move],
        keys: &mut Vec<(i64, MoveKind)>,
        table_move: Option<G::Move>,
        ply: usize,
    ) {
        keys.clear();
        let killers = self.killers[ply];
        for &mv in moves {
            let key = if Some(mv) == table_move {
                (KEY_TABLE, MoveKind::Table)
            } else {
                let hint = self.knowledge.move_order_hint(&self.game, mv) as i64;
                let killer_rank = if Some(mv) == killers[0] {
                    Some(1)
                } else if Some(mv) == killers[1] {
                    Some(0)
                } else {
                    None
                };
                match (hint > 0, killer_rank) {
                    // Above every hinted move: a refutation found next door.
                    (true, Some(rank)) if self.every_move_hinted => {
                        (KEY_TACTICAL + KEY_KILLER + rank, MoveKind::Killer)
                    }
                    (true, _) => (KEY_TACTICAL + hint, MoveKind::Tactical),
                    (false, Some(rank)) => (KEY_KILLER + rank, MoveKind::Killer),
                    (false, None) => {
                        let history =
                            self.history[self.knowledge.move_index(&self.game, mv)] as i64;
                        (history + hint, MoveKind::Quiet)
                    }
                }
            };
            keys.push(key);
        }
    }

    fn reward_quiet_move(&mut self, mv: G::Move, depth: i32, ply: usize, tried_before: &[G::Move]) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let index = self.knowledge.move_index(&self.game, mv);
        add_history(&mut self.history[index], bonus);
        for &worse in tried_before {
            let index = self.knowledge.move_index(&self.game, worse);
            add_history(&mut self.history[index], -bonus);
        }
    }

    /// Plies the `index`th move, a quiet one, is searched less deep; its
    /// history is read (before it is made) only when the parameters ask.
    fn late_move_reduction(&self, depth: i32, index: usize, mv: G::Move) -> i32 {
        let params = &self.control.params;
        let history = match params.lmr_history_divisor {
            0 => 0,
            _ => self.history[self.knowledge.move_index(&self.game, mv)],
        };
        params.late_move_reduction(depth, index as i32, history)
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }
}

/// History with gravity: entries saturate instead of overflowing.
fn add_history(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_LIMIT;
}

/// Selection sort one step at a time: most nodes cut off after a move or two,
/// so sorting the whole list would be wasted work.
fn pick_next<M: Copy>(
    moves: &mut [M],
    keys: &mut [(i64, MoveKind)],
    index: usize,
) -> (M, MoveKind) {
    let mut best = index;
    for i in index + 1..moves.len() {
        if keys[i].0 > keys[best].0 {
            best = i;
        }
    }
    moves.swap(index, best);
    keys.swap(index, best);
    (moves[index], keys[index].1)
}
