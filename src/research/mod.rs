//! Research tools kept apart from the games: the experiments and
//! measurements behind a game's design, which the engines never run.

pub mod cavalo;
