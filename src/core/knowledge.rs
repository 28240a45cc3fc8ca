//! What the search asks of a game beyond its rules: a per-thread knowledge
//! object.
//!
//! Each search thread owns one `Knowledge` value for the whole life of the
//! engine (kept between moves, replaced by `ucinewgame` or a rule change):
//! its evaluation and caches, its solvers and their tables, the deadline its
//! long analyses respect. The position stays a plain value that the search
//! passes in; nothing here is shared between threads or global.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;

use super::dfpn::ProofCells;
use super::game::{Game, MoveCode, Player, Score};
use super::mcts::{random_playout, PlayoutRecord};
use super::params::SearchParams;
use super::strength::{Ladder, GENERIC_LADDER};
use super::wdl::WdlModel;

/// A line of the static evaluation, shown by the `eval` command.
#[derive(Clone, Debug)]
pub struct EvalTerm {
    pub name: String,
    /// This term for player 1, for player 2, and the net contribution to the
    /// side to move's score.
    pub p1: Score,
    pub p2: Score,
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

    /// The time left before the hard limit, if there is one.
    pub fn remaining(&self) -> Option<Duration> {
        self.hard
            .map(|hard| hard.saturating_duration_since(Instant::now()))
    }
}

/// What a game says of null-move pruning, where a side that could pass
/// and still score at least beta is taken to stand at least that well.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NullMove {
    /// A pass may be a side's best move (or the game has none).
    Unsound,
    /// A move is never worse than a pass (Hex: a stone never hurts its owner).
    Sound,
    /// Zugzwang occurs, rarely: a fail-high after a pass is confirmed by a
    /// shallower search of the real moves before it is trusted.
    Verified,
}

/// Which search an engine runs (the `SearchMethod` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchMethod {
    /// Alpha-beta over the static evaluation (`search/`).
    AlphaBeta,
    /// Monte Carlo tree search over the knowledge's playouts (`mcts/`).
    MonteCarlo,
}

impl SearchMethod {
    pub const NAMES: [&'static str; 2] = ["alphabeta", "mcts"];

    pub fn name(self) -> &'static str {
        match self {
            SearchMethod::AlphaBeta => Self::NAMES[0],
            SearchMethod::MonteCarlo => Self::NAMES[1],
        }
    }

    pub fn parse(text: &str) -> Option<SearchMethod> {
        match text.trim().to_ascii_lowercase().as_str() {
            "alphabeta" => Some(SearchMethod::AlphaBeta),
            "mcts" => Some(SearchMethod::MonteCarlo),
            _ => None,
        }
    }
}

/// History slots a knowledge without its own `move_index` uses: moves are
/// folded onto them by their codes (a collision only blurs ordering).
pub const DEFAULT_MOVE_INDEX_BOUND: usize = 1 << 14;

/// Game knowledge for the search: one value per search thread.
///
/// Every method receives the position the search is at; what changes move
/// by move belongs in the position, so the knowledge need not follow the
/// search along its line.
pub trait Knowledge<G: Game>: Default + Send + 'static {
    /// Called before every search with its root and limits: a knowledge
    /// may note where the search starts (to give deeper analysis to the
    /// moves right below the root), reset what must not outlive one search,
    /// and keep the deadline its own long analyses must respect.
    fn prepare_search(&mut self, root: &G, deadline: &Deadline) {
        let _ = (root, deadline);
    }

    /// Called instead of `prepare_search` before a proof search (df-pn,
    /// `go mate`, a root solver built on it). A proof gains from analysis
    /// at every node that would slow alpha-beta down too much (a settled
    /// node ends its whole subtree), so a knowledge may switch it on here;
    /// the next `prepare_search` switches it off. `within_plies` is the
    /// proof's length limit (`dfpn::UNLIMITED` for none): analysis that
    /// keeps results but not their lengths is only sound where it cannot
    /// bind.
    fn prepare_proof(&mut self, root: &G, deadline: &Deadline, within_plies: u32) {
        let _ = within_plies;
        self.prepare_search(root, deadline);
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

    /// Clears `moves` and fills it with the "noisy" moves quiescence search
    /// should look at (captures, threats). Empty means quiescence is just
    /// the static evaluation.
    fn noisy_moves(&mut self, position: &G, moves: &mut Vec<G::Move>) {
        let _ = position;
        moves.clear();
    }

    /// True when the side to move faces a threat it must answer now (like
    /// check in chess): quiescence then may not "stand pat" on the static
    /// evaluation and searches `search_moves` instead of the noisy moves.
    fn must_respond(&mut self, position: &G) -> bool {
        let _ = position;
        false
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

    /// A result worth its cost only where a proof search is about to
    /// expand a node, not at every child it generates (a connection
    /// search some hundred evaluations long): counted as in
    /// `forced_result`. Only the proof search asks it.
    fn expansion_result(&mut self, position: &mut G) -> Option<i32> {
        let _ = position;
        None
    }

    /// The cells, by `move_index`, that the result just settled at
    /// `position` (by the rules, `forced_result` or `expansion_result`)
    /// rests on: its winner still wins if the loser is given any other
    /// empty cell (`dfpn::ProofCells`). Returning `Some` asserts that the
    /// game is never drawn and that a stone never hurts its owner; `None`
    /// stands for every cell and prunes nothing.
    fn settled_cells(&mut self, position: &G) -> Option<ProofCells> {
        let _ = position;
        None
    }

    /// The cells that justify leaving out the moves the last
    /// `search_moves` at `position` did not return (must-play carriers,
    /// inferior-cell patterns): each left-out move loses whenever the
    /// moves kept all lose, as long as these cells stay as they are.
    fn narrowing_cells(&mut self, position: &G) -> Option<ProofCells> {
        let _ = position;
        None
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

    /// True when every move gets a positive hint because every move scores
    /// (Jogo do Cavalo). The search then treats hinted moves as it treats
    /// quiet ones elsewhere: late ones are searched less deep, and killers
    /// are tried before them. Otherwise a hinted move (a capture, a threat)
    /// is always searched to full depth.
    fn hints_every_move() -> bool {
        false
    }

    /// Whether null-move pruning is sound in this game (see `NullMove`).
    fn null_move() -> NullMove {
        NullMove::Unsound
    }

    /// This game's defaults for the search's parameters (each a `setoption`
    /// spin): what measurement found best for it.
    fn search_params() -> SearchParams {
        SearchParams::default()
    }

    /// How this knowledge's scores turn into chances of a win, a draw and a
    /// loss (`UCI_ShowWDL`), fitted to the game's results.
    fn wdl_model() -> WdlModel {
        WdlModel::GENERIC
    }

    /// The game's ladder of weaker levels with their measured Elo
    /// (`UCI_LimitStrength`, `UCI_Elo`).
    fn strength_ladder() -> &'static Ladder {
        &GENERIC_LADDER
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

    /// The search this game's engine runs unless `SearchMethod` says
    /// otherwise: what measurement found stronger for it.
    fn search_method() -> SearchMethod {
        SearchMethod::AlphaBeta
    }

    /// Monte Carlo search: plays `position` out to the end of the game,
    /// noting in `record` who played each move (by `move_index`), and
    /// leaves it as it found it. Returns the winner, `None` for a draw.
    /// Defaults to uniformly random legal moves; a game's own playout
    /// (answers to threats, a faster board) is where its strength lies.
    fn playout(
        &mut self,
        position: &mut G,
        rng: &mut SmallRng,
        record: &mut PlayoutRecord,
    ) -> Option<Player> {
        random_playout(self, position, rng, record)
    }

    /// Monte Carlo search: a closer look, worth its cost only at a node the
    /// search keeps coming back to (`MctsKnowledgeVisits` simulations): a
    /// result proven there, counted as in `forced_result`; or else `moves`
    /// (the node's children) cut down to those still worth searching, the
    /// ones removed proven to lose. Like `forced_result`, it may play on
    /// `position` and must restore it. Defaults to nothing.
    fn closer_look(&mut self, position: &mut G, moves: &mut Vec<G::Move>) -> Option<i32> {
        let _ = (position, moves);
        None
    }

    /// Monte Carlo search: what the knowledge believes of `mv` before any
    /// simulation, as simulations and the mover's wins among them, added
    /// to the move's all-moves-as-first statistics. Defaults to nothing.
    fn move_prior(&mut self, position: &G, mv: G::Move) -> (f32, f32) {
        let _ = (position, mv);
        (0.0, 0.0)
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
    fn evaluate(&mut self, _position: &G) -> Score {
        0
    }
}
