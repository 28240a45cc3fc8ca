//! One folder per game: rules and board, notation, evaluation, specials.

pub mod breakthrough;
pub mod cavalo;
pub mod gomoku;
pub mod hex;
