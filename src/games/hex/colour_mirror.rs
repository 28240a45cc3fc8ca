//! Hex's colour mirror: reflect the board in its long diagonal (cell
//! `c4` becomes `d3`) and exchange the colours and the side to move. Each
//! colour's edges land on the other colour's, so the mirrored position is
//! the same game seen from the other chair.
//!
//! The pie rule is written two ways. Here, as in OpenSpiel, `swap` turns
//! Black's stone into a White one on its mirror cell and Black moves next.
//! In benzene's GTP (MoHex, Wolve, HexGui) `swap-pieces` leaves the stone
//! where it is and the players exchange colours, so White moves next. After
//! a swap the two boards are each other's colour mirror, and a GTP
//! front-end or client maps every later move and colour through it.

use super::board::{stone_of, Hex, HexMove, HexRules};
use crate::core::Player;

impl HexMove {
    /// This move on the colour-mirrored board (a swap stays a swap).
    pub fn colour_mirrored(self, size: usize) -> HexMove {
        if self.is_swap() {
            return self;
        }
        let cell = self.0 as usize;
        HexMove::cell((cell % size) * size + cell / size)
    }
}

impl Hex {
    /// The colour mirror of this position: stones placed in the same order
    /// on their mirror cells with the other colour, the other side to move,
    /// the same ply and board. The swap is never legal in it: after a swap
    /// it has been played, and before one it would be Black's to choose,
    /// which the rules cannot say.
    pub fn colour_mirrored(&self) -> Hex {
        let size = self.size();
        let rules = HexRules {
            board_size: size,
            swap: false,
        };
        let mut mirrored = Hex::empty(&rules);
        for cell in self.placement_order() {
            let owner = if self.stone_at(cell) == stone_of(Player::P1) {
                Player::P2
            } else {
                Player::P1
            };
            let target = HexMove::cell(cell).colour_mirrored(size).0 as usize;
            mirrored.place_stone(target, stone_of(owner));
        }
        mirrored.ply = self.ply;
        mirrored.set_side_to_move(self.side_to_move_player().other());
        mirrored
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::{Game, Outcome};

    fn hex(size: usize, swap: bool) -> Hex {
        Hex::start_position(&HexRules {
            board_size: size,
            swap,
        })
    }

    #[test]
    fn the_mirror_reflects_cells_in_the_long_diagonal() {
        let position = hex(5, false);
        let mv = position.parse_move("c4").expect("cell");
        assert_eq!(position.format_move(mv.colour_mirrored(5)), "d3");
        assert_eq!(
            position.format_move(mv.colour_mirrored(5).colour_mirrored(5)),
            "c4"
        );
        assert!(HexMove::SWAP.colour_mirrored(5).is_swap());
    }

    #[test]
    fn a_swapped_game_is_the_colour_mirror_of_benzenes_board() {
        // Ours after `b2 swap`: White on the mirror cell, Black to move.
        // benzene's after `b2 swap-pieces`: Black stays on b2, White to move.
        let mut ours = hex(4, true);
        for mv in ["b3", "swap"] {
            let mv = ours.parse_legal_move(mv).expect("legal");
            ours.make_move(mv);
        }
        assert_eq!(ours.to_fen(), "4/2o1/4/4 b");
        let benzene = ours.colour_mirrored();
        assert_eq!(benzene.to_fen(), "4/4/1x2/4 w");
        assert!(!benzene.swap_is_legal());
    }

    #[test]
    fn mirroring_keeps_the_winner_seen_from_the_other_chair() {
        let mut position = hex(3, false);
        // Black joins top to bottom down column a.
        for mv in ["a1", "b1", "a2", "b2", "a3"] {
            let mv = position.parse_legal_move(mv).expect("legal");
            position.make_move(mv);
        }
        assert_eq!(position.outcome(), Some(Outcome::Win(Player::P1)));
        let mirrored = position.colour_mirrored();
        assert_eq!(mirrored.outcome(), Some(Outcome::Win(Player::P2)));
        assert_eq!(mirrored.ply(), position.ply());
        assert_eq!(mirrored.colour_mirrored().to_fen(), position.to_fen());
    }
}
