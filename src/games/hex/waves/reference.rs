//! The test oracle: two-distance maps by plain breadth-first search, one
//! queue per edge, as the evaluation computed them before the waves.

use super::super::board::{Hex, BLACK, EMPTY, WHITE};
use super::super::eval::{TwoDistance, FAR};
use super::super::geometry::{BOTTOM, LEFT, RIGHT, TOP};
use crate::core::Game;
use crate::games::hex::{HexMove, HexRules};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Each stone's group of `stone`, and each group's goal edges and
/// liberties (in the order the flood meets them).
struct Groups {
    group_of: Vec<usize>,
    edges: Vec<u8>,
    liberties: Vec<Vec<usize>>,
}

fn groups(hex: &Hex, stone: u8) -> Groups {
    let geo = hex.geometry();
    let cells = geo.cells();
    let mut found = Groups {
        group_of: vec![usize::MAX; cells],
        edges: Vec::new(),
        liberties: Vec::new(),
    };
    for start in 0..cells {
        if hex.stone_at(start) != stone || found.group_of[start] != usize::MAX {
            continue;
        }
        let group = found.edges.len();
        let (mut edges, mut liberties, mut flood) = (0u8, Vec::new(), vec![start]);
        found.group_of[start] = group;
        while let Some(cell) = flood.pop() {
            edges |= geo.edges[cell];
            for n in geo.neighbours(cell) {
                if hex.stone_at(n) == stone && found.group_of[n] == usize::MAX {
                    found.group_of[n] = group;
                    flood.push(n);
                } else if hex.stone_at(n) == EMPTY && !liberties.contains(&n) {
                    liberties.push(n);
                }
            }
        }
        found.edges.push(edges);
        found.liberties.push(liberties);
    }
    found
}

/// The cells a stone placed on `cell` reaches in one step: its empty
/// neighbours and the liberties of its friendly neighbours' groups.
fn reach(hex: &Hex, groups: &Groups, stone: u8, cell: usize) -> Vec<usize> {
    let mut out = Vec::new();
    for n in hex.geometry().neighbours(cell) {
        let s = hex.stone_at(n);
        let targets = if s == EMPTY {
            vec![n]
        } else if s == stone {
            groups.liberties[groups.group_of[n]].clone()
        } else {
            continue;
        };
        for t in targets {
            if t != cell && !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

fn distances(hex: &Hex, stone: u8, edge: u8) -> Vec<u16> {
    let geo = hex.geometry();
    let groups = groups(hex, stone);
    let mut dist = vec![FAR; geo.cells()];
    let mut count = vec![0u8; geo.cells()];
    let mut queue = std::collections::VecDeque::new();
    for cell in 0..geo.cells() {
        if hex.stone_at(cell) == EMPTY && geo.edges[cell] & edge != 0 {
            dist[cell] = 1;
            queue.push_back(cell);
        }
    }
    for (group, liberties) in groups.liberties.iter().enumerate() {
        for &lib in liberties.iter().filter(|_| groups.edges[group] & edge != 0) {
            if dist[lib] == FAR {
                dist[lib] = 1;
                queue.push_back(lib);
            }
        }
    }
    while let Some(cell) = queue.pop_front() {
        for t in reach(hex, &groups, stone, cell) {
            if dist[t] == FAR {
                count[t] += 1;
                if count[t] == 2 {
                    dist[t] = dist[cell] + 1;
                    queue.push_back(t);
                }
            }
        }
    }
    dist
}

/// The four maps: Black to TOP and BOTTOM, White to LEFT and RIGHT.
fn reference_maps(hex: &Hex) -> [Vec<u16>; 4] {
    [
        distances(hex, BLACK, TOP),
        distances(hex, BLACK, BOTTOM),
        distances(hex, WHITE, LEFT),
        distances(hex, WHITE, RIGHT),
    ]
}

/// A position of `size` with a random number of random stones, the game
/// possibly over.
fn random_position(size: usize, rng: &mut SmallRng) -> Hex {
    let rules = HexRules {
        board_size: size,
        swap: false,
    };
    let mut hex = Hex::start_position(&rules);
    let stones = rng.gen_range(0..=size * size);
    let mut moves = Vec::new();
    for _ in 0..stones {
        hex.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        hex.make_move(moves[rng.gen_range(0..moves.len())]);
    }
    hex
}

#[test]
fn the_waves_give_the_breadth_first_maps_on_random_positions() {
    let mut rng = SmallRng::seed_from_u64(22);
    let mut td = TwoDistance::default();
    let mut checked_cells = 0;
    for size in 1..=19 {
        for _ in 0..60 {
            let hex = random_position(size, &mut rng);
            td.compute(&hex);
            let expected = reference_maps(&hex);
            for (slot, map) in expected.iter().enumerate() {
                assert_eq!(td.dist[slot], *map, "map {slot} of {}", hex.to_fen());
            }
            checked_cells += expected[0].iter().filter(|&&d| d != FAR).count();
        }
    }
    assert!(checked_cells > 20_000, "{checked_cells}");
}

/// Groups spanning the board with shared liberties: the cases where a
/// reached liberty counts through several groups at once.
#[test]
fn the_waves_give_the_breadth_first_maps_between_groups() {
    let rules = HexRules {
        board_size: 7,
        swap: false,
    };
    let mut rng = SmallRng::seed_from_u64(7);
    let mut td = TwoDistance::default();
    for _ in 0..300 {
        let mut hex = Hex::start_position(&rules);
        // Black stones on most of one column pair, White scattered: long
        // friendly chains whose liberties overlap.
        for cell in 0..49 {
            let black = cell % 7 == 3 || (cell % 7 == 4 && rng.gen_bool(0.3));
            if black && rng.gen_bool(0.7) && hex.winner().is_none() {
                hex.set_side_to_move(crate::core::Player::P1);
                hex.make_move(HexMove::cell(cell));
            } else if rng.gen_bool(0.15) && hex.winner().is_none() {
                hex.set_side_to_move(crate::core::Player::P2);
                hex.make_move(HexMove::cell(cell));
            }
        }
        td.compute(&hex);
        let expected = reference_maps(&hex);
        for (slot, map) in expected.iter().enumerate() {
            assert_eq!(td.dist[slot], *map, "map {slot} of {}", hex.to_fen());
        }
    }
}
