//! Exact local facts the search can trust: cells that win at once, cells
//! that are dead (no stone there can ever matter), and the reply that saves
//! a bridge the opponent just intruded into.

use super::board::{goal_edges, stone_of, Hex, BLACK, EMPTY, WHITE};
use super::geometry::{BLACK_GOAL, BOTTOM, LEFT, MAX_SIZE, NO_CELL, RIGHT, TOP};
use crate::core::Player;

/// Empty cells where a stone of `player` wins on the spot, up to `limit`,
/// in cell order.
pub fn winning_cells(hex: &Hex, player: Player, limit: usize, out: &mut Vec<usize>) {
    out.clear();
    for_each_winning_cell(hex, stone_of(player), |cell| {
        out.push(cell);
        out.len() < limit
    });
}

/// The cells where each player wins on the spot, first in cell order: the
/// side to move's first one and the opponent's first two, which is all the
/// search asks (a win, the one block, or a double threat).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImmediateWins {
    pub mine: Option<usize>,
    pub theirs: [Option<usize>; 2],
}

/// Both players' `winning_cells`, without a vector.
pub fn immediate_wins(hex: &Hex) -> ImmediateWins {
    let me = hex.side_to_move_player();
    let mut wins = ImmediateWins::default();
    for_each_winning_cell(hex, stone_of(me), |cell| {
        wins.mine = Some(cell);
        false
    });
    let mut found = 0;
    for_each_winning_cell(hex, stone_of(me.other()), |cell| {
        wins.theirs[found] = Some(cell);
        found += 1;
        found < 2
    });
    wins
}

/// One bit a cell, one word a row, with an empty row above and below.
type Plane = [u32; MAX_SIZE + 2];

/// Calls `found` with each empty cell, in cell order, where a stone of
/// `stone` would join its two goal edges, while `found` returns true. A row
/// at a time: the cells next to a group on one goal edge (or on that edge)
/// and next to a group on the other (or on that one).
fn for_each_winning_cell(hex: &Hex, stone: u8, mut found: impl FnMut(usize) -> bool) {
    let size = hex.size();
    let (first, second) = if stone == BLACK {
        (TOP, BOTTOM)
    } else {
        (LEFT, RIGHT)
    };
    // The stones whose group touches the first goal edge, and the second.
    let (mut on_first, mut on_second): (Plane, Plane) = ([0; MAX_SIZE + 2], [0; MAX_SIZE + 2]);
    for (row, &word) in hex.stone_rows(stone).iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let col = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let edges = hex.edges_of_group(row * size + col);
            if edges & first != 0 {
                on_first[row + 1] |= 1 << col;
            }
            if edges & second != 0 {
                on_second[row + 1] |= 1 << col;
            }
        }
    }
    let width = if size >= 32 {
        u32::MAX
    } else {
        (1u32 << size) - 1
    };
    let (black, white) = (hex.stone_rows(BLACK), hex.stone_rows(WHITE));
    for row in 1..=size {
        let empty = width & !(black[row - 1] | white[row - 1]);
        let mut near_first = next_to(&on_first, row);
        let mut near_second = next_to(&on_second, row);
        match first {
            TOP if row == 1 => near_first = u32::MAX,
            LEFT => near_first |= 1,
            _ => {}
        }
        match second {
            BOTTOM if row == size => near_second = u32::MAX,
            RIGHT => near_second |= 1 << (size - 1),
            _ => {}
        }
        let mut wins = empty & near_first & near_second;
        while wins != 0 {
            let col = wins.trailing_zeros() as usize;
            wins &= wins - 1;
            if !found((row - 1) * size + col) {
                return;
            }
        }
    }
}

/// The cells of board row `row` next to a cell of `plane`: the same row
/// either side, the row above at the same and the next column, the row
/// below at the same and the previous one.
fn next_to(plane: &Plane, row: usize) -> u32 {
    let (up, here, down) = (plane[row - 1], plane[row], plane[row + 1]);
    (here << 1) | (here >> 1) | up | (up >> 1) | down | (down << 1)
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
