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

/// A link of a bridge chain: two nodes (group roots, or an edge) and the
/// two empty cells that carry it (`NO_CELL` for a direct contact).
#[derive(Clone, Copy, Debug)]
struct Link {
    a: u16,
    b: u16,
    carriers: [u16; 2],
}

/// Scratch space for `bridge_chain`, kept in the position so that the
/// search does not allocate at every node.
#[derive(Clone, Debug, Default)]
pub struct ChainScratch {
    links: Vec<Link>,
    node_of_root: Vec<u16>,
    distance: Vec<u16>,
    via: Vec<u32>,
    deque: std::collections::VecDeque<u16>,
    used: Vec<bool>,
}

const NO_NODE: u16 = u16::MAX;
/// Node numbers of the two edges of the player; groups come after.
const FIRST_EDGE: u16 = 0;
const SECOND_EDGE: u16 = 1;

/// If `player`'s groups are joined edge to edge by direct contacts, bridges
/// and edge bridges whose carrier cells are all empty and pairwise
/// disjoint, the number of bridges still to fill: the opponent can take one
/// carrier of each, the player answers with the other, and the chain holds
/// whoever moves first.
pub fn bridge_chain(hex: &Hex, player: Player, scratch: &mut ChainScratch) -> Option<u32> {
    let geo = hex.geometry();
    let stone = stone_of(player);
    let goal = goal_edges(stone);
    let (edge_one, edge_two) = if stone == BLACK {
        (super::geometry::TOP, super::geometry::BOTTOM)
    } else {
        (super::geometry::LEFT, super::geometry::RIGHT)
    };
    let cells = geo.cells();
    scratch.links.clear();
    scratch.node_of_root.clear();
    scratch.node_of_root.resize(cells, NO_NODE);
    let mut nodes: u16 = 2;
    for cell in 0..cells {
        if hex.stone_at(cell) != stone {
            continue;
        }
        let root = hex.find(cell);
        if scratch.node_of_root[root] == NO_NODE {
            scratch.node_of_root[root] = nodes;
            nodes += 1;
            let edges = hex.edges_of_group(root) & goal;
            for (bit, node) in [(edge_one, FIRST_EDGE), (edge_two, SECOND_EDGE)] {
                if edges & bit != 0 {
                    scratch.links.push(Link {
                        a: node,
                        b: scratch.node_of_root[root],
                        carriers: [NO_CELL; 2],
                    });
                }
            }
        }
        let here = scratch.node_of_root[root];
        let ring = &geo.ring[cell];
        for slot in 0..6 {
            let (x, y) = (ring[slot], ring[(slot + 1) % 6]);
            if x == NO_CELL
                || y == NO_CELL
                || hex.stone_at(x as usize) != EMPTY
                || hex.stone_at(y as usize) != EMPTY
            {
                continue;
            }
            // The cell beyond both carriers: the other end of the bridge.
            let beyond = geo.ring[x as usize][(slot + 1) % 6];
            let other = if beyond == NO_CELL {
                let shared = geo.edges[x as usize] & geo.edges[y as usize] & goal;
                if shared & edge_one != 0 {
                    FIRST_EDGE
                } else if shared & edge_two != 0 {
                    SECOND_EDGE
                } else {
                    continue;
                }
            } else if hex.stone_at(beyond as usize) == stone {
                let other_root = hex.find(beyond as usize);
                if other_root == root {
                    continue;
                }
                // Numbered when its group is first met; link from there.
                if scratch.node_of_root[other_root] == NO_NODE {
                    continue;
                }
                scratch.node_of_root[other_root]
            } else {
                continue;
            };
            scratch.links.push(Link {
                a: here,
                b: other,
                carriers: [x, y],
            });
        }
    }
    shortest_disjoint_chain(scratch, nodes as usize, cells)
}

/// 0-1 breadth-first search from the first edge to the second, bridges
/// costing one and contacts nothing; the chain found counts only if its
/// carriers are disjoint.
fn shortest_disjoint_chain(scratch: &mut ChainScratch, nodes: usize, cells: usize) -> Option<u32> {
    scratch.distance.clear();
    scratch.distance.resize(nodes, u16::MAX);
    scratch.via.clear();
    scratch.via.resize(nodes, u32::MAX);
    scratch.deque.clear();
    scratch.distance[FIRST_EDGE as usize] = 0;
    scratch.deque.push_back(FIRST_EDGE);
    while let Some(node) = scratch.deque.pop_front() {
        if node == SECOND_EDGE {
            break;
        }
        let d = scratch.distance[node as usize];
        for (index, link) in scratch.links.iter().enumerate() {
            let next = if link.a == node {
                link.b
            } else if link.b == node {
                link.a
            } else {
                continue;
            };
            let cost = u16::from(link.carriers[0] != NO_CELL);
            if d + cost < scratch.distance[next as usize] {
                scratch.distance[next as usize] = d + cost;
                scratch.via[next as usize] = index as u32;
                if cost == 0 {
                    scratch.deque.push_front(next);
                } else {
                    scratch.deque.push_back(next);
                }
            }
        }
    }
    if scratch.distance[SECOND_EDGE as usize] == u16::MAX {
        return None;
    }
    scratch.used.clear();
    scratch.used.resize(cells, false);
    let mut node = SECOND_EDGE;
    let mut bridges = 0;
    while node != FIRST_EDGE {
        let link = scratch.links[scratch.via[node as usize] as usize];
        if link.carriers[0] != NO_CELL {
            for carrier in link.carriers {
                if std::mem::replace(&mut scratch.used[carrier as usize], true) {
                    return None;
                }
            }
            bridges += 1;
        }
        node = if link.a == node { link.b } else { link.a };
    }
    Some(bridges)
}
