//! Edge templates: patterns of empty cells that connect a single stone to
//! its edge even if the opponent moves first. They seed H-search's edge
//! connections, which the AND and OR rules alone find only for the lowest
//! rows.
//!
//! A pattern is written for a stone on row `row` counted from the edge
//! (row 1 touches it), in coordinates (along, height): height 0 is the
//! stone's row, height `row - 1` the row touching the edge, and the two
//! cells above (a, h) toward the edge are (a, h + 1) and (a + 1, h + 1).
//! Every pattern is used as written and reflected across the line through
//! the stone perpendicular to the edge, on all four edges. (In the
//! pictures, the row toward the edge is drawn above, half a cell to the
//! left.)

use super::super::board::{stone_of, Hex, EMPTY};
use super::super::geometry::Geometry;
use super::cellset::CellSet;
use crate::core::Player;

pub struct Template {
    pub name: &'static str,
    pub row: usize,
    pub carrier: &'static [(i32, i32)],
}

/// The templates, smallest first.
pub const TEMPLATES: [Template; 3] = [
    // Row 2, the bridge to the edge: the two cells between stone and edge.
    Template {
        name: "II (bridge to edge)",
        row: 2,
        carrier: &[(0, 1), (1, 1)],
    },
    // Row 3, the ziggurat (IIIa): the stone reaches row 2 on (0, 1) or
    // (1, 1), or bridges to (2, 1) over (1, 0) and (1, 1); no cell lies in
    // all three ways.
    //       h=2  . . . .
    //       h=1   . . .
    //       h=0    S .
    Template {
        name: "IIIa (ziggurat)",
        row: 3,
        carrier: &[
            (1, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2),
        ],
    },
    // Row 4, IVa: the stone has two ziggurats and a III1b threat whose
    // carriers share no cell. H-search with the ziggurat derives this
    // carrier on an empty board; the exhaustive local game of the tests
    // confirms it holds, and H-search finds no full connection without
    // any one of its cells.
    //       h=3  . . . . . . .
    //       h=2   . . . . . .
    //       h=1    . . . . .
    //       h=0       . S
    Template {
        name: "IVa",
        row: 4,
        carrier: &[
            (-1, 0),
            (-2, 1),
            (-1, 1),
            (0, 1),
            (1, 1),
            (2, 1),
            (-2, 2),
            (-1, 2),
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2),
            (-2, 3),
            (-1, 3),
            (0, 3),
            (1, 3),
            (2, 3),
            (3, 3),
            (4, 3),
        ],
    },
];

/// The board cell of pattern offset (along, height) for a stone on
/// (column, row), toward `edge` (0 top, 1 bottom, 2 left, 3 right),
/// reflected or not; `None` off the board.
fn place(
    geo: &Geometry,
    (col, row): (usize, usize),
    edge: usize,
    reflected: bool,
    (along, height): (i32, i32),
) -> Option<usize> {
    let along = if reflected { height - along } else { along };
    let (c, r) = (col as i32, row as i32);
    let (c, r) = match edge {
        0 => (c + along, r - height),
        1 => (c - along, r + height),
        2 => (c - height, r + along),
        _ => (c + height, r - along),
    };
    let n = geo.size as i32;
    ((0..n).contains(&c) && (0..n).contains(&r)).then(|| geo.cell(c as usize, r as usize))
}

/// The row of (column, row) counted from `edge` (1 touches it).
fn row_from(geo: &Geometry, (col, row): (usize, usize), edge: usize) -> usize {
    match edge {
        0 => row + 1,
        1 => geo.size - row,
        2 => col + 1,
        _ => geo.size - col,
    }
}

/// Calls `found(cell, edge, carrier)` for every template that connects the
/// player's stone or empty cell `cell` to its edge `edge` (0 first, 1
/// second): each carrier cell on the board and empty.
pub fn seed_edge_templates(
    hex: &Hex,
    player: Player,
    mut found: impl FnMut(usize, usize, CellSet),
) {
    let geo = hex.geometry();
    let stone = stone_of(player);
    let board_edges = match player {
        Player::P1 => [0, 1],
        Player::P2 => [2, 3],
    };
    for cell in 0..geo.cells() {
        let content = hex.stone_at(cell);
        if content != EMPTY && content != stone {
            continue;
        }
        let at = geo.col_row(cell);
        for (edge, &board_edge) in board_edges.iter().enumerate() {
            let row = row_from(geo, at, board_edge);
            for template in TEMPLATES.iter().filter(|t| t.row == row) {
                for reflected in [false, true] {
                    if let Some(carrier) = carrier_at(hex, at, board_edge, reflected, template) {
                        found(cell, edge, carrier);
                    }
                }
            }
        }
    }
}

fn carrier_at(
    hex: &Hex,
    at: (usize, usize),
    board_edge: usize,
    reflected: bool,
    template: &Template,
) -> Option<CellSet> {
    let geo = hex.geometry();
    let mut carrier = CellSet::EMPTY;
    for &offset in template.carrier {
        let cell = place(geo, at, board_edge, reflected, offset)?;
        if hex.stone_at(cell) != EMPTY {
            return None;
        }
        carrier.insert(cell);
    }
    Some(carrier)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hex::geometry::geometry;
    use std::collections::HashMap;

    /// The local game of a template: a stone on row `row` of a board large
    /// enough, its carrier cells, the top edge.
    struct LocalGame {
        /// Per carrier cell: carrier neighbours (bits), touches the stone,
        /// touches the edge.
        neighbours: Vec<u32>,
        at_stone: u32,
        at_edge: u32,
        memo: HashMap<(u32, u32), bool>,
    }

    impl LocalGame {
        fn new(row: usize, carrier: &[(i32, i32)]) -> LocalGame {
            let geo = geometry(16);
            let stone = (7, row - 1);
            let cells: Vec<usize> = carrier
                .iter()
                .map(|&offset| place(geo, stone, 0, false, offset).expect("on the board"))
                .collect();
            let stone_cell = geo.cell(stone.0, stone.1);
            let bits = |of: usize| {
                cells
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| geo.neighbours(of).any(|n| n == c))
                    .fold(0u32, |acc, (i, _)| acc | 1 << i)
            };
            let neighbours = cells.iter().map(|&c| bits(c)).collect();
            let at_edge = cells
                .iter()
                .enumerate()
                .filter(|&(_, &c)| geo.col_row(c).1 == 0)
                .fold(0u32, |acc, (i, _)| acc | 1 << i);
            LocalGame {
                neighbours,
                at_stone: bits(stone_cell),
                at_edge,
                memo: HashMap::new(),
            }
        }

        /// Whether the cells of `open` join the stone to the edge.
        fn joins(&self, open: u32) -> bool {
            let mut reached = self.at_stone & open;
            loop {
                if reached & self.at_edge != 0 {
                    return true;
                }
                let mut next = reached;
                for (i, &n) in self.neighbours.iter().enumerate() {
                    if reached & (1 << i) != 0 {
                        next |= n & open;
                    }
                }
                if next == reached {
                    return false;
                }
                reached = next;
            }
        }

        /// Whether the stone's owner connects, `black` and `white` placed,
        /// the opponent (White) to move if `white_to_move`.
        fn owner_connects(&mut self, black: u32, white: u32, white_to_move: bool) -> bool {
            let all = (1u32 << self.neighbours.len()) - 1;
            if self.joins(black) {
                return true;
            }
            if !self.joins(all & !white) {
                return false;
            }
            if let Some(&known) = self.memo.get(&(black, white)) {
                return known;
            }
            let empty = all & !black & !white;
            let result = if white_to_move {
                (0..self.neighbours.len())
                    .filter(|i| empty & (1 << i) != 0)
                    .all(|i| self.owner_connects(black, white | 1 << i, false))
            } else {
                (0..self.neighbours.len())
                    .filter(|i| empty & (1 << i) != 0)
                    .any(|i| self.owner_connects(black | 1 << i, white, true))
            };
            self.memo.insert((black, white), result);
            result
        }
    }

    fn holds(row: usize, carrier: &[(i32, i32)]) -> bool {
        LocalGame::new(row, carrier).owner_connects(0, 0, true)
    }

    #[test]
    fn the_low_templates_hold_and_need_every_cell() {
        for template in TEMPLATES.iter().filter(|t| t.row <= 3) {
            assert!(holds(template.row, template.carrier), "{}", template.name);
            for skip in 0..template.carrier.len() {
                let mut smaller = template.carrier.to_vec();
                smaller.remove(skip);
                assert!(!holds(template.row, &smaller), "{} {skip}", template.name);
            }
        }
    }

    /// Two minutes of exhaustive play on the shared machine: run by hand.
    #[test]
    #[ignore]
    fn the_row_four_template_holds() {
        let template = &TEMPLATES[2];
        assert!(holds(template.row, template.carrier));
    }

    /// A lone stone of `player` on the template's row from `board_edge`,
    /// mid-edge on 11x11, `intruder` (an offset) taken by the opponent.
    fn lone_stone(
        player: Player,
        template: &Template,
        board_edge: usize,
        intruder: Option<(i32, i32)>,
    ) -> (Hex, usize) {
        use crate::core::Game;
        let rules = crate::games::hex::HexRules::default();
        let mut hex =
            Hex::from_fen("11/11/11/11/11/11/11/11/11/11/11 b", &rules).expect("the empty board");
        let geo = hex.geometry();
        let depth = template.row - 1;
        let at = match board_edge {
            0 => (5, depth),
            1 => (5, 10 - depth),
            2 => (depth, 5),
            _ => (10 - depth, 5),
        };
        let cell = geo.cell(at.0, at.1);
        let opponent = player.other();
        let mut place_stone = |cell: usize, owner: Player| {
            hex.set_side_to_move(owner);
            hex.make_move(crate::games::hex::HexMove::cell(cell));
        };
        place_stone(cell, player);
        let broken = intruder.and_then(|offset| place(geo, at, board_edge, false, offset));
        if let Some(spot) = broken {
            place_stone(spot, opponent);
        }
        hex.set_side_to_move(opponent);
        (hex, cell)
    }

    fn full_to_edge(hex: &Hex, player: Player, cell: usize, edge: u16) -> Vec<CellSet> {
        use crate::games::hex::vc::{Budget, Connections};
        let vc = Connections::compute(hex, player, Budget::FULL);
        let node = vc.node_at(cell).expect("the stone");
        vc.between(node, edge)
            .map(|pair| pair.full.clone())
            .unwrap_or_default()
    }

    /// Each template, on all four edges and both ways round, gives its
    /// carrier as a full connection of a lone stone to the edge; with an
    /// opponent's stone on a cell every orientation shares, H-search finds
    /// none.
    #[test]
    fn every_template_connects_a_lone_stone_until_a_stone_breaks_it() {
        // The cell straight ahead on the row before the edge lies in every
        // orientation of each template (checked below).
        for template in &TEMPLATES {
            for board_edge in 0..4 {
                let player = if board_edge < 2 {
                    Player::P1
                } else {
                    Player::P2
                };
                let edge = (board_edge % 2) as u16;
                let (hex, cell) = lone_stone(player, template, board_edge, None);
                let geo = hex.geometry();
                let at = geo.col_row(cell);
                for reflected in [false, true] {
                    let carrier = carrier_at(&hex, at, board_edge, reflected, template)
                        .expect("the template fits mid-edge");
                    let full = full_to_edge(&hex, player, cell, edge);
                    assert!(
                        full.contains(&carrier),
                        "{} edge {board_edge}",
                        template.name
                    );
                }
                let ahead = (0, template.row as i32 - 1);
                let (broken, cell) = lone_stone(player, template, board_edge, Some(ahead));
                let full = full_to_edge(&broken, player, cell, edge);
                assert!(
                    full.is_empty(),
                    "{} edge {board_edge}: {full:?}",
                    template.name
                );
            }
        }
    }
}
