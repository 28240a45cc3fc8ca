//! Positions for the compliance checks, judged with the project's own
//! rules: random games, the `position` command, legal moves, the result.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::core::{Game, Outcome, Player};
use crate::wire::ugi::Command;

/// A random legal game from the start, played to its end (or `max` plies).
pub(super) fn random_game<G: Game>(rules: &G::Rules, seed: u64, max: usize) -> (G, Vec<String>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut position = G::start_position(rules);
    let mut texts = Vec::new();
    let mut legal = Vec::new();
    while position.outcome().is_none() && texts.len() < max {
        position.generate_moves(&mut legal);
        let Some(&mv) = legal.choose(&mut rng) else {
            break;
        };
        texts.push(position.format_move(mv));
        position.make_move(mv);
    }
    (position, texts)
}

pub(super) fn position_command(moves: &[String]) -> String {
    let moves = moves.to_vec();
    Command::Position { fen: None, moves }.to_string()
}

/// The position after `moves` from the start, if every move parses.
pub(super) fn position_after<G: Game>(rules: &G::Rules, moves: &[String]) -> Option<G> {
    let mut position = G::start_position(rules);
    for text in moves {
        let mv = position.parse_move(text).ok()?;
        position.make_move(mv);
    }
    Some(position)
}

pub(super) fn is_legal<G: Game>(rules: &G::Rules, moves: &[String], answer: &str) -> bool {
    let Some(position) = position_after::<G>(rules, moves) else {
        return false;
    };
    position.parse_legal_move(answer).is_ok()
}

/// The legal moves after `moves`, as the game writes them; none when the
/// game is over there.
pub(super) fn legal_moves<G: Game>(rules: &G::Rules, moves: &[String]) -> Vec<String> {
    let Some(position) = position_after::<G>(rules, moves) else {
        return Vec::new();
    };
    if position.outcome().is_some() {
        return Vec::new();
    }
    let mut legal = Vec::new();
    position.generate_moves(&mut legal);
    legal
        .into_iter()
        .map(|mv| position.format_move(mv))
        .collect()
}

pub(super) fn expected_result(outcome: &Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(Player::P1)) => "p1win",
        Some(Outcome::Win(Player::P2)) => "p2win",
        Some(Outcome::Draw) => "draw",
        None => "none",
    }
}
