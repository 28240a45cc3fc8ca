//! The options every engine has, whatever the game.

use std::time::Duration;

use super::profile::SearchMethod;
use crate::core::game::{OptionKind, OptionSpec};

/// What a game's profile decides of the engine options: `UCI_Elo`'s range
/// (its measured ladder) and the searches `SearchMethod` offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionRanges {
    pub elo: (i64, i64),
    pub default_method: SearchMethod,
    pub methods: Vec<SearchMethod>,
}

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
    /// Root lines reported (`MultiPV`).
    pub multipv: usize,
    /// `bestmove X ponder Y` (the GUI may then send `go ponder`).
    pub ponder: bool,
    /// `wdl W D L` on every `info` line with a score.
    pub show_wdl: bool,
    /// The GUI analyses rather than plays: always full strength.
    pub analyse_mode: bool,
    /// Play at `elo` on the game's measured ladder.
    pub limit_strength: bool,
    pub elo: i64,
    /// Seeds a weakened level's choices (with the position); 0 draws a new
    /// seed for every move.
    pub strength_seed: u64,
    /// Alpha-beta or Monte Carlo tree search (`SearchMethod`).
    pub search_method: SearchMethod,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_megabytes: 64,
            depth_cap: 0,
            move_overhead: Duration::from_millis(10),
            threads: 1,
            multipv: 1,
            ponder: false,
            show_wdl: false,
            analyse_mode: false,
            limit_strength: false,
            elo: 0,
            strength_seed: 0,
            search_method: SearchMethod::AlphaBeta,
        }
    }
}

/// What a successful `set` changed, for the engine to act on.
pub struct OptionChange {
    pub hash_changed: bool,
    /// `Clear Hash` was pressed.
    pub clear_hash: bool,
}

const MAX_HASH_MEGABYTES: i64 = 16_384;
const MAX_THREADS: i64 = 256;
const MAX_MULTIPV: i64 = 256;
const MAX_SEED: i64 = i32::MAX as i64;

fn spin(name: &'static str, default: i64, min: i64, max: i64) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Spin { default, min, max },
    }
}

fn check(name: &'static str, default: bool) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Check { default },
    }
}

impl EngineOptions {
    /// The options with their defaults; `UCI_Elo` spans the game's
    /// measured ladder, and `SearchMethod` offers the game's searches.
    pub fn specs(ranges: &OptionRanges) -> Vec<OptionSpec> {
        let defaults = EngineOptions::default();
        let (elo_min, elo_max) = ranges.elo;
        vec![
            spin(
                "Hash",
                defaults.hash_megabytes as i64,
                1,
                MAX_HASH_MEGABYTES,
            ),
            OptionSpec {
                name: "Clear Hash",
                kind: OptionKind::Button,
            },
            spin("Depth", 0, 0, 100),
            spin(
                "MoveOverhead",
                defaults.move_overhead.as_millis() as i64,
                0,
                5_000,
            ),
            spin("Threads", defaults.threads as i64, 1, MAX_THREADS),
            spin("MultiPV", 1, 1, MAX_MULTIPV),
            check("Ponder", false),
            check("UCI_ShowWDL", false),
            check("UCI_AnalyseMode", false),
            check("UCI_LimitStrength", false),
            spin("UCI_Elo", Self::default_elo(ranges.elo), elo_min, elo_max),
            spin("StrengthSeed", 0, 0, MAX_SEED),
            OptionSpec {
                name: "SearchMethod",
                kind: OptionKind::Combo {
                    default: ranges.default_method.name().to_string(),
                    choices: ranges
                        .methods
                        .iter()
                        .map(|m| m.name().to_string())
                        .collect(),
                },
            },
        ]
    }

    /// The middle of the ladder, to the nearest 10.
    pub fn default_elo((min, max): (i64, i64)) -> i64 {
        ((min + max) / 2 + 5) / 10 * 10
    }

    /// `Ok(None)` when `name` is not an engine option (it may be a rule
    /// option). Nothing changes when the value is refused.
    pub fn set(
        &mut self,
        name: &str,
        value: &str,
        ranges: &OptionRanges,
    ) -> Result<Option<OptionChange>, String> {
        let Some(spec) = Self::specs(ranges)
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
        else {
            return Ok(None);
        };
        let mut change = OptionChange {
            hash_changed: false,
            clear_hash: false,
        };
        match spec.kind {
            OptionKind::Button => change.clear_hash = true,
            OptionKind::Check { .. } => {
                let on = parse_check(spec.name, value)?;
                match spec.name {
                    "Ponder" => self.ponder = on,
                    "UCI_ShowWDL" => self.show_wdl = on,
                    "UCI_AnalyseMode" => self.analyse_mode = on,
                    _ => self.limit_strength = on,
                }
            }
            OptionKind::Spin { min, max, .. } => {
                let number = parse_spin(spec.name, value, min, max)?;
                match spec.name {
                    "Hash" => {
                        change.hash_changed = self.hash_megabytes != number as usize;
                        self.hash_megabytes = number as usize;
                    }
                    "Depth" => self.depth_cap = number as u32,
                    "Threads" => self.threads = number as usize,
                    "MultiPV" => self.multipv = number as usize,
                    "UCI_Elo" => self.elo = number,
                    "StrengthSeed" => self.strength_seed = number as u64,
                    _ => self.move_overhead = Duration::from_millis(number as u64),
                }
            }
            OptionKind::Combo { choices, .. } => {
                self.search_method = SearchMethod::parse(value)
                    .filter(|method| ranges.methods.contains(method))
                    .ok_or_else(|| {
                        format!(
                            "option {} is one of {}, not '{value}'",
                            spec.name,
                            choices.join(", ")
                        )
                    })?;
            }
            OptionKind::Text { .. } => return Ok(None),
        }
        Ok(Some(change))
    }
}

fn parse_check(name: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("option {name} needs true or false, not '{value}'")),
    }
}

fn parse_spin(name: &str, value: &str, min: i64, max: i64) -> Result<i64, String> {
    let number: i64 = value
        .trim()
        .parse()
        .map_err(|_| format!("option {name} needs a whole number, not '{value}'"))?;
    if !(min..=max).contains(&number) {
        return Err(format!("option {name} must be between {min} and {max}"));
    }
    Ok(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges() -> OptionRanges {
        OptionRanges {
            elo: (0, 1500),
            default_method: SearchMethod::AlphaBeta,
            methods: SearchMethod::ALL.to_vec(),
        }
    }

    #[test]
    fn checks_take_true_or_false_and_nothing_else() {
        let mut options = EngineOptions::default();
        assert!(options.set("ponder", "true", &ranges()).is_ok());
        assert!(options.ponder);
        assert!(options.set("Ponder", "yes", &ranges()).is_err());
        assert!(options.ponder, "a refused value changes nothing");
        assert!(options.set("UCI_ShowWDL", "TRUE", &ranges()).is_ok());
        assert!(options.show_wdl);
    }

    #[test]
    fn spins_keep_their_range_and_the_elo_follows_the_ladder() {
        let mut options = EngineOptions::default();
        assert!(options.set("MultiPV", "0", &ranges()).is_err());
        assert!(options.set("MultiPV", "3", &ranges()).is_ok());
        assert_eq!(options.multipv, 3);
        assert!(options.set("UCI_Elo", "1600", &ranges()).is_err());
        assert!(options.set("UCI_Elo", "1200", &ranges()).is_ok());
        assert_eq!(options.elo, 1200);
        assert_eq!(EngineOptions::default_elo(ranges().elo), 750);
    }

    #[test]
    fn the_search_method_is_a_combo_of_two() {
        let mut options = EngineOptions::default();
        assert!(options.set("searchmethod", "MCTS", &ranges()).is_ok());
        assert_eq!(options.search_method, SearchMethod::MonteCarlo);
        assert!(options.set("SearchMethod", "minimax", &ranges()).is_err());
        assert_eq!(options.search_method, SearchMethod::MonteCarlo);
        assert!(options.set("SearchMethod", "alphabeta", &ranges()).is_ok());
        assert_eq!(options.search_method, SearchMethod::AlphaBeta);
    }

    #[test]
    fn a_search_the_game_does_not_offer_is_refused() {
        let alpha_beta_only = OptionRanges {
            methods: vec![SearchMethod::AlphaBeta],
            ..ranges()
        };
        let mut options = EngineOptions::default();
        let refused = options.set("SearchMethod", "mcts", &alpha_beta_only);
        assert!(refused.is_err_and(|e| e.contains("alphabeta") && !e.contains("mcts,")));
        assert_eq!(options.search_method, SearchMethod::AlphaBeta);
        let specs = EngineOptions::specs(&alpha_beta_only);
        let method = specs.iter().find(|s| s.name == "SearchMethod");
        let Some(OptionKind::Combo { choices, .. }) = method.map(|s| &s.kind) else {
            panic!("SearchMethod is a combo");
        };
        assert_eq!(choices, &["alphabeta"]);
    }

    #[test]
    fn clear_hash_is_a_button() {
        let mut options = EngineOptions::default();
        let change = options
            .set("clear hash", "", &ranges())
            .expect("a known option");
        assert!(change.expect("an engine option").clear_hash);
        assert_eq!(options, EngineOptions::default());
    }
}
