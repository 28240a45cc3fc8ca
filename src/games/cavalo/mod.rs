//! Jogo do Cavalo: two knights on a 10x10 board of values 0..99, each
//! collecting the values it lands on (issue 5). The rules live in
//! `position`, the geometry in `board`, notation and FEN in `notation`, the
//! evaluation in `eval`.

pub mod board;
pub mod eval;
pub mod notation;
pub mod position;
pub mod rules;
pub mod seed_baseline;

pub use position::{Cavalo, Move};
pub use rules::{Placement, Rules};

use crate::core::{EvalTerm, Game, OptionSpec, Outcome, Player, Score};

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

    fn move_order_hint(&self, mv: Move) -> i32 {
        eval::move_order_hint(self, mv)
    }

    fn move_index(&self, mv: Move) -> usize {
        mv.to as usize
    }

    fn move_index_bound(&self) -> usize {
        board::CELLS + 1
    }

    fn make_move(&mut self, mv: Move) {
        self.make(mv);
    }

    fn unmake_move(&mut self, mv: Move) {
        self.unmake(mv);
    }

    fn evaluate(&mut self) -> Score {
        eval::evaluate(self)
    }

    fn eval_terms(&mut self) -> Vec<EvalTerm> {
        eval::terms(self)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        notation::parse_move(self, text)
    }

    fn render(&self) -> String {
        notation::render(self)
    }

    fn query(&self, what: &str) -> Option<String> {
        match what.trim() {
            "score" => Some(format!("{} {}", self.scores[0], self.scores[1])),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
