//! Rule tests: every numbered rule of issue 5, the variants, FEN, the
//! generator's board, make/unmake, and the seed's game replayed.

use super::board::{cell_name, parse_cell, NO_CELL};
use super::position::Move;
use super::*;
use crate::core::perft::perft;
use crate::core::{Deadline, Game, Knowledge, Outcome, Player};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const SEED_GAME: &str = include_str!("testdata/seed-game.txt");

fn cell(name: &str) -> u8 {
    parse_cell(name).unwrap()
}

/// The fixture's board as a FEN with no knights placed.
pub(crate) fn seed_board_fen() -> String {
    let rows: Vec<String> = SEED_GAME
        .lines()
        .filter_map(|l| l.strip_prefix("board "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(rows.len(), 10);
    format!("{} - - 0 0 w 0", rows.join("/"))
}

/// (side, move, white score, black score) for each line of the fixture.
pub(crate) fn seed_moves() -> Vec<(Player, String, i32, i32)> {
    SEED_GAME
        .lines()
        .filter(|l| l.starts_with("white ") || l.starts_with("black "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let side = if f[0] == "white" {
                Player::P1
            } else {
                Player::P2
            };
            (
                side,
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

pub(crate) fn legal(position: &Cavalo) -> Vec<Move> {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    moves
}

/// Parses and plays a move, failing if it is not legal.
pub(crate) fn play(position: &mut Cavalo, text: &str) -> Result<(), String> {
    let mv = position.parse_move(text)?;
    if !legal(position).contains(&mv) {
        return Err(format!("{text} is illegal"));
    }
    position.make_move(mv);
    Ok(())
}

fn moves_text(position: &Cavalo) -> Vec<String> {
    let mut texts: Vec<String> = legal(position)
        .into_iter()
        .map(|m| position.format_move(m))
        .collect();
    texts.sort();
    texts
}

#[test]
fn seed_game_replays_with_the_seed_conventions() {
    let mut position = Cavalo::from_fen(&seed_board_fen(), &Rules::seed_conventions()).unwrap();
    for (number, (side, text, white, black)) in seed_moves().into_iter().enumerate() {
        assert_eq!(position.side_to_move(), side, "move {} {text}", number + 1);
        assert_eq!(position.outcome(), None);
        play(&mut position, &text).unwrap_or_else(|e| panic!("move {}: {e}", number + 1));
        assert_eq!(
            position.scores(),
            [white, black],
            "after {} {text}",
            number + 1
        );
        assert_eq!(position.hash(), position.compute_hash());
    }
    assert_eq!(position.scores(), [524, 966]);
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::P2)));
    assert!(legal(&position).is_empty());
    assert_eq!(position.query("score").as_deref(), Some("524 966"));
}

#[test]
fn seed_game_move_six_is_illegal_under_the_attack_rule() {
    let rules = Rules {
        first_mover: Player::P2,
        ..Rules::default()
    };
    let mut position = Cavalo::from_fen(&seed_board_fen(), &rules).unwrap();
    let moves = seed_moves();
    for (_, text, white, black) in &moves[..8] {
        play(&mut position, text).unwrap();
        assert_eq!(position.scores(), [*white, *black]);
    }
    assert_eq!(moves[8].1, "g7");
    let before = position.to_fen();
    assert!(play(&mut position, "g7").is_err());
    assert_eq!(position.to_fen(), before);
    assert!(!moves_text(&position).contains(&"g7".to_string()));
}

#[test]
fn placements_are_forced_moves_on_the_highest_home_cell() {
    let mut position = Cavalo::from_fen(&seed_board_fen(), &Rules::default()).unwrap();
    assert_eq!(moves_text(&position), ["e1"]);
    play(&mut position, "e1").unwrap();
    // 91 scored, and its symmetric 19 (j4) removed.
    assert_eq!(position.scores(), [91, 0]);
    assert_eq!(position.value(cell("j4")), None);
    assert_eq!(position.side_to_move(), Player::P2);
    assert_eq!(moves_text(&position), ["b10"]);
    play(&mut position, "b10").unwrap();
    assert_eq!(position.side_to_move(), Player::P1);
    assert_eq!(position.scores(), [91, 93]);
    // White's knight on e1 jumps to c2, d3, f3 or g2.
    assert_eq!(moves_text(&position), ["c2", "d3", "f3", "g2"]);
}

#[test]
fn placement_choose_offers_every_valid_home_cell() {
    let rules = Rules {
        placement: Placement::Choose,
        ..Rules::default()
    };
    let mut position = Cavalo::from_fen(&seed_board_fen(), &rules).unwrap();
    assert_eq!(legal(&position).len(), 10);
    play(&mut position, "h1").unwrap(); // value 0: scores nothing, removes nothing
    assert_eq!(position.scores(), [0, 0]);
    // Row 10 holds 11 (d10): placing there removes one of the 8 other
    // doubles, so 9 plain placements plus 8 choices.
    assert_eq!(legal(&position).len(), 17);
    assert!(moves_text(&position).contains(&"d10/b9".to_string()));
    assert!(play(&mut position, "a1").is_err());
    play(&mut position, "d10/b9").unwrap();
    assert_eq!(position.scores(), [0, 11]);
    assert_eq!(position.value(cell("b9")), None, "77 removed by choice");
    assert_eq!(position.value(cell("j2")), Some(99));
}

#[test]
fn first_mover_black_moves_after_both_placements() {
    let rules = Rules {
        first_mover: Player::P2,
        ..Rules::default()
    };
    let mut position = Cavalo::from_fen(&seed_board_fen(), &rules).unwrap();
    play(&mut position, "e1").unwrap();
    assert_eq!(position.side_to_move(), Player::P2);
    play(&mut position, "b10").unwrap();
    assert_eq!(position.side_to_move(), Player::P2);
    play(&mut position, "c8").unwrap();
    assert_eq!(position.side_to_move(), Player::P1);
}

/// A board of the given values (row 1 first, 10 a row, `x` removed).
fn fen_with(
    cells: &[(&str, &str)],
    knights: (&str, &str),
    scores: (i32, i32),
    side: char,
) -> String {
    let mut grid = vec!["x".to_string(); 100];
    for (name, value) in cells {
        grid[cell(name) as usize] = value.to_string();
    }
    let rows: Vec<String> = grid.chunks(10).map(|r| r.join(",")).collect();
    format!(
        "{} {} {} {} {} {side} 2",
        rows.join("/"),
        knights.0,
        knights.1,
        scores.0,
        scores.1
    )
}

#[test]
fn a_jump_removes_the_left_cell_scores_and_removes_the_symmetric() {
    let fen = fen_with(
        &[("f3", "57"), ("h8", "75"), ("c5", "12")],
        ("e1", "a10"),
        (10, 20),
        'w',
    );
    let mut position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    assert_eq!(moves_text(&position), ["f3"]);
    play(&mut position, "f3").unwrap();
    assert_eq!(position.scores(), [67, 20]);
    assert_eq!(position.value(cell("h8")), None, "75 is 57's symmetric");
    assert_eq!(position.value(cell("e1")), None);
    assert_eq!(position.knight(Player::P1), Some(cell("f3")));
    assert_eq!(position.value(cell("c5")), Some(12));
}

#[test]
fn single_digit_symmetric_follows_the_option() {
    let cells = [("c2", "7"), ("h8", "70"), ("e9", "30"), ("e8", "3")];
    let fen = fen_with(&cells, ("a1", "c10"), (0, 0), 'w');
    let mut on = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    play(&mut on, "c2").unwrap();
    assert_eq!(on.value(cell("h8")), None, "7 removes 70 by default");
    let off_rules = Rules {
        single_digit_symmetric: false,
        ..Rules::default()
    };
    let mut off = Cavalo::from_fen(&fen, &off_rules).unwrap();
    play(&mut off, "c2").unwrap();
    assert_eq!(
        off.value(cell("h8")),
        Some(70),
        "the seed: 7 has no symmetric"
    );
    // 30 still removes 3 with the option off.
    play(&mut off, "pass").unwrap_or(());
    let fen30 = fen_with(&cells, ("a1", "c10"), (0, 0), 'b');
    let mut off30 = Cavalo::from_fen(&fen30, &off_rules).unwrap();
    play(&mut off30, "e9").unwrap();
    assert_eq!(off30.value(cell("e8")), None);
}

#[test]
fn a_symmetric_value_under_a_knight_stays_taken() {
    // White lands on 57 while Black's knight stands on the cell that held 75.
    let fen = fen_with(&[("f3", "57"), ("a8", "1")], ("e1", "h8"), (0, 75), 'w');
    let mut position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    play(&mut position, "f3").unwrap();
    assert_eq!(position.knight(Player::P2), Some(cell("h8")));
    assert_eq!(position.scores(), [57, 75]);
    position.unmake_move(Move::jump(cell("f3")));
    assert_eq!(position.to_fen(), fen);
}

#[test]
fn a_double_removes_another_double_of_the_movers_choice() {
    let cells = [
        ("f3", "44"),
        ("a5", "88"),
        ("b7", "22"),
        ("j9", "99"),
        ("c4", "5"),
    ];
    let fen = fen_with(&cells, ("e1", "a10"), (0, 0), 'w');
    let mut position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    assert_eq!(moves_text(&position), ["f3/a5", "f3/b7", "f3/j9"]);
    // Plain f3 is the default: the highest other double (99 on j9).
    assert_eq!(
        position.parse_move("f3"),
        Ok(Move {
            to: cell("f3"),
            removes: cell("j9")
        })
    );
    assert!(position.parse_move("f3/c4").is_err(), "5 is not a double");
    assert!(position.parse_move("f3/f3").is_err());
    play(&mut position, "f3/b7").unwrap();
    assert_eq!(position.scores(), [44, 0]);
    assert_eq!(position.value(cell("b7")), None);
    assert_eq!(position.value(cell("j9")), Some(99));
    assert_eq!(position.value(cell("a5")), Some(88));
}

#[test]
fn a_double_with_no_other_double_left_removes_nothing() {
    let fen = fen_with(&[("f3", "44"), ("c4", "5")], ("e1", "a10"), (0, 0), 'w');
    let mut position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    assert_eq!(moves_text(&position), ["f3"]);
    assert!(position.parse_move("f3/c4").is_err());
    play(&mut position, "f3").unwrap();
    assert_eq!(position.value(cell("c4")), Some(5));
}

#[test]
fn the_attack_rule_forbids_cells_the_other_knight_attacks() {
    // Black on e5 attacks d3 and f3; White on e1 could otherwise land there.
    let cells = [("d3", "40"), ("f3", "41"), ("g2", "42"), ("c7", "1")];
    let fen = fen_with(&cells, ("e1", "e5"), (0, 0), 'w');
    let position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    assert_eq!(moves_text(&position), ["g2"]);
    let off = Rules {
        attack_rule: false,
        ..Rules::default()
    };
    let position = Cavalo::from_fen(&fen, &off).unwrap();
    assert_eq!(moves_text(&position), ["d3", "f3", "g2"]);
}

#[test]
fn a_knight_cannot_land_on_the_other_knight_or_a_removed_cell() {
    let fen = fen_with(&[("d3", "40")], ("e1", "f3"), (0, 0), 'w');
    let off = Rules {
        attack_rule: false,
        ..Rules::default()
    };
    let position = Cavalo::from_fen(&fen, &off).unwrap();
    assert_eq!(moves_text(&position), ["d3"]);
}

#[test]
fn a_player_without_moves_passes_and_the_game_ends_when_neither_can_move() {
    // White on a1 is stuck; Black on j10 has one cell to go to (h9).
    let fen = fen_with(&[("h9", "50")], ("a1", "j10"), (60, 20), 'w');
    let mut position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    assert_eq!(position.outcome(), None);
    assert_eq!(moves_text(&position), ["pass"]);
    assert!(play(&mut position, "h9").is_err());
    play(&mut position, "pass").unwrap();
    assert_eq!(moves_text(&position), ["h9"]);
    assert!(
        play(&mut position, "pass").is_err(),
        "passing is not allowed with a move"
    );
    play(&mut position, "h9").unwrap();
    assert_eq!(position.scores(), [60, 70]);
    assert!(legal(&position).is_empty());
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::P2)));
}

#[test]
fn equal_scores_draw_and_higher_score_wins() {
    for (scores, outcome) in [
        ((5, 5), Outcome::Draw),
        ((6, 5), Outcome::Win(Player::P1)),
        ((0, 1), Outcome::Win(Player::P2)),
    ] {
        let fen = fen_with(&[], ("a1", "j10"), scores, 'w');
        let position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
        assert_eq!(position.outcome(), Some(outcome));
    }
}

#[test]
fn fen_round_trips_and_rejects_malformed_strings() {
    let mut position = Cavalo::start(&Rules::default());
    let mut rng = SmallRng::seed_from_u64(7);
    let mut moves = Vec::new();
    while position.outcome().is_none() {
        let fen = position.to_fen();
        let back = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
        assert_eq!(back.to_fen(), fen);
        assert_eq!(back.hash(), position.hash());
        position.generate_moves(&mut moves);
        let mv = moves[rng.gen_range(0..moves.len())];
        position.make_move(mv);
    }
    let good = position.to_fen();
    let broken = [
        "",
        "garbage",
        &good.replacen(' ', " extra ", 1),
        &good.replacen("x", "100", 1),
        &good.replacen("x", "-3", 1),
        &good.replacen("/", ",", 1),
        &good.replace(" w ", " z ").replace(" b ", " z "),
        &format!("{} - - 0 0 b 0", good.split(' ').next().unwrap()),
        &format!("{} - - 9999 0 w 0", good.split(' ').next().unwrap()),
        &format!("{} k1 - 0 0 w 2", good.split(' ').next().unwrap()),
        &format!("{} a1 a1 0 0 w 2", good.split(' ').next().unwrap()),
    ];
    for fen in broken {
        assert!(Cavalo::from_fen(fen, &Rules::default()).is_err(), "{fen}");
    }
    let start = Cavalo::start(&Rules::default()).to_fen();
    let value = start.split(['/', ','].as_ref()).next().unwrap();
    let twice = start.replacen(&format!("{value},"), &format!("{value},{value},"), 1);
    assert!(Cavalo::from_fen(&twice, &Rules::default()).is_err());
    let knight_on_value = start.replace(" - - 0 0 w 0", " a1 - 0 0 b 1");
    assert!(Cavalo::from_fen(&knight_on_value, &Rules::default()).is_err());
}

#[test]
fn start_position_comes_from_the_board_seed() {
    let position = Cavalo::start(&Rules::default());
    let fen = position.to_fen();
    assert!(fen.ends_with(" - - 0 0 w 0"));
    let again = Cavalo::start(&Rules::default());
    assert_eq!(again.to_fen(), fen);
    let other = Cavalo::start(&Rules {
        board_seed: 1,
        ..Rules::default()
    });
    assert_ne!(other.to_fen(), fen);
    assert_ne!(other.hash(), position.hash());
    let values = board::generate_board(0);
    for (cell_index, value) in values.iter().enumerate() {
        assert_eq!(position.value(cell_index as u8), Some(*value));
    }
}

#[test]
fn equal_positions_hash_equal_and_score_difference_matters() {
    let a = fen_with(&[("c4", "5")], ("a1", "j10"), (30, 10), 'w');
    let b = fen_with(&[("c4", "5")], ("a1", "j10"), (40, 20), 'w');
    let c = fen_with(&[("c4", "5")], ("a1", "j10"), (40, 10), 'w');
    let hash = |fen: &str| Cavalo::from_fen(fen, &Rules::default()).unwrap().hash();
    assert_eq!(hash(&a), hash(&b));
    assert_ne!(hash(&a), hash(&c));
    assert_ne!(hash(&a), hash(&a.replace(" w ", " b ")));
}

#[test]
fn bad_moves_are_rejected_by_the_parser() {
    let position = Cavalo::start(&Rules::default());
    for bad in ["", "z9", "e11", "e5/", "/e5", "e5/zz", "e5/h2/c3", "passs"] {
        assert!(position.parse_move(bad).is_err(), "{bad}");
    }
    assert_eq!(position.parse_move("PASS"), Ok(Move::PASS));
    assert_eq!(cell_name(cell("j10")), "j10");
    assert_eq!(Move::jump(3).removes, NO_CELL);
}

/// Counts from scripts/cavalo-perft-reference.py, an independent plain
/// enumerator of the same rules.
#[test]
fn perft_matches_the_reference_enumerator() {
    let cases: [(Rules, &[u64]); 4] = [
        (
            Rules::default(),
            &[1, 8, 100, 1072, 5880, 36996, 180672, 904478],
        ),
        (
            Rules {
                board_seed: 1,
                placement: Placement::Choose,
                ..Rules::default()
            },
            &[10, 167, 759, 4431, 24175, 199055, 1078419],
        ),
        (
            Rules {
                board_seed: 2,
                ..Rules::seed_conventions()
            },
            &[1, 1, 11, 32, 170, 1605, 11391],
        ),
        (
            Rules {
                board_seed: 3,
                placement: Placement::Choose,
                first_mover: Player::P2,
                ..Rules::default()
            },
            &[17, 170, 1060, 4567, 27716, 190170],
        ),
    ];
    for (rules, expected) in cases {
        let mut position = Cavalo::start(&rules);
        let counts: Vec<u64> = (1..=expected.len() as u32)
            .map(|depth| perft(&mut position, depth))
            .collect();
        assert_eq!(counts, expected, "{rules:?}");
    }
}

/// Best difference of future gains for the side to move, by plain minimax
/// over every legal move: the yardstick for the endgame solver.
fn brute_force_future(position: &mut Cavalo) -> i32 {
    let moves = legal(position);
    if moves.is_empty() {
        return 0;
    }
    moves
        .into_iter()
        .map(|mv| {
            let gain = if mv.is_pass() {
                0
            } else {
                position.landing_effects(mv).0
            };
            position.make_move(mv);
            let rest = brute_force_future(position);
            position.unmake_move(mv);
            gain - rest
        })
        .max()
        .unwrap_or(0)
}

/// On each board, the first position of a random game whose knights can
/// reach at most `cells` cells together: small enough to brute-force.
pub(crate) fn random_small_endgames(
    seed: u64,
    boards: impl Iterator<Item = Rules>,
    cells: u32,
) -> Vec<Cavalo> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut found = Vec::new();
    for rules in boards {
        let mut position = Cavalo::start(&rules);
        while position.outcome().is_none() {
            if endgame::contested_cells(&position, cells).is_some() && !position.in_placement() {
                found.push(position);
                break;
            }
            position.generate_moves(&mut moves);
            let mv = moves[rng.gen_range(0..moves.len())];
            position.make_move(mv);
        }
    }
    found
}

#[test]
fn the_endgame_solver_agrees_with_plain_minimax() {
    let boards = (0..16).map(|board_seed| Rules {
        board_seed,
        attack_rule: board_seed % 3 != 0,
        ..Rules::default()
    });
    let mut checked = 0;
    let (mut memo, no_deadline) = (endgame::EndgameMemo::default(), Deadline::default());
    let mut knowledge = CavaloKnowledge::default();
    for mut position in random_small_endgames(3, boards, 11) {
        let solved = endgame::solve(&position, &mut memo, &no_deadline);
        let solved = solved.expect("small enough to solve");
        assert_eq!(solved.future, brute_force_future(&mut position));
        let fen = position.to_fen();
        let forced = knowledge.forced_result(&mut position);
        let scores = position.scores();
        let mover = position.side_to_move().index();
        let final_difference = scores[mover] - scores[1 - mover] + solved.future;
        assert_eq!(
            forced.map(i32::signum),
            Some(final_difference.signum()).filter(|&s| s != 0)
        );
        assert_eq!(position.to_fen(), fen);
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} endgames checked");
}

#[test]
fn an_endgame_solve_stops_at_the_deadline_and_is_tried_again_later() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let boards = (900..916).map(Rules::on_board);
    let mut cut_short = 0;
    let stopped = Deadline::new(None, Arc::new(AtomicBool::new(true)));
    let mut memo = endgame::EndgameMemo::default();
    for position in random_small_endgames(11, boards, endgame::SOLVE_REGION_CELLS) {
        if endgame::solve(&position, &mut memo, &stopped).is_some() {
            continue; // already in the memo
        }
        cut_short += 1;
        let solved = endgame::solve(&position, &mut memo, &Deadline::default());
        assert!(solved.is_some(), "{}", position.to_fen());
    }
    assert!(cut_short >= 10, "only {cut_short} solves were cut short");
}

/// The deadline a search hands its knowledge is the one the endgame solver
/// respects, and a solve it cut short is tried again in the next search.
#[test]
fn the_knowledge_solves_endgames_within_the_searchs_deadline() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let boards = (900..916).map(Rules::on_board);
    let stopped = Deadline::new(None, Arc::new(AtomicBool::new(true)));
    let mut knowledge = CavaloKnowledge::default();
    let (mut positions, mut decided) = (0, 0);
    for mut position in random_small_endgames(11, boards, endgame::SOLVE_REGION_CELLS) {
        knowledge.prepare_search(&position, &stopped);
        assert_eq!(knowledge.forced_result(&mut position), None);
        knowledge.prepare_search(&position, &Deadline::default());
        let forced = knowledge.forced_result(&mut position);
        let solved = endgame::solve(
            &position,
            &mut endgame::EndgameMemo::default(),
            &Deadline::default(),
        );
        assert_eq!(forced, endgame_verdict_in_plies(&position, solved));
        positions += 1;
        decided += usize::from(forced.is_some());
    }
    assert!(positions >= 10 && decided >= 5, "{decided} of {positions}");
}

/// `forced_result`'s answer, from the solve's own figures.
fn endgame_verdict_in_plies(position: &Cavalo, solved: Option<endgame::Solved>) -> Option<i32> {
    let solved = solved?;
    let scores = position.scores();
    let mover = position.side_to_move().index();
    let plies = solved.plies.max(1) as i32;
    match (scores[mover] - scores[1 - mover] + solved.future).signum() {
        1 => Some(plies),
        -1 => Some(-plies),
        _ => None,
    }
}

#[test]
fn evaluation_terms_add_up_and_favour_the_free_knight() {
    // Same scores; White's knight on a1 is boxed in, Black's roams.
    let cells = [
        ("c2", "9"),
        ("e6", "50"),
        ("g7", "60"),
        ("f4", "70"),
        ("h3", "80"),
    ];
    let fen = fen_with(&cells, ("a1", "f8"), (100, 100), 'w');
    let position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    let mut knowledge = CavaloKnowledge::default();
    let terms = knowledge.eval_terms(&position);
    let total: i32 = terms.iter().map(|t| t.p1 - t.p2).sum();
    assert_eq!(knowledge.evaluate(&position), total);
    assert!(total < 0, "White is worse: {terms:?}");
    let black_to_move = Cavalo::from_fen(&fen.replace(" w 2", " b 2"), &Rules::default()).unwrap();
    assert!(knowledge.evaluate(&black_to_move) > 0);
}

#[test]
fn a_knight_with_no_cell_left_leaves_the_other_playing_alone() {
    let alone = |position: &Cavalo| {
        let terms = CavaloKnowledge::default().eval_terms(position);
        let term = terms.iter().find(|t| t.name == "playing alone").unwrap();
        (term.p1, term.p2)
    };
    // White on a1 has no cell a jump away: Black's knight on f8 reaches e6,
    // f4 and h3 (200 points) but not j10, and is credited a third of them.
    let mut cells = vec![("e6", "50"), ("f4", "70"), ("h3", "80"), ("j10", "90")];
    let fen = fen_with(&cells, ("a1", "f8"), (100, 100), 'b');
    let position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    assert_eq!(alone(&position), (0, 200 / 3));
    // With one cell to jump to, White is not out yet, even if that cell is
    // denied to it for now.
    cells.push(("c2", "9"));
    let fen = fen_with(&cells, ("a1", "f8"), (100, 100), 'b');
    let position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    assert_eq!(alone(&position), (0, 0));
}

#[test]
fn the_player_moving_with_the_knights_on_opposite_colours_is_credited() {
    let parity = |fen: &str, rules: &Rules| {
        let position = Cavalo::from_fen(fen, rules).unwrap();
        let terms = CavaloKnowledge::default().eval_terms(&position);
        let term = terms.iter().find(|t| t.name == "colour parity").unwrap();
        (term.p1, term.p2)
    };
    let rules = Rules::default();
    // e4 and e6 share a colour: whoever moves lands where the other knight
    // may deny it, so the other player is credited, 2 points for each of
    // the 5 cells on the board.
    let cells = [
        ("c3", "10"),
        ("g3", "20"),
        ("c7", "30"),
        ("g7", "40"),
        ("a1", "50"),
    ];
    let same = fen_with(&cells, ("e4", "e6"), (0, 0), 'w');
    assert_eq!(parity(&same, &rules), (0, 10));
    assert_eq!(parity(&same.replace(" w 2", " b 2"), &rules), (10, 0));
    // e4 and e5 do not: the side to move is credited (6 cells, with c6 for
    // Black to jump to).
    let mut six = cells.to_vec();
    six.push(("c6", "60"));
    let opposite = fen_with(&six, ("e4", "e5"), (0, 0), 'w');
    assert_eq!(parity(&opposite, &rules), (12, 0));
    assert_eq!(parity(&opposite.replace(" w 2", " b 2"), &rules), (0, 12));
    // White on b3 can only jump to c5, which Black's knight on d7 (the
    // same colour) attacks: White will pass, after which White moves with
    // the knights on opposite colours, and is credited.
    let blocked = fen_with(&[("c5", "10"), ("e5", "20")], ("b3", "d7"), (0, 0), 'w');
    assert_eq!(parity(&blocked, &rules), (4, 0));
    // Without the attack rule no landing is ever denied: no credit.
    let no_attack = Rules {
        attack_rule: false,
        ..Rules::default()
    };
    assert_eq!(parity(&same, &no_attack), (0, 0));
}

#[test]
fn move_ordering_tries_the_richer_landing_first() {
    let cells = [("d3", "40"), ("f3", "91"), ("g2", "12")];
    let fen = fen_with(&cells, ("e1", "a10"), (0, 0), 'w');
    let position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    let mut knowledge = CavaloKnowledge::default();
    let mut hint =
        |name: &str| knowledge.move_order_hint(&position, position.parse_move(name).unwrap());
    assert!(hint("f3") > hint("d3") && hint("d3") > hint("g2"));
    assert!(hint("g2") > 0);
}

/// The verdict of the final difference `mover - other` once the future is known.
fn verdict_of(position: &Cavalo, future: i32) -> exact::Verdict {
    let scores = position.scores();
    let mover = position.side_to_move().index();
    match (scores[mover] - scores[1 - mover] + future).signum() {
        1 => exact::Verdict::Win,
        0 => exact::Verdict::Draw,
        _ => exact::Verdict::Loss,
    }
}

#[test]
fn the_exact_solver_agrees_with_plain_minimax_and_its_move_keeps_the_verdict() {
    let boards = (0..80).map(|board_seed| Rules {
        board_seed,
        attack_rule: board_seed % 3 != 0,
        single_digit_symmetric: board_seed % 4 != 1,
        ..Rules::default()
    });
    let mut checked = 0;
    let mut verdicts = std::collections::HashSet::new();
    let mut table = exact::BoundsTable::default();
    for mut position in random_small_endgames(11, boards, 12) {
        let fen = position.to_fen();
        let future = brute_force_future(&mut position);
        let truth = verdict_of(&position, future);
        let solution =
            exact::solve(&position, &mut table, exact::Limit::Nodes(1 << 30)).expect("solved");
        let (verdict, mv) = (solution.verdict, solution.best_move);
        assert_eq!(verdict, truth, "{fen}");
        assert_eq!(position.to_fen(), fen);
        verdicts.insert(format!("{verdict:?}"));
        // The move proves the verdict: after it, the other side's best
        // result is the mirror image.
        if verdict != exact::Verdict::Loss {
            position.make_move(mv);
            let future = brute_force_future(&mut position);
            let reply = verdict_of(&position, future);
            let mirrored = match verdict {
                exact::Verdict::Win => exact::Verdict::Loss,
                _ => exact::Verdict::Draw,
            };
            assert_eq!(reply, mirrored, "{fen} then {}", position.format_move(mv));
        }
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} endgames checked");
    assert!(verdicts.len() >= 2, "only {verdicts:?} seen");
}

#[test]
fn the_exact_solver_gives_up_at_its_limit_and_leaves_the_position_alone() {
    let mut position = Cavalo::start(&Rules::default());
    for mv in ["f1", "g10", "e3"] {
        let mv = position.parse_move(mv).unwrap();
        position.make_move(mv);
    }
    let fen = position.to_fen();
    let mut visited = 0;
    let mut table = exact::BoundsTable::default();
    let limit = exact::Limit::Nodes(2_000);
    assert_eq!(
        exact::solve_counting(&position, &mut table, limit, &mut visited),
        None
    );
    // The nodes spent on a failed solve still count for the search's figures.
    assert!((2_000..3_000).contains(&visited), "{visited} nodes");
    assert_eq!(position.to_fen(), fen);
    assert_eq!(
        exact::solve(
            &Cavalo::start(&Rules::default()),
            &mut table,
            exact::Limit::Nodes(1 << 30)
        ),
        None,
        "no solve in the placements"
    );
}

#[test]
fn a_timed_search_plays_the_proven_win_at_once() {
    // White to move, 20 ahead: Black's knight can only ever take 4 more.
    let cells = [("c2", "30"), ("b3", "5"), ("g7", "4")];
    let fen = fen_with(&cells, ("a1", "h9"), (120, 100), 'w');
    let position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    let mut table = exact::BoundsTable::default();
    let solution = exact::solve(&position, &mut table, exact::Limit::Nodes(10_000)).unwrap();
    assert_eq!(solution.verdict, exact::Verdict::Win);
    assert!(solution.nodes > 0);

    let mut engine = crate::engine::Engine::<Cavalo, CavaloKnowledge>::new();
    engine.set_position(Some(&fen), &[]).unwrap();
    let limits = crate::engine::SearchLimits {
        movetime: Some(std::time::Duration::from_millis(500)),
        ..Default::default()
    };
    let result = engine.start_search(limits, Box::new(|_| {})).wait();
    assert!(
        result.score >= crate::core::MATE_BOUND,
        "score {}",
        result.score
    );
    assert_eq!(result.depth, 1, "the solver's answer, not an iteration's");
    assert!(result.best_move.is_some());
}

#[test]
fn the_search_tries_one_removal_of_the_doubles_no_knight_can_reach() {
    // Landing on c2 (44) removes another double: d4 is within reach, j1 and
    // j5 are cut off from both knights, so removing either changes nothing.
    let cells = [
        ("c2", "44"),
        ("d4", "55"),
        ("j1", "11"),
        ("j5", "22"),
        ("b7", "9"),
    ];
    let fen = fen_with(&cells, ("e1", "a9"), (0, 0), 'w');
    let position = Cavalo::from_fen(&fen, &Rules::default()).unwrap();
    let mut legal = Vec::new();
    position.generate_moves(&mut legal);
    let mut searched = Vec::new();
    CavaloKnowledge::default().search_moves(&position, &mut searched);
    let names = |moves: &[Move]| {
        let mut names: Vec<String> = moves.iter().map(|&m| position.format_move(m)).collect();
        names.sort();
        names
    };
    assert_eq!(names(&legal), ["c2/d4", "c2/j1", "c2/j5"]);
    let kept = names(&searched);
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert_eq!(kept[0], "c2/d4");
}

#[test]
fn the_root_solver_is_tried_on_more_cells_the_more_time_it_has() {
    use std::time::Duration;
    let cells = |ms| exact::most_cells_to_try(Some(Duration::from_millis(ms)));
    // The solver's half of a 20 ms, 100 ms, 1 s and 10 s move (less 10 ms).
    assert_eq!(cells(5), 64);
    assert_eq!(cells(45), 70);
    assert_eq!(cells(495), 76);
    assert_eq!(cells(4995), 80);
    assert_eq!(exact::most_cells_to_try(None), 80);
    let mut previous = 0;
    for ms in 0..6000 {
        assert!(cells(ms) >= previous, "{ms} ms");
        previous = cells(ms);
    }
}
