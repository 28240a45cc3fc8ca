//! Search limits and how much of the clock a move may use.

use std::time::Duration;

/// A player's clock, as `go wtime/btime/winc/binc/movestogo` (or UGI's
/// `p1time/p2time/...`) gives it for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub time_left: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// What `go` asked for. Everything unset and `infinite` false means "use the
/// engine's default" (the depth cap if one is set, else a short think).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub infinite: bool,
    pub clock: Option<Clock>,
}

/// The two times that steer iterative deepening: past `soft` no new
/// iteration starts; at `hard` the search stops wherever it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// Used when `go` names no limit at all and no depth cap is set.
const DEFAULT_THINK: Duration = Duration::from_secs(1);
/// Moves a clock is assumed to still have to last when `movestogo` is absent.
const ASSUMED_MOVES_LEFT: u32 = 30;
/// The least time a search gets, so that it always has a move to give.
const MINIMUM: Duration = Duration::from_millis(1);

impl SearchLimits {
    pub fn budget(&self, move_overhead: Duration, depth_capped: bool) -> TimeBudget {
        if self.infinite {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        }
        if let Some(movetime) = self.movetime {
            let hard = movetime.saturating_sub(move_overhead).max(MINIMUM);
            return TimeBudget {
                soft: Some(hard),
                hard: Some(hard),
            };
        }
        if let Some(clock) = self.clock {
            return clock_budget(clock, move_overhead);
        }
        if self.depth.is_some() || self.nodes.is_some() || depth_capped {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        }
        TimeBudget {
            soft: Some(DEFAULT_THINK),
            hard: Some(DEFAULT_THINK),
        }
    }
}

fn clock_budget(clock: Clock, move_overhead: Duration) -> TimeBudget {
    let usable = clock.time_left.saturating_sub(move_overhead);
    let moves_left = clock.moves_to_go.unwrap_or(ASSUMED_MOVES_LEFT).clamp(1, 50);
    // With a few moves to the time control, keep a reserve for the last one.
    let share = usable / (moves_left + 1) + clock.increment * 3 / 4;
    let soft = share.min(usable / 2).max(MINIMUM);
    let hard = (soft * 3).min(usable * 3 / 4).max(MINIMUM);
    TimeBudget {
        soft: Some(soft / 2),
        hard: Some(hard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_is_a_hard_limit_less_overhead() {
        let limits = SearchLimits {
            movetime: Some(ms(100)),
            ..Default::default()
        };
        let budget = limits.budget(ms(10), false);
        assert_eq!(budget.hard, Some(ms(90)));
    }

    #[test]
    fn clock_never_spends_more_than_most_of_what_is_left() {
        for left in [5u64, 50, 500, 5_000, 60_000] {
            let clock = Clock {
                time_left: ms(left),
                increment: ms(0),
                moves_to_go: None,
            };
            let limits = SearchLimits {
                clock: Some(clock),
                ..Default::default()
            };
            let budget = limits.budget(ms(10), false);
            let hard = budget.hard.unwrap_or_default();
            assert!(
                hard <= ms(left).saturating_sub(ms(10)).max(MINIMUM),
                "left {left}: {hard:?}"
            );
            assert!(budget.soft.unwrap_or_default() <= hard);
        }
    }

    #[test]
    fn more_moves_to_go_means_less_time_per_move() {
        let make = |mtg| SearchLimits {
            clock: Some(Clock {
                time_left: ms(10_000),
                increment: ms(0),
                moves_to_go: Some(mtg),
            }),
            ..Default::default()
        };
        assert!(make(2).budget(ms(0), false).soft > make(20).budget(ms(0), false).soft);
    }

    #[test]
    fn depth_or_infinite_have_no_deadline() {
        let depth = SearchLimits {
            depth: Some(4),
            ..Default::default()
        };
        assert_eq!(depth.budget(ms(10), false).hard, None);
        let infinite = SearchLimits {
            infinite: true,
            ..Default::default()
        };
        assert_eq!(infinite.budget(ms(10), false).hard, None);
    }
}
