//! Dominated cells: a move no better than another for the same player.
//!
//! When a player's stone on one cell (the dominator) would leave another
//! cell dead or captured by that player, the dominator's position holds
//! the other cell as good as filled with the player's stone besides the
//! dominator's own: by monotonicity (a stone never hurts its owner) it is
//! at least as good as the stone on the dominated cell alone. Only the
//! dead ring and the captured pair decide, so the dominator lies within
//! two steps of the dominated cell.

use super::captured::trial_takes;
use super::dead::Stones;

/// The dominated empty cells for `colour`, each with every dominator.
pub fn dominated_cells(stones: &mut Stones, colour: u8) -> Vec<(usize, usize)> {
    let geo = stones.geo;
    let mut found = Vec::new();
    let mut near = Vec::with_capacity(18);
    for cell in 0..geo.cells() {
        if !stones.is_empty(cell) {
            continue;
        }
        near.clear();
        for first in geo.neighbours(cell) {
            for candidate in std::iter::once(first).chain(geo.neighbours(first)) {
                if candidate != cell && stones.is_empty(candidate) && !near.contains(&candidate) {
                    near.push(candidate);
                }
            }
        }
        for &dominator in &near {
            if trial_takes(stones, colour, dominator, cell) {
                found.push((cell, dominator));
            }
        }
    }
    found
}
