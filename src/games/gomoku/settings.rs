//! The engine options Gomoku's knowledge reads: the threat searches'
//! switches. The engine hands them to every knowledge it makes.

use crate::core::game::{OptionKind, OptionSpec};
use crate::core::knowledge::KnowledgeSettings;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GomokuSettings {
    /// Timed searches run the threat search below their root
    /// (`VctBelowRoot`, off by default: measured even at 50 ms and behind
    /// at 200 ms, docs/results/gomoku.md).
    pub vct_below_root: bool,
    /// Searches keep only the moves that can break a VCF the opponent
    /// holds without a visible threat (`HiddenVcfDefence`, off by default:
    /// its probes cost more than the smaller move lists gained).
    pub hidden_vcf_defence: bool,
}

impl KnowledgeSettings for GomokuSettings {
    fn option_specs() -> Vec<OptionSpec> {
        ["VctBelowRoot", "HiddenVcfDefence"]
            .map(|name| OptionSpec {
                name,
                kind: OptionKind::Check { default: false },
            })
            .to_vec()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let switch = match name.to_ascii_lowercase().as_str() {
            "vctbelowroot" => &mut self.vct_below_root,
            "hiddenvcfdefence" => &mut self.hidden_vcf_defence,
            _ => return Ok(false),
        };
        *switch = match value.trim().to_ascii_lowercase().as_str() {
            "true" => true,
            "false" => false,
            _ => return Err(format!("{name} '{}' is not true or false", value.trim())),
        };
        Ok(true)
    }
}
