//! The Jogo do Cavalo engine: the shared UCI/UGI loop over the cavalo rules.

use boardgames::games::cavalo::Cavalo;

fn main() {
    boardgames::protocol::run_engine_main::<Cavalo>();
}
