//! Captured cells and fill-in.
//!
//! Two adjacent empty cells are captured by a player when the player's
//! stone on either one kills the other (leaves it dead). Whichever of the
//! two the opponent takes, the player answers in the other, and the
//! opponent's stone is then dead, as good as the player's own: the player
//! may treat both as filled with their stones, whoever moves. Dead cells
//! may be filled with either colour. Stones only ever add to a dead ring,
//! so each fill stays valid as the game goes on; filling to a fixed point
//! yields a position of the same value.

use super::super::board::{BLACK, EMPTY, WHITE};
use super::dead::Stones;

/// Whether `colour` captures the empty adjacent cells `a` and `b`.
pub fn captures_pair(stones: &mut Stones, colour: u8, a: usize, b: usize) -> bool {
    stones.is_dead_with(a, b, colour) && stones.is_dead_with(b, a, colour)
}

/// A cell captured together with `cell` by `colour`: an empty neighbour.
pub fn capturing_partner(stones: &mut Stones, colour: u8, cell: usize) -> Option<usize> {
    let geo = stones.geo;
    geo.neighbours(cell)
        .find(|&n| stones.is_empty(n) && captures_pair(stones, colour, cell, n))
}

/// What fill-in did: the cells it filled, each kind in the order filled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FillIn {
    /// Cells dead when filled, and the colour they were given.
    pub dead: Vec<(usize, u8)>,
    /// Cells captured by Black (index 0) and by White (index 1).
    pub captured: [Vec<usize>; 2],
}

impl FillIn {
    /// Every filled cell with its colour, in the order filled by kind.
    pub fn stones(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        let black = self.captured[0].iter().map(|&c| (c, BLACK));
        let white = self.captured[1].iter().map(|&c| (c, WHITE));
        self.dead.iter().copied().chain(black).chain(white)
    }

    pub fn len(&self) -> usize {
        self.dead.len() + self.captured[0].len() + self.captured[1].len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The colour a dead cell is filled with: the one most of its ring holds,
/// so that the filled stone joins the larger wall (either is sound).
fn dead_fill_colour(stones: &Stones, cell: usize) -> u8 {
    let ring = stones.ring(cell);
    let count = |colour: u8| ring.iter().filter(|&&c| c == colour).count();
    if count(WHITE) > count(BLACK) {
        WHITE
    } else {
        BLACK
    }
}

/// Fills dead cells and captured pairs on `stones` until none is left.
pub fn fill_in(stones: &mut Stones) -> FillIn {
    let mut fill = FillIn::default();
    let cells = stones.geo.cells();
    loop {
        let before = fill.len();
        for cell in 0..cells {
            if stones.is_empty(cell) && stones.is_dead(cell) {
                let colour = dead_fill_colour(stones, cell);
                stones.colours[cell] = colour;
                fill.dead.push((cell, colour));
            }
        }
        for cell in 0..cells {
            if !stones.is_empty(cell) {
                continue;
            }
            for (index, colour) in [BLACK, WHITE].into_iter().enumerate() {
                if let Some(partner) = capturing_partner(stones, colour, cell) {
                    stones.colours[cell] = colour;
                    stones.colours[partner] = colour;
                    fill.captured[index].extend([cell, partner]);
                    break;
                }
            }
        }
        if fill.len() == before {
            return fill;
        }
    }
}

/// Whether `colour`'s stone on `trial` would leave `cell` dead or
/// captured by `colour` (with another empty neighbour): afterwards the
/// cell is as good as `colour`'s, so `trial` is worth at least as much to
/// `colour` as `cell` itself.
pub fn trial_takes(stones: &mut Stones, colour: u8, trial: usize, cell: usize) -> bool {
    stones.colours[trial] = colour;
    let takes = stones.is_dead(cell) || capturing_partner(stones, colour, cell).is_some();
    stones.colours[trial] = EMPTY;
    takes
}
