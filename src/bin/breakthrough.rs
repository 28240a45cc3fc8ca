//! The Breakthrough engine: UCI/UGI on stdin/stdout, or `bg-breakthrough bench [depth]`.

fn main() {
    use boardgames::games::breakthrough::{Breakthrough, BreakthroughKnowledge};
    boardgames::protocol::run_engine_main::<Breakthrough, BreakthroughKnowledge>();
}
