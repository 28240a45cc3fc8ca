//! Victory by continuous fours: the attacker plays only fours, the defender
//! only the one block each four leaves, until the attacker has an open four
//! or two fives. Every defender move is forced, so a line found is a proof.

use super::board::Board;
use super::pattern::{T_FIVE, T_FOUR, T_FOUR_THREE, T_OPEN_FOUR};
use super::threats::{first_five, first_with_threat, near_cells};
use super::{Gomoku, Move};

/// Fours in a row the attacker may play (the proof is at most twice that
/// long plus one).
const MAX_VCF_FOURS: u32 = 24;
const FAILURE_SLOTS: usize = 1 << 14;

/// Positions already proven to hold no VCF (within a number of fours), so
/// that transposed sequences of fours are not searched twice.
#[derive(Clone)]
pub struct VcfState {
    failures: Vec<(u64, u32)>,
    nodes: u64,
}

/// Counters of the VCF searches since the position was set up.
#[derive(Clone, Copy, Debug, Default)]
pub struct VcfStats {
    pub nodes: u64,
}

impl VcfState {
    pub fn new() -> VcfState {
        VcfState {
            failures: vec![(0, 0); FAILURE_SLOTS],
            nodes: 0,
        }
    }

    fn known_failure(&self, hash: u64, fours: u32) -> bool {
        let (stored, depth) = self.failures[hash as usize % FAILURE_SLOTS];
        stored == hash && depth >= fours
    }

    fn record_failure(&mut self, hash: u64, fours: u32) {
        self.failures[hash as usize % FAILURE_SLOTS] = (hash, fours);
    }
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

impl Gomoku {
    pub fn vcf_stats(&self) -> VcfStats {
        VcfStats {
            nodes: self.vcf.nodes,
        }
    }

    /// A VCF for the side to move: its first move and its length in plies.
    pub(super) fn vcf_search(&mut self, budget: u32) -> Option<(Move, i32)> {
        if self.board.winner().is_some() {
            return None;
        }
        let mut budget = budget;
        let attacker = self.board.side();
        self.vcf_node(attacker, MAX_VCF_FOURS, &mut budget)
            .map(|(cell, plies)| (cell as Move, plies))
    }

    fn vcf_node(
        &mut self,
        attacker: usize,
        fours_left: u32,
        budget: &mut u32,
    ) -> Option<(usize, i32)> {
        let board = &self.board;
        let defender = attacker ^ 1;
        if board.threat_count(attacker, T_FIVE) > 0 {
            return first_five(board, attacker).map(|cell| (cell, 1));
        }
        let defender_fives = board.threat_count(defender, T_FIVE);
        if defender_fives >= 2 {
            return None;
        }
        if defender_fives == 0 && board.threat_count(attacker, T_OPEN_FOUR) > 0 {
            return first_with_threat(board, attacker, T_OPEN_FOUR).map(|cell| (cell, 3));
        }
        if fours_left == 0 || *budget == 0 || board.count_at_least(attacker, T_FOUR) == 0 {
            return None;
        }
        let hash = board.hash();
        if self.vcf.known_failure(hash, fours_left) {
            return None;
        }
        *budget -= 1;
        self.vcf.nodes += 1;
        // A spent budget is never recorded as "no VCF", so giving up here
        // when the search must answer leaves the cache truthful.
        if self.vcf.nodes.is_multiple_of(DEADLINE_CHECK_INTERVAL) && self.deadline.passed() {
            *budget = 0;
            return None;
        }

        let mut candidates = Vec::new();
        if defender_fives == 1 {
            // Only a four that also blocks the defender's five keeps the
            // initiative.
            let block = first_five(board, defender)?;
            if board.threat(attacker, block) < T_FOUR {
                return None;
            }
            candidates.push(block as Move);
        } else {
            near_cells(
                board,
                |cell| board.threat(attacker, cell) >= T_FOUR,
                &mut candidates,
            );
            // Four-threes first: they most often finish the attack.
            candidates.sort_by_key(|&cell| board.threat(attacker, cell as usize) != T_FOUR_THREE);
        }

        for &four in &candidates {
            let four = four as usize;
            self.board.play(four);
            let result = match self.board.threat_count(attacker, T_FIVE) {
                0 => None,
                1 => match five_near(&self.board, attacker, four) {
                    Some(block) => {
                        self.board.play(block);
                        let rest = self.vcf_node(attacker, fours_left - 1, budget);
                        self.board.unplay(block);
                        rest.map(|(_, plies)| plies + 2)
                    }
                    None => None,
                },
                _ => Some(3),
            };
            self.board.unplay(four);
            if let Some(plies) = result {
                return Some((four, plies));
            }
            if *budget == 0 {
                return None;
            }
        }
        self.vcf.record_failure(hash, fours_left);
        None
    }
}
