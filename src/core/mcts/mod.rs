//! Game-independent Monte Carlo tree search: UCT with RAVE over the
//! knowledge's playouts, with proven results backed up the tree (a child
//! that wins settles its parent; so do children that all lose).
//!
//! The game supplies the simulations (`MonteCarloKnowledge::playout`), the
//! moves worth a node (`Knowledge::search_moves`), results provable on the
//! spot (`forced_result`) and what it believes of a move before any
//! simulation (`move_prior`, `move_policy`). The search runs on one thread; its tree takes
//! the memory the `Hash` option gives and is kept for the next move
//! (`reuse.rs`, `MonteCarloTables`); under a clock it stops when the
//! root's race is decided (`clock.rs`).

mod clock;
mod knowledge;
mod playout;
mod report;
mod reuse;
#[cfg(test)]
mod tests;
mod thread_times;
mod tree;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng;

use clock::{clock_says_stop, ClockState, RootRace};
pub use knowledge::MonteCarloKnowledge;
pub use playout::{random_playout, PlayoutRecord, PLAYOUT_PLY_LIMIT};
pub use report::{tree_report, CandidateReport, TreeReport};
pub use reuse::{KeptTree, MonteCarloTables};
use thread_times::ThreadTimes;
use tree::{NewChild, Node, Proof, Selection, Tree, ROOT};

use super::control::{
    proven_score, wait_for_release, SearchControl, SearchInfo, SearchResult, SearchSignals,
};
use super::game::{Game, MoveCode, Outcome, Player, Score};
use super::knowledge::Deadline;

/// Simulations between two looks at the clock and the stop flag: a
/// simulation takes some 35 us on 11x11 Hex, the clock some nanoseconds.
/// (At 64, the first batch after a slow root took 2 to 10 ms, more than
/// a 20 ms move with its overhead could absorb.)
const CHECK_INTERVAL: u64 = 8;
/// Time between two progress reports.
const REPORT_INTERVAL: Duration = Duration::from_millis(1_000);
/// The share of the move's time the game's own root solver may take.
const ROOT_SOLVER_SHARE: u32 = 4;
/// The largest score a simulation mean turns into (a proven result is
/// beyond it).
const MEAN_SCORE_LIMIT: f64 = 5_000.0;

/// Searches `game` within `control` and returns the move simulated most
/// (or proven best). Only `root_moves` are searched at the root, unless it
/// is empty. `report` is called about every second and a last time with
/// `finished` set.
pub fn search<G: Game, K: MonteCarloKnowledge<G>>(
    game: G,
    knowledge: &mut K,
    tables: &mut MonteCarloTables<G>,
    signals: &SearchSignals,
    control: SearchControl,
    root_moves: &[G::Move],
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult<G::Move> {
    // The clock runs from here: copying a large kept tree takes time too.
    let start = Instant::now();
    let capacity = tables.megabytes * (1 << 20) / std::mem::size_of::<Node>();
    let kept = tables.kept.take().filter(|_| root_moves.is_empty());
    let tree = kept
        .and_then(|kept| reuse::subtree(kept, &game, knowledge, capacity))
        .filter(|tree| tree.node(ROOT).expanded && tree.node(ROOT).proof == Proof::Open)
        .unwrap_or_else(|| Tree::new(capacity));
    let root = game.clone();
    let mut search = MonteCarlo::new(game, knowledge, control, signals, tree, start);
    let result = search.run(root_moves, report);
    // The answer goes out with the last report, which `go infinite` and
    // `go ponder` hold back until they are released.
    wait_for_release(&control, signals);
    report(&search.info(&result, true));
    // A root cut down by `go searchmoves` must not come back as a root.
    tables.kept = root_moves.is_empty().then(|| KeptTree {
        root,
        tree: search.tree,
    });
    result
}

struct MonteCarlo<'a, G: Game, K> {
    game: G,
    knowledge: &'a mut K,
    tree: Tree,
    control: SearchControl,
    signals: &'a SearchSignals,
    rule: Selection,
    expand_visits: u32,
    /// 0: no closer looks.
    knowledge_visits: u32,
    rng: SmallRng,
    record: PlayoutRecord,
    start: Instant,
    simulations: u64,
    seldepth: usize,
    /// The line of the running simulation: its nodes, the player to move
    /// at each, and the moves played.
    path: Vec<u32>,
    to_move: Vec<Player>,
    line: Vec<G::Move>,
    moves: Vec<G::Move>,
    /// The knowledge's policy over `moves`, when it has one.
    policy: Vec<f32>,
}

impl<'a, G: Game, K: MonteCarloKnowledge<G>> MonteCarlo<'a, G, K> {
    fn new(
        game: G,
        knowledge: &'a mut K,
        control: SearchControl,
        signals: &'a SearchSignals,
        mut tree: Tree,
        start: Instant,
    ) -> Self {
        // A kept root had its closer look as an inner node; the knowledge
        // may see more at a root.
        tree.node_mut(ROOT).looked = false;
        let params = control.params;
        let bound = knowledge.move_index_bound(&game);
        MonteCarlo {
            rng: SmallRng::seed_from_u64(game.hash() ^ 0x9e37_79b9_7f4a_7c15),
            game,
            knowledge,
            tree,
            control,
            signals,
            rule: Selection {
                exploration: params.mcts_exploration as f32 / 1_000.0,
                rave_bias: params.mcts_rave_bias as f32 / 1_000_000.0,
                first_play: params.mcts_first_play as f32 / 1_000.0,
                progressive_bias: params.mcts_progressive_bias as f32 / 1_000.0,
            },
            expand_visits: params.mcts_expand_visits.max(1) as u32,
            knowledge_visits: params.mcts_knowledge_visits.max(0) as u32,
            record: PlayoutRecord::new(bound),
            start,
            simulations: 0,
            seldepth: 0,
            path: Vec::new(),
            to_move: Vec::new(),
            line: Vec::new(),
            moves: Vec::new(),
            policy: Vec::new(),
        }
    }

    fn run(
        &mut self,
        root_moves: &[G::Move],
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<G::Move> {
        let hard = match self.control.ponder {
            true => None,
            false => self.control.budget.maximum.map(|hard| self.start + hard),
        };
        let times_at_start = log::log_enabled!(log::Level::Debug)
            .then(ThreadTimes::now)
            .flatten();
        let deadline = Deadline::new(hard, std::sync::Arc::clone(&self.signals.stop));
        self.knowledge.prepare_search(&self.game, &deadline);
        if self.game.outcome().is_some() {
            return SearchResult::empty();
        }
        if let Some(result) = self.solve_root(&deadline) {
            return result;
        }
        let solved_at = self.start.elapsed();
        if self.tree.node(ROOT).expanded {
            self.narrow_kept_root();
        } else {
            self.expand_root(root_moves);
        }
        let expanded_at = self.start.elapsed();
        let single_move = self.tree.open_children(ROOT) == 1;
        let mut next_report = self.start + REPORT_INTERVAL;
        while !single_move || self.control.until_stopped {
            for _ in 0..CHECK_INTERVAL {
                self.simulate();
            }
            if self.should_stop() {
                break;
            }
            if Instant::now() >= next_report {
                self.report_lines(report);
                next_report += REPORT_INTERVAL;
            }
        }
        if self.control.lines > 1 {
            self.report_lines(report);
        }
        // Where a move's time went, to find what overruns a deadline.
        log::debug!(
            "monte carlo: root solver until {:?}, root moves until {:?}, {} simulations until {:?}",
            solved_at,
            expanded_at,
            self.simulations,
            self.start.elapsed()
        );
        if let Some((start, end)) = times_at_start.zip(ThreadTimes::now()) {
            let spent = end.since(start);
            log::debug!(
                "monte carlo: the thread ran {:?} and waited for a core {:?}",
                spent.running,
                spent.waiting
            );
        }
        self.result()
    }

    /// The game's own solver, given a share of a timed search's time (not
    /// of a ponder search, which has no clock yet). A proven win or draw
    /// is played at once; a proven loss is left to the simulations, which
    /// find the most stubborn defence, as in alpha-beta (`search/solving.rs`).
    fn solve_root(&mut self, deadline: &Deadline) -> Option<SearchResult<G::Move>> {
        if self.control.ponder {
            return None;
        }
        let share = self.control.budget.optimum? / ROOT_SOLVER_SHARE;
        let mut nodes = 0;
        let solution =
            self.knowledge
                .solve_root(&mut self.game, &deadline.within(share), &mut nodes)?;
        if solution.plies < 0 {
            return None;
        }
        Some(SearchResult {
            best_move: Some(solution.best_move),
            score: proven_score(solution.plies),
            depth: 1,
            nodes,
            cutoffs: 0,
            pv: vec![solution.best_move],
            elapsed: self.start.elapsed(),
        })
    }

    fn expand_root(&mut self, root_moves: &[G::Move]) {
        self.knowledge.search_moves(&self.game, &mut self.moves);
        if !root_moves.is_empty() {
            // `go searchmoves` may name moves the knowledge left out.
            self.moves.clear();
            self.moves.extend_from_slice(root_moves);
        }
        self.add_children(ROOT);
    }

    /// A kept root was expanded below an earlier root, with the moves of
    /// an inner node; a root may have fewer (Hex's must-play). The others
    /// are left out as a fresh root would leave them out.
    fn narrow_kept_root(&mut self) {
        self.knowledge.search_moves(&self.game, &mut self.moves);
        if self.moves.is_empty() {
            return;
        }
        self.leave_out_children_but_moves(ROOT);
    }

    /// Leaves out the open children of `id` that are not among
    /// `self.moves`, and settles `id` if that decides it.
    fn leave_out_children_but_moves(&mut self, id: u32) {
        for child in self.tree.children(id) {
            let node = self.tree.node_mut(child);
            let kept = self.moves.iter().any(|mv| mv.to_code() == node.code);
            if !kept && node.proof == Proof::Open {
                node.proof = Proof::Pruned;
            }
        }
        self.tree.settle_from_children(id);
    }

    /// Gives `id`, where `self.game` stands, a child for each of
    /// `self.moves` with the knowledge's prior.
    fn add_children(&mut self, id: u32) {
        if !self.tree.has_room(self.moves.len()) {
            return;
        }
        let (game, knowledge) = (&self.game, &mut *self.knowledge);
        // A policy the selection would not read is not computed.
        match self.rule.progressive_bias > 0.0 {
            true => knowledge.move_policy(game, &self.moves, &mut self.policy),
            false => self.policy.clear(),
        }
        let policy = &self.policy;
        let children = self.moves.iter().enumerate().map(|(at, &mv)| {
            let (prior_visits, prior_wins) = knowledge.move_prior(game, mv);
            NewChild {
                code: mv.to_code(),
                index: knowledge.move_index(game, mv) as u32,
                prior_visits,
                prior_wins,
                policy: policy.get(at).copied().unwrap_or(0.0),
            }
        });
        self.tree.expand(id, children);
    }

    /// Expands the leaf `id` where `self.game` stands, or settles it: the
    /// game is over there, or the knowledge proves its result.
    fn expand(&mut self, id: u32) {
        let mover = self.game.side_to_move();
        let proof = match self.game.outcome() {
            Some(Outcome::Win(winner)) if winner == mover => Some(Proof::Loss(0)),
            Some(Outcome::Win(_)) => Some(Proof::Win(0)),
            Some(Outcome::Draw) => Some(Proof::Draw),
            None => self
                .knowledge
                .forced_result(&mut self.game)
                .map(proof_of_result),
        };
        if let Some(proof) = proof {
            self.tree.node_mut(id).proof = proof;
            return;
        }
        self.knowledge.search_moves(&self.game, &mut self.moves);
        if self.moves.is_empty() {
            self.tree.node_mut(id).proof = Proof::Draw;
            return;
        }
        self.add_children(id);
    }

    /// The knowledge's closer look at the expanded node `id`, where
    /// `self.game` stands: a proven result, or children proven lost.
    fn look_closer(&mut self, id: u32) {
        self.tree.node_mut(id).looked = true;
        self.moves.clear();
        for child in self.tree.children(id) {
            self.moves
                .push(G::Move::from_code(self.tree.node(child).code));
        }
        if let Some(plies) = self.knowledge.closer_look(&mut self.game, &mut self.moves) {
            self.tree.node_mut(id).proof = proof_of_result(plies);
            return;
        }
        self.leave_out_children_but_moves(id);
    }

    /// One simulation: down the tree to a leaf, expanded or settled on
    /// the way, a playout from there, and its result backed up.
    fn simulate(&mut self) {
        self.path.clear();
        self.to_move.clear();
        self.record.clear();
        let mut id = ROOT;
        let winner = loop {
            self.path.push(id);
            self.to_move.push(self.game.side_to_move());
            if !self.tree.node(id).expanded
                && self.tree.node(id).proof == Proof::Open
                && (id == ROOT || self.tree.node(id).visits + 1 >= self.expand_visits)
            {
                self.expand(id);
            }
            if self.knowledge_visits > 0
                && self.tree.node(id).expanded
                && !self.tree.node(id).looked
                && self.tree.node(id).visits >= self.knowledge_visits
            {
                self.look_closer(id);
            }
            let node = *self.tree.node(id);
            if node.proof != Proof::Open {
                break proof_winner(node.proof, self.game.side_to_move().other());
            }
            if !node.expanded {
                let (game, rng, record) = (&mut self.game, &mut self.rng, &mut self.record);
                break self.knowledge.playout(game, rng, record);
            }
            match self.tree.select(id, &self.rule) {
                Some(child) => {
                    let mv = G::Move::from_code(self.tree.node(child).code);
                    self.game.make_move(mv);
                    self.line.push(mv);
                    id = child;
                }
                None => {
                    // Every child is proven lost for the mover.
                    self.tree.settle_from_children(id);
                    let into = self.game.side_to_move().other();
                    break proof_winner(self.tree.node(id).proof, into);
                }
            }
        };
        while let Some(mv) = self.line.pop() {
            self.game.unmake_move(mv);
        }
        self.seldepth = self.seldepth.max(self.path.len());
        self.tree
            .back_up(&self.path, &self.to_move, winner, &mut self.record);
        self.settle_path();
        self.simulations += 1;
    }

    /// Backs proven results up the simulation's line, as far as they
    /// decide the nodes above.
    fn settle_path(&mut self) {
        for &id in self.path.iter().rev().skip(1) {
            if self.tree.node(id).proof != Proof::Open {
                continue;
            }
            self.tree.settle_from_children(id);
            if self.tree.node(id).proof == Proof::Open {
                break;
            }
        }
    }

    fn should_stop(&self) -> bool {
        if self.signals.stop.load(Ordering::Relaxed) {
            return true;
        }
        if self.control.until_stopped {
            return false;
        }
        if self.tree.node(ROOT).proof != Proof::Open {
            return true;
        }
        if self
            .control
            .max_nodes
            .is_some_and(|nodes| self.simulations >= nodes)
        {
            return true;
        }
        let Some(optimum) = self.control.budget.optimum else {
            return false;
        };
        let started = match self.control.ponder {
            true => match self.signals.ponderhit.hit_at() {
                Some(hit) => hit,
                None => return false,
            },
            false => self.start,
        };
        let now = Instant::now();
        if !self.control.budget.adaptive {
            return now >= started + optimum;
        }
        let clock = ClockState {
            elapsed: now.saturating_duration_since(started),
            optimum,
            maximum: self.control.budget.maximum.unwrap_or(optimum),
            rate: self.simulations as f64 / now.duration_since(self.start).as_secs_f64().max(1e-3),
        };
        clock_says_stop(self.root_race(), clock)
    }

    /// The open root moves' race, for the clock.
    fn root_race(&self) -> RootRace {
        let open = self
            .tree
            .children(ROOT)
            .map(|child| self.tree.node(child))
            .filter(|node| node.proof == Proof::Open);
        RootRace::of(open.map(|node| (node.visits, node.mean())))
    }

    fn result(&self) -> SearchResult<G::Move> {
        match self.tree.best_child(ROOT) {
            Some(child) => self.line_result(child),
            None => SearchResult::empty(),
        }
    }

    /// The result of playing the root's child `first`: its line on down
    /// the most simulated moves, and its value.
    fn line_result(&self, first: u32) -> SearchResult<G::Move> {
        let pv = report::line_from(&self.tree, first);
        SearchResult {
            best_move: pv.first().copied(),
            score: node_score(self.tree.node(first)),
            depth: pv.len() as u32,
            nodes: self.simulations,
            cutoffs: 0,
            pv,
            elapsed: self.start.elapsed(),
        }
    }

    /// The progress report: the best line, or with `MultiPV` the best
    /// few root moves' lines, best first.
    fn report_lines(&self, report: &mut dyn FnMut(&SearchInfo)) {
        if self.control.lines <= 1 {
            report(&self.info(&self.result(), false));
            return;
        }
        let ranked = self.tree.ranked_children(ROOT);
        for (index, &child) in ranked.iter().take(self.control.lines).enumerate() {
            let mut info = self.info(&self.line_result(child), false);
            info.multipv = Some(index + 1);
            report(&info);
        }
    }

    fn info(&self, result: &SearchResult<G::Move>, finished: bool) -> SearchInfo {
        SearchInfo {
            depth: result.depth,
            seldepth: (self.seldepth as u32).max(result.depth),
            score: result.score,
            nodes: result.nodes.max(self.simulations),
            cutoffs: 0,
            elapsed: self.start.elapsed(),
            hashfull: self.tree.fill_permille(),
            pv: self.game.format_line(&result.pv),
            best_move: result.best_move.map(|mv| self.game.format_move(mv)),
            finished,
            multipv: None,
        }
    }
}

/// A node's proof from a result for the side to move there, counted as
/// `Knowledge::forced_result` counts it.
fn proof_of_result(plies: i32) -> Proof {
    let length = plies.unsigned_abs().min(u32::from(u16::MAX)) as u16;
    match plies {
        0 => Proof::Draw,
        p if p > 0 => Proof::Loss(length),
        _ => Proof::Win(length),
    }
}

/// Who wins a node with `proof`, where `into` moved into it.
fn proof_winner(proof: Proof, into: Player) -> Option<Player> {
    match proof {
        Proof::Win(_) => Some(into),
        Proof::Loss(_) => Some(into.other()),
        Proof::Pruned => Some(into.other()),
        Proof::Draw | Proof::Open => None,
    }
}

/// A child's value to the root's mover as a score: a proven result as a
/// mate score, a mean as centi-units on the logistic scale (a 76% mean
/// is about +200).
fn node_score(node: &Node) -> Score {
    // A child's plies count from the child: one more from the root.
    match node.proof {
        Proof::Win(plies) => proven_score(i32::from(plies) + 1),
        Proof::Loss(plies) => proven_score(-(i32::from(plies) + 1)),
        Proof::Pruned => proven_score(-1),
        Proof::Draw => 0,
        Proof::Open => {
            let mean = f64::from(node.mean()).clamp(1e-6, 1.0 - 1e-6);
            let score = 400.0 * (mean / (1.0 - mean)).log10();
            score.clamp(-MEAN_SCORE_LIMIT, MEAN_SCORE_LIMIT).round() as Score
        }
    }
}
