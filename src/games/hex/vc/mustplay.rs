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

use std::cell::RefCell;

use super::super::board::Hex;
use super::cellset::{Carrier, CellSet, SmallCellSet};
use super::hsearch::{Budget, Connections};
use crate::core::{Game, Player};

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

/// A verdict and the empty cells it rests on: the carrier of the win or of
/// the opponent's full connection, or every carrier of the opponent's semi
/// connections (a loss or a must-play set). The winner's proof holds,
/// and the moves outside a must-play set lose, whoever owns the other
/// cells.
pub type Judgement = (Verdict, CellSet);

const OPEN: Judgement = (Verdict::Open, CellSet::EMPTY);

/// The opponent's side of the verdict: a loss, a must-play set, or
/// nothing. Costs one H-search.
pub fn opponent_verdict(hex: &Hex, budget: Budget) -> Verdict {
    opponent_judgement_of(hex, budget).0
}

fn opponent_judgement_of(hex: &Hex, budget: Budget) -> Judgement {
    if !applies(hex) {
        return OPEN;
    }
    let opponent = hex.side_to_move().other();
    edge_verdict(hex, opponent, budget, Side::Opponent)
}

/// The side to move's own edge-to-edge connections: a win, or nothing.
/// Costs one H-search.
pub fn own_verdict(hex: &Hex, budget: Budget) -> Verdict {
    own_judgement_of(hex, budget).0
}

fn own_judgement_of(hex: &Hex, budget: Budget) -> Judgement {
    if !applies(hex) {
        return OPEN;
    }
    edge_verdict(hex, hex.side_to_move(), budget, Side::Own)
}

/// Whose connections a verdict reads: the side to move's or the
/// opponent's.
#[derive(Clone, Copy)]
enum Side {
    Own,
    Opponent,
}

thread_local! {
    /// The H-search's memory, kept from one verdict to the next of a
    /// thread (the proof search asks one per node); one-word carriers on
    /// boards up to 8x8.
    static SMALL_BOARD: RefCell<Connections<SmallCellSet>> = RefCell::default();
    static LARGE_BOARD: RefCell<Connections<CellSet>> = RefCell::default();
}

/// H-search for `player` and the verdict it gives `side`.
fn edge_verdict(hex: &Hex, player: Player, budget: Budget, side: Side) -> Judgement {
    if hex.geometry().cells() <= SmallCellSet::CAPACITY {
        SMALL_BOARD.with(|scratch| judge_with(scratch, hex, player, budget, side))
    } else {
        LARGE_BOARD.with(|scratch| judge_with(scratch, hex, player, budget, side))
    }
}

fn judge_with<C: Carrier>(
    scratch: &RefCell<Connections<C>>,
    hex: &Hex,
    player: Player,
    budget: Budget,
    side: Side,
) -> Judgement {
    let Ok(mut vc) = scratch.try_borrow_mut() else {
        // Only a verdict asked from within a verdict finds it in use.
        return judge(&Connections::<C>::search(hex, player, budget), side);
    };
    vc.search_again(hex, player, budget);
    judge(&vc, side)
}

fn judge<C: Carrier>(vc: &Connections<C>, side: Side) -> Judgement {
    match side {
        Side::Own => own_judgement(vc),
        Side::Opponent => opponent_judgement(vc),
    }
}

/// The opponent owns `theirs`: a loss, a must-play set, or nothing.
fn opponent_judgement<C: Carrier>(theirs: &Connections<C>) -> Judgement {
    if let Some(full) = smallest(theirs.edge_to_edge_full()) {
        let plies = 2 * full.len() as u32;
        return (Verdict::Loss { plies }, full.to_cell_set());
    }
    let semis = theirs.edge_to_edge_semi();
    let Some((first, others)) = semis.split_first() else {
        return OPEN;
    };
    let common = others
        .iter()
        .fold(*first, |common, carrier| common.intersection(carrier));
    let justification = carriers_that_narrow(semis, &common);
    if common.is_empty() {
        // Our move leaves one of them standing; the opponent plays its key
        // and then owns a full connection with a carrier one cell smaller.
        let widest = semis.iter().map(Carrier::len).max().unwrap_or(0);
        let plies = 2 * widest as u32;
        return (Verdict::Loss { plies }, justification);
    }
    (Verdict::MustPlay(common.to_cell_set()), justification)
}

/// The union of some of the semi connections' carriers whose intersection
/// is already `common`, the smallest first: the cells a must-play set (or
/// a loss, `common` empty) rests on. Fewer cells make a proof set that
/// prunes more (`core::dfpn::ProofCells`).
fn carriers_that_narrow<C: Carrier>(semis: &[C], common: &C) -> CellSet {
    let mut by_size: Vec<&C> = semis.iter().collect();
    by_size.sort_by_key(|carrier| carrier.len());
    let (mut left, mut union) = (None::<C>, CellSet::EMPTY);
    for carrier in by_size {
        if left.as_ref() == Some(common) {
            break;
        }
        let narrowed = left.map_or(*carrier, |left| left.intersection(carrier));
        if left != Some(narrowed) {
            left = Some(narrowed);
            union = union.union(&carrier.to_cell_set());
        }
    }
    union
}

/// The side to move owns `ours`: a win, or nothing.
fn own_judgement<C: Carrier>(ours: &Connections<C>) -> Judgement {
    let all = ours
        .edge_to_edge_full()
        .iter()
        .chain(ours.edge_to_edge_semi());
    match all.min_by_key(|carrier| carrier.len()) {
        Some(carrier) => {
            let carrier = carrier.to_cell_set();
            let plies = (2 * carrier.len() as u32).saturating_sub(1).max(1);
            (Verdict::Win { plies, carrier }, carrier)
        }
        None => OPEN,
    }
}

/// Both sides: a win of the side to move first, then the opponent's.
pub fn verdict(hex: &Hex, budget: Budget) -> Verdict {
    judgement(hex, budget).0
}

/// `verdict` with the cells it rests on.
pub fn judgement(hex: &Hex, budget: Budget) -> Judgement {
    match own_judgement_of(hex, budget) {
        (Verdict::Open, _) => opponent_judgement_of(hex, budget),
        win => win,
    }
}

/// `judgement` from connections already searched: `own` the side to
/// move's, `theirs` the opponent's.
pub fn judgement_from<C: Carrier>(
    hex: &Hex,
    own: &Connections<C>,
    theirs: &Connections<C>,
) -> Judgement {
    if !applies(hex) {
        return OPEN;
    }
    match own_judgement(own) {
        (Verdict::Open, _) => opponent_judgement(theirs),
        win => win,
    }
}

/// Not at a finished game, nor where `swap` is legal (it exchanges the
/// colours, which H-search does not model).
fn applies(hex: &Hex) -> bool {
    hex.winner().is_none() && !hex.swap_is_legal()
}

fn smallest<C: Carrier>(carriers: &[C]) -> Option<&C> {
    carriers.iter().min_by_key(|carrier| carrier.len())
}
