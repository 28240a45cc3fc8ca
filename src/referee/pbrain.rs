//! The Gomocup (pbrain) dialect of Piskvork and its successors: `START N`,
//! `BEGIN`, `TURN x,y`, `BOARD`..`DONE`, answers `x,y` with 0-based column
//! and row.

use std::time::{Duration, Instant};

use super::client::{ClockReport, EngineClient, EngineReply, Fault, PositionRequest, Swap2Answer};
use super::protocol::EngineProtocol;
use crate::core::cell::{cell_name, parse_cell_name};
use crate::wire::pbrain::{
    parse_reply, BoardLine, PbrainCommand, PbrainReply, Point, Stone, Swap2Line,
};

/// Gomocup brains: Gomoku only, openings given as moves.
pub struct PbrainClient;

impl EngineProtocol for PbrainClient {
    fn handshake(&self, client: &mut EngineClient) -> Result<(), Fault> {
        send(client, PbrainCommand::About)?;
        let deadline = Instant::now() + client.timeouts.handshake;
        let about = client.wait_for(deadline, "an ABOUT reply", |line| {
            let reply = parse_reply(line);
            (!is_chatter(&reply)).then_some(reply)
        })?;
        if client.spec.name.is_none() {
            if let Some(name) = about.as_ref().and_then(PbrainReply::about_name) {
                client.display_name = name.to_owned();
            }
        }
        Ok(())
    }

    fn new_game(
        &self,
        client: &mut EngineClient,
        start_fen: Option<&str>,
        board_size: Option<u32>,
    ) -> Result<(), Fault> {
        if start_fen.is_some() {
            return Err(Fault::Protocol(
                "pbrain engines need openings given as moves, not a FEN".to_owned(),
            ));
        }
        let size = board_size.unwrap_or(15) as usize;
        start(client, size)?;
        let info = |key: &str, value: String| PbrainCommand::Info {
            key: key.to_owned(),
            value,
        };
        let limits = client.spec.time.clone();
        if let Some(st) = limits.move_time {
            send(client, info("timeout_turn", st.as_millis().to_string()))?;
        }
        let match_ms = limits.clock.map_or(0, |clock| clock.base.as_millis());
        send(client, info("timeout_match", match_ms.to_string()))?;
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
        send(client, info("rule", bits.to_string()))?;
        Ok(())
    }

    fn go(
        &self,
        client: &mut EngineClient,
        position: &PositionRequest,
        clocks: &ClockReport,
        allowed: Option<Duration>,
    ) -> Result<EngineReply, Fault> {
        if let Some(left) = clocks.time_left[position.to_move.index()] {
            let command = PbrainCommand::Info {
                key: "time_left".to_owned(),
                value: left.as_millis().to_string(),
            };
            send(client, command)?;
        }
        let total = position.moves.len();
        let incremental = client.session.started_game && client.session.moves_known + 1 == total;
        let point = |mv: &String| {
            to_pbrain(mv).ok_or_else(|| Fault::Protocol(format!("'{mv}' is no cell")))
        };
        let mut turn_sent = None;
        let mut sent = if total == 0 {
            send(client, PbrainCommand::Begin)?
        } else if incremental {
            let turn = point(&position.moves[total - 1])?;
            turn_sent = Some(turn);
            send(client, PbrainCommand::Turn(turn))?
        } else {
            send(client, PbrainCommand::Board)?;
            for (index, mv) in position.moves.iter().enumerate() {
                let own = (total - index).is_multiple_of(2);
                let stone = if own { Stone::Own } else { Stone::Opponent };
                client.send(&BoardLine::Stone(point(mv)?, stone).to_string())?;
            }
            client.send(&BoardLine::Done.to_string())?
        };
        client.session.started_game = true;
        let wait = allowed.unwrap_or(client.timeouts.ready * 60);
        let mut resent = 0;
        loop {
            let (line, reply) = next_answer(client, sent, wait, allowed.is_some(), "a move")?;
            let text = line.text.trim();
            // Anything but a point is passed on as it is: the rules refuse it.
            let mv = match reply {
                Some(PbrainReply::Error(ref why) | PbrainReply::Unknown(ref why)) => {
                    match turn_sent.filter(|&turn| dropped_turn(why, turn)) {
                        Some(turn) if resent < MAX_RESENDS => {
                            resent += 1;
                            log::warn!(
                                "{} lost the word TURN of 'TURN {turn}' ('{text}'): sent again",
                                client.display_name
                            );
                            std::thread::sleep(RESEND_PAUSE);
                            sent = send(client, PbrainCommand::Turn(turn))?;
                            continue;
                        }
                        _ => return Err(Fault::Protocol(text.to_owned())),
                    }
                }
                Some(PbrainReply::Move(point)) => from_pbrain(point),
                _ => None,
            };
            let mv = mv.unwrap_or_else(|| text.to_owned());
            client.session.moves_known = total + 1;
            return Ok(EngineReply {
                mv,
                elapsed: line.at.saturating_duration_since(sent),
                ..EngineReply::default()
            });
        }
    }

    fn can_swap2(&self) -> bool {
        true
    }

    /// `SWAP2BOARD`, the stones as `x,y` lines, `DONE`; the answer is
    /// `SWAP` or points on one line. The engine hears the whole board by
    /// `BOARD` at its next move, as Gomocup's managers send it.
    fn swap2(
        &self,
        client: &mut EngineClient,
        stones: &[String],
        time_left: Option<Duration>,
        allowed: Option<Duration>,
    ) -> Result<Swap2Answer, Fault> {
        if let Some(left) = time_left {
            let value = left.as_millis().to_string();
            let key = "time_left".to_owned();
            send(client, PbrainCommand::Info { key, value })?;
        }
        send(client, PbrainCommand::Swap2Board)?;
        // Each stone with its owner, as in `BOARD`, seen from the brain
        // asked: after three stones it is the tentative White, after five
        // the opener, the tentative Black. Rapfi refuses stones without an
        // owner; a brain that follows the protocol page reads past it.
        let asked_is_black = stones.len() == 5;
        for (index, stone) in stones.iter().enumerate() {
            let point =
                to_pbrain(stone).ok_or_else(|| Fault::Protocol(format!("'{stone}' is no cell")))?;
            let black = index % 2 == 0;
            let owner = if black == asked_is_black {
                Stone::Own
            } else {
                Stone::Opponent
            };
            client.send(&Swap2Line::Stone(point, Some(owner)).to_string())?;
        }
        let sent = client.send(&Swap2Line::Done.to_string())?;
        client.session.started_game = false;
        let wait = allowed.unwrap_or(client.timeouts.ready * 60);
        let (line, reply) = next_answer(client, sent, wait, allowed.is_some(), "a Swap2 answer")?;
        let text = line.text.trim();
        let elapsed = line.at.saturating_duration_since(sent);
        let cells = |points: &[Point]| -> Vec<String> {
            let cell = |p: &Point| from_pbrain(*p).unwrap_or_else(|| p.to_string());
            points.iter().map(cell).collect()
        };
        let stones = match reply {
            Some(PbrainReply::Swap) => None,
            Some(PbrainReply::Move(point)) => Some(cells(&[point])),
            Some(PbrainReply::Moves(points)) => Some(cells(&points)),
            _ => {
                return Err(Fault::Protocol(format!(
                    "'{text}' is no Swap2 answer (SWAP or x,y points)"
                )))
            }
        };
        Ok(Swap2Answer { stones, elapsed })
    }

    fn quit_line(&self) -> &'static str {
        "END"
    }

    fn keeps_its_board(&self) -> bool {
        true
    }
}

/// `START size`, sent again when the brain lost its word as it loses a
/// `TURN` (a new game begins the moment the last one ends, while a brain
/// may still be finishing the move that ended it).
fn start(client: &mut EngineClient, size: usize) -> Result<(), Fault> {
    let argument = size.to_string();
    let mut resent = 0;
    loop {
        send(client, PbrainCommand::Start(size))?;
        let deadline = Instant::now() + client.timeouts.handshake;
        let answer = client.wait_for(deadline, "an answer to START", |line| {
            match parse_reply(line) {
                Some(PbrainReply::Ok) => Some(None),
                Some(PbrainReply::Error(why)) => Some(Some(why)),
                Some(PbrainReply::Unknown(why)) if lost_command_word(&why, &argument) => {
                    Some(Some(why))
                }
                _ => None,
            }
        })?;
        let Some(why) = answer else {
            return Ok(());
        };
        if resent == MAX_RESENDS || !lost_command_word(&why, &argument) {
            return Err(Fault::Protocol(format!("START {size}: {why}")));
        }
        resent += 1;
        log::warn!(
            "{} lost the word START of 'START {size}' ('{why}'): sent again",
            client.display_name
        );
        std::thread::sleep(RESEND_PAUSE);
    }
}

/// The brain's next line that is not chatter, with its reading, waiting at
/// most `wait` from `sent`; a timeout is the brain's only when the move was
/// `timed`. The board shows the brain's MESSAGE and DEBUG lines as its
/// thinking.
fn next_answer(
    client: &mut EngineClient,
    sent: Instant,
    wait: Duration,
    timed: bool,
    what: &str,
) -> Result<(super::process::Line, Option<PbrainReply>), Fault> {
    loop {
        let line = match client.process()?.receive(sent + wait) {
            Ok(line) => line,
            Err(super::process::ProcessError::Timeout) if timed => {
                return Err(super::ugi::timed_out(client, wait))
            }
            Err(e) => return Err(Fault::from_process(e, what)),
        };
        let reply = parse_reply(line.text.trim());
        if !is_chatter(&reply) {
            return Ok((line, reply));
        }
        if let Some(listener) = client.info_listener.as_mut() {
            listener(line.text.trim());
        }
    }
}

/// Our cell (`h8`) as a Gomocup point (`7,7`).
fn to_pbrain(mv: &str) -> Option<Point> {
    parse_cell_name(mv).map(|(x, y)| Point { x, y })
}

/// A Gomocup point as our cell.
fn from_pbrain(point: Point) -> Option<String> {
    cell_name(point.x, point.y)
}

fn send(client: &mut EngineClient, command: PbrainCommand) -> Result<Instant, Fault> {
    client.send(&command.to_string())
}

/// How often one move's `TURN`, or a game's `START`, is sent again after
/// a brain lost its word.
const MAX_RESENDS: u32 = 3;
/// Time for a brain that is finishing its own move to come back to its
/// input loop before the `TURN` it lost is sent again.
const RESEND_PAUSE: Duration = Duration::from_millis(5);

/// Whether an error answer says the brain read our `TURN x,y` as the
/// command `x,y`: a brain that takes a command while still finishing its
/// own move (Rapfi, which reads the command word, drops it while its
/// search winds down, and then reads the point as the next command)
/// answers `ERROR Unknown command: x,y`. Gomocup managers meet it rarely,
/// since a person or a slower brain leaves time between the moves; the
/// referee's engines may answer within a millisecond. The move is not
/// played, so sending the `TURN` again is what the brain needed, and no
/// fault of the game.
fn dropped_turn(why: &str, turn: Point) -> bool {
    lost_command_word(why, &turn.to_string())
}

/// Whether an error answer ends with `argument` alone: the brain read the
/// argument of our command as a command of its own.
fn lost_command_word(why: &str, argument: &str) -> bool {
    why.trim_end()
        .strip_suffix(argument)
        .is_some_and(|before| before.ends_with([' ', ':']) || before.is_empty())
}

/// Chatter a brain may print at any time, skipped.
fn is_chatter(reply: &Option<PbrainReply>) -> bool {
    matches!(
        reply,
        Some(PbrainReply::Message(_) | PbrainReply::Debug(_) | PbrainReply::Suggest(_))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_turn_word_is_told_from_other_errors() {
        let turn = Point { x: 7, y: 9 };
        assert!(dropped_turn("Unknown command: 7,9", turn));
        assert!(dropped_turn("unknown command 7,9", turn));
        assert!(dropped_turn("7,9", turn));
        assert!(!dropped_turn("Unknown command: 17,9", turn));
        assert!(!dropped_turn("Unknown command: 7,9 extra", turn));
        assert!(!dropped_turn("cell 7,8 is occupied", turn));
        assert!(!dropped_turn("", turn));
    }

    #[test]
    fn a_lost_start_word_is_told_from_other_errors() {
        assert!(lost_command_word("Unknown command: 15", "15"));
        assert!(!lost_command_word("Unknown command: 115", "15"));
        assert!(!lost_command_word("unsupported size 15 x", "15"));
        assert!(!lost_command_word("unsupported size", "15"));
    }

    #[test]
    fn cells_translate_to_zero_based_pairs() {
        assert_eq!(to_pbrain("h8"), Some(Point { x: 7, y: 7 }));
        assert_eq!(from_pbrain(Point { x: 0, y: 14 }).as_deref(), Some("a15"));
        assert_eq!(to_pbrain("swap"), None);
    }
}
