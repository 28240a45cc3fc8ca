//! Victory by continuous fours: the attacker plays only fours, the defender
//! only the one block each four leaves, until the attacker has an open four
//! or two fives. Every defender move is forced, so a line found is a proof.
//! Under Renju Black plays no forbidden four; a block forbidden to Black is
//! still played, which only gives Black a move it does not have.

use super::answers::{Answer, AnswerTable};
use super::board::Board;
use super::failures::FailureTable;
use super::pattern::{T_FIVE, T_FOUR, T_FOUR_THREE, T_OPEN_FOUR};
use super::threats::{first_five, first_open_four, playable_fours};
use super::Move;
use crate::core::Deadline;

/// Fours in a row the attacker may play (the proof is at most twice that
/// long plus one).
const MAX_VCF_FOURS: u32 = 24;
const FAILURE_SLOTS: usize = 1 << 14;

/// The VCF solver's memory: positions already proven to hold no VCF
/// (within a number of fours), so that transposed sequences of fours are not
/// searched twice; the answers of whole probes, so that a position the
/// search meets again (each iteration meets most of them) costs one look-up;
/// and the deadline of the running search, which its probes respect.
#[derive(Default)]
pub struct VcfSolver {
    failures: FailureTable<FAILURE_SLOTS>,
    answers: AnswerTable,
    nodes: u64,
    probes: u64,
    answered: u64,
    deadline: Deadline,
    /// Set when a probe gave up at the deadline: its "none" is not kept.
    cut_short: bool,
    /// The last probe's winning line, its last move first.
    line: Vec<usize>,
}

/// Counters of the VCF searches since the solver was made.
#[derive(Clone, Copy, Debug, Default)]
pub struct VcfStats {
    pub nodes: u64,
    /// Probes asked for, and those answered from the table of answers.
    pub probes: u64,
    pub answered: u64,
}

impl VcfSolver {
    pub fn stats(&self) -> VcfStats {
        VcfStats {
            nodes: self.nodes,
            probes: self.probes,
            answered: self.answered,
        }
    }

    /// Forgets the proven failures and the probes' answers, and takes the
    /// new search's deadline.
    pub fn start_search(&mut self, deadline: &Deadline) {
        self.failures.forget();
        self.answers.forget();
        self.deadline = deadline.clone();
    }

    /// A VCF for the side to move on `board`, found within `budget` nodes:
    /// its first move and its length in plies. The fours are tried on
    /// `board` itself, which is left as it was. A position asked about
    /// before in this search is answered from the table when its answer
    /// holds for `budget`.
    pub fn find(&mut self, board: &mut Board, budget: u32) -> Option<(Move, i32)> {
        if board.winner().is_some() {
            return None;
        }
        self.probes += 1;
        let key = board.hash();
        if let Some(known) = self.answers.answer(key, budget) {
            self.answered += 1;
            return known;
        }
        self.search(board, budget)
    }

    /// Like `find`, but the whole winning line: the attacker's moves and
    /// the defender's forced replies in turn, ending with the attacker's
    /// five or open four. A win known from the table is searched again, as
    /// the table keeps only its first move.
    pub fn find_line(&mut self, board: &mut Board, budget: u32) -> Option<Vec<usize>> {
        if board.winner().is_some() {
            return None;
        }
        self.probes += 1;
        if let Some(None) = self.answers.answer(board.hash(), budget) {
            self.answered += 1;
            return None;
        }
        self.search(board, budget)?;
        let mut line = std::mem::take(&mut self.line);
        line.reverse();
        Some(line)
    }

    /// A fresh probe, its answer recorded, its line (last move first) left
    /// in `self.line`.
    fn search(&mut self, board: &mut Board, budget: u32) -> Option<(Move, i32)> {
        let key = board.hash();
        self.cut_short = false;
        self.line.clear();
        let mut probe = Probe {
            attacker: board.side(),
            board,
            solver: self,
            budget,
        };
        let found = probe
            .node(MAX_VCF_FOURS)
            .map(|(cell, plies)| (cell as Move, plies));
        match found {
            Some((first, plies)) => self.answers.record(key, Answer::Win { first, plies }),
            None if !self.cut_short => self.answers.record(key, Answer::NoneWithin(budget)),
            None => {}
        }
        found
    }
}

/// One VCF search: the board its fours are played on, and the nodes it may
/// still visit.
struct Probe<'a> {
    board: &'a mut Board,
    solver: &'a mut VcfSolver,
    attacker: usize,
    budget: u32,
}

/// The single cell on a line through `cell` where `side` makes five.
fn five_near(board: &Board, side: usize, cell: usize) -> Option<usize> {
    (0..4).find_map(|direction| {
        board
            .line_cells(cell, direction, 4)
            .find(|&near| board.is_empty(near) && board.threat(side, near) == T_FIVE)
    })
}

/// How often (in VCF nodes) a probe looks at the search's deadline.
const DEADLINE_CHECK_INTERVAL: u64 = 64;

impl Probe<'_> {
    fn node(&mut self, fours_left: u32) -> Option<(usize, i32)> {
        let board = &*self.board;
        let attacker = self.attacker;
        let defender = attacker ^ 1;
        if board.threat_count(attacker, T_FIVE) > 0 {
            let five = first_five(board, attacker)?;
            self.solver.line.push(five);
            return Some((five, 1));
        }
        let defender_fives = board.threat_count(defender, T_FIVE);
        if defender_fives >= 2 {
            return None;
        }
        if defender_fives == 0 && board.threat_count(attacker, T_OPEN_FOUR) > 0 {
            // Black's double fours under Renju are no threat: then the
            // search goes on.
            let open_four = first_open_four(board, attacker);
            if open_four.is_some() || !board.is_restricted(attacker) {
                let open_four = open_four?;
                self.solver.line.push(open_four);
                return Some((open_four, 3));
            }
        }
        if fours_left == 0 || self.budget == 0 || board.count_at_least(attacker, T_FOUR) == 0 {
            return None;
        }
        let hash = board.hash();
        if self.solver.failures.known(hash, fours_left) {
            return None;
        }
        self.budget -= 1;
        self.solver.nodes += 1;
        // A spent budget is never recorded as "no VCF", so giving up here
        // when the search must answer leaves the cache truthful.
        if self.solver.nodes.is_multiple_of(DEADLINE_CHECK_INTERVAL)
            && self.solver.deadline.passed()
        {
            self.budget = 0;
            self.solver.cut_short = true;
            return None;
        }

        let candidates = self.candidate_fours(defender_fives)?;
        for &four in &candidates {
            let four = four as usize;
            if let Some(plies) = self.after_four(four, fours_left) {
                self.solver.line.push(four);
                return Some((four, plies));
            }
            if self.budget == 0 {
                return None;
            }
        }
        self.solver.failures.record(hash, fours_left);
        None
    }

    /// The fours worth trying, best first; `None` when the defender's five
    /// cannot be blocked with a four.
    fn candidate_fours(&self, defender_fives: u16) -> Option<Vec<Move>> {
        let board = &*self.board;
        let attacker = self.attacker;
        let mut candidates = Vec::new();
        if defender_fives == 1 {
            // Only a four that also blocks the defender's five keeps the
            // initiative.
            let block = first_five(board, attacker ^ 1)?;
            if board.threat(attacker, block) < T_FOUR || board.is_forbidden_to(attacker, block) {
                return None;
            }
            candidates.push(block as Move);
        } else {
            playable_fours(board, attacker, &mut candidates);
            // Four-threes first: they most often finish the attack.
            candidates.sort_by_key(|&cell| board.threat(attacker, cell as usize) != T_FOUR_THREE);
        }
        Some(candidates)
    }

    /// Plays `four` and its forced block: the plies to the win from before
    /// the four, if the attack goes through.
    fn after_four(&mut self, four: usize, fours_left: u32) -> Option<i32> {
        let attacker = self.attacker;
        self.board.play(four);
        let result = match self.board.threat_count(attacker, T_FIVE) {
            0 => None,
            1 => match five_near(self.board, attacker, four) {
                Some(block) => {
                    self.board.play(block);
                    let rest = self.node(fours_left - 1);
                    if rest.is_some() {
                        self.solver.line.push(block);
                    }
                    self.board.unplay(block);
                    rest.map(|(_, plies)| plies + 2)
                }
                None => None,
            },
            _ => Some(3),
        };
        self.board.unplay(four);
        result
    }
}
