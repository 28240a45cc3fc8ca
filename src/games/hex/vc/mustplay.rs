//! What H-search proves about the side to move (Anshelevich's must-play).
//!
//! A full edge-to-edge connection wins whoever moves; a semi one wins for
//! its owner on the move. So if the opponent has semi connections between
//! its edges, any stone of ours outside one of their carriers leaves that
//! one standing and loses: only the cells common to all carriers can
//! save the game, and if there are none, every move loses.
//!
//! Proof lengths are upper bounds: the owner of a full connection fills
//! one carrier cell per move at most, so it wins within 2|C| - 1 plies on
//! the move and 2|C| plies otherwise.

use super::super::board::Hex;
use super::cellset::CellSet;
use super::hsearch::{Budget, Connections};
use crate::core::Game;

/// The verdict for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins within `plies`, playing in `carrier` (the
    /// smallest of its full or semi edge-to-edge connections).
    Win { plies: u32, carrier: CellSet },
    /// The side to move loses within `plies` whatever it plays.
    Loss { plies: u32 },
    /// Only a stone on these cells can stop the opponent's semi
    /// connections; every other move loses.
    MustPlay(CellSet),
    /// H-search proves nothing here.
    Open,
}

/// The opponent's side of the verdict: a loss, a must-play set, or
/// nothing. Costs one H-search.
pub fn opponent_verdict(hex: &Hex, budget: Budget) -> Verdict {
    if !applies(hex) {
        return Verdict::Open;
    }
    let opponent = hex.side_to_move().other();
    let theirs = Connections::compute(hex, opponent, budget);
    if let Some(full) = smallest(theirs.edge_to_edge_full()) {
        return Verdict::Loss {
            plies: 2 * full.len() as u32,
        };
    }
    let semis = theirs.edge_to_edge_semi();
    if semis.is_empty() {
        return Verdict::Open;
    }
    let common = semis
        .iter()
        .skip(1)
        .fold(semis[0], |common, carrier| common.intersection(carrier));
    if common.is_empty() {
        // Our move leaves one of them standing; the opponent plays its key
        // and then owns a full connection with a carrier one cell smaller.
        let widest = semis.iter().map(CellSet::len).max().unwrap_or(0);
        return Verdict::Loss {
            plies: 2 * widest as u32,
        };
    }
    Verdict::MustPlay(common)
}

/// The side to move's own edge-to-edge connections: a win, or nothing.
/// Costs one H-search.
pub fn own_verdict(hex: &Hex, budget: Budget) -> Verdict {
    if !applies(hex) {
        return Verdict::Open;
    }
    let ours = Connections::compute(hex, hex.side_to_move(), budget);
    let all = ours
        .edge_to_edge_full()
        .iter()
        .chain(ours.edge_to_edge_semi());
    match all.min_by_key(|carrier| carrier.len()) {
        Some(&carrier) => Verdict::Win {
            plies: (2 * carrier.len() as u32).saturating_sub(1).max(1),
            carrier,
        },
        None => Verdict::Open,
    }
}

/// Both sides: a win of the side to move first, then the opponent's.
pub fn verdict(hex: &Hex, budget: Budget) -> Verdict {
    match own_verdict(hex, budget) {
        Verdict::Open => opponent_verdict(hex, budget),
        win => win,
    }
}

/// Not at a finished game, nor where `swap` is legal (it exchanges the
/// colours, which H-search does not model).
fn applies(hex: &Hex) -> bool {
    hex.winner().is_none() && !hex.swap_is_legal()
}

fn smallest(carriers: &[CellSet]) -> Option<&CellSet> {
    carriers.iter().min_by_key(|carrier| carrier.len())
}
