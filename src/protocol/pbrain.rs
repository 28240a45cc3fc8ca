//! The Gomocup protocol (Piskvork, GomocupJudge, c-gomoku-cli) as an adapter
//! over the same [`Engine`] as UGI. Mapping and examples: protocol/GOMOKU.md.
//!
//! Coordinates are 0-based `x,y`, x the column: `x,y` is our cell of column
//! x and row y + 1 (`0,0` is a1). Answers are single lines, flushed at once.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::output::send;
use crate::core::game::{Game, Player};
use crate::engine::{Clock, Engine, SearchLimits};
use crate::games::gomoku::board::{cell_of, coordinates, MAX_SIZE, MIN_SIZE};
use crate::games::gomoku::notation::format_cell;
use crate::games::gomoku::swap2::{self, Swap2Choice, Swap2Decision, Verdict};
use crate::games::gomoku::{Gomoku, GomokuKnowledge};
use crate::wire::pbrain::{
    parse_board_line, parse_command, parse_swap2_line, BoardLine, CommandError, PbrainCommand,
    PbrainReply, Point, Stone, Swap2Line, COMMANDS,
};
use crate::wire::Score;

/// Whether `line` opens a Gomocup session (commands are upper case, unlike UGI).
pub fn is_gomocup_command(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    COMMANDS.contains(&word)
}

/// Time a manager gives when it says nothing (Gomocup's usual turn limit).
const DEFAULT_TURN_TIMEOUT: Duration = Duration::from_secs(5);
/// Kept back from every limit for process scheduling and the pipe: a fifth
/// of short limits, at most this much.
const SAFETY_MARGIN: Duration = Duration::from_millis(60);
/// The least thinking time, when the clock is nearly out.
const MINIMUM_THINK: Duration = Duration::from_millis(15);
/// Moves the remaining match time is spread over, at least.
const MIN_MOVES_LEFT: u32 = 12;

/// The manager's time and memory settings, from `INFO`.
#[derive(Clone, Copy, Debug)]
struct Limits {
    turn_timeout: Duration,
    /// `None`: no match clock.
    match_timeout: Option<Duration>,
    time_left: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            turn_timeout: DEFAULT_TURN_TIMEOUT,
            match_timeout: None,
            time_left: None,
        }
    }
}

impl Limits {
    /// The next move's limits for the core's time manager: the turn limit
    /// is a ceiling, and what is left of the match clock is spread over the
    /// moves the board still has room for.
    fn search_limits(&self, empty_cells: usize) -> SearchLimits {
        let margin = |limit: Duration| SAFETY_MARGIN.min(limit / 5);
        let cap = self.turn_timeout.saturating_sub(margin(self.turn_timeout));
        let left = self.time_left.or(self.match_timeout);
        SearchLimits {
            move_cap: Some(cap.max(MINIMUM_THINK)),
            clock: left.map(|left| Clock {
                time_left: left.saturating_sub(SAFETY_MARGIN).max(MINIMUM_THINK),
                increment: Duration::ZERO,
                moves_to_go: Some(((empty_cells / 4) as u32).clamp(MIN_MOVES_LEFT, 40)),
            }),
            ..Default::default()
        }
    }
}

struct Session {
    engine: Engine<Gomoku, GomokuKnowledge>,
    limits: Limits,
    /// Lines that arrived while a search ran, handled after it.
    pending: Vec<String>,
    /// Lines of a `BOARD` block being read.
    board_block: Option<Vec<(Point, Stone)>>,
    /// A `SWAP2BOARD` block being read.
    swap2_block: Option<Swap2Block>,
    /// Draws among near-balanced Swap2 proposals.
    rng: StdRng,
    quit: bool,
}

/// The stones of a `SWAP2BOARD` block so far, and its first bad line: the
/// block is refused as a whole at `DONE`, so that one `ERROR` answers it.
#[derive(Default)]
struct Swap2Block {
    stones: Vec<Point>,
    /// The owners the lines gave (`x,y,1|2`), or `None` for `x,y`.
    owners: Vec<Option<Stone>>,
    problem: Option<String>,
}

/// Whether the owners a `SWAP2BOARD` block gave contradict the stones'
/// order (black, white, black, ...): either no line names one, or every
/// black stone has one owner and every white stone the other.
fn owners_problem(owners: &[Option<Stone>]) -> Option<String> {
    if owners.iter().all(Option::is_none) {
        return None;
    }
    let alternate = |stone| match stone {
        Stone::Own => Some(Stone::Opponent),
        Stone::Opponent => Some(Stone::Own),
        Stone::Shared => None,
    };
    let first = owners.first().copied().flatten();
    let consistent = first.is_some_and(|black| {
        owners.iter().enumerate().all(|(index, &owner)| {
            let expected = if index % 2 == 0 {
                Some(black)
            } else {
                alternate(black)
            };
            owner.is_some() && owner == expected
        })
    });
    (!consistent).then(|| {
        "SWAP2BOARD stones alternate black and white: their owners must too (1 and 2, or all left out)"
            .to_owned()
    })
}

/// What the executable's command line may set.
#[derive(Clone, Copy, Debug, Default)]
pub struct PbrainSettings {
    /// Seeds the Swap2 proposals' draw; `None` draws a new seed.
    pub seed: Option<u64>,
}

/// Runs the Gomocup loop until `END` or the end of input.
pub fn run_pbrain(input: Receiver<String>, first_lines: Vec<String>) {
    run_pbrain_with(input, first_lines, PbrainSettings::default());
}

/// Runs the Gomocup loop with `settings`.
pub fn run_pbrain_with(
    input: Receiver<String>,
    first_lines: Vec<String>,
    settings: PbrainSettings,
) {
    let seed = settings.seed.unwrap_or_else(rand::random);
    log::debug!("Swap2 proposals drawn with seed {seed}");
    let mut session = Session {
        engine: Engine::new(),
        limits: Limits::default(),
        pending: Vec::new(),
        board_block: None,
        swap2_block: None,
        rng: StdRng::seed_from_u64(seed),
        quit: false,
    };
    let mut queued: std::collections::VecDeque<String> = first_lines.into();
    loop {
        let line = match queued.pop_front() {
            Some(line) => line,
            None => match input.recv() {
                Ok(line) => line,
                Err(_) => break,
            },
        };
        log::debug!("<< {line}");
        session.handle(&line, &input);
        queued.extend(session.pending.drain(..));
        if session.quit {
            break;
        }
    }
}

fn reply(reply: PbrainReply) {
    send(&reply.to_string());
}

fn error(message: &str) {
    reply(PbrainReply::Error(message.to_owned()));
}

/// The point, if it is on the board.
fn on_board(point: Point, size: usize) -> Result<Point, String> {
    if point.x >= size || point.y >= size {
        return Err(format!("{point} is off the {size}x{size} board"));
    }
    Ok(point)
}

impl Session {
    fn size(&self) -> usize {
        self.engine.rules().size
    }

    fn handle(&mut self, line: &str, input: &Receiver<String>) {
        let line = line.trim();
        if let Some(block) = self.board_block.as_mut() {
            match parse_board_line(line) {
                Ok(BoardLine::Stone(point, stone)) => block.push((point, stone)),
                Ok(BoardLine::Done) => {
                    let stones = std::mem::take(block);
                    self.board_block = None;
                    match self.set_board(&stones) {
                        Ok(()) => self.think_and_play(input),
                        Err(message) => error(&message),
                    }
                }
                Err(message) => error(&message),
            }
            return;
        }
        if self.swap2_block.is_some() {
            return self.swap2_line(line);
        }
        if line.is_empty() {
            return;
        }
        let command = match parse_command(line) {
            Ok(command) => command,
            Err(CommandError::Malformed(message)) => return error(&message),
            Err(CommandError::Unknown(word)) => {
                return reply(PbrainReply::Unknown(format!("command '{word}'")))
            }
        };
        match command {
            PbrainCommand::Start(size) => self.start(size),
            PbrainCommand::RectStart { width, height } if width == height => self.start(width),
            PbrainCommand::RectStart { .. } => error("rectangular boards are not supported"),
            PbrainCommand::Restart => {
                self.engine.new_game();
                self.reset_position();
                reply(PbrainReply::Ok);
            }
            PbrainCommand::Begin => self.think_and_play(input),
            PbrainCommand::Turn(point) => match on_board(point, self.size()) {
                Ok(Point { x, y }) => match self.engine.play_move(&format_cell(cell_of(x, y))) {
                    Ok(_) => self.think_and_play(input),
                    Err(message) => error(&format!("TURN {point}: {message}")),
                },
                Err(message) => error(&message),
            },
            PbrainCommand::Board => self.board_block = Some(Vec::new()),
            PbrainCommand::Swap2Board => self.swap2_block = Some(Swap2Block::default()),
            PbrainCommand::Takeback(point) => self.take_back(point),
            PbrainCommand::Info { key, value } => self.info(&key, &value),
            PbrainCommand::End => self.quit = true,
            PbrainCommand::About => reply(PbrainReply::About(vec![
                ("name".into(), Gomoku::NAME.into()),
                ("version".into(), env!("CARGO_PKG_VERSION").into()),
                ("author".into(), super::ugi::AUTHOR.into()),
                // No country or web site to name: "-" says so.
                ("country".into(), "-".into()),
                ("www".into(), "-".into()),
            ])),
            // Outside a search there is nothing to stop.
            PbrainCommand::Stop => {
                let word = line.split_whitespace().next().unwrap_or_default();
                reply(PbrainReply::Unknown(format!("command '{word}'")))
            }
        }
    }

    fn reset_position(&mut self) {
        if let Err(message) = self.engine.set_position(None, &[]) {
            log::error!("resetting the board: {message}");
        }
    }

    fn start(&mut self, size: usize) {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            error(&format!(
                "board size {size} is not supported ({MIN_SIZE}..{MAX_SIZE})"
            ));
            return;
        }
        match self.engine.set_option("BoardSize", &size.to_string()) {
            Ok(()) => {
                self.engine.new_game();
                reply(PbrainReply::Ok);
            }
            Err(message) => error(&message),
        }
    }

    /// Rebuilds the position from a `BOARD` block: as a game from the empty
    /// board when the stones alternate (so that TAKEBACK works), else as a
    /// position string. The side to move is always us.
    fn set_board(&mut self, stones: &[(Point, Stone)]) -> Result<(), String> {
        let size = self.size();
        let mut mine = Vec::new();
        let mut theirs = Vec::new();
        for &(point, stone) in stones {
            let Point { x, y } = on_board(point, size)?;
            let name = format_cell(cell_of(x, y));
            if stone == Stone::Own {
                mine.push(name);
            } else {
                theirs.push(name);
            }
        }
        // We move next, so we are Black when the counts are level.
        let we_are_black = mine.len() == theirs.len();
        let (black, white) = if we_are_black {
            (&mine, &theirs)
        } else {
            (&theirs, &mine)
        };
        if black.len() == white.len() || black.len() == white.len() + 1 {
            let mut moves = Vec::new();
            for (i, b) in black.iter().enumerate() {
                moves.push(b.as_str());
                if let Some(w) = white.get(i) {
                    moves.push(w.as_str());
                }
            }
            if self.engine.set_position(None, &moves).is_ok() {
                return Ok(());
            }
        }
        // Not a game: the stones are put down and the game judges the board.
        let us = if we_are_black { Player::P1 } else { Player::P2 };
        let mut position = Gomoku::start_position(self.engine.rules());
        for (names, owner) in [(&mine, us), (&theirs, us.other())] {
            for name in names {
                let mv = position.parse_move(name)?;
                if !position.place_stone(mv, owner) {
                    return Err(format!("two stones on {name}"));
                }
            }
        }
        let position = position.with_side_to_move(us).ok_or("no side to move")?;
        self.engine.set_position(Some(&position.to_fen()), &[])
    }

    fn take_back(&mut self, point: Point) {
        if let Err(message) = on_board(point, self.size()) {
            return error(&message);
        }
        let last = self.engine.history().last().map(|&mv| {
            let (x, y) = coordinates(mv as usize);
            Point { x, y }
        });
        if last != Some(point) {
            return error(&format!("{point} is not the last move"));
        }
        match self.engine.undo_move() {
            Ok(()) => reply(PbrainReply::Ok),
            Err(message) => error(&message),
        }
    }

    fn info(&mut self, key: &str, value: &str) {
        // The numeric settings are one word; anything after it is ignored.
        let number = value
            .split_whitespace()
            .next()
            .and_then(|v| v.parse::<u64>().ok());
        let ms = |n: u64| Duration::from_millis(n);
        match (key.to_ascii_lowercase().as_str(), number) {
            ("timeout_turn", Some(n)) => self.limits.turn_timeout = ms(n),
            ("timeout_match", Some(n)) => self.limits.match_timeout = (n > 0).then(|| ms(n)),
            ("time_left", Some(n)) => self.limits.time_left = Some(ms(n)),
            ("max_memory", Some(bytes)) => self.limit_memory(bytes),
            ("thread_num", Some(threads)) => self.set_threads(threads),
            ("rule", Some(bits)) => self.set_rule(bits),
            // Known keys this engine has no use for: game_type, evaluate,
            // folder, and anything a newer manager adds.
            (_, _) => log::info!("INFO {key} {value} ignored"),
        }
    }

    /// The manager's thread allowance, within what the engine offers.
    fn set_threads(&mut self, threads: u64) {
        let threads = threads.clamp(1, 256); // the Threads option's range
        if let Err(message) = self.engine.set_option("Threads", &threads.to_string()) {
            log::warn!("thread_num: {message}");
        }
    }

    fn limit_memory(&mut self, bytes: u64) {
        if bytes == 0 {
            return;
        }
        // Half the allowance for the table, the rest for the process itself.
        let megabytes = (bytes / 2 / (1 << 20)).clamp(1, 64);
        if let Err(message) = self.engine.set_option("Hash", &megabytes.to_string()) {
            log::warn!("max_memory: {message}");
        }
    }

    /// Gomocup's rule bits: 1 exactly five, 2 a continuous game, 4 renju,
    /// 8 caro. 4 (with or without 1) is renju, else 1 is exactly five,
    /// else freestyle; 2 changes nothing here. Caro and unknown bits are
    /// refused, the rule and the position kept.
    fn set_rule(&mut self, bits: u64) {
        if bits & !7 != 0 {
            return error(&format!(
                "rule {bits} is not supported: 0 freestyle, 1 exactly five, 4 renju \
                 (2, a continuous game, may be added); the rule stays {}",
                rule_name(self.engine.rules().rule)
            ));
        }
        let rule = if bits & 4 != 0 {
            "renju"
        } else if bits & 1 != 0 {
            "standard"
        } else {
            "freestyle"
        };
        if self.engine.rules().rule == rule_of(rule) {
            return;
        }
        let snapshot = self.snapshot();
        if let Err(message) = self.engine.set_option("Rule", rule) {
            return error(&message);
        }
        if let Err(message) = self.restore(&snapshot) {
            error(&format!(
                "the position does not fit the new rule: {message}"
            ));
        }
    }

    /// The position as the moves from the empty board when it was built
    /// so, else as a position string.
    fn snapshot(&self) -> Snapshot {
        let history = self.engine.history();
        Snapshot {
            moves: history.iter().map(|&mv| format_cell(mv as usize)).collect(),
            fen: self.engine.position().to_fen(),
            had_base: history.len() < self.engine.position().ply() as usize,
        }
    }

    fn restore(&mut self, snapshot: &Snapshot) -> Result<(), String> {
        if snapshot.had_base {
            return self.engine.set_position(Some(&snapshot.fen), &[]);
        }
        let moves: Vec<&str> = snapshot.moves.iter().map(String::as_str).collect();
        self.engine.set_position(None, &moves)
    }

    /// A line of a `SWAP2BOARD` block; `DONE` answers it.
    fn swap2_line(&mut self, line: &str) {
        if matches!(parse_command(line), Ok(PbrainCommand::End)) {
            self.quit = true;
            return;
        }
        let Some(block) = self.swap2_block.as_mut() else {
            return;
        };
        match parse_swap2_line(line) {
            Ok(Swap2Line::Stone(point, owner)) => {
                block.stones.push(point);
                block.owners.push(owner);
            }
            Ok(Swap2Line::Done) => {
                let block = std::mem::take(block);
                self.swap2_block = None;
                match block.problem.or_else(|| owners_problem(&block.owners)) {
                    Some(problem) => error(&problem),
                    None => self.answer_swap2(&block.stones),
                }
            }
            Err(message) => {
                block.problem.get_or_insert(message);
            }
        }
    }

    /// The stones of a `SWAP2BOARD` block as moves from the empty board,
    /// black first, each checked on the board, empty and legal.
    fn swap2_moves(&self, stones: &[Point]) -> Result<Vec<String>, String> {
        if ![0, 3, 5].contains(&stones.len()) {
            return Err(format!(
                "SWAP2BOARD takes 0, 3 or 5 stones, not {}",
                stones.len()
            ));
        }
        let mut position = Gomoku::start_position(self.engine.rules());
        let mut moves = Vec::new();
        for &point in stones {
            let Point { x, y } = on_board(point, self.size())?;
            let name = format_cell(cell_of(x, y));
            let mv = position
                .parse_legal_move(&name)
                .map_err(|_| format!("SWAP2BOARD {point}: {}", illegal(&position, &name)))?;
            position.make_move(mv);
            moves.push(name);
        }
        Ok(moves)
    }

    /// Answers a `SWAP2BOARD` block: the decision, explained in a MESSAGE,
    /// then the answer; the position is left as the stones with ours added.
    fn answer_swap2(&mut self, stones: &[Point]) {
        let moves = match self.swap2_moves(stones) {
            Ok(moves) => moves,
            Err(message) => return error(&message),
        };
        let snapshot = self.snapshot();
        let started = Instant::now();
        let decision = self.decide_swap2(&moves);
        if let Some(left) = self.limits.time_left.as_mut() {
            *left = left.saturating_sub(started.elapsed());
        }
        let decision = match decision {
            Ok(decision) => decision,
            Err(message) => {
                if let Err(why) = self.restore(&snapshot) {
                    log::error!("restoring the position: {why}");
                }
                return error(&message);
            }
        };
        log::info!("swap2: {}", decision.reason);
        reply(PbrainReply::Message(format!("swap2: {}", decision.reason)));
        reply(swap2_reply(&decision));
    }

    /// Searches for the decision and sets the position that follows it.
    fn decide_swap2(&mut self, moves: &[String]) -> Result<Swap2Decision, String> {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        self.engine.set_position(None, &refs)?;
        let position = self.engine.position().clone();
        let budget = self.swap2_budget();
        let engine = &mut self.engine;
        let mut search = |position: &Gomoku, time: Duration| search_verdict(engine, position, time);
        let decision = swap2::decide(&position, &mut search, budget, &mut self.rng)?;
        let mut all: Vec<String> = moves.to_vec();
        all.extend(decision.stones().iter().map(|&mv| format_cell(mv as usize)));
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        self.engine.set_position(None, &refs)?;
        Ok(decision)
    }

    /// The whole Swap2 decision's time: the turn limit (or a tenth of the
    /// match clock) less the margin, and a quarter kept back for the
    /// several searches' own start and stop.
    fn swap2_budget(&self) -> Duration {
        let limits = &self.limits;
        let margin = SAFETY_MARGIN.min(limits.turn_timeout / 5);
        let mut cap = limits.turn_timeout.saturating_sub(margin);
        if let Some(left) = limits.time_left.or(limits.match_timeout) {
            cap = cap.min(left.saturating_sub(SAFETY_MARGIN) / 10);
        }
        cap * 3 / 4
    }

    /// Searches the current position and answers with our move (after
    /// playing it), handling END or new lines that arrive meanwhile.
    fn think_and_play(&mut self, input: &Receiver<String>) {
        let position = self.engine.position();
        if position.outcome().is_some() {
            return error("the game is over");
        }
        let size = self.size();
        let empty = size * size - position.ply() as usize;
        let limits = self.limits.search_limits(empty);
        let started = Instant::now();
        let handle = self.engine.start_search(limits, Box::new(|_| {}));
        let mut input_open = true;
        while !handle.is_finished() {
            if !input_open {
                std::thread::sleep(Duration::from_millis(1));
                continue;
            }
            match input.recv_timeout(Duration::from_millis(2)) {
                Ok(line) => match parse_command(&line) {
                    Ok(PbrainCommand::End) if self.pending.is_empty() => {
                        // Answer at once (the manager may still read it), then leave.
                        handle.stop();
                        self.quit = true;
                    }
                    Ok(PbrainCommand::Stop) => handle.stop(),
                    _ => self.pending.push(line),
                },
                Err(RecvTimeoutError::Timeout) => {}
                // The end of input ends the session once this move is given.
                Err(RecvTimeoutError::Disconnected) => input_open = false,
            }
        }
        let result = handle.wait();
        if let Some(left) = self.limits.time_left.as_mut() {
            *left = left.saturating_sub(started.elapsed());
        }
        let Some(mv) = result.best_move else {
            return error("no move to play");
        };
        if let Err(message) = self.engine.play_move(&format_cell(mv as usize)) {
            return error(&format!("internal: own move rejected: {message}"));
        }
        let (x, y) = coordinates(mv as usize);
        reply(PbrainReply::Message(format!(
            "depth {} score {} nodes {} time {}",
            result.depth,
            Score::from_search(result.score),
            result.nodes,
            result.elapsed.as_millis()
        )));
        reply(PbrainReply::Move(Point { x, y }));
    }
}

/// The position of [`Session::snapshot`].
struct Snapshot {
    moves: Vec<String>,
    fen: String,
    had_base: bool,
}

/// Why `name` cannot be played in `position`.
fn illegal(position: &Gomoku, name: &str) -> String {
    match position.parse_move(name) {
        Ok(mv) => position.illegal_reason(mv),
        Err(why) => why,
    }
}

/// A short search of `position` for the Swap2 decisions.
fn search_verdict(
    engine: &mut Engine<Gomoku, GomokuKnowledge>,
    position: &Gomoku,
    time: Duration,
) -> Verdict {
    if let Err(message) = engine.set_position(Some(&position.to_fen()), &[]) {
        log::error!("swap2: cannot search {}: {message}", position.to_fen());
        return Verdict {
            score: 0,
            best: None,
        };
    }
    let limits = SearchLimits {
        movetime: Some(time),
        ..Default::default()
    };
    let result = engine.start_search(limits, Box::new(|_| {})).wait();
    log::debug!(
        "swap2: {} scores {} at depth {}",
        position.to_fen(),
        result.score,
        result.depth
    );
    Verdict {
        score: result.score,
        best: result.best_move,
    }
}

fn point_of(mv: u16) -> Point {
    let (x, y) = coordinates(mv as usize);
    Point { x, y }
}

/// The protocol's answer to a Swap2 decision.
fn swap2_reply(decision: &Swap2Decision) -> PbrainReply {
    match &decision.choice {
        Swap2Choice::Swap => PbrainReply::Swap,
        Swap2Choice::Play(mv) => PbrainReply::Move(point_of(*mv)),
        Swap2Choice::Propose(_) | Swap2Choice::AddTwo(_) => {
            PbrainReply::Moves(decision.stones().into_iter().map(point_of).collect())
        }
    }
}

fn rule_name(rule: crate::games::gomoku::board::Rule) -> &'static str {
    use crate::games::gomoku::board::Rule;
    match rule {
        Rule::Standard => "standard",
        Rule::Renju => "renju",
        Rule::Freestyle => "freestyle",
    }
}

fn rule_of(name: &str) -> crate::games::gomoku::board::Rule {
    use crate::games::gomoku::board::Rule;
    match name {
        "standard" => Rule::Standard,
        "renju" => Rule::Renju,
        _ => Rule::Freestyle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_turn_limit_alone_is_used_whole_less_the_margin() {
        let limits = Limits {
            turn_timeout: ms(5_000),
            match_timeout: None,
            time_left: None,
        };
        let budget = limits.search_limits(225).budget(ms(10), false);
        assert_eq!(budget.maximum, Some(ms(5_000 - 60 - 10)));
        assert!(!budget.adaptive);
    }

    #[test]
    fn the_match_clock_is_spread_and_never_run_out() {
        for left in [20, 200, 1_000, 60_000] {
            let limits = Limits {
                turn_timeout: ms(5_000),
                match_timeout: Some(ms(180_000)),
                time_left: Some(ms(left)),
            };
            let budget = limits.search_limits(100).budget(ms(10), false);
            let maximum = budget.maximum.unwrap_or(Duration::MAX);
            assert!(budget.adaptive, "left {left}");
            assert!(
                maximum < ms(left).max(MINIMUM_THINK),
                "left {left}: {maximum:?}"
            );
            assert!(maximum <= ms(5_000), "left {left}: {maximum:?}");
        }
    }
}
