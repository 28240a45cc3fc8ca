//! A match: game pairs (each opening with colours swapped) shared out to
//! worker threads, each with its own pair of engine processes; results,
//! records, progress and statistics gathered on the calling thread. The
//! workers play any schedule of units (`schedule`), so tournaments of more
//! engines (`pool`) use them too.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::Instant;

use crate::core::Game;

use super::adjudication::Termination;
use super::client::{EngineClient, EngineSpec, Timeouts};
use super::openings::{openings_for_pairs, Opening, OpeningSource};
use super::play::{play_game, GameSettings, Overhead, PonderCount};
use super::record::{render, GameRecord, RecordFormat};
use super::schedule::{units, Unit};
use super::stats::{SprtConfig, SprtDecision};
use super::summary::progress;
pub use super::summary::{format_summary, merge_records, MatchSummary};
use super::transcript::Transcript;

pub struct MatchConfig {
    pub engines: [Arc<EngineSpec>; 2],
    pub games: usize,
    pub concurrency: usize,
    pub openings: OpeningSource,
    /// Where in the openings' sequence the first pair starts.
    pub first_pair: usize,
    pub settings: GameSettings,
    pub sprt: Option<SprtConfig>,
    /// File every game is appended to.
    pub records: Option<String>,
    pub transcript: Option<Arc<Transcript>>,
    /// `--rule X=V`: the referee's rules and every engine's option.
    pub rule_options: Vec<(String, String)>,
    pub timeouts: Timeouts,
    pub quiet: bool,
    /// `--shard K/N`: play only this slice of the match's pairs.
    pub shard: Option<Shard>,
}

/// A deterministic slice of a match (`--shard K/N`): the pairs whose number
/// leaves K - 1 when divided by N, with the openings, game numbers and seeds
/// they have in the whole match, so slices played anywhere merge into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// From 0 (K - 1).
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Reads `K/N` with 1 <= K <= N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{text}' is not K/N with 1 <= K <= N");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }

    pub(super) fn holds(self, pair: usize) -> bool {
        pair % self.count == self.index
    }
}

/// A game as a worker sends it on.
pub(super) struct Finished {
    pub game: usize,
    pub record: GameRecord,
    pub overhead: Overhead,
    /// By player.
    pub ponder: [PonderCount; 2],
    /// The engines (indices into the run's list) that were player 1 and 2.
    pub seats: [usize; 2],
}

/// Builds the referee's rules from `--rule` settings.
pub fn build_rules<G: Game>(options: &[(String, String)]) -> Result<G::Rules, String> {
    let mut rules = G::Rules::default();
    for (name, value) in options {
        G::set_rule_option(&mut rules, name, value)
            .map_err(|e| format!("rule {name}={value}: {e}"))?;
    }
    Ok(rules)
}

pub(super) fn label_for(spec: &EngineSpec, fallback: &str) -> String {
    spec.name
        .as_deref()
        .unwrap_or(fallback)
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// A pondering engine searches while its opponent does, so a game takes
/// both engines' threads at once; more than the machine has and the
/// engines slow each other down, which the results would then measure.
pub(super) fn warn_if_cores_are_short(engines: [&EngineSpec; 2], workers: usize) {
    if !engines.iter().any(|e| e.ponder && e.proto.can_ponder()) {
        return;
    }
    let needed = workers * engines.iter().map(|e| e.threads()).sum::<usize>();
    match thread::available_parallelism() {
        Ok(cores) if needed > cores.get() => log::warn!(
            "pondering: {workers} game(s) at once, each using both engines' threads ({} + {}), \
             need {needed} cores and {cores} are available; lower --concurrency or Threads",
            engines[0].threads(),
            engines[1].threads()
        ),
        Ok(_) => {}
        Err(e) => log::debug!("cannot count the cores: {e}"),
    }
}

/// The games the workers share out: the units still to play, taken one at
/// a time, and the flag that stops them once the SPRT decides.
pub(super) struct UnitQueue<G: Game> {
    pub rules: G::Rules,
    pub openings: Vec<Opening>,
    /// This run's units: all of them, or a shard's.
    pub units: Vec<Unit>,
    pub next: AtomicUsize,
    pub stop: AtomicBool,
    pub settings: GameSettings,
}

/// What every worker needs to start its own process of each engine.
pub(super) struct WorkerSetup<'a> {
    pub engines: &'a [Arc<EngineSpec>],
    /// Each engine's transcript label, without the worker.
    pub labels: &'a [String],
    pub timeouts: &'a Timeouts,
    pub transcript: &'a Option<Arc<Transcript>>,
    pub rule_options: &'a [(String, String)],
}

/// The units of this run, `shard` kept: a unit is the slice's pair.
pub(super) fn my_units(all: Vec<Unit>, shard: Option<Shard>) -> Vec<Unit> {
    all.into_iter()
        .enumerate()
        .filter(|(index, _)| shard.is_none_or(|shard| shard.holds(*index)))
        .map(|(_, unit)| unit)
        .collect()
}

pub fn run_match<G: Game>(config: &MatchConfig) -> Result<MatchSummary, String> {
    let started = Instant::now();
    let rules = build_rules::<G>(&config.rule_options)?;
    let pairs = config.games.div_ceil(2);
    let worker_count = config.concurrency.max(1).min(pairs.max(1));
    warn_if_cores_are_short([&config.engines[0], &config.engines[1]], worker_count);
    let openings = openings_for_pairs::<G>(
        &config.openings,
        &rules,
        config.settings.board_size,
        config.first_pair,
        pairs,
    )?;
    let records = RecordsFile::create::<G>(&config.records, config.shard)?;
    let my_units = my_units(units(&[[0, 1]], config.games), config.shard);
    let my_games = my_units.iter().map(|unit| unit.games.len()).sum::<usize>();
    let queue = Arc::new(UnitQueue::<G> {
        rules,
        openings,
        units: my_units,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        settings: config.settings.clone(),
    });
    let labels = [
        label_for(&config.engines[0], "engine1"),
        label_for(&config.engines[1], "engine2"),
    ];
    let setup = WorkerSetup {
        engines: &config.engines,
        labels: &labels,
        timeouts: &config.timeouts,
        transcript: &config.transcript,
        rule_options: &config.rule_options,
    };
    let (receiver, workers) = spawn_workers(&setup, worker_count, &queue)?;
    let mut summary = gather_results(config, &labels, receiver, records, &queue.stop, my_games)?;
    for worker in workers {
        let _ = worker.join();
    }
    summary.wall_time = started.elapsed();
    Ok(summary)
}

/// Where finished games are written, in the format their path asks for.
pub(super) struct RecordsFile {
    file: Option<File>,
    format: RecordFormat,
}

impl RecordsFile {
    pub(super) fn create<G: Game>(
        records: &Option<String>,
        shard: Option<Shard>,
    ) -> Result<Self, String> {
        // A slice's records are what `bg-referee merge` reads: JSON lines.
        let format = match (records, shard) {
            (_, Some(_)) => RecordFormat::Json,
            (Some(path), None) => RecordFormat::for_path(path, G::NAME),
            (None, None) => RecordFormat::for_game(G::NAME),
        };
        let file = match records {
            Some(path) => {
                Some(File::create(path).map_err(|e| format!("cannot create '{path}': {e}"))?)
            }
            None => None,
        };
        Ok(RecordsFile { file, format })
    }

    pub(super) fn write(&mut self, record: &GameRecord) -> Result<(), String> {
        let Some(file) = self.file.as_mut() else {
            return Ok(());
        };
        file.write_all(render(record, self.format).as_bytes())
            .and_then(|_| file.flush())
            .map_err(|e| format!("cannot write the records: {e}"))
    }
}

/// A worker thread with its own process of each engine, started when it
/// first plays, playing units from the queue until it is empty or stopped.
/// `count` workers taking units from `queue`; the finished games arrive on
/// the receiver, which closes when the last worker is done.
pub(super) fn spawn_workers<G: Game>(
    setup: &WorkerSetup,
    count: usize,
    queue: &Arc<UnitQueue<G>>,
) -> Result<(mpsc::Receiver<Finished>, Vec<thread::JoinHandle<()>>), String> {
    let (sender, receiver) = mpsc::channel::<Finished>();
    let workers = (0..count)
        .map(|worker| spawn_worker(setup, worker, queue.clone(), sender.clone()))
        .collect::<Result<Vec<_>, String>>()?;
    Ok((receiver, workers))
}

fn spawn_worker<G: Game>(
    setup: &WorkerSetup,
    worker: usize,
    queue: Arc<UnitQueue<G>>,
    sender: mpsc::Sender<Finished>,
) -> Result<thread::JoinHandle<()>, String> {
    let mut engines: Vec<EngineClient> = setup
        .engines
        .iter()
        .zip(setup.labels)
        .map(|(spec, label)| {
            EngineClient::new(
                spec.clone(),
                &format!("{label}.w{}", worker + 1),
                setup.timeouts.clone(),
                setup.transcript.clone(),
                setup.rule_options.to_vec(),
            )
        })
        .collect();
    thread::Builder::new()
        .name(format!("match-worker-{}", worker + 1))
        .spawn(move || {
            play_units(&queue, &mut engines, &sender);
            engines.iter_mut().for_each(EngineClient::shutdown);
        })
        .map_err(|e| format!("cannot start a worker thread: {e}"))
}

/// The two engines a game needs, as player 1 and player 2 (distinct).
fn seat(engines: &mut [EngineClient], [p1, p2]: [usize; 2]) -> [&mut EngineClient; 2] {
    let (low, high) = (p1.min(p2), p1.max(p2));
    let (head, tail) = engines.split_at_mut(high);
    let (low, high) = (&mut head[low], &mut tail[0]);
    if p1 < p2 {
        [low, high]
    } else {
        [high, low]
    }
}

/// Plays the games of each unit taken from the queue, the unit's first
/// engine as player 1 in its first game, and sends each on as it ends.
fn play_units<G: Game>(
    queue: &UnitQueue<G>,
    engines: &mut [EngineClient],
    sender: &mpsc::Sender<Finished>,
) {
    while let Some(unit) = queue.units.get(queue.next.fetch_add(1, Ordering::SeqCst)) {
        for (index, &game) in unit.games.iter().enumerate() {
            if queue.stop.load(Ordering::SeqCst) {
                return;
            }
            let [a, b] = unit.engines;
            let seats = if index == 0 { [a, b] } else { [b, a] };
            let mut overhead = Overhead::default();
            let mut ponder = [PonderCount::default(); 2];
            let record = play_game::<G>(
                &queue.rules,
                &queue.openings[unit.opening],
                game + 1,
                seat(engines, seats),
                &queue.settings,
                &mut overhead,
                &mut ponder,
            );
            // Swap2 lets the engines choose their colours: the seats follow.
            let turned = record.swap2.as_ref().is_some_and(|s| s.proposer_white);
            let seats = if turned { [seats[1], seats[0]] } else { seats };
            let finished = Finished {
                game,
                record,
                overhead,
                ponder,
                seats,
            };
            if sender.send(finished).is_err() {
                return;
            }
        }
    }
}

/// Counts the games as they finish, writes their records, reports progress
/// and raises `stop` once the SPRT decides.
fn gather_results(
    config: &MatchConfig,
    labels: &[String; 2],
    receiver: mpsc::Receiver<Finished>,
    mut records: RecordsFile,
    stop: &AtomicBool,
    my_games: usize,
) -> Result<MatchSummary, String> {
    // A slice plays all its games: the SPRT decides on the merged whole.
    let sprt = config.sprt.filter(|_| config.shard.is_none());
    let name = |index: usize| {
        config.engines[index]
            .name
            .clone()
            .unwrap_or_else(|| labels[index].clone())
    };
    let mut summary = MatchSummary::named([name(0), name(1)]);
    let interactive = std::io::stderr().is_terminal();
    let mut widest_line = 0;
    for (done, finished) in receiver.into_iter().enumerate() {
        records.write(&finished.record)?;
        count_game(config, &mut summary, finished, sprt.as_ref());
        if summary
            .sprt
            .is_some_and(|(_, decision)| decision != SprtDecision::Continue)
        {
            stop.store(true, Ordering::SeqCst);
        }
        if !config.quiet {
            progress(&summary, done + 1, my_games, interactive, &mut widest_line);
        }
    }
    if interactive && !config.quiet {
        eprintln!();
    }
    Ok(summary)
}

fn count_game(
    config: &MatchConfig,
    summary: &mut MatchSummary,
    finished: Finished,
    sprt: Option<&SprtConfig>,
) {
    let Finished {
        game,
        record,
        overhead,
        ponder,
        seats,
    } = finished;
    for (player, engine) in seats.into_iter().enumerate() {
        summary.ponder[engine].add(ponder[player]);
        // The engine's own name (from `id name`) once it is known.
        if config.engines[engine].name.is_none() && !record.players[player].is_empty() {
            summary.names[engine] = record.players[player].clone();
        }
    }
    summary.add_game(game, &record, sprt);
    add_overhead(&mut summary.overhead, overhead);
    log_game_end(game, &record);
}

pub(super) fn add_overhead(total: &mut Overhead, game: Overhead) {
    total.moves += game.moves;
    total.engine_time += game.engine_time;
    total.referee_time += game.referee_time;
}

/// The game ends the summary counts without a reason are worth a line of
/// the log, and a disagreement about the result a warning.
pub(super) fn log_game_end(game: usize, record: &GameRecord) {
    if record.result.termination != Termination::Rules {
        log::info!("game {}: {}", game + 1, record.result.reason);
    }
    for note in &record.notes {
        log::warn!("game {}: {note}", game + 1);
    }
}

/// The default records file name for a game.
pub fn default_records_path(game: &str) -> String {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format!(
        "referee-{game}-{stamp}.{}",
        RecordFormat::for_game(game).extension()
    )
}
