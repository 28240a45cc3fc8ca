//! Breakthrough's network inputs: each piece on its square, seen from one
//! side ("mine" or "theirs", ranks counted from the viewer's home), on the
//! standard 8x8 board. 128 features a view; at most 32 active.

use super::board::{Geometry, Move};
use super::Breakthrough;
use crate::core::game::{Game, Player};
use crate::core::nnue::{FeatureChanges, FeatureSet};

#[derive(Clone, Copy, Debug, Default)]
pub struct PieceFeatures;

/// The square as `view` sees it: ranks counted from the viewer's home.
fn relative_square(view: Player, square: u8) -> u16 {
    match view {
        Player::P1 => u16::from(square),
        Player::P2 => u16::from(square ^ 56),
    }
}

fn feature(view: Player, owner: Player, square: u8) -> u16 {
    let theirs = if owner == view { 0 } else { 64 };
    theirs + relative_square(view, square)
}

impl FeatureSet<Breakthrough> for PieceFeatures {
    const NAME: &'static str = "breakthrough-pieces-8x8";
    const INPUTS: usize = 128;

    fn fits(position: &Breakthrough) -> bool {
        *position.board().geometry() == Geometry::STANDARD
    }

    fn active(position: &Breakthrough, view: Player, features: &mut Vec<u16>) {
        features.clear();
        for owner in [Player::P1, Player::P2] {
            let mut pieces = position.board().pieces[owner.index()];
            while pieces != 0 {
                let square = pieces.trailing_zeros() as u8;
                features.push(feature(view, owner, square));
                pieces &= pieces - 1;
            }
        }
    }

    fn changes(position: &Breakthrough, mv: Move, changes: &mut [FeatureChanges; 2]) -> bool {
        let mover = position.side_to_move();
        for (view, changes) in [Player::P1, Player::P2].into_iter().zip(changes) {
            changes.clear();
            changes.remove(feature(view, mover, mv.from));
            changes.add(feature(view, mover, mv.to));
            if mv.capture {
                changes.remove(feature(view, mover.other(), mv.to));
            }
        }
        true
    }

    /// Left and right swapped: the square's file mirrored.
    fn mirrored(feature: u16) -> Option<u16> {
        Some(feature ^ 7)
    }

    fn placement_key(position: &Breakthrough) -> u64 {
        let [white, black] = position.board().pieces;
        // Two odd multipliers and a rotation: distinct placements of the
        // few pieces on 64 squares practically never share a key.
        white.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ black.rotate_left(29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::nnue::checks;
    use crate::games::breakthrough::BreakthroughRules;

    fn start() -> Breakthrough {
        Breakthrough::start_position(&BreakthroughRules::default())
    }

    #[test]
    fn float_and_quantized_outputs_agree_within_a_bound() {
        checks::float_and_quantized_agree::<Breakthrough, PieceFeatures>(&start(), 60);
    }

    #[test]
    fn incremental_accumulators_equal_fresh_ones_after_any_line() {
        checks::incremental_accumulators_equal_fresh_ones::<Breakthrough, PieceFeatures>(&start());
    }

    #[test]
    fn a_position_reached_behind_the_stacks_back_is_computed_afresh() {
        checks::positions_reached_otherwise_are_computed_afresh::<Breakthrough, PieceFeatures>(
            &start(),
        );
    }

    #[test]
    fn the_mirror_image_of_a_feature_is_a_feature() {
        checks::mirror_is_an_involution::<Breakthrough, PieceFeatures>();
    }
}
