//! The smallest game the project runs: a toy that shows what a game must
//! write to get the engine, the referee and the tools (see README,
//! "Adding a game"), and the subject of the contract check's own tests.

use crate::core::game::{Game, Outcome, Player};
use crate::core::Presentation;

/// A pile of stones; a move takes one or two; who takes the last wins.
#[derive(Clone, Debug)]
pub struct Pile {
    stones: u32,
    mover: Player,
    key: u64,
    key_drifts: bool,
    forget_to_unmake: bool,
}

/// The pile's rules: sound by default; the contract's own tests switch on
/// a flaw to see it caught. `key_drifts` forgets to update the kept key
/// when two stones are taken, `forget_to_unmake` leaves the pile as it is.
#[derive(Clone, Debug, Default)]
pub struct PileFlaws {
    pub key_drifts: bool,
    pub forget_to_unmake: bool,
}

impl Pile {
    fn key_of(stones: u32, mover: Player) -> u64 {
        u64::from(stones) * 2 + mover.index() as u64
    }
}

impl Game for Pile {
    type Move = u16;
    type Rules = PileFlaws;
    const NAME: &'static str = "pile";

    fn start_position(flaws: &PileFlaws) -> Self {
        Pile {
            stones: 9,
            mover: Player::P1,
            key: 18,
            key_drifts: flaws.key_drifts,
            forget_to_unmake: flaws.forget_to_unmake,
        }
    }
    fn from_fen(fen: &str, flaws: &PileFlaws) -> Result<Self, String> {
        let (stones, mover) = fen.split_once(' ').ok_or("no side")?;
        let stones: u32 = stones.parse().map_err(|_| "bad count")?;
        let mover = if mover == "1" { Player::P1 } else { Player::P2 };
        Ok(Pile {
            stones,
            mover,
            key: Pile::key_of(stones, mover),
            ..Pile::start_position(flaws)
        })
    }
    fn to_fen(&self) -> String {
        format!("{} {}", self.stones, self.mover.index() + 1)
    }
    fn side_to_move(&self) -> Player {
        self.mover
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then_some(Outcome::Win(self.mover.other()))
    }
    fn hash(&self) -> u64 {
        self.key
    }
    fn generate_moves(&self, moves: &mut Vec<u16>) {
        moves.clear();
        moves.extend((1..=2).filter(|&take| u32::from(take) <= self.stones));
    }
    fn make_move(&mut self, take: u16) {
        self.stones -= u32::from(take);
        self.mover = self.mover.other();
        if !(self.key_drifts && take == 2) {
            self.key = Pile::key_of(self.stones, self.mover);
        }
    }
    fn unmake_move(&mut self, take: u16) {
        if !self.forget_to_unmake {
            self.stones += u32::from(take);
        }
        self.mover = self.mover.other();
        self.key = Pile::key_of(self.stones, self.mover);
    }
    fn format_move(&self, take: u16) -> String {
        take.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u16, String> {
        text.parse().map_err(|_| "not a number".into())
    }
}

impl Presentation for Pile {}
