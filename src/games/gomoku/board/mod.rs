//! The board: stones, Zobrist key, and the per-cell line keys and threats
//! that make/unmake keep up to date through the shape tables (`lines`).

use once_cell::sync::Lazy;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::pattern::{
    combination_index, combination_table, digit_position, shape_table, Combination, Shape,
    ShapeTable, Threat, DIGIT_BLOCKED, HALF_WINDOW, POW3, ROLE_WAITING, THREAT_COUNT, T_FIVE,
    T_NONE,
};
use super::renju;

mod lines;
mod reshapes;
use lines::{side_key, BOTH_SIDES};
pub use reshapes::Reshape;
use reshapes::Reshapes;

/// Cells are numbered `y * STRIDE + x` whatever the board size, so a move
/// means the same cell on every board.
pub const STRIDE: usize = 32;
pub const MAX_SIZE: usize = 22;
pub const MIN_SIZE: usize = 5;
pub const CELL_COUNT: usize = MAX_SIZE * STRIDE;
/// Words of a set of cells, one bit a cell.
const CELL_WORDS: usize = CELL_COUNT.div_ceil(64);

/// The four line directions (dx, dy): horizontal, vertical, two diagonals.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Cell contents.
pub const EMPTY: u8 = 0;
/// Stone of player index 0 (Black) is 1, of player index 1 (White) is 2.
pub const fn stone_of(side: usize) -> u8 {
    side as u8 + 1
}

/// How many cells around a stone count as "near" for candidate moves.
pub const NEAR_RADIUS: i32 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rule {
    /// Five or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five wins; six or more does not.
    Standard,
    /// Renju: Black wins with exactly five and may not play a forbidden
    /// point (overline, double four, double three, see `renju`); White wins
    /// with five or more.
    Renju,
}

/// Player index of Black, the first player, the one Renju restricts.
pub const BLACK: usize = 0;

struct ZobristKeys {
    stones: [[u64; CELL_COUNT]; 2],
    side: u64,
}

static ZOBRIST: Lazy<ZobristKeys> = Lazy::new(|| {
    let mut rng = SmallRng::seed_from_u64(0x6f6d_6f6b_755f_6b65);
    let mut stones = [[0u64; CELL_COUNT]; 2];
    for side in stones.iter_mut() {
        for key in side.iter_mut() {
            *key = rng.gen();
        }
    }
    ZobristKeys {
        stones,
        side: rng.gen(),
    }
});

pub fn cell_of(x: usize, y: usize) -> usize {
    y * STRIDE + x
}

pub fn coordinates(cell: usize) -> (usize, usize) {
    (cell % STRIDE, cell / STRIDE)
}

#[derive(Clone)]
pub struct Board {
    size: usize,
    rule: Rule,
    /// Shape table per side: exactly five for Black under `standard` and
    /// `renju`, for White under `standard` only.
    tables: [&'static ShapeTable; 2],
    combinations: &'static [Combination],
    cells: [u8; CELL_COUNT],
    /// Line keys per cell and direction (base 3, see `pattern`), both
    /// sides' in one word, Black's in the low half: a stone changes both
    /// with one addition, and no key ever carries into the other.
    keys: [[u32; 4]; CELL_COUNT],
    /// Per side and empty cell, the index of its four shapes in the
    /// combination table (`pattern::combination_index`), kept so that a
    /// shape change in one direction moves it by one place value.
    combos: [[u16; CELL_COUNT]; 2],
    /// Threat per side on each empty cell (`T_NONE` on stones).
    threats: [[Threat; CELL_COUNT]; 2],
    /// Heuristic value per side on each empty cell, in each role
    /// (`pattern::ROLE_TO_MOVE`, `ROLE_WAITING`).
    values: [[[i16; 2]; CELL_COUNT]; 2],
    /// The empty cells where each side makes a four or better, one bit a
    /// cell: the threat searches read their candidates from here instead of
    /// scanning the board. Such a cell always touches a stone of the four.
    four_cells: [[u64; CELL_WORDS]; 2],
    /// Number of empty cells holding each threat, per side.
    threat_counts: [[u16; THREAT_COUNT]; 2],
    /// Sum of `values` over the empty cells, per side and role.
    value_sums: [[i32; 2]; 2],
    /// Stones within `NEAR_RADIUS` of each cell.
    near: [u8; CELL_COUNT],
    stones: usize,
    /// What the last stone put changed in the cells' combinations.
    reshapes: Reshapes,
    hash: u64,
    /// Player index to move (0 Black, 1 White).
    side: usize,
    winner: Option<usize>,
}

impl Board {
    pub fn new(size: usize, rule: Rule) -> Board {
        let mut board = Board {
            size,
            rule,
            tables: [
                shape_table(rule != Rule::Freestyle),
                shape_table(rule == Rule::Standard),
            ],
            combinations: combination_table(),
            cells: [EMPTY; CELL_COUNT],
            keys: [[0; 4]; CELL_COUNT],
            combos: [[0; CELL_COUNT]; 2],
            threats: [[T_NONE; CELL_COUNT]; 2],
            values: [[[0; 2]; CELL_COUNT]; 2],
            four_cells: [[0; CELL_WORDS]; 2],
            threat_counts: [[0; THREAT_COUNT]; 2],
            value_sums: [[0; 2]; 2],
            near: [0; CELL_COUNT],
            stones: 0,
            reshapes: Reshapes::default(),
            hash: 0,
            side: 0,
            winner: None,
        };
        // The edge blocks like an opponent's stone, for both sides.
        for y in 0..size {
            for x in 0..size {
                let cell = cell_of(x, y);
                for (direction, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                    let mut key = 0u16;
                    for offset in -(HALF_WINDOW as i32)..=HALF_WINDOW as i32 {
                        if offset != 0
                            && !board.on_board(x as i32 + offset * dx, y as i32 + offset * dy)
                        {
                            key += DIGIT_BLOCKED * POW3[digit_position(offset)];
                        }
                    }
                    board.keys[cell][direction] = key as u32 * BOTH_SIDES;
                }
                board.refresh_cell(cell, 1);
            }
        }
        board
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn on_board(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.size && (y as usize) < self.size
    }

    pub fn contains(&self, cell: usize) -> bool {
        let (x, y) = coordinates(cell);
        cell < CELL_COUNT && x < self.size && y < self.size
    }

    pub fn stone(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    pub fn is_empty(&self, cell: usize) -> bool {
        self.cells[cell] == EMPTY
    }

    pub fn stone_count(&self) -> usize {
        self.stones
    }

    pub fn is_full(&self) -> bool {
        self.stones == self.size * self.size
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The key of the stones alone, whoever is to move.
    pub fn stones_hash(&self) -> u64 {
        match self.side {
            0 => self.hash,
            _ => self.hash ^ ZOBRIST.side,
        }
    }

    pub fn side(&self) -> usize {
        self.side
    }

    pub fn set_side(&mut self, side: usize) {
        if side != self.side {
            self.side = side;
            self.hash ^= ZOBRIST.side;
        }
    }

    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    pub fn set_winner(&mut self, winner: Option<usize>) {
        self.winner = winner;
    }

    pub fn is_near(&self, cell: usize) -> bool {
        self.near[cell] > 0
    }

    /// The shape `side` would make at empty `cell` along `direction`.
    #[inline]
    pub fn shape(&self, side: usize, cell: usize, direction: usize) -> Shape {
        self.tables[side][self.key(side, cell, direction) as usize]
    }

    /// Where `side`'s four shapes at empty `cell` stand in the combination
    /// table (`pattern::combination_index`), as make/unmake keep it.
    pub fn combination(&self, side: usize, cell: usize) -> usize {
        usize::from(self.combos[side][cell])
    }

    /// The line key of `side` at `cell` along `direction` (see `pattern`).
    pub fn line_key(&self, side: usize, cell: usize, direction: usize) -> usize {
        self.key(side, cell, direction) as usize
    }

    #[inline(always)]
    fn key(&self, side: usize, cell: usize, direction: usize) -> u16 {
        side_key(self.keys[cell][direction], side)
    }

    /// Whether some cells may be forbidden to `side`: Black under Renju.
    #[inline]
    pub fn is_restricted(&self, side: usize) -> bool {
        side == BLACK && self.rule == Rule::Renju
    }

    /// Whether `side` may not place a stone on empty `cell`: a forbidden
    /// point of Black under Renju. Cheap for every other rule and side.
    #[inline]
    pub fn is_forbidden_to(&self, side: usize, cell: usize) -> bool {
        self.is_restricted(side)
            && renju::may_be_forbidden(self, cell)
            && renju::forbidden_kind(self, cell).is_some()
    }

    pub fn threat(&self, side: usize, cell: usize) -> Threat {
        self.threats[side][cell]
    }

    /// The cell's value to `side` as the side waiting: what move ordering
    /// and the threat search weigh cells by, whoever is to move.
    pub fn value(&self, side: usize, cell: usize) -> i16 {
        self.values[side][cell][ROLE_WAITING]
    }

    pub fn threat_count(&self, side: usize, threat: Threat) -> u16 {
        self.threat_counts[side][threat as usize]
    }

    /// Empty cells where `side` has a threat of at least `threat`.
    pub fn count_at_least(&self, side: usize, threat: Threat) -> u16 {
        self.threat_counts[side][threat as usize..].iter().sum()
    }

    /// The empty cells where `side` makes a four or better (a four, a
    /// four-three, an open four, a five), in board order.
    pub fn four_cells(&self, side: usize) -> impl Iterator<Item = usize> + '_ {
        self.four_cells[side]
            .iter()
            .enumerate()
            .flat_map(|(index, &word)| {
                let mut bits = word;
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let bit = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        index * 64 + bit
                    })
                })
            })
    }

    /// The sum of `side`'s cell values in `role`.
    pub fn value_sum(&self, side: usize, role: usize) -> i32 {
        self.value_sums[side][role]
    }

    /// The threat `side` would have at empty `cell` if `blocker` (another
    /// empty cell) held an opponent's stone.
    pub fn threat_if_blocked(&self, side: usize, cell: usize, blocker: usize) -> Threat {
        let (x, y) = coordinates(cell);
        let (bx, by) = coordinates(blocker);
        let (dx, dy) = (bx as i32 - x as i32, by as i32 - y as i32);
        let (direction, offset) = match (dx, dy) {
            (_, 0) => (0, dx),
            (0, _) => (1, dy),
            _ if dx == dy => (2, dx),
            _ if dx == -dy => (3, dx),
            _ => return self.threats[side][cell],
        };
        if offset == 0 || offset.abs() > HALF_WINDOW as i32 {
            return self.threats[side][cell];
        }
        let mut shapes = [0, 1, 2, 3].map(|d| self.shape(side, cell, d));
        let key = self.key(side, cell, direction) + DIGIT_BLOCKED * POW3[digit_position(offset)];
        shapes[direction] = self.tables[side][key as usize];
        self.combinations[combination_index(shapes)].0
    }

    /// The on-board cells of the line through `cell` in `direction`, at
    /// distances 1..=reach on both sides.
    pub fn line_cells(
        &self,
        cell: usize,
        direction: usize,
        reach: i32,
    ) -> impl Iterator<Item = usize> + '_ {
        let (x, y) = coordinates(cell);
        let (dx, dy) = DIRECTIONS[direction];
        (-reach..=reach).filter_map(move |offset| {
            let (nx, ny) = (x as i32 + offset * dx, y as i32 + offset * dy);
            (offset != 0 && self.on_board(nx, ny)).then(|| cell_of(nx as usize, ny as usize))
        })
    }

    /// Places a stone of the side to move, passes the turn, and records a
    /// five if the stone made one.
    pub fn play(&mut self, cell: usize) {
        let side = self.side;
        if self.threats[side][cell] == T_FIVE {
            self.winner = Some(side);
        }
        self.put(cell, side);
        self.side ^= 1;
        self.hash ^= ZOBRIST.side;
    }

    /// Hands the turn to the other side without a stone (the search's null
    /// move); its own inverse.
    pub fn pass(&mut self) {
        self.side ^= 1;
        self.hash ^= ZOBRIST.side;
    }

    /// Takes back `play(cell)`.
    pub fn unplay(&mut self, cell: usize) {
        self.side ^= 1;
        self.hash ^= ZOBRIST.side;
        self.winner = None;
        self.remove(cell);
    }

    /// Places a stone of `side` without touching the turn or the result.
    pub fn put(&mut self, cell: usize, side: usize) {
        self.forget_cell(cell);
        self.cells[cell] = stone_of(side);
        self.threats[0][cell] = T_NONE;
        self.threats[1][cell] = T_NONE;
        self.values[0][cell] = [0; 2];
        self.values[1][cell] = [0; 2];
        self.stones += 1;
        self.hash ^= ZOBRIST.stones[side][cell];
        self.reshapes.start(cell);
        self.update_lines(cell, side, true);
        self.update_near(cell, true);
    }

    /// What putting the stone at `cell` changed in the empty cells'
    /// combinations, if it is the last stone put and none was taken away
    /// since. The cell's own combinations are still those from before it.
    pub fn reshapes_of(&self, cell: usize) -> Option<&[Reshape]> {
        self.reshapes.of_stone(cell)
    }

    fn remove(&mut self, cell: usize) {
        let side = (self.cells[cell] - 1) as usize;
        self.reshapes.forget();
        self.update_near(cell, false);
        self.update_lines(cell, side, false);
        self.hash ^= ZOBRIST.stones[side][cell];
        self.stones -= 1;
        self.cells[cell] = EMPTY;
        self.refresh_cell(cell, 1);
    }

    fn update_near(&mut self, cell: usize, adding: bool) {
        let (x, y) = coordinates(cell);
        for dy in -NEAR_RADIUS..=NEAR_RADIUS {
            for dx in -NEAR_RADIUS..=NEAR_RADIUS {
                let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                if self.on_board(nx, ny) {
                    let near = &mut self.near[cell_of(nx as usize, ny as usize)];
                    *near = if adding { *near + 1 } else { *near - 1 };
                }
            }
        }
    }

    /// `standard`, and for Black under `renju`), counted directly on the board rather than from the keys.
    pub fn five_through(&self, cell: usize) -> bool {
        let stone = self.cells[cell];
        if stone == EMPTY {
            return false;
        }
        let (x, y) = coordinates(cell);
        DIRECTIONS.iter().any(|&(dx, dy)| {
            let run = |step: i32| {
                let mut length = 0;
                let (mut nx, mut ny) = (x as i32 + step * dx, y as i32 + step * dy);
                while self.on_board(nx, ny)
                    && self.cells[cell_of(nx as usize, ny as usize)] == stone
                {
                    length += 1;
                    nx += step * dx;
                    ny += step * dy;
                }
                length
            };
            let length = 1 + run(1) + run(-1);
            let exact = match self.rule {
                Rule::Freestyle => false,
                Rule::Standard => true,
                Rule::Renju => stone == stone_of(BLACK),
            };
            length == 5 || (length > 5 && !exact)
        })
    }
}
