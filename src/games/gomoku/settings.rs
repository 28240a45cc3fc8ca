//! The engine options Gomoku's knowledge reads: the threat searches'
//! switches, and the evaluation (`Evaluation`, `EvalFile`: the network over
//! the cells' shape sets, built in or loaded from a file, or the classical
//! sum of the cells' values). The engine hands them to every knowledge it
//! makes.

use std::sync::Arc;

use once_cell::sync::Lazy;

use super::network::ShapeSetFeatures;
use super::Gomoku;
use crate::core::game::{OptionKind, OptionSpec};
use crate::core::knowledge::KnowledgeSettings;
use crate::core::nnue::choice::read_built_in;
use crate::core::nnue::{Evaluation, Network, NetworkChoice};

/// The default since the network beat the classical evaluation
/// (docs/results/gomoku.md, "A network over the cells' shape sets").
const DEFAULT_EVALUATION: Evaluation = Evaluation::Network;

/// The network file compiled into the engine (how it was trained: the
/// same entry).
const BUILT_IN_FILE: &[u8] = include_bytes!("network.bgnn");

static BUILT_IN_NETWORK: Lazy<Option<Arc<Network>>> =
    Lazy::new(|| read_built_in::<Gomoku, ShapeSetFeatures>(BUILT_IN_FILE));

/// The network compiled into the engine.
pub fn built_in_network() -> Option<Arc<Network>> {
    BUILT_IN_NETWORK.clone()
}

#[derive(Clone, Debug)]
pub struct GomokuSettings {
    /// Timed searches run the threat search below their root
    /// (`VctBelowRoot`, off by default: measured even at 50 ms and behind
    /// at 200 ms, docs/results/gomoku.md).
    pub vct_below_root: bool,
    /// Searches keep only the moves that can break a VCF the opponent
    /// holds without a visible threat (`HiddenVcfDefence`, off by default:
    /// its probes cost more than the smaller move lists gained).
    pub hidden_vcf_defence: bool,
    pub network: NetworkChoice<Gomoku, ShapeSetFeatures>,
}

impl Default for GomokuSettings {
    fn default() -> Self {
        GomokuSettings {
            vct_below_root: false,
            hidden_vcf_defence: false,
            network: NetworkChoice::new(DEFAULT_EVALUATION, built_in_network()),
        }
    }
}

impl KnowledgeSettings for GomokuSettings {
    fn option_specs() -> Vec<OptionSpec> {
        let mut specs: Vec<OptionSpec> = ["VctBelowRoot", "HiddenVcfDefence"]
            .map(|name| OptionSpec {
                name,
                kind: OptionKind::Check { default: false },
            })
            .to_vec();
        specs.extend(NetworkChoice::<Gomoku, ShapeSetFeatures>::option_specs(
            DEFAULT_EVALUATION,
            true,
        ));
        specs
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let switch = match name.to_ascii_lowercase().as_str() {
            "vctbelowroot" => &mut self.vct_below_root,
            "hiddenvcfdefence" => &mut self.hidden_vcf_defence,
            _ => return self.network.set_option(name, value),
        };
        *switch = match value.trim().to_ascii_lowercase().as_str() {
            "true" => true,
            "false" => false,
            _ => return Err(format!("{name} '{}' is not true or false", value.trim())),
        };
        Ok(true)
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
            &GomokuSettings::default().network,
        );
    }
}
