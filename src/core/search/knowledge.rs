//! What alpha-beta search asks of a game beyond every search's
//! `Knowledge`: the moves quiescence looks at, and when a side may not
//! stand pat.

use crate::core::game::Game;
use crate::core::knowledge::{Knowledge, PlainKnowledge};

/// A game's knowledge for alpha-beta search (`search/`).
pub trait AlphaBetaKnowledge<G: Game>: Knowledge<G> {
    /// Clears `moves` and fills it with the "noisy" moves quiescence search
    /// should look at (captures, threats). Empty means quiescence is just
    /// the static evaluation.
    fn noisy_moves(&mut self, position: &G, moves: &mut Vec<G::Move>) {
        let _ = position;
        moves.clear();
    }

    /// True when the side to move faces a threat it must answer now (like
    /// check in chess): quiescence then may not "stand pat" on the static
    /// evaluation and searches `search_moves` instead of the noisy moves.
    fn must_respond(&mut self, position: &G) -> bool {
        let _ = position;
        false
    }
}

impl<G: Game> AlphaBetaKnowledge<G> for PlainKnowledge<G> {}
