//! The proof sets Hex gives the proof search (`core::dfpn::ProofCells`):
//! the empty cells each settled result and each narrowing of the moves
//! rests on. Hex qualifies: no game is drawn, and a stone never hurts its
//! owner, so a winner who needs only some cells still wins when the loser
//! is given any of the others.
//!
//! - a win on the spot needs its cell; a double threat, both cells;
//! - a chain of virtual connections, its links' carriers;
//! - an H-search verdict, the carriers `mustplay::Judgement` names, and
//!   around each cell the inferior-cell fill-in took, the cells its rule
//!   reads (`inferior::pattern_cells`);
//! - a narrowing of the moves: the forced block, the threatened chain's
//!   carriers, the must-play's semi connections, and the patterns of the
//!   vulnerable and dominated cells left out. Dead cells' rules read
//!   stones only.

use super::HexKnowledge;
use crate::core::dfpn::ProofCells;
use crate::games::hex::board::Hex;
use crate::games::hex::vc::CellSet;

impl HexKnowledge {
    /// Keeps `cells` as the proof set of the result just settled at `hex`.
    pub(super) fn note_settled_cells(&mut self, hex: &Hex, cells: CellSet) {
        self.settled_cells = Some((hex.hash_key(), cells));
    }

    /// Adds `cells` to what justifies the moves `search_moves` leaves out
    /// at `hex`.
    pub(super) fn note_narrowing(&mut self, hex: &Hex, cells: CellSet) {
        let key = hex.hash_key();
        let so_far = match self.narrowing {
            Some((known, so_far)) if known == key => so_far,
            _ => CellSet::EMPTY,
        };
        self.narrowing = Some((key, so_far.union(&cells)));
    }

    /// `Knowledge::settled_cells`: a finished game needs no empty cell;
    /// otherwise the set noted when the result was settled.
    pub(super) fn settled_proof_cells(&self, hex: &Hex) -> Option<ProofCells> {
        if hex.winner().is_some() {
            return Some(ProofCells::EMPTY);
        }
        match self.settled_cells {
            Some((key, cells)) if key == hex.hash_key() => Some(proof_cells(&cells)),
            _ => None,
        }
    }

    /// `Knowledge::narrowing_cells`: nothing if `search_moves` left every
    /// live cell in.
    pub(super) fn narrowing_proof_cells(&self, hex: &Hex) -> Option<ProofCells> {
        match self.narrowing {
            Some((key, cells)) if key == hex.hash_key() => Some(proof_cells(&cells)),
            Some(_) => None,
            None => Some(ProofCells::EMPTY),
        }
    }
}

/// The move indices of `cells` (a cell's index is the cell).
fn proof_cells(cells: &CellSet) -> ProofCells {
    ProofCells::of(cells.iter())
}
