//! The search's knowledge under Renju: no move list offers Black a
//! forbidden point (checked with the brute force of tests/common/renju.rs),
//! Black's double fours are no threat, a forbidden block loses, and the VCF
//! and VCT proofs found in random Renju games, for either side, hold against
//! every legal defence, each attacker's move legal.

mod common;

use boardgames::core::search::AlphaBetaKnowledge;
use boardgames::core::{Deadline, Game, Knowledge, Player};
use boardgames::games::gomoku::board::{cell_of, coordinates, Rule};
use boardgames::games::gomoku::{Gomoku, GomokuKnowledge, GomokuRules, Move};
use common::gomoku::Finder;
use common::renju::Grid;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn rules(rule: Rule) -> GomokuRules {
    GomokuRules { size: 15, rule }
}

fn fen(text: &str, rule: Rule) -> Gomoku {
    Gomoku::from_fen(text, &rules(rule)).expect("test position")
}

/// The brute force's picture of the position.
fn grid_of(game: &Gomoku) -> Grid {
    let mut grid = Grid::new(15);
    for y in 0..15 {
        for x in 0..15 {
            grid.set(x as i32, y as i32, game.board().stone(cell_of(x, y)));
        }
    }
    grid
}

fn assert_no_forbidden(game: &Gomoku, moves: &[Move], what: &str) {
    if game.side_to_move() != Player::P1 {
        return;
    }
    let mut grid = grid_of(game);
    for &mv in moves {
        let (x, y) = coordinates(mv as usize);
        assert!(
            !grid.is_forbidden(x as i32, y as i32),
            "{what} offers forbidden {} in {}",
            game.format_move(mv),
            game.to_fen()
        );
    }
}

/// A Renju game from the centre with 20 to 59 random moves of the search's
/// lists (fewer if it ends first), every list checked on the way.
fn random_renju_game(rng: &mut SmallRng) -> Gomoku {
    let mut game = Gomoku::start_position(&rules(Rule::Renju));
    let mut knowledge = GomokuKnowledge::default();
    let (mut moves, mut noisy) = (Vec::new(), Vec::new());
    for _ in 0..rng.gen_range(20..60) {
        knowledge.search_moves(&game, &mut moves);
        knowledge.noisy_moves(&game, &mut noisy);
        assert_no_forbidden(&game, &moves, "search_moves");
        assert_no_forbidden(&game, &noisy, "noisy_moves");
        if game.outcome().is_some() || moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        game.make_move(mv);
    }
    game
}

#[test]
fn the_move_lists_never_offer_a_forbidden_point() {
    let mut rng = SmallRng::seed_from_u64(23);
    for _ in 0..150 {
        random_renju_game(&mut rng);
    }
}

fn vcf(knowledge: &mut GomokuKnowledge, game: &mut Gomoku) -> Option<(Move, i32)> {
    knowledge.find_vcf(game, 1_000_000)
}

fn vct(knowledge: &mut GomokuKnowledge, game: &mut Gomoku) -> Option<(Move, i32)> {
    knowledge.find_vct(game, 1_000_000, &Deadline::default())
}

/// The attacker's win holds against every defence (`common::gomoku`),
/// with the side to move attacking.
fn win_holds(game: &mut Gomoku, knowledge: &mut GomokuKnowledge, turns: u32, find: Finder) -> bool {
    let attacker = game.side_to_move();
    common::gomoku::win_holds(game, knowledge, attacker, turns, find)
}

#[test]
fn wins_found_in_random_renju_games_hold() {
    let mut rng = SmallRng::seed_from_u64(31);
    let (mut fours, mut threats) = ([0; 2], [0; 2]);
    for _ in 0..200 {
        let mut game = random_renju_game(&mut rng);
        if game.outcome().is_some() {
            continue;
        }
        let side = game.side_to_move().index();
        let mut knowledge = GomokuKnowledge::default();
        if let Some((_, plies)) = knowledge.find_vcf(&mut game, 20_000) {
            let turns = (plies as u32).div_ceil(2);
            assert!(
                win_holds(&mut game, &mut knowledge, turns, vcf),
                "{}",
                game.to_fen()
            );
            fours[side] += 1;
            continue;
        }
        let found = knowledge.find_vct(&mut game, 20_000, &Deadline::default());
        if let Some((_, plies)) = found.filter(|&(_, plies)| plies <= 7) {
            let turns = (plies as u32).div_ceil(2);
            assert!(
                win_holds(&mut game, &mut knowledge, turns, vct),
                "{}",
                game.to_fen()
            );
            threats[side] += 1;
        }
    }
    assert!(fours[0] >= 3 && fours[1] >= 3, "VCFs found: {fours:?}");
    assert!(
        threats[0] >= 2 && threats[1] >= 2,
        "short VCTs found: {threats:?}"
    );
}

/// Black d8 f8 h8 j8: g8 would be two fours in one line (B.BBB.B).
const ONE_LINE_DOUBLE_FOUR: &str = "15/15/15/15/15/15/15/3x1x1x1x5/15/15/15/15/15/15/o13o x";

#[test]
fn a_double_four_is_a_win_in_freestyle_and_no_threat_in_renju() {
    let mut free = fen(ONE_LINE_DOUBLE_FOUR, Rule::Freestyle);
    assert_eq!(GomokuKnowledge::default().forced_result(&mut free), Some(3));
    let mut renju = fen(ONE_LINE_DOUBLE_FOUR, Rule::Renju);
    let mut knowledge = GomokuKnowledge::default();
    assert_eq!(knowledge.forced_result(&mut renju), None);
    assert_eq!(knowledge.find_vcf(&mut renju, 100_000), None);
    // White to move need not stop what Black may not play.
    let white = ONE_LINE_DOUBLE_FOUR.replace(" x", " o");
    let mut moves = Vec::new();
    knowledge.search_moves(&fen(&white, Rule::Renju), &mut moves);
    assert!(moves.len() > 20, "White is held to {} moves", moves.len());
}

/// Black f8 g8 h9 h10 (h8 a double three) and c3; White d4 e5 f6 g7, whose
/// five is h8 alone.
const FORBIDDEN_BLOCK: &str = "15/15/15/15/15/7x7/7x7/5xx8/6o8/5o9/4o10/3o11/2x12/15/15 x";

#[test]
fn a_five_blocked_only_on_a_forbidden_point_is_lost() {
    let mut game = fen(FORBIDDEN_BLOCK, Rule::Renju);
    let h8 = cell_of(7, 7) as Move;
    let mut knowledge = GomokuKnowledge::default();
    assert_eq!(knowledge.forced_result(&mut game), Some(-2));
    let mut moves = Vec::new();
    knowledge.search_moves(&game, &mut moves);
    assert!(!moves.is_empty() && !moves.contains(&h8));
    // In freestyle Black blocks there.
    knowledge.search_moves(&fen(FORBIDDEN_BLOCK, Rule::Freestyle), &mut moves);
    assert_eq!(moves, [h8]);
}
