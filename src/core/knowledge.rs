//! What every search asks of a game beyond its rules: a per-thread knowledge
//! object.
//!
//! Each search thread owns one `Knowledge` value for the whole life of the
//! engine (kept between moves, replaced by `ucinewgame`, a rule change or a
//! change of its settings): its evaluation and caches, its solvers and their
//! tables, the deadline its long analyses respect. The position stays a plain
//! value that the search passes in; nothing here is shared between threads or
//! global. What one search alone asks is in that search's own trait beside
//! its code: `search::AlphaBetaKnowledge`, `dfpn::ProofKnowledge`,
//! `mcts::MonteCarloKnowledge`.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::game::{Game, MoveCode, OptionSpec, Score};

/// A line of the static evaluation, shown by the `eval` command.
#[derive(Clone, Debug)]
pub struct EvalTerm {
    pub name: String,
    /// This term for player 1, for player 2, and the net contribution to the
    /// side to move's score.
    pub p1: Score,
    pub p2: Score,
}

impl EvalTerm {
    /// A term worth `score` to the side to move, shown as its owner's (a
    /// network's one output, say).
    pub fn for_side_to_move(name: String, mover: super::game::Player, score: Score) -> EvalTerm {
        let (p1, p2) = match mover {
            super::game::Player::P1 => (score, 0),
            super::game::Player::P2 => (0, score),
        };
        EvalTerm { name, p1, p2 }
    }
}

/// What a game's own solver proved about the root (`Knowledge::solve_root`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootSolution<M> {
    pub best_move: M,
    /// The proven result, counted as in `Knowledge::forced_result`: plies > 0
    /// the side to move wins, < 0 it loses, 0 a draw.
    pub plies: i32,
}

/// The limits of the running search, handed to the game by
/// `prepare_search` so that its own long analyses (an exact solver, a threat
/// search) give up when the search must answer.
#[derive(Clone, Debug, Default)]
pub struct Deadline {
    hard: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
}

impl Deadline {
    pub fn new(hard: Option<Instant>, stop: Arc<AtomicBool>) -> Self {
        Deadline {
            hard,
            stop: Some(stop),
        }
    }

    /// True once the search has been stopped or its hard time limit is reached.
    pub fn passed(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
            || self.hard.is_some_and(|hard| Instant::now() >= hard)
    }

    /// The same limits, with the hard one brought forward to at most
    /// `time` from now.
    pub fn within(&self, time: Duration) -> Deadline {
        let sooner = Instant::now() + time;
        Deadline {
            hard: Some(self.hard.map_or(sooner, |hard| hard.min(sooner))),
            stop: self.stop.clone(),
        }
    }

    /// The hard time limit, if there is one.
    pub fn hard(&self) -> Option<Instant> {
        self.hard
    }

    /// The time left before the hard limit, if there is one.
    pub fn remaining(&self) -> Option<Duration> {
        self.hard
            .map(|hard| hard.saturating_duration_since(Instant::now()))
    }
}

/// History slots a knowledge without its own `move_index` uses: moves are
/// folded onto them by their codes (a collision only blurs ordering).
pub const DEFAULT_MOVE_INDEX_BOUND: usize = 1 << 14;

/// The engine options a knowledge reads (an evaluation's choice, a threat
/// search's switches), as plain values: the engine keeps one and hands it to
/// every knowledge it makes, so two engines in one process can differ.
pub trait KnowledgeSettings: Clone + Default + Send + Sync + 'static {
    /// The options, listed after the game's rule options.
    fn option_specs() -> Vec<OptionSpec> {
        Vec::new()
    }

    /// `setoption`: `Ok(false)` when `name` is none of these options (the
    /// engine then looks elsewhere), an error when the value is bad (the
    /// settings are then unchanged).
    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let _ = (name, value);
        Ok(false)
    }
}

/// No options.
impl KnowledgeSettings for () {}

/// Game knowledge for every search: one value per search thread.
///
/// Every method receives the position the search is at; what changes move
/// by move belongs in the position, so the knowledge need not follow the
/// search along its line.
pub trait Knowledge<G: Game>: Sized + Send + 'static {
    /// The option values this knowledge is made with.
    type Settings: KnowledgeSettings;

    /// A knowledge with these settings and empty caches.
    fn new(settings: &Self::Settings) -> Self;

    /// Called before every search with its root and limits: a knowledge
    /// may note where the search starts (to give deeper analysis to the
    /// moves right below the root), reset what must not outlive one search,
    /// and keep the deadline its own long analyses must respect.
    fn prepare_search(&mut self, root: &G, deadline: &Deadline) {
        let _ = (root, deadline);
    }

    /// Static evaluation from the side to move's point of view, in
    /// centi-units (a Breakthrough pawn is about 100).
    fn evaluate(&mut self, position: &G) -> Score;

    /// The evaluation broken into terms, for the `eval` command.
    fn eval_terms(&mut self, position: &G) -> Vec<EvalTerm> {
        let _ = position;
        Vec::new()
    }

    /// Clears `moves` and fills it with the moves the main search should
    /// try. Defaults to every legal move; a knowledge may leave out moves it
    /// can prove are never better than the ones it keeps (dead cells, moves
    /// that ignore a threat that must be answered). Must not be empty when
    /// legal moves exist.
    fn search_moves(&mut self, position: &G, moves: &mut Vec<G::Move>) {
        position.generate_moves(moves);
    }

    /// A result provable cheaply from here without search: `Some(n)` with
    /// n > 0 means the side to move wins in n plies, n < 0 that it loses in
    /// -n plies (an unstoppable runner, a VCF). Called at interior nodes and
    /// at the horizon, so it must be fast or bounded. A prover may play its
    /// sequences out on `position` itself (no copy kept in step with the
    /// search), but must leave it exactly as it found it.
    fn forced_result(&mut self, position: &mut G) -> Option<i32> {
        let _ = position;
        None
    }

    /// Positions the knowledge's own provers visited (`forced_result`'s
    /// threat searches) since the search last asked: it counts them as its
    /// own nodes, so that a node limit bounds all the work of a search.
    fn take_prover_nodes(&mut self) -> u64 {
        0
    }

    /// A key of `position` alone, where `Game::hash` may join it with its
    /// symmetric images (whose cells are elsewhere).
    fn exact_key(&self, position: &G) -> u64 {
        position.hash()
    }

    /// An exact answer for the root of a timed search or of an analysis
    /// (`go infinite`, tried between iterations), for a game with a solver
    /// of its own. The solver must give up (`None`) once `deadline` has
    /// passed; the search then goes on as usual in the time left. The
    /// positions it visits, solved or not, are added to `nodes`. Like
    /// `forced_result`, it may play on `position` and must restore it.
    fn solve_root(
        &mut self,
        position: &mut G,
        deadline: &Deadline,
        nodes: &mut u64,
    ) -> Option<RootSolution<G::Move>> {
        let _ = (position, deadline, nodes);
        None
    }

    /// Ordering hint for the move: larger is tried earlier, after the table
    /// move and before killers/history for positive values. Tactical moves
    /// (captures, threats) should score positive, quiet moves 0 or less.
    fn move_order_hint(&mut self, position: &G, mv: G::Move) -> i32 {
        let _ = (position, mv);
        0
    }

    /// A dense index of the move for the history table, below
    /// `move_index_bound`.
    fn move_index(&self, position: &G, mv: G::Move) -> usize {
        let _ = position;
        mv.to_code() as usize % DEFAULT_MOVE_INDEX_BOUND
    }

    /// Exclusive upper bound of `move_index` in this position's game.
    fn move_index_bound(&self, position: &G) -> usize {
        let _ = position;
        DEFAULT_MOVE_INDEX_BOUND
    }
}

/// The knowledge a game has before it has any: no evaluation (every
/// position scores 0), so the search plays the wins and avoids the losses
/// it can see and otherwise the first move it tries. A new game gets a
/// working engine with it before it writes knowledge of its own.
pub struct PlainKnowledge<G>(PhantomData<fn() -> G>);

impl<G> Default for PlainKnowledge<G> {
    fn default() -> Self {
        PlainKnowledge(PhantomData)
    }
}

impl<G: Game> Knowledge<G> for PlainKnowledge<G> {
    type Settings = ();

    fn new(_settings: &()) -> Self {
        PlainKnowledge::default()
    }

    fn evaluate(&mut self, _position: &G) -> Score {
        0
    }
}
