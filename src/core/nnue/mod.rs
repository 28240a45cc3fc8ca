//! A small learned evaluation of the NNUE shape, for any game: sparse input
//! features seen from each side (`features`), one hidden layer kept per side
//! as an accumulator that moves update rather than recompute
//! (`accumulator`), and a dense output over both (`network`, with its file
//! format). A game supplies only its `FeatureSet`, and offers the
//! `Evaluation` and `EvalFile` options through a `NetworkChoice` (`choice`); the trainer is
//! `tuning::network_train`.

pub mod accumulator;
#[cfg(test)]
pub mod checks;
pub mod choice;
pub mod features;
pub mod network;

pub use accumulator::AccumulatorStack;
pub use choice::{Evaluation, NetworkChoice};
pub use features::{FeatureChanges, FeatureSet};
pub use network::Network;
