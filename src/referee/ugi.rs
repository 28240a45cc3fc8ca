//! The UGI/UCI dialect (protocol/PROTOCOL.md): what our engines speak.

use std::time::{Duration, Instant};

use super::client::{ClockReport, EngineClient, EngineReply, Fault, PositionRequest, Proto};
use super::protocol::EngineProtocol;
use crate::wire::ugi::{parse_engine_line, Command, EngineLine, GoParams, Info};

/// UGI and UCI engines: ours, and any UCI program.
pub struct UgiClient;

impl EngineProtocol for UgiClient {
    fn handshake(&self, client: &mut EngineClient) -> Result<(), Fault> {
        handshake(client)
    }

    fn new_game(
        &self,
        client: &mut EngineClient,
        _start_fen: Option<&str>,
        _board_size: Option<u32>,
    ) -> Result<(), Fault> {
        new_game(client)
    }

    /// A ponder search on the position asked for becomes the move; one on
    /// another position is stopped first.
    fn go(
        &self,
        client: &mut EngineClient,
        position: &PositionRequest,
        clocks: &ClockReport,
        allowed: Option<Duration>,
    ) -> Result<EngineReply, Fault> {
        match client.pondering.take() {
            Some(moves) if moves.as_slice() == position.moves => ponderhit(client, allowed),
            Some(_) => stop_ponder(client).and_then(|_| go(client, position, clocks, allowed)),
            None => go(client, position, clocks, allowed),
        }
    }

    fn can_ponder(&self) -> bool {
        true
    }

    fn start_ponder(
        &self,
        client: &mut EngineClient,
        position: &PositionRequest,
        clocks: &ClockReport,
    ) -> Result<(), Fault> {
        start_ponder(client, position, clocks)
    }

    fn stop_ponder(&self, client: &mut EngineClient) -> Result<(), Fault> {
        stop_ponder(client)
    }

    fn resync(&self, client: &mut EngineClient) -> bool {
        resync(client)
    }

    /// Only UGI has `query` (UCI has no such command).
    fn query_result(
        &self,
        client: &mut EngineClient,
        position: &PositionRequest,
    ) -> Option<String> {
        speaks_ugi(client)
            .then(|| query_result(client, position))
            .flatten()
    }
}

/// Whether the engine is spoken to in UGI (`ugi`, `p1time`) or UCI.
fn speaks_ugi(client: &EngineClient) -> bool {
    client.proto() != Proto::Uci
}

/// Sends a command in its one wire form.
fn send(client: &mut EngineClient, command: Command) -> Result<Instant, Fault> {
    client.send(&command.to_string())
}

fn handshake(client: &mut EngineClient) -> Result<(), Fault> {
    send(
        client,
        Command::Hello {
            ugi: speaks_ugi(client),
        },
    )?;
    let deadline = Instant::now() + client.timeouts.handshake;
    let mut engine_name = None;
    let mut declared = Vec::new();
    client.wait_for(deadline, "uciok/ugiok", |line| {
        match parse_engine_line(line)? {
            EngineLine::IdName(name) => engine_name = Some(name),
            EngineLine::Option(option) => declared.push(option),
            EngineLine::HelloOk { .. } => return Some(()),
            _ => {}
        }
        None
    })?;
    client.declared_options = declared;
    if client.spec.name.is_none() {
        if let Some(name) = engine_name {
            client.display_name = name;
        }
    }
    let options: Vec<(String, String)> = client
        .rule_options
        .iter()
        .chain(client.spec.options.iter())
        .cloned()
        .collect();
    for (name, value) in options {
        send(client, Command::SetOption { name, value })?;
    }
    client.ponders = false;
    if client.spec.ponder {
        let declared = client
            .declared_options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case("ponder"))
            .map(|o| o.name.clone());
        match declared {
            Some(name) => {
                let value = "true".to_owned();
                send(client, Command::SetOption { name, value })?;
                client.ponders = true;
            }
            None => {
                let engine = client.display_name.clone();
                client.spec.ponder_unsupported.call_once(|| {
                    log::warn!("{engine} declares no Ponder option: it plays without pondering")
                });
            }
        }
    }
    is_ready(client)
}

/// `isready` answered by `readyok` within the ready timeout, or a stall.
fn is_ready(client: &mut EngineClient) -> Result<(), Fault> {
    send(client, Command::IsReady)?;
    let deadline = Instant::now() + client.timeouts.ready;
    client.wait_for(deadline, "readyok", |line| {
        (parse_engine_line(line)? == EngineLine::ReadyOk).then_some(())
    })
}

fn new_game(client: &mut EngineClient) -> Result<(), Fault> {
    send(
        client,
        Command::NewGame {
            ugi: speaks_ugi(client),
        },
    )?;
    is_ready(client)
}

fn position_command(position: &PositionRequest) -> Command {
    Command::Position {
        fen: position.start_fen.map(str::to_owned),
        moves: position.moves.to_vec(),
    }
}

/// The spec's limits and both clocks, named as the engine's dialect names
/// them.
fn go_params(client: &EngineClient, clocks: &ClockReport) -> GoParams {
    let limits = &client.spec.time;
    let mut params = GoParams {
        depth: limits.depth,
        nodes: limits.nodes,
        movetime: limits.move_time.map(|st| st.as_millis() as u64),
        ..GoParams::default()
    };
    if clocks.time_left.iter().any(Option::is_some) {
        let ms = |time: Duration| time.as_millis() as u64;
        let [p1time, p2time] = clocks.time_left.map(|left| left.map(ms));
        let [p1inc, p2inc] = clocks
            .increment
            .map(|inc| (!inc.is_zero()).then(|| ms(inc)));
        if speaks_ugi(client) {
            (params.p1time, params.p2time) = (p1time, p2time);
            (params.p1inc, params.p2inc) = (p1inc, p2inc);
        } else {
            (params.wtime, params.btime) = (p1time, p2time);
            (params.winc, params.binc) = (p1inc, p2inc);
        }
        params.movestogo = clocks.moves_to_go;
    }
    params
}

/// Keeps depth, nodes and score from an `info` line, and error strings as
/// complaints.
fn read_info(line: &str, info: &Info, reply: &mut EngineReply) {
    if let Some(text) = &info.string {
        if text.contains("error") {
            reply.complaints.push(line.to_owned());
        }
        return;
    }
    reply.depth = info.depth.or(reply.depth);
    reply.nodes = info.nodes.or(reply.nodes);
    if let Some(score) = info.score {
        reply.score = Some(score);
    }
}

fn go(
    client: &mut EngineClient,
    position: &PositionRequest,
    clocks: &ClockReport,
    allowed: Option<Duration>,
) -> Result<EngineReply, Fault> {
    send(client, position_command(position))?;
    let sent = send(client, Command::Go(go_params(client, clocks)))?;
    await_bestmove(client, sent, allowed)
}

/// `go ponder` with the limits a move would get, in the position after the
/// engine's move and the reply it expects.
fn start_ponder(
    client: &mut EngineClient,
    position: &PositionRequest,
    clocks: &ClockReport,
) -> Result<(), Fault> {
    send(client, position_command(position))?;
    let params = GoParams {
        ponder: true,
        ..go_params(client, clocks)
    };
    send(client, Command::Go(params))?;
    Ok(())
}

/// The opponent played the expected reply: the ponder search becomes the
/// move, timed from the `ponderhit` (the thinking before it was on the
/// opponent's time).
fn ponderhit(client: &mut EngineClient, allowed: Option<Duration>) -> Result<EngineReply, Fault> {
    let sent = send(client, Command::PonderHit)?;
    let mut reply = await_bestmove(client, sent, allowed)?;
    reply.ponderhit = true;
    Ok(reply)
}

/// `stop` for a ponder search that missed (or a game that ended); its
/// `bestmove` is read and thrown away. No `bestmove` within the ready
/// timeout is a stall.
fn stop_ponder(client: &mut EngineClient) -> Result<(), Fault> {
    send(client, Command::Stop)?;
    let ready = client.timeouts.ready;
    let deadline = Instant::now() + ready;
    client
        .wait_for(deadline, "bestmove", |line| match parse_engine_line(line) {
            Some(EngineLine::BestMove { .. }) => Some(()),
            _ => None,
        })
        .map_err(|fault| match fault {
            Fault::Stalled(_) => Fault::Stalled(format!(
                "no bestmove within {} ms of stopping a ponder search",
                ready.as_millis()
            )),
            other => other,
        })
}

/// Reads `info` lines until `bestmove`; `sent` is when the engine's time
/// started. Without a time limit (`allowed` is `None`) the engine is asked
/// `isready` every ping interval and must answer within the ready timeout.
fn await_bestmove(
    client: &mut EngineClient,
    sent: Instant,
    allowed: Option<Duration>,
) -> Result<EngineReply, Fault> {
    let ping_interval = client.timeouts.ping_interval;
    let ready_timeout = client.timeouts.ready;
    let mut reply = EngineReply::default();
    let mut next_ping = sent + ping_interval;
    let mut ping_deadline: Option<Instant> = None;
    loop {
        let deadline = match (allowed, ping_deadline) {
            (Some(limit), _) => sent + limit,
            (None, Some(answer_by)) => answer_by,
            (None, None) => next_ping,
        };
        match client.process()?.receive(deadline) {
            Ok(line) => {
                let text = line.text.trim();
                match parse_engine_line(text) {
                    Some(EngineLine::BestMove { mv, ponder }) => {
                        // A ponder search that answered before `ponderhit`
                        // (UCI forbids it) is charged close to nothing: the
                        // thinking was on the opponent's time, as pondering is.
                        reply.mv = mv;
                        reply.ponder = ponder;
                        reply.elapsed = line.at.saturating_duration_since(sent);
                        return Ok(reply);
                    }
                    Some(EngineLine::Info(info)) => {
                        read_info(text, &info, &mut reply);
                        if let Some(listener) = client.info_listener.as_mut() {
                            listener(text);
                        }
                    }
                    Some(EngineLine::ReadyOk) => {
                        ping_deadline = None;
                        next_ping = Instant::now() + ping_interval;
                    }
                    _ if text.split_whitespace().next() == Some("bestmove") => {
                        return Err(Fault::Protocol(format!(
                            "'{text}' is not 'bestmove X [ponder Y]'"
                        )));
                    }
                    _ => {}
                }
            }
            Err(super::process::ProcessError::Timeout) => match (allowed, ping_deadline) {
                (Some(limit), _) => return Err(timed_out(client, limit)),
                (None, Some(_)) => {
                    return Err(Fault::Stalled(format!(
                        "no readyok within {} ms during a search",
                        ready_timeout.as_millis()
                    )))
                }
                (None, None) => {
                    send(client, Command::IsReady)?;
                    ping_deadline = Some(Instant::now() + ready_timeout);
                }
            },
            Err(e) => return Err(Fault::from_process(e, "bestmove")),
        }
    }
}

/// After a loss on time: `stop`, then the late `bestmove` and a `readyok`
/// must arrive within the ready timeout for the engine to be trusted again.
fn resync(client: &mut EngineClient) -> bool {
    if send(client, Command::Stop).is_err() || send(client, Command::IsReady).is_err() {
        return false;
    }
    let deadline = Instant::now() + client.timeouts.ready;
    // Either order is fine: readyok may overtake the late bestmove.
    let (mut saw_bestmove, mut saw_ready) = (false, false);
    client
        .wait_for(deadline, "bestmove and readyok after stop", |line| {
            match parse_engine_line(line) {
                Some(EngineLine::BestMove { .. }) => saw_bestmove = true,
                Some(EngineLine::ReadyOk) => saw_ready = true,
                _ => {}
            }
            (saw_bestmove && saw_ready).then_some(())
        })
        .is_ok()
}

/// A move that did not come in time: a crash if the engine is gone.
pub(super) fn timed_out(client: &mut EngineClient, limit: Duration) -> Fault {
    let alive = client.process().map(|p| p.is_alive()).unwrap_or(false);
    if alive {
        Fault::TimedOut(limit)
    } else {
        Fault::Crashed(format!(
            "exited without a move (no bestmove within {} ms)",
            limit.as_millis()
        ))
    }
}

fn query_result(client: &mut EngineClient, position: &PositionRequest) -> Option<String> {
    send(client, position_command(position)).ok()?;
    send(client, Command::Query("result".to_owned())).ok()?;
    let deadline = Instant::now() + client.timeouts.ready;
    client
        .wait_for(deadline, "response", |line| match parse_engine_line(line) {
            Some(EngineLine::Response(answer)) => Some(answer),
            _ => None,
        })
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Player;
    use crate::wire::score::Score;

    #[test]
    fn info_lines_give_score_depth_and_nodes() {
        let mut reply = EngineReply::default();
        let line = "info depth 7 seldepth 9 score cp -35 nodes 12345 nps 1 pv a2a3 depth";
        let Some(EngineLine::Info(info)) = parse_engine_line(line) else {
            panic!("an info line");
        };
        read_info(line, &info, &mut reply);
        assert_eq!(reply.depth, Some(7));
        assert_eq!(reply.nodes, Some(12345));
        assert_eq!(reply.score, Some(Score::Centipawns(-35)));
        let line = "info string error: illegal move 'zz'";
        read_info(line, &Info::text("error: illegal move 'zz'"), &mut reply);
        assert_eq!(reply.complaints, [line]);
    }

    #[test]
    fn positions_are_sent_as_startpos_or_fen_with_moves() {
        let moves = vec!["a2a3".to_owned(), "h7h6".to_owned()];
        let request = PositionRequest {
            start_fen: None,
            moves: &moves,
            to_move: Player::P1,
            board_size: None,
        };
        assert_eq!(
            position_command(&request).to_string(),
            "position startpos moves a2a3 h7h6"
        );
        let request = PositionRequest {
            start_fen: Some("8/8 w 0 1"),
            moves: &[],
            to_move: Player::P1,
            board_size: None,
        };
        assert_eq!(
            position_command(&request).to_string(),
            "position fen 8/8 w 0 1"
        );
    }
}
