//! Vulnerable cells: where the mover's stone can be killed at once.
//!
//! A cell is vulnerable for a player when some empty neighbour, the killer,
//! would leave it dead under an opponent's stone. A stone there is then
//! answered by the killer, and the position is the one before with two
//! more opponent stones and the same player to move: never better for the
//! player. Followed move after move, that reply shows that whenever the
//! player wins, some winning move is not vulnerable; all vulnerable cells
//! may be left out together, as long as one move is kept.

use super::dead::{opposite, Stones};

/// The vulnerable empty cells for `colour`, each with its first killer.
pub fn vulnerable_cells(stones: &mut Stones, colour: u8) -> Vec<(usize, usize)> {
    let killer_colour = opposite(colour);
    let mut found = Vec::new();
    for cell in 0..stones.geo.cells() {
        if !stones.is_empty(cell) {
            continue;
        }
        let geo = stones.geo;
        let killer = geo.neighbours(cell).find(|&killer| {
            stones.is_empty(killer) && stones.is_dead_with(cell, killer, killer_colour)
        });
        if let Some(killer) = killer {
            found.push((cell, killer));
        }
    }
    found
}
