//! The rule variants of Jogo do Cavalo and their protocol options.

use crate::core::{OptionKind, OptionSpec, Player};

/// How a knight enters the board (rule 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// On the highest-valued valid cell of the home row: a forced move.
    Highest,
    /// On any valid cell of the home row (older editions of the project).
    Choose,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// A knight may not land on a cell the other knight attacks.
    pub attack_rule: bool,
    /// Values below 10 read as two digits, so 7 removes 70.
    pub single_digit_symmetric: bool,
    pub placement: Placement,
    /// Who makes the first knight move after both placements.
    pub first_mover: Player,
    /// Seed of the start position's board (see `board::generate_board`).
    pub board_seed: u64,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            attack_rule: true,
            single_digit_symmetric: true,
            placement: Placement::Highest,
            first_mover: Player::P1,
            board_seed: 0,
        }
    }
}

impl Rules {
    /// The conventions of the seed's program, under which its game replays.
    pub fn seed_conventions() -> Self {
        Rules {
            attack_rule: false,
            single_digit_symmetric: false,
            first_mover: Player::P2,
            ..Rules::default()
        }
    }

    /// The default rules on the board of `BoardSeed` `board_seed`.
    pub fn on_board(board_seed: u64) -> Self {
        Rules {
            board_seed,
            ..Rules::default()
        }
    }
}

pub const MAX_BOARD_SEED: i64 = 4_294_967_295;

pub fn rule_options() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: "AttackRule",
            kind: OptionKind::Check { default: true },
        },
        OptionSpec {
            name: "SingleDigitSymmetric",
            kind: OptionKind::Check { default: true },
        },
        OptionSpec {
            name: "Placement",
            kind: OptionKind::Combo {
                default: "highest".into(),
                choices: vec!["highest".into(), "choose".into()],
            },
        },
        OptionSpec {
            name: "FirstMover",
            kind: OptionKind::Combo {
                default: "white".into(),
                choices: vec!["white".into(), "black".into()],
            },
        },
        OptionSpec {
            name: "BoardSeed",
            kind: OptionKind::Spin {
                default: 0,
                min: 0,
                max: MAX_BOARD_SEED,
            },
        },
    ]
}

fn parse_bool(value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(format!("'{value}' is not true or false")),
    }
}

pub fn set_rule_option(rules: &mut Rules, name: &str, value: &str) -> Result<(), String> {
    let value = value.trim();
    match name.to_ascii_lowercase().as_str() {
        "attackrule" => rules.attack_rule = parse_bool(value)?,
        "singledigitsymmetric" => rules.single_digit_symmetric = parse_bool(value)?,
        "placement" => {
            rules.placement = match value.to_ascii_lowercase().as_str() {
                "highest" => Placement::Highest,
                "choose" => Placement::Choose,
                _ => {
                    return Err(format!(
                        "Placement must be highest or choose, not '{value}'"
                    ))
                }
            }
        }
        "firstmover" => {
            rules.first_mover = match value.to_ascii_lowercase().as_str() {
                "white" => Player::P1,
                "black" => Player::P2,
                _ => return Err(format!("FirstMover must be white or black, not '{value}'")),
            }
        }
        "boardseed" => {
            rules.board_seed = match value.parse::<u64>() {
                Ok(seed) if seed <= MAX_BOARD_SEED as u64 => seed,
                _ => {
                    return Err(format!(
                        "BoardSeed must be an integer from 0 to {MAX_BOARD_SEED}, not '{value}'"
                    ))
                }
            }
        }
        _ => return Err(format!("unknown option '{name}'")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_reject() {
        let mut rules = Rules::default();
        set_rule_option(&mut rules, "attackrule", "false").unwrap();
        set_rule_option(&mut rules, "SINGLEDIGITSYMMETRIC", "false").unwrap();
        set_rule_option(&mut rules, "FirstMover", "black").unwrap();
        set_rule_option(&mut rules, "Placement", "choose").unwrap();
        set_rule_option(&mut rules, "BoardSeed", "42").unwrap();
        assert!(!rules.attack_rule && !rules.single_digit_symmetric);
        assert_eq!(rules.first_mover, Player::P2);
        assert_eq!(rules.placement, Placement::Choose);
        assert_eq!(rules.board_seed, 42);
        let before = rules.clone();
        for (name, value) in [
            ("AttackRule", "maybe"),
            ("Placement", "random"),
            ("FirstMover", "red"),
            ("BoardSeed", "-1"),
            ("BoardSeed", "99999999999"),
            ("Hash", "16"),
        ] {
            assert!(set_rule_option(&mut rules, name, value).is_err(), "{name}");
        }
        assert_eq!(rules, before);
    }
}
