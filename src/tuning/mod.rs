//! Tools that fit an engine to games: position sampling from game records,
//! Texel tuning of evaluation weights, SPSA over any engine's options, and
//! the win/draw/loss model of a game's scores. They live apart from the games
//! and the search, and reach a game only through its rules, its knowledge
//! and its `LinearEval`.

#[cfg(feature = "tune")]
pub mod commands;
pub mod datagen;
pub mod dataset;
#[cfg(feature = "tune")]
pub mod plot;
pub mod sample;
pub mod spsa;
pub mod spsa_log;
#[cfg(feature = "tune")]
pub mod spsa_run;
pub mod texel;
pub mod wdl_fit;
