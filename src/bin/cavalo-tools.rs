//! Measurement tools for the Jogo do Cavalo engine: strength matches
//! against the seed's player, solver figures and analysis data (see
//! `research::cavalo` and docs/research/cavalo.md).

fn main() {
    boardgames::protocol::init_logging();
    std::process::exit(boardgames::research::cavalo::run(std::env::args()));
}
