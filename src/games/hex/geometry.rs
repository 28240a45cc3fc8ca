//! Board geometry shared by every position of one size: neighbour lists,
//! edge flags and Zobrist keys, built once per size and never copied.

use once_cell::sync::Lazy;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// Largest board side the engine supports.
pub const MAX_SIZE: usize = 25;
/// Cells of the largest board; bounds Zobrist tables.
pub const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// Marks a missing neighbour (off the board).
pub const NO_CELL: u16 = u16::MAX;

/// Edge bits: Black joins TOP (row 1) to BOTTOM (row N), White joins LEFT
/// (column a) to RIGHT (the last column).
pub const TOP: u8 = 1;
pub const BOTTOM: u8 = 2;
pub const LEFT: u8 = 4;
pub const RIGHT: u8 = 8;
pub const BLACK_GOAL: u8 = TOP | BOTTOM;
pub const WHITE_GOAL: u8 = LEFT | RIGHT;

/// Neighbour offsets (column, row) in ring order, so that consecutive
/// entries are themselves adjacent cells.
pub const DIRECTIONS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

/// The immutable facts about an N x N board.
#[derive(Debug)]
pub struct Geometry {
    pub size: usize,
    /// For each cell, the six neighbours in `DIRECTIONS` order (`NO_CELL` off
    /// the board).
    pub ring: Vec<[u16; 6]>,
    /// For each cell, the edges that a missing neighbour in each ring slot
    /// belongs to (0 where the neighbour is on the board).
    pub ring_edge: Vec<[u8; 6]>,
    /// Edge bits of each cell (which of the four sides it touches).
    pub edges: Vec<u8>,
}

impl Geometry {
    fn build(size: usize) -> Geometry {
        let n = size as i32;
        let cells = size * size;
        let mut ring = vec![[NO_CELL; 6]; cells];
        let mut ring_edge = vec![[0u8; 6]; cells];
        let mut edges = vec![0u8; cells];
        for cell in 0..cells {
            let (col, row) = ((cell % size) as i32, (cell / size) as i32);
            for (slot, (dc, dr)) in DIRECTIONS.iter().enumerate() {
                let (c, r) = (col + dc, row + dr);
                if (0..n).contains(&c) && (0..n).contains(&r) {
                    ring[cell][slot] = (r * n + c) as u16;
                } else {
                    // Rows run out first into Black's edges, columns into
                    // White's; a corner slot can fall off both ways only
                    // diagonally, and the row wins as it does for play.
                    ring_edge[cell][slot] = if r < 0 {
                        TOP
                    } else if r >= n {
                        BOTTOM
                    } else if c < 0 {
                        LEFT
                    } else {
                        RIGHT
                    };
                }
            }
            let mut e = 0;
            if row == 0 {
                e |= TOP;
            }
            if row == n - 1 {
                e |= BOTTOM;
            }
            if col == 0 {
                e |= LEFT;
            }
            if col == n - 1 {
                e |= RIGHT;
            }
            edges[cell] = e;
        }
        Geometry {
            size,
            ring,
            ring_edge,
            edges,
        }
    }

    pub fn cells(&self) -> usize {
        self.size * self.size
    }

    pub fn cell(&self, col: usize, row: usize) -> usize {
        row * self.size + col
    }

    pub fn col_row(&self, cell: usize) -> (usize, usize) {
        (cell % self.size, cell / self.size)
    }

    /// The pie rule's reflection: column and row exchanged.
    pub fn mirror(&self, cell: usize) -> usize {
        let (col, row) = self.col_row(cell);
        self.cell(row, col)
    }

    /// On-board neighbours of a cell.
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.ring[cell]
            .iter()
            .filter(|&&n| n != NO_CELL)
            .map(|&n| n as usize)
    }
}

static GEOMETRIES: Lazy<Vec<Geometry>> =
    Lazy::new(|| (0..=MAX_SIZE).map(Geometry::build).collect());

/// The geometry of an N x N board, 1 <= N <= MAX_SIZE.
pub fn geometry(size: usize) -> &'static Geometry {
    &GEOMETRIES[size.clamp(1, MAX_SIZE)]
}

/// Zobrist keys, indexed by (column, row) on the largest board so that a key
/// does not depend on the board size.
pub struct ZobristKeys {
    pub stone: [[u64; MAX_CELLS]; 2],
    pub white_to_move: u64,
}

pub static ZOBRIST: Lazy<ZobristKeys> = Lazy::new(|| {
    let mut rng = StdRng::seed_from_u64(0x4845_585f_5a4f_4252);
    let mut stone = [[0u64; MAX_CELLS]; 2];
    for colour in stone.iter_mut() {
        for key in colour.iter_mut() {
            *key = rng.gen();
        }
    }
    ZobristKeys {
        stone,
        white_to_move: rng.gen(),
    }
});

/// Zobrist key of a stone of `colour_index` (0 Black, 1 White) on `cell` of
/// a board of `size`.
pub fn stone_key(size: usize, colour_index: usize, cell: usize) -> u64 {
    let (col, row) = (cell % size, cell / size);
    ZOBRIST.stone[colour_index][row * MAX_SIZE + col]
}
