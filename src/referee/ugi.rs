//! The UGI/UCI dialect (protocol/PROTOCOL.md): what our engines speak.

use std::time::{Duration, Instant};

use crate::core::Player;

use super::client::{
    ClockReport, DeclaredOption, EngineClient, EngineReply, Fault, PositionRequest, Proto,
};

fn hello(client: &EngineClient) -> (&'static str, &'static str) {
    match client.proto() {
        Proto::Uci => ("uci", "uciok"),
        _ => ("ugi", "ugiok"),
    }
}

pub fn handshake(client: &mut EngineClient) -> Result<(), Fault> {
    let (hello, _) = hello(client);
    client.send(hello)?;
    let deadline = Instant::now() + client.timeouts.handshake;
    let mut engine_name = None;
    let mut declared = Vec::new();
    client.wait_for(deadline, "uciok/ugiok", |line| {
        if let Some(name) = line.strip_prefix("id name ") {
            engine_name = Some(name.trim().to_owned());
        }
        declared.extend(DeclaredOption::parse(line));
        (line == "uciok" || line == "ugiok").then_some(())
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
        client.send(&format!("setoption name {name} value {value}"))?;
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
                client.send(&format!("setoption name {name} value true"))?;
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
pub fn is_ready(client: &mut EngineClient) -> Result<(), Fault> {
    client.send("isready")?;
    let deadline = Instant::now() + client.timeouts.ready;
    client.wait_for(deadline, "readyok", |line| {
        (line == "readyok").then_some(())
    })
}

pub fn new_game(client: &mut EngineClient) -> Result<(), Fault> {
    let line = match client.proto() {
        Proto::Uci => "ucinewgame",
        _ => "uginewgame",
    };
    client.send(line)?;
    is_ready(client)
}

pub fn position_line(position: &PositionRequest) -> String {
    let mut line = match position.start_fen {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_owned(),
    };
    if !position.moves.is_empty() {
        line.push_str(" moves");
        for mv in position.moves {
            line.push(' ');
            line.push_str(mv);
        }
    }
    line
}

pub fn go_line(client: &EngineClient, clocks: &ClockReport) -> String {
    let limits = &client.spec.time;
    let mut line = String::from("go");
    if let Some(depth) = limits.depth {
        line.push_str(&format!(" depth {depth}"));
    }
    if let Some(nodes) = limits.nodes {
        line.push_str(&format!(" nodes {nodes}"));
    }
    if let Some(st) = limits.move_time {
        line.push_str(&format!(" movetime {}", st.as_millis()));
    }
    let names = match client.proto() {
        Proto::Uci => ["wtime", "btime", "winc", "binc"],
        _ => ["p1time", "p2time", "p1inc", "p2inc"],
    };
    if clocks.time_left.iter().any(Option::is_some) {
        for side in [Player::P1, Player::P2] {
            if let Some(left) = clocks.time_left[side.index()] {
                line.push_str(&format!(" {} {}", names[side.index()], left.as_millis()));
            }
        }
        for side in [Player::P1, Player::P2] {
            let inc = clocks.increment[side.index()];
            if !inc.is_zero() {
                line.push_str(&format!(" {} {}", names[2 + side.index()], inc.as_millis()));
            }
        }
        if let Some(moves) = clocks.moves_to_go {
            line.push_str(&format!(" movestogo {moves}"));
        }
    }
    line
}

/// Picks depth, nodes and score out of an `info` line.
pub fn read_info(line: &str, reply: &mut EngineReply) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.get(1) == Some(&"string") {
        if line.contains("error") {
            reply.complaints.push(line.to_owned());
        }
        return;
    }
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => reply.depth = words.get(i + 1).and_then(|w| w.parse().ok()),
            "nodes" => reply.nodes = words.get(i + 1).and_then(|w| w.parse().ok()),
            "score" => {
                if let (Some(kind), Some(value)) = (words.get(i + 1), words.get(i + 2)) {
                    reply.score = Some(format!("{kind} {value}"));
                    i += 1;
                }
            }
            "pv" => break,
            _ => {}
        }
        i += 1;
    }
}

pub fn go(
    client: &mut EngineClient,
    position: &PositionRequest,
    clocks: &ClockReport,
    allowed: Option<Duration>,
) -> Result<EngineReply, Fault> {
    client.send(&position_line(position))?;
    let go = go_line(client, clocks);
    let sent = client.send(&go)?;
    await_bestmove(client, sent, allowed)
}

/// `go ponder` with the limits a move would get, in the position after the
/// engine's move and the reply it expects.
pub fn start_ponder(
    client: &mut EngineClient,
    position: &PositionRequest,
    clocks: &ClockReport,
) -> Result<(), Fault> {
    client.send(&position_line(position))?;
    let go = go_line(client, clocks);
    let rest = go.strip_prefix("go").unwrap_or_default();
    client.send(&format!("go ponder{rest}"))?;
    Ok(())
}

/// The opponent played the expected reply: the ponder search becomes the
/// move, timed from the `ponderhit` (the thinking before it was on the
/// opponent's time).
pub fn ponderhit(
    client: &mut EngineClient,
    allowed: Option<Duration>,
) -> Result<EngineReply, Fault> {
    let sent = client.send("ponderhit")?;
    let mut reply = await_bestmove(client, sent, allowed)?;
    reply.ponderhit = true;
    Ok(reply)
}

/// `stop` for a ponder search that missed (or a game that ended); its
/// `bestmove` is read and thrown away. No `bestmove` within the ready
/// timeout is a stall.
pub fn stop_ponder(client: &mut EngineClient) -> Result<(), Fault> {
    client.send("stop")?;
    let ready = client.timeouts.ready;
    let deadline = Instant::now() + ready;
    client
        .wait_for(deadline, "bestmove", |line| {
            line.starts_with("bestmove").then_some(())
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
                if let Some(rest) = text.strip_prefix("bestmove") {
                    let mut words = rest.split_whitespace();
                    let Some(mv) = words.next() else {
                        return Err(Fault::Protocol("bestmove without a move".to_owned()));
                    };
                    if words.next() == Some("ponder") {
                        reply.ponder = words.next().map(str::to_owned);
                    }
                    // A ponder search that answered before `ponderhit`
                    // (UCI forbids it) is charged close to nothing: the
                    // thinking was on the opponent's time, as pondering is.
                    reply.mv = mv.to_owned();
                    reply.elapsed = line.at.saturating_duration_since(sent);
                    return Ok(reply);
                } else if text.starts_with("info") {
                    read_info(text, &mut reply);
                    if let Some(listener) = client.info_listener.as_mut() {
                        listener(text);
                    }
                } else if text == "readyok" {
                    ping_deadline = None;
                    next_ping = Instant::now() + ping_interval;
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
                    client.send("isready")?;
                    ping_deadline = Some(Instant::now() + ready_timeout);
                }
            },
            Err(e) => return Err(Fault::from_process(e, "bestmove")),
        }
    }
}

/// After a loss on time: `stop`, then the late `bestmove` and a `readyok`
/// must arrive within the ready timeout for the engine to be trusted again.
pub fn resync(client: &mut EngineClient) -> bool {
    if client.send("stop").is_err() || client.send("isready").is_err() {
        return false;
    }
    let deadline = Instant::now() + client.timeouts.ready;
    // Either order is fine: readyok may overtake the late bestmove.
    let (mut saw_bestmove, mut saw_ready) = (false, false);
    client
        .wait_for(deadline, "bestmove and readyok after stop", |line| {
            saw_bestmove |= line.starts_with("bestmove");
            saw_ready |= line == "readyok";
            (saw_bestmove && saw_ready).then_some(())
        })
        .is_ok()
}

/// A move that did not come in time: a crash if the engine is gone.
pub fn timed_out(client: &mut EngineClient, limit: Duration) -> Fault {
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

pub fn query_result(client: &mut EngineClient, position: &PositionRequest) -> Option<String> {
    client.send(&position_line(position)).ok()?;
    client.send("query result").ok()?;
    let deadline = Instant::now() + client.timeouts.ready;
    client
        .wait_for(deadline, "response", |line| {
            line.strip_prefix("response ").map(|r| r.trim().to_owned())
        })
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_score_depth_and_nodes() {
        let mut reply = EngineReply::default();
        read_info(
            "info depth 7 seldepth 9 score cp -35 nodes 12345 nps 1 pv a2a3 depth",
            &mut reply,
        );
        assert_eq!(reply.depth, Some(7));
        assert_eq!(reply.nodes, Some(12345));
        assert_eq!(reply.score.as_deref(), Some("cp -35"));
        read_info("info string error: illegal move 'zz'", &mut reply);
        assert_eq!(reply.complaints.len(), 1);
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
        assert_eq!(position_line(&request), "position startpos moves a2a3 h7h6");
        let request = PositionRequest {
            start_fen: Some("8/8 w 0 1"),
            moves: &[],
            to_move: Player::P1,
            board_size: None,
        };
        assert_eq!(position_line(&request), "position fen 8/8 w 0 1");
    }
}
