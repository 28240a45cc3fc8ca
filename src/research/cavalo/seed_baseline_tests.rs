//! Tests of the seed program's player: it plays the best move of its own
//! tree when it has time to finish, and as written it replays the seed
//! program's logged game.

use super::seed_baseline::{seed_move, SeedDepth, SeedEvaluation};
use crate::core::{Game, Player};
use crate::games::cavalo::tests::{legal, play, random_small_endgames, seed_board_fen, seed_moves};
use crate::games::cavalo::{Cavalo, Move, Rules};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The seed's view of a position's value for `root`: p1 - p2 at the end
/// of the line, where a side that cannot jump ends it (the seed searched no
/// passes).
fn seed_tree_value(position: &mut Cavalo, root: Player) -> i32 {
    let moves: Vec<Move> = legal(position)
        .into_iter()
        .filter(|m| !m.is_pass())
        .collect();
    if moves.is_empty() {
        let scores = position.scores();
        return scores[root.index()] - scores[root.other().index()];
    }
    let maximizing = position.side_to_move() == root;
    let values = moves.into_iter().map(|mv| {
        position.make_move(mv);
        let value = seed_tree_value(position, root);
        position.unmake_move(mv);
        value
    });
    if maximizing {
        values.max().unwrap_or(0)
    } else {
        values.min().unwrap_or(0)
    }
}

#[test]
fn the_seed_baseline_with_time_to_finish_plays_its_trees_best_move() {
    use std::time::Duration;
    let boards = (20..60).map(Rules::on_board);
    let mut checked = 0;
    for mut position in random_small_endgames(5, boards, 12) {
        let root = position.side_to_move();
        let best = seed_tree_value(&mut position, root);
        for depth in [SeedDepth::SinglePass, SeedDepth::Deepening] {
            let time = Duration::from_secs(10);
            let mv = seed_move(&position, time, SeedEvaluation::Difference, depth)
                .expect("the game is not over");
            if mv.is_pass() {
                continue;
            }
            position.make_move(mv);
            let value = seed_tree_value(&mut position, root);
            position.unmake_move(mv);
            assert_eq!(value, best, "{depth:?} in {}", position.to_fen());
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} positions checked");
}

/// The seed's Lisp as written. Its choice does not depend on its clock (see
/// `smallest_difference_jump`), so a short time keeps the tests quick.
fn seed_lisp_move(position: &Cavalo) -> Option<Move> {
    let time = std::time::Duration::from_millis(30);
    seed_move(
        position,
        time,
        SeedEvaluation::AbsoluteDifference,
        SeedDepth::AsWritten,
    )
}

/// The jump the seed's Lisp plays, by what `SeedDepth::AsWritten` reduces
/// to: of the jumps leaving the smallest |p1 - p2|, the last generated.
fn smallest_difference_jump(position: &mut Cavalo) -> Option<Move> {
    let mut best: Option<(i32, Move)> = None;
    for mv in legal(position).into_iter().filter(|m| !m.is_pass()) {
        position.make_move(mv);
        let [white, black] = position.scores();
        position.unmake_move(mv);
        let f = (white - black).abs();
        if best.is_none_or(|(least, _)| f <= least) {
            best = Some((f, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

#[test]
fn the_seed_lisp_as_written_plays_the_seed_programs_moves_in_its_logged_game() {
    let mut position = Cavalo::from_fen(&seed_board_fen(), &Rules::seed_conventions()).unwrap();
    let mut checked = 0;
    let mut greedy_differs = 0;
    for (side, text, _, _) in seed_moves() {
        if side == Player::P1 && text != "pass" && !position.in_placement() {
            let mv = seed_lisp_move(&position).expect("the game is not over");
            assert_eq!(position.format_move(mv), text, "in {}", position.to_fen());
            let most_points = legal(&position)
                .into_iter()
                .max_by_key(|&m| position.landing_effects(m).0);
            if most_points != Some(mv) {
                greedy_differs += 1;
            }
            checked += 1;
        }
        play(&mut position, &text).unwrap();
    }
    assert_eq!(checked, 8);
    // Three of them (d4, e4, d2) are not the jump that scores most.
    assert_eq!(greedy_differs, 3);
}

#[test]
fn the_seed_lisp_as_written_plays_the_jump_leaving_the_smallest_difference() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut checked = 0;
    for board in 0..12 {
        let mut position = Cavalo::start(&Rules::on_board(board));
        let plies = rng.gen_range(2..30);
        for _ in 0..plies {
            let moves = legal(&position);
            if moves.is_empty() {
                break;
            }
            position.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        let jumps = legal(&position).iter().filter(|m| !m.is_pass()).count();
        if position.outcome().is_some() || position.in_placement() || jumps < 2 {
            continue;
        }
        let played = seed_lisp_move(&position);
        assert_eq!(played, smallest_difference_jump(&mut position));
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} positions");
}
