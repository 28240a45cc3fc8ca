//! What H-search settles in the search: proven results and the must-play
//! cells near the root, and everywhere in a proof search, with the proof's
//! inferior-cell pruning.

use super::HexKnowledge;
use crate::core::Game;
use crate::games::hex::board::{Hex, HexMove};
use crate::games::hex::proving::{self, NodeAnalysis};
use crate::games::hex::vc::{mustplay, Budget, Verdict};

/// Plies below the root where H-search (about a millisecond a player on
/// 11x11, some eighty nodes of search) proves results and narrows the
/// moves to the must-play cells. Measured by matches at 200 ms a move
/// (README, "Hex: virtual connections"): the root alone gains some 60 Elo;
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
        if let Some(known) = self.verdicts.get(&hex.hash_key()) {
            return Some(known.clone());
        }
        if self.verdicts.len() >= proving::VERDICT_CACHE_LIMIT {
            self.verdicts.clear();
        }
        let analysis = if self.inferior_in_proof && !hex.swap_is_legal() {
            proving::analyse_node(hex, &mut self.proof_stats)
        } else {
            (mustplay::verdict(hex, Budget::FULL), None)
        };
        self.proof_stats.verdicts += 1;
        self.verdicts.insert(hex.hash_key(), analysis.clone());
        Some(analysis)
    }

    fn nearby_verdict(&mut self, hex: &Hex) -> Option<Verdict> {
        self.nearby_analysis(hex).map(|(verdict, _)| verdict)
    }

    /// The result H-search proves at `hex`, if it is searched there.
    pub(super) fn verdict_result(&mut self, hex: &Hex) -> Option<i32> {
        match self.nearby_verdict(hex)? {
            Verdict::Win { plies, .. } => {
                self.proof_stats.vc_wins += 1;
                Some(plies as i32)
            }
            Verdict::Loss { plies } => {
                self.proof_stats.vc_losses += 1;
                Some(-(plies as i32))
            }
            _ => None,
        }
    }

    /// Leaves out of `moves` the cells outside the opponent's must-play
    /// set: each leaves one of its semi connections standing, and loses.
    /// In a proof search, then the inferior cells (`inferior`).
    pub(super) fn keep_must_play(&mut self, hex: &Hex, moves: &mut Vec<HexMove>) {
        let Some((verdict, pruning)) = self.nearby_analysis(hex) else {
            return;
        };
        if let Verdict::MustPlay(cells) = verdict {
            let saving = |mv: &HexMove| !mv.is_swap() && cells.contains(mv.0 as usize);
            let before = moves.len();
            // None of them saves the game: it is lost, and any move will do.
            if moves.iter().any(saving) {
                moves.retain(saving);
            }
            self.proof_stats
                .note_must_play(before as u64, moves.len() as u64);
        }
        if let Some(pruning) = pruning {
            let pruned = pruning.prune(moves);
            self.proof_stats.note_inferior(&pruned);
        }
    }
}
