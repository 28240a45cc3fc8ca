//! One game between two engines, refereed move by move with the project's
//! own rules code.

use std::time::Duration;

use crate::core::{Game, MoveError, Player};

use super::adjudication::{GameResult, Termination};
use super::client::{ClockReport, EngineClient, PositionRequest, Swap2Answer};
use super::openings::Opening;
use super::record::{utc_date_today, GameRecord, MoveRecord, RecordHeader};
use super::swap2;
use super::timecontrol::{allowed_time, Clock, TimeControl};

/// Settings shared by every game of a match.
#[derive(Clone, Debug, Default)]
pub struct GameSettings {
    /// Plies after which the game is drawn (`--maxmoves`), counting the
    /// opening.
    pub max_plies: Option<usize>,
    pub board_size: Option<u32>,
    /// Event, site and rules for the records.
    pub header: RecordHeader,
    /// Open each game with Swap2 (`--opening-rule swap2`): player 1 as
    /// scheduled proposes, and the colours are the engines' choice.
    pub swap2: bool,
}

/// What the referee spent per move outside the engines' own time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overhead {
    pub moves: u64,
    /// Wall time of the game minus the engines' reported thinking time.
    pub referee_time: Duration,
    pub engine_time: Duration,
}

/// Ponder searches an engine started, and how many of them the opponent's
/// move hit (the rest were stopped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PonderCount {
    pub searches: u64,
    pub hits: u64,
}

impl PonderCount {
    pub fn add(&mut self, other: PonderCount) {
        self.searches += other.searches;
        self.hits += other.hits;
    }
}

/// Both clocks as `side`'s `go` reports them.
fn clock_report(
    clocks: &[Option<Clock>; 2],
    increments: [Duration; 2],
    side: Player,
    control: &TimeControl,
) -> ClockReport {
    ClockReport {
        time_left: [
            clocks[0].as_ref().map(|c| c.remaining),
            clocks[1].as_ref().map(|c| c.remaining),
        ],
        increment: increments,
        moves_to_go: match (&clocks[side.index()], &control.clock) {
            (Some(clock), Some(spec)) => clock.moves_to_go(spec),
            _ => None,
        },
    }
}

/// The reply `side` predicted (`bestmove X ponder Y`), in the referee's
/// notation, if pondering on it makes sense: `position` is after X, the
/// opponent is to move, Y is legal, and after Y the game goes on with
/// `side` to move. `plies` counts the moves so far, X included.
fn ponder_reply<G: Game>(
    position: &G,
    side: Player,
    predicted: &str,
    plies: usize,
    max_plies: Option<usize>,
) -> Option<String> {
    if position.outcome().is_some()
        || position.side_to_move() == side
        || max_plies.is_some_and(|max| plies + 1 >= max)
    {
        return None;
    }
    let mv = match position.parse_legal_move(predicted) {
        Ok(mv) => mv,
        Err(_) => {
            log::debug!("predicted reply '{predicted}' is not legal: no pondering");
            return None;
        }
    };
    let text = position.format_move(mv);
    let mut after = position.clone();
    after.make_move(mv);
    (after.outcome().is_none() && after.side_to_move() == side).then_some(text)
}

/// Charges `elapsed` to `side`'s clock; the forfeit if it overran the move
/// time or the clock.
fn charge_time(
    control: &TimeControl,
    clock: Option<&mut Clock>,
    side: Player,
    elapsed: Duration,
) -> Option<GameResult> {
    if let Some(st) = control.move_time {
        if elapsed > st + control.margin {
            let why = format!("took {} ms of {} ms", elapsed.as_millis(), st.as_millis());
            return Some(GameResult::forfeit(side, Termination::TimeForfeit, &why));
        }
    }
    if let (Some(clock), Some(spec)) = (clock, control.clock.as_ref()) {
        let before = clock.remaining;
        if !clock.charge(spec, elapsed, control.margin) {
            let why = format!(
                "took {} ms with {} ms on the clock",
                elapsed.as_millis(),
                before.as_millis()
            );
            return Some(GameResult::forfeit(side, Termination::TimeForfeit, &why));
        }
    }
    None
}

/// The Swap2 exchange with the seated engines (player 1 proposes), each
/// answer charged to the asked engine's clock. Its stones are played on
/// `position` and added to `moves` and the record, with the exchange;
/// returns whether the seats turn (the proposer plays White), or `None`
/// when an engine failed and the record is finished.
fn open_with_swap2<G: Game>(
    rules: &G::Rules,
    engines: &mut [&mut EngineClient; 2],
    clocks: &mut [Option<Clock>; 2],
    record: &mut GameRecord,
    (position, moves): (&mut G, &mut Vec<String>),
) -> Option<bool> {
    let names = [
        engines[0].display_name.clone(),
        engines[1].display_name.clone(),
    ];
    let mut ask = |index: usize, stones: &[String]| -> Result<Swap2Answer, GameResult> {
        let side = if index == 0 { Player::P1 } else { Player::P2 };
        let engine = &mut *engines[index];
        let control = engine.spec.time.clone();
        let clock = &mut clocks[index];
        let allowed = allowed_time(&control, clock.as_ref());
        let time_left = clock.as_ref().map(|c| c.remaining);
        let answer = engine
            .swap2(stones, time_left, allowed)
            .map_err(|fault| GameResult::from_fault(side, &fault))?;
        match charge_time(&control, clock.as_mut(), side, answer.elapsed) {
            Some(forfeit) => Err(forfeit),
            None => Ok(answer),
        }
    };
    let outcome = swap2::run::<G>(rules, &names, &mut ask);
    let millis = swap2::stone_millis(&outcome.record);
    for (text, millis) in outcome.record.stones.iter().zip(millis) {
        // The exchange played each stone under the same rules already.
        let Ok(mv) = position.parse_legal_move(text) else {
            record.result = GameResult {
                winner: None,
                termination: Termination::ProtocolError,
                reason: format!("referee cannot play Swap2 stone '{text}'"),
            };
            return None;
        };
        position.make_move(mv);
        moves.push(text.clone());
        record.moves.push(MoveRecord {
            mv: text.clone(),
            millis,
            ..MoveRecord::default()
        });
    }
    record.opening = "swap2".to_owned();
    let turned = outcome.record.proposer_white;
    record.swap2 = Some(outcome.record);
    match outcome.result {
        Some(result) => {
            record.result = result;
            None
        }
        None => Some(turned),
    }
}

/// Plays one game; `engines[0]` is player 1. Never fails: whatever goes
/// wrong is adjudicated into the record. `ponder` is by player.
pub fn play_game<G: Game>(
    rules: &G::Rules,
    opening: &Opening,
    round: usize,
    engines: [&mut EngineClient; 2],
    settings: &GameSettings,
    overhead: &mut Overhead,
    ponder: &mut [PonderCount; 2],
) -> GameRecord {
    let [first, second] = engines;
    let mut engines = [first, second];
    let mut record = GameRecord {
        game: G::NAME.to_owned(),
        event: settings.header.event.clone(),
        site: settings.header.site.clone(),
        date: utc_date_today(),
        round,
        players: [
            engines[0].display_name.clone(),
            engines[1].display_name.clone(),
        ],
        rules: settings.header.rules.clone(),
        start_fen: opening.fen.clone(),
        opening: opening.label.clone(),
        board_size: settings.board_size,
        moves: Vec::new(),
        result: GameResult::max_moves(0),
        notes: Vec::new(),
        swap2: None,
    };
    let mut position = match &opening.fen {
        Some(fen) => match G::from_fen(fen, rules) {
            Ok(position) => position,
            Err(e) => {
                record.result = GameResult {
                    winner: None,
                    termination: Termination::ProtocolError,
                    reason: format!("referee cannot read the opening FEN: {e}"),
                };
                return record;
            }
        },
        None => G::start_position(rules),
    };
    let mut moves: Vec<String> = Vec::new();
    for text in &opening.moves {
        // Openings were validated when loaded, so this only re-plays them.
        match position.parse_legal_move(text) {
            Ok(mv) => position.make_move(mv),
            Err(_) => {
                record.result = GameResult {
                    winner: None,
                    termination: Termination::ProtocolError,
                    reason: format!("referee cannot play opening move '{text}'"),
                };
                return record;
            }
        }
        moves.push(text.clone());
        record.moves.push(MoveRecord {
            mv: text.clone(),
            book: true,
            ..MoveRecord::default()
        });
    }

    // Engines learn the game; one that cannot start loses it.
    for (index, engine) in engines.iter_mut().enumerate() {
        if let Err(fault) = engine.new_game(opening.fen.as_deref(), settings.board_size) {
            let side = if index == 0 { Player::P1 } else { Player::P2 };
            record.result = GameResult::from_fault(side, &fault);
            record.players[index] = engine.display_name.clone();
            return record;
        }
        record.players[index] = engine.display_name.clone();
    }

    let mut clocks = [
        Clock::new(&engines[0].spec.time),
        Clock::new(&engines[1].spec.time),
    ];
    let increment_of = |engine: &EngineClient| {
        engine
            .spec
            .time
            .clock
            .as_ref()
            .map_or(Duration::ZERO, |c| c.increment)
    };
    let mut increments = [increment_of(engines[0]), increment_of(engines[1])];
    if settings.swap2 {
        let game = (&mut position, &mut moves);
        let Some(turned) = open_with_swap2(rules, &mut engines, &mut clocks, &mut record, game)
        else {
            return record;
        };
        if turned {
            // The seats turn with the colours: player 1 is Black.
            engines.swap(0, 1);
            clocks.swap(0, 1);
            increments.swap(0, 1);
            record.players.swap(0, 1);
        }
    }
    let result = loop {
        let iteration_started = std::time::Instant::now();
        if let Some(outcome) = position.outcome() {
            break GameResult::by_rules(outcome);
        }
        if settings.max_plies.is_some_and(|max| moves.len() >= max) {
            break GameResult::max_moves(moves.len());
        }
        let side = position.side_to_move();
        let engine = &mut *engines[side.index()];
        let control = engine.spec.time.clone();
        let report = clock_report(&clocks, increments, side, &control);
        let allowed = allowed_time(&control, clocks[side.index()].as_ref());
        let request = PositionRequest {
            start_fen: opening.fen.as_deref(),
            moves: &moves,
            to_move: side,
            board_size: settings.board_size,
        };
        let reply = match engine.go(&request, &report, allowed) {
            Ok(reply) => reply,
            Err(fault) => break GameResult::from_fault(side, &fault),
        };
        if reply.ponderhit {
            ponder[side.index()].hits += 1;
        }

        let clock = clocks[side.index()].as_mut();
        if let Some(forfeit) = charge_time(&control, clock, side, reply.elapsed) {
            break forfeit;
        }
        let mv = match position.parse_legal_move(&reply.mv) {
            Ok(mv) => mv,
            Err(e) => {
                let why = match e {
                    MoveError::Unreadable(e) => format!("illegal move '{}' ({e})", reply.mv),
                    _ => format!("illegal move '{}'", reply.mv),
                };
                break GameResult::forfeit(side, Termination::IllegalMove, &why);
            }
        };
        let text = position.format_move(mv);
        position.make_move(mv);
        moves.push(text.clone());
        record.moves.push(MoveRecord {
            mv: text,
            book: false,
            millis: reply.elapsed.as_millis() as u64,
            score: reply.score,
            depth: reply.depth,
            nodes: reply.nodes,
        });
        if let Some(predicted) = reply.ponder.as_deref().filter(|_| engine.ponders) {
            let expected =
                ponder_reply(&position, side, predicted, moves.len(), settings.max_plies);
            if let Some(expected) = expected {
                let mut line = moves.clone();
                line.push(expected);
                let request = PositionRequest {
                    start_fen: opening.fen.as_deref(),
                    moves: &line,
                    to_move: side,
                    board_size: settings.board_size,
                };
                // The opponent's clock is as it stands before its move:
                // what it will use is not known yet.
                let report = clock_report(&clocks, increments, side, &control);
                if engine.start_ponder(&request, &report) {
                    ponder[side.index()].searches += 1;
                }
            }
        }
        overhead.moves += 1;
        overhead.engine_time += reply.elapsed;
        overhead.referee_time += iteration_started.elapsed().saturating_sub(reply.elapsed);
    };

    // A ponder search that the game's end left running is of no use.
    for engine in engines.iter_mut() {
        engine.cancel_ponder();
    }

    if result.termination == Termination::Rules {
        // Our engines must agree with the referee on how the game ended.
        let request = PositionRequest {
            start_fen: opening.fen.as_deref(),
            moves: &moves,
            to_move: position.side_to_move(),
            board_size: settings.board_size,
        };
        for engine in engines.iter_mut() {
            match engine.query_result(&request) {
                Some(answer) if answer != result.query_text() => record.notes.push(format!(
                    "{} answered 'query result' with '{answer}', the referee says '{}'",
                    engine.display_name,
                    result.query_text()
                )),
                _ => {}
            }
        }
    }
    record.result = result;
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::Breakthrough;

    fn after(moves: &[&str]) -> Breakthrough {
        let mut position = Breakthrough::start_position(&Default::default());
        for text in moves {
            let mv = position.parse_move(text).unwrap();
            position.make_move(mv);
        }
        position
    }

    #[test]
    fn only_a_legal_reply_that_leaves_the_game_going_is_pondered_on() {
        let position = after(&["a2a3"]);
        let reply = |predicted, max| ponder_reply(&position, Player::P1, predicted, 1, max);
        assert_eq!(reply("h7h6", None).as_deref(), Some("h7h6"));
        assert_eq!(reply("h7h6", Some(3)).as_deref(), Some("h7h6"));
        assert_eq!(reply("h7h6", Some(2)), None, "the reply would end the game");
        assert_eq!(reply("h7h5", None), None, "illegal");
        assert_eq!(reply("zz", None), None, "unreadable");
        // Not the opponent's turn: the prediction is not a reply.
        assert_eq!(ponder_reply(&position, Player::P2, "h7h6", 1, None), None);
    }
}
