//! The options every engine has, whatever the game.

use std::time::Duration;

use crate::core::game::{OptionKind, OptionSpec};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub hash_megabytes: usize,
    /// 0 = no cap; otherwise the deepest any search goes unless `go depth`
    /// says otherwise (the difficulty level).
    pub depth_cap: u32,
    /// Time kept back from every deadline for the pipe and the GUI.
    pub move_overhead: Duration,
    /// Search threads: the main one and `threads - 1` helpers.
    pub threads: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_megabytes: 64,
            depth_cap: 0,
            move_overhead: Duration::from_millis(10),
            threads: 1,
        }
    }
}

/// What a successful `set` changed, for the engine to act on.
pub struct OptionChange {
    pub hash_changed: bool,
}

const MAX_HASH_MEGABYTES: i64 = 16_384;
const MAX_THREADS: i64 = 256;

impl EngineOptions {
    pub fn specs() -> Vec<OptionSpec> {
        let defaults = EngineOptions::default();
        vec![
            OptionSpec {
                name: "Hash",
                kind: OptionKind::Spin {
                    default: defaults.hash_megabytes as i64,
                    min: 1,
                    max: MAX_HASH_MEGABYTES,
                },
            },
            OptionSpec {
                name: "Depth",
                kind: OptionKind::Spin {
                    default: 0,
                    min: 0,
                    max: 100,
                },
            },
            OptionSpec {
                name: "MoveOverhead",
                kind: OptionKind::Spin {
                    default: defaults.move_overhead.as_millis() as i64,
                    min: 0,
                    max: 5_000,
                },
            },
            OptionSpec {
                name: "Threads",
                kind: OptionKind::Spin {
                    default: defaults.threads as i64,
                    min: 1,
                    max: MAX_THREADS,
                },
            },
        ]
    }

    /// `Ok(None)` when `name` is not an engine option (it may be a rule option).
    pub fn set(&mut self, name: &str, value: &str) -> Result<Option<OptionChange>, String> {
        let Some(spec) = Self::specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
        else {
            return Ok(None);
        };
        let OptionKind::Spin { min, max, .. } = spec.kind else {
            return Ok(None);
        };
        let number: i64 = value
            .trim()
            .parse()
            .map_err(|_| format!("option {} needs a whole number, not '{value}'", spec.name))?;
        if !(min..=max).contains(&number) {
            return Err(format!(
                "option {} must be between {min} and {max}",
                spec.name
            ));
        }
        let mut change = OptionChange {
            hash_changed: false,
        };
        match spec.name {
            "Hash" => {
                change.hash_changed = self.hash_megabytes != number as usize;
                self.hash_megabytes = number as usize;
            }
            "Depth" => self.depth_cap = number as u32,
            "Threads" => self.threads = number as usize,
            _ => self.move_overhead = Duration::from_millis(number as u64),
        }
        Ok(Some(change))
    }
}
