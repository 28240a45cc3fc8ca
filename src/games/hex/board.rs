//! The Hex position: stones, side to move, incremental connectivity
//! (union-find with an undo stack) and the Zobrist key.

use super::geometry::{geometry, stone_key, Geometry, BLACK_GOAL, MAX_SIZE, WHITE_GOAL, ZOBRIST};
use crate::core::Player;

pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;

/// A move: a cell index (row * N + column) or the pie-rule swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HexMove(pub u16);

impl crate::core::MoveCode for HexMove {
    fn to_code(self) -> u32 {
        u32::from(self.0)
    }
    fn from_code(code: u32) -> Self {
        HexMove(code as u16)
    }
}

impl HexMove {
    pub const SWAP: HexMove = HexMove(u16::MAX);

    pub fn cell(cell: usize) -> HexMove {
        HexMove(cell as u16)
    }

    pub fn is_swap(self) -> bool {
        self == HexMove::SWAP
    }
}

/// The rules that vary: board side and the pie rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexRules {
    pub board_size: usize,
    pub swap: bool,
}

impl Default for HexRules {
    fn default() -> Self {
        HexRules {
            board_size: 11,
            swap: true,
        }
    }
}

pub fn stone_of(player: Player) -> u8 {
    match player {
        Player::P1 => BLACK,
        Player::P2 => WHITE,
    }
}

fn goal_of(stone: u8) -> u8 {
    if stone == BLACK {
        BLACK_GOAL
    } else {
        WHITE_GOAL
    }
}

/// The sides a stone of this colour on this cell touches.
fn own_edges(geo: &Geometry, stone: u8, cell: usize) -> u8 {
    geo.edges[cell] & goal_of(stone)
}

/// One union performed when a stone joined a group, enough to undo it.
#[derive(Clone, Copy, Debug)]
struct Union {
    child: u16,
    root: u16,
    root_edges: u8,
}

/// A Hex position under given rules.
#[derive(Clone, Debug)]
pub struct Hex {
    pub(super) geo: &'static Geometry,
    pub(super) swap_rule: bool,
    pub(super) cells: Vec<u8>,
    pub(super) to_move: Player,
    pub(super) stone_count: [u32; 2],
    pub(super) ply: u32,
    pub(super) winner: Option<Player>,
    /// Zobrist keys of the position seen through the board's four
    /// symmetries (see `symmetric_keys`); `keys[0]` is the plain key.
    pub(super) keys: [u64; 4],
    /// Each colour's stones (0 Black, 1 White) as one bit a cell, a word a
    /// row (bit c is column c), for the bit-parallel evaluation.
    stone_rows: [[u32; MAX_SIZE]; 2],
    // Union-find over cells; only meaningful for occupied cells. Union by
    // size without path compression, so that every union can be undone.
    parent: Vec<u16>,
    group_size: Vec<u16>,
    group_edges: Vec<u8>,
    unions: Vec<Union>,
    /// Length of `unions` before each stone still on the board was placed,
    /// in placement order.
    placements: Vec<(u16, u32)>,
}

impl Hex {
    pub fn empty(rules: &HexRules) -> Hex {
        let geo = geometry(rules.board_size);
        let cells = geo.cells();
        Hex {
            geo,
            swap_rule: rules.swap,
            cells: vec![EMPTY; cells],
            to_move: Player::P1,
            stone_count: [0, 0],
            ply: 0,
            winner: None,
            keys: [0, 0, ZOBRIST.white_to_move, ZOBRIST.white_to_move],
            stone_rows: [[0; MAX_SIZE]; 2],
            parent: (0..cells as u16).collect(),
            group_size: vec![1; cells],
            group_edges: vec![0; cells],
            unions: Vec::with_capacity(cells),
            placements: Vec::with_capacity(cells),
        }
    }

    pub fn size(&self) -> usize {
        self.geo.size
    }

    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    pub fn stone_at(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// The stones of `stone` (BLACK or WHITE), a word a row, bit c for
    /// column c.
    pub fn stone_rows(&self, stone: u8) -> &[u32] {
        &self.stone_rows[(stone - 1) as usize][..self.geo.size]
    }

    fn toggle_stone_bit(&mut self, stone: u8, cell: usize) {
        let (col, row) = self.geo.col_row(cell);
        self.stone_rows[(stone - 1) as usize][row] ^= 1 << col;
    }

    /// The plain Zobrist key (side to move included).
    pub fn hash_key(&self) -> u64 {
        self.keys[0]
    }

    /// The same key for every position equal to this one up to the board's
    /// symmetries: the half turn, and the reflection across the diagonal
    /// with colours (and the side to move) exchanged. Positions equal this
    /// way have the same value for the side to move.
    pub fn canonical_key(&self) -> u64 {
        self.keys.iter().copied().min().unwrap_or(self.keys[0])
    }

    fn toggle_stone_keys(&mut self, stone: u8, cell: usize) {
        let size = self.geo.size;
        let (col, row) = self.geo.col_row(cell);
        let (far_col, far_row) = (size - 1 - col, size - 1 - row);
        let colour = (stone - 1) as usize;
        let at = |c: usize, r: usize| r * size + c;
        self.keys[0] ^= stone_key(size, colour, cell);
        self.keys[1] ^= stone_key(size, colour, at(far_col, far_row));
        self.keys[2] ^= stone_key(size, 1 - colour, at(row, col));
        self.keys[3] ^= stone_key(size, 1 - colour, at(far_row, far_col));
    }

    fn toggle_side_keys(&mut self) {
        for key in self.keys.iter_mut() {
            *key ^= ZOBRIST.white_to_move;
        }
    }

    pub fn side_to_move_player(&self) -> Player {
        self.to_move
    }

    pub fn stones_on_board(&self) -> u32 {
        self.stone_count[0] + self.stone_count[1]
    }

    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// Hands the turn to the other side without a stone (the search's null
    /// move), except where the pass would change whether swap is legal.
    /// Returns whether it passed; a pass is its own inverse.
    pub fn pass(&mut self) -> bool {
        if self.winner.is_some() || (self.swap_rule && self.stone_count == [1, 0]) {
            return false;
        }
        self.to_move = self.to_move.other();
        self.toggle_side_keys();
        true
    }

    pub fn set_side_to_move(&mut self, player: Player) {
        if player != self.to_move {
            self.to_move = player;
            self.toggle_side_keys();
        }
    }

    /// Representative of the group holding the stone on `cell`.
    pub fn find(&self, mut cell: usize) -> usize {
        while self.parent[cell] as usize != cell {
            cell = self.parent[cell] as usize;
        }
        cell
    }

    /// The sides joined by the group holding the stone on `cell`.
    pub fn edges_of_group(&self, cell: usize) -> u8 {
        self.group_edges[self.find(cell)]
    }

    /// Whether `swap` is legal here: pie rule on, White to move, and the
    /// board holds exactly one stone, Black's.
    pub fn swap_is_legal(&self) -> bool {
        self.swap_rule
            && self.winner.is_none()
            && self.to_move == Player::P2
            && self.stone_count == [1, 0]
    }

    /// Why `mv` is not legal here, for a person.
    pub fn why_illegal(&self, mv: HexMove) -> String {
        if mv.is_swap() {
            return if !self.swap_rule {
                "this game is played without the swap (pie rule)".to_owned()
            } else {
                "the swap is only White's first move, just after Black's first stone".to_owned()
            };
        }
        let name = super::notation::cell_name(self.size(), usize::from(mv.0));
        if self.stone_at(usize::from(mv.0)) != EMPTY {
            format!("cell {name} is occupied")
        } else {
            format!("{name} is not a legal move here")
        }
    }

    /// Puts a stone and joins it to its neighbours, recording what undoes it.
    pub(super) fn place_stone(&mut self, cell: usize, stone: u8) {
        let geo = self.geo;
        self.placements
            .push((cell as u16, self.unions.len() as u32));
        self.cells[cell] = stone;
        self.stone_count[(stone - 1) as usize] += 1;
        self.toggle_stone_keys(stone, cell);
        self.toggle_stone_bit(stone, cell);
        self.parent[cell] = cell as u16;
        self.group_size[cell] = 1;
        self.group_edges[cell] = own_edges(geo, stone, cell);
        for neighbour in geo.neighbours(cell) {
            if self.cells[neighbour] != stone {
                continue;
            }
            let a = self.find(cell);
            let b = self.find(neighbour);
            if a == b {
                continue;
            }
            let (child, root) = if self.group_size[a] < self.group_size[b] {
                (a, b)
            } else {
                (b, a)
            };
            self.unions.push(Union {
                child: child as u16,
                root: root as u16,
                root_edges: self.group_edges[root],
            });
            self.parent[child] = root as u16;
            self.group_size[root] += self.group_size[child];
            self.group_edges[root] |= self.group_edges[child];
        }
        let joined = self.group_edges[self.find(cell)];
        let goal = goal_of(stone);
        if joined & goal == goal {
            self.winner = Some(if stone == BLACK {
                Player::P1
            } else {
                Player::P2
            });
        }
    }

    /// Takes back the most recently placed stone.
    pub(super) fn remove_last_stone(&mut self) -> Option<usize> {
        let (cell, mark) = self.placements.pop()?;
        let cell = cell as usize;
        while self.unions.len() > mark as usize {
            if let Some(u) = self.unions.pop() {
                let (child, root) = (u.child as usize, u.root as usize);
                self.parent[child] = child as u16;
                self.group_size[root] -= self.group_size[child];
                self.group_edges[root] = u.root_edges;
            }
        }
        let stone = self.cells[cell];
        self.cells[cell] = EMPTY;
        self.stone_count[(stone - 1) as usize] -= 1;
        self.toggle_stone_keys(stone, cell);
        self.toggle_stone_bit(stone, cell);
        self.winner = None;
        Some(cell)
    }

    /// The cells of the stones on the board, in the order they were placed.
    pub(super) fn placement_order(&self) -> impl Iterator<Item = usize> + '_ {
        self.placements.iter().map(|&(cell, _)| cell as usize)
    }

    /// The cell of the last stone placed, if any.
    pub fn last_placed(&self) -> Option<usize> {
        self.placements.last().map(|&(cell, _)| cell as usize)
    }

    /// The cell of the stone placed before the last one: the side to
    /// move's own last stone, unless a swap came between.
    pub fn own_last_placed(&self) -> Option<usize> {
        let count = self.placements.len();
        (count >= 2).then(|| self.placements[count - 2].0 as usize)
    }

    pub(super) fn apply(&mut self, mv: HexMove) {
        if mv.is_swap() {
            if let Some(cell) = self.remove_last_stone() {
                self.place_stone(self.geo.mirror(cell), WHITE);
            }
        } else {
            self.place_stone(mv.0 as usize, stone_of(self.to_move));
        }
        self.ply += 1;
        self.to_move = self.to_move.other();
        self.toggle_side_keys();
    }

    pub(super) fn revert(&mut self, mv: HexMove) {
        self.ply = self.ply.saturating_sub(1);
        self.to_move = self.to_move.other();
        self.toggle_side_keys();
        let removed = self.remove_last_stone();
        if mv.is_swap() {
            if let Some(cell) = removed {
                self.place_stone(self.geo.mirror(cell), BLACK);
            }
        }
    }

    /// Empty cells, in index order.
    pub fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s == EMPTY)
            .map(|(i, _)| i)
    }

    /// Occupied cells, in index order.
    pub fn occupied_cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s != EMPTY)
            .map(|(i, _)| i)
    }

    /// Whether the group of the stone on `cell` touches both of its
    /// owner's sides.
    pub fn group_connects(&self, cell: usize) -> bool {
        let goal = goal_of(self.cells[cell]);
        self.edges_of_group(cell) & goal == goal
    }
}

/// The edge bits that make a win for the owner of `stone`.
pub fn goal_edges(stone: u8) -> u8 {
    goal_of(stone)
}

/// Edge bits of a cell that count for the owner of `stone`.
pub fn edges_for(geo: &Geometry, stone: u8, cell: usize) -> u8 {
    own_edges(geo, stone, cell)
}
