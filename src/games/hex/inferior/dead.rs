//! The local dead-cell rule over a cell's ring of six neighbours, and the
//! scratch board the inferior-cell rules try stones on.
//!
//! A stone on a cell matters only if some minimal winning chain of its
//! owner runs through the cell, entering and leaving by two neighbours that
//! are not already joined. Two ring neighbours that touch each other are
//! joined; so are two joined by an arc of the ring holding only the
//! player's stones (or edge). When every pair of neighbours a player could
//! use is joined so, the cell is useless to that player; useless to both,
//! it is dead: its colour never decides the game. The rule is symmetric
//! under the ring's rotations and reflections, so it needs no pattern
//! table. It finds every dead cell of the four-in-a-row kind and more
//! (three of one colour facing two adjacent of the other).

use super::super::board::{Hex, BLACK, EMPTY, WHITE};
use super::super::geometry::{Geometry, BLACK_GOAL, NO_CELL};

/// The other colour of a stone colour.
pub fn opposite(colour: u8) -> u8 {
    if colour == BLACK {
        WHITE
    } else {
        BLACK
    }
}

/// A board's colours, which the rules change to try a stone and change
/// back; cheaper than a `Hex`, which also tracks groups and keys.
#[derive(Clone, Debug)]
pub struct Stones {
    pub geo: &'static Geometry,
    pub colours: Vec<u8>,
}

impl Stones {
    pub fn of(hex: &Hex) -> Stones {
        let geo = hex.geometry();
        Stones {
            geo,
            colours: (0..geo.cells()).map(|cell| hex.stone_at(cell)).collect(),
        }
    }

    pub fn is_empty(&self, cell: usize) -> bool {
        self.colours[cell] == EMPTY
    }

    /// The on-board, empty neighbours of `cell`.
    pub fn empty_neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.geo
            .neighbours(cell)
            .filter(move |&n| self.colours[n] == EMPTY)
    }

    /// The colours around `cell` in ring order, an off-board slot counting
    /// as a stone of the edge's owner.
    pub fn ring(&self, cell: usize) -> [u8; 6] {
        std::array::from_fn(|slot| {
            let n = self.geo.ring[cell][slot];
            if n != NO_CELL {
                self.colours[n as usize]
            } else if self.geo.ring_edge[cell][slot] & BLACK_GOAL != 0 {
                BLACK
            } else {
                WHITE
            }
        })
    }

    /// Whether the empty `cell` is dead by the ring rule (module comment).
    pub fn is_dead(&self, cell: usize) -> bool {
        if self.geo.size < 2 {
            return false;
        }
        let ring = self.ring(cell);
        ring_is_dead(&ring)
    }

    /// Whether `cell` is dead once a stone of `colour` stands on `trial`
    /// (left empty again afterwards).
    pub fn is_dead_with(&mut self, cell: usize, trial: usize, colour: u8) -> bool {
        self.colours[trial] = colour;
        let dead = self.is_dead(cell);
        self.colours[trial] = EMPTY;
        dead
    }
}

/// Whether a cell with these ring colours is useless to both players.
pub fn ring_is_dead(ring: &[u8; 6]) -> bool {
    useless_to(ring, BLACK) && useless_to(ring, WHITE)
}

/// Whether every two neighbours `colour` could use (not the opponent's)
/// touch, or are joined by an arc of `colour` alone.
fn useless_to(ring: &[u8; 6], colour: u8) -> bool {
    let opponent = opposite(colour);
    let only_own = |from: usize, to: usize| (from + 1..to).all(|k| ring[k % 6] == colour);
    for first in 0..6 {
        for second in first + 2..first + 5 {
            let second = second % 6;
            if first > second || ring[first] == opponent || ring[second] == opponent {
                continue;
            }
            if !only_own(first, second) && !only_own(second, first + 6) {
                return false;
            }
        }
    }
    true
}
