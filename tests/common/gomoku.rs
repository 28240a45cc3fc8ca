//! A threat proof played out: the attacker's move found afresh at each of
//! its turns, answered with every legal defence.

use std::ops::Range;

use boardgames::core::{Game, Knowledge, Outcome, Player};
use boardgames::games::gomoku::{Gomoku, GomokuKnowledge, GomokuRules, Move};
use rand::rngs::SmallRng;
use rand::Rng;

/// Plays the attacker's win, found afresh by `find` at each of its turns
/// and checked legal (under Renju, not forbidden), and answers it with every legal defence, recursively: true when every
/// line ends in the attacker's five within `turns` moves of the attacker.
pub fn win_holds(
    game: &mut Gomoku,
    knowledge: &mut GomokuKnowledge,
    attacker: Player,
    turns: u32,
    find: Finder,
) -> bool {
    if turns == 0 {
        return false;
    }
    let Some((mv, _)) = find(knowledge, game) else {
        return false;
    };
    let mut legal = Vec::new();
    game.generate_moves(&mut legal);
    assert!(
        legal.contains(&mv),
        "illegal {} in {}",
        game.format_move(mv),
        game.to_fen()
    );
    game.make_move(mv);
    let result = match game.outcome() {
        Some(Outcome::Win(winner)) => winner == attacker,
        Some(Outcome::Draw) => false,
        None => {
            let mut defences = Vec::new();
            game.generate_moves(&mut defences);
            defences.iter().all(|&defence| {
                game.make_move(defence);
                let holds = game.outcome().is_none()
                    && win_holds(game, knowledge, attacker, turns - 1, find);
                game.unmake_move(defence);
                holds
            })
        }
    };
    game.unmake_move(mv);
    result
}

pub type Finder = fn(&mut GomokuKnowledge, &mut Gomoku) -> Option<(Move, i32)>;

/// A game from the centre stone with a number of random moves drawn from
/// `plies`, each among the moves the search would consider (fewer if the
/// game ends first).
pub fn random_game(rng: &mut SmallRng, plies: Range<usize>) -> Gomoku {
    let mut game = Gomoku::start_position(&GomokuRules::default());
    let centre = game.parse_move("h8").expect("h8 is on the board");
    game.make_move(centre);
    let mut moves = Vec::new();
    let mut knowledge = GomokuKnowledge::default();
    for _ in 0..rng.gen_range(plies) {
        knowledge.search_moves(&game, &mut moves);
        if game.outcome().is_some() || moves.is_empty() {
            break;
        }
        game.make_move(moves[rng.gen_range(0..moves.len())]);
    }
    game
}
