//! Incremental H-search: a position's connections derived from those of
//! the position one stone before, instead of searched afresh. A tree
//! search asks for connections at a node whose parent it has just
//! analysed, and most of the parent's connections still hold.
//!
//! What still holds rests on monotonicity (a stone never hurts its owner):
//!
//! - after an opponent's stone on cell m, every connection whose ends and
//!   carrier avoid m holds as it was, and no new one can appear;
//! - after the owner's stone on m, every connection holds with m taken out
//!   of its carrier (the owner's strategy, m already played), between the
//!   groups that now hold its ends. New connections can come only through
//!   the group holding m and from carriers that lost m, so only those are
//!   queued for the AND and OR rules; the others were combined before.
//!
//! The caps on connections a pair keeps make the result differ a little
//! from a fresh search's (either may keep what the other dropped), never
//! in soundness.

use super::super::board::{stone_of, Hex, EMPTY};
use super::cellset::Carrier;
use super::connections::{Node, PairConnections};
use super::hsearch::{Budget, Connections, NO_PAIR};

impl<C: Carrier> Connections<C> {
    /// The connections of `before.player` in `hex`, which is the position
    /// of `before` with one more stone, on `cell`, derived from `before`
    /// within `budget`.
    pub fn search_after_stone(
        &mut self,
        before: &Connections<C>,
        hex: &Hex,
        cell: usize,
        budget: Budget,
    ) {
        debug_assert!(hex.stone_at(cell) != EMPTY);
        let own = hex.stone_at(cell) == stone_of(before.player);
        self.reset_nodes(hex, before.player);
        let moved: Vec<Option<u16>> = before
            .nodes
            .iter()
            .map(|&node| self.node_after(node, cell, own))
            .collect();
        let merged = if own { self.node_at(cell) } else { None };
        let count = before.nodes.len();
        let mut scratch = Vec::new();
        // Ends of pairs that lost a carrier: the caps may have dropped
        // alternatives that now hold, and the AND rule finds them again
        // through these ends' connections.
        let mut lost = vec![false; self.nodes.len()];
        for a in 0..count {
            for b in a + 1..count {
                let index = before.pair_index[a * count + b];
                let (Some(new_a), Some(new_b)) = (moved[a], moved[b]) else {
                    continue;
                };
                if index == NO_PAIR || new_a == new_b {
                    continue;
                }
                let changed_ends = merged.is_some_and(|m| new_a == m || new_b == m);
                let stone = Stone { cell, own };
                let pair = &before.pairs[index as usize];
                if self.carry_pair((new_a, new_b), pair, stone, changed_ends, &mut scratch) {
                    lost[new_a as usize] = true;
                    lost[new_b as usize] = true;
                }
            }
        }
        self.queue_connections_of(&lost);
        // Only what the stone changed is new here: the group holding it
        // touches other cells, and the opponent's stone spoils templates.
        self.seed_adjacency(hex);
        self.seed_edge_templates(hex);
        self.run(budget);
        self.complete &= before.complete;
    }

    /// Carries one pair's connections to the ends `(a, b)` after `stone`:
    /// those it changed, or all of them when an end changed, go to the AND
    /// and OR rules. Whether the pair lost a full connection.
    fn carry_pair(
        &mut self,
        (a, b): (u16, u16),
        pair: &PairConnections<C>,
        stone: Stone,
        changed_ends: bool,
        scratch: &mut Vec<C>,
    ) -> bool {
        let mut lost = false;
        for &carrier in &pair.full {
            match stone.carry(carrier) {
                Some((carrier, true)) => self.add_full(a, b, carrier),
                Some((carrier, false)) if changed_ends => self.add_full(a, b, carrier),
                Some((carrier, false)) => {
                    self.insert_full(a, b, carrier);
                }
                None => lost = true,
            }
        }
        for &carrier in &pair.semi {
            match stone.carry(carrier) {
                Some((carrier, changed)) if changed || changed_ends => {
                    self.add_semi(a, b, carrier, scratch)
                }
                Some((carrier, _)) => {
                    self.insert_semi(a, b, carrier);
                }
                None => {}
            }
        }
        lost
    }

    /// Queues for the AND rule every full connection with an end in `ends`.
    fn queue_connections_of(&mut self, ends: &[bool]) {
        let count = self.nodes.len();
        for a in 0..count {
            for b in a + 1..count {
                let index = self.pair_index[a * count + b];
                if index == NO_PAIR || !(ends[a] || ends[b]) {
                    continue;
                }
                for &carrier in &self.pairs[index as usize].full {
                    self.queue.push_back((a as u16, b as u16, carrier));
                }
            }
        }
    }

    /// Where a node of the position before stands now: `None` for the
    /// cell the opponent took.
    fn node_after(&self, node: Node, cell: usize, own: bool) -> Option<u16> {
        match node {
            Node::Edge(edge) => Some(edge as u16),
            Node::Group(root) => self.node_at(root as usize),
            Node::Cell(empty) if empty as usize == cell && !own => None,
            Node::Cell(empty) => self.node_at(empty as usize),
        }
    }
}

/// The stone placed, and whether it is the connections' owner's.
#[derive(Clone, Copy)]
struct Stone {
    cell: usize,
    own: bool,
}

impl Stone {
    /// A carrier after the stone: gone if the opponent took one of its
    /// cells, else without the stone's cell, and whether it lost it.
    fn carry<C: Carrier>(self, mut carrier: C) -> Option<(C, bool)> {
        let held = carrier.contains(self.cell);
        if held && !self.own {
            return None;
        }
        carrier.remove(self.cell);
        Some((carrier, held))
    }
}

#[cfg(test)]
mod tests;
