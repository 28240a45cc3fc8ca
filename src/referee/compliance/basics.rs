//! The compliance checks every engine must pass (PROTOCOL.md): the
//! handshake, options, searches and their time limits, `isready` and `stop`
//! during a search, a finished game, bad input and `quit`.

use std::time::{Duration, Instant};

use super::positions::{expected_result, is_legal, position_command, random_game};
use super::session::Session;
use super::{Declared, Report};
use crate::core::Game;
use crate::wire::ugi::{Command, EngineLine};

/// `uci`/`ugi`: id name, options, then the ok word that was asked for. The
/// options declared decide which analysis checks run.
pub(super) fn handshake(session: &mut Session, ugi: bool) -> Result<Declared, String> {
    let hello = Command::Hello { ugi }.to_string();
    let ok = EngineLine::HelloOk { ugi }.to_string();
    session.send(&hello)?;
    let lines = session.collect_until(Duration::from_secs(10), |l| l == "uciok" || l == "ugiok")?;
    let texts: Vec<&str> = lines.iter().map(|l| l.text.trim()).collect();
    if texts.last() != Some(&ok.as_str()) {
        return Err(format!(
            "answered '{hello}' with {:?}, not {ok}",
            texts.last()
        ));
    }
    if !texts.iter().any(|l| l.starts_with("id name ")) {
        return Err("no 'id name' line".to_owned());
    }
    Ok(Declared::from_handshake(&texts))
}

/// The rule options, `isready` and a new game, each answered as it should.
pub(super) fn setup(
    session: &mut Session,
    report: &mut Report,
    rule_options: &[(String, String)],
    ugi: bool,
) {
    for (name, value) in rule_options {
        let command = Command::SetOption {
            name: name.clone(),
            value: value.clone(),
        };
        let outcome = session.exchange(&command.to_string()).and_then(|lines| {
            match lines.iter().find(|l| l.contains("error")) {
                Some(error) => Err(error.clone()),
                None => Ok(()),
            }
        });
        report.record(&format!("setoption {name}"), outcome);
    }
    // An empty line is harmless input; only the missing readyok counts.
    report.record("isready", session.exchange("").map(|_| ()));
    let newgame = Command::NewGame { ugi }.to_string();
    let answered = session.exchange(&newgame).and_then(|lines| {
        if lines.is_empty() {
            Ok(())
        } else {
            Err(format!("answered with {lines:?}; expected nothing"))
        }
    });
    report.record(&newgame, answered);
}

fn legal_answer<G: Game>(rules: &G::Rules, moves: &[String], answer: &str) -> Result<(), String> {
    if is_legal::<G>(rules, moves, answer) {
        Ok(())
    } else {
        Err(format!("bestmove '{answer}' is illegal"))
    }
}

/// A legal move from the start and from a middle position at depth 1, then
/// with `movetime 100`, in time.
pub(super) fn searches<G: Game>(
    session: &mut Session,
    report: &mut Report,
    rules: &G::Rules,
    opening: &[String],
    timing_scale: u32,
) {
    for (name, moves) in [
        ("go depth 1 from the start", &[][..]),
        ("go depth 1 mid-game", opening),
    ] {
        let outcome = session
            .exchange(&position_command(moves))
            .and_then(|_| session.bestmove("go depth 1", Duration::from_secs(10)))
            .and_then(|(answer, _)| legal_answer::<G>(rules, moves, &answer));
        report.record(name, outcome);
    }
    let movetime = session
        .exchange(&position_command(opening))
        .and_then(|_| session.bestmove("go movetime 100", Duration::from_secs(2)));
    let (legal, in_time) = match movetime {
        Ok((answer, took)) => (
            legal_answer::<G>(rules, opening, &answer),
            if took > Duration::from_millis(100) * timing_scale {
                Err(format!("bestmove after {} ms", took.as_millis()))
            } else {
                Ok(())
            },
        ),
        Err(e) => (Err(e.clone()), Err(e)),
    };
    report.record("go movetime 100", legal);
    report.record(
        &format!("go movetime 100 within {} ms (timing)", 100 * timing_scale),
        in_time,
    );
}

/// `isready` during `go infinite`, then `stop`: both answered, and soon.
pub(super) fn stop_during_search(
    session: &mut Session,
    report: &mut Report,
    opening: &[String],
    timing_scale: u32,
) {
    let (ready_limit, stop_limit) = (10 * timing_scale, 20 * timing_scale);
    let mut latency = Err("not measured".to_owned());
    let infinite = session.exchange(&position_command(opening)).and_then(|_| {
        session.send("go infinite")?;
        std::thread::sleep(Duration::from_millis(100));
        let asked = session.send("isready")?;
        let lines = session.collect_until(Duration::from_secs(1), |l| {
            l == "readyok" || l.starts_with("bestmove")
        })?;
        let last = lines.last().ok_or("nothing")?;
        if last.text.trim() != "readyok" {
            return Err("bestmove before readyok during go infinite".to_owned());
        }
        let ready = last.at.saturating_duration_since(asked);
        let stopped = session.send("stop")?;
        let lines = session.collect_until(Duration::from_secs(1), |l| l.starts_with("bestmove"))?;
        let took = lines
            .last()
            .map(|l| l.at.saturating_duration_since(stopped))
            .unwrap_or_default();
        let late = ready > Duration::from_millis(ready_limit.into())
            || took > Duration::from_millis(stop_limit.into());
        latency = if late {
            Err(format!(
                "readyok after {} ms ({ready_limit} allowed), bestmove {} ms after stop \
                 ({stop_limit} allowed)",
                ready.as_millis(),
                took.as_millis()
            ))
        } else {
            Ok(())
        };
        Ok(())
    });
    report.record("isready during go infinite, then stop", infinite);
    report.record(
        &format!(
            "readyok within {ready_limit} ms, bestmove within {stop_limit} ms of stop (timing)"
        ),
        latency,
    );
}

/// A game played to its end: the queries agree with the rules and the
/// engine answers `bestmove 0000`.
pub(super) fn finished_game<G: Game>(session: &mut Session, report: &mut Report, rules: &G::Rules) {
    let (end, game) = random_game::<G>(rules, 5, 10_000);
    let finished = session
        .exchange(&position_command(&game))
        .and_then(|errors| {
            if !errors.is_empty() {
                return Err(format!("refused a legal game: {errors:?}"));
            }
            let over = session.query("gameover")?;
            let result = session.query("result")?;
            let expected = expected_result(&end.outcome());
            if end.outcome().is_some() && over != "true" {
                return Err(format!(
                    "query gameover said '{over}' after a finished game"
                ));
            }
            if result != expected {
                return Err(format!(
                    "query result said '{result}', the rules say '{expected}'"
                ));
            }
            if end.outcome().is_some() {
                let (answer, _) = session.bestmove("go depth 1", Duration::from_secs(5))?;
                if answer != "0000" {
                    return Err(format!("bestmove '{answer}' in a finished game, not 0000"));
                }
            }
            Ok(())
        });
    report.record("finished game: queries and bestmove 0000", finished);
}

/// Bad input keeps the engine answering and the position unchanged.
pub(super) fn bad_input(session: &mut Session, report: &mut Report, opening: &[String]) {
    let kept = session
        .exchange(&position_command(&opening[..1]))
        .and_then(|_| {
            let before = session.query("p1turn")?;
            for garbage in [
                "flibbertigibbet",
                "position startpos moves zz99",
                "position fen not-a-fen",
                "go depth x",
                "setoption name",
            ] {
                let lines = session.exchange(garbage)?;
                if garbage.starts_with("position")
                    && !lines.iter().any(|l| l.starts_with("info string"))
                {
                    return Err(format!("no 'info string error' for '{garbage}'"));
                }
            }
            let after = session.query("p1turn")?;
            if before != after || before != "false" {
                return Err(format!(
                    "position changed by bad input: p1turn {before} -> {after}"
                ));
            }
            Ok(())
        });
    // `go depth x` may legitimately answer bestmove; drain it.
    session.process.drain();
    report.record("bad input refused, position kept", kept);
}

/// `quit` ends the process within a second.
pub(super) fn quit(session: &mut Session, report: &mut Report) {
    let quit = session.send("quit").and_then(|_| {
        let until = Instant::now() + Duration::from_secs(1);
        while session.process.is_alive() {
            if Instant::now() > until {
                return Err("still running 1 s after quit".to_owned());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(())
    });
    report.record("quit", quit);
    session.process.shutdown(None, Duration::from_millis(100));
}
