use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::*;
use crate::core::game::Game;
use crate::core::nnue::checks;
use crate::games::gomoku::board::Rule;
use crate::games::gomoku::GomokuRules;

fn start() -> Gomoku {
    Gomoku::start_position(&GomokuRules::default())
}

fn features(game: &Gomoku, view: Player) -> Vec<u16> {
    let mut features = Vec::new();
    ShapeSetFeatures::active(game, view, &mut features);
    features
}

#[test]
fn float_and_quantized_outputs_agree_within_a_bound() {
    checks::float_and_quantized_agree::<Gomoku, ShapeSetFeatures>(&start(), 80);
}

/// Every rule (Renju's and `standard`'s shape tables differ by side) and
/// sizes whose lines the edges cut short.
#[test]
fn accumulators_kept_move_by_move_equal_fresh_ones_under_every_rule_and_size() {
    for (size, rule) in [
        (15, Rule::Freestyle),
        (15, Rule::Standard),
        (15, Rule::Renju),
        (7, Rule::Freestyle),
        (20, Rule::Renju),
    ] {
        let start = Gomoku::start_position(&GomokuRules { size, rule });
        checks::incremental_accumulators_equal_fresh_ones::<Gomoku, ShapeSetFeatures>(&start);
    }
}

#[test]
fn a_position_reached_behind_the_stacks_back_is_computed_afresh() {
    checks::positions_reached_otherwise_are_computed_afresh::<Gomoku, ShapeSetFeatures>(&start());
}

#[test]
fn the_side_to_move_does_not_change_the_placement_key() {
    let mut game = start();
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    game.make_move(moves[0]);
    let key = ShapeSetFeatures::placement_key(&game);
    assert!(game.make_null_move());
    assert_eq!(ShapeSetFeatures::placement_key(&game), key);
}

#[test]
fn an_empty_board_has_no_features_and_a_lone_stone_only_its_owners() {
    let mut game = start();
    assert!(features(&game, Player::P1).is_empty());
    game.make_move(cell_of(7, 7) as Move);
    let black = features(&game, Player::P1);
    let white = features(&game, Player::P2);
    assert!(!black.is_empty());
    assert!(black.iter().all(|&f| usize::from(f) < SHAPE_SET_COUNT));
    assert!(white.iter().all(|&f| usize::from(f) >= SHAPE_SET_COUNT));
}

/// The features from the board's kept combinations, against the same read
/// from each cell's four shapes, and the two views against each other
/// ("mine" for one is "theirs" for the other), along random games of every
/// rule and several sizes.
#[test]
fn the_kept_combinations_give_the_shapes_sets_and_the_views_mirror_each_other() {
    let mut rng = SmallRng::seed_from_u64(52);
    let mut cells_checked = 0;
    for (size, rule) in [
        (15, Rule::Freestyle),
        (15, Rule::Standard),
        (15, Rule::Renju),
        (9, Rule::Freestyle),
        (19, Rule::Standard),
    ] {
        let start = Gomoku::start_position(&GomokuRules { size, rule });
        for plies in (0..60).step_by(3) {
            let game = checks::random_position(&start, &mut rng, plies);
            let board = game.board();
            let mut expected = Vec::new();
            for y in 0..size {
                for x in 0..size {
                    let cell = cell_of(x, y);
                    if !board.is_empty(cell) {
                        continue;
                    }
                    for side in 0..2 {
                        let shapes = [0, 1, 2, 3].map(|d| board.shape(side, cell, d));
                        let set = shape_set_index(shapes);
                        cells_checked += 1;
                        if SHAPE_SETS[set][0] > ONE {
                            expected.push(ShapeSetFeatures::feature(set as u16, side == 0));
                        }
                    }
                }
            }
            let mut black = features(&game, Player::P1);
            expected.sort_unstable();
            black.sort_unstable();
            assert_eq!(black, expected, "{size} {rule:?} after {plies} plies");
            let swapped = |f: u16| (f + SHAPE_SET_COUNT as u16) % (2 * SHAPE_SET_COUNT as u16);
            let mut white: Vec<u16> = features(&game, Player::P2)
                .into_iter()
                .map(swapped)
                .collect();
            white.sort_unstable();
            assert_eq!(white, black);
        }
    }
    assert!(cells_checked > 10_000, "{cells_checked}");
}
