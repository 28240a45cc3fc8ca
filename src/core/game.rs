//! The one seam between the search and the games.
//!
//! The search, the transposition table and the protocol front-ends are generic
//! over [`Game`]; they never look inside a board. A game, in turn, knows
//! nothing of any protocol: it only speaks in moves, positions and scores.

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The two players. `P1` moves first in every game of the project (White in
/// Breakthrough and Jogo do Cavalo, Black in Hex and Gomoku).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    P1,
    P2,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }

    pub fn index(self) -> usize {
        match self {
            Player::P1 => 0,
            Player::P2 => 1,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Player),
    Draw,
}

/// Evaluation scores, always from the side to move's point of view.
pub type Score = i32;

/// A proven win is `MATE - plies_to_win`; a proven loss its negation.
pub const MATE: Score = 1_000_000;
/// Any score at least this large (in absolute value) is a proven result.
pub const MATE_BOUND: Score = MATE - 10_000;
/// Larger than any score the search can return.
pub const INFINITY: Score = MATE + 1;

/// The kind and default of a game option, as announced by `option name ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: String,
        choices: Vec<String>,
    },
    Text {
        default: String,
    },
}

/// One rule option of a game (board size, rule variant, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

/// A line of the static evaluation, shown by the `eval` command.
#[derive(Clone, Debug)]
pub struct EvalTerm {
    pub name: String,
    /// This term for player 1, for player 2, and the net contribution to the
    /// side to move's score.
    pub p1: Score,
    pub p2: Score,
}

/// What a game's own solver proved about the root (`Game::solve_root`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootSolution<M> {
    pub best_move: M,
    /// The proven result, counted as in `Game::forced_result`: plies > 0
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

/// A two-player, zero-sum, perfect-information game.
///
/// Contract the search relies on:
/// - `make_move` is only called with a move produced by `generate_moves` (or
///   `generate_search_moves` / `generate_noisy`) for the current position, or
///   one that `parse_move` accepted *and* the caller found in `generate_moves`.
/// - `unmake_move` is called with the last move made, in strict LIFO order; a
///   game may keep its own undo stack for whatever the move alone cannot undo.
/// - `hash` is a Zobrist-style key kept incrementally; equal positions (same
///   side to move) give equal keys.
/// - A terminal position (`outcome` is `Some`) has no moves.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move, small and cheap to copy.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The rule settings that vary between games of this kind (board size,
    /// variants). `Default` gives the standard rules.
    type Rules: Clone + Debug + Default + Send + Sync + 'static;

    /// Executable / engine name, e.g. "breakthrough".
    const NAME: &'static str;

    /// The colour name of each player ("white" moves first in Breakthrough,
    /// "black" in Hex and Gomoku). UCI's `wtime`/`btime` follow these names.
    fn player_colour(player: Player) -> &'static str {
        match player {
            Player::P1 => "white",
            Player::P2 => "black",
        }
    }

    // ---- rules and options -------------------------------------------------

    /// The rule options this game announces; their names are matched
    /// case-insensitively by the protocol.
    fn rule_options() -> Vec<OptionSpec> {
        Vec::new()
    }

    /// Applies `setoption name <name> value <value>` to the rules. `name` is
    /// one of `rule_options` (any case). Errors are shown to the user.
    fn set_rule_option(rules: &mut Self::Rules, name: &str, value: &str) -> Result<(), String> {
        let _ = (rules, value);
        Err(format!("unknown option '{name}'"))
    }

    /// The starting position under the given rules.
    fn start_position(rules: &Self::Rules) -> Self;

    /// Parses a position string (FEN) under the given rules.
    fn from_fen(fen: &str, rules: &Self::Rules) -> Result<Self, String>;

    /// The position string, accepted back by `from_fen`.
    fn to_fen(&self) -> String;

    // ---- state -------------------------------------------------------------

    fn side_to_move(&self) -> Player;

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Zobrist key of the position, including the side to move.
    fn hash(&self) -> u64;

    /// Plies played since the start of the game (used for ageing and draw
    /// rules; a game may return 0 if it has no use for it).
    fn ply(&self) -> u32 {
        0
    }

    // ---- moves -------------------------------------------------------------

    /// Clears `moves` and fills it with every legal move.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// Counts the legal moves (perft's last ply); override when a game can
    /// count faster than it generates.
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.len() as u64
    }

    /// Clears `moves` and fills it with the moves the main search should try.
    /// Defaults to every legal move; a game may leave out moves it can prove
    /// are never better than the ones it keeps (dead cells, moves that ignore
    /// a threat that must be answered). Must not be empty when legal moves
    /// exist.
    fn generate_search_moves(&mut self, moves: &mut Vec<Self::Move>) {
        self.generate_moves(moves);
    }

    /// Clears `moves` and fills it with the "noisy" moves quiescence search
    /// should look at (captures, threats). Empty means quiescence is just the
    /// static evaluation.
    fn generate_noisy(&mut self, moves: &mut Vec<Self::Move>) {
        moves.clear();
    }

    /// True when the side to move faces a threat it must answer now (like
    /// check in chess): quiescence then may not "stand pat" on the static
    /// evaluation and searches `generate_search_moves` instead of the noisy
    /// moves.
    fn must_respond(&mut self) -> bool {
        false
    }

    /// Ordering hint for the move: larger is tried earlier, after the table
    /// move and before killers/history for positive values. Tactical moves
    /// (captures, threats) should score positive, quiet moves 0.
    fn move_order_hint(&self, mv: Self::Move) -> i32 {
        let _ = mv;
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

    /// A dense index of the move for history tables, below `move_index_bound`.
    fn move_index(&self, mv: Self::Move) -> usize;

    /// Exclusive upper bound of `move_index` under these rules.
    fn move_index_bound(&self) -> usize;

    fn make_move(&mut self, mv: Self::Move);

    fn unmake_move(&mut self, mv: Self::Move);

    // ---- knowledge ---------------------------------------------------------

    /// Called once on the search's own copy of the position before it
    /// searches: a game may note where the search starts (e.g. to give deeper
    /// analysis to the moves right below the root), reset caches, and keep
    /// the deadline that its own long analyses must respect.
    fn prepare_search(&mut self, deadline: &Deadline) {
        let _ = deadline;
    }

    /// An exact answer for the root of a timed search or of an analysis
    /// (`go infinite`, tried between iterations), for a game with a solver
    /// of its own. The solver must give up (`None`) once `deadline`
    /// has passed; the search then goes on as usual in the time left. The
    /// positions it visits, solved or not, are added to `nodes`.
    fn solve_root(
        &mut self,
        deadline: &Deadline,
        nodes: &mut u64,
    ) -> Option<RootSolution<Self::Move>> {
        let _ = (deadline, nodes);
        None
    }

    /// Static evaluation from the side to move's point of view, in centi-units
    /// (a Breakthrough pawn is about 100).
    fn evaluate(&mut self) -> Score;

    /// The evaluation broken into terms, for the `eval` command.
    fn eval_terms(&mut self) -> Vec<EvalTerm> {
        Vec::new()
    }

    /// A result the game can prove cheaply from here without search: `Some(n)`
    /// with n > 0 means the side to move wins in n plies, n < 0 that it loses
    /// in -n plies (e.g. an unstoppable runner, a VCF). Called at interior nodes
    /// and at the horizon, so it must be fast or bounded.
    fn forced_result(&mut self) -> Option<i32> {
        None
    }

    // ---- notation ----------------------------------------------------------

    fn format_move(&self, mv: Self::Move) -> String;

    /// Parses a move in this position's context. It need not check legality
    /// beyond what notation needs; callers check membership in
    /// `generate_moves`.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// A picture of the board for humans (`d`), several lines.
    fn render(&self) -> String;

    /// Positions (FENs under default rules) that `bench` searches; a fixed,
    /// varied set of openings and middle games.
    fn bench_positions() -> Vec<&'static str> {
        Vec::new()
    }

    /// Answers a game-specific `query <what>` (beyond `gameover`, `p1turn`
    /// and `result`), or `None` if unknown.
    fn query(&self, what: &str) -> Option<String> {
        let _ = what;
        None
    }
}
