//! The engine options Gomoku's knowledge reads: the threat searches'
//! switches, and the evaluation (`Evaluation`, `EvalFile`: the classical
//! shapes, or a network loaded from a file). The engine hands them to every
//! knowledge it makes.

use super::network::ShapeSetFeatures;
use super::Gomoku;
use crate::core::game::{OptionKind, OptionSpec};
use crate::core::knowledge::KnowledgeSettings;
use crate::core::nnue::{Evaluation, NetworkChoice};

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
    /// No network is built in (the shape-set features are an experiment,
    /// docs/results/gomoku.md), so the `network` evaluation needs an
    /// `EvalFile`.
    pub network: NetworkChoice<Gomoku, ShapeSetFeatures>,
}

impl Default for GomokuSettings {
    fn default() -> Self {
        GomokuSettings {
            vct_below_root: false,
            hidden_vcf_defence: false,
            network: NetworkChoice::new(Evaluation::Classical, None),
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
            Evaluation::Classical,
            false,
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
