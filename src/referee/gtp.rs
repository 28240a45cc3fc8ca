//! GTP, as Hex programs (MoHex, Wolve, HexGui's engines) speak it: `=`/`?`
//! replies closed by a blank line, moves told with `play` and asked for
//! with `genmove`. Our `swap` is GTP's `swap-pieces`.

use std::time::{Duration, Instant};

use crate::core::Player;

use super::client::{ClockReport, EngineClient, EngineReply, Fault, PositionRequest};

/// Sends a command and reads its reply: `Ok(Ok(text))` for `=`,
/// `Ok(Err(text))` for `?`.
fn command(
    client: &mut EngineClient,
    line: &str,
    deadline: Instant,
) -> Result<(Result<String, String>, Instant), Fault> {
    client.send(line)?;
    let mut answer: Option<(bool, String, Instant)> = None;
    let process = client.process()?;
    loop {
        let line = process
            .receive(deadline)
            .map_err(|e| Fault::from_process(e, &format!("a reply to '{line}'")))?;
        let text = line.text.trim();
        match &mut answer {
            None => {
                if let Some(rest) = text.strip_prefix('=') {
                    answer = Some((true, strip_id(rest), line.at));
                } else if let Some(rest) = text.strip_prefix('?') {
                    answer = Some((false, strip_id(rest), line.at));
                }
            }
            Some((ok, body, at)) => {
                if text.is_empty() {
                    let body = std::mem::take(body);
                    return Ok((if *ok { Ok(body) } else { Err(body) }, *at));
                }
                body.push('\n');
                body.push_str(text);
            }
        }
    }
}

/// `=12 f6` -> `f6`: a reply may echo a numeric command id.
fn strip_id(rest: &str) -> String {
    rest.trim_start_matches(|c: char| c.is_ascii_digit())
        .trim()
        .to_owned()
}

fn colour(player: Player) -> &'static str {
    match player {
        Player::P1 => "b",
        Player::P2 => "w",
    }
}

pub fn to_gtp_move(mv: &str) -> String {
    if mv == "swap" {
        "swap-pieces".to_owned()
    } else {
        mv.to_owned()
    }
}

pub fn from_gtp_move(mv: &str) -> String {
    let mv = mv.trim().to_ascii_lowercase();
    if mv == "swap-pieces" || mv == "swap" {
        "swap".to_owned()
    } else {
        mv
    }
}

pub fn handshake(client: &mut EngineClient) -> Result<(), Fault> {
    let deadline = Instant::now() + client.timeouts.handshake;
    let (name, _) = command(client, "name", deadline)?;
    if client.spec.name.is_none() {
        if let Ok(name) = name {
            if !name.is_empty() {
                client.display_name = name;
            }
        }
    }
    Ok(())
}

pub fn new_game(client: &mut EngineClient, board_size: Option<u32>) -> Result<(), Fault> {
    let size = board_size.unwrap_or(11);
    let deadline = Instant::now() + client.timeouts.ready;
    if command(client, &format!("boardsize {size} {size}"), deadline)?
        .0
        .is_err()
    {
        if let Err(why) = command(client, &format!("boardsize {size}"), deadline)?.0 {
            return Err(Fault::Protocol(format!("boardsize {size} refused: {why}")));
        }
    }
    let _ = command(client, "clear_board", deadline)?;
    if let Some(st) = client.spec.time.move_time {
        let _ = command(
            client,
            &format!("time_settings 0 {} 1", st.as_secs_f64()),
            deadline,
        )?;
    } else if let Some(clock) = client.spec.time.clock.clone() {
        let _ = command(
            client,
            &format!("time_settings {} 0 0", clock.base.as_secs_f64()),
            deadline,
        )?;
    }
    Ok(())
}

pub fn go(
    client: &mut EngineClient,
    position: &PositionRequest,
    clocks: &ClockReport,
    allowed: Option<Duration>,
) -> Result<EngineReply, Fault> {
    if position.start_fen.is_some() {
        return Err(Fault::Protocol(
            "GTP engines can only start from the empty board".to_owned(),
        ));
    }
    let ready_deadline = Instant::now() + client.timeouts.ready;
    let total = position.moves.len();
    for index in client.session.moves_known..total {
        // Moves alternate strictly, so parity from the end gives the mover.
        let mover = if (total - index).is_multiple_of(2) {
            position.to_move
        } else {
            position.to_move.other()
        };
        let line = format!(
            "play {} {}",
            colour(mover),
            to_gtp_move(&position.moves[index])
        );
        if let Err(why) = command(client, &line, ready_deadline)?.0 {
            return Err(Fault::Protocol(format!("'{line}' refused: {why}")));
        }
    }
    client.session.moves_known = total;
    if let Some(left) = clocks.time_left[position.to_move.index()] {
        let line = format!(
            "time_left {} {} 0",
            colour(position.to_move),
            left.as_secs()
        );
        let _ = command(client, &line, ready_deadline)?;
    }
    // GTP has no isready: an untimed genmove gets a generous fixed wait.
    let wait = allowed.unwrap_or(client.timeouts.ready * 60);
    let sent = Instant::now();
    let (answer, at) = match command(
        client,
        &format!("genmove {}", colour(position.to_move)),
        sent + wait,
    ) {
        Err(Fault::Stalled(_)) if allowed.is_some() => {
            return Err(super::ugi::timed_out(client, wait))
        }
        other => other?,
    };
    let mv = answer.map_err(|why| Fault::Protocol(format!("genmove failed: {why}")))?;
    if mv.eq_ignore_ascii_case("resign") {
        return Err(Fault::Resigned);
    }
    client.session.moves_known = total + 1;
    Ok(EngineReply {
        mv: from_gtp_move(&mv),
        elapsed: at.saturating_duration_since(sent),
        ..EngineReply::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_is_swap_pieces_and_ids_are_dropped() {
        assert_eq!(to_gtp_move("swap"), "swap-pieces");
        assert_eq!(from_gtp_move("Swap-Pieces"), "swap");
        assert_eq!(from_gtp_move("F6"), "f6");
        assert_eq!(strip_id("12 f6"), "f6");
        assert_eq!(strip_id(" e5"), "e5");
    }
}
