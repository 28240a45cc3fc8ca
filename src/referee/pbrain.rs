//! The Gomocup (pbrain) dialect of Piskvork and its successors: `START N`,
//! `BEGIN`, `TURN x,y`, `BOARD`..`DONE`, answers `x,y` with 0-based column
//! and row.

use std::time::{Duration, Instant};

use super::client::{ClockReport, EngineClient, EngineReply, Fault, PositionRequest};
use super::coords::{cell_name, parse_cell};

pub fn to_pbrain(mv: &str) -> Option<String> {
    parse_cell(mv).map(|(x, y)| format!("{x},{y}"))
}

pub fn from_pbrain(text: &str) -> Option<String> {
    let (x, y) = text.trim().split_once(',')?;
    cell_name(x.trim().parse().ok()?, y.trim().parse().ok()?)
}

pub fn handshake(client: &mut EngineClient) -> Result<(), Fault> {
    client.send("ABOUT")?;
    let deadline = Instant::now() + client.timeouts.handshake;
    let about = client.wait_for(deadline, "an ABOUT reply", |line| {
        (!line.starts_with("MESSAGE") && !line.starts_with("DEBUG")).then(|| line.to_owned())
    })?;
    if client.spec.name.is_none() {
        if let Some(name) = about
            .split("name=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
        {
            client.display_name = name.to_owned();
        }
    }
    Ok(())
}

pub fn new_game(
    client: &mut EngineClient,
    start_fen: Option<&str>,
    board_size: Option<u32>,
) -> Result<(), Fault> {
    if start_fen.is_some() {
        return Err(Fault::Protocol(
            "pbrain engines need openings given as moves, not a FEN".to_owned(),
        ));
    }
    let size = board_size.unwrap_or(15);
    client.send(&format!("START {size}"))?;
    let deadline = Instant::now() + client.timeouts.handshake;
    let answer = client.wait_for(deadline, "an answer to START", |line| {
        (line == "OK" || line.starts_with("ERROR")).then(|| line.to_owned())
    })?;
    if answer != "OK" {
        return Err(Fault::Protocol(format!("START {size}: {answer}")));
    }
    let limits = client.spec.time.clone();
    if let Some(st) = limits.move_time {
        client.send(&format!("INFO timeout_turn {}", st.as_millis()))?;
    }
    match &limits.clock {
        Some(clock) => client.send(&format!("INFO timeout_match {}", clock.base.as_millis()))?,
        None => client.send("INFO timeout_match 0")?,
    };
    // Gomocup's rule bits: 1 exactly five, 4 renju; the last setting counts.
    let rule = client
        .rule_options
        .iter()
        .rev()
        .find(|(k, _)| k.eq_ignore_ascii_case("rule"))
        .map(|(_, v)| v.to_ascii_lowercase());
    let bits = match rule.as_deref() {
        Some("standard") => 1,
        Some("renju") => 4,
        _ => 0,
    };
    client.send(&format!("INFO rule {bits}"))?;
    Ok(())
}

pub fn go(
    client: &mut EngineClient,
    position: &PositionRequest,
    clocks: &ClockReport,
    allowed: Option<Duration>,
) -> Result<EngineReply, Fault> {
    if let Some(left) = clocks.time_left[position.to_move.index()] {
        client.send(&format!("INFO time_left {}", left.as_millis()))?;
    }
    let total = position.moves.len();
    let incremental = client.session.started_game && client.session.moves_known + 1 == total;
    let sent = if total == 0 {
        client.send("BEGIN")?
    } else if incremental {
        let turn = to_pbrain(&position.moves[total - 1]).ok_or_else(|| {
            Fault::Protocol(format!("'{}' is no cell", position.moves[total - 1]))
        })?;
        client.send(&format!("TURN {turn}"))?
    } else {
        client.send("BOARD")?;
        for (index, mv) in position.moves.iter().enumerate() {
            let cell =
                to_pbrain(mv).ok_or_else(|| Fault::Protocol(format!("'{mv}' is no cell")))?;
            // 1 = the engine's own stone, 2 = its opponent's.
            let own = (total - index).is_multiple_of(2);
            client.send(&format!("{cell},{}", if own { 1 } else { 2 }))?;
        }
        client.send("DONE")?
    };
    client.session.started_game = true;
    let wait = allowed.unwrap_or(client.timeouts.ready * 60);
    let process = client.process()?;
    loop {
        let line = match process.receive(sent + wait) {
            Ok(line) => line,
            Err(super::process::ProcessError::Timeout) if allowed.is_some() => {
                return Err(super::ugi::timed_out(client, wait))
            }
            Err(e) => return Err(Fault::from_process(e, "a move")),
        };
        let text = line.text.trim();
        if text.starts_with("MESSAGE") || text.starts_with("DEBUG") || text.starts_with("SUGGEST") {
            continue;
        }
        if text.starts_with("ERROR") || text.starts_with("UNKNOWN") {
            return Err(Fault::Protocol(text.to_owned()));
        }
        let mv = from_pbrain(text).unwrap_or_else(|| text.to_owned());
        client.session.moves_known = total + 1;
        return Ok(EngineReply {
            mv,
            elapsed: line.at.saturating_duration_since(sent),
            ..EngineReply::default()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_translate_to_zero_based_pairs() {
        assert_eq!(to_pbrain("h8").as_deref(), Some("7,7"));
        assert_eq!(from_pbrain(" 0,14").as_deref(), Some("a15"));
        assert_eq!(from_pbrain("7;7"), None);
        assert_eq!(to_pbrain("swap"), None);
    }
}
