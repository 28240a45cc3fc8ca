//! GTP's clock (GTP 2, "time_settings" and "time_left"; section 4.2 on
//! Canadian byo-yomi): what a GUI or referee tells the engine, and the
//! limits each `genmove` searches with.
//!
//! - `time_settings M B S` with `B` = 0: absolute time, `M` seconds for
//!   the game; with `B` > 0 and `S` > 0: `M` seconds of main time, then
//!   periods of `B` seconds for `S` stones each (Canadian byo-yomi); with
//!   `B` > 0 and `S` = 0: no time limit.
//! - `time_left <colour> <seconds> <stones>`: the colour's clock now, in
//!   main time when `stones` is 0, else in a byo-yomi period with that
//!   many stones still to play in it.

use std::time::Duration;

use crate::core::game::Player;
use crate::engine::{Clock, SearchLimits};

/// The time system `time_settings` chose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No `time_settings` yet: a `time_left` is read as absolute time.
    Unset,
    NoLimit,
    Absolute {
        main: Duration,
    },
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
    },
}

/// One colour's clock: seconds left, and the stones still to play in the
/// byo-yomi period (0 in main time).
#[derive(Clone, Copy, Debug, PartialEq)]
struct ColourClock {
    left: Duration,
    stones: u32,
}

/// The clocks of both colours under a time system.
#[derive(Clone, Debug)]
pub struct GtpClock {
    system: TimeSystem,
    clocks: [Option<ColourClock>; 2],
}

impl Default for GtpClock {
    fn default() -> Self {
        GtpClock {
            system: TimeSystem::Unset,
            clocks: [None, None],
        }
    }
}

/// The longest time GTP may set (a week): beyond it `Duration` and the
/// clock arithmetic would gain nothing.
const MAX_SECONDS: f64 = 7.0 * 24.0 * 3_600.0;

fn seconds(word: Option<&&str>) -> Option<Duration> {
    word.and_then(|w| w.parse::<f64>().ok())
        .filter(|s| s.is_finite() && (0.0..=MAX_SECONDS).contains(s))
        .map(Duration::from_secs_f64)
}

fn stones(word: Option<&&str>) -> Option<u32> {
    word.and_then(|w| w.parse::<u32>().ok())
}

impl GtpClock {
    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// `time_settings main byo_yomi_time byo_yomi_stones`: all or nothing;
    /// the clocks restart from the new settings.
    pub fn time_settings(&mut self, args: &[&str]) -> Result<(), String> {
        let usage = "usage: time_settings <main seconds> <byo-yomi seconds> <byo-yomi stones>";
        if args.len() != 3 {
            return Err(usage.into());
        }
        let (Some(main), Some(period), Some(stones)) = (
            seconds(args.first()),
            seconds(args.get(1)),
            stones(args.get(2)),
        ) else {
            return Err(usage.into());
        };
        self.system = match (period.is_zero(), stones) {
            (true, _) => TimeSystem::Absolute { main },
            (false, 0) => TimeSystem::NoLimit,
            (false, stones) => TimeSystem::Canadian {
                main,
                period,
                stones,
            },
        };
        self.clocks = [None, None];
        Ok(())
    }

    /// `time_left <colour> <seconds> [<stones>]`: all or nothing.
    pub fn time_left(&mut self, colour: Player, args: &[&str]) -> Result<(), String> {
        let usage = "usage: time_left <color> <seconds> [<stones>]";
        let left = seconds(args.get(1)).ok_or(usage)?;
        let stones = match args.get(2) {
            Some(_) => stones(args.get(2)).ok_or(usage)?,
            None => 0,
        };
        if args.len() > 3 {
            return Err(usage.into());
        }
        self.clocks[colour.index()] = Some(ColourClock { left, stones });
        Ok(())
    }

    /// What `genmove` for `colour` may spend: the engine's default think
    /// without a limit; in main time a share of it (the byo-yomi to come
    /// counted as an increment); in a period its time split over its
    /// stones, as a hard limit.
    pub fn limits(&self, colour: Player) -> SearchLimits {
        let clock = self.clocks[colour.index()];
        match self.system {
            TimeSystem::NoLimit => SearchLimits::default(),
            TimeSystem::Unset => match clock {
                Some(ColourClock { left, stones: 0 }) => absolute(left),
                Some(ColourClock { left, stones }) => per_move(left, stones),
                None => SearchLimits::default(),
            },
            TimeSystem::Absolute { main } => absolute(clock.map_or(main, |c| c.left)),
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => {
                let now = clock.unwrap_or(ColourClock {
                    left: main,
                    stones: 0,
                });
                match now {
                    ColourClock { left, stones: 0 } if !left.is_zero() => SearchLimits {
                        clock: Some(Clock {
                            time_left: left,
                            increment: period / stones,
                            moves_to_go: None,
                        }),
                        ..Default::default()
                    },
                    // Main time is over: the period starts with this move.
                    ColourClock { stones: 0, .. } => per_move(period, stones),
                    ColourClock { left, stones } => per_move(left, stones),
                }
            }
        }
    }

    /// After our `genmove` took `elapsed`: a GUI that sends no
    /// `time_left` still finds the absolute clock running down.
    pub fn spent(&mut self, colour: Player, elapsed: Duration) {
        let TimeSystem::Absolute { main } = self.system else {
            return;
        };
        let clock = self.clocks[colour.index()].get_or_insert(ColourClock {
            left: main,
            stones: 0,
        });
        clock.left = clock.left.saturating_sub(elapsed);
    }
}

fn absolute(left: Duration) -> SearchLimits {
    SearchLimits {
        clock: Some(Clock {
            time_left: left,
            increment: Duration::ZERO,
            moves_to_go: None,
        }),
        ..Default::default()
    }
}

fn per_move(period: Duration, stones: u32) -> SearchLimits {
    SearchLimits {
        movetime: Some(period / stones.max(1)),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(args: &[&str]) -> GtpClock {
        let mut clock = GtpClock::default();
        clock.time_settings(args).expect("valid settings");
        clock
    }

    #[test]
    fn a_byo_yomi_period_is_split_over_its_stones() {
        let mut clock = set(&["0", "0.02", "1"]);
        assert_eq!(
            clock.limits(Player::P1).movetime,
            Some(Duration::from_millis(20))
        );
        clock
            .time_left(Player::P2, &["w", "30", "5"])
            .expect("valid");
        assert_eq!(
            clock.limits(Player::P2).movetime,
            Some(Duration::from_secs(6))
        );
    }

    #[test]
    fn main_time_is_a_clock_and_no_limit_is_the_default_think() {
        let clock = set(&["300", "10", "5"]);
        let limits = clock.limits(Player::P1);
        let main = limits.clock.expect("a clock");
        assert_eq!(main.time_left, Duration::from_secs(300));
        assert_eq!(main.increment, Duration::from_secs(2));
        assert_eq!(
            set(&["0", "1", "0"]).limits(Player::P1),
            SearchLimits::default()
        );
    }

    #[test]
    fn absolute_time_runs_down_without_time_left() {
        let mut clock = set(&["60", "0", "0"]);
        clock.spent(Player::P1, Duration::from_secs(10));
        let left = clock.limits(Player::P1).clock.expect("a clock").time_left;
        assert_eq!(left, Duration::from_secs(50));
        clock.time_left(Player::P1, &["b", "20"]).expect("valid");
        let left = clock.limits(Player::P1).clock.expect("a clock").time_left;
        assert_eq!(left, Duration::from_secs(20));
    }

    #[test]
    fn bad_settings_keep_the_previous_ones() {
        let mut clock = set(&["60", "0", "0"]);
        for bad in [
            &["60"][..],
            &["a", "0", "0"],
            &["-1", "0", "0"],
            &["60", "0", "-2"],
            &["60", "0", "1.5"],
            &["inf", "0", "0"],
            &["1", "2", "3", "4"],
        ] {
            assert!(clock.time_settings(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            clock.system(),
            TimeSystem::Absolute {
                main: Duration::from_secs(60)
            }
        );
    }
}
