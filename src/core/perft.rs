//! Move-generation counts, the yardstick for every game's rules.

use super::game::Game;

/// Which positions a count adds up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PerftCount {
    /// Every line, ended by the depth or by the game: a move that ends the
    /// game counts one at any depth (this project's counts, `go perft N`).
    #[default]
    GameEnds,
    /// Only positions exactly `depth` plies deep: a game over sooner adds
    /// nothing (chess programs' and OpenSpiel's counts, `go perft N strict`).
    Strict,
}

/// Leaf count of the move tree `depth` plies deep. A move that ends the game
/// is a leaf: nothing below it is expanded.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..=depth).map(|_| Vec::new()).collect();
    perft_inner(game, depth, &mut buffers)
}

/// The number of positions exactly `depth` plies deep (see
/// `PerftCount::Strict`).
pub fn perft_strict<G: Game>(game: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.outcome().is_some() {
        return 0;
    }
    if depth == 1 {
        return game.count_moves();
    }
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            game.make_move(mv);
            let count = perft_strict(game, depth - 1);
            game.unmake_move(mv);
            count
        })
        .sum()
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
pub fn perft_divide<G: Game>(game: &mut G, depth: u32, count: PerftCount) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    if depth == 0 || game.outcome().is_some() {
        return Vec::new();
    }
    game.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            game.make_move(mv);
            let leaves = match count {
                PerftCount::Strict => perft_strict(game, depth - 1),
                PerftCount::GameEnds if game.outcome().is_some() => 1,
                PerftCount::GameEnds => perft(game, depth - 1),
            };
            game.unmake_move(mv);
            (mv, leaves)
        })
        .collect()
}
