//! The rules of a game: the one trait a new game must implement.
//!
//! A position is a plain value: the board, the side to move and an
//! incremental key, nothing a search needs beyond the rules. What the search
//! asks beyond them (evaluation, proofs, caches) is a game's `Knowledge`
//! (`knowledge.rs`); what a person sees is its `Presentation`
//! (`presentation.rs`). With the rules alone a game gets perft, the
//! protocol, the referee and a plain engine (`PlainKnowledge`).

use std::fmt::Debug;
use std::hash::Hash;

/// The two players. `P1` moves first in every game of the project (White in
/// Breakthrough and Jogo do Cavalo, Black in Hex and Gomoku).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    P1,
    P2,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }

    pub fn index(self) -> usize {
        match self {
            Player::P1 => 0,
            Player::P2 => 1,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Player),
    Draw,
}

/// Evaluation scores, always from the side to move's point of view.
pub type Score = i32;

/// A proven win is `MATE - plies_to_win`; a proven loss its negation.
pub const MATE: Score = 1_000_000;
/// Any score at least this large (in absolute value) is a proven result.
pub const MATE_BOUND: Score = MATE - 10_000;
/// Larger than any score the search can return.
pub const INFINITY: Score = MATE + 1;

/// The kind and default of a game option, as announced by `option name ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: String,
        choices: Vec<String>,
    },
    Text {
        default: String,
    },
    /// An action, with no value (`Clear Hash`).
    Button,
}

/// One rule option of a game (board size, rule variant, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

/// A move's compact code for the transposition table, which stores moves
/// in 24 bits without locks. `from_code` may receive a code that no legal
/// move has (a torn table entry): it must not panic, and whatever it returns
/// is only ever compared with generated moves.
pub trait MoveCode: Copy {
    /// Below `MOVE_CODE_LIMIT`; two different moves of one position have
    /// different codes.
    fn to_code(self) -> u32;
    fn from_code(code: u32) -> Self;
}

/// Every move code is below this 24-bit value (which the table reserves
/// for "no move").
pub const MOVE_CODE_LIMIT: u32 = (1 << 24) - 1;

/// A two-player, zero-sum, perfect-information game: its rules only.
///
/// Contract the search relies on (`check_game_contract` tests it for every
/// game):
/// - `make_move` is only called with a move produced by `generate_moves`
///   for the current position, or one that `parse_move` accepted *and* the
///   caller found in `generate_moves`.
/// - `unmake_move` is called with the last move made, in strict LIFO order,
///   and restores the position and its key exactly.
/// - `hash` is a Zobrist-style key kept incrementally; equal positions (same
///   side to move) give equal keys, and it equals the key of the same
///   position read from its FEN.
/// - A finished position (`outcome` is `Some`) has no moves.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move, small and cheap to copy.
    type Move: MoveCode + Eq + Hash + Debug + Send + Sync + 'static;
    /// The rule settings that vary between games of this kind (board size,
    /// variants). `Default` gives the standard rules.
    type Rules: Clone + Debug + Default + Send + Sync + 'static;

    /// Executable / engine name, e.g. "breakthrough".
    const NAME: &'static str;

    /// The colour name of each player ("white" moves first in Breakthrough,
    /// "black" in Hex and Gomoku). UCI's `wtime`/`btime` follow these names.
    fn player_colour(player: Player) -> &'static str {
        match player {
            Player::P1 => "white",
            Player::P2 => "black",
        }
    }

    // ---- rules and options -------------------------------------------------

    /// The rule options this game announces; their names are matched
    /// case-insensitively by the protocol.
    fn rule_options() -> Vec<OptionSpec> {
        Vec::new()
    }

    /// Applies `setoption name <name> value <value>` to the rules. `name` is
    /// one of `rule_options` (any case). Errors are shown to the user.
    fn set_rule_option(rules: &mut Self::Rules, name: &str, value: &str) -> Result<(), String> {
        let _ = (rules, value);
        Err(format!("unknown option '{name}'"))
    }

    /// The starting position under the given rules.
    fn start_position(rules: &Self::Rules) -> Self;

    /// Parses a position string (FEN) under the given rules.
    fn from_fen(fen: &str, rules: &Self::Rules) -> Result<Self, String>;

    /// The position string, accepted back by `from_fen`.
    fn to_fen(&self) -> String;

    // ---- state -------------------------------------------------------------

    fn side_to_move(&self) -> Player;

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Zobrist key of the position, including the side to move.
    fn hash(&self) -> u64;

    /// Plies played since the start of the game (used for ageing and draw
    /// rules; a game may return 0 if it has no use for it).
    fn ply(&self) -> u32 {
        0
    }

    // ---- moves -------------------------------------------------------------

    /// Clears `moves` and fills it with every legal move.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// Counts the legal moves (perft's last ply); override when a game can
    /// count faster than it generates.
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.len() as u64
    }

    fn make_move(&mut self, mv: Self::Move);

    fn unmake_move(&mut self, mv: Self::Move);

    /// Passes the turn without moving, for the search's null-move pruning
    /// (never played in a game). Returns false, changing nothing, where the
    /// game has no such pass (the default) or not in this position.
    fn make_null_move(&mut self) -> bool {
        false
    }

    /// Takes back the pass `make_null_move` made.
    fn unmake_null_move(&mut self) {}

    // ---- positions without history -----------------------------------------
    // For protocols that hand over boards rather than games (GTP's `play`
    // out of turn, Gomocup's `BOARD`): the front-end asks the game, and
    // builds no position string of its own.

    /// This position with `player` to move, the pieces as they are; `None`
    /// where the game has no such positions (the default).
    fn with_side_to_move(&self, _player: Player) -> Option<Self> {
        None
    }

    /// Puts a stone of `player` where `mv` would, without a move being
    /// played (the turn stays); false where the game places no stones (the
    /// default) or the cell is taken. Read the result back through
    /// `to_fen` and `from_fen`, which judge it as a position.
    fn place_stone(&mut self, _mv: Self::Move, _player: Player) -> bool {
        false
    }

    // ---- notation ----------------------------------------------------------

    fn format_move(&self, mv: Self::Move) -> String;

    /// A line of moves from this position, each in its own position's
    /// notation.
    fn format_line(&self, line: &[Self::Move]) -> Vec<String> {
        let mut walker = self.clone();
        line.iter()
            .map(|&mv| {
                let text = walker.format_move(mv);
                walker.make_move(mv);
                text
            })
            .collect()
    }

    /// Parses a move in this position's context. It need not check legality
    /// beyond what notation needs: `parse_legal_move` does.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// Why a move read by `parse_move` is not legal here, in a few words a
    /// person understands ("c3 is occupied"). Games say what their rules
    /// forbid; the default names no reason.
    fn illegal_reason(&self, mv: Self::Move) -> String {
        format!("{} is not a legal move here", self.format_move(mv))
    }

    /// A move from outside (a GUI, an engine, a person, a record), read
    /// and checked to be legal here: the one way text becomes a move.
    fn parse_legal_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let mv = self.parse_move(text).map_err(MoveError::Unreadable)?;
        let mut legal = Vec::new();
        self.generate_moves(&mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal(self.illegal_reason(mv)))
        }
    }
}

/// Why a text is not a legal move in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game is over: no move is legal.
    GameOver,
    /// Not a move in the game's notation; why.
    Unreadable(String),
    /// A move, but not a legal one here; why, for a person.
    Illegal(String),
}

impl MoveError {
    /// Why the move is refused, for a person: the game's own words for an
    /// illegal move (`Game::illegal_reason`).
    pub fn reason(&self) -> String {
        match self {
            MoveError::Illegal(why) | MoveError::Unreadable(why) => why.clone(),
            MoveError::GameOver => self.to_string(),
        }
    }
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            MoveError::GameOver => f.write_str("the game is already over"),
            MoveError::Unreadable(why) => f.write_str(why),
            // The engines' protocol lines say only this (their transcripts
            // are the contract); `reason` gives the game's words.
            MoveError::Illegal(_) => f.write_str("illegal move"),
        }
    }
}

/// Games whose moves are cell numbers.
impl MoveCode for u16 {
    fn to_code(self) -> u32 {
        u32::from(self)
    }
    fn from_code(code: u32) -> Self {
        code as u16
    }
}
