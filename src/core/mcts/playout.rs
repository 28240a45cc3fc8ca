//! The simulations of Monte Carlo search: what a playout records for the
//! all-moves-as-first statistics (RAVE), and the plain random playout any
//! game gets before it writes a better one.

use rand::rngs::SmallRng;
use rand::Rng;

use crate::core::game::{Game, Outcome, Player};
use crate::core::knowledge::Knowledge;

/// A playout longer than this many plies is scored a draw: a game whose
/// random play may never end (repetitions) still returns.
pub const PLAYOUT_PLY_LIMIT: usize = 1_000;

/// Who played each move (by `Knowledge::move_index`) first in a
/// simulation, from a tree node on: RAVE credits a node's move with every
/// simulation in which its mover played it later.
#[derive(Clone, Debug, Default)]
pub struct PlayoutRecord {
    /// 0 nobody, 1 + `Player::index` otherwise.
    first_player: Vec<u8>,
    touched: Vec<u32>,
}

impl PlayoutRecord {
    /// An empty record for move indices below `bound`.
    pub fn new(bound: usize) -> Self {
        PlayoutRecord {
            first_player: vec![0; bound],
            touched: Vec::new(),
        }
    }

    pub fn clear(&mut self) {
        for &index in &self.touched {
            self.first_player[index as usize] = 0;
        }
        self.touched.clear();
    }

    /// `player` played the move `index` in the playout, unless someone
    /// played it earlier.
    pub fn note(&mut self, index: usize, player: Player) {
        if let Some(slot) = self.first_player.get_mut(index) {
            if *slot == 0 {
                *slot = 1 + player.index() as u8;
                self.touched.push(index as u32);
            }
        }
    }

    /// `player` played the move `index` before anything noted so far: the
    /// tree's moves, noted from the leaf back towards the root.
    pub(super) fn note_earlier(&mut self, index: usize, player: Player) {
        if let Some(slot) = self.first_player.get_mut(index) {
            if *slot == 0 {
                self.touched.push(index as u32);
            }
            *slot = 1 + player.index() as u8;
        }
    }

    /// True when `player` played the move `index` first.
    pub fn played_by(&self, index: usize, player: Player) -> bool {
        self.first_player.get(index).copied() == Some(1 + player.index() as u8)
    }
}

/// Plays random legal moves from `position` to the end of the game (or
/// `PLAYOUT_PLY_LIMIT`), noting each in `record`, and takes them back.
/// Returns the winner, `None` for a draw.
pub fn random_playout<G: Game, K: Knowledge<G>>(
    knowledge: &K,
    position: &mut G,
    rng: &mut SmallRng,
    record: &mut PlayoutRecord,
) -> Option<Player> {
    let mut played = Vec::new();
    let mut moves = Vec::new();
    while position.outcome().is_none() && played.len() < PLAYOUT_PLY_LIMIT {
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        record.note(knowledge.move_index(position, mv), position.side_to_move());
        position.make_move(mv);
        played.push(mv);
    }
    let winner = match position.outcome() {
        Some(Outcome::Win(player)) => Some(player),
        _ => None,
    };
    for &mv in played.iter().rev() {
        position.unmake_move(mv);
    }
    winner
}
