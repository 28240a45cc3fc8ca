//! The board in the browser: an HTTP and WebSocket server (`server`) that
//! serves one page (`page/`, embedded) and gives each tab a game
//! (`connection`, `session`) whose engines are the referee's clients
//! (`engines`); the messages are in `messages` and `protocol/BOARD.md`.

pub mod connection;
pub mod engines;
pub mod messages;
#[cfg(feature = "board")]
pub mod server;
pub mod session;
