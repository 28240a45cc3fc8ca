//! Each game says why a move is illegal in its own words (through
//! `Game::illegal_reason`), which the board shows for a refused click.

use boardgames::core::{Game, MoveError};
use boardgames::games::breakthrough::Breakthrough;
use boardgames::games::cavalo::board::cell_name;
use boardgames::games::cavalo::Cavalo;
use boardgames::games::gomoku::Gomoku;
use boardgames::games::hex::Hex;
use boardgames::referee::tournament::build_rules;

fn start<G: Game>(rules: &[(&str, &str)], moves: &[&str]) -> G {
    let options: Vec<(String, String)> = rules
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
    let rules = build_rules::<G>(&options).expect("valid rules");
    let mut position = G::start_position(&rules);
    for text in moves {
        let mv = position.parse_legal_move(text).expect("a legal move");
        position.make_move(mv);
    }
    position
}

/// The reason `text` is refused; panics if it is accepted or unreadable.
fn refusal<G: Game>(position: &G, text: &str) -> String {
    match position.parse_legal_move(text) {
        Err(MoveError::Illegal(why)) => why,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

#[test]
fn breakthrough_names_the_step_rule_and_the_pieces() {
    let position = start::<Breakthrough>(&[], &["b2b3", "g7g6"]);
    let step = refusal(&position, "b3b5");
    assert!(
        step.contains("one step forward or diagonally forward"),
        "{step}"
    );
    assert!(refusal(&position, "c2b3").contains("b3 holds one of your own pieces"));
    assert!(refusal(&position, "c4c5").contains("c4 is empty"));
    assert!(refusal(&position, "a7a6").contains("opponent's piece"));
    let position = start::<Breakthrough>(&[], &["a2a3", "a7a6", "a3a4", "a6a5"]);
    let straight = refusal(&position, "a4a5");
    assert!(straight.contains("captures only diagonally"), "{straight}");
}

#[test]
fn hex_names_occupied_cells_and_the_swap() {
    let position = start::<Hex>(&[("BoardSize", "5"), ("Swap", "false")], &["c3"]);
    assert_eq!(refusal(&position, "c3"), "cell c3 is occupied");
    assert!(refusal(&position, "swap").contains("without the swap"));
    let position = start::<Hex>(&[("BoardSize", "5")], &["c3", "a1"]);
    assert!(refusal(&position, "swap").contains("only White's first move"));
}

#[test]
fn gomoku_names_occupied_points_and_renju_forbidden_points() {
    let position = start::<Gomoku>(&[("BoardSize", "15")], &["h8"]);
    assert_eq!(refusal(&position, "h8"), "point h8 is occupied");
    // Two open threes cross at h8: forbidden to Black under Renju (the
    // game refuses it while reading it, with the reason).
    let moves = ["h7", "a1", "h9", "a3", "g8", "a5", "i8", "a7"];
    let position = start::<Gomoku>(&[("Rule", "renju")], &moves);
    match position.parse_legal_move("h8") {
        Err(why) => assert!(why.reason().contains("double three"), "{why:?}"),
        Ok(_) => panic!("h8 is a double three"),
    }
}

#[test]
fn cavalo_names_knight_moves_removed_cells_and_placement() {
    let rules = [("BoardSeed", "11")];
    let position = start::<Cavalo>(&rules, &[]);
    let mut legal = Vec::new();
    position.generate_moves(&mut legal);
    let placed = position.format_move(legal[0]);
    let elsewhere = if placed == "a1" { "j5" } else { "a5" };
    let placement = refusal(&position, elsewhere);
    assert!(placement.contains("starts on"), "{placement}");
    // Both knights placed and one jump each: the cells left are removed.
    let mut position = position;
    for _ in 0..4 {
        position.generate_moves(&mut legal);
        position.make_move(legal[0]);
    }
    let removed = (0..100u8)
        .find(|&cell| {
            position.value(cell).is_none()
                && position.knight(boardgames::core::Player::P1) != Some(cell)
                && position.knight(boardgames::core::Player::P2) != Some(cell)
        })
        .map(cell_name)
        .expect("a removed cell");
    let why = refusal(&position, &removed);
    assert_eq!(why, format!("cell {removed} is removed"));
    let knight = position
        .knight(position.side_to_move())
        .expect("a knight on the board");
    let far = (0..100u8)
        .find(|&cell| {
            let (dr, dc) = (
                (i32::from(cell / 10) - i32::from(knight / 10)).abs(),
                (i32::from(cell % 10) - i32::from(knight % 10)).abs(),
            );
            let attacked = position.denied_to(position.side_to_move()) & (1u128 << cell) != 0;
            position.value(cell).is_some() && dr + dc > 3 && !attacked
        })
        .map(cell_name)
        .expect("a far cell");
    let why = refusal(&position, &far);
    assert!(why.contains("is not a knight's move from"), "{why}");
}
