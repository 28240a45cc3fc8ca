//! Transitional: knowledge still kept inside a game's position.
//!
//! A game that has not yet moved its knowledge out of its position
//! implements `InPositionKnowledge` (the knowledge methods of the former
//! `Game` trait, on the position itself), and searches with
//! `MirrorKnowledge`, which keeps a copy of the position in step with the
//! search through `on_make`/`on_unmake` and asks it. Searches, node counts
//! and results are those of the former seam; each game leaves this module
//! once its knowledge has a type of its own.

use super::game::{Game, Score};
use super::knowledge::{Deadline, EvalTerm, Knowledge, RootSolution};

pub trait InPositionKnowledge: Game {
    fn generate_search_moves(&mut self, moves: &mut Vec<Self::Move>) {
        self.generate_moves(moves);
    }
    fn generate_noisy(&mut self, moves: &mut Vec<Self::Move>) {
        moves.clear();
    }
    fn must_respond(&mut self) -> bool {
        false
    }
    fn move_order_hint(&self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }
    fn hints_every_move() -> bool {
        false
    }
    fn move_index(&self, mv: Self::Move) -> usize;
    fn move_index_bound(&self) -> usize;
    fn prepare_search(&mut self, deadline: &Deadline) {
        let _ = deadline;
    }
    fn solve_root(
        &mut self,
        deadline: &Deadline,
        nodes: &mut u64,
    ) -> Option<RootSolution<Self::Move>> {
        let _ = (deadline, nodes);
        None
    }
    fn evaluate(&mut self) -> Score;
    fn eval_terms(&mut self) -> Vec<EvalTerm> {
        Vec::new()
    }
    fn forced_result(&mut self) -> Option<i32> {
        None
    }
}

/// A copy of the searched position, kept in step by the search.
pub struct MirrorKnowledge<G>(Option<G>);

impl<G> Default for MirrorKnowledge<G> {
    fn default() -> Self {
        MirrorKnowledge(None)
    }
}

impl<G: InPositionKnowledge> MirrorKnowledge<G> {
    /// The copy, replaced by `position` if it has fallen out of step.
    fn at(&mut self, position: &G) -> &mut G {
        let in_step = self
            .0
            .as_ref()
            .is_some_and(|mirror| mirror.hash() == position.hash());
        if !in_step {
            self.0 = Some(position.clone());
        }
        self.0.get_or_insert_with(|| position.clone())
    }
}

impl<G: InPositionKnowledge> Knowledge<G> for MirrorKnowledge<G> {
    fn prepare_search(&mut self, root: &G, deadline: &Deadline) {
        let mut mirror = root.clone();
        mirror.prepare_search(deadline);
        self.0 = Some(mirror);
    }
    fn on_make(&mut self, position: &G, mv: G::Move) {
        if let Some(mirror) = self.0.as_mut() {
            mirror.make_move(mv);
        }
        self.at(position);
    }
    fn on_unmake(&mut self, position: &G, mv: G::Move) {
        if let Some(mirror) = self.0.as_mut() {
            mirror.unmake_move(mv);
        }
        self.at(position);
    }
    fn evaluate(&mut self, position: &G) -> Score {
        self.at(position).evaluate()
    }
    fn eval_terms(&mut self, position: &G) -> Vec<EvalTerm> {
        self.at(position).eval_terms()
    }
    fn search_moves(&mut self, position: &G, moves: &mut Vec<G::Move>) {
        self.at(position).generate_search_moves(moves);
    }
    fn noisy_moves(&mut self, position: &G, moves: &mut Vec<G::Move>) {
        self.at(position).generate_noisy(moves);
    }
    fn must_respond(&mut self, position: &G) -> bool {
        self.at(position).must_respond()
    }
    fn forced_result(&mut self, position: &G) -> Option<i32> {
        self.at(position).forced_result()
    }
    fn solve_root(
        &mut self,
        position: &G,
        deadline: &Deadline,
        nodes: &mut u64,
    ) -> Option<RootSolution<G::Move>> {
        self.at(position).solve_root(deadline, nodes)
    }
    fn move_order_hint(&mut self, position: &G, mv: G::Move) -> i32 {
        self.at(position).move_order_hint(mv)
    }
    fn hints_every_move() -> bool {
        G::hints_every_move()
    }
    fn move_index(&self, position: &G, mv: G::Move) -> usize {
        position.move_index(mv)
    }
    fn move_index_bound(&self, position: &G) -> usize {
        position.move_index_bound()
    }
}
