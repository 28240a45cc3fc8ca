//! The contract every `Game` must keep, checked on random games.
//!
//! The search trusts a game's rules blindly: a move that is not undone
//! exactly, or a key that drifts from the position it names, corrupts the
//! transposition table without a sound. `check_game_contract` plays random
//! games under the given rules and checks, at every position, what the
//! search relies on. Any game's test suite calls it; a new game gets the
//! same check by calling it with its rules.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::game::Game;

/// What one position looks like from outside: enough to tell whether a
/// make/unmake pair left it exactly as it was.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot<M> {
    fen: String,
    key: u64,
    moves: Vec<M>,
}

fn snapshot<G: Game>(position: &G) -> Snapshot<G::Move> {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    Snapshot {
        fen: position.to_fen(),
        key: position.hash(),
        moves,
    }
}

/// Plays `games` random games of at most `max_plies` plies from the start
/// position under `rules` and panics, naming the position, at the first
/// broken promise:
/// - make then unmake restores the FEN, the key and the legal moves, for
///   every legal move of every position visited;
/// - the incremental key equals the key of the same position read afresh
///   from its FEN, and the FEN reads back to itself;
/// - a finished position has no moves, and `count_moves` equals the number
///   `generate_moves` gives;
/// - every legal move's notation parses back to the move;
/// - a pass (`make_null_move`, where the game has one) changes the key to
///   that of the position read afresh, and taking it back restores all;
/// - unmaking a whole game returns to the start.
///
/// Returns the number of positions checked.
pub fn check_game_contract<G: Game>(
    rules: &G::Rules,
    games: usize,
    max_plies: usize,
    seed: u64,
) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..games {
        let start = G::start_position(rules);
        let start_snapshot = snapshot(&start);
        let mut position = start;
        let mut played = Vec::new();
        loop {
            check_position(&mut position, rules);
            checked += 1;
            let moves = snapshot(&position).moves;
            if moves.is_empty() || played.len() >= max_plies {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            position.make_move(mv);
            played.push(mv);
        }
        while let Some(mv) = played.pop() {
            position.unmake_move(mv);
        }
        assert_eq!(
            snapshot(&position),
            start_snapshot,
            "unmaking a whole game did not return to the start"
        );
    }
    checked
}

fn check_position<G: Game>(position: &mut G, rules: &G::Rules) {
    let before = snapshot(position);
    let fen = &before.fen;
    let fresh = G::from_fen(fen, rules)
        .unwrap_or_else(|e| panic!("the game's own FEN '{fen}' is refused: {e}"));
    assert_eq!(fresh.to_fen(), *fen, "FEN does not round-trip");
    assert_eq!(
        fresh.hash(),
        before.key,
        "incremental key differs from a fresh one at {fen}"
    );
    assert_eq!(
        position.count_moves(),
        before.moves.len() as u64,
        "count_moves differs from generate_moves at {fen}"
    );
    if position.outcome().is_some() {
        assert!(before.moves.is_empty(), "a finished game has moves: {fen}");
    }
    if position.make_null_move() {
        let passed = position.to_fen();
        let fresh = G::from_fen(&passed, rules)
            .unwrap_or_else(|e| panic!("the FEN after a pass '{passed}' is refused: {e}"));
        assert_eq!(fresh.hash(), position.hash(), "key after a pass at {fen}");
        position.unmake_null_move();
        assert_eq!(
            snapshot(position),
            before,
            "a pass was not taken back at {fen}"
        );
    }
    for &mv in &before.moves {
        let text = position.format_move(mv);
        assert_eq!(
            position.parse_move(&text),
            Ok(mv),
            "move '{text}' does not parse back at {fen}"
        );
        position.make_move(mv);
        position.unmake_move(mv);
        assert_eq!(
            snapshot(position),
            before,
            "make/unmake of '{text}' changed {fen}"
        );
    }
}

pub mod toy;

#[cfg(test)]
mod tests {
    use super::toy::{Pile, PileFlaws as Flaws};
    use super::*;
    use crate::core::game::MoveCode;

    #[test]
    fn a_sound_game_passes_and_every_position_is_checked() {
        // Nine stones, one or two a move: 5 to 9 positions a game.
        let checked = check_game_contract::<Pile>(&Flaws::default(), 3, 100, 1);
        assert!((15..=30).contains(&checked), "{checked}");
        assert_eq!(u16::from_code(7u16.to_code()), 7);
    }

    #[test]
    #[should_panic(expected = "make/unmake")]
    fn an_unmake_that_forgets_is_caught() {
        let flaws = Flaws {
            forget_to_unmake: true,
            ..Flaws::default()
        };
        check_game_contract::<Pile>(&flaws, 1, 100, 1);
    }

    #[test]
    #[should_panic(expected = "incremental key")]
    fn a_key_that_drifts_from_the_position_is_caught() {
        let flaws = Flaws {
            key_drifts: true,
            ..Flaws::default()
        };
        check_game_contract::<Pile>(&flaws, 1, 100, 1);
    }

    #[test]
    fn the_rules_alone_give_an_engine_that_plays_the_win() {
        use crate::core::control::{mate_distance_in_moves, SearchControl, SearchSignals};
        use crate::core::knowledge::PlainKnowledge;
        use crate::core::search::{search, SearchTables};

        // Eight stones: taking two leaves a multiple of three, a lost pile.
        let pile = Pile::from_fen("8 1", &Flaws::default()).expect("a valid pile");
        let mut tables = SearchTables::<Pile>::new(1);
        let control = SearchControl {
            max_depth: 12,
            ..Default::default()
        };
        let signals = SearchSignals::default();
        let mut knowledge = [PlainKnowledge::default()];
        let result = search(
            pile,
            &mut knowledge,
            &mut tables,
            &signals,
            control,
            &[],
            &mut |_| {},
        );
        assert_eq!(result.best_move, Some(2));
        assert_eq!(mate_distance_in_moves(result.score), Some(3));
    }
}
