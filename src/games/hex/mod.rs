//! Hex on an N x N rhombus (1 <= N <= 25) with the optional pie rule.
//!
//! Black (player 1) joins row 1 to row N, White joins column a to the last
//! column. Files: `geometry` (neighbours, edges, Zobrist keys), `board`
//! (position, union-find win detection), `notation` (cells, FEN, picture);
//! for the search, `knowledge` (the per-thread `HexKnowledge`) with
//! `eval` (two-distance; its weights in `weights.txt`), `resistance` (the
//! electrical-resistance evaluation, chosen by the `Evaluation` option),
//! `analysis` (exact local facts), `inferior` (dead, captured, vulnerable
//! and dominated cells, for proofs), `chain` (virtual-connection proofs),
//! `vc` (H-search, edge templates and must-play), `opening` (pie-rule
//! policy), `solver` (small boards), `playout` (Monte Carlo
//! simulations) and `policy` (Monte Carlo priors from learned patterns,
//! their gammas in `policy.txt` and, for playouts, `playout-policy.txt`).

pub mod analysis;
pub mod board;
pub mod chain;
pub mod colour_mirror;
pub mod eval;
pub mod geometry;
pub mod inferior;
pub mod knowledge;
pub mod notation;
pub mod opening;
pub mod pattern_keys;
pub mod playout;
pub mod policy;
mod profile;
pub mod proving;
pub mod resistance;
mod settings;
pub mod solver;
pub mod vc;
pub mod waves;

pub use board::{Hex, HexMove, HexRules};
pub use knowledge::HexKnowledge;

use crate::core::{
    Game, OptionKind, OptionSpec, Outcome, Player, Presentation, RecordStyle, SgfPoints,
};
use geometry::MAX_SIZE;

fn parse_bool(value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Ok(true),
        "false" | "0" | "off" | "no" => Ok(false),
        other => Err(format!("'{other}' is not true or false")),
    }
}

impl Game for Hex {
    type Move = HexMove;
    type Rules = HexRules;

    const NAME: &'static str = "hex";

    fn rule_options() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: "BoardSize",
                kind: OptionKind::Spin {
                    default: 11,
                    min: 1,
                    max: MAX_SIZE as i64,
                },
            },
            OptionSpec {
                name: "Swap",
                kind: OptionKind::Check { default: true },
            },
        ]
    }

    fn set_rule_option(rules: &mut HexRules, name: &str, value: &str) -> Result<(), String> {
        match name.to_ascii_lowercase().as_str() {
            "boardsize" => {
                let size: usize = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("BoardSize '{value}' is not a number"))?;
                notation::check_size(size)?;
                rules.board_size = size;
                Ok(())
            }
            "swap" => {
                rules.swap = parse_bool(value)?;
                Ok(())
            }
            _ => Err(format!("unknown option '{name}'")),
        }
    }

    fn start_position(rules: &HexRules) -> Self {
        Hex::empty(rules)
    }

    fn from_fen(fen: &str, rules: &HexRules) -> Result<Self, String> {
        notation::from_fen(fen, rules)
    }

    fn to_fen(&self) -> String {
        notation::to_fen(self)
    }

    fn with_side_to_move(&self, player: Player) -> Option<Self> {
        let mut position = self.clone();
        position.set_side_to_move(player);
        Some(position)
    }

    fn side_to_move(&self) -> Player {
        self.side_to_move_player()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(Outcome::Win)
    }

    fn hash(&self) -> u64 {
        // The symmetric key maps a swap-legal position onto the position
        // after the swap, whose value differs (the swap is one more choice),
        // so the two must not share an entry.
        if self.swap_is_legal() {
            self.canonical_key() ^ SWAP_LEGAL_KEY
        } else {
            self.canonical_key()
        }
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn generate_moves(&self, moves: &mut Vec<HexMove>) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        moves.extend(self.empty_cells().map(HexMove::cell));
        if self.swap_is_legal() {
            moves.push(HexMove::SWAP);
        }
    }

    fn count_moves(&self) -> u64 {
        if self.winner().is_some() {
            return 0;
        }
        let empty = self.geo.cells() as u64 - self.stones_on_board() as u64;
        empty + u64::from(self.swap_is_legal())
    }

    fn player_colour(player: Player) -> &'static str {
        match player {
            Player::P1 => "black",
            Player::P2 => "white",
        }
    }

    fn make_move(&mut self, mv: HexMove) {
        self.apply(mv);
    }

    fn unmake_move(&mut self, mv: HexMove) {
        self.revert(mv);
    }

    fn make_null_move(&mut self) -> bool {
        self.pass()
    }

    fn unmake_null_move(&mut self) {
        self.pass();
    }

    fn format_move(&self, mv: HexMove) -> String {
        notation::format_move(self.size(), mv)
    }

    fn parse_move(&self, text: &str) -> Result<HexMove, String> {
        notation::parse_move(self.size(), text)
    }

    fn illegal_reason(&self, mv: HexMove) -> String {
        self.why_illegal(mv)
    }
}

impl Presentation for Hex {
    const RECORD_STYLE: RecordStyle = RecordStyle::Sgf {
        game_number: 11,
        points: SgfPoints::GtpCells,
    };

    fn player_description(&self, player: Player) -> String {
        let size = self.size();
        let last_column = (b'a' + size as u8 - 1) as char;
        match player {
            Player::P1 => format!("black (x, joins row 1 to row {size})"),
            Player::P2 => format!("white (o, joins column a to column {last_column})"),
        }
    }

    fn render(&self) -> String {
        notation::render(self)
    }

    fn bench_positions() -> Vec<&'static str> {
        BENCH_POSITIONS.to_vec()
    }
}

/// Mixed into the key of a position where `swap` is legal (any fixed
/// random-looking constant serves).
const SWAP_LEGAL_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// Openings and middle games on 11x11 for `bench` (taken from games
/// against OpenSpiel's MCTS bot).
const BENCH_POSITIONS: [&str; 7] = [
    "11/11/11/11/11/11/11/11/11/11/11 b",
    "11/11/11/11/6o4/5x5/4o6/3x7/11/11/11 b",
    "11/6x4/11/9o1/11/11/6o4/11/11/1x9/xo9 b",
    "11/x5x4/11/11/11/11/6o4/x3x6/2ooo6/1ox8/11 b",
    "11/o10/11/4x6/3o7/2ox7/2ox1o5/2x8/11/1x1o5x1/11 b",
    "8o1o/9x1/11/8x2/2o2o5/7x3/11/11/9x1/11/11 b",
    "7xo2/1x4xo1o1/5xo4/4oo5/11/11/11/11/2o6x1/2x5x2/11 b",
];
