//! The game-independent engine core: the `Game` seam, search and its threads,
//! transposition table, time management and perft.

pub mod game;
pub mod perft;
pub mod search;
pub mod threads;
pub mod time;
pub mod tt;

pub use game::{
    Deadline, EvalTerm, Game, OptionKind, OptionSpec, Outcome, Player, RootSolution, Score,
    INFINITY, MATE, MATE_BOUND,
};
