//! Victory by continuous threats: the attacker plays only threats (fours,
//! and threes after which it would make an open four), the defender every
//! reply that stops the threat, its own fours included (the attacker must
//! block those, and the threat it had stands). A line found holds against
//! every defence, so it is a proof. The search asks for one at its root
//! (`Game::solve_root`); deeper in the tree only the cheaper VCF runs.

use super::pattern::{T_FIVE, T_OPEN_FOUR, T_OPEN_THREE};
use super::threats::{first_five, first_with_threat, near_cells};
use super::{Gomoku, Move};
use crate::core::Deadline;

/// Threat moves the attacker may make in a row (fours that finish the win
/// by VCF are not counted).
const MAX_VCT_THREATS: u32 = 10;
/// Nodes each VCF probe inside the threat search may visit, for either side.
const VCF_PROBE_BUDGET: u32 = 200;
const FAILURE_SLOTS: usize = 1 << 16;
/// How often (in threat-search nodes) the deadline is looked at.
const DEADLINE_CHECK_INTERVAL: u64 = 32;

/// Attacker positions proven to hold no VCT within a number of threats,
/// kept across searches like the VCF's.
#[derive(Clone)]
pub struct VctState {
    failures: Vec<(u64, u32)>,
    nodes: u64,
}

impl VctState {
    pub fn new() -> VctState {
        VctState {
            failures: vec![(0, 0); FAILURE_SLOTS],
            nodes: 0,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn known_failure(&self, hash: u64, threats: u32) -> bool {
        let (stored, depth) = self.failures[hash as usize % FAILURE_SLOTS];
        stored == hash && depth >= threats
    }

    fn record_failure(&mut self, hash: u64, threats: u32) {
        self.failures[hash as usize % FAILURE_SLOTS] = (hash, threats);
    }
}

/// One threat search: whose attack it is and what it may still spend.
struct Attack {
    attacker: usize,
    nodes_left: u64,
    deadline: Deadline,
    /// Out of nodes or time: no failure found from here on is a proof.
    gave_up: bool,
}

impl Gomoku {
    /// A VCT for the side to move, found within `max_nodes` threat-search
    /// nodes and before `deadline`: its first move and its length in plies.
    /// Tries one threat, then two, and so on, so the win found is short.
    pub fn vct_search(&mut self, max_nodes: u64, deadline: &Deadline) -> Option<(Move, i32)> {
        if self.board.winner().is_some() || self.board.is_full() {
            return None;
        }
        let mut attack = Attack {
            attacker: self.board.side(),
            nodes_left: max_nodes,
            deadline: deadline.clone(),
            gave_up: false,
        };
        for threats in 1..=MAX_VCT_THREATS {
            if let Some((cell, plies)) = self.vct_attack(&mut attack, threats) {
                return Some((cell as Move, plies));
            }
            if attack.gave_up {
                break;
            }
        }
        None
    }

    /// Counts a node; false once the nodes or the time are spent.
    fn vct_spend(&mut self, attack: &mut Attack) -> bool {
        if attack.nodes_left == 0 {
            attack.gave_up = true;
            return false;
        }
        attack.nodes_left -= 1;
        self.vct.nodes += 1;
        if self.vct.nodes.is_multiple_of(DEADLINE_CHECK_INTERVAL) && attack.deadline.passed() {
            attack.gave_up = true;
            return false;
        }
        true
    }

    /// The attacker to move: its winning move and the plies to the five.
    fn vct_attack(&mut self, attack: &mut Attack, threats_left: u32) -> Option<(usize, i32)> {
        let attacker = attack.attacker;
        let defender = attacker ^ 1;
        let board = &self.board;
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
            self.board.play(block);
            let rest = self.vct_defend(attack, threats_left);
            self.board.unplay(block);
            return rest.map(|plies| (block, plies + 1));
        }
        if board.threat_count(attacker, T_OPEN_FOUR) > 0 {
            return first_with_threat(board, attacker, T_OPEN_FOUR).map(|cell| (cell, 3));
        }
        if !self.vct_spend(attack) {
            return None;
        }
        if let Some((cell, plies)) = self.vcf_search(VCF_PROBE_BUDGET) {
            return Some((cell as usize, plies));
        }
        if threats_left == 0 {
            return None;
        }
        let hash = self.board.hash();
        if self.vct.known_failure(hash, threats_left) {
            return None;
        }

        let board = &self.board;
        let mut threats = Vec::new();
        near_cells(
            board,
            |cell| board.threat(attacker, cell) >= T_OPEN_THREE,
            &mut threats,
        );
        // Stronger threats first, then the cells worth most to both sides.
        threats.sort_by_key(|&cell| {
            let cell = cell as usize;
            let worth = board.value(attacker, cell) as i32 + board.value(defender, cell) as i32;
            std::cmp::Reverse((board.threat(attacker, cell), worth))
        });
        for &cell in &threats {
            let cell = cell as usize;
            self.board.play(cell);
            let result = self.vct_defend(attack, threats_left - 1);
            self.board.unplay(cell);
            if let Some(plies) = result {
                return Some((cell, plies + 1));
            }
            if attack.gave_up {
                return None;
            }
        }
        self.vct.record_failure(hash, threats_left);
        None
    }

    /// The defender to move after a threat: the plies until the attacker's
    /// five against the most stubborn defence, or `None` if some defence
    /// holds (or the move was no threat at all).
    fn vct_defend(&mut self, attack: &mut Attack, threats_left: u32) -> Option<i32> {
        let attacker = attack.attacker;
        let defender = attacker ^ 1;
        let board = &self.board;
        if board.is_full() || board.threat_count(defender, T_FIVE) > 0 {
            return None;
        }
        let attacker_fives = board.threat_count(attacker, T_FIVE);
        if attacker_fives >= 2 {
            return Some(2);
        }
        let mut defences = Vec::new();
        if attacker_fives == 1 {
            defences.push(first_five(board, attacker)? as Move);
        } else {
            if board.threat_count(attacker, T_OPEN_FOUR) == 0 {
                return None;
            }
            if !self.vct_spend(attack) {
                return None;
            }
            // A defender that wins by fours never has to answer the threat.
            if self.vcf_search(VCF_PROBE_BUDGET).is_some() {
                return None;
            }
            // Its fours, and the moves that spoil every open four.
            self.defences_against_open_four(&mut defences);
            if defences.is_empty() {
                // Any move, the open four, any move, the five.
                return Some(4);
            }
        }
        let mut longest = 0;
        for &defence in &defences {
            let defence = defence as usize;
            self.board.play(defence);
            let result = self.vct_attack(attack, threats_left);
            self.board.unplay(defence);
            longest = longest.max(result?.1 + 1);
        }
        Some(longest)
    }
}
