//! What the engine's searches keep from one move to the next: each search
//! thread's knowledge, alpha-beta's tables and Monte Carlo search's tree.
//! `ucinewgame` clears it all; a change of the knowledge's settings drops
//! the knowledge, which the next search makes anew.

use crate::core::game::Game;
use crate::core::knowledge::Knowledge;
use crate::core::mcts::MonteCarloTables;
use crate::core::search::SearchTables;

pub(super) struct SearchState<G: Game, K> {
    /// One per search thread, the main thread's first.
    pub(super) knowledge: Vec<K>,
    pub(super) alpha_beta: SearchTables<G>,
    pub(super) monte_carlo: MonteCarloTables<G>,
}

impl<G: Game, K: Knowledge<G>> SearchState<G, K> {
    /// Empty, with tables of `hash_megabytes` each (one is in use at a time).
    pub(super) fn new(hash_megabytes: usize) -> Self {
        SearchState {
            knowledge: Vec::new(),
            alpha_beta: SearchTables::new(hash_megabytes),
            monte_carlo: MonteCarloTables::new(hash_megabytes),
        }
    }

    pub(super) fn clear(&mut self) {
        self.knowledge.clear();
        self.alpha_beta.clear();
        self.monte_carlo.clear();
    }

    /// The first `threads` knowledge values (at least one), made with
    /// `settings` where missing; those made before keep their caches.
    pub(super) fn knowledge_for<'k>(
        knowledge: &'k mut Vec<K>,
        threads: usize,
        settings: &K::Settings,
    ) -> &'k mut [K] {
        let threads = threads.max(1);
        while knowledge.len() < threads {
            knowledge.push(K::new(settings));
        }
        &mut knowledge[..threads]
    }
}
