//! The game-independent engine core: the seam (`Game` for the rules,
//! `Knowledge` for what every search asks beyond them, and each search's
//! own trait beside it: `search::AlphaBetaKnowledge`,
//! `mcts::MonteCarloKnowledge`, `dfpn::ProofKnowledge`; `Presentation` for
//! what a person sees), the searches (`control` is what a caller hands any
//! of them), transposition table, time management and perft.

pub mod cell;
pub mod contract;
pub mod control;
pub mod dfpn;
pub mod game;
pub mod knowledge;
pub mod mcts;
pub mod nnue;
pub mod notation;
pub mod params;
pub mod perft;
pub mod policy;
pub mod presentation;
pub mod search;
pub mod strength;
pub mod time;
pub mod tt;
pub mod wdl;
pub mod weights;

pub use game::{
    Game, MoveCode, MoveError, OptionKind, OptionSpec, Outcome, Player, Score, INFINITY, MATE,
    MATE_BOUND, MOVE_CODE_LIMIT,
};
pub use knowledge::{
    Deadline, EvalTerm, Knowledge, KnowledgeSettings, PlainKnowledge, RootSolution,
};
pub use params::NullMove;
pub use presentation::{Presentation, RecordStyle, SgfPoints};
