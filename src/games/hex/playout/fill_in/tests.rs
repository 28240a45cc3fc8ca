use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::super::super::board::{Hex, BLACK, EMPTY, WHITE};
use super::super::super::geometry::{geometry, Geometry};
use super::super::super::inferior::captured::captures_pair;
use super::super::super::inferior::dead::Stones;
use super::*;
use crate::core::Game;
use crate::games::hex::HexRules;

fn empty_board(size: usize) -> Hex {
    Hex::start_position(&HexRules {
        board_size: size,
        swap: false,
    })
}

/// A playout board of `size` with stones of each colour on about
/// `density` of the cells, and the same colours as inferior-cell stones.
fn random_board(size: usize, density: f64, rng: &mut SmallRng) -> (PlayoutBoard, Stones) {
    let hex = empty_board(size);
    let mut board = PlayoutBoard::default();
    board.load(&hex);
    let mut stones = Stones::of(&hex);
    for cell in 0..size * size {
        if rng.gen_bool(density) {
            let colour = if rng.gen_bool(0.5) { BLACK } else { WHITE };
            board.cells[cell] = colour;
            board.take(cell);
            stones.colours[cell] = colour;
        }
    }
    board.load_ring_codes(geometry(size));
    board.codes_kept = true;
    (board, stones)
}

#[test]
fn the_ring_table_reads_the_inferior_rules_exactly() {
    let mut rng = SmallRng::seed_from_u64(5);
    let (mut dead, mut captured) = (0, 0);
    for round in 0..400 {
        let size = 3 + round % 7;
        let (board, mut stones) = random_board(size, rng.gen_range(0.3..0.8), &mut rng);
        let geo: &Geometry = geometry(size);
        for cell in (0..size * size).filter(|&c| board.cells[c] == EMPTY) {
            let code = board.codes[cell] as usize;
            assert_eq!(RINGS.dead[code], stones.is_dead(cell), "cell {cell}");
            dead += usize::from(RINGS.dead[code]);
            for (slot, partner) in geo.ring[cell].iter().enumerate() {
                if *partner == NO_CELL || board.cells[*partner as usize] != EMPTY {
                    continue;
                }
                let partner = *partner as usize;
                let partner_code = board.codes[partner] as usize;
                for colour in [BLACK, WHITE] {
                    let by_table = RINGS.dead[code + colour as usize * SLOT_WEIGHTS[slot]]
                        && RINGS.dead
                            [partner_code + colour as usize * SLOT_WEIGHTS[(slot + 3) % 6]];
                    let by_rule = captures_pair(&mut stones, colour, cell, partner);
                    assert_eq!(by_table, by_rule, "{cell} and {partner}");
                    captured += usize::from(by_rule);
                }
            }
        }
    }
    // The positions hold plenty of both kinds.
    assert!(
        dead > 500 && captured > 500,
        "{dead} dead, {captured} captured"
    );
}

#[test]
fn fill_in_leaves_no_dead_cell_and_no_captured_pair_behind() {
    let mut rng = SmallRng::seed_from_u64(9);
    for round in 0..300 {
        let size = 3 + round % 9;
        let (mut board, _) = random_board(size, rng.gen_range(0.1..0.7), &mut rng);
        let geo = geometry(size);
        let mut record = PlayoutRecord::new(size * size);
        let before: Vec<u8> = board.cells.clone();
        board.fill_everywhere(geo, &mut record);
        let mut stones = Stones {
            geo,
            colours: board.cells.clone(),
        };
        for (cell, &stone) in before.iter().enumerate() {
            if stone != EMPTY {
                assert_eq!(board.cells[cell], stone, "stones stay");
                continue;
            }
            if board.cells[cell] != EMPTY {
                assert!(record.played_by(cell, player_of(board.cells[cell])));
                continue;
            }
            assert!(!stones.is_dead(cell), "{cell} is dead");
            for partner in geo.neighbours(cell).filter(|&n| board.cells[n] == EMPTY) {
                for colour in [BLACK, WHITE] {
                    assert!(!captures_pair(&mut stones, colour, cell, partner));
                }
            }
        }
        // The ring codes kept with each fill are the board's.
        let kept = board.codes.clone();
        board.load_ring_codes(geo);
        assert_eq!(kept, board.codes);
        // The empty list still lists exactly the empty cells.
        let mut listed: Vec<usize> = board.empty.iter().map(|&c| c as usize).collect();
        listed.sort_unstable();
        let empty: Vec<usize> = (0..size * size)
            .filter(|&c| board.cells[c] == EMPTY)
            .collect();
        assert_eq!(listed, empty);
    }
}

#[test]
fn a_stone_on_the_second_row_takes_its_two_edge_cells() {
    let geo = geometry(5);
    let mut hex = empty_board(5);
    hex.make_move(crate::games::hex::HexMove::cell(geo.cell(2, 1)));
    let mut board = PlayoutBoard::default();
    board.load(&hex);
    board.load_ring_codes(geo);
    board.codes_kept = true;
    let mut record = PlayoutRecord::new(25);
    board.fill_around(geo, geo.cell(2, 1), &mut record);
    // Black's edge is the top row: the template's carrier is Black's.
    assert_eq!(board.cells[geo.cell(2, 0)], BLACK);
    assert_eq!(board.cells[geo.cell(3, 0)], BLACK);
    assert!(record.played_by(geo.cell(3, 0), Player::P1));
    // The fills go on from there, as the inferior cells' own fill-in's do.
    let mut stones = Stones::of(&hex);
    super::super::super::inferior::captured::fill_in(&mut stones);
    assert_eq!(board.cells, stones.colours);
}

#[test]
fn ring_codes_kept_through_a_playout_are_the_full_board_s() {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut board = PlayoutBoard::default();
    for size in [2, 3, 7, 11] {
        let hex = empty_board(size);
        let mut record = PlayoutRecord::new(size * size);
        let style = super::super::PlayoutStyle {
            policy: None,
            fill_in: true,
        };
        board.play(&hex, &mut rng, &mut record, style);
        let kept = board.codes.clone();
        board.load_ring_codes(geometry(size));
        assert_eq!(kept, board.codes, "size {size}");
    }
}
