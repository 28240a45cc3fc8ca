//! Per-engine limits (`st=`, `tc=`, `depth=`, `nodes=`, `timemargin=`) and
//! the clock that enforces them.

use std::time::Duration;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeControl {
    /// Fixed time a move (`st=` seconds): sent as `go movetime`.
    pub move_time: Option<Duration>,
    /// A clock (`tc=[moves/]base[+inc]` seconds).
    pub clock: Option<ClockSpec>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Lateness forgiven before a move counts as a loss on time.
    pub margin: Duration,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ClockSpec {
    pub base: Duration,
    pub increment: Duration,
    /// Moves per period; the base is added again after each period.
    pub moves_per_period: Option<u32>,
}

fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(0.0..=1.0e7).contains(&value) {
        return Err(format!("'{text}' seconds is out of range"));
    }
    Ok(Duration::from_secs_f64(value))
}

impl ClockSpec {
    /// `40/60+0.5`, `10+0.1`, `5`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves
                    .parse()
                    .map_err(|_| format!("bad moves count in tc '{text}'"))?;
                if moves == 0 {
                    return Err(format!("tc '{text}': moves per period must be positive"));
                }
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, inc)) => (seconds(base)?, seconds(inc)?),
            None => (seconds(rest)?, Duration::ZERO),
        };
        if base.is_zero() && increment.is_zero() {
            return Err(format!("tc '{text}' gives no time"));
        }
        Ok(ClockSpec {
            base,
            increment,
            moves_per_period: moves,
        })
    }
}

impl TimeControl {
    /// Applies one `key=value` of an `--engine` spec; false if the key is
    /// not a time-control key.
    pub fn apply(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "st" => self.move_time = Some(seconds(value)?),
            "tc" => self.clock = Some(ClockSpec::parse(value)?),
            "depth" => {
                self.depth = Some(value.parse().map_err(|_| format!("bad depth '{value}'"))?)
            }
            "nodes" => {
                self.nodes = Some(value.parse().map_err(|_| format!("bad nodes '{value}'"))?)
            }
            "timemargin" => {
                let millis: u64 = value
                    .parse()
                    .map_err(|_| format!("bad timemargin '{value}' (milliseconds)"))?;
                self.margin = Duration::from_millis(millis);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    pub fn is_timed(&self) -> bool {
        self.move_time.is_some() || self.clock.is_some()
    }
}

/// One engine's clock during one game.
#[derive(Clone, Debug)]
pub struct Clock {
    pub remaining: Duration,
    moves_made: u32,
}

impl Clock {
    pub fn new(control: &TimeControl) -> Option<Self> {
        control.clock.as_ref().map(|spec| Clock {
            remaining: spec.base,
            moves_made: 0,
        })
    }

    /// Moves left in the current period, for `movestogo`.
    pub fn moves_to_go(&self, spec: &ClockSpec) -> Option<u32> {
        spec.moves_per_period
            .map(|period| period - self.moves_made % period)
    }

    /// Charges a move's time. Returns false (and leaves the clock at zero) if
    /// the move overran the time left plus the margin.
    pub fn charge(&mut self, spec: &ClockSpec, used: Duration, margin: Duration) -> bool {
        if used > self.remaining + margin {
            self.remaining = Duration::ZERO;
            return false;
        }
        self.remaining = self.remaining.saturating_sub(used) + spec.increment;
        self.moves_made += 1;
        if let Some(period) = spec.moves_per_period {
            if self.moves_made.is_multiple_of(period) {
                self.remaining += spec.base;
            }
        }
        true
    }
}

/// The longest a move may take before it is a loss on time, if timed.
pub fn allowed_time(control: &TimeControl, clock: Option<&Clock>) -> Option<Duration> {
    let by_clock = clock.map(|c| c.remaining);
    let limit = match (control.move_time, by_clock) {
        (Some(st), Some(left)) => Some(st.min(left)),
        (st, left) => st.or(left),
    };
    limit.map(|l| l + control.margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_specs_parse_in_cutechess_form() {
        let spec = ClockSpec::parse("40/60+0.5").unwrap();
        assert_eq!(spec.moves_per_period, Some(40));
        assert_eq!(spec.base, Duration::from_secs(60));
        assert_eq!(spec.increment, Duration::from_millis(500));
        assert_eq!(ClockSpec::parse("5").unwrap().increment, Duration::ZERO);
        assert!(ClockSpec::parse("0/5").is_err());
        assert!(ClockSpec::parse("x+1").is_err());
        assert!(ClockSpec::parse("0+0").is_err());
    }

    #[test]
    fn the_clock_adds_increments_and_periods_and_flags_overruns() {
        let spec = ClockSpec::parse("2/1+0.1").unwrap();
        let control = TimeControl {
            clock: Some(spec.clone()),
            ..TimeControl::default()
        };
        let mut clock = Clock::new(&control).unwrap();
        assert_eq!(clock.moves_to_go(&spec), Some(2));
        assert!(clock.charge(&spec, Duration::from_millis(400), Duration::ZERO));
        assert_eq!(clock.remaining, Duration::from_millis(700));
        assert_eq!(clock.moves_to_go(&spec), Some(1));
        assert!(clock.charge(&spec, Duration::from_millis(300), Duration::ZERO));
        // 0.7 - 0.3 + 0.1 increment + 1.0 new period.
        assert_eq!(clock.remaining, Duration::from_millis(1500));
        assert!(!clock.charge(&spec, Duration::from_millis(1600), Duration::ZERO));
        assert_eq!(clock.remaining, Duration::ZERO);
    }

    #[test]
    fn the_allowed_time_is_the_tighter_limit_plus_the_margin() {
        let mut control = TimeControl::default();
        assert_eq!(allowed_time(&control, None), None);
        control.apply("st", "0.05").unwrap();
        control.apply("timemargin", "20").unwrap();
        assert_eq!(
            allowed_time(&control, None),
            Some(Duration::from_millis(70))
        );
        assert!(!control.apply("name", "x").unwrap());
    }
}
