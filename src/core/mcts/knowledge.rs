//! What Monte Carlo tree search asks of a game beyond every search's
//! `Knowledge`: its simulations, a closer look at nodes visited often, and
//! what it believes of a move before any simulation.

use rand::rngs::SmallRng;

use super::playout::{random_playout, PlayoutRecord};
use crate::core::game::{Game, Player};
use crate::core::knowledge::{Knowledge, PlainKnowledge};

/// A game's knowledge for Monte Carlo tree search (`mcts/`).
pub trait MonteCarloKnowledge<G: Game>: Knowledge<G> {
    /// Plays `position` out to the end of the game, noting in `record` who
    /// played each move (by `move_index`), and leaves it as it found it.
    /// Returns the winner, `None` for a draw. Defaults to uniformly random
    /// legal moves; a game's own playout (answers to threats, a faster
    /// board) is where its strength lies.
    fn playout(
        &mut self,
        position: &mut G,
        rng: &mut SmallRng,
        record: &mut PlayoutRecord,
    ) -> Option<Player> {
        random_playout(self, position, rng, record)
    }

    /// A closer look, worth its cost only at a node the search keeps coming
    /// back to (`MctsKnowledgeVisits` simulations): a result proven there,
    /// counted as in `Knowledge::forced_result`; or else `moves` (the
    /// node's children) cut down to those still worth searching, the ones
    /// removed proven to lose. Like `forced_result`, it may play on
    /// `position` and must restore it. Defaults to nothing.
    fn closer_look(&mut self, position: &mut G, moves: &mut Vec<G::Move>) -> Option<i32> {
        let _ = (position, moves);
        None
    }

    /// What the knowledge believes of `mv` before any simulation, as
    /// simulations and the mover's wins among them, added to the move's
    /// all-moves-as-first statistics. Defaults to nothing.
    fn move_prior(&mut self, position: &G, mv: G::Move) -> (f32, f32) {
        let _ = (position, mv);
        (0.0, 0.0)
    }

    /// A policy over `moves` (probabilities in their order, summing to 1),
    /// which the search adds as a progressive bias that fades with a
    /// move's visits (`MctsProgressiveBias`); left empty, none. Defaults
    /// to none.
    fn move_policy(&mut self, position: &G, moves: &[G::Move], policy: &mut Vec<f32>) {
        let _ = (position, moves);
        policy.clear();
    }
}

impl<G: Game> MonteCarloKnowledge<G> for PlainKnowledge<G> {}
