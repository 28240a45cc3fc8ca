//! Move ordering: the table move, the game's tactical hints, killers and a
//! history table with gravity, picked one move at a time.

use super::negamax::{Node, NodeKind};
use super::AlphaBetaKnowledge;
use super::Searcher;
use crate::core::game::Game;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum MoveKind {
    Table,
    Tactical,
    Killer,
    Quiet,
}

const HISTORY_LIMIT: i32 = 1 << 20;
/// Ordering keys, far apart so that one category never overtakes another.
const KEY_TABLE: i64 = 1 << 62;
const KEY_TACTICAL: i64 = 1 << 50;
const KEY_KILLER: i64 = 1 << 40;

impl<G: Game, K: AlphaBetaKnowledge<G>> Searcher<'_, G, K> {
    /// Old games' habits fade but are not forgotten.
    pub(super) fn decay_history(&mut self) {
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    pub(super) fn order_moves(
        &mut self,
        moves: &[G::Move],
        keys: &mut Vec<(i64, MoveKind)>,
        table_move: Option<G::Move>,
        ply: usize,
    ) {
        keys.clear();
        let killers = self.killers[ply];
        for &mv in moves {
            let key = if Some(mv) == table_move {
                (KEY_TABLE, MoveKind::Table)
            } else {
                let hint = self.knowledge.move_order_hint(&self.game, mv) as i64;
                let killer_rank = if Some(mv) == killers[0] {
                    Some(1)
                } else if Some(mv) == killers[1] {
                    Some(0)
                } else {
                    None
                };
                match (hint > 0, killer_rank) {
                    // Above every hinted move: a refutation found next door.
                    (true, Some(rank)) if self.control.hints_every_move => {
                        (KEY_TACTICAL + KEY_KILLER + rank, MoveKind::Killer)
                    }
                    (true, _) => (KEY_TACTICAL + hint, MoveKind::Tactical),
                    (false, Some(rank)) => (KEY_KILLER + rank, MoveKind::Killer),
                    (false, None) => {
                        let history =
                            self.history[self.knowledge.move_index(&self.game, mv)] as i64;
                        (history + hint, MoveKind::Quiet)
                    }
                }
            };
            keys.push(key);
        }
    }

    /// Whether a tactical move's ordering key carries a hint low enough
    /// (`lmr_tactical_below`) for the move to be reduced as a late quiet
    /// move is, though never pruned.
    pub(super) fn mildly_tactical(&self, key: i64) -> bool {
        self.control.params.reduces_tactical(key - KEY_TACTICAL)
    }

    pub(super) fn reward_quiet_move(
        &mut self,
        mv: G::Move,
        depth: i32,
        ply: usize,
        tried_before: &[G::Move],
    ) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let index = self.knowledge.move_index(&self.game, mv);
        add_history(&mut self.history[index], bonus);
        for &worse in tried_before {
            let index = self.knowledge.move_index(&self.game, worse);
            add_history(&mut self.history[index], -bonus);
        }
    }

    /// Plies the `index`th move, a quiet one, is searched less deep; its
    /// history is read (before it is made) only when the parameters ask.
    pub(super) fn late_move_reduction(&self, node: Node, index: usize, mv: G::Move) -> i32 {
        let (depth, ply) = (node.depth, node.ply);
        let params = &self.control.params;
        let history = match params.lmr_history_divisor {
            0 => 0,
            _ => self.history[self.knowledge.move_index(&self.game, mv)],
        };
        let cut_node = node.kind == NodeKind::Cut;
        let reduction = params.late_move_reduction(depth, index as i32, history, cut_node);
        if reduction > 0 && params.lmr_worsening > 0 && !self.improving(ply) {
            return (reduction + params.lmr_worsening).min(depth - 1);
        }
        reduction
    }
}

/// History with gravity: entries saturate instead of overflowing.
fn add_history(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_LIMIT;
}

/// Selection sort one step at a time: most nodes cut off after a move or two,
/// so sorting the whole list would be wasted work.
pub(super) fn pick_next<M: Copy>(
    moves: &mut [M],
    keys: &mut [(i64, MoveKind)],
    index: usize,
) -> (M, MoveKind) {
    let mut best = index;
    for i in index + 1..moves.len() {
        if keys[i].0 > keys[best].0 {
            best = i;
        }
    }
    moves.swap(index, best);
    keys.swap(index, best);
    (moves[index], keys[index].1)
}
