//! Breakthrough, 8x8 or smaller (rows by columns, as OpenSpiel's
//! `breakthrough(rows,columns)`): rules on bitboards (`board`), notation
//! (`notation`), the evaluation (`eval`, and the learned one's inputs in
//! `network`), results proven without search (`tactics`), what the search
//! asks of them (`knowledge`) and the options it reads (`settings`).

pub mod board;
pub mod eval;
pub mod network;
pub mod notation;
pub mod settings;
pub mod tactics;

pub mod knowledge;
mod profile;

pub use knowledge::BreakthroughKnowledge;

use crate::core::{Game, OptionKind, OptionSpec, Outcome, Player, Presentation};
use board::{Board, Geometry, Move};

/// The board's size: 8x8 unless the `Rows` and `Columns` options say less.
#[derive(Clone, Debug)]
pub struct BreakthroughRules {
    pub geometry: Geometry,
}

impl Default for BreakthroughRules {
    fn default() -> Self {
        BreakthroughRules {
            geometry: Geometry::STANDARD,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakthrough {
    board: Board,
}

impl Breakthrough {
    pub fn board(&self) -> &Board {
        &self.board
    }
}

impl Game for Breakthrough {
    type Move = Move;
    type Rules = BreakthroughRules;
    const NAME: &'static str = "breakthrough";

    fn rule_options() -> Vec<OptionSpec> {
        let spin = |name, range: std::ops::RangeInclusive<u8>| OptionSpec {
            name,
            kind: OptionKind::Spin {
                default: 8,
                min: i64::from(*range.start()),
                max: i64::from(*range.end()),
            },
        };
        vec![
            spin("Rows", Geometry::ROWS),
            spin("Columns", Geometry::COLUMNS),
        ]
    }

    fn set_rule_option(
        rules: &mut BreakthroughRules,
        name: &str,
        value: &str,
    ) -> Result<(), String> {
        let number: u8 = value
            .trim()
            .parse()
            .map_err(|_| format!("{name} '{value}' is not a number"))?;
        let (rows, columns) = (rules.geometry.rows(), rules.geometry.columns());
        rules.geometry = match name.to_ascii_lowercase().as_str() {
            "rows" => Geometry::checked(number, columns)?,
            "columns" => Geometry::checked(rows, number)?,
            _ => return Err(format!("unknown option '{name}'")),
        };
        Ok(())
    }

    fn start_position(rules: &BreakthroughRules) -> Self {
        Breakthrough {
            board: Board::start(rules.geometry),
        }
    }

    fn from_fen(fen: &str, rules: &BreakthroughRules) -> Result<Self, String> {
        notation::parse_fen(fen, rules.geometry).map(|board| Breakthrough { board })
    }

    fn to_fen(&self) -> String {
        notation::to_fen(&self.board)
    }

    fn side_to_move(&self) -> Player {
        self.board.side
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board.outcome()
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn ply(&self) -> u32 {
        self.board.ply
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.board.generate_moves(moves);
    }

    fn count_moves(&self) -> u64 {
        self.board.count_moves()
    }

    fn make_move(&mut self, mv: Move) {
        self.board.make_move(mv);
    }

    fn unmake_move(&mut self, mv: Move) {
        self.board.unmake_move(mv);
    }

    fn make_null_move(&mut self) -> bool {
        self.board.pass();
        true
    }

    fn unmake_null_move(&mut self) {
        self.board.pass();
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        notation::parse_move(&self.board, text)
    }

    fn illegal_reason(&self, mv: Move) -> String {
        notation::illegal_reason(&self.board, mv)
    }
}

impl Presentation for Breakthrough {
    fn player_description(&self, player: Player) -> String {
        match player {
            Player::P1 => "white (P, moving up the board)".to_owned(),
            Player::P2 => "black (p, moving down the board)".to_owned(),
        }
    }

    fn render(&self) -> String {
        notation::render(&self.board)
    }

    fn bench_positions() -> Vec<&'static str> {
        BENCH_POSITIONS.to_vec()
    }
}

/// The start and a spread of openings and middle games from engine play.
const BENCH_POSITIONS: [&str; 12] = [
    "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1",
    "pppppppp/1p2pp2/p2ppp2/1P3p2/8/2PPP3/2PP2PP/PPPPPPPP w 0 7",
    "1ppppppp/p3pp2/4p3/2P1pp2/p7/3PP3/3P2PP/PPPPPPPP w 0 13",
    "1pp1pppp/p2pp3/P3pp2/2P5/4p1p1/4P3/1PPP2PP/1P2PPPP w 0 19",
    "1pppppp1/1pp2pp1/p3pp2/p4p2/1P2pP1P/3PP3/2PP2P1/PPP1PPPP w 0 13",
    "1pppppp1/5pp1/1p3p2/5p1P/1p2pP2/3PP3/2P2PP1/PPP2PPP w 0 19",
    "pppppppp/p4pp1/1p3p2/2P3p1/6P1/1P2PP2/P2P1P2/PPP2PPP w 0 13",
    "1pp1pppp/pp2ppp1/8/2P3pP/1P6/4pP2/P4PP1/PPP2PP1 w 0 19",
    "pppppppp/1pp3pp/8/pP6/5P2/2p4P/2PP3P/PPPPPPP1 w 0 13",
    "pppppppp/4p3/2p2pp1/1p4P1/7P/7p/PP2PP2/PPPPPPPP w 0 13",
    "pppp1ppp/4p1pp/3Ppp2/3pp3/1p2P3/4PP2/PP4PP/PPPPPPP1 w 0 13",
    "ppp2ppp/4p1pp/4pp2/4p3/4P3/PP2PP2/P2p2PP/2PP1PP1 w 0 19",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::perft::perft;

    fn start() -> Breakthrough {
        Breakthrough::start_position(&BreakthroughRules::default())
    }

    #[test]
    fn perft_from_the_start_matches_published_counts() {
        let mut game = start();
        let expected = [22u64, 484, 11_132, 256_036, 6_182_818];
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(
                perft(&mut game, depth as u32 + 1),
                count,
                "depth {}",
                depth + 1
            );
        }
        assert_eq!(
            game,
            start(),
            "perft must leave the position as it found it"
        );
    }

    #[test]
    fn reaching_the_last_rank_or_capturing_everything_wins() {
        let rules = BreakthroughRules::default();
        let mut game = Breakthrough::from_fen("p7/1P6/8/8/8/8/8/8 w 0 1", &rules).expect("valid");
        let mv = game.parse_move("b7a8").expect("valid");
        game.make_move(mv);
        assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)));
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        assert!(moves.is_empty(), "a finished game has no moves");

        let mut game = Breakthrough::from_fen("8/8/8/8/8/8/1p6/P7 w 0 1", &rules).expect("valid");
        let mv = game.parse_move("a1b2").expect("valid");
        game.make_move(mv);
        assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)));
    }

    #[test]
    fn captures_are_diagonal_only() {
        let game =
            Breakthrough::from_fen("8/8/8/2p5/2P5/8/8/8 w 0 1", &BreakthroughRules::default())
                .expect("valid");
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        let names: Vec<String> = moves.iter().map(|&m| game.format_move(m)).collect();
        assert!(
            !names.contains(&"c4c5".to_string()),
            "no straight capture: {names:?}"
        );
        assert!(names.contains(&"c4b5".to_string()) && names.contains(&"c4d5".to_string()));
    }

    #[test]
    fn a_position_and_its_mirror_image_share_one_key() {
        let key = |fen: &str, rules: &BreakthroughRules| {
            Breakthrough::from_fen(fen, rules).expect("valid").hash()
        };
        let rules = BreakthroughRules::default();
        assert_eq!(
            key("pp6/8/8/8/8/2P5/8/7P b 0 1", &rules),
            key("6pp/8/8/8/8/5P2/8/P7 b 0 1", &rules)
        );
        assert_ne!(
            key("pp6/8/8/8/8/2P5/8/7P b 0 1", &rules),
            key("pp6/8/8/8/8/5P2/8/P7 b 0 1", &rules)
        );
        assert_ne!(
            key("pp6/8/8/8/8/2P5/8/7P b 0 1", &rules),
            key("pp6/8/8/8/8/2P5/8/7P w 0 1", &rules)
        );
        let mut narrow = BreakthroughRules::default();
        Breakthrough::set_rule_option(&mut narrow, "Rows", "6").expect("valid");
        Breakthrough::set_rule_option(&mut narrow, "Columns", "5").expect("valid");
        assert_eq!(
            key("ppppp/ppp1p/3p1/5/PPPPP/PPPPP w 0 2", &narrow),
            key("ppppp/p1ppp/1p3/5/PPPPP/PPPPP w 0 2", &narrow)
        );
    }
}
