//! Engines at work for a session: keeping them told the game, a search
//! with its thinking forwarded to the page, the engine's move (or its
//! fault) and hints.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::core::{Player, Presentation};
use crate::referee::client::{
    ClockReport, EngineClient, EngineReply, Fault, InfoListener, PositionRequest, Proto,
};
use crate::referee::record::MoveRecord;
use crate::referee::timecontrol::allowed_time;

use super::super::engines;
use super::super::messages::{parse_info, parse_pbrain_chatter, Level, ServerMessage};
use super::outbox::Search;
use super::seat::fault_text;
use super::{AnySession, Outbox, Session};

impl<G: Presentation> Session<G> {
    /// Tells every started engine the game anew (after undo or load).
    pub(super) fn refresh_engines(&mut self) {
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

    /// Asks `engine` for a move, forwarding what it thinks to the page;
    /// the figures a Gomocup brain gives only in its messages fill the
    /// reply's.
    fn search(
        engine: &mut EngineClient,
        request: &PositionRequest,
        out: &Outbox,
        side: Player,
    ) -> Result<EngineReply, Fault> {
        let last_said = Arc::new(Mutex::new(None));
        engine.info_listener = Some(thinking_forwarder(
            engine.proto(),
            out.clone(),
            side,
            last_said.clone(),
        ));
        // Only UGI and UCI have a `stop` for "move now".
        let stoppable = matches!(engine.proto(), Proto::Ugi | Proto::Uci);
        let search = engine.process().ok().map(|process| Search {
            pid: process.pid(),
            input: stoppable.then(|| process.input_handle()).flatten(),
        });
        let pid = search.as_ref().map(|s| s.pid);
        if let Some(search) = search {
            out.searching().push(search);
        }
        let allowed = allowed_time(&engine.spec.time, None);
        let reply = engine.go(request, &ClockReport::default(), allowed);
        if let Some(pid) = pid {
            // Dropping the input handle here lets the engine see its input
            // end when it is shut down.
            out.searching().retain(|s| s.pid != pid);
        }
        engine.info_listener = None;
        let said = last_said.lock().map(|mut m| m.take()).unwrap_or_default();
        reply.map(|mut reply| {
            if let Some(ServerMessage::Thinking {
                depth,
                score,
                nodes,
                ..
            }) = said
            {
                reply.score = reply
                    .score
                    .or_else(|| score.and_then(|text| text.parse().ok()));
                reply.depth = reply.depth.or(depth);
                reply.nodes = reply.nodes.or(nodes);
            }
            reply
        })
    }

    pub(super) fn hint(&mut self, out: &Outbox) -> Result<(), String> {
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

    /// Lets the engine to move play (or fail), and tells the page.
    pub(super) fn play_engine_move(&mut self, out: &Outbox) {
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
            Err(error) => {
                let seat = &mut self.seats[side.index()];
                let name = seat
                    .engine
                    .as_ref()
                    .map_or_else(|| "the engine".to_owned(), |e| e.display_name.clone());
                let why = format!(
                    "{name} played the illegal move '{}' ({})",
                    reply.mv,
                    error.reason()
                );
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
}

/// Passes an engine's thinking on to the page: UGI and UCI `info` lines, a
/// Gomocup brain's MESSAGE and DEBUG lines. At most one message every
/// 50 ms unless it carries a new principal variation: a fast engine's
/// lines must not flood the page. The last message is kept in `last_said`.
fn thinking_forwarder(
    proto: Proto,
    out: Outbox,
    side: Player,
    last_said: Arc<Mutex<Option<ServerMessage>>>,
) -> InfoListener {
    let mut last_sent: Option<Instant> = None;
    Box::new(move |line: &str| {
        let message = match proto {
            Proto::Pbrain => parse_pbrain_chatter(line, side),
            _ => parse_info(line, side),
        };
        let Some(message) = message else {
            return;
        };
        if let Ok(mut kept) = last_said.lock() {
            *kept = Some(message.clone());
        }
        let due = last_sent.is_none_or(|at| at.elapsed() >= Duration::from_millis(50));
        if due || line.contains(" pv ") {
            last_sent = Some(Instant::now());
            out.send(message);
        }
    })
}
