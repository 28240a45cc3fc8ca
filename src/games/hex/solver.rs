//! An exact solver for small boards, used where the shared search alone is
//! too slow to prove a result: the positions where White may still swap.
//!
//! Under the pie rule every first stone on a small board loses (White
//! either swaps or plays on), so proving the start position means proving
//! every ply-1 position lost for Black. An iterative-deepening alpha-beta
//! needs the whole game length as depth for that; a depth-first AND/OR
//! proof search with a transposition table, the engine's pruning (dead
//! cells, the carrier of an opponent's threat) and virtual-connection
//! leaves proves each one directly.

use super::board::{Hex, HexMove};
use super::knowledge::HexKnowledge;
use crate::core::{Game, Knowledge};
use std::collections::HashMap;

/// Boards up to this side are solved at the swap decision.
pub const SOLVE_MAX_SIZE: usize = 5;

/// Nodes one call may visit before it gives up on a position too hard for it.
const NODE_BUDGET: u64 = 3_000_000;
/// How often (in nodes) the solver looks at the search's deadline, so that
/// `stop` and `movetime` are honoured while it works.
const DEADLINE_CHECK_INTERVAL: u64 = 256;

/// A proven value for the side to move: whether it wins, and in how many
/// plies at most (the length of the proof found, not always the shortest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof {
    pub win: bool,
    pub plies: u32,
    /// The winning move of a won position.
    pub best: Option<HexMove>,
}

/// Proven positions, keyed by `Game::hash` (which tells swap-legal positions
/// apart), kept in the knowledge for the length of one search.
#[derive(Clone, Debug, Default)]
pub struct SolverCache {
    proven: HashMap<u64, Proof>,
    /// Roots the solver gave up on, not to be tried again in this search.
    failed: HashMap<u64, ()>,
}

/// A result this search's solver calls already proved, if any: the
/// positions inside its proofs, which the search meets again.
pub fn cached(knowledge: &HexKnowledge, hex: &Hex) -> Option<Proof> {
    knowledge.solver_cache.proven.get(&hex.hash()).copied()
}

/// Solves `hex` for the side to move within the node budget and the
/// deadline of `knowledge`'s search, remembering the proofs in it.
pub fn solve(knowledge: &mut HexKnowledge, hex: &Hex) -> Option<Proof> {
    let key = hex.hash();
    let mut cache = std::mem::take(&mut knowledge.solver_cache);
    let result = if let Some(&proof) = cache.proven.get(&key) {
        Some(proof)
    } else if cache.failed.contains_key(&key) {
        None
    } else {
        let mut nodes = 0;
        // The proof plays its moves on a copy: the search only lends it
        // the position.
        let result = prove(knowledge, &mut hex.clone(), &mut cache.proven, &mut nodes);
        if result.is_none() {
            cache.failed.insert(key, ());
        }
        result
    };
    knowledge.solver_cache = cache;
    result
}

fn prove(
    knowledge: &mut HexKnowledge,
    hex: &mut Hex,
    table: &mut HashMap<u64, Proof>,
    nodes: &mut u64,
) -> Option<Proof> {
    if hex.winner().is_some() {
        // The player who just moved has won.
        return Some(Proof {
            win: false,
            plies: 0,
            best: None,
        });
    }
    let key = hex.hash();
    if let Some(&proof) = table.get(&key) {
        return Some(proof);
    }
    *nodes += 1;
    if *nodes > NODE_BUDGET
        || (nodes.is_multiple_of(DEADLINE_CHECK_INTERVAL) && knowledge.deadline.passed())
    {
        return None;
    }
    if let Some(plies) = knowledge.quick_result(hex) {
        let proof = Proof {
            win: plies > 0,
            plies: plies.unsigned_abs(),
            best: None,
        };
        table.insert(key, proof);
        return Some(proof);
    }
    let mut moves = Vec::new();
    // Not `Knowledge::search_moves`, which would call the solver again.
    knowledge.unsolved_search_moves(hex, &mut moves);
    // Most promising first: a proof needs one winning move, found early.
    let mut keyed: Vec<_> = moves
        .iter()
        .map(|&mv| (knowledge.move_order_hint(hex, mv), mv))
        .collect();
    keyed.sort_by_key(|&(hint, _)| std::cmp::Reverse(hint));
    let mut longest_loss = 0;
    let mut result = None;
    for (_, mv) in keyed {
        hex.make_move(mv);
        let child = prove(knowledge, hex, table, nodes);
        hex.unmake_move(mv);
        let child = child?;
        if !child.win {
            result = Some(Proof {
                win: true,
                plies: child.plies + 1,
                best: Some(mv),
            });
            break;
        }
        longest_loss = longest_loss.max(child.plies + 1);
    }
    // Every move (of those not provably inferior) loses.
    let proof = result.unwrap_or(Proof {
        win: false,
        plies: longest_loss,
        best: None,
    });
    table.insert(key, proof);
    Some(proof)
}
