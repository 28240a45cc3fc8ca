//! `<game> selfplay [movetime-ms]`: the engine plays a whole game against
//! itself and shows the board after every move, the quickest way to watch it.

use std::time::Duration;

use super::output::send;
use crate::core::control::mate_distance_in_moves;
use crate::core::game::{Outcome, Player};
use crate::core::presentation::Presentation;
use crate::engine::EngineProfile;
use crate::engine::{Engine, SearchLimits};

/// Longest game shown; every game of the project ends well before.
const MAX_PLIES: usize = 1_000;

pub fn selfplay<G: Presentation, K: EngineProfile<G>>(movetime: Duration) {
    let mut engine = Engine::<G, K>::new();
    send(&engine.position().render());
    for ply in 1..=MAX_PLIES {
        if engine.position().outcome().is_some() {
            break;
        }
        let side = engine.position().side_to_move();
        let limits = SearchLimits {
            movetime: Some(movetime),
            ..Default::default()
        };
        let result = engine.start_search(limits, Box::new(|_| {})).wait();
        let Some(mv) = result.best_move else { break };
        let text = engine.position().format_move(mv);
        let score = match mate_distance_in_moves(result.score) {
            Some(moves) => format!("mate {moves}"),
            None => format!("{:+}", result.score),
        };
        if let Err(message) = engine.play_move(&text) {
            send(&format!("engine move {text} refused: {message}"));
            return;
        }
        send(&format!(
            "{ply}. {} plays {text}   (score {score}, depth {}, {} nodes, {} ms)",
            G::player_colour(side),
            result.depth,
            result.nodes,
            result.elapsed.as_millis()
        ));
        send(&engine.position().render());
    }
    let verdict = match engine.position().outcome() {
        Some(Outcome::Win(Player::P1)) => format!("{} wins", G::player_colour(Player::P1)),
        Some(Outcome::Win(Player::P2)) => format!("{} wins", G::player_colour(Player::P2)),
        Some(Outcome::Draw) => "draw".to_string(),
        None => "unfinished".to_string(),
    };
    send(&format!("Result: {verdict}"));
    send(&format!("Final position: {}", engine.position().to_fen()));
}
