//! The Jogo do Cavalo engine: UCI/UGI on stdin/stdout, or `bg-cavalo bench [depth]`.
//! Matches against the seed's algorithm and the solve-point measurement live in
//! `cavalo-tools`.

fn main() {
    use boardgames::games::cavalo::{Cavalo, CavaloKnowledge};
    boardgames::protocol::run_engine_main::<Cavalo, CavaloKnowledge>();
}
