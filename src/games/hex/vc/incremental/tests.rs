use super::super::connections::Node;
use super::super::{Budget, CellSet, Connections};
use crate::core::{Game, Player};
use crate::games::hex::board::{stone_of, Hex, HexMove, EMPTY};
use crate::games::hex::geometry::{BOTTOM, LEFT, RIGHT, TOP};
use crate::games::hex::HexRules;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

/// The cells of a random game on an empty board of `size`, to its end.
fn random_game(size: usize, seed: u64) -> Vec<usize> {
    let mut hex = start(size);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut cells = Vec::new();
    while hex.winner().is_none() {
        let empty: Vec<usize> = hex.empty_cells().collect();
        let cell = empty[rng.gen_range(0..empty.len())];
        hex.make_move(HexMove(cell as u16));
        cells.push(cell);
    }
    cells
}

fn start(size: usize) -> Hex {
    Hex::start_position(&HexRules {
        board_size: size,
        swap: false,
    })
}

fn edge_bits(player: Player) -> [u8; 2] {
    match player {
        Player::P1 => [TOP, BOTTOM],
        Player::P2 => [LEFT, RIGHT],
    }
}

/// Whether a node holds `cell` (an edge: touches it), for `player` owning
/// the cells of `ours`.
fn holds(hex: &Hex, player: Player, node: Node, cell: usize) -> bool {
    match node {
        Node::Edge(edge) => hex.geometry().edges[cell] & edge_bits(player)[edge as usize] != 0,
        Node::Group(root) => {
            hex.stone_at(cell) == stone_of(player) && hex.find(cell) == hex.find(root as usize)
        }
        Node::Cell(empty) => cell == empty as usize,
    }
}

/// Whether `player`'s stones and the cells of `ours` join `a` to `b`.
fn joined(hex: &Hex, player: Player, ours: &CellSet, a: Node, b: Node) -> bool {
    let geo = hex.geometry();
    let owned = |cell: usize| hex.stone_at(cell) == stone_of(player) || ours.contains(cell);
    let mut seen = vec![false; geo.cells()];
    let mut queue: VecDeque<usize> = (0..geo.cells())
        .filter(|&cell| owned(cell) && holds(hex, player, a, cell))
        .collect();
    for &cell in &queue {
        seen[cell] = true;
    }
    while let Some(cell) = queue.pop_front() {
        if holds(hex, player, b, cell) {
            return true;
        }
        for next in geo.neighbours(cell) {
            if owned(next) && !seen[next] {
                seen[next] = true;
                queue.push_back(next);
            }
        }
    }
    false
}

/// Whether the owner joins `a` to `b` playing in `free` only, the players
/// taking turns there, `owner_moves` first or not: the definition of a
/// semi and a full connection, searched to the end.
fn connects(
    hex: &Hex,
    player: Player,
    (ours, free): (CellSet, CellSet),
    (a, b): (Node, Node),
    owner_moves: bool,
) -> bool {
    if joined(hex, player, &ours, a, b) {
        return true;
    }
    let taking = |cell: usize| {
        let mut left = free;
        left.remove(cell);
        left
    };
    if owner_moves {
        free.iter().any(|cell| {
            let mut more = ours;
            more.insert(cell);
            connects(hex, player, (more, taking(cell)), (a, b), false)
        })
    } else {
        !free.is_empty()
            && free
                .iter()
                .all(|cell| connects(hex, player, (ours, taking(cell)), (a, b), true))
    }
}

/// Checks every connection of `vc` whose carrier has at most `max_cells`
/// cells by playing it out; returns how many were checked.
fn check_by_play(hex: &Hex, vc: &Connections, max_cells: usize) -> usize {
    let mut checked = 0;
    for (a, b, pair) in vc.pairs() {
        let mut ours = CellSet::EMPTY;
        for end in [a, b] {
            if let Some(cell) = end.empty_cell() {
                ours.insert(cell);
            }
        }
        let lists = [(&pair.full, false), (&pair.semi, true)];
        for (carriers, owner_moves) in lists {
            for carrier in carriers.iter().filter(|c| c.len() <= max_cells) {
                assert!(
                    carrier.iter().all(|cell| hex.stone_at(cell) == EMPTY),
                    "{a:?}-{b:?}: carrier {carrier:?} holds a stone in {}",
                    hex.to_fen()
                );
                let ends = (a, b);
                assert!(
                    connects(hex, vc.player, (ours, *carrier), ends, owner_moves),
                    "{a:?}-{b:?}: {} carrier {carrier:?} does not hold in {}",
                    if owner_moves { "semi" } else { "full" },
                    hex.to_fen()
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn every_connection_carried_through_a_game_holds() {
    let mut checked = 0;
    for seed in 0..4 {
        for player in [Player::P1, Player::P2] {
            let mut hex = start(6);
            let mut vc = Connections::search(&hex, player, Budget::FULL);
            for cell in random_game(6, seed) {
                hex.make_move(HexMove(cell as u16));
                let mut next = Connections::default();
                next.search_after_stone(&vc, &hex, cell, Budget::FULL);
                vc = next;
                checked += check_by_play(&hex, &vc, 6);
            }
        }
    }
    assert!(checked > 1000, "only {checked} connections checked");
}

/// The edge-to-edge verdicts: a full connection, a semi one, or neither.
fn edge_verdict(vc: &Connections) -> (bool, bool) {
    (
        !vc.edge_to_edge_full().is_empty(),
        !vc.edge_to_edge_semi().is_empty(),
    )
}

#[test]
fn carried_connections_see_what_a_fresh_search_sees() {
    let (mut positions, mut agreed, mut won) = (0, 0, 0);
    for seed in 0..6 {
        for player in [Player::P1, Player::P2] {
            let mut hex = start(9);
            let mut vc = Connections::search(&hex, player, Budget::FULL);
            for cell in random_game(9, 100 + seed) {
                hex.make_move(HexMove(cell as u16));
                let mut next = Connections::default();
                next.search_after_stone(&vc, &hex, cell, Budget::FULL);
                vc = next;
                let fresh = Connections::search(&hex, player, Budget::FULL);
                positions += 1;
                if edge_verdict(&vc) == edge_verdict(&fresh) {
                    agreed += 1;
                }
                if edge_verdict(&fresh).0 {
                    won += 1;
                }
            }
        }
    }
    eprintln!("{agreed} of {positions} verdicts agree ({won} proven wins)");
    assert!(won > 20, "{won}");
    assert!(agreed * 100 >= positions * 95, "{agreed} of {positions}");
}
