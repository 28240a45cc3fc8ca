//! When a search stops: the soft and hard time limits, the node limit and
//! the stop flag.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::threads::HELPER_COUNT_INTERVAL;
use super::{AlphaBetaKnowledge, Searcher};
use crate::core::game::Game;

impl<G: Game, K: AlphaBetaKnowledge<G>> Searcher<'_, G, K> {
    /// No new iteration starts past the optimum time, scaled under a clock
    /// by how settled the search is (but never past the maximum).
    pub(super) fn soft_time_is_up(&self) -> bool {
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
    pub(super) fn clock_start(&self) -> Option<Instant> {
        match self.control.ponder {
            true => self.ponderhit.hit_at(),
            false => Some(self.start),
        }
    }

    /// `go infinite`, or pondering before `ponderhit`: deepen until stopped.
    pub(super) fn analysing(&self) -> bool {
        self.control.until_stopped || self.clock_start().is_none()
    }

    /// A node limit never cuts the first iteration short: a search always
    /// has a searched move to give (and a weakened level lines to choose from).
    pub(super) fn node_limit_reached(&self) -> bool {
        self.first_iteration_done
            && self
                .control
                .max_nodes
                .is_some_and(|max| self.total_nodes() >= max)
    }

    /// Polled at every node: the stop flag, the hard deadline, the node limit.
    /// Every node, not every few: a game's node may cost milliseconds (a
    /// threat-space probe), and a clock read costs nanoseconds.
    pub(super) fn should_abort(&mut self) -> bool {
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
}
