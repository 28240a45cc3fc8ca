//! What proof-number search asks of a game beyond every search's
//! `Knowledge`: analysis worth its cost only where a proof expands a node,
//! and the cells a result rests on (proof sets).

use super::ProofCells;
use crate::core::game::Game;
use crate::core::knowledge::{Deadline, Knowledge, PlainKnowledge};

/// A game's knowledge for proof-number search (`dfpn/`).
pub trait ProofKnowledge<G: Game>: Knowledge<G> {
    /// Called instead of `prepare_search` before a proof search (df-pn,
    /// `go mate`, a root solver built on it). A proof gains from analysis
    /// at every node that would slow alpha-beta down too much (a settled
    /// node ends its whole subtree), so a knowledge may switch it on here;
    /// the next `prepare_search` switches it off. `within_plies` is the
    /// proof's length limit (`dfpn::UNLIMITED` for none): analysis that
    /// keeps results but not their lengths is only sound where it cannot
    /// bind.
    fn prepare_proof(&mut self, root: &G, deadline: &Deadline, within_plies: u32) {
        let _ = within_plies;
        self.prepare_search(root, deadline);
    }

    /// A result worth its cost only where a proof search is about to
    /// expand a node, not at every child it generates (a connection
    /// search some hundred evaluations long): counted as in
    /// `Knowledge::forced_result`.
    fn expansion_result(&mut self, position: &mut G) -> Option<i32> {
        let _ = position;
        None
    }

    /// The cells, by `move_index`, that the result just settled at
    /// `position` (by the rules, `forced_result` or `expansion_result`)
    /// rests on: its winner still wins if the loser is given any other
    /// empty cell (`ProofCells`). Returning `Some` asserts that the game is
    /// never drawn and that a stone never hurts its owner; `None` stands
    /// for every cell and prunes nothing.
    fn settled_cells(&mut self, position: &G) -> Option<ProofCells> {
        let _ = position;
        None
    }

    /// The cells that justify leaving out the moves the last
    /// `search_moves` at `position` did not return (must-play carriers,
    /// inferior-cell patterns): each left-out move loses whenever the
    /// moves kept all lose, as long as these cells stay as they are.
    fn narrowing_cells(&mut self, position: &G) -> Option<ProofCells> {
        let _ = position;
        None
    }
}

impl<G: Game> ProofKnowledge<G> for PlainKnowledge<G> {}
