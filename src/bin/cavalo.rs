//! The Jogo do Cavalo engine: UCI/UGI on stdin/stdout, or `cavalo bench [depth]`.
//! Matches against the seed's algorithm and the solve-point measurement live in
//! `cavalo-tools`.

fn main() {
    boardgames::protocol::run_engine_main::<boardgames::games::cavalo::Cavalo>();
}
