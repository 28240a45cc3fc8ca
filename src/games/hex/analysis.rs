//! Exact local facts the search can trust: cells that win at once, cells
//! that are dead (no stone there can ever matter), and the reply that saves
//! a bridge the opponent just intruded into.

use super::board::{edges_for, goal_edges, stone_of, Hex, BLACK, EMPTY, WHITE};
use super::geometry::{BLACK_GOAL, MAX_CELLS, NO_CELL};
use crate::core::Player;

/// Empty cells where a stone of `player` wins on the spot, up to `limit`.
pub fn winning_cells(hex: &Hex, player: Player, limit: usize, out: &mut Vec<usize>) {
    out.clear();
    let geo = hex.geometry();
    let stone = stone_of(player);
    let goal = goal_edges(stone);
    // The goal edges each friendly stone's group touches, looked up once.
    let mut group_edges = [0u8; MAX_CELLS];
    let mut any_edge = false;
    for cell in hex.occupied_cells() {
        if hex.stone_at(cell) == stone {
            group_edges[cell] = hex.edges_of_group(cell) & goal;
            any_edge |= group_edges[cell] != 0;
        }
    }
    if !any_edge && hex.size() > 1 {
        return;
    }
    for cell in hex.empty_cells() {
        let mut edges = edges_for(geo, stone, cell);
        for &n in geo.ring[cell].iter() {
            if n != NO_CELL {
                edges |= group_edges[n as usize];
            }
        }
        if edges & goal == goal {
            out.push(cell);
            if out.len() >= limit {
                return;
            }
        }
    }
}

/// The colour a ring slot around `cell` counts as: its stone, or for a slot
/// off the board the owner of that edge.
fn ring_colour(hex: &Hex, cell: usize, slot: usize) -> u8 {
    let geo = hex.geometry();
    let n = geo.ring[cell][slot];
    if n == NO_CELL {
        if geo.ring_edge[cell][slot] & BLACK_GOAL != 0 {
            BLACK
        } else {
            WHITE
        }
    } else {
        hex.stone_at(n as usize)
    }
}

/// A cell is dead when four consecutive neighbours (edges counting for
/// their owner) share one colour: the two remaining neighbours touch each
/// other and the run, so no minimal winning chain of either player needs it.
pub fn is_dead(hex: &Hex, cell: usize) -> bool {
    if hex.size() < 3 {
        return false;
    }
    let ring: [u8; 6] = std::array::from_fn(|slot| ring_colour(hex, cell, slot));
    (0..6).any(|start| {
        let colour = ring[start];
        colour != EMPTY && (1..4).all(|k| ring[(start + k) % 6] == colour)
    })
}

/// After the opponent's last stone went into one of the two cells that
/// carry a bridge of the side to move (between two stones, or a stone and
/// its edge), the other carrier cell, which restores the connection.
pub fn bridge_replies(hex: &Hex, out: &mut Vec<usize>) {
    out.clear();
    let Some(intruder) = hex.last_placed() else {
        return;
    };
    let me = stone_of(hex.side_to_move_player());
    if hex.stone_at(intruder) == me {
        return;
    }
    let geo = hex.geometry();
    let ring = &geo.ring[intruder];
    // An end of a would-be bridge: a group (its root) or one of my edges.
    let end = |slot: usize| -> Option<(usize, u8)> {
        let n = ring[slot];
        if n == NO_CELL {
            let edge = geo.ring_edge[intruder][slot] & goal_edges(me);
            (edge != 0).then_some((usize::MAX, edge))
        } else if hex.stone_at(n as usize) == me {
            let root = hex.find(n as usize);
            Some((root, hex.edges_of_group(root)))
        } else {
            None
        }
    };
    for (slot, &carrier) in ring.iter().enumerate() {
        if carrier == NO_CELL || hex.stone_at(carrier as usize) != EMPTY {
            continue;
        }
        let (Some(a), Some(b)) = (end((slot + 5) % 6), end((slot + 1) % 6)) else {
            continue;
        };
        let connected = match (a.0, b.0) {
            (usize::MAX, usize::MAX) => true,
            (usize::MAX, _) => b.1 & a.1 != 0,
            (_, usize::MAX) => a.1 & b.1 != 0,
            (ra, rb) => ra == rb,
        };
        if !connected {
            out.push(carrier as usize);
        }
    }
}
