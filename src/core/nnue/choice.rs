//! The two options of a game that can evaluate with a network: which
//! evaluation the search uses (`Evaluation`: the game's classical terms or
//! the network) and which network (`EvalFile`: a file, or the one compiled
//! into the engine where the game has one). A game's settings hold one
//! `NetworkChoice` and pass these two options on to it.

use std::marker::PhantomData;
use std::sync::Arc;

use super::features::FeatureSet;
use super::network::Network;
use crate::core::game::{Game, OptionKind, OptionSpec};

/// `EvalFile`'s value for the network compiled into the engine.
pub const BUILT_IN: &str = "<built-in>";
/// `EvalFile`'s value where no network is loaded and none is built in.
pub const NO_FILE: &str = "<none>";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    Classical,
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

    fn parse(value: &str) -> Result<Evaluation, String> {
        match value.to_ascii_lowercase().as_str() {
            "classical" => Ok(Evaluation::Classical),
            "network" => Ok(Evaluation::Network),
            _ => Err(format!("Evaluation '{value}' is not classical or network")),
        }
    }
}

/// The evaluation chosen and the networks it can use, for the features `F`.
pub struct NetworkChoice<G, F> {
    evaluation: Evaluation,
    /// The network `EvalFile` loaded; `None`: the built-in one, if any.
    loaded: Option<Arc<Network>>,
    built_in: Option<Arc<Network>>,
    _marker: PhantomData<fn() -> (G, F)>,
}

impl<G, F> Clone for NetworkChoice<G, F> {
    fn clone(&self) -> Self {
        NetworkChoice {
            evaluation: self.evaluation,
            loaded: self.loaded.clone(),
            built_in: self.built_in.clone(),
            _marker: PhantomData,
        }
    }
}

impl<G, F> std::fmt::Debug for NetworkChoice<G, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hash = |network: &Option<Arc<Network>>| network.as_ref().map(|n| n.hash());
        f.debug_struct("NetworkChoice")
            .field("evaluation", &self.evaluation)
            .field("loaded", &hash(&self.loaded))
            .field("built_in", &hash(&self.built_in))
            .finish()
    }
}

impl<G: Game, F: FeatureSet<G>> NetworkChoice<G, F> {
    /// The choice an engine starts with: `Network` only where there is a
    /// built-in network to evaluate with.
    pub fn new(default: Evaluation, built_in: Option<Arc<Network>>) -> Self {
        let evaluation = match built_in {
            Some(_) => default,
            None => Evaluation::Classical,
        };
        NetworkChoice {
            evaluation,
            loaded: None,
            built_in,
            _marker: PhantomData,
        }
    }

    pub fn evaluation(&self) -> Evaluation {
        self.evaluation
    }

    /// The network `EvalFile` names (loaded or built in), used or not.
    pub fn network(&self) -> Option<Arc<Network>> {
        self.loaded.clone().or_else(|| self.built_in.clone())
    }

    /// The network the search evaluates with; `None`: the classical terms.
    pub fn active(&self) -> Option<Arc<Network>> {
        match self.evaluation {
            Evaluation::Classical => None,
            Evaluation::Network => self.network(),
        }
    }

    /// The two options, with the defaults of an engine that starts with
    /// `default` and has a built-in network or not.
    pub fn option_specs(default: Evaluation, has_built_in: bool) -> Vec<OptionSpec> {
        let (evaluation, file) = match has_built_in {
            true => (default, BUILT_IN),
            false => (Evaluation::Classical, NO_FILE),
        };
        vec![
            OptionSpec {
                name: "Evaluation",
                kind: OptionKind::Combo {
                    default: evaluation.name().to_owned(),
                    choices: Evaluation::NAMES.map(String::from).to_vec(),
                },
            },
            OptionSpec {
                name: "EvalFile",
                kind: OptionKind::Text {
                    default: file.to_owned(),
                },
            },
        ]
    }

    /// `setoption` for the two options: `Ok(false)` for any other name; on
    /// an error nothing changes.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "evaluation" => {
                let evaluation = Evaluation::parse(value)?;
                if evaluation == Evaluation::Network && self.network().is_none() {
                    return Err("no network to evaluate with: set EvalFile first".into());
                }
                self.evaluation = evaluation;
            }
            "evalfile" => {
                self.loaded = match value {
                    "" | BUILT_IN | NO_FILE => None,
                    path => Some(Arc::new(load_network::<G, F>(path)?)),
                };
                if self.network().is_none() {
                    self.evaluation = Evaluation::Classical;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// Reads a network file made for the features `F`.
pub fn load_network<G: Game, F: FeatureSet<G>>(path: &str) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read EvalFile '{path}': {e}"))?;
    network_for::<G, F>(&bytes).map_err(|e| format!("EvalFile '{path}': {e}"))
}

/// A network file's network for the features `F`: one made for them, or
/// for the feature set they extend (`FeatureSet::EXTENDS`), the new
/// inputs then weighing nothing. Any other is refused with `F`'s reason.
pub fn network_for<G: Game, F: FeatureSet<G>>(bytes: &[u8]) -> Result<Network, String> {
    Network::from_bytes(bytes, F::NAME, F::INPUTS).or_else(|own| match F::EXTENDS {
        Some((name, inputs)) => Network::from_bytes(bytes, name, inputs)
            .map(|network| network.extended(F::NAME, F::INPUTS))
            .map_err(|_| own),
        None => Err(own),
    })
}

/// The network in a file compiled into the engine; `None`, and an error
/// logged, if it does not read (a build with a damaged file still plays).
pub fn read_built_in<G: Game, F: FeatureSet<G>>(bytes: &[u8]) -> Option<Arc<Network>> {
    network_for::<G, F>(bytes)
        .map_err(|e| log::error!("the built-in network: {e}"))
        .ok()
        .map(Arc::new)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::network::ShapeSetFeatures;
    use crate::games::gomoku::Gomoku;

    type Choice = NetworkChoice<Gomoku, ShapeSetFeatures>;

    #[test]
    fn without_a_network_the_evaluation_stays_classical() {
        let mut choice = Choice::new(Evaluation::Network, None);
        assert_eq!(choice.evaluation(), Evaluation::Classical);
        let refused = choice.set_option("Evaluation", "network");
        assert!(refused.is_err_and(|e| e.contains("EvalFile")));
        assert_eq!(choice.evaluation(), Evaluation::Classical);
        assert!(choice.active().is_none());
        let specs = Choice::option_specs(Evaluation::Network, false);
        assert!(
            matches!(&specs[0].kind, OptionKind::Combo { default, .. } if default == "classical")
        );
        assert!(matches!(&specs[1].kind, OptionKind::Text { default } if default == NO_FILE));
    }

    #[test]
    fn other_options_and_bad_values_change_nothing() {
        let mut choice = Choice::new(Evaluation::Classical, None);
        assert_eq!(choice.set_option("Rule", "renju"), Ok(false));
        assert!(choice.set_option("Evaluation", "neural").is_err());
        let missing = choice.set_option("EvalFile", "/nonexistent/file.bgnn");
        assert!(missing.is_err_and(|e| e.contains("cannot read")));
        assert!(choice.network().is_none());
        assert_eq!(choice.set_option("EvalFile", NO_FILE), Ok(true));
    }
}
