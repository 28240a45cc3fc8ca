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
//! the stone perpendicular to the edge, on all four edges.

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
pub const TEMPLATES: [Template; 2] = [
    // Row 2, the bridge to the edge: the two cells between stone and edge.
    Template {
        name: "II (bridge to edge)",
        row: 2,
        carrier: &[(0, 1), (1, 1)],
    },
    // Row 3, the ziggurat (IIIa): the stone reaches row 2 on (0, 1) or
    // (1, 1), or bridges to (2, 1) over (1, 0) and (1, 1); no cell lies in
    // all three ways.
    //       h=2    .  .  .  .
    //       h=1     .  .  .
    //       h=0      S  .
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
