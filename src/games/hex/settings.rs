//! The engine options Hex's knowledge reads: which evaluation the search
//! uses, the resistance evaluation's weights, and how Monte Carlo
//! playouts draw their cells (the move policy, fill-in). The engine hands them to
//! every knowledge it makes (`resistance::EvalSettings`).

use super::resistance::{CloserLook, EvalSettings, Evaluation};
use crate::core::game::{OptionKind, OptionSpec};
use crate::core::knowledge::KnowledgeSettings;

impl KnowledgeSettings for EvalSettings {
    fn option_specs() -> Vec<OptionSpec> {
        let defaults = EvalSettings::default();
        let weight = |name, default: i32| OptionSpec {
            name,
            kind: OptionKind::Spin {
                default: default as i64,
                min: 0,
                max: 10_000,
            },
        };
        vec![
            OptionSpec {
                name: "Evaluation",
                kind: OptionKind::Combo {
                    default: defaults.evaluation.name().to_string(),
                    choices: Evaluation::NAMES.map(String::from).to_vec(),
                },
            },
            weight("ResistanceScale", defaults.scale),
            weight("ResistanceBridge", defaults.bridge),
            OptionSpec {
                name: "CloserLook",
                kind: OptionKind::Combo {
                    default: defaults.closer_look.name().to_string(),
                    choices: CloserLook::NAMES.map(String::from).to_vec(),
                },
            },
            OptionSpec {
                name: "PlayoutPolicy",
                kind: OptionKind::Check {
                    default: defaults.playout_policy,
                },
            },
            OptionSpec {
                name: "PlayoutFillIn",
                kind: OptionKind::Check {
                    default: defaults.playout_fill_in,
                },
            },
            OptionSpec {
                name: "TreeFillIn",
                kind: OptionKind::Check {
                    default: defaults.tree_fill_in,
                },
            },
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, String> {
        match name.to_ascii_lowercase().as_str() {
            "evaluation" => self.evaluation = Evaluation::parse(value)?,
            "resistancescale" => self.scale = parse_weight(name, value)?,
            "resistancebridge" => self.bridge = parse_weight(name, value)?,
            "closerlook" => self.closer_look = CloserLook::parse(value)?,
            "playoutpolicy" => self.playout_policy = parse_check(name, value)?,
            "playoutfillin" => self.playout_fill_in = parse_check(name, value)?,
            "treefillin" => self.tree_fill_in = parse_check(name, value)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

fn parse_check(name: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{name} '{value}' is not true or false")),
    }
}

/// A resistance weight: a whole number from 0 to 10,000.
fn parse_weight(name: &str, value: &str) -> Result<i32, String> {
    match value.trim().parse::<i32>() {
        Ok(number) if (0..=10_000).contains(&number) => Ok(number),
        _ => Err(format!(
            "{name} '{value}' is not a whole number from 0 to 10000"
        )),
    }
}
