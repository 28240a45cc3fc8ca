//! Tools that fit an engine to games: position sampling from game records,
//! Texel tuning of evaluation weights, SPSA over any engine's options, the
//! win/draw/loss model of a game's scores, and self-play data and the
//! trainer of a learned evaluation (`datagen`, `network_train`), and the fit
//! of a move policy's gammas (`policy_fit`). They live apart from the games
//! and the search, and reach a game only through its rules, its knowledge
//! and its `LinearEval`.

#[cfg(feature = "tune")]
pub mod commands;
pub mod datagen;
pub mod dataset;
pub mod network_checkpoint;
#[cfg(feature = "tune")]
pub mod network_command;
pub mod network_data;
pub mod network_train;
#[cfg(feature = "tune")]
pub mod plot;
pub mod policy_fit;
mod policy_records;
pub mod sample;
pub mod spsa;
pub mod spsa_log;
#[cfg(feature = "tune")]
pub mod spsa_run;
pub mod texel;
pub mod wdl_fit;
