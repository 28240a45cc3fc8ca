//! Jogo do Cavalo: two knights on a 10x10 board of values 0..99, each
//! collecting the values it lands on (issue 5). The rules live in
//! `position`, the geometry in `board`, notation and FEN in `notation`; what
//! the search knows beyond them (the evaluation in `eval`, its weights in
//! `weights.txt`, the solvers in `endgame` and `exact`) is reached through
//! `knowledge`.

pub mod board;
pub mod endgame;
pub mod eval;
pub mod exact;
pub mod knowledge;
pub mod notation;
pub mod position;
mod profile;
pub mod rules;

pub use knowledge::CavaloKnowledge;
pub use position::{Cavalo, Move};
pub use rules::{Placement, Rules};

use crate::core::{Game, OptionSpec, Outcome, Player, Presentation};

impl Game for Cavalo {
    type Move = Move;
    type Rules = Rules;

    const NAME: &'static str = "cavalo";

    fn rule_options() -> Vec<OptionSpec> {
        rules::rule_options()
    }

    fn set_rule_option(rules: &mut Rules, name: &str, value: &str) -> Result<(), String> {
        rules::set_rule_option(rules, name, value)
    }

    fn start_position(rules: &Rules) -> Self {
        Cavalo::start(rules)
    }

    fn from_fen(fen: &str, rules: &Rules) -> Result<Self, String> {
        notation::from_fen(fen, rules)
    }

    fn to_fen(&self) -> String {
        notation::to_fen(self)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Option<Outcome> {
        Cavalo::outcome(self)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves);
    }

    fn count_moves(&self) -> u64 {
        self.count()
    }

    fn make_move(&mut self, mv: Move) {
        self.make(mv);
    }

    fn unmake_move(&mut self, mv: Move) {
        self.unmake(mv);
    }

    /// Once the knights are on the board, a pass is a move of the rules
    /// (forced when a knight is stuck); before that there is none.
    fn make_null_move(&mut self) -> bool {
        if self.in_placement() {
            return false;
        }
        self.make(Move::PASS);
        true
    }

    fn unmake_null_move(&mut self) {
        self.unmake(Move::PASS);
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        notation::parse_move(self, text)
    }

    fn illegal_reason(&self, mv: Move) -> String {
        notation::illegal_reason(self, mv)
    }
}

impl Presentation for Cavalo {
    /// Every pair of a match plays on a board of its own: the board, drawn
    /// at random, decides more than the moves of a start position.
    const BOARD_PER_PAIR: bool = true;

    fn player_description(&self, player: Player) -> String {
        match player {
            Player::P1 => "white (knight W)".to_owned(),
            Player::P2 => "black (knight B)".to_owned(),
        }
    }

    fn render(&self) -> String {
        notation::render(self)
    }

    fn bench_positions() -> Vec<&'static str> {
        BENCH_POSITIONS.to_vec()
    }

    fn query(&self, what: &str) -> Option<String> {
        match what.trim() {
            "score" => Some(format!("{} {}", self.scores[0], self.scores[1])),
            _ => None,
        }
    }

    /// Row 1 at the top, as the seed's display showed it: a knight as `W`
    /// or `B`, a cell still to take as its value, a removed one as `x`.
    fn board_cells(&self) -> Vec<Vec<String>> {
        notation::board_cells(self)
    }

    fn board_caption(&self) -> Option<String> {
        Some(format!(
            "White {}   Black {}",
            self.scores[0], self.scores[1]
        ))
    }
}

/// Positions of boards 0-7 after 2 to 44 plies of mostly greedy play: the
/// placements, openings, middle games and a few endgames.
const BENCH_POSITIONS: [&str; 8] = [
        "2,10,87,32,40,x,80,60,47,82/73,58,72,x,16,85,14,44,69,29/12,31,22,55,64,5,38,67,17,20/61,28,34,4,62,90,86,97,74,48/84,6,36,51,23,24,56,95,19,96/25,x,41,68,9,0,21,83,45,30/18,49,93,3,94,43,53,8,78,11/79,70,57,46,59,33,63,66,92,39/7,52,76,81,77,13,27,75,42,1/26,71,65,15,50,91,x,37,54,35 f1 g10 98 99 w 2",
        "32,42,35,x,3,x,81,21,67,16/63,61,10,x,29,49,38,19,90,31/78,43,98,x,0,4,24,71,60,41/26,48,5,1,x,79,51,14,62,20/23,76,x,97,74,15,x,40,9,69/17,7,50,70,91,92,47,x,54,2/94,30,39,88,80,77,22,73,95,66/36,55,72,93,84,59,89,83,x,6/45,44,75,27,34,8,25,x,96,87/18,12,33,37,13,57,53,x,52,x e4 h10 243 211 w 2",
        "x,53,79,35,x,43,x,20,4,32/77,26,x,41,36,17,x,81,x,3/80,0,82,21,70,97,61,27,48,68/95,76,6,x,x,x,8,44,x,84/16,x,1,34,50,x,25,72,47,x/75,99,x,x,15,24,67,83,55,38/74,71,13,60,14,x,93,39,52,31/2,x,7,86,x,x,12,33,28,x/23,40,x,x,92,5,42,57,62,29/22,51,11,18,x,x,30,63,59,10 e4 e8 446 431 w 2",
        "98,63,84,59,x,17,56,90,58,x/x,14,71,15,21,x,72,89,51,x/x,13,50,x,x,85,30,x,12,39/37,81,57,28,5,x,65,3,x,23/95,x,x,42,35,x,1,33,x,73/x,64,x,x,x,32,x,x,x,27/x,40,x,x,36,61,x,49,x,9/22,x,41,26,94,16,x,x,24,18/4,46,x,x,48,62,31,44,93,x/10,x,82,2,20,x,0,x,75,53 b10 h6 638 583 w 2",
        "x,86,71,70,63,51,x,18,x,82/x,91,x,x,19,x,42,x,x,50/61,x,85,16,x,26,64,x,92,x/x,29,15,x,x,28,7,24,x,x/44,62,10,x,41,5,x,72,x,81/4,20,53,46,x,x,x,x,x,57/x,x,x,52,x,x,23,68,1,x/32,2,58,x,x,12,x,x,x,x/x,0,x,x,75,x,x,x,40,14/17,21,x,36,x,25,35,27,x,x e10 g1 899 814 w 2",
        "90,43,60,x,64,x,56,x,68,x/16,x,x,61,x,x,x,3,41,x/62,57,x,x,x,x,x,x,x,45/x,75,x,x,x,x,20,x,10,x/74,54,32,x,x,x,x,2,82,x/51,x,x,x,x,86,30,x,x,26/34,x,42,14,23,x,13,x,0,x/x,31,46,x,x,x,x,x,x,9/28,1,6,47,x,55,x,x,x,x/x,24,x,15,x,x,x,65,x,x g2 j10 1061 783 w 2",
        "x,21,x,24,x,x,x,5,x,48/91,x,x,x,x,x,x,1,71,59/x,57,x,x,83,x,73,x,x,54/x,65,x,x,x,x,x,x,x,x/x,x,x,x,x,x,10,x,95,x/x,17,x,20,x,x,x,x,11,14/30,x,x,53,x,13,77,45,x,2/x,37,x,x,x,41,42,84,x,56/x,12,19,88,35,3,x,x,31,47/81,75,x,74,50,x,38,18,x,x a9 g2 603 1057 w 2",
        "14,62,24,42,x,5,x,x,x,x/80,x,54,x,x,x,x,x,x,x/53,x,x,92,29,x,x,x,x,x/x,45,23,x,x,52,x,50,x,x/x,x,x,10,x,x,x,x,26,96/69,x,x,x,x,x,x,x,88,x/x,55,x,x,1,x,x,x,2,32/x,x,8,x,x,x,x,x,x,x/x,41,x,x,20,x,x,x,x,x/35,25,x,x,x,x,x,x,33,x e4 h7 809 1385 w 2",
];

#[cfg(test)]
pub(crate) mod tests;
