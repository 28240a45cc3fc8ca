use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::core::game::Game;
use crate::core::nnue::checks;
use crate::core::nnue::choice::network_for;
use crate::core::nnue::network::FloatNetwork;
use crate::core::nnue::Network;
use crate::games::gomoku::board::Rule;
use crate::games::gomoku::pattern::{combine, T_FOUR, T_OPEN_THREE};
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

/// The features from the board's kept combinations (shape sets and threat
/// pairs), against the same read
/// from each cell's four shapes, and the two views against each other
/// ("mine" for one is "theirs" for the other), along random games of every
/// rule and several sizes.
#[test]
fn the_kept_combinations_give_the_shape_sets_and_threat_pairs_and_the_views_mirror_each_other() {
    let mut rng = SmallRng::seed_from_u64(52);
    let mut cells_checked = 0;
    let mut pairs_checked = 0;
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
                    let mut threats = [0; 2];
                    for (side, threat) in threats.iter_mut().enumerate() {
                        let shapes = [0, 1, 2, 3].map(|d| board.shape(side, cell, d));
                        let set = shape_set_index(shapes);
                        *threat = combine(shapes);
                        cells_checked += 1;
                        if SHAPE_SETS[set][0] > ONE {
                            expected.push(ShapeSetFeatures::feature(set as u16, side == 0));
                        }
                    }
                    if threats[0].max(threats[1]) > T_QUIET {
                        let pair = threats[0] as usize * THREAT_COUNT + threats[1] as usize;
                        expected.push((THREAT_PAIR_FIRST + pair) as u16);
                        pairs_checked += 1;
                    }
                }
            }
            let mut black = features(&game, Player::P1);
            expected.sort_unstable();
            black.sort_unstable();
            assert_eq!(black, expected, "{size} {rule:?} after {plies} plies");
            let swapped = |f: u16| match usize::from(f).checked_sub(THREAT_PAIR_FIRST) {
                Some(pair) => {
                    let (mine, theirs) = (pair / THREAT_COUNT, pair % THREAT_COUNT);
                    (THREAT_PAIR_FIRST + theirs * THREAT_COUNT + mine) as u16
                }
                None => (f + SHAPE_SET_COUNT as u16) % (2 * SHAPE_SET_COUNT as u16),
            };
            let mut white: Vec<u16> = features(&game, Player::P2)
                .into_iter()
                .map(swapped)
                .collect();
            white.sort_unstable();
            assert_eq!(white, black);
        }
    }
    assert!(cells_checked > 10_000, "{cells_checked}");
    assert!(pairs_checked > 500, "{pairs_checked}");
}

/// A network of the shape sets alone (the features before the threat
/// pairs) still reads, as the engine's file or a training run's start,
/// and evaluates every position as it did: the pairs weigh nothing.
#[test]
fn a_network_of_the_shape_sets_alone_reads_with_the_threat_pairs_at_zero() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut float = FloatNetwork::zeros(THREAT_PAIR_FIRST, 8, 49.2);
    for weight in float.input_weights.iter_mut() {
        *weight = rng.gen_range(-0.2..0.2);
    }
    float.output_weights.iter_mut().for_each(|w| *w = 0.7);
    let old = Network::quantize(&float, "gomoku-shape-sets");
    let network = network_for::<Gomoku, ShapeSetFeatures>(&old.to_bytes()).expect("it reads");
    assert_eq!(network.inputs(), ShapeSetFeatures::INPUTS);
    assert_eq!(network.hash(), old.hash());
    assert_eq!(network.input_row(3), old.input_row(3));
    let pair = ShapeSetFeatures::threat_pair(T_OPEN_THREE, T_FOUR).expect("a pair");
    assert!(network.input_row(pair).iter().all(|&w| w == 0));
    let mut renamed = old.to_bytes();
    renamed[12] = b'x';
    assert!(network_for::<Gomoku, ShapeSetFeatures>(&renamed).is_err());
    float.input_weights.truncate(10 * 8);
    float.inputs = 10;
    let short = Network::quantize(&float, "gomoku-shape-sets");
    assert!(network_for::<Gomoku, ShapeSetFeatures>(&short.to_bytes()).is_err());
}
