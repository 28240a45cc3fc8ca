//! Tools that fit an engine to games: position sampling from game records
//! and Texel tuning of evaluation weights. They live apart from the games
//! and the search, and reach a game only through its rules, its knowledge
//! and its `LinearEval`.

pub mod commands;
pub mod sample;
pub mod texel;
