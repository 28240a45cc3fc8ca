//! What a caller hands any search (alpha-beta, Monte Carlo) and gets back:
//! the limits, the signals that reach a running search, the progress
//! reports and the result.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::game::{Score, MATE, MATE_BOUND};
use super::params::{NullMove, SearchParams};
use super::strength::Skill;
use super::time::{PonderHit, TimeBudget};

/// Deepest ply a search tracks (alpha-beta's main search plus quiescence).
pub const MAX_PLY: usize = 128;

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
    /// Alpha-beta: whether the game allows null-move pruning.
    pub null_move: NullMove,
    /// Alpha-beta: every move gets a positive ordering hint because every
    /// move scores (Jogo do Cavalo); hinted moves are then reduced as quiet
    /// ones are elsewhere, and killers go before them.
    pub hints_every_move: bool,
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
            null_move: NullMove::Unsound,
            hints_every_move: false,
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

/// Holds a finished search's answer as long as the protocol asks: `go
/// infinite` answers only after `stop`, `go ponder` after `ponderhit` or
/// `stop`.
pub fn wait_for_release(control: &SearchControl, signals: &SearchSignals) {
    let must_wait =
        || control.until_stopped || (control.ponder && signals.ponderhit.hit_at().is_none());
    while must_wait() && !signals.stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
}
