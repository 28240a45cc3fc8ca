//! Proofs by virtual connection: chains of a player's groups joined edge to
//! edge by links that hold whoever moves first.
//!
//! Two of the player's nodes (groups, or their two edges) that share two
//! empty neighbours are virtually connected: an intrusion into one shared
//! cell is answered in the other. This covers the bridge and the edge
//! bridge, and any two groups with two common liberties. Nodes that share
//! one empty neighbour are half connected: the player to move may complete
//! one such link with the move in hand. A chain whose carrier cells are
//! pairwise disjoint is a proven win; the number of links to fill bounds
//! its length.

use super::board::{goal_edges, stone_of, Hex, BLACK, WHITE};
use super::geometry::{BOTTOM, LEFT, MAX_SIZE, NO_CELL, RIGHT, TOP};
use crate::core::Player;
use std::collections::VecDeque;

/// Node numbers of the player's two edges; groups come after.
const FIRST_EDGE: u16 = 0;
const SECOND_EDGE: u16 = 1;
const NO_NODE: u16 = u16::MAX;

/// A link between two nodes: its carrier cells (`NO_CELL` where unused).
/// Zero carriers is contact, one a half connection, two a full one.
#[derive(Clone, Copy, Debug)]
struct Link {
    a: u16,
    b: u16,
    carriers: [u16; 2],
}

impl Link {
    fn is_half(&self) -> bool {
        self.carriers[0] != NO_CELL && self.carriers[1] == NO_CELL
    }

    fn costs_a_move(&self) -> bool {
        self.carriers[0] != NO_CELL
    }
}

/// The links of one player in one position, kept while the search asks
/// about that position again (the proof and the move generation both do).
#[derive(Clone, Debug, Default)]
struct LinkSet {
    /// The position (key and board size) the links belong to.
    built_for: Option<(u64, usize)>,
    nodes: usize,
    links: Vec<Link>,
}

/// Scratch space kept in the knowledge so that the search does not allocate
/// at every node.
#[derive(Clone, Debug, Default)]
pub struct ChainScratch {
    /// Each of the player's stones' node, valid for the player's stones.
    node_of_cell: Vec<u16>,
    node_of_root: Vec<u16>,
    /// (node a, node b, shared empty cell), a < b.
    shared: Vec<(u16, u16, u16)>,
    /// Per player (0 Black, 1 White).
    link_sets: [LinkSet; 2],
    adjacency: Vec<Vec<u32>>,
    distance: Vec<u16>,
    via: Vec<u32>,
    deque: VecDeque<u32>,
    used: Vec<bool>,
    path_carriers: Vec<u16>,
    /// Carrier cells of the chain `find_chain` last returned.
    pub carriers: Vec<u16>,
}

/// The proof a chain gives: how many links the owner still has to fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chain {
    pub moves: u32,
}

/// Looks for a chain of `player`. With `may_use_half` (the player is to
/// move) one half connection may be part of it, filled by the next move.
pub fn find_chain(
    hex: &Hex,
    player: Player,
    may_use_half: bool,
    scratch: &mut ChainScratch,
) -> Option<Chain> {
    let index = usize::from(player != Player::P1);
    let position = Some((hex.hash_key(), hex.size()));
    if scratch.link_sets[index].built_for != position {
        let mut set = std::mem::take(&mut scratch.link_sets[index]);
        build_links(hex, player, scratch, &mut set);
        set.built_for = position;
        scratch.link_sets[index] = set;
    }
    let set = std::mem::take(&mut scratch.link_sets[index]);
    let found = search(scratch, &set, may_use_half, hex.geometry().cells());
    scratch.link_sets[index] = set;
    found
}

/// The empty cells next to a stone of `stone` or on one of `goal`, one word
/// a row: the only cells that can join two of the player's nodes.
fn link_cells(hex: &Hex, stone: u8, goal: u8, rows: &mut [u32; MAX_SIZE]) {
    let size = hex.size();
    let own = hex.stone_rows(stone);
    let other = hex.stone_rows(if stone == BLACK { WHITE } else { BLACK });
    let width = (1u32 << size) - 1;
    for row in 0..size {
        let here = own[row];
        let up = if row > 0 { own[row - 1] } else { 0 };
        let down = if row + 1 < size { own[row + 1] } else { 0 };
        let mut near = (here << 1) | (here >> 1) | up | (up >> 1) | down | (down << 1);
        if goal & TOP != 0 && row == 0 || goal & BOTTOM != 0 && row == size - 1 {
            near = width;
        }
        if goal & LEFT != 0 {
            near |= 1;
        }
        if goal & RIGHT != 0 {
            near |= 1 << (size - 1);
        }
        rows[row] = near & width & !(here | other[row]);
    }
}

fn build_links(hex: &Hex, player: Player, scratch: &mut ChainScratch, set: &mut LinkSet) {
    let geo = hex.geometry();
    let stone = stone_of(player);
    let goal = goal_edges(stone);
    let (edge_one, edge_two) = if stone == BLACK {
        (TOP, BOTTOM)
    } else {
        (LEFT, RIGHT)
    };
    let cells = geo.cells();
    let size = geo.size;
    if scratch.node_of_root.len() != cells {
        scratch.node_of_root = vec![NO_NODE; cells];
        scratch.node_of_cell = vec![NO_NODE; cells];
    }
    set.links.clear();
    scratch.shared.clear();
    let mut nodes: u16 = 2;
    for cell in hex.occupied_cells() {
        if hex.stone_at(cell) != stone {
            continue;
        }
        let root = hex.find(cell);
        if scratch.node_of_root[root] != NO_NODE {
            scratch.node_of_cell[cell] = scratch.node_of_root[root];
            continue;
        }
        let node = nodes;
        scratch.node_of_root[root] = node;
        scratch.node_of_cell[cell] = node;
        nodes += 1;
        let edges = hex.edges_of_group(root) & goal;
        for (bit, edge) in [(edge_one, FIRST_EDGE), (edge_two, SECOND_EDGE)] {
            if edges & bit != 0 {
                set.links.push(Link {
                    a: edge,
                    b: node,
                    carriers: [NO_CELL; 2],
                });
            }
        }
    }
    // The roots' entries are cleared for the next call; the cells' stay,
    // read only where the player has a stone.
    for cell in hex.occupied_cells() {
        if hex.stone_at(cell) == stone {
            scratch.node_of_root[hex.find(cell)] = NO_NODE;
        }
    }
    let mut rows = [0u32; MAX_SIZE];
    link_cells(hex, stone, goal, &mut rows);
    for (row, &word) in rows.iter().enumerate().take(size) {
        let mut bits = word;
        while bits != 0 {
            let cell = row * size + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            note_shared_cell(hex, scratch, cell, stone, (edge_one, edge_two));
        }
    }
    scratch.shared.sort_unstable();
    let mut i = 0;
    while i < scratch.shared.len() {
        let (a, b, first) = scratch.shared[i];
        let mut j = i + 1;
        while j < scratch.shared.len() && scratch.shared[j].0 == a && scratch.shared[j].1 == b {
            j += 1;
        }
        let second = if j - i >= 2 {
            scratch.shared[i + 1].2
        } else {
            NO_CELL
        };
        set.links.push(Link {
            a,
            b,
            carriers: [first, second],
        });
        i = j;
    }
    set.nodes = nodes as usize;
}

/// Records every pair of the player's nodes that the empty `cell` touches.
fn note_shared_cell(
    hex: &Hex,
    scratch: &mut ChainScratch,
    cell: usize,
    stone: u8,
    (edge_one, edge_two): (u8, u8),
) {
    let geo = hex.geometry();
    let mut around = [NO_NODE; 8];
    let mut count = 0;
    let mut add = |node: u16| {
        if !around[..count].contains(&node) {
            around[count] = node;
            count += 1;
        }
    };
    if geo.edges[cell] & edge_one != 0 {
        add(FIRST_EDGE);
    }
    if geo.edges[cell] & edge_two != 0 {
        add(SECOND_EDGE);
    }
    for &n in geo.ring[cell].iter() {
        if n != NO_CELL && hex.stone_at(n as usize) == stone {
            add(scratch.node_of_cell[n as usize]);
        }
    }
    for i in 0..count {
        for j in i + 1..count {
            let (a, b) = (around[i].min(around[j]), around[i].max(around[j]));
            scratch.shared.push((a, b, cell as u16));
        }
    }
}

/// 0-1 breadth-first search over (node, half link used) from the first edge
/// to the second; a link that needs a move costs one. The chain found
/// counts only if its carrier cells are pairwise disjoint.
fn search(
    scratch: &mut ChainScratch,
    set: &LinkSet,
    may_use_half: bool,
    cells: usize,
) -> Option<Chain> {
    let nodes = set.nodes;
    let layers = if may_use_half { 2 } else { 1 };
    let states = nodes * layers;
    if scratch.adjacency.len() < nodes {
        scratch.adjacency.resize(nodes, Vec::new());
    }
    for list in scratch.adjacency.iter_mut().take(nodes) {
        list.clear();
    }
    for (index, link) in set.links.iter().enumerate() {
        scratch.adjacency[link.a as usize].push(index as u32);
        scratch.adjacency[link.b as usize].push(index as u32);
    }
    scratch.distance.clear();
    scratch.distance.resize(states, u16::MAX);
    scratch.via.clear();
    scratch.via.resize(states, u32::MAX);
    scratch.deque.clear();
    scratch.distance[FIRST_EDGE as usize] = 0;
    scratch.deque.push_back(FIRST_EDGE as u32);
    let target = |layer: usize| layer * nodes + SECOND_EDGE as usize;
    while let Some(state) = scratch.deque.pop_front() {
        let state = state as usize;
        let (layer, node) = (state / nodes, state % nodes);
        if node == SECOND_EDGE as usize {
            continue;
        }
        let d = scratch.distance[state];
        for &index in scratch.adjacency[node].iter() {
            let link = set.links[index as usize];
            let next_node = if link.a as usize == node {
                link.b
            } else {
                link.a
            } as usize;
            let next_layer = if link.is_half() {
                if layer + 1 >= layers {
                    continue;
                }
                layer + 1
            } else {
                layer
            };
            let next = next_layer * nodes + next_node;
            let cost = u16::from(link.costs_a_move());
            if d + cost < scratch.distance[next] {
                scratch.distance[next] = d + cost;
                scratch.via[next] = index;
                if cost == 0 {
                    scratch.deque.push_front(next as u32);
                } else {
                    scratch.deque.push_back(next as u32);
                }
            }
        }
    }
    let mut best: Option<Chain> = None;
    for layer in 0..layers {
        let end = target(layer);
        if scratch.distance[end] == u16::MAX {
            continue;
        }
        if let Some(chain) = check_disjoint(scratch, &set.links, nodes, end, cells) {
            if best.is_none_or(|b| chain.moves < b.moves) {
                best = Some(chain);
                scratch.carriers.clear();
                scratch.carriers.extend_from_slice(&scratch.path_carriers);
            }
        }
    }
    best
}

/// Walks the chain back from `end`; `None` if two links share a carrier.
fn check_disjoint(
    scratch: &mut ChainScratch,
    links: &[Link],
    nodes: usize,
    end: usize,
    cells: usize,
) -> Option<Chain> {
    scratch.used.clear();
    scratch.used.resize(cells, false);
    scratch.path_carriers.clear();
    let mut state = end;
    let mut moves = 0;
    let mut steps = 0;
    while state % nodes != FIRST_EDGE as usize || state / nodes != 0 {
        let link = links[scratch.via[state] as usize];
        for carrier in link.carriers {
            if carrier == NO_CELL {
                continue;
            }
            if std::mem::replace(&mut scratch.used[carrier as usize], true) {
                return None;
            }
            scratch.path_carriers.push(carrier);
        }
        moves += u32::from(link.costs_a_move());
        let node = state % nodes;
        let layer = state / nodes;
        let previous_node = if link.a as usize == node {
            link.b
        } else {
            link.a
        } as usize;
        let previous_layer = if link.is_half() { layer - 1 } else { layer };
        state = previous_layer * nodes + previous_node;
        steps += 1;
        if steps > links.len() + 2 {
            return None;
        }
    }
    Some(Chain { moves })
}
