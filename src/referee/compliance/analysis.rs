//! The compliance checks of the analysis commands (PROTOCOL.md, "Analysis"):
//! MultiPV, bad option values, searchmoves, pondering, WDL, Clear Hash and
//! a weakened level, each run only where the engine declares the option it
//! needs.

use std::time::Duration;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::positions::{is_legal, legal_moves};
use super::session::{parse_bestmove, Session, SEARCH_PATIENCE};
use super::{Declared, Report};
use crate::core::Game;
use crate::wire::ugi::{parse_engine_line, EngineLine};

/// Records one check's outcome after settling the engine when it failed and
/// restoring the options the check changed (`resets`) whatever its outcome.
fn finish_check(
    session: &mut Session,
    report: &mut Report,
    name: &str,
    resets: &[(&str, &str)],
    outcome: Result<(), String>,
) {
    if outcome.is_err() {
        session.settle();
    }
    let mut restored = Ok(());
    for (option, value) in resets {
        restored = restored.and_then(|_| session.set(option, value));
    }
    report.record(name, outcome.and(restored));
}

/// The analysis commands: MultiPV, bad option values, searchmoves,
/// pondering, WDL, Clear Hash and a weakened level, on the middle-game
/// position `opening` (the start when that leaves fewer than two moves).
pub(super) fn analysis_checks<G: Game>(
    session: &mut Session,
    rules: &G::Rules,
    opening: &[String],
    declared: &Declared,
    report: &mut Report,
) {
    // Whatever the earlier checks left running (an engine that took
    // `go depth x` as a search) is stopped and its lines dropped.
    session.settle();
    let moves: Vec<String> = if legal_moves::<G>(rules, opening).len() >= 2 {
        opening.to_vec()
    } else {
        Vec::new()
    };
    let moves = moves.as_slice();
    let name = "MultiPV 2: two lines at the final depth, distinct legal first moves";
    match declared.need("MultiPV", "spin") {
        Err(why) => report.skip(name, why),
        Ok(decl) if decl.max.is_some_and(|max| max < 2) => {
            report.skip(name, "not offered: MultiPV's maximum is below 2".to_owned())
        }
        Ok(_) => {
            let outcome = multipv_two::<G>(session, rules, moves);
            finish_check(session, report, name, &[("MultiPV", "1")], outcome);
        }
    }

    let name = "bad analysis option values refused, nothing changed";
    let bad = bad_option_values(declared);
    if bad.is_empty() {
        report.skip(
            name,
            "not offered: the engine declares none of MultiPV, UCI_Elo, StrengthSeed, Ponder, \
             UCI_ShowWDL, UCI_AnalyseMode, UCI_LimitStrength"
                .to_owned(),
        );
    } else {
        let outcome = bad_values_refused::<G>(session, rules, moves, declared, &bad);
        let resets: &[(&str, &str)] = if declared.has("MultiPV", "spin") {
            &[("MultiPV", "1")]
        } else {
            &[]
        };
        finish_check(session, report, name, resets, outcome);
    }

    let outcome = searchmoves_one::<G>(session, rules, moves);
    finish_check(
        session,
        report,
        "go searchmoves <one legal move> answers that move",
        &[],
        outcome,
    );

    let name = "go searchmoves <illegal move> refused: error line, no bestmove, isready answered";
    match illegal_move_for::<G>(rules, moves) {
        None => report.skip(name, "no illegal move found to name".to_owned()),
        Some(bad) => {
            let outcome = searchmoves_illegal(session, moves, &bad);
            finish_check(session, report, name, &[], outcome);
        }
    }

    let ponder = declared.need("Ponder", "check").map(|_| ());
    let name = "ponderhit with nothing pondering: error line, the engine keeps answering";
    match &ponder {
        Err(why) => report.skip(name, why.clone()),
        Ok(()) => {
            let outcome = ponderhit_idle::<G>(session, rules, moves);
            finish_check(session, report, name, &[], outcome);
        }
    }
    let name = "go ponder movetime 100: no bestmove before ponderhit, then one";
    match &ponder {
        Err(why) => report.skip(name, why.clone()),
        Ok(()) => {
            let outcome = go_ponder::<G>(session, rules, moves);
            finish_check(session, report, name, &[("Ponder", "false")], outcome);
        }
    }
    let name = "Ponder on: bestmove X ponder Y with Y legal after X";
    match &ponder {
        Err(why) => report.skip(name, why.clone()),
        Ok(()) => match ponder_move::<G>(session, rules, moves) {
            // Nothing to check: a skip, unless Ponder cannot be put back.
            Ok(Some(why)) => match session.set("Ponder", "false") {
                Ok(()) => report.skip(name, why),
                Err(e) => report.record(name, Err(e)),
            },
            outcome => finish_check(
                session,
                report,
                name,
                &[("Ponder", "false")],
                outcome.map(|_| ()),
            ),
        },
    }

    let name = "UCI_ShowWDL: wdl W D L on every scored line, summing to 1000";
    match declared.need("UCI_ShowWDL", "check") {
        Err(why) => report.skip(name, why),
        Ok(_) => {
            let outcome = show_wdl(session, moves);
            finish_check(session, report, name, &[("UCI_ShowWDL", "false")], outcome);
        }
    }

    let name = "Clear Hash accepted, the engine keeps answering";
    match declared.need("Clear Hash", "button") {
        Err(why) => report.skip(name, why),
        Ok(_) => {
            let outcome = clear_hash::<G>(session, rules, moves);
            finish_check(session, report, name, &[], outcome);
        }
    }

    let name = "UCI_LimitStrength at the lowest UCI_Elo plays a legal move";
    let level = declared
        .need("UCI_LimitStrength", "check")
        .and_then(|_| declared.need("UCI_Elo", "spin"))
        .and_then(|elo| {
            elo.min
                .ok_or_else(|| "not offered: UCI_Elo has no min".to_owned())
        });
    match level {
        Err(why) => report.skip(name, why),
        Ok(lowest) => {
            let outcome = weakest_level::<G>(session, rules, moves, lowest);
            finish_check(
                session,
                report,
                name,
                &[("UCI_LimitStrength", "false")],
                outcome,
            );
        }
    }
}

/// `(depth, multipv, first pv move)` of each `info` line with `multipv`.
fn multipv_lines(info: &[String]) -> Vec<(u32, u32, Option<String>)> {
    info.iter()
        .filter_map(|line| {
            let Some(EngineLine::Info(info)) = parse_engine_line(line) else {
                return None;
            };
            let first = info.pv.into_iter().next();
            Some((info.depth?, info.multipv?, first))
        })
        .collect()
}

fn multipv_two<G: Game>(
    session: &mut Session,
    rules: &G::Rules,
    moves: &[String],
) -> Result<(), String> {
    session.set("MultiPV", "2")?;
    session.position(moves)?;
    let searched = session.search("go depth 2", SEARCH_PATIENCE)?;
    let lines = multipv_lines(&searched.info);
    if let Some((depth, k, _)) = lines.iter().find(|(_, k, _)| *k > 2) {
        return Err(format!(
            "a 'multipv {k}' line at depth {depth} with MultiPV 2"
        ));
    }
    let deepest = lines
        .iter()
        .map(|(depth, _, _)| *depth)
        .max()
        .ok_or("no info line with 'multipv'")?;
    let first_move = |k: u32| -> Result<String, String> {
        let line = lines
            .iter()
            .rev()
            .find(|(depth, n, _)| *depth == deepest && *n == k)
            .ok_or(format!("no 'multipv {k}' line at depth {deepest}"))?;
        line.2.clone().ok_or(format!(
            "the 'multipv {k}' line at depth {deepest} has no pv"
        ))
    };
    let (one, two) = (first_move(1)?, first_move(2)?);
    for mv in [&one, &two] {
        if !is_legal::<G>(rules, moves, mv) {
            return Err(format!(
                "a multipv line at depth {deepest} starts with illegal '{mv}'"
            ));
        }
    }
    if one == two {
        return Err(format!("both lines at depth {deepest} start with '{one}'"));
    }
    if !is_legal::<G>(rules, moves, &searched.best) {
        return Err(format!("bestmove '{}' is illegal", searched.best));
    }
    Ok(())
}

/// A bad value for each analysis option the engine declares.
fn bad_option_values(declared: &Declared) -> Vec<(&'static str, String)> {
    let mut bad = Vec::new();
    if let Ok(decl) = declared.need("MultiPV", "spin") {
        bad.push(("MultiPV", decl.min.map_or(0, |min| min - 1).to_string()));
    }
    if let Ok(decl) = declared.need("UCI_Elo", "spin") {
        if let Some(max) = decl.max {
            bad.push(("UCI_Elo", (max + 1).to_string()));
        }
    }
    if let Ok(decl) = declared.need("StrengthSeed", "spin") {
        if let Some(min) = decl.min {
            bad.push(("StrengthSeed", (min - 1).to_string()));
        }
    }
    for name in [
        "Ponder",
        "UCI_ShowWDL",
        "UCI_AnalyseMode",
        "UCI_LimitStrength",
    ] {
        if declared.has(name, "check") {
            bad.push((name, "maybe".to_owned()));
        }
    }
    bad
}

/// Each bad value answers an error line; a search afterwards shows the
/// settings as they were (MultiPV 2, no WDL, no ponder move).
fn bad_values_refused<G: Game>(
    session: &mut Session,
    rules: &G::Rules,
    moves: &[String],
    declared: &Declared,
    bad: &[(&str, String)],
) -> Result<(), String> {
    let multipv = declared
        .need("MultiPV", "spin")
        .is_ok_and(|decl| decl.max.is_none_or(|max| max >= 2));
    if multipv {
        session.set("MultiPV", "2")?;
    }
    for (name, value) in [("UCI_ShowWDL", "false"), ("Ponder", "false")] {
        if declared.has(name, "check") {
            session.set(name, value)?;
        }
    }
    for (name, value) in bad {
        let command = format!("setoption name {name} value {value}");
        let lines = session.exchange(&command)?;
        if !lines.iter().any(|l| l.starts_with("info string error")) {
            return Err(format!(
                "no 'info string error' for '{command}' (saw {lines:?})"
            ));
        }
    }
    session.position(moves)?;
    let searched = session.search("go depth 2", SEARCH_PATIENCE)?;
    if multipv
        && !multipv_lines(&searched.info)
            .iter()
            .any(|(_, k, _)| *k == 2)
    {
        return Err("no 'multipv 2' line after a refused MultiPV value".to_owned());
    }
    if let Some(line) = searched.info.iter().find(|l| l.contains(" wdl ")) {
        return Err(format!("'{line}' after a refused UCI_ShowWDL value"));
    }
    if let Some(reply) = &searched.ponder {
        return Err(format!(
            "bestmove {} ponder {reply} after a refused Ponder value",
            searched.best
        ));
    }
    if !is_legal::<G>(rules, moves, &searched.best) {
        return Err(format!("bestmove '{}' is illegal", searched.best));
    }
    Ok(())
}

/// `go depth 2 searchmoves M` for a legal M other than the engine's own
/// choice answers M.
fn searchmoves_one<G: Game>(
    session: &mut Session,
    rules: &G::Rules,
    moves: &[String],
) -> Result<(), String> {
    session.position(moves)?;
    let free = session.search("go depth 2", SEARCH_PATIENCE)?.best;
    let others: Vec<String> = legal_moves::<G>(rules, moves)
        .into_iter()
        .filter(|mv| *mv != free)
        .collect();
    let mut rng = StdRng::seed_from_u64(3);
    let only = others.choose(&mut rng).cloned().unwrap_or(free.clone());
    let go = format!("go depth 2 searchmoves {only}");
    let searched = session.search(&go, SEARCH_PATIENCE)?;
    if searched.best != only {
        return Err(format!(
            "answered '{}' to '{go}' (its own choice is '{free}')",
            searched.best
        ));
    }
    Ok(())
}

/// A move the game writes that is illegal after `moves`: one that was
/// legal at an earlier point of the game.
fn illegal_move_for<G: Game>(rules: &G::Rules, moves: &[String]) -> Option<String> {
    let now = legal_moves::<G>(rules, moves);
    (0..moves.len())
        .rev()
        .flat_map(|plies| legal_moves::<G>(rules, &moves[..plies]))
        .find(|mv| !now.contains(mv) && !is_legal::<G>(rules, moves, mv))
}

fn searchmoves_illegal(session: &mut Session, moves: &[String], bad: &str) -> Result<(), String> {
    session.position(moves)?;
    let go = format!("go depth 1 searchmoves {bad}");
    session.send(&go)?;
    let lines = session.lines_for(Duration::from_secs(1), |l| l.starts_with("bestmove"))?;
    if let Some(line) = lines.iter().find(|l| l.starts_with("bestmove")) {
        return Err(format!(
            "'{line}' to '{go}' ('{bad}' is illegal: the command must be refused)"
        ));
    }
    if !lines.iter().any(|l| l.starts_with("info string error")) {
        return Err(format!("no 'info string error' for '{go}' (saw {lines:?})"));
    }
    let after = session.exchange("")?;
    if let Some(line) = after.iter().find(|l| l.starts_with("bestmove")) {
        return Err(format!(
            "'{line}' more than a second after the refused '{go}'"
        ));
    }
    Ok(())
}

fn ponderhit_idle<G: Game>(
    session: &mut Session,
    rules: &G::Rules,
    moves: &[String],
) -> Result<(), String> {
    session.position(moves)?;
    let lines = session.exchange("ponderhit")?;
    if let Some(line) = lines.iter().find(|l| l.starts_with("bestmove")) {
        return Err(format!("'{line}' to a ponderhit with no search"));
    }
    if !lines.iter().any(|l| l.starts_with("info string error")) {
        return Err(format!(
            "no 'info string error' for a ponderhit with no ponder search (saw {lines:?})"
        ));
    }
    let searched = session.search("go depth 1", SEARCH_PATIENCE)?;
    if !is_legal::<G>(rules, moves, &searched.best) {
        return Err(format!(
            "bestmove '{}' after the ponderhit is illegal",
            searched.best
        ));
    }
    Ok(())
}

/// `go ponder movetime 100`: silent for 300 ms (answering `isready`), then
/// `ponderhit` brings exactly one legal `bestmove`.
fn go_ponder<G: Game>(
    session: &mut Session,
    rules: &G::Rules,
    moves: &[String],
) -> Result<(), String> {
    session.set("Ponder", "true")?;
    session.position(moves)?;
    let go = "go ponder movetime 100";
    session.send(go)?;
    let early = session.lines_for(Duration::from_millis(300), |l| l.starts_with("bestmove"))?;
    if let Some(line) = early.iter().find(|l| l.starts_with("bestmove")) {
        return Err(format!("'{line}' after '{go}', before ponderhit"));
    }
    if let Some(error) = early.iter().find(|l| l.starts_with("info string error")) {
        return Err(format!("'{go}' refused: {error}"));
    }
    session.send("isready")?;
    let ready = session.collect_until(Duration::from_secs(2), |l| {
        l == "readyok" || l.starts_with("bestmove")
    })?;
    if let Some(line) = ready.iter().find(|l| l.text.starts_with("bestmove")) {
        return Err(format!(
            "'{}' after '{go}' and isready, before ponderhit",
            line.text.trim()
        ));
    }
    session.send("ponderhit")?;
    let answer = session
        .collect_until(Duration::from_secs(5), |l| l.starts_with("bestmove"))
        .map_err(|e| format!("after ponderhit: {e}"))?;
    let last = answer.last().map(|l| l.text.trim()).unwrap_or_default();
    let (best, _) = parse_bestmove(last)?;
    if !is_legal::<G>(rules, moves, &best) {
        return Err(format!("bestmove '{best}' after ponderhit is illegal"));
    }
    let after = session.exchange("")?;
    if let Some(line) = after.iter().find(|l| l.starts_with("bestmove")) {
        return Err(format!("a second bestmove after ponderhit: '{line}'"));
    }
    Ok(())
}

/// `Ok(Some(why))` when the engine gave no ponder move to check.
fn ponder_move<G: Game>(
    session: &mut Session,
    rules: &G::Rules,
    moves: &[String],
) -> Result<Option<String>, String> {
    session.set("Ponder", "true")?;
    session.position(moves)?;
    let searched = session.search("go depth 3", SEARCH_PATIENCE)?;
    let best = searched.best;
    if !is_legal::<G>(rules, moves, &best) {
        return Err(format!("bestmove '{best}' is illegal"));
    }
    let Some(reply) = searched.ponder else {
        return Ok(Some(format!(
            "no ponder move to check: the engine answered 'bestmove {best}' alone"
        )));
    };
    let mut after = moves.to_vec();
    after.push(best.clone());
    if legal_moves::<G>(rules, &after).is_empty() {
        return Err(format!(
            "'bestmove {best} ponder {reply}': the game is over after {best}"
        ));
    }
    if !is_legal::<G>(rules, &after, &reply) {
        return Err(format!(
            "'bestmove {best} ponder {reply}': {reply} is illegal after {best}"
        ));
    }
    Ok(None)
}

fn show_wdl(session: &mut Session, moves: &[String]) -> Result<(), String> {
    session.set("UCI_ShowWDL", "true")?;
    session.position(moves)?;
    let searched = session.search("go depth 2", SEARCH_PATIENCE)?;
    let mut scored = 0;
    for line in &searched.info {
        let Some(EngineLine::Info(info)) = parse_engine_line(line) else {
            continue;
        };
        if info.score.is_none() {
            continue;
        }
        scored += 1;
        // A `wdl` without three numbers is not read as one.
        let wdl = info
            .wdl
            .ok_or(format!("no wdl (with three numbers) in '{line}'"))?;
        let sum = wdl.win + wdl.draw + wdl.loss;
        if sum != 1000 {
            return Err(format!("wdl sums to {sum}, not 1000, in '{line}'"));
        }
    }
    if scored == 0 {
        return Err("no info line with a score".to_owned());
    }
    Ok(())
}

fn clear_hash<G: Game>(
    session: &mut Session,
    rules: &G::Rules,
    moves: &[String],
) -> Result<(), String> {
    let lines = session.exchange("setoption name Clear Hash")?;
    if let Some(error) = lines.iter().find(|l| l.contains("error")) {
        return Err(format!("'setoption name Clear Hash' refused: {error}"));
    }
    session.position(moves)?;
    let searched = session.search("go depth 1", SEARCH_PATIENCE)?;
    if !is_legal::<G>(rules, moves, &searched.best) {
        return Err(format!("bestmove '{}' is illegal", searched.best));
    }
    Ok(())
}

fn weakest_level<G: Game>(
    session: &mut Session,
    rules: &G::Rules,
    moves: &[String],
    lowest: i64,
) -> Result<(), String> {
    session.set("UCI_LimitStrength", "true")?;
    session.set("UCI_Elo", &lowest.to_string())?;
    session.position(moves)?;
    let searched = session.search("go depth 2", SEARCH_PATIENCE)?;
    if !is_legal::<G>(rules, moves, &searched.best) {
        return Err(format!("bestmove '{}' is illegal", searched.best));
    }
    Ok(())
}
