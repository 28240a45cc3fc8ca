//! `bg-tune datagen`: self-play games at a fixed node count from varied
//! openings, written as they end to a data file (`dataset.rs`). A run is
//! numbered game by game, so it can be split into shards (`--shard K/N`
//! plays the games whose number is K modulo N, on as many machines) and
//! resumed: the games already in the file are not played again.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::dataset::{self, DataGame, DataHeader, NO_SCORE};
use crate::core::control::mate_distance_in_moves;
use crate::core::game::{Game, MoveCode, Outcome};
use crate::engine::{Engine, EngineProfile, SearchLimits};
use crate::referee::adjudication::{GameResult, Termination};
use crate::referee::openings::{openings_for_pairs, Opening, OpeningSource};
use crate::referee::record::rules_in_full;
use crate::referee::record::{GameRecord, MoveRecord};
use crate::referee::tournament::build_rules;
use crate::wire::score::Score;

/// A game still going after this many plies is stopped and counted drawn.
pub const DEFAULT_MAX_PLIES: usize = 600;

#[derive(Clone, Debug)]
pub struct DatagenJob {
    pub out: PathBuf,
    /// Games in the whole run, every shard's together.
    pub games: u32,
    pub nodes: u64,
    /// As the referee's `--openings`.
    pub openings: String,
    pub seed: u64,
    pub rules: Vec<(String, String)>,
    /// Engine options set before the first game (`--set`), such as a
    /// search parameter to generate data without; not kept in the file.
    pub options: Vec<(String, String)>,
    /// `(k, n)`: this run plays the games numbered k modulo n.
    pub shard: (u32, u32),
    pub threads: usize,
    pub max_plies: usize,
}

/// What a run did, for its report.
#[derive(Debug, Default)]
pub struct DatagenReport {
    pub games_before: usize,
    pub games_played: usize,
    pub positions_played: usize,
    pub elapsed: Duration,
}

impl DatagenReport {
    pub fn summary(&self) -> String {
        let seconds = self.elapsed.as_secs_f64().max(1e-9);
        format!(
            "{} games played ({} were in the file before), {} searched positions, \
             {:.1} games/s, {:.0} positions/s",
            self.games_played,
            self.games_before,
            self.positions_played,
            self.games_played as f64 / seconds,
            self.positions_played as f64 / seconds
        )
    }
}

pub fn run<G: Game, K: EngineProfile<G>>(
    job: &DatagenJob,
    on_game: &(dyn Fn(usize) + Sync),
) -> Result<DatagenReport, String> {
    let rules = build_rules::<G>(&job.rules)?;
    let header = DataHeader {
        game: G::NAME.to_owned(),
        rules: rules_in_full::<G>(&job.rules),
    };
    let (mut file, done) = open_for_appending(job, &header)?;
    let source = OpeningSource::parse(&job.openings, job.seed)?;
    let openings = openings_for_pairs::<G>(&source, &rules, None, 0, job.games as usize)?;
    let (k, n) = job.shard;
    let todo: Vec<u32> = (0..job.games)
        .filter(|index| index % n == k && !done.contains(index))
        .collect();
    let queue = Arc::new(Mutex::new(todo.into_iter()));
    let (sender, receiver) = mpsc::channel();
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..job.threads.max(1) {
            let (queue, sender, openings) = (Arc::clone(&queue), sender.clone(), &openings);
            scope.spawn(move || play_games::<G, K>(job, openings, &queue, &sender));
        }
        drop(sender);
        let mut report = DatagenReport {
            games_before: done.len(),
            ..Default::default()
        };
        for game in receiver {
            let game = game?;
            dataset::append(&mut file, &dataset::game_bytes(&game)?)?;
            report.games_played += 1;
            report.positions_played += game.moves.iter().filter(|m| m.1 != NO_SCORE).count();
            on_game(report.games_played);
        }
        report.elapsed = started.elapsed();
        Ok(report)
    })
}

/// The file to append to, made with its header if new; if it exists, its
/// header must be this run's and a torn last game is cut off. Returns the
/// numbers of the games it holds.
fn open_for_appending(
    job: &DatagenJob,
    header: &DataHeader,
) -> Result<(File, HashSet<u32>), String> {
    let name = job.out.display();
    let mut done = HashSet::new();
    if job.out.exists() {
        let data = dataset::read_file(&job.out)?;
        if data.header != *header {
            return Err(format!(
                "'{name}' holds {} games under other rules ({}): use another file",
                data.header.game,
                data.header
                    .rules
                    .iter()
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        if data.torn_bytes > 0 {
            log::warn!(
                "'{name}': the last game was cut short ({} bytes); dropped",
                data.torn_bytes
            );
        }
        done.extend(data.games.iter().map(|game| game.index));
        let file = OpenOptions::new()
            .write(true)
            .open(&job.out)
            .map_err(|e| format!("cannot open '{name}': {e}"))?;
        file.set_len(data.whole_bytes)
            .map_err(|e| format!("cannot cut '{name}' to its whole games: {e}"))?;
        let file = OpenOptions::new()
            .append(true)
            .open(&job.out)
            .map_err(|e| format!("cannot open '{name}': {e}"))?;
        return Ok((file, done));
    }
    let mut file = File::create(&job.out).map_err(|e| format!("cannot create '{name}': {e}"))?;
    dataset::append(&mut file, &dataset::header_bytes(header)?)?;
    Ok((file, done))
}

type Queue = Mutex<std::vec::IntoIter<u32>>;

/// One worker: its own engine, games taken from the queue until it is empty.
fn play_games<G: Game, K: EngineProfile<G>>(
    job: &DatagenJob,
    openings: &[Opening],
    queue: &Queue,
    results: &mpsc::Sender<Result<DataGame, String>>,
) {
    let mut engine = Engine::<G, K>::new();
    let settings = job.rules.iter().map(|rule| ("rule", rule));
    let settings = settings.chain(job.options.iter().map(|option| ("option", option)));
    for (kind, (name, value)) in settings {
        if let Err(e) = engine.set_option(name, value) {
            let _ = results.send(Err(format!("{kind} {name}={value}: {e}")));
            return;
        }
    }
    loop {
        let next = queue.lock().unwrap_or_else(|p| p.into_inner()).next();
        let Some(index) = next else { return };
        let game = play_game(&mut engine, job, &openings[index as usize], index);
        let failed = game.is_err();
        if results.send(game).is_err() || failed {
            return;
        }
    }
}

fn play_game<G: Game, K: EngineProfile<G>>(
    engine: &mut Engine<G, K>,
    job: &DatagenJob,
    opening: &Opening,
    index: u32,
) -> Result<DataGame, String> {
    engine.new_game();
    let book: Vec<&str> = opening.moves.iter().map(String::as_str).collect();
    engine.set_position(opening.fen.as_deref(), &book)?;
    let mut moves: Vec<(u32, i16)> = engine
        .history()
        .iter()
        .map(|mv| (mv.to_code(), NO_SCORE))
        .collect();
    while engine.position().outcome().is_none() && moves.len() < job.max_plies {
        let limits = SearchLimits {
            nodes: Some(job.nodes),
            ..Default::default()
        };
        let result = engine.start_search(limits, Box::new(|_| {})).wait();
        let mv = result
            .best_move
            .ok_or_else(|| format!("game {index}: no move found"))?;
        let score = dataset::stored_score(result.score, mate_distance_in_moves(result.score));
        let text = engine.position().format_move(mv);
        engine.play_move(&text)?;
        moves.push((mv.to_code(), score));
    }
    let winner = match engine.position().outcome() {
        Some(Outcome::Win(winner)) => Some(winner),
        _ => None,
    };
    Ok(DataGame {
        index,
        start_fen: opening.fen.clone(),
        moves,
        winner,
    })
}

/// What a data file holds, positions replayed and counted.
#[derive(Debug, Default)]
pub struct DataStats {
    pub games: usize,
    pub wins: [usize; 2],
    pub draws: usize,
    pub positions: usize,
    pub scored: usize,
    pub unique: usize,
    pub torn_bytes: u64,
}

impl DataStats {
    pub fn summary(&self) -> String {
        format!(
            "{} games (player 1 won {}, player 2 won {}, {} drawn), {} positions, \
             {} searched, {} different{}",
            self.games,
            self.wins[0],
            self.wins[1],
            self.draws,
            self.positions,
            self.scored,
            self.unique,
            if self.torn_bytes > 0 {
                format!("; a torn last game of {} bytes left out", self.torn_bytes)
            } else {
                String::new()
            }
        )
    }
}

/// Replays every game of `data` (which must be `G`'s) and counts.
pub fn stats<G: Game>(data: &dataset::DataFile) -> Result<DataStats, String> {
    let rules = build_rules::<G>(&data.header.rules)?;
    let mut stats = DataStats {
        torn_bytes: data.torn_bytes,
        ..Default::default()
    };
    let mut seen = HashSet::new();
    for game in &data.games {
        dataset::replay::<G>(game, &rules, |at| {
            stats.positions += 1;
            stats.scored += usize::from(at.score != NO_SCORE);
            seen.insert(at.position.hash());
        })?;
        stats.games += 1;
        match game.winner {
            Some(winner) => stats.wins[winner.index()] += 1,
            None => stats.draws += 1,
        }
    }
    stats.unique = seen.len();
    Ok(stats)
}

/// The games of `data` as game records, so that the tools that read the
/// referee's records (`bg-tune sample`) read self-play data too.
pub fn to_records<G: Game>(data: &dataset::DataFile) -> Result<Vec<GameRecord>, String> {
    let rules = build_rules::<G>(&data.header.rules)?;
    data.games
        .iter()
        .map(|game| {
            let mut moves = Vec::with_capacity(game.moves.len());
            let end = dataset::replay::<G>(game, &rules, |at| {
                moves.push(MoveRecord {
                    mv: at.position.format_move(at.played),
                    book: at.score == NO_SCORE,
                    score: wire_score(at.score),
                    ..Default::default()
                });
            })?;
            let result = match end.outcome() {
                Some(outcome) => GameResult::by_rules(outcome),
                None => GameResult {
                    winner: None,
                    termination: Termination::MaxMoves,
                    reason: "stopped at the ply limit".into(),
                },
            };
            Ok(GameRecord {
                game: G::NAME.to_owned(),
                round: game.index as usize + 1,
                players: ["self".into(), "self".into()],
                rules: data.header.rules.clone(),
                start_fen: game.start_fen.clone(),
                opening: format!("game {}", game.index),
                moves,
                result,
                ..Default::default()
            })
        })
        .collect()
}

fn wire_score(score: i16) -> Option<Score> {
    if score == NO_SCORE {
        return None;
    }
    Some(match dataset::mate_of(score) {
        Some(moves) => Score::Mate(moves),
        None => Score::Centipawns(i32::from(score)),
    })
}
