//! The game-independent engine core: the seam (`Game` for the rules,
//! `Knowledge` for what the search asks beyond them, `Presentation` for what
//! a person sees), search and its threads, transposition table, time
//! management and perft.

pub mod cell;
pub mod contract;
pub mod dfpn;
pub mod game;
pub mod knowledge;
pub mod mcts;
pub mod notation;
pub mod params;
pub mod perft;
pub mod presentation;
pub mod search;
pub mod strength;
pub mod threads;
pub mod time;
pub mod tt;
pub mod wdl;
pub mod weights;

pub use game::{
    Game, MoveCode, MoveError, OptionKind, OptionSpec, Outcome, Player, Score, INFINITY, MATE,
    MATE_BOUND, MOVE_CODE_LIMIT,
};
pub use knowledge::{
    Deadline, EvalTerm, Knowledge, NullMove, PlainKnowledge, RootSolution, SearchMethod,
};
pub use presentation::{Presentation, RecordStyle, SgfPoints};
