//! One tab's game: the position kept by the project's own rules, two seats
//! (a person or an engine), and what the page may ask of it. Generic over
//! the game; `AnySession` hides which game it is from the connection.
//! Engines at work are in `engine_turn`, records in `records`.

mod engine_turn;
mod game_info;
mod outbox;
mod records;
mod seat;

use std::time::Duration;

use crate::core::{Player, Presentation};
use crate::referee::adjudication::{GameResult, Termination};
use crate::referee::client::EngineClient;
use crate::referee::record::{self, MoveRecord, RecordFormat};
use crate::referee::tournament::build_rules;

use super::messages::{
    ClientMessage, GameState, MoveInfo, PlayerSpec, ResultState, SeatState, ServerMessage,
};
use seat::{make_engine, Seat};

pub use game_info::{colours, game_info};
pub use outbox::Outbox;
pub use records::{read_record, record_rules};

/// A session whose game is known only to itself.
pub trait AnySession: Send {
    fn game(&self) -> &'static str;
    /// Handles every message but `NewGame`, which the connection handles.
    fn handle(&mut self, message: ClientMessage, out: &Outbox);
    /// An engine is to move and nothing stops it.
    fn engine_due(&self) -> bool;
    /// The pause asked between engine moves.
    fn delay(&self) -> Duration;
    /// Lets the engine to move play (or fail).
    fn engine_move(&mut self, out: &Outbox);
    fn state(&self) -> ServerMessage;
    /// Who plays each side: a game loaded in another kind's place keeps them.
    fn players(&self) -> [PlayerSpec; 2];
    /// Replaces the game by a record's, or says why not (the game stays).
    fn load_record(&mut self, text: &str) -> Result<(), String>;
}

pub struct Session<G: Presentation> {
    rule_options: Vec<(String, String)>,
    board_size: Option<u32>,
    /// `None`: the rules' start position (which the engines derive from the
    /// same rule options).
    start_fen: Option<String>,
    start: G,
    position: G,
    played: Vec<G::Move>,
    moves: Vec<MoveRecord>,
    seats: [Seat; 2],
    /// Gives hints when no seat has an engine.
    hint_engine: Option<EngineClient>,
    result: Option<GameResult>,
    paused: bool,
    step: bool,
    delay: Duration,
    /// Engines must hear the game from its start (after undo or load).
    engines_stale: bool,
}

impl<G: Presentation> Session<G> {
    /// A new game under these rule options; engines are started lazily, at
    /// their first move.
    pub fn new(
        rule_options: Vec<(String, String)>,
        players: [PlayerSpec; 2],
        delay: Duration,
    ) -> Result<Self, String> {
        let rules = build_rules::<G>(&rule_options)?;
        let board_size = crate::referee::cli::board_size::<G>(&rule_options);
        let [first, second] = players;
        let seats = [
            Seat {
                engine: make_engine(G::NAME, &first, Player::P1, &rule_options)?,
                player: first,
                fault: None,
            },
            Seat {
                engine: make_engine(G::NAME, &second, Player::P2, &rule_options)?,
                player: second,
                fault: None,
            },
        ];
        let start = G::start_position(&rules);
        Ok(Session {
            rule_options,
            board_size,
            start_fen: None,
            position: start.clone(),
            start,
            played: Vec::new(),
            moves: Vec::new(),
            seats,
            hint_engine: None,
            result: None,
            paused: false,
            step: false,
            delay,
            engines_stale: true,
        })
    }

    fn texts(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.mv.clone()).collect()
    }

    /// Who played each move so far.
    fn movers(&self) -> Vec<Player> {
        let mut replay = self.start.clone();
        self.played
            .iter()
            .map(|&mv| {
                let side = replay.side_to_move();
                replay.make_move(mv);
                side
            })
            .collect()
    }

    fn legal_moves(&self) -> Vec<G::Move> {
        let mut legal = Vec::new();
        if self.result.is_none() {
            self.position.generate_moves(&mut legal);
        }
        legal
    }

    /// Plays `text` if it is legal here; the error says why not.
    fn play_text(&mut self, text: &str) -> Result<G::Move, String> {
        let text = text.trim();
        if self.result.is_some() {
            return Err("the game is over".to_owned());
        }
        let mv = self
            .position
            .parse_legal_move(text)
            // The game's own words: what its rules forbid, or why the text
            // is no move at all.
            .map_err(|why| why.reason())?;
        self.make(mv, MoveRecord::default());
        Ok(mv)
    }

    fn make(&mut self, mv: G::Move, mut info: MoveRecord) {
        info.mv = self.position.format_move(mv);
        self.position.make_move(mv);
        self.played.push(mv);
        self.moves.push(info);
        if let Some(outcome) = self.position.outcome() {
            self.result = Some(GameResult::by_rules(outcome));
        }
    }

    fn undo(&mut self) -> Result<(), String> {
        if self.played.is_empty() {
            return Err("nothing to undo".to_owned());
        }
        // Back to a person's turn: past the engine moves that followed it.
        let mut plies = 0;
        while let Some(mv) = self.played.pop() {
            self.position.unmake_move(mv);
            self.moves.pop();
            plies += 1;
            let side = self.position.side_to_move();
            let human_turn = matches!(self.seats[side.index()].player, PlayerSpec::Human);
            if human_turn || self.played.is_empty() || plies >= 2 {
                break;
            }
        }
        self.result = None;
        self.engines_stale = true;
        self.paused = true;
        if self
            .seats
            .iter()
            .any(|s| matches!(s.player, PlayerSpec::Human))
        {
            self.paused = false;
        }
        Ok(())
    }

    fn resign(&mut self) -> Result<(), String> {
        if self.result.is_some() {
            Err("the game is over".to_owned())
        } else {
            let side = self.position.side_to_move();
            // A person resigns for their own side; with two engines
            // or two people, the side to move resigns.
            let resigner = match self
                .seats
                .iter()
                .position(|s| matches!(s.player, PlayerSpec::Human))
            {
                Some(index) if !matches!(self.seats[side.index()].player, PlayerSpec::Human) => {
                    if index == 0 {
                        Player::P1
                    } else {
                        Player::P2
                    }
                }
                _ => side,
            };
            self.result = Some(GameResult::forfeit(
                resigner,
                Termination::Resignation,
                "resigned",
            ));
            Ok(())
        }
    }

    fn set_player(&mut self, side: Player, player: PlayerSpec) -> Result<(), String> {
        let engine = make_engine(G::NAME, &player, side, &self.rule_options)?;
        self.seats[side.index()] = Seat {
            player,
            engine,
            fault: None,
        };
        self.engines_stale = true;
        Ok(())
    }
}

impl<G: Presentation> AnySession for Session<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn handle(&mut self, message: ClientMessage, out: &Outbox) {
        let outcome = match message {
            ClientMessage::NewGame { .. } => Err("a new game is the connection's".to_owned()),
            ClientMessage::Move { mv } => {
                let side = self.position.side_to_move();
                if self.result.is_some() {
                    Err("the game is over: start a new game".to_owned())
                } else if !matches!(self.seats[side.index()].player, PlayerSpec::Human) {
                    Err(format!(
                        "it is {}'s turn, played by an engine",
                        G::player_colour(side)
                    ))
                } else {
                    self.play_text(&mv).map(|_| ())
                }
            }
            ClientMessage::Undo => self.undo(),
            ClientMessage::Hint => self.hint(out),
            ClientMessage::Resign => self.resign(),
            ClientMessage::Pause => {
                self.paused = true;
                Ok(())
            }
            ClientMessage::Resume => {
                self.paused = false;
                Ok(())
            }
            ClientMessage::Step => {
                self.step = true;
                Ok(())
            }
            ClientMessage::SetPlayer { side, player } => self.set_player(side, player),
            ClientMessage::Save => {
                let format = RecordFormat::for_game(G::NAME);
                out.send(ServerMessage::Record {
                    format: format.extension(),
                    filename: format!("{}.{}", G::NAME, format.extension()),
                    text: record::render(&self.record(), format),
                });
                Ok(())
            }
            ClientMessage::Load { text } => self.load(&text),
            // The server answers it at once, while the engine thinks.
            ClientMessage::MoveNow => Err("no engine is thinking".to_owned()),
        };
        if let Err(message) = outcome {
            out.send(ServerMessage::error(message));
        }
        out.send(self.state());
    }

    fn engine_due(&self) -> bool {
        let side = self.position.side_to_move();
        let seat = &self.seats[side.index()];
        self.result.is_none()
            && seat.engine.is_some()
            && seat.fault.is_none()
            && (!self.paused || self.step)
    }

    fn delay(&self) -> Duration {
        self.delay
    }

    fn engine_move(&mut self, out: &Outbox) {
        self.play_engine_move(out);
    }

    fn players(&self) -> [PlayerSpec; 2] {
        [self.seats[0].player.clone(), self.seats[1].player.clone()]
    }

    fn load_record(&mut self, text: &str) -> Result<(), String> {
        self.load(text)
    }

    fn state(&self) -> ServerMessage {
        let legal = self.legal_moves();
        let seat_state = |seat: &Seat| SeatState {
            name: seat.name(),
            human: matches!(seat.player, PlayerSpec::Human),
            player: seat.player.clone(),
            fault: seat.fault.clone(),
        };
        ServerMessage::State(Box::new(GameState {
            game: G::NAME,
            rules: self.rule_options.clone(),
            board_size: self.board_size,
            fen: self.position.to_fen(),
            board: self.position.board_cells(),
            caption: self.position.board_caption(),
            start_fen: self.start.to_fen(),
            moves: self
                .moves
                .iter()
                .zip(self.movers())
                .map(|(m, side)| MoveInfo {
                    mv: m.mv.clone(),
                    side,
                    score: m.score.map(|score| score.to_string()),
                    depth: m.depth,
                    nodes: m.nodes,
                    millis: m.millis,
                })
                .collect(),
            to_move: self.position.side_to_move(),
            legal: legal
                .iter()
                .map(|&mv| self.position.format_move(mv))
                .collect(),
            players: [seat_state(&self.seats[0]), seat_state(&self.seats[1])],
            result: self.result.as_ref().map(|r| ResultState {
                winner: r.winner,
                score: r.score_text(),
                reason: r.reason.clone(),
            }),
            paused: self.paused,
        }))
    }
}
