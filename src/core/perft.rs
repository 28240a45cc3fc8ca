//! Move-generation counts, the yardstick for every game's rules.

use super::game::Game;

/// Leaf count of the move tree `depth` plies deep. A move that ends the game
/// is a leaf: nothing below it is expanded.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..=depth).map(|_| Vec::new()).collect();
    perft_inner(game, depth, &mut buffers)
}

fn perft_inner<G: Game>(game: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.outcome().is_some() {
        return 0;
    }
    if depth == 1 {
        return game.count_moves();
    }
    let (moves, rest) = match buffers.split_first_mut() {
        Some(split) => split,
        None => return 0,
    };
    game.generate_moves(moves);
    let mut total = 0;
    for &mv in moves.iter() {
        game.make_move(mv);
        total += if game.outcome().is_some() {
            1
        } else {
            perft_inner(game, depth - 1, rest)
        };
        game.unmake_move(mv);
    }
    total
}

/// Per-root-move counts, as `go perft` prints them.
pub fn perft_divide<G: Game>(game: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    if depth == 0 || game.outcome().is_some() {
        return Vec::new();
    }
    game.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            game.make_move(mv);
            let count = if game.outcome().is_some() {
                1
            } else {
                perft(game, depth - 1)
            };
            game.unmake_move(mv);
            (mv, count)
        })
        .collect()
}
