//! What the search knows of Gomoku beyond the rules: the evaluation, the
//! threat-driven move choice, and the VCF and VCT solvers with their
//! memories, one `GomokuKnowledge` per search thread.

use super::board::{Board, CELL_COUNT};
use super::eval;
use super::threats;
use super::vcf::{VcfSolver, VcfStats};
use super::vct::VctSolver;
use super::{Gomoku, Move};
use crate::core::{Deadline, EvalTerm, Knowledge, NullMove, RootSolution, Score};

/// Nodes a VCF probe may visit inside the main search.
const SEARCH_VCF_BUDGET: u32 = 120;
/// Nodes a VCF probe may visit one ply below the search's root, where the
/// root's fours (and the opponent's wins after each root move) are proven.
/// A probe runs at some 80,000 nodes a second and cannot be interrupted, so
/// this also bounds how late a timed search can stop (about 12 ms).
const ROOT_VCF_BUDGET: u32 = 1000;
/// The part (1/n) of the time the search offers its root solver that the
/// threat search takes.
const VCT_SHARE_OF_SOLVER_TIME: u32 = 4;

#[derive(Default)]
pub struct GomokuKnowledge {
    /// A copy of the board the search is at, on which the solvers play
    /// their sequences out (the search's own position is read-only here).
    /// It follows the search line move by move, and is copied afresh from
    /// the position whenever it is found out of step.
    board: Option<Board>,
    vcf: VcfSolver,
    vct: VctSolver,
    /// Stones on the board where the current search started: the VCF probes
    /// right below its root get a much larger budget than those deeper.
    /// Outside a search (`None`), every position asked about is a root.
    root_stones: Option<usize>,
}

impl GomokuKnowledge {
    /// The move of the forced win by continuous fours for the side to move,
    /// with its length in plies, if one is found within `budget` nodes.
    pub fn find_vcf(&mut self, position: &Gomoku, budget: u32) -> Option<(Move, i32)> {
        self.vcf
            .find(in_step(&mut self.board, position.board()), budget)
    }

    /// A win by continuous threats for the side to move, found within
    /// `max_nodes` threat-search nodes and before `deadline`: its first move
    /// and its length in plies.
    pub fn find_vct(
        &mut self,
        position: &Gomoku,
        max_nodes: u64,
        deadline: &Deadline,
    ) -> Option<(Move, i32)> {
        let board = in_step(&mut self.board, position.board());
        self.vct.find(board, &mut self.vcf, max_nodes, deadline)
    }

    pub fn vcf_stats(&self) -> VcfStats {
        self.vcf.stats()
    }

    /// Threat-search nodes so far, the VCF probes inside not counted.
    pub fn vct_nodes(&self) -> u64 {
        self.vct.nodes()
    }

    fn vcf_budget(&self, position: &Gomoku) -> u32 {
        let near_root = self
            .root_stones
            .is_none_or(|root| position.board().stone_count() <= root + 1);
        if near_root {
            ROOT_VCF_BUDGET
        } else {
            SEARCH_VCF_BUDGET
        }
    }
}

/// The knowledge's board, brought in step with `position` if it is not.
fn in_step<'a>(copy: &'a mut Option<Board>, position: &Board) -> &'a mut Board {
    match copy {
        Some(board) if !same_position(board, position) => board.clone_from(position),
        Some(_) => {}
        None => *copy = Some(position.clone()),
    }
    copy.get_or_insert_with(|| position.clone())
}

/// The key leaves out the board's size and rule, which a knowledge kept
/// across a rule change would otherwise mistake.
fn same_position(board: &Board, other: &Board) -> bool {
    board.hash() == other.hash() && board.size() == other.size() && board.rule() == other.rule()
}

impl Knowledge<Gomoku> for GomokuKnowledge {
    fn prepare_search(&mut self, root: &Gomoku, deadline: &Deadline) {
        self.root_stones = Some(root.board().stone_count());
        // Each search starts with empty solver memories, as when they lived
        // in the copy of the position each search was given: the failures
        // are true, but kept they would leave the budgeted probes more to
        // spend and so change what the search finds.
        self.vcf.start_search(deadline);
        self.vct.forget_failures();
        in_step(&mut self.board, root.board());
    }

    fn on_make(&mut self, _position: &Gomoku, mv: Move) {
        let cell = mv as usize;
        if let Some(board) = self.board.as_mut() {
            // A copy out of step is only ever played on where that is
            // legal for it, and is replaced before it is next asked.
            if board.contains(cell) && board.is_empty(cell) {
                board.play(cell);
            }
        }
    }

    /// A stone more never hurts its owner in freestyle (in exactly-five
    /// it could, through an overline, too rarely to matter to a pruning).
    fn null_move() -> NullMove {
        NullMove::Sound
    }

    fn on_null_move(&mut self, _position: &Gomoku, _made: bool) {
        if let Some(board) = self.board.as_mut() {
            board.pass();
        }
    }

    fn on_unmake(&mut self, _position: &Gomoku, mv: Move) {
        let cell = mv as usize;
        if let Some(board) = self.board.as_mut() {
            if board.contains(cell) && !board.is_empty(cell) {
                board.unplay(cell);
            }
        }
    }

    fn evaluate(&mut self, position: &Gomoku) -> Score {
        eval::evaluate(position.board())
    }

    fn eval_terms(&mut self, position: &Gomoku) -> Vec<EvalTerm> {
        eval::terms(position.board())
    }

    fn search_moves(&mut self, position: &Gomoku, moves: &mut Vec<Move>) {
        threats::search_moves(position.board(), moves);
    }

    fn noisy_moves(&mut self, position: &Gomoku, moves: &mut Vec<Move>) {
        threats::noisy_moves(position.board(), moves);
    }

    fn forced_result(&mut self, position: &Gomoku) -> Option<i32> {
        let budget = self.vcf_budget(position);
        let board = in_step(&mut self.board, position.board());
        threats::forced_plies(board, &mut self.vcf, budget)
    }

    fn solve_root(
        &mut self,
        position: &Gomoku,
        deadline: &Deadline,
        nodes: &mut u64,
    ) -> Option<RootSolution<Move>> {
        // Most positions hold no VCT, so the threat search gets only part
        // of the solver's share and the rest goes back to the search.
        let deadline = deadline.within(deadline.remaining()? / VCT_SHARE_OF_SOLVER_TIME);
        let before = self.vct.nodes() + self.vcf.stats().nodes;
        let found = self.find_vct(position, u64::MAX, &deadline);
        *nodes += self.vct.nodes() + self.vcf.stats().nodes - before;
        found.map(|(best_move, plies)| RootSolution { best_move, plies })
    }

    fn move_order_hint(&mut self, position: &Gomoku, mv: Move) -> i32 {
        threats::order_hint(position.board(), mv as usize)
    }

    fn move_index(&self, _position: &Gomoku, mv: Move) -> usize {
        mv as usize
    }

    fn move_index_bound(&self, _position: &Gomoku) -> usize {
        CELL_COUNT
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::gomoku::GomokuRules;

    /// Black to move wins by fours: h8, then h5 makes two fours.
    const TWO_STEP_VCF: &str = "15/15/15/15/15/15/7o7/3oxxx8/7x7/7x7/3oxxx8/15/15/15/15 x";

    fn fen(text: &str, rules: &GomokuRules) -> Gomoku {
        Gomoku::from_fen(text, rules).expect("test position")
    }

    fn copy_matches(knowledge: &GomokuKnowledge, position: &Gomoku) -> bool {
        knowledge
            .board
            .as_ref()
            .is_some_and(|board| same_position(board, position.board()))
    }

    #[test]
    fn the_board_copy_follows_the_search_line() {
        let mut game = fen(TWO_STEP_VCF, &GomokuRules::default());
        let mut knowledge = GomokuKnowledge::default();
        knowledge.prepare_search(&game, &Deadline::default());
        let line: Vec<Move> = ["a1", "o15", "b2"]
            .iter()
            .map(|name| game.parse_move(name).expect("test move"))
            .collect();
        for &mv in &line {
            game.make_move(mv);
            knowledge.on_make(&game, mv);
            assert!(copy_matches(&knowledge, &game));
        }
        for &mv in line.iter().rev() {
            game.unmake_move(mv);
            knowledge.on_unmake(&game, mv);
            assert!(copy_matches(&knowledge, &game));
        }
        assert_eq!(knowledge.forced_result(&game), Some(5));
    }

    #[test]
    fn a_copy_out_of_step_is_replaced_before_it_answers() {
        let rules = GomokuRules::default();
        let elsewhere = fen("15/15/15/15/15/15/15/3oxxx8/15/15/15/15/15/15/15 x", &rules);
        let game = fen(TWO_STEP_VCF, &rules);
        let mut knowledge = GomokuKnowledge::default();
        knowledge.prepare_search(&elsewhere, &Deadline::default());
        // Moves of another line: played or taken back where the copy allows.
        knowledge.on_make(&game, 0);
        knowledge.on_unmake(&game, 0);
        knowledge.on_unmake(&game, game.parse_move("h8").expect("test move"));
        let fresh = GomokuKnowledge::default().find_vcf(&game, 10_000);
        assert!(fresh.is_some());
        assert_eq!(knowledge.find_vcf(&game, 10_000), fresh);
        assert!(copy_matches(&knowledge, &game));
    }

    #[test]
    fn a_copy_of_another_board_size_is_out_of_step() {
        let small = Gomoku::start_position(&GomokuRules::default());
        let large = Gomoku::start_position(&GomokuRules {
            size: 19,
            ..GomokuRules::default()
        });
        assert_eq!(small.hash(), large.hash());
        let mut knowledge = GomokuKnowledge::default();
        knowledge.prepare_search(&small, &Deadline::default());
        assert_eq!(knowledge.forced_result(&large), None);
        assert!(knowledge
            .board
            .as_ref()
            .is_some_and(|board| board.size() == 19));
    }

    #[test]
    fn only_the_probes_right_below_the_root_get_the_root_budget() {
        let mut game = fen(TWO_STEP_VCF, &GomokuRules::default());
        let mut knowledge = GomokuKnowledge::default();
        assert_eq!(knowledge.vcf_budget(&game), ROOT_VCF_BUDGET);
        knowledge.prepare_search(&game, &Deadline::default());
        for name in ["a1", "o15"] {
            assert_eq!(
                knowledge.vcf_budget(&game),
                ROOT_VCF_BUDGET,
                "before {name}"
            );
            let mv = game.parse_move(name).expect("test move");
            game.make_move(mv);
        }
        assert_eq!(knowledge.vcf_budget(&game), SEARCH_VCF_BUDGET);
    }
}
