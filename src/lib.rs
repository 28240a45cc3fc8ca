//! Board-game engines sharing one search: Breakthrough, Hex, Gomoku and Jogo do
//! Cavalo, behind a UCI/UGI protocol (and GTP / Gomocup adapters).

pub mod board;
pub mod core;
pub mod engine;
pub mod games;
pub mod protocol;
pub mod referee;
pub mod registry;
pub mod research;
pub mod tuning;
pub mod wire;
