//! The engine options Breakthrough's knowledge reads: which evaluation the
//! search uses (`Evaluation`: the classical weighted terms or the learned
//! network) and which network (`EvalFile`). The engine hands them to every
//! knowledge it makes.

use std::sync::Arc;

use once_cell::sync::Lazy;

use super::network::PieceFeatures;
use crate::core::game::{OptionKind, OptionSpec};
use crate::core::knowledge::KnowledgeSettings;
use crate::core::nnue::{FeatureSet, Network};

/// `EvalFile`'s value for the network compiled into the engine.
pub const BUILT_IN: &str = "<built-in>";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    Classical,
    /// The default since the first network beat the classical terms
    /// (docs/results/learned-evaluation.md).
    #[default]
    Network,
}

impl Evaluation {
    pub const NAMES: [&'static str; 2] = ["classical", "network"];

    pub fn name(self) -> &'static str {
        match self {
            Evaluation::Classical => "classical",
            Evaluation::Network => "network",
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct BreakthroughSettings {
    pub evaluation: Evaluation,
    /// The network `EvalFile` loaded; `None`: the built-in one, if any.
    pub loaded: Option<Arc<Network>>,
}

impl BreakthroughSettings {
    /// The network the `network` evaluation uses.
    pub fn network(&self) -> Option<Arc<Network>> {
        self.loaded.clone().or_else(built_in_network)
    }
}

/// The network file compiled into the engine (how it was trained:
/// docs/results/learned-evaluation.md).
const BUILT_IN_FILE: &[u8] = include_bytes!("network.bgnn");

static BUILT_IN_NETWORK: Lazy<Option<Arc<Network>>> = Lazy::new(|| {
    Network::from_bytes(BUILT_IN_FILE, PieceFeatures::NAME, PieceFeatures::INPUTS)
        .map_err(|e| log::error!("the built-in network: {e}"))
        .ok()
        .map(Arc::new)
});

/// The network compiled into the engine.
pub fn built_in_network() -> Option<Arc<Network>> {
    BUILT_IN_NETWORK.clone()
}

/// Reads a network file for Breakthrough's features.
pub fn load_network(path: &str) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read EvalFile '{path}': {e}"))?;
    Network::from_bytes(&bytes, PieceFeatures::NAME, PieceFeatures::INPUTS)
        .map_err(|e| format!("EvalFile '{path}': {e}"))
}

impl KnowledgeSettings for BreakthroughSettings {
    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: "Evaluation",
                kind: OptionKind::Combo {
                    default: Evaluation::default().name().to_owned(),
                    choices: Evaluation::NAMES.map(String::from).to_vec(),
                },
            },
            OptionSpec {
                name: "EvalFile",
                kind: OptionKind::Text {
                    default: BUILT_IN.to_owned(),
                },
            },
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "evaluation" => {
                let evaluation = match value.to_ascii_lowercase().as_str() {
                    "classical" => Evaluation::Classical,
                    "network" => Evaluation::Network,
                    _ => return Err(format!("Evaluation '{value}' is not classical or network")),
                };
                if evaluation == Evaluation::Network && self.network().is_none() {
                    return Err("no network to evaluate with: set EvalFile first".into());
                }
                self.evaluation = evaluation;
            }
            "evalfile" => {
                self.loaded = match value {
                    "" | BUILT_IN => None,
                    path => Some(Arc::new(load_network(path)?)),
                };
                if self.evaluation == Evaluation::Network && self.network().is_none() {
                    self.evaluation = Evaluation::Classical;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_network_loads_and_is_the_default() {
        let network = built_in_network().expect("the built-in network reads");
        assert_eq!(network.features(), PieceFeatures::NAME);
        let settings = BreakthroughSettings::default();
        assert_eq!(settings.evaluation, Evaluation::Network);
        assert_eq!(settings.network().map(|n| n.hash()), Some(network.hash()));
    }
}
