//! Search limits and how much of the clock a move may use: a fixed
//! `movetime` is a hard limit; under a clock each move gets an optimum and
//! a maximum, and the search stops early when its best move has settled and
//! goes on longer when it has not.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::game::{Score, MATE_BOUND};

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
    /// A ceiling on any one move on top of the clock (Gomocup's
    /// `timeout_turn`); alone, without a clock, the move may use all of it.
    pub move_cap: Option<Duration>,
    /// `go ponder`: search without a limit until `ponderhit`, then within
    /// the limits above, counted from that moment.
    pub ponder: bool,
}

/// The times that steer iterative deepening. Past `optimum` (scaled by how
/// settled the search is, when `adaptive`) no new iteration starts; at
/// `maximum` the search stops wherever it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub optimum: Option<Duration>,
    pub maximum: Option<Duration>,
    /// Under a clock: stop early when the best move has settled, go on
    /// longer when it keeps changing or the score falls (`IterationTimer`).
    pub adaptive: bool,
}

impl TimeBudget {
    pub const UNLIMITED: TimeBudget = TimeBudget {
        optimum: None,
        maximum: None,
        adaptive: false,
    };

    /// All of `time`, as `movetime` asks.
    fn fixed(time: Duration) -> TimeBudget {
        TimeBudget {
            optimum: Some(time),
            maximum: Some(time),
            adaptive: false,
        }
    }
}

/// `ponderhit` for a search started with `go ponder`: the moment the
/// opponent played the expected move, when the search's clock starts.
#[derive(Debug, Default)]
pub struct PonderHit(OnceLock<Instant>);

impl PonderHit {
    /// Starts the clock now; a second call changes nothing.
    pub fn hit(&self) {
        let _ = self.0.set(Instant::now());
    }

    pub fn hit_at(&self) -> Option<Instant> {
        self.0.get().copied()
    }
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
            return TimeBudget::UNLIMITED;
        }
        if let Some(movetime) = self.movetime {
            return TimeBudget::fixed(movetime.saturating_sub(move_overhead).max(MINIMUM));
        }
        let cap = self
            .move_cap
            .map(|cap| cap.saturating_sub(move_overhead).max(MINIMUM));
        if let Some(clock) = self.clock {
            let budget = clock_budget(clock, move_overhead);
            return match cap {
                Some(cap) => TimeBudget {
                    optimum: budget.optimum.map(|t| t.min(cap)),
                    maximum: budget.maximum.map(|t| t.min(cap)),
                    ..budget
                },
                None => budget,
            };
        }
        if let Some(cap) = cap {
            return TimeBudget::fixed(cap);
        }
        if self.depth.is_some() || self.nodes.is_some() || depth_capped {
            return TimeBudget::UNLIMITED;
        }
        TimeBudget::fixed(DEFAULT_THINK)
    }
}

/// A share of what is left for this move, and at most three shares (never
/// more than three quarters of the clock) if the search needs them.
fn clock_budget(clock: Clock, move_overhead: Duration) -> TimeBudget {
    let usable = clock.time_left.saturating_sub(move_overhead);
    let moves_left = clock.moves_to_go.unwrap_or(ASSUMED_MOVES_LEFT).clamp(1, 50);
    // With a few moves to the time control, keep a reserve for the last one.
    let share = usable / (moves_left + 1) + clock.increment * 3 / 4;
    let share = share.min(usable / 2).max(MINIMUM);
    let maximum = (share * 3).min(usable * 3 / 4).max(MINIMUM);
    TimeBudget {
        optimum: Some(share / 2),
        maximum: Some(maximum),
        adaptive: true,
    }
}

/// Iterations the best move must survive before the search trusts it.
const SETTLED_AFTER: u32 = 3;
const LONG_SETTLED_AFTER: u32 = 6;

/// How settled the search is, from one completed iteration to the next:
/// whether the best move keeps changing and whether the score falls. A
/// clocked search stops at `optimum * scale()`.
#[derive(Clone, Debug, Default)]
pub struct IterationTimer {
    best_move: Option<u32>,
    /// Iterations in a row that ended with the same best move.
    unchanged: u32,
    /// Best-move changes, halved at each iteration so that old ones fade.
    recent_changes: f64,
    previous_score: Option<Score>,
    score_drop: Score,
}

impl IterationTimer {
    /// Notes the result of a completed iteration: its best move (by code)
    /// and its score.
    pub fn completed(&mut self, best_move: u32, score: Score) {
        self.recent_changes /= 2.0;
        if self.best_move == Some(best_move) {
            self.unchanged += 1;
        } else {
            if self.best_move.is_some() {
                self.recent_changes += 1.0;
            }
            self.unchanged = 0;
            self.best_move = Some(best_move);
        }
        let proven = score.abs() >= MATE_BOUND;
        self.score_drop = match self.previous_score {
            Some(previous) if !proven && previous.abs() < MATE_BOUND => previous - score,
            _ => 0,
        };
        self.previous_score = Some(score);
    }

    /// The factor on the optimum time: below 1 once the best move has
    /// settled, above 1 while it changes or the score falls.
    pub fn scale(&self) -> f64 {
        let settled = match self.unchanged {
            n if n >= LONG_SETTLED_AFTER => 0.55,
            n if n >= SETTLED_AFTER => 0.8,
            _ => 1.0,
        };
        let unsettled = (1.0 + 0.6 * self.recent_changes).min(2.5);
        let falling = (1.0 + f64::from(self.score_drop) / 150.0).clamp(0.85, 1.6);
        (settled * unsettled * falling).clamp(0.4, 3.0)
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
        assert_eq!(budget.maximum, Some(ms(90)));
        assert!(!budget.adaptive);
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
            let hard = budget.maximum.unwrap_or_default();
            assert!(
                hard <= ms(left).saturating_sub(ms(10)).max(MINIMUM),
                "left {left}: {hard:?}"
            );
            assert!(budget.optimum.unwrap_or_default() <= hard);
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
        assert!(make(2).budget(ms(0), false).optimum > make(20).budget(ms(0), false).optimum);
    }

    #[test]
    fn depth_or_infinite_have_no_deadline() {
        let depth = SearchLimits {
            depth: Some(4),
            ..Default::default()
        };
        assert_eq!(depth.budget(ms(10), false).maximum, None);
        let infinite = SearchLimits {
            infinite: true,
            ..Default::default()
        };
        assert_eq!(infinite.budget(ms(10), false).maximum, None);
    }

    #[test]
    fn a_turn_cap_bounds_the_clock_and_alone_is_spent_whole() {
        let clock = Clock {
            time_left: ms(600_000),
            increment: ms(0),
            moves_to_go: None,
        };
        let capped = SearchLimits {
            clock: Some(clock),
            move_cap: Some(ms(1_000)),
            ..Default::default()
        };
        let budget = capped.budget(ms(50), false);
        assert_eq!(budget.maximum, Some(ms(950)));
        assert!(budget.adaptive && budget.optimum <= budget.maximum);
        let alone = SearchLimits {
            move_cap: Some(ms(1_000)),
            ..Default::default()
        };
        let budget = alone.budget(ms(50), false);
        assert_eq!(
            (budget.optimum, budget.maximum),
            (Some(ms(950)), Some(ms(950)))
        );
        assert!(!budget.adaptive);
    }

    #[test]
    fn a_settled_best_move_shortens_the_think_and_a_changing_one_lengthens_it() {
        let mut settled = IterationTimer::default();
        for _ in 0..8 {
            settled.completed(7, 30);
        }
        assert!(settled.scale() < 0.6, "{}", settled.scale());
        let mut changing = IterationTimer::default();
        for depth in 0..8 {
            changing.completed(depth % 2, 30);
        }
        assert!(changing.scale() > 1.5, "{}", changing.scale());
    }

    #[test]
    fn a_falling_score_lengthens_the_think_and_a_proof_does_not() {
        let mut falling = IterationTimer::default();
        falling.completed(1, 100);
        falling.completed(1, 10);
        assert!(falling.scale() > 1.5, "{}", falling.scale());
        let mut proven = IterationTimer::default();
        proven.completed(1, 100);
        proven.completed(1, -crate::core::game::MATE + 5);
        assert_eq!(proven.scale(), 1.0);
    }
}
