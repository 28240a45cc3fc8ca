//! How a game ended, in the words that go into its record.

use crate::core::{Outcome, Player};

use super::client::Fault;

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The rules decided: a win (or a draw the rules declare).
    Rules,
    IllegalMove,
    TimeForfeit,
    /// A crash or a closed pipe.
    Crash,
    /// Stopped answering `isready` (or a handshake).
    Stall,
    Resignation,
    /// Spoke out of protocol where a move was due.
    ProtocolError,
    /// The game reached `--maxmoves` plies: a draw.
    MaxMoves,
    /// Saved before it ended (the board's Save mid-game); never the end of
    /// a refereed game, so not among `ALL`.
    Unfinished,
}

impl Termination {
    /// How a refereed game can end, in the order summaries count them.
    pub const ALL: [Termination; 8] = [
        Termination::Rules,
        Termination::IllegalMove,
        Termination::TimeForfeit,
        Termination::Crash,
        Termination::Stall,
        Termination::Resignation,
        Termination::ProtocolError,
        Termination::MaxMoves,
    ];

    pub fn keyword(self) -> &'static str {
        match self {
            Termination::Rules => "rules",
            Termination::IllegalMove => "illegal move",
            Termination::TimeForfeit => "time forfeit",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
            Termination::Resignation => "resignation",
            Termination::ProtocolError => "protocol error",
            Termination::MaxMoves => "max moves",
            Termination::Unfinished => "unfinished",
        }
    }

    pub fn from_keyword(text: &str) -> Option<Self> {
        Termination::ALL
            .into_iter()
            .chain([Termination::Unfinished])
            .find(|t| t.keyword() == text)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameResult {
    /// `None` is a draw.
    pub winner: Option<Player>,
    pub termination: Termination,
    /// One sentence for humans: who did what.
    pub reason: String,
}

impl GameResult {
    pub fn by_rules(outcome: Outcome) -> Self {
        let (winner, reason) = match outcome {
            Outcome::Win(player) => (
                Some(player),
                format!("{} wins by the rules", side_name(player)),
            ),
            Outcome::Draw => (None, "drawn by the rules".to_owned()),
        };
        GameResult {
            winner,
            termination: Termination::Rules,
            reason,
        }
    }

    /// `offender` failed to move; the other side wins.
    pub fn forfeit(offender: Player, termination: Termination, detail: &str) -> Self {
        GameResult {
            winner: Some(offender.other()),
            termination,
            reason: format!("{} loses: {detail}", side_name(offender)),
        }
    }

    pub fn from_fault(offender: Player, fault: &Fault) -> Self {
        match fault {
            Fault::Crashed(why) => {
                Self::forfeit(offender, Termination::Crash, &format!("crashed ({why})"))
            }
            Fault::Stalled(why) => {
                Self::forfeit(offender, Termination::Stall, &format!("stalled ({why})"))
            }
            Fault::TimedOut(limit) => Self::forfeit(
                offender,
                Termination::TimeForfeit,
                &format!("no move within {} ms", limit.as_millis()),
            ),
            Fault::Resigned => Self::forfeit(offender, Termination::Resignation, "resigned"),
            Fault::Protocol(why) => Self::forfeit(
                offender,
                Termination::ProtocolError,
                &format!("protocol error ({why})"),
            ),
        }
    }

    pub fn max_moves(plies: usize) -> Self {
        GameResult {
            winner: None,
            termination: Termination::MaxMoves,
            reason: format!("drawn after {plies} plies (maxmoves)"),
        }
    }

    /// A game saved before its end: no result yet.
    pub fn unfinished() -> Self {
        GameResult {
            winner: None,
            termination: Termination::Unfinished,
            reason: "unfinished".to_owned(),
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2` from player 1's side, `*` unfinished.
    pub fn score_text(&self) -> &'static str {
        match (self.winner, self.termination) {
            (_, Termination::Unfinished) => "*",
            (Some(Player::P1), _) => "1-0",
            (Some(Player::P2), _) => "0-1",
            (None, _) => "1/2-1/2",
        }
    }

    /// What `query result` should answer.
    pub fn query_text(&self) -> &'static str {
        match self.winner {
            Some(Player::P1) => "p1win",
            Some(Player::P2) => "p2win",
            None => "draw",
        }
    }
}

/// A game whose result is not set yet has none.
impl Default for GameResult {
    fn default() -> Self {
        GameResult::unfinished()
    }
}

pub fn side_name(player: Player) -> &'static str {
    match player {
        Player::P1 => "p1",
        Player::P2 => "p2",
    }
}
