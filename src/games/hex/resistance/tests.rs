//! Resistances worked by hand on the smallest boards, and the properties
//! any circuit of the board must have.

use super::*;
use crate::core::Game;
use crate::games::hex::board::{HexRules, EMPTY};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn empty_board(size: usize) -> Hex {
    Hex::start_position(&HexRules {
        board_size: size,
        swap: false,
    })
}

/// `size` x `size` with `stones` as (column, row, stone).
fn board_with(size: usize, stones: &[(usize, usize, u8)]) -> Hex {
    let mut hex = empty_board(size);
    for &(col, row, stone) in stones {
        let cell = hex.geometry().cell(col, row);
        hex.place_stone(cell, stone);
    }
    hex
}

/// Solved to a tolerance far below the tests' own.
fn exact() -> Resistance {
    Resistance::with_tolerance(1e-9)
}

fn resistances(hex: &Hex, bridge: Score) -> [f64; 2] {
    let mut resistance = exact();
    resistance.compute(hex, bridge);
    resistance.resistance
}

/// Equal up to the solver's tolerance (exactly, for a cut or a short).
fn assert_close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() <= 1e-6 * expected,
        "resistance {actual}, expected {expected}"
    );
}

#[test]
fn the_single_cell_is_two_unit_resistors_in_series() {
    // Source -1- cell -1- sink, for either player.
    let [black, white] = resistances(&empty_board(1), 0);
    assert_close(black, 2.0);
    assert_close(white, 2.0);
}

#[test]
fn the_empty_two_by_two_board_is_twelve_sevenths() {
    // Black: a1 and b1 take conductance 1 from the source, a2 and b2 give
    // it to the sink, the five inner pairs (a1-b1, a1-a2, b1-a2, b1-b2,
    // a2-b2) conduct 1/2. The half turn swaps source and sink, so
    // V(b2) = 1 - V(a1) and V(a2) = 1 - V(b1); Kirchhoff at a1 and b1 gives
    // V(a1) = 3/4 and V(b1) = 2/3, a current of 1/4 + 1/3 = 7/12. White's
    // circuit is Black's reflected.
    let [black, white] = resistances(&empty_board(2), 0);
    assert_close(black, 12.0 / 7.0);
    assert_close(white, 12.0 / 7.0);
}

#[test]
fn a_black_stone_in_the_corner_of_two_by_two_is_worked_out_exactly() {
    let hex = board_with(2, &[(0, 0, BLACK)]);
    let [black, white] = resistances(&hex, 0);
    // Black: a1 is part of the source, so b1 takes 1 from the top edge and
    // 1 from a1, a2 takes 1 from a1; with the inner halves and the sink,
    // Kirchhoff gives V(b1) = 17/21, V(a2) = 11/21, V(b2) = 1/3 and the
    // current V(a2) + V(b2) = 6/7 into the sink.
    assert_close(black, 7.0 / 6.0);
    // White loses a1: the source feeds a2 alone (conductance 1), and b1,
    // b2 (each 1 to the sink) share by symmetry V = V(a2) / 3, so
    // V(a2) = 3/5 and the current is 2/5.
    assert_close(white, 5.0 / 2.0);
}

#[test]
fn a_wall_cuts_the_circuit_and_a_joined_group_shorts_it() {
    // White fills row 2 of 3x3: Black has no path, White has won.
    let wall = board_with(3, &[(0, 1, WHITE), (1, 1, WHITE), (2, 1, WHITE)]);
    let [black, white] = resistances(&wall, 0);
    assert_close(black, OPEN_CIRCUIT);
    assert_close(white, 0.0);
}

#[test]
fn a_bridge_conductor_lowers_the_resistance_of_its_owner_only() {
    // On 3x3, Black's b1 (top) and a3 (bottom) form a bridge carried by a2
    // and b2.
    let hex = board_with(3, &[(1, 0, BLACK), (0, 2, BLACK)]);
    let without = resistances(&hex, 0);
    let with = resistances(&hex, 300);
    assert!(with[0] < without[0], "{with:?} vs {without:?}");
    assert_close(with[1], without[1]);
}

/// A random position of `size` with `stones` stones, colours alternating.
fn random_position(size: usize, stones: usize, rng: &mut SmallRng) -> Hex {
    let mut hex = empty_board(size);
    let mut placed = 0;
    while placed < stones {
        let cell = rng.gen_range(0..size * size);
        if hex.stone_at(cell) == EMPTY {
            hex.place_stone(cell, if placed % 2 == 0 { BLACK } else { WHITE });
            placed += 1;
        }
    }
    hex
}

#[test]
fn an_own_stone_never_raises_and_an_opponent_stone_never_lowers_resistance() {
    let mut rng = SmallRng::seed_from_u64(22);
    for round in 0..40 {
        let size = 3 + round % 5;
        let hex = random_position(size, rng.gen_range(0..size * size / 2), &mut rng);
        for bridge in [0, 300] {
            let before = resistances(&hex, bridge);
            for cell in hex.empty_cells().collect::<Vec<_>>() {
                for (slot, stone) in [BLACK, WHITE].into_iter().enumerate() {
                    let mut after = hex.clone();
                    after.place_stone(cell, stone);
                    let now = resistances(&after, bridge);
                    let slack = 1e-6 * before[slot];
                    // Rayleigh's monotonicity: an own stone only raises
                    // conductances of the cell circuit, an opponent's only
                    // removes conductors. With virtual connections an own
                    // stone in an edge template's carrier may replace the
                    // template by weaker links, so only the opponent's
                    // stones are checked there.
                    if bridge == 0 {
                        assert!(now[slot] <= before[slot] + slack, "own {now:?} {before:?}");
                    }
                    let other = 1 - slot;
                    let slack = 1e-6 * before[other];
                    assert!(
                        now[other] + slack >= before[other],
                        "opp {now:?} {before:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn symmetric_positions_get_symmetric_scores() {
    let mut rng = SmallRng::seed_from_u64(401);
    let settings = EvalSettings::from_weights(Evaluation::Resistance).expect("weights");
    for round in 0..30 {
        let size = 4 + round % 6;
        let hex = random_position(size, rng.gen_range(0..size * size / 2), &mut rng);
        let n = size - 1;
        let mut turned = Vec::new();
        let mut mirrored = Vec::new();
        for cell in hex.occupied_cells() {
            let (col, row) = hex.geometry().col_row(cell);
            let stone = hex.stone_at(cell);
            let other = if stone == BLACK { WHITE } else { BLACK };
            turned.push((n - col, n - row, stone));
            mirrored.push((row, col, other));
        }
        let (turned, mirrored) = (board_with(size, &turned), board_with(size, &mirrored));
        let mut original = exact();
        original.compute(&hex, 300);
        let lead = original.black_log_ratio();
        // The half turn keeps each player's circuit; the reflection swaps
        // the players' circuits, so the lead changes sign, and so does the
        // side to move: the score for the side to move stays.
        for (other, expected) in [(&turned, lead), (&mirrored, -lead)] {
            let mut seen = exact();
            seen.compute(other, 300);
            let diff = seen.black_log_ratio() - expected;
            assert!(
                diff.abs() < 1e-6,
                "{round}: {lead} {}",
                seen.black_log_ratio()
            );
        }
        let mut seen = exact();
        seen.compute(&mirrored, settings.bridge);
        original.compute(&hex, settings.bridge);
        let (mirrored_score, score) = (
            seen.score(&settings, Player::P2),
            original.score(&settings, Player::P1),
        );
        assert!(
            (mirrored_score - score).abs() <= 1,
            "{mirrored_score} {score}"
        );
    }
}

#[test]
fn the_weight_file_lists_every_weight_and_the_names_parse() {
    assert_eq!(WEIGHT_TABLE.names(), WEIGHT_NAMES);
    let settings = EvalSettings::from_weights(Evaluation::Resistance).expect("weights");
    assert!(settings.scale > 0);
    for name in Evaluation::NAMES {
        assert_eq!(Evaluation::parse(name).map(Evaluation::name), Ok(name));
    }
    assert!(Evaluation::parse("material").is_err());
}
