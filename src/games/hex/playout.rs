//! Hex's Monte Carlo playouts: the empty cells filled in random order,
//! except that a player whose bridge (or edge template of row 2) the
//! opponent has just intruded saves it with the other carrier cell. With
//! the move policy's gammas (`policy.rs`), the cells around the last stone
//! are drawn by their strength against the rest of the board taken as
//! uniform. With fill-in (`fill_in.rs`), dead cells and captured pairs
//! are filled as soon as they appear. A full board has exactly one
//! winner, found once at the end.

use rand::rngs::SmallRng;
use rand::Rng;

use super::board::{goal_edges, stone_of, Hex, BLACK, EMPTY};
use super::geometry::{Geometry, BOTTOM, NO_CELL, TOP};
use super::pattern_keys::PatternKeys;
use super::policy::{pattern_cells, DenseGammas, LAST_ADJACENT, LAST_BRIDGE, LAST_FAR};
use crate::core::mcts::PlayoutRecord;
use crate::core::Player;

mod fill_in;

/// How the playouts choose their cells beyond the bridge reply.
#[derive(Clone, Copy, Default)]
pub struct PlayoutStyle<'a> {
    /// Draws the cells near the last stone by their gammas.
    pub policy: Option<&'a DenseGammas>,
    /// Fills dead cells and captured pairs as they appear.
    pub fill_in: bool,
}

/// The playout's own board, kept between playouts to spare allocations.
#[derive(Debug, Default)]
pub struct PlayoutBoard {
    cells: Vec<u8>,
    /// The empty cells, and where each one stands in that list.
    empty: Vec<u16>,
    slot: Vec<u16>,
    replies: Vec<u16>,
    /// The empty cells around the last stone and their strengths.
    local: Vec<(u16, f32)>,
    stack: Vec<u16>,
    seen: Vec<bool>,
    /// The policy's pattern keys, kept only when playouts use the policy.
    keys: PatternKeys,
    keys_loaded: bool,
    /// Each cell's ring colours as one number (`fill_in.rs`), kept only
    /// when playouts fill in.
    codes: Vec<u16>,
    codes_kept: bool,
    /// Cells whose ring fill-in must look at again.
    pending: Vec<u16>,
}

impl PlayoutBoard {
    /// Fills `hex`'s empty cells (the swap is never played) and returns the
    /// winner of the full board; the cells each player took are noted in
    /// `record` by cell index, filled cells under their colour.
    pub fn play(
        &mut self,
        hex: &Hex,
        rng: &mut SmallRng,
        record: &mut PlayoutRecord,
        style: PlayoutStyle,
    ) -> Player {
        let geo = hex.geometry();
        let policy = style.policy;
        self.start(hex, record, style);
        let mut mover = hex.side_to_move_player();
        let mut last = hex
            .last_placed()
            .filter(|&cell| self.cells[cell] == stone_of(mover.other()));
        while !self.empty.is_empty() {
            let reply = last.and_then(|intruder| self.bridge_reply(geo, intruder, mover, rng));
            let near = match (reply, last, policy) {
                (None, Some(last), Some(policy)) => self.near_last(geo, last, mover, policy, rng),
                _ => None,
            };
            let cell = match reply.or(near) {
                Some(cell) => cell,
                None => self.empty[rng.gen_range(0..self.empty.len())] as usize,
            };
            self.place(geo, cell, stone_of(mover));
            record.note(cell, mover);
            if self.codes_kept {
                self.fill_around(geo, cell, record);
            }
            last = Some(cell);
            mover = mover.other();
        }
        match self.black_connects(geo) {
            true => Player::P1,
            false => Player::P2,
        }
    }

    /// Loads `hex` with what `style` needs kept (pattern keys, ring codes)
    /// and, with fill-in, fills the position's dead cells and captured
    /// pairs, noting them in `record`.
    fn start(&mut self, hex: &Hex, record: &mut PlayoutRecord, style: PlayoutStyle) {
        let geo = hex.geometry();
        self.load(hex);
        self.keys_loaded = style.policy.is_some();
        if self.keys_loaded {
            self.keys.load(geo.size, |cell| self.cells[cell]);
        }
        self.codes_kept = style.fill_in && geo.size >= 2;
        if self.codes_kept {
            self.load_ring_codes(geo);
            self.fill_everywhere(geo, record);
        }
    }

    fn load(&mut self, hex: &Hex) {
        let cells = hex.geometry().cells();
        self.cells.clear();
        self.empty.clear();
        self.slot.resize(cells, 0);
        for cell in 0..cells {
            let stone = hex.stone_at(cell);
            self.cells.push(stone);
            if stone == EMPTY {
                self.slot[cell] = self.empty.len() as u16;
                self.empty.push(cell as u16);
            }
        }
    }

    /// Puts a stone on the empty `cell`.
    fn place(&mut self, geo: &Geometry, cell: usize, stone: u8) {
        self.take(cell);
        self.cells[cell] = stone;
        if self.keys_loaded {
            self.keys.place(cell, stone);
        }
        if self.codes_kept {
            self.note_in_ring_codes(geo, cell, stone);
        }
    }

    /// Removes `cell` from the empty list.
    fn take(&mut self, cell: usize) {
        let slot = self.slot[cell] as usize;
        let last = self.empty.len() - 1;
        self.empty.swap(slot, last);
        self.slot[self.empty[slot] as usize] = slot as u16;
        self.empty.pop();
    }

    /// An empty cell that, with `intruder`, carried a bridge between two
    /// of `mover`'s stones (or a stone and its edge): one of them at
    /// random when there are several.
    fn bridge_reply(
        &mut self,
        geo: &Geometry,
        intruder: usize,
        mover: Player,
        rng: &mut SmallRng,
    ) -> Option<usize> {
        let stone = stone_of(mover);
        let goal = goal_edges(stone);
        let ring = &geo.ring[intruder];
        let edge = &geo.ring_edge[intruder];
        let own = |slot: usize| match ring[slot] {
            NO_CELL => edge[slot] & goal != 0,
            cell => self.cells[cell as usize] == stone,
        };
        self.replies.clear();
        for slot in 0..6 {
            let (before, after) = ((slot + 5) % 6, (slot + 1) % 6);
            let cell = ring[slot];
            let both_off = ring[before] == NO_CELL && ring[after] == NO_CELL;
            if cell != NO_CELL
                && self.cells[cell as usize] == EMPTY
                && !both_off
                && own(before)
                && own(after)
            {
                self.replies.push(cell);
            }
        }
        match self.replies.len() {
            0 => None,
            n => Some(self.replies[rng.gen_range(0..n)] as usize),
        }
    }

    /// A cell around `last` drawn by its strength, or `None` when the draw
    /// falls on the rest of the board, each of whose cells weighs as an
    /// open cell far from the last stone.
    fn near_last(
        &mut self,
        geo: &Geometry,
        last: usize,
        mover: Player,
        policy: &DenseGammas,
        rng: &mut SmallRng,
    ) -> Option<usize> {
        let (size, mine) = (geo.size, stone_of(mover));
        self.local.clear();
        let mut total = 0.0;
        for (cell, adjacent) in pattern_cells(size, last) {
            if self.cells[cell] != EMPTY {
                continue;
            }
            let key = self.keys.key(cell, mine);
            let place = if adjacent { LAST_ADJACENT } else { LAST_BRIDGE };
            let strength = policy.pattern(key) * policy.last[place as usize];
            total += strength;
            self.local.push((cell as u16, strength));
        }
        let rest = self.empty.len() - self.local.len();
        let far = rest as f32 * policy.pattern(0) * policy.last[LAST_FAR as usize];
        let mut draw = rng.gen_range(0.0..(total + far).max(f32::MIN_POSITIVE));
        for &(cell, strength) in &self.local {
            draw -= strength;
            if draw < 0.0 {
                return Some(cell as usize);
            }
        }
        None
    }

    /// True when Black's stones join the top row to the bottom row.
    fn black_connects(&mut self, geo: &Geometry) -> bool {
        let size = geo.size;
        self.seen.clear();
        self.seen.resize(geo.cells(), false);
        self.stack.clear();
        for cell in 0..size {
            if self.cells[cell] == BLACK && geo.edges[cell] & TOP != 0 {
                self.seen[cell] = true;
                self.stack.push(cell as u16);
            }
        }
        while let Some(cell) = self.stack.pop() {
            let cell = cell as usize;
            if geo.edges[cell] & BOTTOM != 0 {
                return true;
            }
            for &next in &geo.ring[cell] {
                if next != NO_CELL
                    && !self.seen[next as usize]
                    && self.cells[next as usize] == BLACK
                {
                    self.seen[next as usize] = true;
                    self.stack.push(next);
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Outcome};
    use crate::games::hex::{HexMove, HexRules};
    use rand::SeedableRng;

    fn board(size: usize) -> Hex {
        Hex::start_position(&HexRules {
            board_size: size,
            swap: false,
        })
    }

    #[test]
    fn a_playout_fills_the_board_and_names_the_winner_the_rules_name() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut playouts = PlayoutBoard::default();
        let policy = [None, Some(&*crate::games::hex::policy::DENSE_GAMMAS)];
        for size in [1, 2, 5, 11] {
            for round in 0..80 {
                let hex = board(size);
                let mut record = PlayoutRecord::new(size * size);
                let style = PlayoutStyle {
                    policy: policy[round % 2],
                    fill_in: round % 4 >= 2,
                };
                let winner = playouts.play(&hex, &mut rng, &mut record, style);
                // Replay the filled board through the rules: the same winner.
                let mut replay = hex.clone();
                let mut moves = Vec::new();
                for cell in 0..size * size {
                    assert_ne!(playouts.cells[cell], EMPTY, "every cell is filled");
                    let owner = if playouts.cells[cell] == BLACK {
                        Player::P1
                    } else {
                        Player::P2
                    };
                    assert!(record.played_by(cell, owner), "the record agrees");
                    moves.push((owner, cell));
                }
                // Fill-in gives one side more stones than its turns: each
                // stone goes down in its owner's turn, until one connects
                // (on a full board no other can).
                for (owner, cell) in moves {
                    if replay.outcome().is_some() {
                        break;
                    }
                    replay.set_side_to_move(owner);
                    replay.make_move(HexMove::cell(cell));
                }
                assert_eq!(replay.outcome(), Some(Outcome::Win(winner)));
            }
        }
    }

    /// A playout board of side 5 with the given stones.
    fn stones(
        black: &[(usize, usize)],
        white: &[(usize, usize)],
    ) -> (PlayoutBoard, &'static Geometry) {
        let geo = crate::games::hex::geometry::geometry(5);
        let mut playouts = PlayoutBoard::default();
        playouts.load(&board(5));
        for &(col, row) in black {
            playouts.cells[geo.cell(col, row)] = BLACK;
        }
        for &(col, row) in white {
            playouts.cells[geo.cell(col, row)] = super::super::board::WHITE;
        }
        (playouts, geo)
    }

    #[test]
    fn an_intruded_bridge_is_saved_and_nothing_else_answered() {
        let mut rng = SmallRng::seed_from_u64(1);
        // Black (1,1) and (2,2) share the carrier (2,1) and (1,2).
        let (mut p, geo) = stones(&[(1, 1), (2, 2)], &[(2, 1)]);
        let reply = p.bridge_reply(geo, geo.cell(2, 1), Player::P1, &mut rng);
        assert_eq!(reply, Some(geo.cell(1, 2)));
        // White's own bridges are not Black's to save.
        assert_eq!(
            p.bridge_reply(geo, geo.cell(2, 1), Player::P2, &mut rng),
            None
        );
        // With one end missing there is no bridge.
        let (mut p, geo) = stones(&[(1, 1)], &[(2, 1)]);
        assert_eq!(
            p.bridge_reply(geo, geo.cell(2, 1), Player::P1, &mut rng),
            None
        );
        // With the other carrier cell taken, nothing is left to save.
        let (mut p, geo) = stones(&[(1, 1), (2, 2)], &[(2, 1), (1, 2)]);
        assert_eq!(
            p.bridge_reply(geo, geo.cell(2, 1), Player::P1, &mut rng),
            None
        );
    }

    #[test]
    fn an_intruded_edge_template_is_saved_for_the_edge_s_owner_only() {
        let mut rng = SmallRng::seed_from_u64(1);
        // Black (2,1) reaches the top edge through (2,0) or (3,0).
        let (mut p, geo) = stones(&[(2, 1)], &[(2, 0)]);
        let reply = p.bridge_reply(geo, geo.cell(2, 0), Player::P1, &mut rng);
        assert_eq!(reply, Some(geo.cell(3, 0)));
        // The top edge is not White's: the same shape with White's stone
        // on (2,1) and Black's intrusion on (2,0) asks nothing of White.
        let (mut p, geo) = stones(&[(2, 0)], &[(2, 1)]);
        assert_eq!(
            p.bridge_reply(geo, geo.cell(2, 0), Player::P2, &mut rng),
            None
        );
    }
}
