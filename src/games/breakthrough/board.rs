//! Breakthrough rules on bitboards, on any board of up to 8 rows and 8
//! columns: square `a1` is bit 0 and a rank is 8 bits whatever the width
//! (`b3` is bit 17), so one shift moves a piece one rank on every size.
//! White starts on the first two ranks and moves up, Black on the last two
//! and moves down.

use once_cell::sync::Lazy;
use rand::{rngs::StdRng, Rng, SeedableRng};

use crate::core::game::{Outcome, Player};

pub type Bitboard = u64;

pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
pub const RANK_1: Bitboard = 0xff;

/// The board's shape, with the masks the move generator needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    rows: u8,
    columns: u8,
    squares: Bitboard,
    last_file: Bitboard,
}

impl Geometry {
    /// The standard 8x8 board.
    pub const STANDARD: Geometry = Geometry::new(8, 8);
    /// Fewer than four rows leave no room between the armies' two ranks;
    /// fewer than two columns leave no diagonal, so a blocked piece could
    /// never move and the game could stall.
    pub const ROWS: std::ops::RangeInclusive<u8> = 4..=8;
    pub const COLUMNS: std::ops::RangeInclusive<u8> = 2..=8;

    const fn new(rows: u8, columns: u8) -> Geometry {
        let rank = RANK_1 >> (8 - columns);
        let squares = if rows == 8 {
            !0
        } else {
            (1u64 << (8 * rows)) - 1
        };
        Geometry {
            rows,
            columns,
            squares: squares & (rank * FILE_A),
            last_file: FILE_A << (columns - 1),
        }
    }

    /// A board of `rows` by `columns`, or why there is none.
    pub fn checked(rows: u8, columns: u8) -> Result<Geometry, String> {
        if !Geometry::ROWS.contains(&rows) || !Geometry::COLUMNS.contains(&columns) {
            return Err(format!(
                "a {rows}x{columns} board: rows must be 4 to 8 and columns 2 to 8"
            ));
        }
        Ok(Geometry::new(rows, columns))
    }

    pub fn rows(&self) -> u8 {
        self.rows
    }

    pub fn columns(&self) -> u8 {
        self.columns
    }

    pub fn is_standard(&self) -> bool {
        *self == Geometry::STANDARD
    }

    pub fn squares(&self) -> Bitboard {
        self.squares
    }

    pub fn contains(&self, square: u32) -> bool {
        square < 64 && self.squares & (1u64 << square) != 0
    }

    /// Squares attacked (diagonally forward) by the pieces `bits` of `side`.
    pub fn attacks(&self, side: Player, bits: Bitboard) -> Bitboard {
        let (left, right) = self.attacks_by_direction(side, bits);
        left | right
    }

    /// The squares attacked towards the a-file and towards the last file.
    pub fn attacks_by_direction(&self, side: Player, bits: Bitboard) -> (Bitboard, Bitboard) {
        let (left, right) = match side {
            Player::P1 => ((bits & !FILE_A) << 7, (bits & !self.last_file) << 9),
            Player::P2 => ((bits & !FILE_A) >> 9, (bits & !self.last_file) >> 7),
        };
        (left & self.squares, right & self.squares)
    }

    /// The squares one step ahead of the pieces `bits` of `side`, straight or
    /// diagonally: where they could move if nothing stood there.
    pub fn steps_ahead(&self, side: Player, bits: Bitboard) -> Bitboard {
        let straight = match side {
            Player::P1 => bits << 8,
            Player::P2 => bits >> 8,
        };
        self.attacks(side, bits) | (straight & self.squares)
    }

    /// The pieces of `bits` with a neighbour of `bits` on their rank.
    pub fn side_by_side(&self, bits: Bitboard) -> Bitboard {
        bits & (((bits & !FILE_A) >> 1) | ((bits & !self.last_file) << 1))
    }

    /// The square on the same rank, as far from the last file as `square`
    /// is from the a-file.
    pub fn mirror(&self, square: u32) -> usize {
        let (rank, file) = (square / 8, square % 8);
        (rank * 8 + u32::from(self.columns) - 1 - file) as usize
    }

    /// Rank of `square` counted from `side`'s home rank (0 to rows - 1).
    pub fn relative_rank(&self, side: Player, square: u32) -> usize {
        match side {
            Player::P1 => (square / 8) as usize,
            Player::P2 => self.rows as usize - 1 - (square / 8) as usize,
        }
    }

    /// The squares on `side`'s rank `rank`, counted from its home rank.
    pub fn relative_rank_mask(&self, side: Player, rank: usize) -> Bitboard {
        let rank = match side {
            Player::P1 => rank,
            Player::P2 => self.rows as usize - 1 - rank,
        };
        (RANK_1 << (8 * rank)) & self.squares
    }

    /// The rank a side's pieces must reach, and the one just before it.
    pub fn goal_rank(&self, side: Player) -> Bitboard {
        self.relative_rank_mask(side, self.rows as usize - 1)
    }

    pub fn last_step_rank(&self, side: Player) -> Bitboard {
        self.relative_rank_mask(side, self.rows as usize - 2)
    }
}

/// A move from one square to another; `capture` is set when an enemy piece
/// stands on `to` (unmake needs it back).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub capture: bool,
}

impl crate::core::MoveCode for Move {
    fn to_code(self) -> u32 {
        u32::from(self.from) | u32::from(self.to) << 8 | u32::from(self.capture) << 16
    }
    fn from_code(code: u32) -> Self {
        Move {
            from: code as u8,
            to: (code >> 8) as u8,
            capture: code & 1 << 16 != 0,
        }
    }
}

struct ZobristKeys {
    pieces: [[u64; 64]; 2],
    black_to_move: u64,
}

static ZOBRIST: Lazy<ZobristKeys> = Lazy::new(|| {
    let mut rng = StdRng::seed_from_u64(0x000b_7eac_4170_u64);
    let mut pieces = [[0u64; 64]; 2];
    for side in pieces.iter_mut() {
        for key in side.iter_mut() {
            *key = rng.gen();
        }
    }
    ZobristKeys {
        pieces,
        black_to_move: rng.gen(),
    }
});

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Pieces of White (`[0]`) and Black (`[1]`).
    pub pieces: [Bitboard; 2],
    pub side: Player,
    pub ply: u32,
    /// Zobrist keys of this position and of its mirror image across the
    /// middle file (see `hash`).
    hash: u64,
    mirror_hash: u64,
    geometry: Geometry,
}

impl Board {
    /// The starting position: each side fills its first two ranks.
    pub fn start(geometry: Geometry) -> Board {
        let army =
            |side| geometry.relative_rank_mask(side, 0) | geometry.relative_rank_mask(side, 1);
        Board::from_pieces(
            [army(Player::P1), army(Player::P2)],
            Player::P1,
            0,
            geometry,
        )
    }

    pub fn from_pieces(pieces: [Bitboard; 2], side: Player, ply: u32, geometry: Geometry) -> Board {
        let mut board = Board {
            pieces,
            side,
            ply,
            hash: 0,
            mirror_hash: 0,
            geometry,
        };
        (board.hash, board.mirror_hash) = board.compute_hashes();
        board
    }

    /// The keys of the position and of its mirror image, from scratch.
    fn compute_hashes(&self) -> (u64, u64) {
        let mut hash = if self.side == Player::P2 {
            ZOBRIST.black_to_move
        } else {
            0
        };
        let mut mirror_hash = hash;
        for (side, &bits) in self.pieces.iter().enumerate() {
            let mut rest = bits;
            while rest != 0 {
                let square = rest.trailing_zeros();
                hash ^= ZOBRIST.pieces[side][square as usize];
                mirror_hash ^= ZOBRIST.pieces[side][self.geometry.mirror(square)];
                rest &= rest - 1;
            }
        }
        (hash, mirror_hash)
    }

    /// One key for a position and its mirror image across the middle file,
    /// which have the same value: the search's tables then hold one entry
    /// for both (halving what a proof from the symmetric start must store).
    /// A best move a table gives may be the mirror's; the searches only use
    /// such a move when it is legal here, for ordering.
    pub fn hash(&self) -> u64 {
        self.hash.min(self.mirror_hash)
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    pub fn own(&self) -> Bitboard {
        self.pieces[self.side.index()]
    }

    pub fn enemy(&self) -> Bitboard {
        self.pieces[self.side.other().index()]
    }

    pub fn outcome(&self) -> Option<Outcome> {
        let [white, black] = self.pieces;
        if white & self.geometry.goal_rank(Player::P1) != 0 || black == 0 {
            Some(Outcome::Win(Player::P1))
        } else if black & self.geometry.goal_rank(Player::P2) != 0 || white == 0 {
            Some(Outcome::Win(Player::P2))
        } else {
            None
        }
    }

    /// Target sets of the three move directions for the side to move:
    /// straight, towards the a-file, towards the h-file. Each target has
    /// exactly one origin per direction.
    fn targets(&self) -> [Bitboard; 3] {
        let own = self.own();
        let empty = self.geometry.squares & !self.occupied();
        let (left, right) = self.geometry.attacks_by_direction(self.side, own);
        let straight = match self.side {
            Player::P1 => own << 8,
            Player::P2 => own >> 8,
        };
        [straight & empty, left & !own, right & !own]
    }

    /// Distance from origin to target for each direction, signed by side.
    fn shifts(&self) -> [i8; 3] {
        match self.side {
            Player::P1 => [8, 7, 9],
            Player::P2 => [-8, -9, -7],
        }
    }

    pub fn count_moves(&self) -> u64 {
        if self.outcome().is_some() {
            return 0;
        }
        self.targets().iter().map(|t| t.count_ones() as u64).sum()
    }

    /// Appends the moves whose target is in `filter` to `moves`.
    pub fn push_moves(&self, moves: &mut Vec<Move>, filter: Bitboard) {
        let enemy = self.enemy();
        for (targets, shift) in self.targets().into_iter().zip(self.shifts()) {
            let mut rest = targets & filter;
            while rest != 0 {
                let to = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let from = (to as i8 - shift) as u8;
                moves.push(Move {
                    from,
                    to,
                    capture: enemy & (1u64 << to) != 0,
                });
            }
        }
    }

    pub fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome().is_none() {
            self.push_moves(moves, !0);
        }
    }

    /// Moves the piece of `mover` (and removes a captured one) or, applied
    /// again, puts everything back: the update is its own inverse.
    fn toggle_pieces(&mut self, mover: Player, mv: Move) {
        let us = mover.index();
        let them = 1 - us;
        let keys = &ZOBRIST.pieces;
        let (from, to) = (u32::from(mv.from), u32::from(mv.to));
        self.pieces[us] ^= (1u64 << from) | (1u64 << to);
        self.hash ^= keys[us][from as usize] ^ keys[us][to as usize];
        let (mirror_from, mirror_to) = (self.geometry.mirror(from), self.geometry.mirror(to));
        self.mirror_hash ^= keys[us][mirror_from] ^ keys[us][mirror_to];
        if mv.capture {
            self.pieces[them] ^= 1u64 << to;
            self.hash ^= keys[them][to as usize];
            self.mirror_hash ^= keys[them][mirror_to];
        }
    }

    pub fn make_move(&mut self, mv: Move) {
        self.toggle_pieces(self.side, mv);
        self.side = self.side.other();
        self.hash ^= ZOBRIST.black_to_move;
        self.mirror_hash ^= ZOBRIST.black_to_move;
        self.ply += 1;
    }

    /// Hands the move to the other side (the search's null move); its own
    /// inverse.
    pub fn pass(&mut self) {
        self.side = self.side.other();
        self.hash ^= ZOBRIST.black_to_move;
        self.mirror_hash ^= ZOBRIST.black_to_move;
    }

    pub fn unmake_move(&mut self, mv: Move) {
        self.side = self.side.other();
        self.hash ^= ZOBRIST.black_to_move;
        self.mirror_hash ^= ZOBRIST.black_to_move;
        self.ply -= 1;
        self.toggle_pieces(self.side, mv);
    }

    /// Recomputes the key from scratch (tests check the incremental one).
    pub fn hash_from_scratch(&self) -> u64 {
        let (hash, mirror_hash) = self.compute_hashes();
        hash.min(mirror_hash)
    }
}
