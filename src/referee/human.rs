//! A person at the terminal against an engine, or against another person,
//! or watching two engines: the board after every move, moves typed in the
//! game's notation, `undo`, `hint`, `resign`, and the engine's figures after
//! each of its moves.

use std::io::{BufRead, Write};
use std::sync::Arc;

use anstyle::{AnsiColor, Style};

use crate::core::{MoveError, Presentation};

use super::adjudication::{GameResult, Termination};
use super::cli::HumanSide;
use super::client::{ClockReport, EngineClient, EngineSpec, PositionRequest, Timeouts};
use super::record::{render, utc_date_today, GameRecord, MoveRecord, RecordFormat, RecordHeader};
use super::timecontrol::allowed_time;

const FIRST_PLAYER: Style = AnsiColor::Red.on_default().bold();
const SECOND_PLAYER: Style = AnsiColor::Cyan.on_default().bold();

/// Colours the pieces of a board picture: upper-case letters and `x` are
/// player 1's, other lower-case letters player 2's (the FEN conventions of
/// the project's games). Only rows that start with a row number change.
/// The colours reach the terminal through `anstream`, which drops them
/// for pipes, `NO_COLOR` and `TERM=dumb`.
pub fn colourise(picture: &str) -> String {
    let mut out = String::new();
    for line in picture.lines() {
        let is_row = line.trim_start().starts_with(|c: char| c.is_ascii_digit());
        if !is_row {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let mut seen_label = false;
        for c in line.chars() {
            if !seen_label {
                seen_label = !c.is_ascii_digit() && !c.is_whitespace();
                if !seen_label {
                    out.push(c);
                    continue;
                }
            }
            if c.is_ascii_uppercase() || c == 'x' {
                out.push_str(&format!("{FIRST_PLAYER}{c}{FIRST_PLAYER:#}"));
            } else if c.is_ascii_lowercase() {
                out.push_str(&format!("{SECOND_PLAYER}{c}{SECOND_PLAYER:#}"));
            } else {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

struct Seat {
    human: bool,
    engine: Option<EngineClient>,
}

fn describe(reply: &super::client::EngineReply) -> String {
    let mut parts = Vec::new();
    if let Some(score) = &reply.score {
        parts.push(format!("score {score}"));
    }
    if let Some(depth) = reply.depth {
        parts.push(format!("depth {depth}"));
    }
    if let Some(nodes) = reply.nodes {
        parts.push(format!("nodes {nodes}"));
    }
    parts.push(format!("{} ms", reply.elapsed.as_millis()));
    parts.join(", ")
}

pub struct HumanGame<'a> {
    pub game_name: &'a str,
    pub side: HumanSide,
    pub engines: &'a [Arc<EngineSpec>],
    pub rule_options: &'a [(String, String)],
    pub timeouts: Timeouts,
    pub board_size: Option<u32>,
    pub records: Option<String>,
    pub header: RecordHeader,
}

/// Plays one game at the terminal; returns the process exit code.
pub fn play<G: Presentation>(setup: &HumanGame, rules: &G::Rules) -> Result<i32, String> {
    let humans = setup.side.seats::<G>();
    let engines_needed = humans.iter().filter(|h| !**h).count();
    if setup.engines.len() < engines_needed.min(1) {
        return Err("an engine side needs an --engine".to_owned());
    }
    let mut seats: Vec<Seat> = Vec::new();
    let mut next_engine = 0;
    for (index, human) in humans.iter().enumerate() {
        // The engine of an engine-less side gives hints; sides share the
        // first engine when only one was given.
        let spec = setup
            .engines
            .get(next_engine)
            .or(setup.engines.first())
            .cloned();
        if !human {
            next_engine += 1;
        }
        let engine = spec.map(|spec| {
            let mut spec = (*spec).clone();
            if !spec.time.is_timed() && spec.time.depth.is_none() && spec.time.nodes.is_none() {
                spec.time.move_time = Some(std::time::Duration::from_secs(1));
            }
            EngineClient::new(
                Arc::new(spec),
                &format!("human-game-p{}", index + 1),
                setup.timeouts.clone(),
                None,
                setup.rule_options.to_vec(),
            )
        });
        seats.push(Seat {
            human: *human,
            engine,
        });
    }
    let mut out = anstream::stdout().lock();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();

    for seat in seats.iter_mut() {
        if let Some(engine) = seat.engine.as_mut() {
            engine
                .new_game(None, setup.board_size)
                .map_err(|f| format!("the engine could not start: {f:?}"))?;
        }
    }
    let mut position = G::start_position(rules);
    let mut played: Vec<G::Move> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    let mut record_moves: Vec<MoveRecord> = Vec::new();
    let mut legal = Vec::new();
    fn say(out: &mut impl Write, text: &str) {
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
    let result = 'game: loop {
        let picture = position.render();
        say(&mut out, colourise(&picture).trim_end());
        if let Some(outcome) = position.outcome() {
            break GameResult::by_rules(outcome);
        }
        let side = position.side_to_move();
        let seat = &mut seats[side.index()];
        let request = PositionRequest {
            start_fen: None,
            moves: &texts,
            to_move: side,
            board_size: setup.board_size,
        };
        if !seat.human {
            let Some(engine) = seat.engine.as_mut() else {
                return Err("no engine for an engine side".to_owned());
            };
            let allowed = allowed_time(&engine.spec.time, None);
            let reply = match engine.go(&request, &ClockReport::default(), allowed) {
                Ok(reply) => reply,
                Err(fault) => break GameResult::from_fault(side, &fault),
            };
            let mv = match position.parse_legal_move(&reply.mv) {
                Ok(mv) => mv,
                Err(_) => {
                    break GameResult::forfeit(
                        side,
                        Termination::IllegalMove,
                        &format!("illegal move '{}'", reply.mv),
                    )
                }
            };
            let text = position.format_move(mv);
            say(
                &mut out,
                &format!(
                    "{} plays {text} ({})",
                    engine.display_name,
                    describe(&reply)
                ),
            );
            record_moves.push(MoveRecord {
                mv: text.clone(),
                millis: reply.elapsed.as_millis() as u64,
                score: reply.score,
                depth: reply.depth,
                nodes: reply.nodes,
                ..MoveRecord::default()
            });
            position.make_move(mv);
            played.push(mv);
            texts.push(text);
            continue;
        }
        loop {
            let _ = write!(out, "{} to move> ", position.player_description(side));
            let _ = out.flush();
            let mut line = String::new();
            match input.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    say(&mut out, "");
                    break 'game GameResult::forfeit(
                        side,
                        Termination::Resignation,
                        "left the game",
                    );
                }
                Ok(_) => {}
            }
            let line = line.trim();
            match line {
                "" => continue,
                "help" | "?" => say(
                    &mut out,
                    "moves in the game's notation; undo, hint, resign, moves, quit",
                ),
                "resign" | "quit" => {
                    break 'game GameResult::forfeit(side, Termination::Resignation, "resigned")
                }
                "moves" => {
                    position.generate_moves(&mut legal);
                    let mut names: Vec<String> =
                        legal.iter().map(|m| position.format_move(*m)).collect();
                    names.sort();
                    say(&mut out, &names.join(" "));
                }
                "undo" => {
                    // Back to this side's previous turn: one ply against a
                    // person, two against an engine.
                    let plies = if humans[side.other().index()] { 1 } else { 2 };
                    if played.len() < plies {
                        say(&mut out, "nothing to undo");
                        continue;
                    }
                    for _ in 0..plies {
                        if let Some(mv) = played.pop() {
                            position.unmake_move(mv);
                            texts.pop();
                            record_moves.pop();
                        }
                    }
                    continue 'game;
                }
                "hint" => {
                    let helper = seats.iter_mut().filter_map(|s| s.engine.as_mut()).next();
                    match helper {
                        Some(engine) => {
                            let allowed = allowed_time(&engine.spec.time, None);
                            match engine.go(&request, &ClockReport::default(), allowed) {
                                Ok(reply) => say(
                                    &mut out,
                                    &format!("hint: {} ({})", reply.mv, describe(&reply)),
                                ),
                                Err(fault) => say(&mut out, &format!("no hint: {fault:?}")),
                            }
                        }
                        None => say(&mut out, "no engine to ask for a hint"),
                    }
                }
                text => match position.parse_legal_move(text) {
                    Ok(mv) => {
                        let canonical = position.format_move(mv);
                        record_moves.push(MoveRecord {
                            mv: canonical.clone(),
                            ..MoveRecord::default()
                        });
                        position.make_move(mv);
                        played.push(mv);
                        texts.push(canonical);
                        continue 'game;
                    }
                    Err(MoveError::Unreadable(why)) => {
                        say(&mut out, &format!("illegal move '{text}': {why}"))
                    }
                    Err(_) => say(
                        &mut out,
                        &format!("illegal move '{text}': not legal here (try 'moves')"),
                    ),
                },
            }
        }
    };
    say(
        &mut out,
        &format!("result {}: {}", result.score_text(), result.reason),
    );
    let names: Vec<String> = seats
        .iter()
        .map(|s| match (&s.engine, s.human) {
            (_, true) => "human".to_owned(),
            (Some(engine), false) => engine.display_name.clone(),
            (None, false) => "engine".to_owned(),
        })
        .collect();
    for seat in seats.iter_mut() {
        if let Some(engine) = seat.engine.as_mut() {
            engine.shutdown();
        }
    }
    if let Some(path) = &setup.records {
        let record = GameRecord {
            game: setup.game_name.to_owned(),
            event: setup.header.event.clone(),
            site: setup.header.site.clone(),
            date: utc_date_today(),
            round: 1,
            players: [names[0].clone(), names[1].clone()],
            rules: setup.header.rules.clone(),
            start_fen: None,
            opening: "startpos".to_owned(),
            board_size: setup.board_size,
            moves: record_moves,
            result,
            notes: Vec::new(),
            swap2: None,
        };
        std::fs::write(
            path,
            render(&record, RecordFormat::for_path(path, &record.game)),
        )
        .map_err(|e| format!("cannot write '{path}': {e}"))?;
        say(&mut out, &format!("saved to {path}"));
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_pieces_on_board_rows_are_coloured() {
        let picture = "2 P . p\n  a b c\n";
        let coloured = colourise(picture);
        assert!(coloured.contains("\x1b[1m\x1b[31mP\x1b[0m"), "{coloured:?}");
        assert!(coloured.contains("\x1b[1m\x1b[36mp\x1b[0m"), "{coloured:?}");
        let plain = anstream::adapter::strip_str(&coloured).to_string();
        assert_eq!(plain, picture);
        assert!(coloured.ends_with("  a b c\n"));
        assert!(coloured.starts_with("2 "));
    }
}
