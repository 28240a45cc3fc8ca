//! Victory by continuous threats: the attacker plays only threats (fours,
//! and threes after which it would make an open four), the defender every
//! reply that stops the threat, its own fours included (the attacker must
//! block those, and the threat it had stands). A line found holds against
//! every defence, so it is a proof. The search asks for one at its root
//! (`Knowledge::solve_root`); deeper in the tree only the cheaper VCF runs.
//!
//! Under Renju Black neither threatens nor defends on a forbidden point.
//! Whether a Black threat still stands after a White reply depends, through
//! the recursive three, on stones away from its lines, so against Black
//! every White move is tried on the board (`replies_to_black`).

use super::answers::{Answer, AnswerTable};
use super::board::{cell_of, Board};
use super::failures::FailureTable;
use super::pattern::{T_FIVE, T_OPEN_FOUR, T_OPEN_THREE};
use super::threats::{
    defences_against_open_four, first_five, first_open_four, has_open_four, near_cells,
};
use super::vcf::VcfSolver;
use super::Move;
use crate::core::Deadline;

/// Threat moves the attacker may make in a row (fours that finish the win
/// by VCF are not counted).
const MAX_VCT_THREATS: u32 = 10;
/// Nodes each VCF probe inside the threat search may visit, for either side.
const VCF_PROBE_BUDGET: u32 = 200;
const FAILURE_SLOTS: usize = 1 << 16;
/// How often (in threat-search nodes) the deadline is looked at.
const DEADLINE_CHECK_INTERVAL: u64 = 32;

/// Node budgets above this are kept in the answer table as this.
const LARGEST_KEPT_BUDGET: u64 = (1 << 31) - 1;

/// The threat solver's memory: attacker positions proven to hold no VCT
/// within a number of threats, and the answers of whole searches (a win,
/// or none within a node budget) for the rest of the main search.
#[derive(Default)]
pub struct VctSolver {
    failures: FailureTable<FAILURE_SLOTS>,
    answers: AnswerTable,
    nodes: u64,
}

impl VctSolver {
    /// Threat-search nodes since the solver was made (its VCF probes are
    /// counted by their own solver).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets the failures and the answers of the search before.
    pub fn start_search(&mut self) {
        self.failures.forget();
        self.answers.forget();
    }

    /// A VCT for the side to move on `board`, found within `max_nodes`
    /// threat-search nodes and before `deadline`: its first move and its
    /// length in plies. Tries one threat, then two, and so on, so the win
    /// found is short. The threats are tried on `board` itself, which is
    /// left as it was; `vcf` answers the probes for wins by fours.
    pub fn find(
        &mut self,
        board: &mut Board,
        vcf: &mut VcfSolver,
        max_nodes: u64,
        deadline: &Deadline,
    ) -> Option<(Move, i32)> {
        if board.winner().is_some() || board.is_full() {
            return None;
        }
        let key = board.hash();
        let kept_budget = max_nodes.min(LARGEST_KEPT_BUDGET) as u32;
        if let Some(known) = self.answers.answer(key, kept_budget) {
            return known;
        }
        let mut attack = Attack {
            attacker: board.side(),
            board,
            solver: self,
            vcf,
            nodes_left: max_nodes,
            deadline,
            gave_up: false,
            timed_out: false,
        };
        let mut found = None;
        for threats in 1..=MAX_VCT_THREATS {
            found = attack.attack(threats);
            if found.is_some() || attack.gave_up {
                break;
            }
        }
        let found = found.map(|(cell, plies)| (cell as Move, plies));
        // A search stopped by the clock says nothing of its budget.
        let timed_out = attack.timed_out;
        match found {
            Some((first, plies)) => self.answers.record(key, Answer::Win { first, plies }),
            None if !timed_out => self.answers.record(key, Answer::NoneWithin(kept_budget)),
            None => {}
        }
        found
    }
}

/// One threat search: the board its threats are played on, whose attack it
/// is and what it may still spend.
struct Attack<'a> {
    board: &'a mut Board,
    solver: &'a mut VctSolver,
    vcf: &'a mut VcfSolver,
    attacker: usize,
    nodes_left: u64,
    deadline: &'a Deadline,
    /// Out of nodes or time: no failure found from here on is a proof.
    gave_up: bool,
    /// Out of time, which a later search with the same budget may not be.
    timed_out: bool,
}

impl Attack<'_> {
    /// Counts a node; false once the nodes or the time are spent.
    fn spend(&mut self) -> bool {
        if self.nodes_left == 0 {
            self.gave_up = true;
            return false;
        }
        self.nodes_left -= 1;
        self.solver.nodes += 1;
        if self.solver.nodes.is_multiple_of(DEADLINE_CHECK_INTERVAL) && self.deadline.passed() {
            self.gave_up = true;
            self.timed_out = true;
            return false;
        }
        true
    }

    /// The attacker to move: its winning move and the plies to the five.
    fn attack(&mut self, threats_left: u32) -> Option<(usize, i32)> {
        let attacker = self.attacker;
        let defender = attacker ^ 1;
        let board = &*self.board;
        if board.is_full() {
            return None;
        }
        if board.threat_count(attacker, T_FIVE) > 0 {
            return first_five(board, attacker).map(|cell| (cell, 1));
        }
        let defender_fives = board.threat_count(defender, T_FIVE);
        if defender_fives >= 2 {
            return None;
        }
        if defender_fives == 1 {
            // The block is forced; whatever the attacker threatened before
            // still stands after it.
            let block = first_five(board, defender)?;
            if board.is_forbidden_to(attacker, block) {
                return None;
            }
            self.board.play(block);
            let rest = self.defend(threats_left);
            self.board.unplay(block);
            return rest.map(|plies| (block, plies + 1));
        }
        if board.threat_count(attacker, T_OPEN_FOUR) > 0 {
            let open_four = first_open_four(board, attacker);
            if open_four.is_some() || !board.is_restricted(attacker) {
                return open_four.map(|cell| (cell, 3));
            }
        }
        if !self.spend() {
            return None;
        }
        if let Some((cell, plies)) = self.vcf.find(self.board, VCF_PROBE_BUDGET) {
            return Some((cell as usize, plies));
        }
        if threats_left == 0 {
            return None;
        }
        let hash = self.board.hash();
        if self.solver.failures.known(hash, threats_left) {
            return None;
        }
        for cell in self.threats_to_try() {
            let cell = cell as usize;
            self.board.play(cell);
            let result = self.defend(threats_left - 1);
            self.board.unplay(cell);
            if let Some(plies) = result {
                return Some((cell, plies + 1));
            }
            if self.gave_up {
                return None;
            }
        }
        self.solver.failures.record(hash, threats_left);
        None
    }

    /// The attacker's threats: stronger threats first, then the cells worth
    /// most to both sides.
    fn threats_to_try(&self) -> Vec<Move> {
        let board = &*self.board;
        let attacker = self.attacker;
        let defender = attacker ^ 1;
        let mut threats = Vec::new();
        near_cells(
            board,
            |cell| {
                board.threat(attacker, cell) >= T_OPEN_THREE
                    && !board.is_forbidden_to(attacker, cell)
            },
            &mut threats,
        );
        threats.sort_by_key(|&cell| {
            let cell = cell as usize;
            let worth = board.value(attacker, cell) as i32 + board.value(defender, cell) as i32;
            std::cmp::Reverse((board.threat(attacker, cell), worth))
        });
        threats
    }

    /// The defender to move after a threat: the plies until the attacker's
    /// five against the most stubborn defence, or `None` if some defence
    /// holds (or the move was no threat at all).
    fn defend(&mut self, threats_left: u32) -> Option<i32> {
        let attacker = self.attacker;
        let defender = attacker ^ 1;
        let board = &*self.board;
        if board.is_full() || board.threat_count(defender, T_FIVE) > 0 {
            return None;
        }
        let attacker_fives = board.threat_count(attacker, T_FIVE);
        if attacker_fives >= 2 {
            return Some(2);
        }
        let mut defences = Vec::new();
        if attacker_fives == 1 {
            let block = first_five(board, attacker)?;
            if board.is_forbidden_to(defender, block) {
                // Any move, the five.
                return Some(2);
            }
            defences.push(block as Move);
        } else {
            if !has_open_four(board, attacker) {
                return None;
            }
            if !self.spend() {
                return None;
            }
            // A defender that wins by fours never has to answer the threat.
            if self.vcf.find(self.board, VCF_PROBE_BUDGET).is_some() {
                return None;
            }
            // Its fours, and the moves that spoil every open four.
            if self.board.is_restricted(attacker) {
                replies_to_black(self.board, &mut defences);
            } else {
                defences_against_open_four(self.board, &mut defences);
            }
            if defences.is_empty() {
                // Any move, the open four, any move, the five.
                return Some(4);
            }
        }
        let mut longest = 0;
        for &defence in &defences {
            let defence = defence as usize;
            self.board.play(defence);
            let result = self.attack(threats_left);
            self.board.unplay(defence);
            longest = longest.max(result?.1 + 1);
        }
        Some(longest)
    }
}

/// White's replies to a Black open-four threat under Renju: its fours, and
/// every move after which Black has no open four it may play. A White stone
/// can make Black's threat cell forbidden from well away from the cell's
/// lines (by turning a three on the way to a real one), so every empty cell
/// is tried on the board rather than judged from the lines.
fn replies_to_black(board: &mut Board, replies: &mut Vec<Move>) {
    let white = board.side();
    let black = white ^ 1;
    replies.extend(board.four_cells(white).map(|cell| cell as Move));
    let size = board.size();
    for y in 0..size {
        for x in 0..size {
            let cell = cell_of(x, y);
            if !board.is_empty(cell) || replies.contains(&(cell as Move)) {
                continue;
            }
            board.play(cell);
            let stops = !has_open_four(board, black);
            board.unplay(cell);
            if stops {
                replies.push(cell as Move);
            }
        }
    }
}
