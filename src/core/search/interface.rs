//! What a caller hands a search and gets back: the tables kept between
//! searches, the limits, the progress reports and the result.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::MAX_PLY;
use crate::core::game::{Game, Score, MATE, MATE_BOUND};
use crate::core::knowledge::Knowledge;
use crate::core::mcts::KeptTree;
use crate::core::params::SearchParams;
use crate::core::strength::Skill;
use crate::core::time::{PonderHit, TimeBudget};
use crate::core::tt::TranspositionTable;

/// Tables that outlive one search: kept between moves of a game, cleared by
/// `ucinewgame`. Each search thread has its own knowledge (index 0 is the
/// main thread's); the transposition table is shared.
pub struct SearchTables<G: Game, K> {
    pub tt: TranspositionTable<G::Move>,
    tt_megabytes: usize,
    /// The table's memory was handed back for a proof search.
    tt_released: bool,
    pub(in crate::core) history: Vec<i32>,
    pub(in crate::core) knowledge: Vec<K>,
    /// Monte Carlo search's last tree, for the next move.
    pub(in crate::core) kept_tree: Option<KeptTree<G>>,
}

impl<G: Game, K: Knowledge<G>> SearchTables<G, K> {
    pub fn new(hash_megabytes: usize) -> Self {
        SearchTables {
            tt: TranspositionTable::new(hash_megabytes),
            tt_megabytes: hash_megabytes,
            tt_released: false,
            history: Vec::new(),
            knowledge: Vec::new(),
            kept_tree: None,
        }
    }

    /// The memory the options give the search's tables.
    pub fn hash_megabytes(&self) -> usize {
        self.tt_megabytes
    }

    /// The main search thread's knowledge (its statistics), once a search
    /// has made it.
    pub fn main_knowledge(&self) -> Option<&K> {
        self.knowledge.first()
    }

    /// Hands the transposition table's memory back to the system: a proof
    /// search, which keeps its own table of the `Hash` size, would otherwise
    /// hold twice that. The next alpha-beta search makes it anew.
    pub fn release_tt(&mut self) {
        self.tt = TranspositionTable::new(1);
        self.tt_released = true;
    }

    /// Makes the transposition table again after `release_tt` (empty).
    pub fn restore_tt(&mut self) {
        if self.tt_released {
            self.tt = TranspositionTable::new(self.tt_megabytes);
            self.tt_released = false;
        }
    }

    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.knowledge.clear();
        self.kept_tree = None;
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

/// The score of a result proven `plies` plies from here, counted as
/// `Knowledge::forced_result` counts them (> 0 the side to move wins, < 0
/// it loses, 0 a draw).
pub fn proven_score(plies: i32) -> Score {
    match plies {
        0 => 0,
        p if p > 0 => MATE - p,
        p => -(MATE + p),
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
