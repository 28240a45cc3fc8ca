//! Gomoku on a square board of 5..=22 (default 15), `freestyle` (five or more
//! wins), `standard` (exactly five wins) or `renju` (Black wins with exactly
//! five and may not play a forbidden point, White with five or more); a
//! full board is a draw.

mod answers;
pub mod board;
mod defence;
mod eval;
mod failures;
mod knowledge;
pub mod network;
pub mod notation;
pub mod pattern;
mod profile;
pub mod renju;
mod settings;
pub mod speed;
pub mod swap2;
mod threats;
mod vcf;
mod vct;

use crate::core::{
    Game, OptionKind, OptionSpec, Outcome, Player, Presentation, RecordStyle, SgfPoints,
};
use board::{Board, Rule, BLACK, MAX_SIZE, MIN_SIZE};

pub use knowledge::GomokuKnowledge;
pub use settings::GomokuSettings;
pub use vcf::VcfStats;

/// A move is the index of its cell, `y * STRIDE + x` (see [`board`]).
pub type Move = u16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GomokuRules {
    pub size: usize,
    pub rule: Rule,
}

impl Default for GomokuRules {
    fn default() -> Self {
        GomokuRules {
            size: 15,
            rule: Rule::Freestyle,
        }
    }
}

#[derive(Clone)]
pub struct Gomoku {
    board: Board,
    rules: GomokuRules,
    /// Moves made since the position was set up, for `unmake_move` checks
    /// and the last-move mark in `render`.
    history: Vec<Move>,
}

impl Gomoku {
    fn from_board(board: Board, rules: GomokuRules) -> Gomoku {
        Gomoku {
            board,
            rules,
            history: Vec::new(),
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board for a prover to play its sequences on; it must take back
    /// every stone it plays, so that the history and the board still agree.
    pub(super) fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    pub fn rules(&self) -> &GomokuRules {
        &self.rules
    }
}

fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => "freestyle",
        Rule::Standard => "standard",
        Rule::Renju => "renju",
    }
}

impl Game for Gomoku {
    type Move = Move;
    type Rules = GomokuRules;
    const NAME: &'static str = "gomoku";

    fn player_colour(player: Player) -> &'static str {
        match player {
            Player::P1 => "black",
            Player::P2 => "white",
        }
    }

    fn rule_options() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: "BoardSize",
                kind: OptionKind::Spin {
                    default: 15,
                    min: MIN_SIZE as i64,
                    max: MAX_SIZE as i64,
                },
            },
            OptionSpec {
                name: "Rule",
                kind: OptionKind::Combo {
                    default: "freestyle".to_string(),
                    choices: ["freestyle", "standard", "renju"]
                        .map(String::from)
                        .to_vec(),
                },
            },
        ]
    }

    fn set_rule_option(rules: &mut GomokuRules, name: &str, value: &str) -> Result<(), String> {
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "boardsize" => {
                let size: usize = value
                    .parse()
                    .map_err(|_| format!("BoardSize '{value}' is not a number"))?;
                if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
                    return Err(format!(
                        "BoardSize {size} is outside {MIN_SIZE}..{MAX_SIZE}"
                    ));
                }
                rules.size = size;
                Ok(())
            }
            "rule" => {
                rules.rule = match value.to_ascii_lowercase().as_str() {
                    "freestyle" => Rule::Freestyle,
                    "standard" => Rule::Standard,
                    "renju" => Rule::Renju,
                    _ => {
                        return Err(format!(
                            "Rule '{value}' is not freestyle, standard or renju"
                        ))
                    }
                };
                Ok(())
            }
            _ => Err(format!("unknown option '{name}'")),
        }
    }

    fn start_position(rules: &GomokuRules) -> Self {
        Gomoku::from_board(Board::new(rules.size, rules.rule), *rules)
    }

    fn from_fen(fen: &str, rules: &GomokuRules) -> Result<Self, String> {
        notation::from_fen(fen, rules).map(|board| Gomoku::from_board(board, *rules))
    }

    fn to_fen(&self) -> String {
        notation::to_fen(&self.board)
    }

    fn with_side_to_move(&self, player: Player) -> Option<Self> {
        let mut position = self.clone();
        if position.side_to_move() != player {
            position.board.pass();
        }
        Some(position)
    }

    fn place_stone(&mut self, mv: Move, player: Player) -> bool {
        let cell = mv as usize;
        if !self.board.contains(cell) || !self.board.is_empty(cell) {
            return false;
        }
        self.board.put(cell, player.index());
        true
    }

    fn side_to_move(&self) -> Player {
        if self.board.side() == 0 {
            Player::P1
        } else {
            Player::P2
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.board.winner() {
            Some(0) => Some(Outcome::Win(Player::P1)),
            Some(_) => Some(Outcome::Win(Player::P2)),
            None if self.board.is_full() => Some(Outcome::Draw),
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn ply(&self) -> u32 {
        self.board.stone_count() as u32
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        let size = self.board.size();
        let side = self.board.side();
        for y in 0..size {
            for x in 0..size {
                let cell = board::cell_of(x, y);
                if self.board.is_empty(cell) && !self.board.is_forbidden_to(side, cell) {
                    moves.push(cell as Move);
                }
            }
        }
    }

    fn count_moves(&self) -> u64 {
        if self.outcome().is_some() {
            return 0;
        }
        let size = self.board.size();
        let empty = size * size - self.board.stone_count();
        if self.board.rule() == Rule::Renju && self.board.side() == BLACK {
            return (empty - renju::forbidden_cells(&self.board).len()) as u64;
        }
        empty as u64
    }

    fn make_move(&mut self, mv: Move) {
        self.board.play(mv as usize);
        self.history.push(mv);
    }

    fn unmake_move(&mut self, mv: Move) {
        debug_assert_eq!(self.history.last(), Some(&mv));
        self.history.pop();
        self.board.unplay(mv as usize);
    }

    fn make_null_move(&mut self) -> bool {
        self.board.pass();
        true
    }

    fn unmake_null_move(&mut self) {
        self.board.pass();
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_cell(mv as usize)
    }

    /// Under Renju a forbidden point is refused here, with the reason, so
    /// that whoever checks a move can say why it is illegal.
    fn parse_move(&self, text: &str) -> Result<Move, String> {
        let cell = notation::parse_cell(text, self.board.size())?;
        let side = self.board.side();
        if self.board.is_empty(cell) && self.board.is_forbidden_to(side, cell) {
            let kind = renju::forbidden_kind(&self.board, cell).map_or("", |kind| kind.name());
            return Err(format!(
                "{} is a forbidden point for Black under renju: {kind}",
                notation::format_cell(cell)
            ));
        }
        Ok(cell as Move)
    }

    fn illegal_reason(&self, mv: Move) -> String {
        let cell = mv as usize;
        let name = notation::format_cell(cell);
        if !self.board.is_empty(cell) {
            format!("point {name} is occupied")
        } else if let Some(kind) = renju::forbidden_kind(&self.board, cell) {
            format!(
                "{name} is a forbidden point for Black under renju: {}",
                kind.name()
            )
        } else {
            format!("{name} is not a legal move here")
        }
    }
}

impl Presentation for Gomoku {
    const RECORD_STYLE: RecordStyle = RecordStyle::Sgf {
        game_number: 4,
        points: SgfPoints::Letters,
    };

    fn player_description(&self, player: Player) -> String {
        match player {
            Player::P1 => "black (x)".to_owned(),
            Player::P2 => "white (o)".to_owned(),
        }
    }

    fn render(&self) -> String {
        let mut picture = notation::render(&self.board, self.history.last().map(|&mv| mv as usize));
        picture.push_str(&format!(
            "Rule: {}, board {}x{}\n",
            rule_name(self.rules.rule),
            self.board.size(),
            self.board.size()
        ));
        picture.push_str(&notation::forbidden_legend(&self.board));
        picture
    }

    fn bench_positions() -> Vec<&'static str> {
        BENCH_POSITIONS.to_vec()
    }

    fn query(&self, what: &str) -> Option<String> {
        match what {
            "boardsize" => Some(self.board.size().to_string()),
            "rule" => Some(rule_name(self.rules.rule).to_string()),
            _ => None,
        }
    }
}

/// Openings from the Piskvork set, then middle games from the engine's own
/// games (depth 4) a few moves before their end, and a position won by a
/// long VCF (`bg-gomoku speed` finds it).
const BENCH_POSITIONS: [&str; 12] = [
    "15/15/15/15/8x6/15/15/7xo6/15/15/15/15/15/15/15 o",
    "15/15/15/15/6x8/15/8o6/7x7/15/15/15/15/15/15/15 o",
    "15/15/15/15/15/7x7/7o7/7x7/15/15/15/15/15/15/15 o",
    "15/15/15/15/15/15/7o7/7x7/7x7/15/15/15/15/15/15 o",
    "15/15/15/15/15/9x5/15/7xo6/15/15/15/15/15/15/15 o",
    "15/15/15/15/15/7x7/6x1o6/7x7/8o6/15/15/15/15/15/15 o",
    "15/15/15/15/15/5x9/6o2x5/6ox7/15/15/15/15/15/15/15 o",
    "15/15/15/15/15/5x9/6o8/7x7/7o1x5/15/15/15/15/15/15 o",
    "15/15/15/15/15/5oxxxxo4/7xo1o4/6ox7/7o1x5/10o4/15/15/15/15/15 x",
    "15/15/15/15/10o4/7o2o4/7x7/6oxo1x4/7x1o5/7ox6/7xxxo4/8xx5/8o6/15/15 o",
    "15/15/15/15/5o9/5oxo7/6xxx6/5xoxx6/3oxoo1x6/4o10/15/15/15/15/15 o",
    "15/3o2o8/7x7/3x1x1x7/8ox5/6o1x6/3o2o8/5x1xoxo4/3o1x4o2o1/6x1o3o2/4x1o8/9xxox2/4x5x1x2/8ooox2x/12o1o x",
];
