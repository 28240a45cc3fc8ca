//! When a Monte Carlo search under a clock stops. It plays the most
//! simulated move, so once that move cannot be overtaken before the optimum
//! time the rest would be spent for nothing: it stops early, keeping the
//! time for later moves. Past the optimum it goes on (up to twice it,
//! within the maximum) while the race at the root is open: the second move
//! close behind the first, or the first not the best valued. `movetime` is
//! a fixed budget and is spent whole.

use std::time::Duration;

/// The longest a search goes on past its optimum, as a multiple of it.
const EXTEND_LIMIT: u32 = 2;
/// A second move with this share of the first's simulations keeps the
/// race open past the optimum.
const CLOSE_SHARE: f64 = 0.8;
/// Before this share of the optimum the simulation rate is too young to
/// foretell anything.
const EARLIEST_STOP_DIVISOR: u32 = 10;
/// A move needs this share of the first's simulations for its mean to
/// count against it.
const RIVAL_SHARE: f64 = 0.1;

/// The two most simulated root moves, and whether the first also has the
/// best mean among the moves simulated enough to compare.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RootRace {
    pub first_visits: u32,
    pub second_visits: u32,
    pub first_leads_by_mean: bool,
}

impl RootRace {
    /// The race among children given as (visits, mean).
    pub fn of(children: impl Iterator<Item = (u32, f32)>) -> RootRace {
        let children: Vec<(u32, f32)> = children.collect();
        let Some(&(first_visits, first_mean)) = children.iter().max_by_key(|(visits, _)| *visits)
        else {
            return RootRace::default();
        };
        let second_visits = {
            let mut visits: Vec<u32> = children.iter().map(|&(v, _)| v).collect();
            visits.sort_unstable_by(|a, b| b.cmp(a));
            visits.get(1).copied().unwrap_or(0)
        };
        let floor = f64::from(first_visits) * RIVAL_SHARE;
        let first_leads_by_mean = children
            .iter()
            .filter(|&&(visits, _)| f64::from(visits) >= floor)
            .all(|&(_, mean)| mean <= first_mean);
        RootRace {
            first_visits,
            second_visits,
            first_leads_by_mean,
        }
    }

    fn is_close(&self) -> bool {
        f64::from(self.second_visits) >= CLOSE_SHARE * f64::from(self.first_visits)
            || !self.first_leads_by_mean
    }
}

/// The clock's limits and what the search has done so far.
#[derive(Clone, Copy, Debug)]
pub struct ClockState {
    pub elapsed: Duration,
    pub optimum: Duration,
    pub maximum: Duration,
    /// Simulations per second so far.
    pub rate: f64,
}

/// Whether a search under a clock stops now.
pub fn clock_says_stop(race: RootRace, clock: ClockState) -> bool {
    let limit = clock.maximum.min(clock.optimum * EXTEND_LIMIT);
    if clock.elapsed >= limit {
        return true;
    }
    if clock.elapsed >= clock.optimum {
        return !race.is_close();
    }
    if clock.elapsed < clock.optimum / EARLIEST_STOP_DIVISOR {
        return false;
    }
    let left = (clock.optimum - clock.elapsed).as_secs_f64() * clock.rate;
    f64::from(race.first_visits - race.second_visits) > left
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn at(elapsed: u64) -> ClockState {
        ClockState {
            elapsed: ms(elapsed),
            optimum: ms(1_000),
            maximum: ms(3_000),
            rate: 10_000.0,
        }
    }

    fn race(first: u32, second: u32, first_leads_by_mean: bool) -> RootRace {
        RootRace {
            first_visits: first,
            second_visits: second,
            first_leads_by_mean,
        }
    }

    #[test]
    fn a_move_that_cannot_be_overtaken_stops_the_search_early() {
        // 500 ms left at 10,000 a second: 5,000 more simulations.
        assert!(clock_says_stop(race(6_000, 900, true), at(500)));
        assert!(!clock_says_stop(race(4_000, 900, true), at(500)));
        // Too early to trust the rate.
        assert!(!clock_says_stop(race(900, 0, true), at(50)));
    }

    #[test]
    fn an_open_race_goes_on_past_the_optimum_but_not_past_its_limits() {
        assert!(clock_says_stop(race(8_000, 2_000, true), at(1_000)));
        assert!(!clock_says_stop(race(8_000, 7_000, true), at(1_000)));
        assert!(!clock_says_stop(race(8_000, 2_000, false), at(1_500)));
        assert!(clock_says_stop(race(8_000, 7_000, true), at(2_000)));
        let tight = ClockState {
            maximum: ms(1_200),
            ..at(1_200)
        };
        assert!(clock_says_stop(race(8_000, 7_000, false), tight));
    }

    #[test]
    fn the_race_is_read_from_the_children() {
        let race = RootRace::of([(100, 0.6), (300, 0.55), (250, 0.5), (10, 0.9)].into_iter());
        assert_eq!(race.first_visits, 300);
        assert_eq!(race.second_visits, 250);
        // The move with 10 simulations is too young to count; 100 is not.
        assert!(!race.first_leads_by_mean);
        let race = RootRace::of([(300, 0.55), (250, 0.5), (10, 0.9)].into_iter());
        assert!(race.first_leads_by_mean);
        assert_eq!(RootRace::of(std::iter::empty()), RootRace::default());
    }
}
