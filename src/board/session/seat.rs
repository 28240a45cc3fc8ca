//! One side of the board: its player, the engine client playing it, and
//! why that engine cannot go on.

use crate::core::Player;
use crate::referee::client::{EngineClient, Fault};

use super::super::engines;
use super::super::messages::PlayerSpec;

pub(super) struct Seat {
    pub(super) player: PlayerSpec,
    pub(super) engine: Option<EngineClient>,
    pub(super) fault: Option<String>,
}

impl Seat {
    pub(super) fn name(&self) -> String {
        match (&self.player, &self.engine) {
            (PlayerSpec::Human, _) => "human".to_owned(),
            (PlayerSpec::Engine { level, command, .. }, Some(engine)) => {
                // Until our own engine says its name, its path would stand
                // for it.
                let own = command.as_deref().is_none_or(|c| c.trim().is_empty());
                let unnamed = engine.display_name == engine.spec.command;
                let name = if own && unnamed {
                    "our engine"
                } else {
                    engine.display_name.as_str()
                };
                format!("{name} ({})", engines::describe(level))
            }
            (PlayerSpec::Engine { level, .. }, None) => {
                format!("engine ({})", engines::describe(level))
            }
        }
    }
}

pub(super) fn make_engine(
    game: &str,
    player: &PlayerSpec,
    side: Player,
    rule_options: &[(String, String)],
) -> Result<Option<EngineClient>, String> {
    match player {
        PlayerSpec::Human => Ok(None),
        PlayerSpec::Engine {
            command,
            proto,
            level,
        } => {
            let spec = engines::engine_spec(game, command.as_deref(), proto.as_deref(), level)?;
            let label = format!("board-{}", side_label(side));
            Ok(Some(engines::client(spec, &label, rule_options)))
        }
    }
}

fn side_label(side: Player) -> &'static str {
    match side {
        Player::P1 => "p1",
        Player::P2 => "p2",
    }
}

pub(super) fn fault_text(fault: &Fault) -> String {
    match fault {
        Fault::Crashed(why) => format!("crashed: {why}"),
        Fault::Stalled(why) => format!("stalled: {why}"),
        Fault::TimedOut(limit) => format!("gave no move within {} ms", limit.as_millis()),
        Fault::Resigned => "resigned".to_owned(),
        Fault::Protocol(why) => format!("broke its protocol: {why}"),
    }
}
