//! Inferior-cell fill-in inside a playout (`inferior/` holds the rules).
//! A dead cell's colour never decides the game, and a captured pair is
//! its captor's whoever intrudes first; a random playout, though, lets the
//! opponent break a captured pair whenever the captor fails to answer.
//! Filled in as soon as they appear, they stop costing the captor the
//! game: the edge templates and tight shapes the bridge reply cannot see.
//!
//! The playout keeps each cell's ring as one base-3 number, updated with
//! each stone, so each rule is a table lookup: only the cells around a
//! new stone can change, and those are the only ones looked at again.

use once_cell::sync::Lazy;

use super::super::board::{Hex, BLACK, EMPTY, WHITE};
use super::super::geometry::{Geometry, BLACK_GOAL, NO_CELL};
use super::super::inferior::dead::ring_is_dead;
use super::{PlayoutBoard, PlayoutStyle};
use crate::core::mcts::PlayoutRecord;
use crate::core::Player;

/// The weight of each ring slot's colour (`EMPTY`, `BLACK`, `WHITE`) in a
/// ring code.
const SLOT_WEIGHTS: [usize; 6] = [1, 3, 9, 27, 81, 243];
const RING_CODES: usize = 729;
/// A cell with more empty neighbours than this is neither dead nor, with
/// one more stone in its ring, part of a captured pair (the rules need
/// every two usable neighbours joined, which leaves room for two).
const MOST_EMPTY_IN_A_CAPTURE: u8 = 3;

/// Per ring code: whether the cell is dead, and how many ring slots are
/// empty.
struct RingTable {
    dead: Vec<bool>,
    empty: Vec<u8>,
}

static RINGS: Lazy<RingTable> = Lazy::new(|| {
    let rings = (0..RING_CODES)
        .map(|code| std::array::from_fn::<u8, 6, _>(|slot| (code / SLOT_WEIGHTS[slot] % 3) as u8));
    let rings: Vec<[u8; 6]> = rings.collect();
    RingTable {
        dead: rings.iter().map(ring_is_dead).collect(),
        empty: rings
            .iter()
            .map(|ring| ring.iter().filter(|&&c| c == EMPTY).count() as u8)
            .collect(),
    }
});

/// How many of a ring code's slots are Black's and White's.
fn colour_counts(code: usize) -> (usize, usize) {
    let mut counts = (0, 0);
    for weight in SLOT_WEIGHTS {
        match (code / weight % 3) as u8 {
            BLACK => counts.0 += 1,
            WHITE => counts.1 += 1,
            _ => {}
        }
    }
    counts
}

fn player_of(colour: u8) -> Player {
    if colour == BLACK {
        Player::P1
    } else {
        Player::P2
    }
}

impl PlayoutBoard {
    /// Every cell's ring code: an off-board slot counts as a stone of the
    /// edge's owner.
    pub(super) fn load_ring_codes(&mut self, geo: &Geometry) {
        self.codes.clear();
        for cell in 0..geo.cells() {
            let (ring, edge) = (&geo.ring[cell], &geo.ring_edge[cell]);
            let mut code = 0;
            for (slot, weight) in SLOT_WEIGHTS.iter().enumerate() {
                let colour = match ring[slot] {
                    NO_CELL if edge[slot] & BLACK_GOAL != 0 => BLACK,
                    NO_CELL => WHITE,
                    n => self.cells[n as usize],
                };
                code += colour as usize * weight;
            }
            self.codes.push(code as u16);
        }
    }

    /// A stone of `colour` on `cell` stands in each neighbour's ring at
    /// the slot facing back.
    pub(super) fn note_in_ring_codes(&mut self, geo: &Geometry, cell: usize, colour: u8) {
        for (slot, &n) in geo.ring[cell].iter().enumerate() {
            if n != NO_CELL {
                self.codes[n as usize] += (colour as usize * SLOT_WEIGHTS[(slot + 3) % 6]) as u16;
            }
        }
    }

    /// The empty cells of `hex` that fill-in leaves empty, into `live`:
    /// the only moves a search needs, since the filled position has the
    /// same value and a stone on a filled cell is never better than one
    /// elsewhere.
    pub fn cells_left_by_fill_in(&mut self, hex: &Hex, live: &mut Vec<usize>) {
        let style = PlayoutStyle {
            policy: None,
            fill_in: true,
        };
        // A record without moves: fill-in here notes nothing.
        self.start(hex, &mut PlayoutRecord::new(0), style);
        live.clear();
        live.extend(self.empty.iter().map(|&cell| cell as usize));
        live.sort_unstable();
    }

    /// Fills every dead cell and captured pair of the loaded position.
    /// The ring codes must be loaded.
    pub(super) fn fill_everywhere(&mut self, geo: &Geometry, record: &mut PlayoutRecord) {
        self.pending.clear();
        for cell in 0..geo.cells() {
            if self.cells[cell] == EMPTY {
                self.fill_if_inferior(geo, cell, record);
            }
        }
        self.fill_pending(geo, record);
    }

    /// Fills the dead cells and captured pairs the stone on `cell` made,
    /// and those the fills make in turn.
    pub(super) fn fill_around(&mut self, geo: &Geometry, cell: usize, record: &mut PlayoutRecord) {
        self.pending.clear();
        self.pending.push(cell as u16);
        self.fill_pending(geo, record);
    }

    fn fill_pending(&mut self, geo: &Geometry, record: &mut PlayoutRecord) {
        while let Some(filled) = self.pending.pop() {
            for n in geo.ring[filled as usize] {
                if n != NO_CELL && self.cells[n as usize] == EMPTY {
                    self.fill_if_inferior(geo, n as usize, record);
                }
            }
        }
    }

    /// Fills the empty `cell` if it is dead (with the colour most of its
    /// ring holds) or captured with a neighbour, and queues what it filled.
    fn fill_if_inferior(&mut self, geo: &Geometry, cell: usize, record: &mut PlayoutRecord) {
        let rings = &*RINGS;
        let code = self.codes[cell] as usize;
        if rings.dead[code] {
            let (black, white) = colour_counts(code);
            let colour = if white > black { WHITE } else { BLACK };
            self.fill(geo, cell, colour, record);
            return;
        }
        if rings.empty[code] > MOST_EMPTY_IN_A_CAPTURE {
            return;
        }
        for (slot, &partner) in geo.ring[cell].iter().enumerate() {
            if partner == NO_CELL || self.cells[partner as usize] != EMPTY {
                continue;
            }
            let partner = partner as usize;
            let partner_code = self.codes[partner] as usize;
            if rings.empty[partner_code] > MOST_EMPTY_IN_A_CAPTURE {
                continue;
            }
            // The partner sits in `cell`'s ring at `slot`, and `cell` in
            // the partner's at the opposite slot.
            let back = (slot + 3) % 6;
            for colour in [BLACK, WHITE] {
                let weight = colour as usize;
                if rings.dead[code + weight * SLOT_WEIGHTS[slot]]
                    && rings.dead[partner_code + weight * SLOT_WEIGHTS[back]]
                {
                    self.fill(geo, cell, colour, record);
                    self.fill(geo, partner, colour, record);
                    return;
                }
            }
        }
    }

    fn fill(&mut self, geo: &Geometry, cell: usize, colour: u8, record: &mut PlayoutRecord) {
        self.place(geo, cell, colour);
        record.note(cell, player_of(colour));
        self.pending.push(cell as u16);
    }
}

#[cfg(test)]
mod tests;
