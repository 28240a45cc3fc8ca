//! What H-search settles in the search: proven results and the must-play
//! cells near the root, and everywhere in a proof search, with the proof's
//! inferior-cell pruning.

use super::HexKnowledge;
use crate::core::Game;
use crate::games::hex::board::{Hex, HexMove};
use crate::games::hex::inferior::InferiorCells;
use crate::games::hex::proving::{self, NodeAnalysis};
use crate::games::hex::resistance::CloserLook;
use crate::games::hex::vc::{Budget, CellSet, Verdict};
use std::time::Instant;

/// Plies below the root where H-search (about a millisecond a player on
/// 11x11, some eighty nodes of search) proves results and narrows the
/// moves to the must-play cells. Measured by matches at 200 ms a move
/// (docs/results/hex.md, "Virtual connections"): the root alone gains some 60 Elo;
/// the root's children too spend most of the time on H-search and lose.
const VC_MAX_DISTANCE: u32 = 0;

impl HexKnowledge {
    /// The H-search verdict for `hex` if it is close enough to the root to
    /// afford one (`VC_MAX_DISTANCE`), or anywhere in a proof search, with
    /// the proof search's inferior-cell pruning.
    fn nearby_analysis(&mut self, hex: &Hex) -> Option<NodeAnalysis> {
        if !self.proof_mode && hex.ply().saturating_sub(self.root_ply) > VC_MAX_DISTANCE {
            return None;
        }
        Some(self.analysis(hex))
    }

    /// The H-search verdict for `hex`, with the proof search's
    /// inferior-cell pruning in a proof, computed unless known.
    fn analysis(&mut self, hex: &Hex) -> NodeAnalysis {
        if let Some(known) = self.verdicts.get(&hex.hash_key()) {
            return known.clone();
        }
        if self.verdicts.len() >= proving::VERDICT_CACHE_LIMIT {
            self.verdicts.clear();
        }
        let budget = self.analysis_budget();
        let analysis = if self.inferior_in_proof && !hex.swap_is_legal() {
            proving::analyse_node(hex, budget, &mut self.proof_stats)
        } else {
            NodeAnalysis::plain(hex, budget)
        };
        self.proof_stats.verdicts += 1;
        self.verdicts.insert(hex.hash_key(), analysis.clone());
        analysis
    }

    /// H-search's budget inside the running search: it ends with the
    /// search's hard limit. Outside a proof, where it only narrows the
    /// moves, it takes at most half of the time left, so that the search
    /// itself gets the rest: at 10 ms a move the root's two H-searches
    /// took 5 ms in the middle and up to 35 ms on a loaded machine, and
    /// the Monte Carlo search lost on time.
    pub(super) fn analysis_budget(&self) -> Budget {
        let until = match self.deadline.remaining() {
            Some(left) if !self.proof_mode => Some(Instant::now() + left / 2),
            _ => self.deadline.hard(),
        };
        Budget::FULL.until(until)
    }

    /// Monte Carlo search's closer look, as `CloserLook` chose.
    pub(super) fn closer_look_by_setting(
        &mut self,
        hex: &mut Hex,
        moves: &mut Vec<HexMove>,
    ) -> Option<i32> {
        match self.eval_settings.closer_look {
            CloserLook::Connections => self.vc_closer_look(hex, moves),
            CloserLook::Inferior => inferior_closer_look(hex, moves),
            CloserLook::Both => {
                inferior_closer_look(hex, moves).or_else(|| self.vc_closer_look(hex, moves))
            }
        }
    }

    /// Monte Carlo search's closer look: H-search's verdict wherever the
    /// tree asks, and the must-play cells. The connections are carried
    /// from the parent's look (`carried.rs`).
    pub(super) fn vc_closer_look(
        &mut self,
        hex: &mut Hex,
        moves: &mut Vec<HexMove>,
    ) -> Option<i32> {
        if hex.swap_is_legal() {
            return None;
        }
        match self.carried_judgement(hex).0 {
            Verdict::Win { plies, .. } => Some(plies as i32),
            Verdict::Loss { plies } => Some(-(plies as i32)),
            Verdict::MustPlay(cells) => {
                keep_saving_moves(&cells, moves);
                None
            }
            Verdict::Open => None,
        }
    }

    /// The result H-search proves at `hex`, if it is searched there.
    pub(super) fn verdict_result(&mut self, hex: &Hex) -> Option<i32> {
        let analysis = self.nearby_analysis(hex)?;
        let plies = match analysis.verdict {
            Verdict::Win { plies, .. } => {
                self.proof_stats.vc_wins += 1;
                plies as i32
            }
            Verdict::Loss { plies } => {
                self.proof_stats.vc_losses += 1;
                -(plies as i32)
            }
            _ => return None,
        };
        self.note_settled_cells(hex, analysis.cells);
        Some(plies)
    }

    /// Leaves out of `moves` the cells outside the opponent's must-play
    /// set: each leaves one of its semi connections standing, and loses.
    /// In a proof search, then the inferior cells (`inferior`).
    pub(super) fn keep_must_play(&mut self, hex: &Hex, moves: &mut Vec<HexMove>) {
        let Some(analysis) = self.nearby_analysis(hex) else {
            return;
        };
        let before = moves.len();
        if let Verdict::MustPlay(cells) = analysis.verdict {
            keep_saving_moves(&cells, moves);
            self.proof_stats
                .note_must_play(before as u64, moves.len() as u64);
        }
        let mut justification = analysis.cells;
        if let Some(pruning) = &analysis.pruning {
            let pruned = pruning.prune(moves, hex.geometry());
            self.proof_stats.note_inferior(&pruned);
            if pruned.filled + pruned.vulnerable + pruned.dominated > 0 {
                justification = justification
                    .union(&pruned.patterns)
                    .union(&pruning.fill_patterns);
            }
        }
        if moves.len() < before {
            self.note_narrowing(hex, justification);
        }
    }
}

/// The inferior cells' closer look: the result, when the dead and
/// captured cells filled in join a player's edges (its length bounded by
/// the empty cells, as in a proof), or else the mover's moves without its
/// filled, vulnerable and dominated cells. Those left out are never better
/// than a kept one, so the node's value stands.
fn inferior_closer_look(hex: &Hex, moves: &mut Vec<HexMove>) -> Option<i32> {
    if hex.swap_is_legal() {
        return None;
    }
    let mover = hex.side_to_move_player();
    let inferior = InferiorCells::analyse(hex, mover);
    let empty = hex.empty_cells().count() as i32;
    match inferior.filled_winner() {
        Some(winner) if winner == mover => Some((empty - 1 + empty % 2).max(1)),
        Some(_) => Some(-(empty - empty % 2).max(2)),
        None => {
            inferior.pruning().prune(moves, hex.geometry());
            None
        }
    }
}

/// Leaves in `moves` only the stones on the must-play `cells`; when none
/// of them is there, the game is lost and every move is kept.
fn keep_saving_moves(cells: &CellSet, moves: &mut Vec<HexMove>) {
    let saving = |mv: &HexMove| !mv.is_swap() && cells.contains(mv.0 as usize);
    if moves.iter().any(saving) {
        moves.retain(saving);
    }
}
