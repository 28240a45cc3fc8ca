//! The electrical-resistance evaluation (Anshelevich; Queenbee, Six and
//! Wolve use it): each player's board is a circuit between their two edges
//! (`network`), and the score is the logarithm of the opponent's
//! resistance over one's own, weighted, signed for the side to move, plus a
//! tempo. The weights are data (`weights.txt`); which evaluation the engine
//! uses, two-distance or this one, is the `Evaluation` option.

mod network;

use once_cell::sync::Lazy;

use super::board::{Hex, BLACK, WHITE};
use crate::core::weights::WeightTable;
use crate::core::{EvalTerm, Player, Score};
pub use network::{Network, EVAL_TOLERANCE, OPEN_CIRCUIT};

/// The weights' names, in table order.
pub const WEIGHT_NAMES: [&str; 3] = ["scale", "bridge", "tempo"];

/// The weights as data (`weights.txt`, compiled in).
pub static WEIGHT_TABLE: Lazy<WeightTable> = Lazy::new(|| {
    // The file is part of the source; a test reads it, so a broken one
    // never gets past the test suite.
    WeightTable::parse(include_str!("weights.txt"))
        .unwrap_or_else(|e| panic!("resistance/weights.txt: {e}"))
});

/// The largest score the evaluation gives, well inside the search's
/// proven-result range.
const SCORE_CAP: Score = 20_000;

/// Which static evaluation the search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    TwoDistance,
    Resistance,
}

impl Evaluation {
    pub const NAMES: [&'static str; 2] = ["twodistance", "resistance"];

    pub fn name(self) -> &'static str {
        match self {
            Evaluation::TwoDistance => Self::NAMES[0],
            Evaluation::Resistance => Self::NAMES[1],
        }
    }

    pub fn parse(text: &str) -> Result<Evaluation, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "twodistance" | "two-distance" => Ok(Evaluation::TwoDistance),
            "resistance" => Ok(Evaluation::Resistance),
            other => Err(format!(
                "Evaluation '{other}' is not one of {}",
                Self::NAMES.join(", ")
            )),
        }
    }
}

/// The evaluation the engine uses and the resistance evaluation's
/// weights: the options' values, which the engine hands to each knowledge
/// it makes (`settings.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalSettings {
    pub evaluation: Evaluation,
    /// Centi-units per unit of the logarithm of the resistance ratio.
    pub scale: Score,
    /// A bridge's extra conductance, in hundredths.
    pub bridge: Score,
    pub tempo: Score,
    /// Monte Carlo playouts draw the cells around the last stone by the
    /// move policy's gammas (`PlayoutPolicy`).
    pub playout_policy: bool,
    /// Monte Carlo playouts fill dead cells and captured pairs as they
    /// appear (`PlayoutFillIn`).
    pub playout_fill_in: bool,
    /// The searches' moves leave out the cells fill-in fills: dead cells
    /// and captured pairs (`TreeFillIn`).
    pub tree_fill_in: bool,
    /// What Monte Carlo search's closer look (`MctsKnowledgeVisits`) uses.
    pub closer_look: CloserLook,
}

/// The knowledge Monte Carlo search's closer look brings to a node it
/// keeps coming back to (`CloserLook`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloserLook {
    /// H-search: a proven connection settles the node, the opponent's
    /// semi connections narrow the moves to the must-play cells.
    Connections,
    /// The inferior cells (`inferior`): the mover's filled, vulnerable and
    /// dominated cells left out, far cheaper than H-search.
    Inferior,
    /// Both, the inferior cells first.
    Both,
}

impl CloserLook {
    pub const NAMES: [&'static str; 3] = ["connections", "inferior", "both"];

    pub fn name(self) -> &'static str {
        match self {
            CloserLook::Connections => Self::NAMES[0],
            CloserLook::Inferior => Self::NAMES[1],
            CloserLook::Both => Self::NAMES[2],
        }
    }

    pub fn parse(text: &str) -> Result<CloserLook, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "connections" => Ok(CloserLook::Connections),
            "inferior" => Ok(CloserLook::Inferior),
            "both" => Ok(CloserLook::Both),
            other => Err(format!(
                "CloserLook '{other}' is not one of {}",
                Self::NAMES.join(", ")
            )),
        }
    }
}

impl EvalSettings {
    /// The compiled-in weights, with `evaluation`.
    pub fn from_weights(evaluation: Evaluation) -> Result<EvalSettings, String> {
        let table = &*WEIGHT_TABLE;
        table.require_names(&WEIGHT_NAMES)?;
        let settings = EvalSettings {
            evaluation,
            scale: table.get("scale")?,
            bridge: table.get("bridge")?,
            tempo: table.get("tempo")?,
            playout_policy: true,
            playout_fill_in: true,
            tree_fill_in: false,
            closer_look: CloserLook::Connections,
        };
        if settings.scale < 0 || settings.bridge < 0 {
            return Err("scale and bridge must not be negative".to_string());
        }
        Ok(settings)
    }
}

impl Default for EvalSettings {
    fn default() -> Self {
        EvalSettings::from_weights(Evaluation::TwoDistance)
            .unwrap_or_else(|e| panic!("resistance/weights.txt: {e}"))
    }
}

/// Both players' resistances for one position, and their circuits'
/// scratch.
#[derive(Clone, Debug)]
pub struct Resistance {
    /// Black's and White's circuits.
    networks: [Network; 2],
    /// Black's and White's resistance between their edges.
    pub resistance: [f64; 2],
    /// Hash of the position these results belong to, and the bridge
    /// conductance they were computed with.
    pub key: Option<(u64, Score)>,
}

impl Default for Resistance {
    /// Warm started, to the evaluation's tolerance.
    fn default() -> Self {
        Resistance::with_tolerance(EVAL_TOLERANCE)
    }
}

impl Resistance {
    /// Warm started, solving to `tolerance` (relative residual).
    pub fn with_tolerance(tolerance: f64) -> Self {
        let network = Network::new(tolerance, true);
        Resistance {
            networks: [network.clone(), network],
            resistance: [0.0; 2],
            key: None,
        }
    }

    pub fn compute(&mut self, hex: &Hex, bridge: Score) {
        let conductance = bridge as f64 / 100.0;
        for (slot, stone) in [BLACK, WHITE].into_iter().enumerate() {
            let network = &mut self.networks[slot];
            self.resistance[slot] = network.resistance(hex, stone, conductance);
        }
        self.key = Some((hex.hash_key(), bridge));
    }

    /// Starts each solve from the last one's potentials (the default) or
    /// from zero.
    pub fn set_warm_start(&mut self, warm: bool) {
        self.networks.iter_mut().for_each(|n| n.warm_start = warm);
    }

    /// Conjugate-gradient steps of the last computation, both players.
    pub fn iterations(&self) -> usize {
        self.networks.iter().map(|n| n.iterations).sum()
    }

    /// The results for `hex`, computed unless they are the last ones.
    pub fn at(&mut self, hex: &Hex, bridge: Score) -> &Resistance {
        if self.key != Some((hex.hash_key(), bridge)) {
            self.compute(hex, bridge);
        }
        self
    }

    /// Black's lead: the natural logarithm of White's resistance over
    /// Black's, each kept within `1 / OPEN_CIRCUIT ..= OPEN_CIRCUIT`.
    pub fn black_log_ratio(&self) -> f64 {
        let clamp = |r: f64| r.clamp(1.0 / OPEN_CIRCUIT, OPEN_CIRCUIT);
        (clamp(self.resistance[1]) / clamp(self.resistance[0])).ln()
    }

    /// Black's resistance term in centi-units.
    pub fn black_term(&self, settings: &EvalSettings) -> Score {
        let points = (settings.scale as f64 * self.black_log_ratio()).round();
        points.clamp(-(SCORE_CAP as f64), SCORE_CAP as f64) as Score
    }

    /// The score for the side to move.
    pub fn score(&self, settings: &EvalSettings, to_move: Player) -> Score {
        let sign = if to_move == Player::P1 { 1 } else { -1 };
        sign * self.black_term(settings) + settings.tempo
    }

    /// The terms the `eval` command shows.
    pub fn eval_terms(&self, settings: &EvalSettings, to_move: Player) -> Vec<EvalTerm> {
        let term = self.black_term(settings);
        let tempo = |p: Player| if p == to_move { settings.tempo } else { 0 };
        vec![
            EvalTerm {
                name: format!(
                    "resistance (black {:.3} / white {:.3})",
                    self.resistance[0], self.resistance[1]
                ),
                p1: term.max(0),
                p2: (-term).max(0),
            },
            EvalTerm {
                name: "tempo".to_string(),
                p1: tempo(Player::P1),
                p2: tempo(Player::P2),
            },
        ]
    }
}

#[cfg(test)]
mod tests;
