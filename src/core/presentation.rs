//! What a person sees of a game: the board drawn in text, answers to
//! `query`, and the positions `bench` searches. The protocol front-ends and
//! the referee use it; the search never does. Every method has a default,
//! so a new game may start with an empty `impl Presentation for ... {}`.

use super::game::{Game, Player};
use super::notation::fen_rows;

/// The form of a game's records that its community's tools read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordStyle {
    /// PGN, the moves in the game's own notation.
    Text,
    /// SGF FF[4] with this `GM` game number, moves spelled as `points`.
    Sgf { game_number: u32, points: SgfPoints },
}

/// How an SGF record spells a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SgfPoints {
    /// As GTP does (`f6`, `swap-pieces`): HexGui's form.
    GtpCells,
    /// Two letters, the column then the row counted from the top: Go's
    /// form, which Gomoku tools share.
    Letters,
}

pub trait Presentation: Game {
    /// The form of the game's records (the referee's default).
    const RECORD_STYLE: RecordStyle = RecordStyle::Text;

    /// Whether a match without openings of its own gives each pair of games
    /// a board of its own (a game whose board is drawn at random), rather
    /// than the start position.
    const BOARD_PER_PAIR: bool = false;

    /// A picture of the board for humans (`d`), several lines.
    fn render(&self) -> String {
        self.to_fen()
    }

    /// How a person is told who is to move: the colour, and what it plays
    /// with or towards (e.g. "black (x, joins row 1 to row 11)").
    fn player_description(&self, player: Player) -> String {
        Self::player_colour(player).to_owned()
    }

    /// Answers a game-specific `query <what>` (beyond `gameover`, `p1turn`
    /// and `result`), or `None` if unknown.
    fn query(&self, what: &str) -> Option<String> {
        let _ = what;
        None
    }

    /// The board as a picture shows it, so that a page draws any game
    /// without reading its FEN: the rows from the top of the picture, each
    /// cell's label, empty for an empty cell. Defaults to the rows of the
    /// FEN's board part, a piece's letter in each occupied cell.
    fn board_cells(&self) -> Vec<Vec<String>> {
        let fen = self.to_fen();
        let placement = fen.split_whitespace().next().unwrap_or("");
        fen_rows(placement)
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|cell| cell.map(String::from).unwrap_or_default())
                    .collect()
            })
            .collect()
    }

    /// A line a picture shows under the board (Jogo do Cavalo's scores).
    fn board_caption(&self) -> Option<String> {
        None
    }

    /// Positions (FENs under default rules) that `bench` searches; a fixed,
    /// varied set of openings and middle games. Empty: the start position.
    fn bench_positions() -> Vec<&'static str> {
        Vec::new()
    }
}
