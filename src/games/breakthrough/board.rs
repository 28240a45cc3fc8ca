//! Breakthrough rules on bitboards: square `a1` is bit 0, `h8` bit 63; White
//! starts on ranks 1-2 and moves up, Black on ranks 7-8 and moves down.

use once_cell::sync::Lazy;
use rand::{rngs::StdRng, Rng, SeedableRng};

use crate::core::game::{Outcome, Player};

pub type Bitboard = u64;

pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
pub const FILE_H: Bitboard = FILE_A << 7;
pub const RANK_1: Bitboard = 0xff;
pub const RANK_2: Bitboard = RANK_1 << 8;
pub const RANK_7: Bitboard = RANK_1 << 48;
pub const RANK_8: Bitboard = RANK_1 << 56;

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
    hash: u64,
}

/// Squares attacked (diagonally forward) by the pieces `bits` of `side`.
pub fn attacks(side: Player, bits: Bitboard) -> Bitboard {
    match side {
        Player::P1 => ((bits & !FILE_A) << 7) | ((bits & !FILE_H) << 9),
        Player::P2 => ((bits & !FILE_A) >> 9) | ((bits & !FILE_H) >> 7),
    }
}

/// The rank a side's pieces must reach, and the one just before it.
pub fn goal_rank(side: Player) -> Bitboard {
    match side {
        Player::P1 => RANK_8,
        Player::P2 => RANK_1,
    }
}

pub fn last_step_rank(side: Player) -> Bitboard {
    match side {
        Player::P1 => RANK_7,
        Player::P2 => RANK_2,
    }
}

impl Board {
    pub fn start() -> Board {
        Board::from_pieces([RANK_1 | RANK_2, RANK_7 | RANK_8], Player::P1, 0)
    }

    pub fn from_pieces(pieces: [Bitboard; 2], side: Player, ply: u32) -> Board {
        let mut board = Board {
            pieces,
            side,
            ply,
            hash: 0,
        };
        board.hash = board.compute_hash();
        board
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = if self.side == Player::P2 {
            ZOBRIST.black_to_move
        } else {
            0
        };
        for (side, &bits) in self.pieces.iter().enumerate() {
            let mut rest = bits;
            while rest != 0 {
                hash ^= ZOBRIST.pieces[side][rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
        }
        hash
    }

    pub fn hash(&self) -> u64 {
        self.hash
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
        if white & RANK_8 != 0 || black == 0 {
            Some(Outcome::Win(Player::P1))
        } else if black & RANK_1 != 0 || white == 0 {
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
        let empty = !self.occupied();
        match self.side {
            Player::P1 => [
                (own << 8) & empty,
                ((own & !FILE_A) << 7) & !own,
                ((own & !FILE_H) << 9) & !own,
            ],
            Player::P2 => [
                (own >> 8) & empty,
                ((own & !FILE_A) >> 9) & !own,
                ((own & !FILE_H) >> 7) & !own,
            ],
        }
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
        self.pieces[us] ^= (1u64 << mv.from) | (1u64 << mv.to);
        self.hash ^= keys[us][mv.from as usize] ^ keys[us][mv.to as usize];
        if mv.capture {
            self.pieces[them] ^= 1u64 << mv.to;
            self.hash ^= keys[them][mv.to as usize];
        }
    }

    pub fn make_move(&mut self, mv: Move) {
        self.toggle_pieces(self.side, mv);
        self.side = self.side.other();
        self.hash ^= ZOBRIST.black_to_move;
        self.ply += 1;
    }

    /// Hands the move to the other side (the search's null move); its own
    /// inverse.
    pub fn pass(&mut self) {
        self.side = self.side.other();
        self.hash ^= ZOBRIST.black_to_move;
    }

    pub fn unmake_move(&mut self, mv: Move) {
        self.side = self.side.other();
        self.hash ^= ZOBRIST.black_to_move;
        self.ply -= 1;
        self.toggle_pieces(self.side, mv);
    }

    /// Recomputes the key from scratch (tests check the incremental one).
    pub fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }
}
