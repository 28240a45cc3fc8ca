//! The Renju rule: forbidden points worked out by hand
//! (tests/fixtures/renju-forbidden.txt), the engine's detection against the
//! brute-force checker of tests/common/renju.rs over random dense
//! positions, and what the rules make of forbidden points and fives.

mod common;

use std::collections::BTreeSet;

use boardgames::core::{Game, Outcome, Player};
use boardgames::games::gomoku::board::{cell_of, coordinates, Rule};
use boardgames::games::gomoku::renju::forbidden_cells;
use boardgames::games::gomoku::{Gomoku, GomokuRules};
use common::renju::{name, point, Grid, BLACK, EMPTY, WHITE};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const RENJU: GomokuRules = GomokuRules {
    size: 15,
    rule: Rule::Renju,
};

struct Case {
    name: String,
    black: Vec<String>,
    white: Vec<String>,
    forbidden: BTreeSet<String>,
}

fn fixture_cases() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/renju-forbidden.txt"
    );
    let text = std::fs::read_to_string(path).expect("the fixture is readable");
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines().map(str::trim) {
        let words = |rest: &str| -> Vec<String> {
            rest.split_whitespace()
                .filter(|&w| w != "-")
                .map(str::to_owned)
                .collect()
        };
        if let Some(case) = line.strip_prefix("case ") {
            cases.push(Case {
                name: case.to_owned(),
                black: Vec::new(),
                white: Vec::new(),
                forbidden: BTreeSet::new(),
            });
        } else if let Some(rest) = line.strip_prefix("black:") {
            cases.last_mut().expect("a case").black = words(rest);
        } else if let Some(rest) = line.strip_prefix("white:") {
            cases.last_mut().expect("a case").white = words(rest);
        } else if let Some(rest) = line.strip_prefix("forbidden:") {
            cases.last_mut().expect("a case").forbidden = words(rest).into_iter().collect();
        }
    }
    cases
}

fn grid_of(case: &Case) -> Grid {
    let mut grid = Grid::new(15);
    for (stones, colour) in [(&case.black, BLACK), (&case.white, WHITE)] {
        for stone in stones {
            let (x, y) = point(stone);
            grid.set(x, y, colour);
        }
    }
    grid
}

fn engine_forbidden(game: &Gomoku) -> BTreeSet<String> {
    forbidden_cells(game.board())
        .into_iter()
        .map(|cell| {
            let (x, y) = coordinates(cell);
            name(x as i32, y as i32)
        })
        .collect()
}

#[test]
fn the_hand_worked_positions_have_their_forbidden_points() {
    let cases = fixture_cases();
    assert!(cases.len() >= 12);
    for case in &cases {
        let mut grid = grid_of(case);
        let game = Gomoku::from_fen(&grid.to_fen(true), &RENJU).expect("the case parses");
        assert_eq!(
            engine_forbidden(&game),
            case.forbidden,
            "engine, {}",
            case.name
        );
        let brute: BTreeSet<String> = grid
            .forbidden_cells()
            .into_iter()
            .map(|(x, y)| name(x, y))
            .collect();
        assert_eq!(brute, case.forbidden, "brute force, {}", case.name);
        // Forbidden points are no moves, and naming one says why.
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        for forbidden in &case.forbidden {
            let error = game.parse_move(forbidden).expect_err("a forbidden point");
            assert!(error.contains("forbidden"), "{error}");
            let (x, y) = point(forbidden);
            assert!(!moves.contains(&(cell_of(x as usize, y as usize) as u16)));
        }
        let empty = 225 - case.black.len() - case.white.len();
        assert_eq!(moves.len(), empty - case.forbidden.len(), "{}", case.name);
        assert_eq!(game.count_moves() as usize, moves.len());
    }
}

#[test]
fn only_renju_and_only_black_have_forbidden_points() {
    let case = &fixture_cases()[0];
    let grid = grid_of(case);
    for rule in [Rule::Freestyle, Rule::Standard] {
        let rules = GomokuRules { size: 15, rule };
        let game = Gomoku::from_fen(&grid.to_fen(true), &rules).expect("parses");
        assert!(engine_forbidden(&game).is_empty());
        assert!(game.parse_move("h8").is_ok());
    }
    let white_to_move = Gomoku::from_fen(&grid.to_fen(false), &RENJU).expect("parses");
    assert!(white_to_move.parse_move("h8").is_ok());
    let mut moves = Vec::new();
    white_to_move.generate_moves(&mut moves);
    assert_eq!(moves.len(), 225 - 4);
}

/// A random position with many Black stones in the middle of the board,
/// none of its lines already five or more.
fn random_grid(rng: &mut SmallRng) -> Grid {
    let size = 15;
    let mut grid = Grid::new(size);
    let (low, high) = (2, size as i32 - 2);
    let black = rng.gen_range(12..40);
    let white = rng.gen_range(0..black / 2);
    for (count, colour) in [(black, BLACK), (white, WHITE)] {
        for _ in 0..count {
            let (x, y) = (rng.gen_range(low..high), rng.gen_range(low..high));
            if grid.get(x, y) == Some(EMPTY) {
                grid.set(x, y, colour);
            }
        }
    }
    grid
}

/// Compares the engine with the brute force over `count` positions from
/// `make`; returns how many forbidden points they found.
fn agreement_over(count: usize, seed: u64, make: fn(&mut SmallRng) -> Grid) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut compared, mut forbidden_seen) = (0, 0);
    while compared < count {
        let mut grid = make(&mut rng);
        let Ok(game) = Gomoku::from_fen(&grid.to_fen(true), &RENJU) else {
            continue; // both sides have a five
        };
        let brute: BTreeSet<String> = grid
            .forbidden_cells()
            .into_iter()
            .map(|(x, y)| name(x, y))
            .collect();
        assert_eq!(engine_forbidden(&game), brute, "{}", grid.to_fen(true));
        forbidden_seen += brute.len();
        compared += 1;
    }
    forbidden_seen
}

#[test]
fn the_engine_agrees_with_the_brute_force_over_random_positions() {
    let forbidden_seen = agreement_over(3000, 0x0072_656e_6a75, random_grid);
    // Dense enough that the comparison means something.
    assert!(
        forbidden_seen > 3000,
        "only {forbidden_seen} forbidden points"
    );
}

/// A black-heavy cluster, as games make them: 8 to 28 stones in a 7x7
/// window anywhere on the board (edges included), about seven in ten Black.
fn random_cluster(rng: &mut SmallRng) -> Grid {
    let size = 15;
    let mut grid = Grid::new(size);
    let stones = rng.gen_range(8..=28);
    let (left, bottom) = (rng.gen_range(0..=8), rng.gen_range(0..=8));
    let mut placed = 0;
    while placed < stones {
        let (x, y) = (left + rng.gen_range(0..7), bottom + rng.gen_range(0..7));
        if grid.get(x, y) == Some(EMPTY) {
            let colour = if rng.gen_bool(0.7) { BLACK } else { WHITE };
            grid.set(x, y, colour);
            placed += 1;
        }
    }
    grid
}

/// Where the recursive three matters most: threes whose fours are
/// forbidden, or are fives elsewhere, inside dense Black clusters.
#[test]
fn the_engine_agrees_with_the_brute_force_over_dense_clusters() {
    let forbidden_seen = agreement_over(20_000, 0x0063_6c75_7374, random_cluster);
    assert!(
        forbidden_seen > 5000,
        "only {forbidden_seen} forbidden points"
    );
}

/// A position where the engine once forbade d9: its three in row 9 turns
/// into a straight four only at e9, which is also a five (e9-i5), and the
/// RIF counts no three made "at the same time" as a five.
#[test]
fn a_three_whose_four_is_also_a_five_is_no_three() {
    let fen = "3x11/8xo5/5x9/5o1o1o4x/2x2xoo1oo4/4x1ox1o1o3/5xx1ooo2x1/\
               o4xo2xx1o1x/3x1xxxo2x2x/4xo1x7/8x2o3/4oooo7/7x7/6o8/15 x";
    let game = Gomoku::from_fen(fen, &RENJU).expect("the position parses");
    let expected: BTreeSet<String> = ["c8".to_owned()].into();
    assert_eq!(engine_forbidden(&game), expected);
}

#[test]
fn black_wins_with_exactly_five_and_white_with_more() {
    // Black's five wins even where it also makes a double four.
    let cases = fixture_cases();
    let case = cases
        .iter()
        .find(|c| c.name == "five_beats_a_double_four")
        .expect("the case");
    let mut game = Gomoku::from_fen(&grid_of(case).to_fen(true), &RENJU).expect("parses");
    let five = game.parse_move("h10").expect("a five is allowed");
    game.make_move(five);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)));
    // White's six wins.
    let mut grid = Grid::new(15);
    for stone in ["c10", "d10", "e10", "g10", "h10"] {
        let (x, y) = point(stone);
        grid.set(x, y, WHITE);
    }
    for stone in ["c3", "e3", "g3", "i3", "k3", "m3"] {
        let (x, y) = point(stone);
        grid.set(x, y, BLACK);
    }
    let mut game = Gomoku::from_fen(&grid.to_fen(false), &RENJU).expect("parses");
    let six = game.parse_move("f10").expect("White may make six");
    game.make_move(six);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P2)));
    // A position already holding White's six is White's win; Black's six
    // wins nothing.
    let won = Gomoku::from_fen(&game.to_fen(), &RENJU).expect("parses");
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::P2)));
    let mut six_for_black = Grid::new(15);
    for stone in ["c10", "d10", "e10", "f10", "g10", "h10"] {
        let (x, y) = point(stone);
        six_for_black.set(x, y, BLACK);
    }
    let game = Gomoku::from_fen(&six_for_black.to_fen(false), &RENJU).expect("parses");
    assert_eq!(game.outcome(), None);
}

#[test]
fn the_rule_option_takes_renju() {
    let mut rules = GomokuRules::default();
    Gomoku::set_rule_option(&mut rules, "Rule", "renju").expect("renju is a rule");
    assert_eq!(rules.rule, Rule::Renju);
    let error = Gomoku::set_rule_option(&mut rules, "Rule", "caro").expect_err("not a rule");
    assert!(error.contains("renju"), "{error}");
    assert_eq!(rules.rule, Rule::Renju);
}
