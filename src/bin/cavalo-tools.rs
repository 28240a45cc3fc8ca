//! Measurement tools for the Jogo do Cavalo engine: strength matches
//! against the seed's player, solver figures and analysis data (see
//! `games::cavalo::tools` and protocol/CAVALO.md).

fn main() {
    boardgames::protocol::init_logging();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(boardgames::games::cavalo::tools::run(&args));
}
