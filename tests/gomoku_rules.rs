//! Gomoku rules and line shapes, checked against direct counting on the
//! board and an independent move enumerator.

use boardgames::core::notation::fen_row;
use boardgames::core::perft::perft;
use boardgames::core::{Game, Outcome, Player};
use boardgames::games::gomoku::board::{cell_of, Rule, DIRECTIONS};
use boardgames::games::gomoku::pattern::*;
use boardgames::games::gomoku::{Gomoku, GomokuRules};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn rules(size: usize, rule: Rule) -> GomokuRules {
    GomokuRules { size, rule }
}

/// A position from black and white stones in move notation; `black_to_move`.
fn position(
    size: usize,
    rule: Rule,
    black: &[&str],
    white: &[&str],
    black_to_move: bool,
) -> Gomoku {
    let mut rows = vec![vec!['.'; size]; size];
    for (stones, symbol) in [(black, 'x'), (white, 'o')] {
        for &name in stones {
            let game = Gomoku::start_position(&rules(size, rule));
            let cell = game.parse_move(name).expect("test stone on the board") as usize;
            rows[cell / 32][cell % 32] = symbol;
        }
    }
    let placement: Vec<String> = (0..size)
        .rev()
        .map(|y| fen_row(rows[y].iter().map(|&c| (c != '.').then_some(c))))
        .collect();
    let fen = format!(
        "{} {}",
        placement.join("/"),
        if black_to_move { "x" } else { "o" }
    );
    Gomoku::from_fen(&fen, &rules(size, rule)).expect("test position parses")
}

fn cell(game: &Gomoku, name: &str) -> usize {
    game.parse_move(name).expect("valid test move") as usize
}

/// Stones along a direction from (x, y), `count` of them, as names.
fn line(x: i32, y: i32, direction: usize, offsets: &[i32]) -> Vec<String> {
    let (dx, dy) = DIRECTIONS[direction];
    offsets
        .iter()
        .map(|&k| format!("{}{}", (b'a' + (x + k * dx) as u8) as char, y + k * dy + 1))
        .collect()
}

fn names(list: &[String]) -> Vec<&str> {
    list.iter().map(|s| s.as_str()).collect()
}

#[test]
fn shapes_are_recognised_in_every_direction() {
    // Stones at offsets from a centre cell, with the shape placing the centre makes.
    let cases: [(&[i32], Shape); 7] = [
        (&[1, 2, 3, 4], FIVE),
        (&[-2, -1, 1], OPEN_FOUR),
        (&[-1, 1, 3], FOUR),
        (&[1, 2], OPEN_THREE),
        (&[-1, 2], OPEN_THREE),
        (&[2], OPEN_TWO),
        (&[], ONE),
    ];
    for direction in 0..4 {
        let (x, y) = (7, 7);
        for (offsets, expected) in cases {
            let black = line(x, y, direction, offsets);
            let game = position(15, Rule::Freestyle, &names(&black), &[], true);
            let centre = cell_of(x as usize, y as usize);
            assert_eq!(
                game.board().shape(0, centre, direction),
                expected,
                "direction {direction}, stones {black:?}"
            );
            // The other directions see nothing but a lone stone.
            for other in (0..4).filter(|&d| d != direction) {
                assert_eq!(game.board().shape(0, centre, other), ONE);
            }
            // For White the same stones block: nothing to make in that line
            // beyond what the open side allows.
            assert!(game.board().shape(1, centre, direction) <= OPEN_TWO);
        }
    }
}

#[test]
fn blocked_shapes_and_edges() {
    // x x x . with White closing one end: a blocked three becomes a four.
    let game = position(15, Rule::Freestyle, &["e8", "f8", "g8"], &["d8"], true);
    assert_eq!(game.board().shape(0, cell(&game, "h8"), 0), FOUR);
    assert_eq!(game.board().shape(0, cell(&game, "i8"), 0), FOUR);
    assert_eq!(game.board().threat(0, cell(&game, "h8")), T_FOUR);
    // The same three against the left edge.
    let game = position(15, Rule::Freestyle, &["a8", "b8", "c8"], &[], true);
    assert_eq!(game.board().shape(0, cell(&game, "d8"), 0), FOUR);
    // Against the bottom edge vertically and in a corner diagonally.
    let game = position(15, Rule::Freestyle, &["h1", "h2", "h3"], &[], true);
    assert_eq!(game.board().shape(0, cell(&game, "h4"), 1), FOUR);
    let game = position(15, Rule::Freestyle, &["a1", "b2", "c3"], &[], true);
    assert_eq!(game.board().shape(0, cell(&game, "d4"), 2), FOUR);
    let game = position(15, Rule::Freestyle, &["o1", "n2", "m3"], &[], true);
    assert_eq!(game.board().shape(0, cell(&game, "l4"), 3), FOUR);
    // Too close to the edge to ever make five: dead.
    let game = position(5, Rule::Freestyle, &["a1"], &["e1"], true);
    assert_eq!(game.board().shape(0, cell(&game, "b1"), 0), DEAD);
    // An open three on the board gives open-four cells at both ends.
    let game = position(15, Rule::Freestyle, &["f8", "g8", "h8"], &[], true);
    assert_eq!(game.board().threat(0, cell(&game, "e8")), T_OPEN_FOUR);
    assert_eq!(game.board().threat(0, cell(&game, "i8")), T_OPEN_FOUR);
    assert_eq!(game.board().threat(1, cell(&game, "e8")), T_NONE);
}

#[test]
fn overline_wins_in_freestyle_only() {
    for (rule, wins) in [(Rule::Freestyle, true), (Rule::Standard, false)] {
        let mut game = position(
            15,
            rule,
            &["d8", "e8", "f8", "h8", "i8"],
            &["a1", "b1", "c1", "d1"],
            true,
        );
        let gap = cell(&game, "g8");
        let shape = game.board().shape(0, gap, 0);
        // Under standard the gap only ever makes six: nothing to build.
        assert!(
            if wins { shape == FIVE } else { shape <= ONE },
            "{rule:?}: {shape}"
        );
        game.make_move(gap as u16);
        assert_eq!(game.outcome().is_some(), wins, "{rule:?}");
        assert_eq!(game.board().five_through(gap), wins);
        game.unmake_move(gap as u16);
        assert_eq!(game.outcome(), None);
    }
    // Under standard, x x x x . x: the gap makes six, the far end makes five.
    let game = position(
        15,
        Rule::Standard,
        &["c8", "d8", "e8", "f8", "h8"],
        &[],
        true,
    );
    assert_eq!(game.board().threat(0, cell(&game, "b8")), T_FIVE);
    assert_ne!(game.board().threat(0, cell(&game, "g8")), T_FIVE);
    let freestyle = position(
        15,
        Rule::Freestyle,
        &["c8", "d8", "e8", "f8", "h8"],
        &[],
        true,
    );
    assert_eq!(freestyle.board().threat(0, cell(&freestyle, "g8")), T_FIVE);
}

#[test]
fn full_board_is_a_draw_and_a_five_a_win() {
    // Fill 5x5 in a pattern without five in a row for either side.
    let mut game = Gomoku::start_position(&rules(5, Rule::Freestyle));
    let pattern = ["xxoox", "ooxxo", "xxoox", "ooxxo", "xxoox"];
    let mut blacks = Vec::new();
    let mut whites = Vec::new();
    for (y, row) in pattern.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let name = format!("{}{}", (b'a' + x as u8) as char, y + 1);
            if c == 'x' {
                blacks.push(name)
            } else {
                whites.push(name)
            }
        }
    }
    assert_eq!(blacks.len(), 13);
    for i in 0..25 {
        let name = if i % 2 == 0 {
            &blacks[i / 2]
        } else {
            &whites[i / 2]
        };
        let mv = game.parse_move(name).unwrap();
        assert_eq!(game.outcome(), None);
        game.make_move(mv);
    }
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    assert!(moves.is_empty());

    let mut game = position(
        15,
        Rule::Freestyle,
        &["a1", "b2", "c3", "d4"],
        &["h8", "h9", "h10", "h11"],
        true,
    );
    let mv = game.parse_move("e5").unwrap();
    game.make_move(mv);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)));
    game.generate_moves(&mut moves);
    assert!(moves.is_empty());
}

/// After every move of random games, the incremental state equals the state
/// rebuilt from the position string, wins agree with direct counting, and
/// unmaking restores everything.
#[test]
fn incremental_state_matches_rebuilt_state() {
    let mut rng = SmallRng::seed_from_u64(7);
    for game_number in 0..40 {
        let size = [5, 7, 9, 15, 19, 22][game_number % 6];
        let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][game_number % 3];
        let rules = rules(size, rule);
        let mut game = Gomoku::start_position(&rules);
        let mut played = Vec::new();
        let mut moves = Vec::new();
        while game.outcome().is_none() {
            game.generate_moves(&mut moves);
            let mv = moves[rng.gen_range(0..moves.len())];
            let before_hash = game.hash();
            game.make_move(mv);
            played.push((mv, before_hash));
            assert_eq!(
                game.board().five_through(mv as usize),
                matches!(game.outcome(), Some(Outcome::Win(_)))
            );
            let rebuilt = Gomoku::from_fen(&game.to_fen(), &rules).expect("own FEN parses");
            assert_eq!(rebuilt.to_fen(), game.to_fen());
            assert_eq!(rebuilt.hash(), game.hash());
            assert_eq!(rebuilt.outcome(), game.outcome());
            for y in 0..size {
                for x in 0..size {
                    let c = cell_of(x, y);
                    for side in 0..2 {
                        assert_eq!(
                            rebuilt.board().threat(side, c),
                            game.board().threat(side, c)
                        );
                        if game.board().is_empty(c) {
                            assert_eq!(
                                rebuilt.board().combination(side, c),
                                game.board().combination(side, c)
                            );
                        }
                    }
                }
            }
            for (side, role) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                assert_eq!(
                    rebuilt.board().value_sum(side, role),
                    game.board().value_sum(side, role)
                );
            }
        }
        for (mv, before_hash) in played.into_iter().rev() {
            game.unmake_move(mv);
            assert_eq!(game.hash(), before_hash);
            let rebuilt = Gomoku::from_fen(&game.to_fen(), &rules).expect("own FEN parses");
            for c in (0..size * size).map(|i| cell_of(i % size, i / size)) {
                for side in (0..2).filter(|_| game.board().is_empty(c)) {
                    assert_eq!(
                        rebuilt.board().combination(side, c),
                        game.board().combination(side, c)
                    );
                }
            }
        }
        assert_eq!(game.to_fen(), Gomoku::start_position(&rules).to_fen());
        for role in 0..2 {
            assert_eq!(
                game.board().value_sum(0, role),
                Gomoku::start_position(&rules).board().value_sum(0, role)
            );
        }
    }
}

#[test]
fn fen_round_trips_and_errors() {
    let start = Gomoku::start_position(&GomokuRules::default());
    assert_eq!(
        start.to_fen(),
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x"
    );
    let fen = "15/15/15/15/15/15/6o8/7x7/15/15/15/15/15/15/15 x";
    let game = Gomoku::from_fen(fen, &GomokuRules::default()).unwrap();
    assert_eq!(game.to_fen(), fen);
    assert_eq!(game.board().stone(cell(&game, "h8")), 1);
    assert_eq!(game.board().stone(cell(&game, "g9")), 2);
    let small = "2x2/5/1o3/5/x4 o";
    assert_eq!(
        Gomoku::from_fen(small, &rules(5, Rule::Freestyle))
            .unwrap()
            .to_fen(),
        small
    );
    for bad in [
        "",
        "15/15 x",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 z",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/16 x",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/14 x",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/14q x",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/xxxxx10 x x",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/xxxxxoooooooooo x",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/0x14 x",
    ] {
        assert!(
            Gomoku::from_fen(bad, &GomokuRules::default()).is_err(),
            "accepted {bad:?}"
        );
    }
    // A five on the board is a finished game.
    let won = Gomoku::from_fen(
        "15/15/15/15/15/15/15/15/15/15/15/15/15/ooo12/xxxxx10 o",
        &GomokuRules::default(),
    )
    .unwrap();
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::P1)));
}

#[test]
fn notation() {
    let game = Gomoku::start_position(&GomokuRules::default());
    assert_eq!(game.format_move(game.parse_move("h8").unwrap()), "h8");
    assert_eq!(game.parse_move("h8").unwrap() as usize, cell_of(7, 7));
    assert_eq!(game.parse_move("A1").unwrap() as usize, cell_of(0, 0));
    assert_eq!(game.format_move(cell_of(14, 14) as u16), "o15");
    for bad in ["", "p1", "a0", "a16", "h", "8h", "h8x", "h-1", "hh8"] {
        assert!(game.parse_move(bad).is_err(), "accepted {bad:?}");
    }
    let big = Gomoku::start_position(&rules(22, Rule::Freestyle));
    assert_eq!(big.format_move(big.parse_move("v22").unwrap()), "v22");
}

/// Independent enumerator: a plain array board and direct line counting.
fn naive_perft(cells: &mut Vec<u8>, size: usize, to_move: u8, exact: bool, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for i in 0..size * size {
        if cells[i] != 0 {
            continue;
        }
        cells[i] = to_move;
        let won = naive_five(cells, size, i, exact);
        let full = cells.iter().all(|&c| c != 0);
        total += if won || full || depth == 1 {
            1
        } else {
            naive_perft(cells, size, 3 - to_move, exact, depth - 1)
        };
        cells[i] = 0;
    }
    total
}

fn naive_five(cells: &[u8], size: usize, at: usize, exact: bool) -> bool {
    let (x, y) = ((at % size) as i32, (at / size) as i32);
    let stone = cells[at];
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let mut length = 1;
        for sign in [1, -1] {
            let (mut nx, mut ny) = (x + sign * dx, y + sign * dy);
            while nx >= 0
                && ny >= 0
                && nx < size as i32
                && ny < size as i32
                && cells[(ny * size as i32 + nx) as usize] == stone
            {
                length += 1;
                nx += sign * dx;
                ny += sign * dy;
            }
        }
        if exact {
            length == 5
        } else {
            length >= 5
        }
    })
}

#[test]
fn perft_matches_an_independent_enumerator() {
    // Positions where fives and overlines occur within a few plies.
    let cases = [
        (6, Rule::Freestyle, "6/6/6/6/6/6 x", 3),
        (6, Rule::Freestyle, "xxx1xo/oooo2/6/6/x1x3/6 x", 3),
        (6, Rule::Standard, "xxxx1x/oooo2/6/o5/6/6 x", 3),
        (7, Rule::Standard, "xxx1xx1/oo1ooo1/7/7/7/7/7 x", 3),
        (7, Rule::Freestyle, "xxx1xx1/oo1ooo1/7/7/7/7/7 x", 3),
        (5, Rule::Freestyle, "xxxx1/oooo1/5/5/5 o", 4),
    ];
    for (size, rule, fen, depth) in cases {
        let mut game = Gomoku::from_fen(fen, &rules(size, rule)).expect("case parses");
        let mut cells = vec![0u8; size * size];
        for y in 0..size {
            for x in 0..size {
                cells[y * size + x] = game.board().stone(cell_of(x, y));
            }
        }
        let to_move = if game.side_to_move() == Player::P1 {
            1
        } else {
            2
        };
        for d in 1..=depth {
            let expected = naive_perft(&mut cells, size, to_move, rule == Rule::Standard, d);
            assert_eq!(perft(&mut game, d), expected, "{fen} {rule:?} depth {d}");
        }
    }
    // The empty 5x5 board: no five before the ninth ply, so plain products.
    let mut game = Gomoku::start_position(&rules(5, Rule::Freestyle));
    assert_eq!(perft(&mut game, 3), 25 * 24 * 23);
}
