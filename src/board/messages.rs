//! The WebSocket messages between the page and the server, one JSON object
//! a message with its kind in `type` (`protocol/BOARD.md` describes them).

use serde::{Deserialize, Serialize};

use crate::core::Player;
use crate::wire::pbrain::{parse_reply, PbrainReply};
use crate::wire::ugi::{parse_engine_line, EngineLine};

/// How strong an engine plays: a limit a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// The seeds' easy, medium and hard are depths 2, 3 and 4.
    Depth(u32),
    MovetimeMs(u64),
    Nodes(u64),
}

/// Who plays one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlayerSpec {
    Human,
    Engine {
        /// `None` (or absent): the project's own engine for the game.
        #[serde(default)]
        command: Option<String>,
        /// `ugi` (default), `uci`, `gtp` or `pbrain` (Gomocup).
        #[serde(default)]
        proto: Option<String>,
        level: Level,
    },
}

/// What the page asks.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Starts a game (of any of the games), ending this tab's current one.
    NewGame {
        game: String,
        /// Rule options by name (`BoardSize`, `Swap`, ...), as strings.
        #[serde(default)]
        rules: Vec<(String, String)>,
        players: [PlayerSpec; 2],
        /// Pause between engine moves, so a person can follow them.
        #[serde(default)]
        delay_ms: u64,
    },
    /// A person's move, in the game's notation.
    Move {
        #[serde(rename = "move")]
        mv: String,
    },
    Undo,
    Hint,
    Resign,
    /// Engines stop moving after the move being thought about.
    Pause,
    Resume,
    /// One engine move while paused.
    Step,
    /// The engine thinking now (a seat's or the hint's) is told to play
    /// its best move at once (`stop`; UGI and UCI engines only).
    MoveNow,
    /// Replaces one side's player (after an engine failed, or to swap in
    /// another engine or level).
    SetPlayer {
        side: Player,
        player: PlayerSpec,
    },
    /// Asks for the game record.
    Save,
    /// Replaces the game by the one this record holds.
    Load {
        text: String,
    },
}

/// One rule option as the page's form shows it.
#[derive(Clone, Debug, Serialize)]
pub struct RuleOption {
    pub name: String,
    /// `spin`, `check`, `combo`, `string` or `button`.
    pub kind: &'static str,
    pub default: String,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub choices: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct GameInfo {
    pub name: &'static str,
    /// The colour names of player 1 and player 2.
    pub colours: [&'static str; 2],
    pub rules: Vec<RuleOption>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeatState {
    pub name: String,
    pub human: bool,
    pub player: PlayerSpec,
    /// Why this side's engine cannot go on (the page offers a new engine).
    pub fault: Option<String>,
}

/// What an engine said about one of its moves.
#[derive(Clone, Debug, Serialize)]
pub struct MoveInfo {
    #[serde(rename = "move")]
    pub mv: String,
    /// Who played it: turns do not always alternate (Jogo do Cavalo's
    /// second mover may move first after the placements), and the page
    /// should not read each game's FEN to learn them.
    pub side: Player,
    pub score: Option<String>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub millis: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ResultState {
    /// `None`: a draw.
    pub winner: Option<Player>,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub score: &'static str,
    pub reason: String,
}

/// The whole game as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct GameState {
    pub game: &'static str,
    pub rules: Vec<(String, String)>,
    pub board_size: Option<u32>,
    /// The position now, in the game's FEN (for the person to copy; the
    /// page draws from `board`).
    pub fen: String,
    /// The board as a picture shows it: rows from the top, each cell's
    /// label, empty for an empty cell (`Presentation::board_cells`).
    pub board: Vec<Vec<String>>,
    /// A line to show under the board (Jogo do Cavalo's scores).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
    pub start_fen: String,
    pub moves: Vec<MoveInfo>,
    pub to_move: Player,
    /// Every legal move, in the game's notation.
    pub legal: Vec<String>,
    pub players: [SeatState; 2],
    pub result: Option<ResultState>,
    pub paused: bool,
}

/// What the server tells the page.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// First message on a connection: the games and their rule options.
    Hello {
        games: Vec<GameInfo>,
    },
    State(Box<GameState>),
    /// An engine is searching; sent for each `info` line it prints (a
    /// Gomocup brain's MESSAGE and DEBUG lines too, in `message`).
    Thinking {
        side: Player,
        depth: Option<u32>,
        score: Option<String>,
        nodes: Option<u64>,
        pv: Vec<String>,
        /// What a Gomocup brain said, as it said it.
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    Hint {
        #[serde(rename = "move")]
        mv: String,
        score: Option<String>,
    },
    Record {
        format: &'static str,
        filename: String,
        text: String,
    },
    Error {
        message: String,
    },
}

impl ServerMessage {
    pub fn error(message: impl Into<String>) -> Self {
        ServerMessage::Error {
            message: message.into(),
        }
    }
}

/// Reads an `info` line's depth, score, nodes and principal variation.
pub fn parse_info(line: &str, side: Player) -> Option<ServerMessage> {
    let Some(EngineLine::Info(info)) = parse_engine_line(line) else {
        return None;
    };
    if info.string.is_some() || info.depth.is_none() && info.score.is_none() && info.pv.is_empty() {
        return None;
    }
    Some(ServerMessage::Thinking {
        side,
        depth: info.depth,
        score: info.score.map(|score| score.to_string()),
        nodes: info.nodes,
        pv: info.pv,
        message: None,
    })
}

/// Reads a Gomocup brain's MESSAGE or DEBUG line. Brains write what they
/// like there; the figures are taken where they are named the common way
/// (`depth 7`, `score cp 35` or `ev 35`, `nodes 1200` or `n 1200`).
pub fn parse_pbrain_chatter(line: &str, side: Player) -> Option<ServerMessage> {
    let text = match parse_reply(line)? {
        PbrainReply::Message(text) | PbrainReply::Debug(text) => text,
        _ => return None,
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let number_after = |names: &[&str]| {
        words
            .windows(2)
            .find(|pair| names.contains(&pair[0].to_ascii_lowercase().as_str()))
            .and_then(|pair| pair[1].trim_end_matches(',').parse::<i64>().ok())
    };
    let score = words.windows(3).find_map(|w| {
        let named = matches!(w[0], "score" | "eval") && matches!(w[1], "cp" | "mate");
        (named && w[2].parse::<i64>().is_ok()).then(|| format!("{} {}", w[1], w[2]))
    });
    let score =
        score.or_else(|| number_after(&["ev", "eval", "score"]).map(|cp| format!("cp {cp}")));
    Some(ServerMessage::Thinking {
        side,
        depth: number_after(&["depth"]).and_then(|d| u32::try_from(d).ok()),
        score,
        nodes: number_after(&["nodes", "n"]).and_then(|n| u64::try_from(n).ok()),
        pv: Vec::new(),
        message: Some(text),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_read_from_json() {
        let text = r#"{"type":"new_game","game":"hex","rules":[["BoardSize","5"]],
            "players":[{"kind":"human"},{"kind":"engine","level":{"depth":2}}]}"#;
        let message: ClientMessage = serde_json::from_str(text).unwrap();
        match message {
            ClientMessage::NewGame {
                game,
                rules,
                players,
                delay_ms,
            } => {
                assert_eq!(game, "hex");
                assert_eq!(rules, [("BoardSize".to_owned(), "5".to_owned())]);
                assert_eq!(players[0], PlayerSpec::Human);
                assert_eq!(
                    players[1],
                    PlayerSpec::Engine {
                        command: None,
                        proto: None,
                        level: Level::Depth(2)
                    }
                );
                assert_eq!(delay_ms, 0);
            }
            other => panic!("read as {other:?}"),
        }
        let mv: ClientMessage = serde_json::from_str(r#"{"type":"move","move":"a1"}"#).unwrap();
        assert!(matches!(mv, ClientMessage::Move { mv } if mv == "a1"));
        assert!(serde_json::from_str::<ClientMessage>(r#"{"type":"fly"}"#).is_err());
    }

    #[test]
    fn info_lines_become_thinking_messages() {
        let message = parse_info(
            "info depth 5 seldepth 7 score cp -12 nodes 999 nps 1 pv a2a3 h7h6",
            Player::P2,
        )
        .unwrap();
        let json = serde_json::to_string(&message).unwrap();
        assert!(json.contains(r#""type":"thinking""#), "{json}");
        assert!(json.contains(r#""side":"p2""#), "{json}");
        assert!(json.contains(r#""score":"cp -12""#), "{json}");
        assert!(json.contains(r#""pv":["a2a3","h7h6"]"#), "{json}");
        assert!(parse_info("info string hello", Player::P1).is_none());
    }

    #[test]
    fn gomocup_messages_become_thinking_messages() {
        let message =
            parse_pbrain_chatter("MESSAGE depth 6 score cp 35 nodes 1200 time 40", Player::P1)
                .unwrap();
        let json = serde_json::to_value(&message).unwrap();
        assert_eq!(json["depth"], 6);
        assert_eq!(json["score"], "cp 35");
        assert_eq!(json["nodes"], 1200);
        assert_eq!(json["message"], "depth 6 score cp 35 nodes 1200 time 40");
        let loose = parse_pbrain_chatter("DEBUG ev -20, n 99", Player::P2).unwrap();
        let json = serde_json::to_value(&loose).unwrap();
        assert_eq!(json["score"], "cp -20");
        assert_eq!(json["nodes"], 99);
        assert!(json["depth"].is_null());
        assert!(parse_pbrain_chatter("7,7", Player::P1).is_none());
        assert!(parse_info("bestmove a1", Player::P1).is_none());
    }
}
