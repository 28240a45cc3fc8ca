//! One tab's game: the position kept by the project's own rules, two seats
//! (a person or an engine), and what the page may ask of it. Generic over
//! the game; `AnySession` hides which game it is from the connection.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::core::{Game, MoveError, OptionKind, Player};
use crate::referee::adjudication::{GameResult, Termination};
use crate::referee::client::{ClockReport, EngineClient, EngineReply, PositionRequest};
use crate::referee::process::kill_process_group;
use crate::referee::record::{self, GameRecord, MoveRecord, RecordFormat};
use crate::referee::timecontrol::allowed_time;
use crate::referee::tournament::build_rules;

use super::engines;
use super::messages::{
    parse_info, ClientMessage, GameInfo, GameState, Level, MoveInfo, PlayerSpec, ResultState,
    RuleOption, SeatState, ServerMessage,
};

/// Where a session's messages go (the connection forwards them), and the
/// engines searching for it, which the server stops when the tab closes.
#[derive(Clone)]
pub struct Outbox {
    send: Arc<dyn Fn(ServerMessage) + Send + Sync>,
    searching: Arc<Mutex<Vec<u32>>>,
}

impl Outbox {
    pub fn new(send: Arc<dyn Fn(ServerMessage) + Send + Sync>) -> Self {
        Outbox {
            send,
            searching: Arc::new(Mutex::new(Vec::new())),
        }
    }

    pub fn send(&self, message: ServerMessage) {
        (self.send)(message);
    }

    fn searching(&self) -> std::sync::MutexGuard<'_, Vec<u32>> {
        self.searching.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Kills the engines searching now (their process groups): a closed
    /// tab does not wait for a long search to end. The blocked search then
    /// fails at once.
    pub fn stop_searches(&self) {
        for pid in self.searching().drain(..) {
            kill_process_group(pid);
        }
    }
}

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
}

struct Seat {
    player: PlayerSpec,
    engine: Option<EngineClient>,
    fault: Option<String>,
}

impl Seat {
    fn name(&self) -> String {
        match (&self.player, &self.engine) {
            (PlayerSpec::Human, _) => "human".to_owned(),
            (PlayerSpec::Engine { level, .. }, Some(engine)) => {
                format!("{} ({})", engine.display_name, engines::describe(level))
            }
            (PlayerSpec::Engine { level, .. }, None) => {
                format!("engine ({})", engines::describe(level))
            }
        }
    }
}

pub struct Session<G: Game> {
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

/// The colour names of a game's players.
pub fn colours<G: Game>() -> [&'static str; 2] {
    [G::player_colour(Player::P1), G::player_colour(Player::P2)]
}

/// The page's description of a game and its rule options.
pub fn game_info<G: Game>() -> GameInfo {
    let rules = G::rule_options()
        .into_iter()
        .map(|spec| {
            let mut option = RuleOption {
                name: spec.name.to_owned(),
                kind: "string",
                default: String::new(),
                min: None,
                max: None,
                choices: Vec::new(),
            };
            match spec.kind {
                OptionKind::Spin { default, min, max } => {
                    option.kind = "spin";
                    option.default = default.to_string();
                    option.min = Some(min);
                    option.max = Some(max);
                }
                OptionKind::Check { default } => {
                    option.kind = "check";
                    option.default = default.to_string();
                }
                OptionKind::Combo { default, choices } => {
                    option.kind = "combo";
                    option.default = default;
                    option.choices = choices;
                }
                OptionKind::Text { default } => option.default = default,
                OptionKind::Button => option.kind = "button",
            }
            option
        })
        .collect();
    GameInfo {
        name: G::NAME,
        colours: colours::<G>(),
        rules,
    }
}

fn make_engine(
    game: &str,
    player: &PlayerSpec,
    side: Player,
    rule_options: &[(String, String)],
) -> Result<Option<EngineClient>, String> {
    match player {
        PlayerSpec::Human => Ok(None),
        PlayerSpec::Engine {
            command,
            proto,
            level,
        } => {
            let spec = engines::engine_spec(game, command.as_deref(), proto.as_deref(), level)?;
            let label = format!("board-{}", side_label(side));
            Ok(Some(engines::client(spec, &label, rule_options)))
        }
    }
}

fn side_label(side: Player) -> &'static str {
    match side {
        Player::P1 => "p1",
        Player::P2 => "p2",
    }
}

fn fault_text(fault: &crate::referee::client::Fault) -> String {
    use crate::referee::client::Fault;
    match fault {
        Fault::Crashed(why) => format!("crashed: {why}"),
        Fault::Stalled(why) => format!("stalled: {why}"),
        Fault::TimedOut(limit) => format!("gave no move within {} ms", limit.as_millis()),
        Fault::Resigned => "resigned".to_owned(),
        Fault::Protocol(why) => format!("broke its protocol: {why}"),
    }
}

impl<G: Game> Session<G> {
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
            .map_err(|why| match why {
                MoveError::Unreadable(why) => format!("'{text}' is not a move: {why}"),
                _ => format!("{text} is not a legal move here"),
            })?;
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

    /// Tells every started engine the game anew (after undo or load).
    fn refresh_engines(&mut self) {
        let (start_fen, board_size) = (self.start_fen.clone(), self.board_size);
        for seat in self.seats.iter_mut() {
            if let Some(engine) = seat.engine.as_mut() {
                if let Err(fault) = engine.new_game(start_fen.as_deref(), board_size) {
                    seat.fault = Some(fault_text(&fault));
                }
            }
        }
        if let Some(engine) = self.hint_engine.as_mut() {
            let _ = engine.new_game(start_fen.as_deref(), board_size);
        }
        self.engines_stale = false;
    }

    fn search(
        engine: &mut EngineClient,
        request: &PositionRequest,
        out: &Outbox,
        side: Player,
    ) -> Result<EngineReply, crate::referee::client::Fault> {
        let send = out.clone();
        // At most one message every 50 ms unless it carries a new principal
        // variation: a fast engine's info lines must not flood the page.
        let mut last_sent: Option<std::time::Instant> = None;
        engine.info_listener = Some(Box::new(move |line: &str| {
            let due = last_sent.is_none_or(|at| at.elapsed() >= Duration::from_millis(50));
            if !due && !line.contains(" pv ") {
                return;
            }
            if let Some(message) = parse_info(line, side) {
                last_sent = Some(std::time::Instant::now());
                send.send(message);
            }
        }));
        let pid = engine.process().ok().map(|p| p.pid());
        if let Some(pid) = pid {
            out.searching().push(pid);
        }
        let allowed = allowed_time(&engine.spec.time, None);
        let reply = engine.go(request, &ClockReport::default(), allowed);
        if let Some(pid) = pid {
            out.searching().retain(|&p| p != pid);
        }
        engine.info_listener = None;
        reply
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

    fn hint(&mut self, out: &Outbox) -> Result<(), String> {
        if self.result.is_some() {
            return Err("the game is over".to_owned());
        }
        if self.engines_stale {
            self.refresh_engines();
        }
        let texts = self.texts();
        let side = self.position.side_to_move();
        let own = self
            .seats
            .iter()
            .position(|s| s.engine.is_some() && s.fault.is_none());
        if own.is_none() && self.hint_engine.is_none() {
            let spec = engines::engine_spec(G::NAME, None, None, &Level::Depth(3))?;
            let mut engine = engines::client(spec, "board-hint", &self.rule_options);
            engine
                .new_game(self.start_fen.as_deref(), self.board_size)
                .map_err(|f| format!("the hint engine {}", fault_text(&f)))?;
            self.hint_engine = Some(engine);
        }
        let request = PositionRequest {
            start_fen: self.start_fen.as_deref(),
            moves: &texts,
            to_move: side,
            board_size: self.board_size,
        };
        let engine = match own {
            Some(index) => self.seats[index].engine.as_mut(),
            None => self.hint_engine.as_mut(),
        }
        .ok_or_else(|| "no engine to ask".to_owned())?;
        // GTP and Gomocup engines play the move they find on their own
        // board: they must hear the game anew before their next move.
        if engine.protocol().keeps_its_board() {
            self.engines_stale = true;
        }
        let reply = Self::search(engine, &request, out, side)
            .map_err(|f| format!("no hint: the engine {}", fault_text(&f)))?;
        out.send(ServerMessage::Hint {
            mv: reply.mv,
            score: reply.score.map(|score| score.to_string()),
        });
        Ok(())
    }

    /// The start position's FEN where the board size alone does not give
    /// it (a Jogo do Cavalo board seed, a variant's first mover), so that a
    /// record read elsewhere starts from the same position.
    fn record_start_fen(&self) -> Option<String> {
        if self.start_fen.is_some() {
            return self.start_fen.clone();
        }
        let sized: Vec<(String, String)> = self
            .rule_options
            .iter()
            .filter(|(name, _)| name.eq_ignore_ascii_case("boardsize"))
            .cloned()
            .collect();
        let plain = build_rules::<G>(&sized).ok()?;
        let fen = self.start.to_fen();
        (G::start_position(&plain).to_fen() != fen).then_some(fen)
    }

    fn record(&self) -> GameRecord {
        let start_fen = self.record_start_fen();
        GameRecord {
            game: G::NAME.to_owned(),
            round: 1,
            players: [self.seats[0].name(), self.seats[1].name()],
            opening: if start_fen.is_some() {
                "fen".to_owned()
            } else {
                "startpos".to_owned()
            },
            start_fen,
            board_size: self.board_size,
            moves: self.moves.clone(),
            result: self.result.clone().unwrap_or(GameResult {
                winner: None,
                termination: Termination::MaxMoves,
                reason: "unfinished".to_owned(),
            }),
            notes: Vec::new(),
        }
    }

    /// Replaces the game by a record's (its first game), each move checked.
    fn load(&mut self, text: &str) -> Result<(), String> {
        let format = if text.trim_start().starts_with('(') {
            RecordFormat::Sgf
        } else if text.trim_start().starts_with('{') {
            RecordFormat::Json
        } else {
            RecordFormat::Text
        };
        let records = record::parse(format, text)?;
        let record = records
            .into_iter()
            .next()
            .ok_or_else(|| "the record holds no game".to_owned())?;
        if record.game != G::NAME {
            return Err(format!(
                "the record is of {}, this game is {}",
                record.game,
                G::NAME
            ));
        }
        let mut rule_options = self.rule_options.clone();
        if let Some(size) = record.board_size {
            let has_size = G::rule_options()
                .iter()
                .any(|o| o.name.eq_ignore_ascii_case("boardsize"));
            if has_size {
                rule_options.retain(|(name, _)| !name.eq_ignore_ascii_case("boardsize"));
                rule_options.push(("BoardSize".to_owned(), size.to_string()));
            }
        }
        let rules = build_rules::<G>(&rule_options)?;
        let start = match &record.start_fen {
            Some(fen) => G::from_fen(fen, &rules)?,
            None => G::start_position(&rules),
        };
        let mut loaded = Session::<G> {
            rule_options: rule_options.clone(),
            board_size: crate::referee::cli::board_size::<G>(&rule_options),
            start_fen: record.start_fen.clone(),
            position: start.clone(),
            start,
            played: Vec::new(),
            moves: Vec::new(),
            seats: [
                Seat {
                    player: PlayerSpec::Human,
                    engine: None,
                    fault: None,
                },
                Seat {
                    player: PlayerSpec::Human,
                    engine: None,
                    fault: None,
                },
            ],
            hint_engine: None,
            result: None,
            paused: true,
            step: false,
            delay: self.delay,
            engines_stale: true,
        };
        for (index, m) in record.moves.iter().enumerate() {
            loaded
                .play_text(&m.mv)
                .map_err(|why| format!("move {} of the record: {why}", index + 1))?;
            if let Some(last) = loaded.moves.last_mut() {
                let text = last.mv.clone();
                *last = m.clone();
                last.mv = text;
            }
        }
        if loaded.result.is_none() && record.result.reason != "unfinished" {
            // A game the record says ended otherwise than by the rules
            // (resignation, time) stays ended.
            if record.result.termination != Termination::Rules {
                loaded.result = Some(record.result.clone());
            }
        }
        // The seats keep their players, with engines told the new rules.
        for (index, seat) in self.seats.iter().enumerate() {
            let side = if index == 0 { Player::P1 } else { Player::P2 };
            loaded.seats[index] = Seat {
                engine: make_engine(G::NAME, &seat.player, side, &rule_options)?,
                player: seat.player.clone(),
                fault: None,
            };
        }
        // Against an engine the game goes on at once; two engines wait for
        // resume or step.
        loaded.paused = !loaded
            .seats
            .iter()
            .any(|s| matches!(s.player, PlayerSpec::Human));
        *self = loaded;
        Ok(())
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

impl<G: Game> AnySession for Session<G> {
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
            ClientMessage::Resign => {
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
                        Some(index)
                            if !matches!(self.seats[side.index()].player, PlayerSpec::Human) =>
                        {
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
        self.step = false;
        if self.engines_stale {
            self.refresh_engines();
        }
        let side = self.position.side_to_move();
        let texts = self.texts();
        let start_fen = self.start_fen.clone();
        let board_size = self.board_size;
        let request = PositionRequest {
            start_fen: start_fen.as_deref(),
            moves: &texts,
            to_move: side,
            board_size,
        };
        let seat = &mut self.seats[side.index()];
        let Some(engine) = seat.engine.as_mut() else {
            return;
        };
        let reply = match Self::search(engine, &request, out, side) {
            Ok(reply) => reply,
            Err(fault) => {
                let why = format!("{} {}", engine.display_name, fault_text(&fault));
                seat.fault = Some(why.clone());
                engine.shutdown();
                out.send(ServerMessage::error(format!(
                    "{why}; choose another engine for {} to go on",
                    G::player_colour(side)
                )));
                out.send(self.state());
                return;
            }
        };
        match self.position.parse_legal_move(&reply.mv) {
            Ok(mv) => {
                let info = MoveRecord {
                    mv: String::new(),
                    book: false,
                    millis: reply.elapsed.as_millis() as u64,
                    score: reply.score,
                    depth: reply.depth,
                    nodes: reply.nodes,
                };
                self.make(mv, info);
            }
            _ => {
                let seat = &mut self.seats[side.index()];
                let name = seat
                    .engine
                    .as_ref()
                    .map_or_else(|| "the engine".to_owned(), |e| e.display_name.clone());
                let why = format!("{name} played the illegal move '{}'", reply.mv);
                seat.fault = Some(why.clone());
                if let Some(engine) = seat.engine.as_mut() {
                    engine.shutdown();
                }
                out.send(ServerMessage::error(format!(
                    "{why}; choose another engine for {} to go on",
                    G::player_colour(side)
                )));
            }
        }
        out.send(self.state());
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
            start_fen: self.start.to_fen(),
            moves: self
                .moves
                .iter()
                .map(|m| MoveInfo {
                    mv: m.mv.clone(),
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
