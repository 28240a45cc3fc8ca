//! What alpha-beta search asks of a game beyond every search's
//! `Knowledge`: the moves quiescence looks at, when a side may not stand
//! pat, and the moves of its line (for an evaluation that follows them).

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

    /// Plays `mv` on the search's line. An evaluation that keeps state
    /// along the line (a network's accumulators) updates it here, so that
    /// `evaluate` need not recompute it; the search calls `take_back` with
    /// the same move before it plays another.
    fn play(&mut self, position: &mut G, mv: G::Move) {
        position.make_move(mv);
    }

    /// Takes back the move `play` played last.
    fn take_back(&mut self, position: &mut G, mv: G::Move) {
        position.unmake_move(mv);
    }
}

impl<G: Game> AlphaBetaKnowledge<G> for PlainKnowledge<G> {}
