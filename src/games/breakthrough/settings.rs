//! The engine options Breakthrough's knowledge reads: which evaluation the
//! search uses (`Evaluation`: the learned network, the default, or the
//! classical weighted terms) and which network (`EvalFile`). The engine
//! hands them to every knowledge it makes.

use std::sync::Arc;

use once_cell::sync::Lazy;

use super::network::PieceFeatures;
use super::Breakthrough;
use crate::core::game::OptionSpec;
use crate::core::knowledge::KnowledgeSettings;
use crate::core::nnue::choice::read_built_in;
use crate::core::nnue::{Evaluation, Network, NetworkChoice};

/// The default since the first network beat the classical terms
/// (docs/results/learned-evaluation.md).
const DEFAULT_EVALUATION: Evaluation = Evaluation::Network;

#[derive(Clone, Debug)]
pub struct BreakthroughSettings {
    pub network: NetworkChoice<Breakthrough, PieceFeatures>,
}

impl Default for BreakthroughSettings {
    fn default() -> Self {
        BreakthroughSettings {
            network: NetworkChoice::new(DEFAULT_EVALUATION, built_in_network()),
        }
    }
}

/// The network file compiled into the engine (how it was trained:
/// docs/results/learned-evaluation.md).
const BUILT_IN_FILE: &[u8] = include_bytes!("network.bgnn");

static BUILT_IN_NETWORK: Lazy<Option<Arc<Network>>> =
    Lazy::new(|| read_built_in::<Breakthrough, PieceFeatures>(BUILT_IN_FILE));

/// The network compiled into the engine.
pub fn built_in_network() -> Option<Arc<Network>> {
    BUILT_IN_NETWORK.clone()
}

impl KnowledgeSettings for BreakthroughSettings {
    fn option_specs() -> Vec<OptionSpec> {
        NetworkChoice::<Breakthrough, PieceFeatures>::option_specs(DEFAULT_EVALUATION, true)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, String> {
        self.network.set_option(name, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::nnue::checks;

    #[test]
    fn the_built_in_network_loads_and_is_the_default() {
        checks::built_in_network_is_the_default(
            built_in_network(),
            &BreakthroughSettings::default().network,
        );
    }
}
