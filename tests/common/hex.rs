//! A plain Hex oracle for the tests of the engine's solvers.

use std::collections::HashMap;

use boardgames::core::Game;
use boardgames::games::hex::Hex;

/// Plain minimax over every legal move, memoised on the exact position,
/// with none of the engine's pruning or proofs: the reference the solver
/// is checked against.
pub fn brute_force_wins(hex: &mut Hex, memo: &mut HashMap<u64, bool>) -> bool {
    if hex.outcome().is_some() {
        // The player who just moved has won.
        return false;
    }
    // The plain key: the exact position and side to move, no symmetry.
    let key = hex.hash_key();
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let mut moves = Vec::new();
    hex.generate_moves(&mut moves);
    let mut wins = false;
    for mv in moves {
        hex.make_move(mv);
        let child = brute_force_wins(hex, memo);
        hex.unmake_move(mv);
        if !child {
            wins = true;
            break;
        }
    }
    memo.insert(key, wins);
    wins
}
