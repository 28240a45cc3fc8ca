//! GTP, as Hex programs (MoHex, Wolve, HexGui's engines) speak it: `=`/`?`
//! replies closed by a blank line, moves told with `play` and asked for
//! with `genmove`. Our `swap` is GTP's `swap-pieces`; after it the engine's
//! board is the colour mirror of ours (see `games::hex::colour_mirror`), so
//! every later colour is exchanged and every cell reflected.

use std::time::{Duration, Instant};

use super::client::{ClockReport, EngineClient, EngineReply, Fault, PositionRequest};
use super::protocol::EngineProtocol;
use crate::core::Player;
use crate::wire::gtp::{
    colour_mirrored_cell, colour_name, from_gtp_move, to_gtp_move, GtpCommand, GtpResponse,
};

/// GTP engines (MoHex, Wolve, ...): Hex only, from the empty board.
pub struct GtpClient;

impl EngineProtocol for GtpClient {
    fn handshake(&self, client: &mut EngineClient) -> Result<(), Fault> {
        let deadline = Instant::now() + client.timeouts.handshake;
        let (name, _) = command(client, "name", &[], deadline)?;
        if client.spec.name.is_none() {
            if let Ok(name) = name {
                if !name.is_empty() {
                    client.display_name = name;
                }
            }
        }
        Ok(())
    }

    fn new_game(
        &self,
        client: &mut EngineClient,
        _start_fen: Option<&str>,
        board_size: Option<u32>,
    ) -> Result<(), Fault> {
        let deadline = Instant::now() + client.timeouts.ready;
        // A game without a board-size rule leaves the engine its own board.
        if let Some(size) = board_size.map(|size| size.to_string()) {
            if command(client, "boardsize", &[&size, &size], deadline)?
                .0
                .is_err()
            {
                if let Err(why) = command(client, "boardsize", &[&size], deadline)?.0 {
                    return Err(Fault::Protocol(format!("boardsize {size} refused: {why}")));
                }
            }
        }
        let _ = command(client, "clear_board", &[], deadline)?;
        // GTP has no word for the pie rule; benzene's `param_game allow_swap`
        // is what Hex engines (ours, MoHex, Wolve) take. An engine without
        // it answers an error and keeps its own setting.
        if let Some(swap) = pie_rule(&client.rule_options) {
            let _ = command(client, "param_game", &["allow_swap", swap], deadline)?;
        }
        let seconds = |time: Duration| time.as_secs_f64().to_string();
        if let Some(st) = client.spec.time.move_time {
            let _ = command(client, "time_settings", &["0", &seconds(st), "1"], deadline)?;
        } else if let Some(clock) = client.spec.time.clock.clone() {
            let base = seconds(clock.base);
            let _ = command(client, "time_settings", &[&base, "0", "0"], deadline)?;
        }
        Ok(())
    }

    fn go(
        &self,
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
        let swapped = position.moves.get(1).is_some_and(|mv| mv == "swap");
        let mirror = SwapFrame(swapped);
        for index in client.session.moves_known..total {
            // Moves alternate strictly, so parity from the end gives the mover.
            let mover = if (total - index).is_multiple_of(2) {
                position.to_move
            } else {
                position.to_move.other()
            };
            let frame = SwapFrame(swapped && index > 1);
            let mv = frame.cell(&to_gtp_move(&position.moves[index]));
            let args = [colour_name(frame.colour(mover)), mv.as_str()];
            if let Err(why) = command(client, "play", &args, ready_deadline)?.0 {
                let line = GtpCommand::new("play", &args);
                return Err(Fault::Protocol(format!("'{line}' refused: {why}")));
            }
        }
        client.session.moves_known = total;
        if let Some(left) = clocks.time_left[position.to_move.index()] {
            let args = [
                colour_name(mirror.colour(position.to_move)),
                &left.as_secs().to_string(),
                "0",
            ];
            let _ = command(client, "time_left", &args, ready_deadline)?;
        }
        // GTP has no isready: an untimed genmove gets a generous fixed wait.
        let wait = allowed.unwrap_or(client.timeouts.ready * 60);
        let sent = Instant::now();
        let (answer, at) = match command(
            client,
            "genmove",
            &[colour_name(mirror.colour(position.to_move))],
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
            mv: mirror.cell(&from_gtp_move(&mv)),
            elapsed: at.saturating_duration_since(sent),
            ..EngineReply::default()
        })
    }

    fn keeps_its_board(&self) -> bool {
        true
    }
}

/// Whether the engine's board is the colour mirror of ours: after a swap.
#[derive(Clone, Copy)]
struct SwapFrame(bool);

impl SwapFrame {
    /// The engine's colour for our player, or back.
    fn colour(self, player: Player) -> Player {
        if self.0 {
            player.other()
        } else {
            player
        }
    }

    /// The engine's cell for ours, or back (the mirror is its own inverse).
    fn cell(self, mv: &str) -> String {
        if self.0 {
            colour_mirrored_cell(mv)
        } else {
            mv.to_owned()
        }
    }
}

/// The pie rule as `param_game allow_swap` spells it, when the match gives
/// the `Swap` rule (the last setting counts).
fn pie_rule(rule_options: &[(String, String)]) -> Option<&'static str> {
    let (_, value) = rule_options
        .iter()
        .rev()
        .find(|(name, _)| name.eq_ignore_ascii_case("swap"))?;
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Some("1"),
        _ => Some("0"),
    }
}

/// Sends a command and reads its response: `Ok(Ok(text))` for `=`,
/// `Ok(Err(text))` for `?`, with the time its first line came.
fn command(
    client: &mut EngineClient,
    name: &str,
    args: &[&str],
    deadline: Instant,
) -> Result<(Result<String, String>, Instant), Fault> {
    let line = GtpCommand::new(name, args).to_string();
    client.send(&line)?;
    // The response's lines, from its `=` or `?` to the blank line.
    let mut lines: Vec<String> = Vec::new();
    let mut opened_at = None;
    let process = client.process()?;
    loop {
        let received = process
            .receive(deadline)
            .map_err(|e| Fault::from_process(e, &format!("a reply to '{line}'")))?;
        let text = received.text.trim();
        match opened_at {
            None if GtpResponse::opens(text) => {
                opened_at = Some(received.at);
                lines.push(text.to_owned());
            }
            None => {}
            Some(at) if text.is_empty() => {
                let response = GtpResponse::parse(&lines.join("\n"))
                    .ok_or_else(|| Fault::Protocol(format!("'{}' is no response", lines[0])))?;
                return Ok((response.result, at));
            }
            Some(_) => lines.push(text.to_owned()),
        }
    }
}
