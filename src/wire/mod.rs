//! The wire formats: every line our engines, the referee, the board and the
//! tests exchange, each as one type that parses (with `nom`) and prints
//! (with `Display`). Whoever reads a format and whoever writes it use the
//! same type, so the two sides cannot drift apart; the round-trip tests
//! check `parse(print(x)) == x` on random values.
//!
//! - [`ugi`]: UCI/UGI commands (with `go` limits) and engine lines (`id`,
//!   `option`, `bestmove`, `info`, ...), protocol/PROTOCOL.md;
//! - [`score`]: `cp N` and `mate N`;
//! - [`gtp`]: GTP commands, `=`/`?` responses, colours and Hex moves;
//! - [`pbrain`]: Gomocup commands, answers and `x,y` points.

pub mod gtp;
mod lex;
pub mod pbrain;
pub mod score;
pub mod ugi;

pub use score::Score;
