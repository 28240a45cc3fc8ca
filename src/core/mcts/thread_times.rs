//! The kernel's account of the search thread's time (Linux's
//! `/proc/thread-self/schedstat`): how long it ran on a core and how long
//! it waited, ready, for one. A move that overran its time although its
//! search looked at the clock every few simulations shows here whether
//! the thread was kept off the cores (the 20 ms question of issue 53).

use std::time::Duration;

/// Run and wait times of the calling thread since it started, or between
/// two readings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreadTimes {
    pub running: Duration,
    pub waiting: Duration,
}

impl ThreadTimes {
    /// The calling thread's times, where the kernel reports them.
    pub fn now() -> Option<ThreadTimes> {
        let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        ThreadTimes::parse(&text)
    }

    /// The first two numbers of a schedstat line: nanoseconds on a core,
    /// nanoseconds waiting in the run queue.
    fn parse(text: &str) -> Option<ThreadTimes> {
        let mut numbers = text.split_whitespace().map(|word| word.parse::<u64>());
        let running = numbers.next()?.ok()?;
        let waiting = numbers.next()?.ok()?;
        Some(ThreadTimes {
            running: Duration::from_nanos(running),
            waiting: Duration::from_nanos(waiting),
        })
    }

    /// The times spent since `earlier`.
    pub fn since(self, earlier: ThreadTimes) -> ThreadTimes {
        ThreadTimes {
            running: self.running.saturating_sub(earlier.running),
            waiting: self.waiting.saturating_sub(earlier.waiting),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schedstat_line_reads_as_run_and_wait_times() {
        let times = ThreadTimes::parse("1500000 250000 7\n").expect("three numbers");
        assert_eq!(times.running, Duration::from_micros(1_500));
        assert_eq!(times.waiting, Duration::from_micros(250));
        assert_eq!(ThreadTimes::parse("12"), None);
        assert_eq!(ThreadTimes::parse("x 1 2"), None);
        let later = ThreadTimes {
            running: Duration::from_micros(2_000),
            waiting: Duration::from_micros(300),
        };
        assert_eq!(
            later.since(times),
            ThreadTimes {
                running: Duration::from_micros(500),
                waiting: Duration::from_micros(50),
            }
        );
    }
}
