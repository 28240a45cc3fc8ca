//! A small learned evaluation of the NNUE shape, for any game: sparse input
//! features seen from each side (`features`), one hidden layer kept per side
//! as an accumulator that moves update rather than recompute
//! (`accumulator`), and a dense output over both (`network`, with its file
//! format). A game supplies only its `FeatureSet`; the trainer is
//! `tuning::network_train`.

pub mod accumulator;
pub mod features;
pub mod network;

pub use accumulator::AccumulatorStack;
pub use features::{FeatureChanges, FeatureSet};
pub use network::Network;
