//! The state of a game and its rules in action: legal moves (placements,
//! knight jumps with their double choices, passes), make/unmake with an undo
//! stack, the incremental Zobrist key and the end of the game.

use super::board::{
    bit, cells_of, generate_board, is_double, knight_jumps, row_mask, symmetric_value, Cells,
    SplitMix64, CELLS, NO_CELL,
};
use super::rules::{Placement, Rules};
use crate::core::{Outcome, Player};
use once_cell::sync::Lazy;

/// A move: the landing cell (or a pass) and, when landing on a double, the
/// other double the mover removes (`NO_CELL` when there is none to remove).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub to: u8,
    pub removes: u8,
}

impl crate::core::MoveCode for Move {
    fn to_code(self) -> u32 {
        u32::from(self.to) | u32::from(self.removes) << 8
    }
    fn from_code(code: u32) -> Self {
        Move {
            to: code as u8,
            removes: (code >> 8) as u8,
        }
    }
}

/// `to` of the pass move.
pub const PASS_CELL: u8 = CELLS as u8;

impl Move {
    pub const PASS: Move = Move {
        to: PASS_CELL,
        removes: NO_CELL,
    };

    pub fn jump(to: u8) -> Move {
        Move {
            to,
            removes: NO_CELL,
        }
    }

    pub fn is_pass(self) -> bool {
        self.to == PASS_CELL
    }
}

/// What `make_move` changed that the move alone cannot restore.
#[derive(Clone, Copy, Debug)]
struct Undo {
    from: u8,
    symmetric_removed: u8,
    side: Player,
    placements_done: u8,
    hash: u64,
}

struct ZobristKeys {
    /// A cell still holding a given value.
    cell_value: Vec<[u64; CELLS]>,
    knight: [[u64; CELLS]; 2],
    black_to_move: u64,
    placements: [u64; 3],
    score_difference: u64,
}

static ZOBRIST: Lazy<ZobristKeys> = Lazy::new(|| {
    let mut rng = SplitMix64::new(0x00CA_0A10_2024);
    let mut table = [0u64; CELLS];
    let cell_value = (0..CELLS)
        .map(|_| {
            table.iter_mut().for_each(|k| *k = rng.next_u64());
            table
        })
        .collect();
    let mut knight = [[0u64; CELLS]; 2];
    for side in knight.iter_mut() {
        side.iter_mut().for_each(|k| *k = rng.next_u64());
    }
    ZobristKeys {
        cell_value,
        knight,
        black_to_move: rng.next_u64(),
        placements: [rng.next_u64(), rng.next_u64(), rng.next_u64()],
        score_difference: rng.next_u64() | 1,
    }
});

/// The score difference enters the key because it decides the result: two
/// positions with the same board and the same difference play out alike.
pub(super) fn difference_key(difference: i32) -> u64 {
    let mut z = (difference as i64 as u64).wrapping_mul(ZOBRIST.score_difference);
    z ^= z >> 29;
    z.wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

#[derive(Clone, Debug)]
pub struct Cavalo {
    pub(super) rules: Rules,
    /// The value each cell held on the initial board (meaningful while the
    /// cell is present).
    pub(super) value_at: [u8; CELLS],
    /// Where each value lies, `NO_CELL` if it is not on the board.
    pub(super) cell_of_value: [u8; CELLS],
    /// Cells that still hold a value (a cell under a knight has been taken).
    pub(super) present: Cells,
    /// Present cells holding a double.
    pub(super) doubles: Cells,
    pub(super) knights: [u8; 2],
    pub(super) scores: [i32; 2],
    pub(super) side: Player,
    /// 0: White places next, 1: Black places next, 2: knights move.
    pub(super) placements_done: u8,
    pub(super) hash: u64,
    pub(super) ply: u32,
    undo: Vec<Undo>,
}

impl Cavalo {
    /// A position from its parts; the caller has checked their consistency.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn from_parts(
        rules: Rules,
        values: [Option<u8>; CELLS],
        knights: [u8; 2],
        scores: [i32; 2],
        side: Player,
        placements_done: u8,
    ) -> Cavalo {
        let mut value_at = [0u8; CELLS];
        let mut cell_of_value = [NO_CELL; CELLS];
        let mut present = 0;
        let mut doubles = 0;
        for (cell, value) in values.iter().enumerate() {
            if let Some(v) = *value {
                value_at[cell] = v;
                cell_of_value[v as usize] = cell as u8;
                present |= bit(cell as u8);
                if is_double(v) {
                    doubles |= bit(cell as u8);
                }
            }
        }
        let mut position = Cavalo {
            rules,
            value_at,
            cell_of_value,
            present,
            doubles,
            knights,
            scores,
            side,
            placements_done,
            hash: 0,
            ply: 0,
            undo: Vec::with_capacity(128),
        };
        position.hash = position.compute_hash();
        position
    }

    pub fn start(rules: &Rules) -> Cavalo {
        let board = generate_board(rules.board_seed);
        Cavalo::from_parts(
            rules.clone(),
            board.map(Some),
            [NO_CELL; 2],
            [0; 2],
            Player::P1,
            0,
        )
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn scores(&self) -> [i32; 2] {
        self.scores
    }

    pub fn knight(&self, player: Player) -> Option<u8> {
        match self.knights[player.index()] {
            NO_CELL => None,
            cell => Some(cell),
        }
    }

    pub fn side_to_move(&self) -> Player {
        self.side
    }

    pub fn placements_done(&self) -> u8 {
        self.placements_done
    }

    /// The value a cell still holds.
    pub fn value(&self, cell: u8) -> Option<u8> {
        (self.present & bit(cell) != 0).then(|| self.value_at[cell as usize])
    }

    pub fn present_cells(&self) -> Cells {
        self.present
    }

    pub fn in_placement(&self) -> bool {
        self.placements_done < 2
    }

    pub fn compute_hash(&self) -> u64 {
        let keys = &*ZOBRIST;
        let mut hash = 0;
        for cell in cells_of(self.present) {
            hash ^= keys.cell_value[cell as usize][self.value_at[cell as usize] as usize];
        }
        for (side, &cell) in self.knights.iter().enumerate() {
            if cell != NO_CELL {
                hash ^= keys.knight[side][cell as usize];
            }
        }
        if self.side == Player::P2 {
            hash ^= keys.black_to_move;
        }
        hash ^= keys.placements[self.placements_done as usize];
        hash ^ difference_key(self.scores[0] - self.scores[1])
    }

    fn cell_key(&self, cell: u8) -> u64 {
        ZOBRIST.cell_value[cell as usize][self.value_at[cell as usize] as usize]
    }

    /// Cells the knight of `player` may not land on because the other knight
    /// attacks them.
    pub fn denied_to(&self, player: Player) -> Cells {
        match self.knights[player.other().index()] {
            NO_CELL => 0,
            cell if self.rules.attack_rule => knight_jumps(cell),
            _ => 0,
        }
    }

    /// Where `player` could land (or be placed) if it were to move now.
    pub fn destinations(&self, player: Player) -> Cells {
        let knight = self.knights[player.index()];
        if knight != NO_CELL {
            return knight_jumps(knight) & self.present & !self.denied_to(player);
        }
        let placing_now = match self.placements_done {
            0 => player == Player::P1,
            1 => player == Player::P2,
            _ => false,
        };
        if !placing_now {
            return 0;
        }
        let home = match player {
            Player::P1 => row_mask(1),
            Player::P2 => row_mask(10),
        };
        let valid = home & self.present & !self.denied_to(player);
        match self.rules.placement {
            Placement::Choose => valid,
            Placement::Highest => cells_of(valid)
                .max_by_key(|&cell| self.value_at[cell as usize])
                .map_or(0, bit),
        }
    }

    /// The other doubles a landing on `to` lets the mover remove.
    pub fn double_choices(&self, to: u8) -> Cells {
        if self.doubles & bit(to) == 0 {
            0
        } else {
            self.doubles & !bit(to)
        }
    }

    /// The default choice: the highest other double still on the board.
    pub fn default_double_choice(&self, to: u8) -> u8 {
        cells_of(self.double_choices(to))
            .max_by_key(|&cell| self.value_at[cell as usize])
            .unwrap_or(NO_CELL)
    }

    pub fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
        let destinations = self.destinations(self.side);
        for to in cells_of(destinations) {
            let choices = self.double_choices(to);
            if choices == 0 {
                moves.push(Move::jump(to));
            } else {
                moves.extend(cells_of(choices).map(|removes| Move { to, removes }));
            }
        }
        if destinations == 0 && (self.in_placement() || self.destinations(self.side.other()) != 0) {
            moves.push(Move::PASS);
        }
    }

    pub fn count(&self) -> u64 {
        let destinations = self.destinations(self.side);
        let mut count = 0;
        for to in cells_of(destinations) {
            count += u64::from(self.double_choices(to).count_ones().max(1));
        }
        if destinations == 0 && (self.in_placement() || self.destinations(self.side.other()) != 0) {
            count = 1;
        }
        count
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if self.in_placement()
            || self.destinations(self.side) != 0
            || self.destinations(self.side.other()) != 0
        {
            return None;
        }
        Some(match self.scores[0].cmp(&self.scores[1]) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::P1),
            std::cmp::Ordering::Less => Outcome::Win(Player::P2),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    /// What a landing on `to` scores and removes besides the left cell:
    /// (points, symmetric cell removed or `NO_CELL`).
    pub fn landing_effects(&self, mv: Move) -> (i32, u8) {
        let value = self.value_at[mv.to as usize];
        let symmetric = symmetric_value(value, self.rules.single_digit_symmetric)
            .map(|v| self.cell_of_value[v as usize])
            .filter(|&cell| cell != NO_CELL && self.present & bit(cell) != 0)
            .unwrap_or(NO_CELL);
        (i32::from(value), symmetric)
    }

    fn remove_cell(&mut self, cell: u8) {
        self.hash ^= self.cell_key(cell);
        self.present &= !bit(cell);
        self.doubles &= !bit(cell);
    }

    fn restore_cell(&mut self, cell: u8) {
        self.present |= bit(cell);
        if is_double(self.value_at[cell as usize]) {
            self.doubles |= bit(cell);
        }
    }

    fn advance_turn(&mut self) {
        let keys = &*ZOBRIST;
        let placements_before = self.placements_done;
        if self.in_placement() {
            self.hash ^= keys.placements[self.placements_done as usize];
            self.placements_done += 1;
            self.hash ^= keys.placements[self.placements_done as usize];
        }
        let next = if placements_before == 1 {
            self.rules.first_mover
        } else {
            self.side.other()
        };
        if next != self.side {
            self.hash ^= keys.black_to_move;
        }
        self.side = next;
    }

    pub fn make(&mut self, mv: Move) {
        let side = self.side.index();
        let mut record = Undo {
            from: self.knights[side],
            symmetric_removed: NO_CELL,
            side: self.side,
            placements_done: self.placements_done,
            hash: self.hash,
        };
        if !mv.is_pass() {
            let keys = &*ZOBRIST;
            let old_difference = self.scores[0] - self.scores[1];
            if record.from != NO_CELL {
                self.hash ^= keys.knight[side][record.from as usize];
            }
            let (points, symmetric) = self.landing_effects(mv);
            self.remove_cell(mv.to);
            self.knights[side] = mv.to;
            self.hash ^= keys.knight[side][mv.to as usize];
            self.scores[side] += points;
            if symmetric != NO_CELL {
                self.remove_cell(symmetric);
                record.symmetric_removed = symmetric;
            }
            if mv.removes != NO_CELL {
                self.remove_cell(mv.removes);
            }
            self.hash ^=
                difference_key(old_difference) ^ difference_key(self.scores[0] - self.scores[1]);
        }
        self.undo.push(record);
        self.advance_turn();
        self.ply += 1;
    }

    pub fn unmake(&mut self, mv: Move) {
        let Some(record) = self.undo.pop() else {
            return;
        };
        self.side = record.side;
        self.placements_done = record.placements_done;
        self.hash = record.hash;
        self.ply = self.ply.saturating_sub(1);
        if mv.is_pass() {
            return;
        }
        let side = self.side.index();
        if mv.removes != NO_CELL {
            self.restore_cell(mv.removes);
        }
        if record.symmetric_removed != NO_CELL {
            self.restore_cell(record.symmetric_removed);
        }
        self.scores[side] -= i32::from(self.value_at[mv.to as usize]);
        self.restore_cell(mv.to);
        self.knights[side] = record.from;
    }
}
