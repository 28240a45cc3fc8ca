//! How the page learns a game: its colours and its rule options.

use crate::core::{Game, OptionKind, Player};

use super::super::messages::{GameInfo, RuleOption};

/// The colour names of a game's players.
pub fn colours<G: Game>() -> [&'static str; 2] {
    [G::player_colour(Player::P1), G::player_colour(Player::P2)]
}

/// The page's description of a game and its rule options.
pub fn game_info<G: Game>() -> GameInfo {
    let rules = G::rule_options()
        .into_iter()
        .map(|spec| {
            let mut option = RuleOption {
                name: spec.name.to_owned(),
                kind: "string",
                default: String::new(),
                min: None,
                max: None,
                choices: Vec::new(),
            };
            match spec.kind {
                OptionKind::Spin { default, min, max } => {
                    option.kind = "spin";
                    option.default = default.to_string();
                    option.min = Some(min);
                    option.max = Some(max);
                }
                OptionKind::Check { default } => {
                    option.kind = "check";
                    option.default = default.to_string();
                }
                OptionKind::Combo { default, choices } => {
                    option.kind = "combo";
                    option.default = default;
                    option.choices = choices;
                }
                OptionKind::Text { default } => option.default = default,
                OptionKind::Button => option.kind = "button",
            }
            option
        })
        .collect();
    GameInfo {
        name: G::NAME,
        colours: colours::<G>(),
        rules,
    }
}
