//! The Breakthrough engine: UCI/UGI on stdin/stdout, or `breakthrough bench [depth]`.

fn main() {
    boardgames::protocol::run_engine_main::<boardgames::games::breakthrough::Breakthrough>();
}
