//! A match: game pairs (each opening with colours swapped) shared out to
//! worker threads, each with its own pair of engine processes; results,
//! records, progress and statistics gathered on the calling thread.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::core::{Game, Player};

use super::adjudication::Termination;
use super::client::{EngineClient, EngineSpec, Timeouts};
use super::openings::{openings_for_pairs, OpeningSource};
use super::play::{play_game, GameSettings, Overhead, PonderCount};
use super::record::{parse_json_lines, render, GameRecord, RecordFormat};
use super::stats::{
    llr_pentanomial, llr_trinomial, Pentanomial, SprtConfig, SprtDecision, Trinomial,
};
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

    fn holds(self, pair: usize) -> bool {
        pair % self.count == self.index
    }
}

#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub names: [String; 2],
    /// From the first engine's side.
    pub results: Trinomial,
    /// The first engine's results as player 1 and as player 2.
    pub by_colour: [Trinomial; 2],
    pub pentanomial: Pentanomial,
    pub terminations: BTreeMap<Termination, u64>,
    pub sprt: Option<(f64, SprtDecision)>,
    pub overhead: Overhead,
    pub disagreements: u64,
    pub wall_time: Duration,
    /// By engine: ponder searches and ponderhits.
    pub ponder: [PonderCount; 2],
    /// First engine's score in games whose pair is not yet complete, by pair.
    unpaired: HashMap<usize, f64>,
}

impl MatchSummary {
    /// Counts one finished game (numbered from 0; the first engine is player
    /// 1 in even games) and updates the SPRT state.
    fn add_game(&mut self, game: usize, record: &GameRecord, sprt: Option<&SprtConfig>) {
        let score = first_engine_score(game, record);
        let tally = |t: &mut Trinomial| match score {
            s if s > 0.75 => t.wins += 1,
            s if s < 0.25 => t.losses += 1,
            _ => t.draws += 1,
        };
        tally(&mut self.results);
        tally(&mut self.by_colour[game % 2]);
        if let Some(other) = self.unpaired.remove(&(game / 2)) {
            self.pentanomial.add_pair(other, score);
        } else {
            self.unpaired.insert(game / 2, score);
        }
        *self
            .terminations
            .entry(record.result.termination)
            .or_default() += 1;
        self.disagreements += record.notes.len() as u64;
        if let Some(sprt) = sprt {
            let llr = if self.pentanomial.pairs() > 0 {
                llr_pentanomial(&self.pentanomial, sprt)
            } else {
                llr_trinomial(&self.results, sprt)
            };
            self.sprt = Some((llr, sprt.decide(llr)));
        }
    }
}

struct Finished {
    game: usize,
    record: GameRecord,
    overhead: Overhead,
    /// By engine, as in the summary.
    ponder: [PonderCount; 2],
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

fn label_for(spec: &EngineSpec, fallback: &str) -> String {
    spec.name
        .as_deref()
        .unwrap_or(fallback)
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// The first engine's score in a finished game.
fn first_engine_score(game: usize, record: &GameRecord) -> f64 {
    let first_is = if game.is_multiple_of(2) {
        Player::P1
    } else {
        Player::P2
    };
    match record.result.winner {
        None => 0.5,
        Some(winner) if winner == first_is => 1.0,
        Some(_) => 0.0,
    }
}

/// A pondering engine searches while its opponent does, so a game takes
/// both engines' threads at once; more than the machine has and the
/// engines slow each other down, which the results would then measure.
fn warn_if_cores_are_short(engines: &[Arc<EngineSpec>; 2], workers: usize) {
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

pub fn run_match<G: Game>(config: &MatchConfig) -> Result<MatchSummary, String> {
    let started = Instant::now();
    let rules = build_rules::<G>(&config.rule_options)?;
    let pairs = config.games.div_ceil(2);
    let worker_count = config.concurrency.max(1).min(pairs.max(1));
    warn_if_cores_are_short(&config.engines, worker_count);
    let openings = Arc::new(openings_for_pairs::<G>(
        &config.openings,
        &rules,
        config.settings.board_size,
        config.first_pair,
        pairs,
    )?);
    // A slice's records are what `referee merge` reads: JSON lines.
    let records_format = match (&config.records, config.shard) {
        (_, Some(_)) => RecordFormat::Json,
        (Some(path), None) => RecordFormat::for_path(path, G::NAME),
        (None, None) => RecordFormat::for_game(G::NAME),
    };
    let mut records_file = match &config.records {
        Some(path) => Some(File::create(path).map_err(|e| format!("cannot create '{path}': {e}"))?),
        None => None,
    };
    let my_pairs: Arc<Vec<usize>> = Arc::new(
        (0..pairs)
            .filter(|&pair| config.shard.is_none_or(|shard| shard.holds(pair)))
            .collect(),
    );
    let my_games = my_pairs
        .iter()
        .map(|&pair| (config.games - 2 * pair).min(2))
        .sum::<usize>();
    // A slice plays all its games: the SPRT decides on the merged whole.
    let sprt = config.sprt.filter(|_| config.shard.is_none());
    let next_pair = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = mpsc::channel::<Finished>();
    let labels = [
        label_for(&config.engines[0], "engine1"),
        label_for(&config.engines[1], "engine2"),
    ];
    let mut workers = Vec::new();
    for worker in 0..worker_count {
        let make_client = |index: usize| {
            EngineClient::new(
                config.engines[index].clone(),
                &format!("{}.w{}", labels[index], worker + 1),
                config.timeouts.clone(),
                config.transcript.clone(),
                config.rule_options.clone(),
            )
        };
        let mut first = make_client(0);
        let mut second = make_client(1);
        let rules = rules.clone();
        let openings = openings.clone();
        let my_pairs = my_pairs.clone();
        let next_pair = next_pair.clone();
        let stop = stop.clone();
        let sender = sender.clone();
        let settings = config.settings.clone();
        let games = config.games;
        let handle = thread::Builder::new()
            .name(format!("match-worker-{}", worker + 1))
            .spawn(move || {
                'pairs: while let Some(&pair) =
                    my_pairs.get(next_pair.fetch_add(1, Ordering::SeqCst))
                {
                    for game in [2 * pair, 2 * pair + 1] {
                        if game >= games || stop.load(Ordering::SeqCst) {
                            break 'pairs;
                        }
                        let mut overhead = Overhead::default();
                        let mut by_player = [PonderCount::default(); 2];
                        let engines = if game % 2 == 0 {
                            [&mut first, &mut second]
                        } else {
                            [&mut second, &mut first]
                        };
                        let record = play_game::<G>(
                            &rules,
                            &openings[pair],
                            game + 1,
                            engines,
                            &settings,
                            &mut overhead,
                            &mut by_player,
                        );
                        let ponder = if game % 2 == 0 {
                            by_player
                        } else {
                            [by_player[1], by_player[0]]
                        };
                        if sender
                            .send(Finished {
                                game,
                                record,
                                overhead,
                                ponder,
                            })
                            .is_err()
                        {
                            break 'pairs;
                        }
                    }
                }
                first.shutdown();
                second.shutdown();
            })
            .map_err(|e| format!("cannot start a worker thread: {e}"))?;
        workers.push(handle);
    }
    drop(sender);

    let mut summary = MatchSummary {
        names: [
            config.engines[0]
                .name
                .clone()
                .unwrap_or_else(|| labels[0].clone()),
            config.engines[1]
                .name
                .clone()
                .unwrap_or_else(|| labels[1].clone()),
        ],
        ..MatchSummary::default()
    };
    let mut done = 0usize;
    let interactive = std::io::stderr().is_terminal();
    let mut widest_line = 0;
    for finished in receiver {
        done += 1;
        let Finished {
            game,
            record,
            overhead,
            ponder,
        } = finished;
        for (total, count) in summary.ponder.iter_mut().zip(ponder) {
            total.add(count);
        }
        if let Some(file) = records_file.as_mut() {
            file.write_all(render(&record, records_format).as_bytes())
                .and_then(|_| file.flush())
                .map_err(|e| format!("cannot write the records: {e}"))?;
        }
        // The engine's own name (from `id name`) once it is known.
        let first_index = game % 2;
        if config.engines[0].name.is_none() && !record.players[first_index].is_empty() {
            summary.names[0] = record.players[first_index].clone();
        }
        if config.engines[1].name.is_none() && !record.players[1 - first_index].is_empty() {
            summary.names[1] = record.players[1 - first_index].clone();
        }
        summary.add_game(game, &record, sprt.as_ref());
        summary.overhead.moves += overhead.moves;
        summary.overhead.engine_time += overhead.engine_time;
        summary.overhead.referee_time += overhead.referee_time;
        if record.result.termination != Termination::Rules {
            log::info!("game {}: {}", game + 1, record.result.reason);
        }
        for note in &record.notes {
            log::warn!("game {}: {note}", game + 1);
        }
        if summary
            .sprt
            .is_some_and(|(_, decision)| decision != SprtDecision::Continue)
        {
            stop.store(true, Ordering::SeqCst);
        }
        if !config.quiet {
            progress(&summary, done, my_games, interactive, &mut widest_line);
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    if interactive && !config.quiet {
        eprintln!();
    }
    summary.wall_time = started.elapsed();
    Ok(summary)
}

const PROGRESS_BAR: anstyle::Style = anstyle::AnsiColor::Green.on_default();

/// On a terminal one line rewritten in place, padded with spaces to the
/// widest line so far (an erase code would be stripped with the colour
/// under `NO_COLOR`); elsewhere a line every tenth of the match.
fn progress(
    summary: &MatchSummary,
    done: usize,
    total: usize,
    interactive: bool,
    widest_line: &mut usize,
) {
    let r = &summary.results;
    let defined = r.score() > 0.0 && r.score() < 1.0;
    let elo = r
        .elo()
        .filter(|_| defined)
        .map(|e| format!("Elo {:+.1} +/- {}", e.elo, margin_text(e.margin)))
        .unwrap_or_default();
    let status = format!(
        "{done}/{total} {} {}-{}-{} [{:.3}] {elo}",
        summary.names[0],
        r.wins,
        r.losses,
        r.draws,
        r.score()
    );
    if interactive {
        let width = 30;
        let filled = (done * width / total.max(1)).min(width);
        let bar = format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled));
        let length = bar.len() + 1 + status.chars().count();
        *widest_line = length.max(*widest_line);
        let padding = " ".repeat(*widest_line - length);
        anstream::eprint!("\r{PROGRESS_BAR}{bar}{PROGRESS_BAR:#} {status}{padding}");
    } else if done == total || done.is_multiple_of((total / 10).max(1)) {
        eprintln!("{status}");
    }
}

/// An interval that reaches a 0% or 100% score has no finite Elo end.
fn margin_text(margin: f64) -> String {
    if margin > 1000.0 {
        "inf".to_owned()
    } else {
        format!("{margin:.1}")
    }
}

/// The final summary, as printed on stdout.
pub fn format_summary(summary: &MatchSummary, sprt: Option<&SprtConfig>) -> String {
    let [a, b] = &summary.names;
    let r = &summary.results;
    let mut out = String::new();
    out.push_str(&format!(
        "Score of {a} vs {b}: {} - {} - {} [{:.3}] {}\n",
        r.wins,
        r.losses,
        r.draws,
        r.score(),
        r.games()
    ));
    for (index, colour) in ["p1", "p2"].iter().enumerate() {
        let c = &summary.by_colour[index];
        out.push_str(&format!(
            "{a} as {colour}: {} - {} - {} [{:.3}] {}\n",
            c.wins,
            c.losses,
            c.draws,
            c.score(),
            c.games()
        ));
    }
    match r.elo() {
        Some(e) if r.wins + r.losses > 0 && r.score() > 0.0 && r.score() < 1.0 => out.push_str(
            &format!("Elo difference: {:+.1} +/- {:.1} (95%)", e.elo, e.margin),
        ),
        _ => out.push_str("Elo difference: undefined (score 0% or 100%, or no decisive game)"),
    }
    if let Some(los) = r.los() {
        out.push_str(&format!(", LOS: {:.1} %", los * 100.0));
    }
    out.push('\n');
    let p = &summary.pentanomial;
    if p.pairs() > 0 {
        out.push_str(&format!(
            "Pentanomial [0, 0.5, 1, 1.5, 2]: {:?} ({} pairs)",
            p.0,
            p.pairs()
        ));
        if let Some(e) = p
            .elo()
            .filter(|_| p.0[0] + p.0[1] + p.0[2] + p.0[3] > 0 && p.0[1..].iter().sum::<u64>() > 0)
        {
            out.push_str(&format!(
                ", Elo {:+.1} +/- {}",
                e.elo,
                margin_text(e.margin)
            ));
        }
        out.push('\n');
    }
    if let (Some((llr, decision)), Some(config)) = (summary.sprt, sprt) {
        let (lower, upper) = config.bounds();
        let verdict = match decision {
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::Continue => "no decision",
        };
        out.push_str(&format!(
            "SPRT (elo0 {}, elo1 {}): LLR {llr:.2} ({lower:.2}, {upper:.2}) {verdict}\n",
            config.elo0, config.elo1
        ));
    }
    let kinds: Vec<String> = Termination::ALL
        .iter()
        .map(|t| {
            format!(
                "{} {}",
                t.keyword(),
                summary.terminations.get(t).copied().unwrap_or(0)
            )
        })
        .collect();
    out.push_str(&format!("Game ends: {}\n", kinds.join(", ")));
    if summary.disagreements > 0 {
        out.push_str(&format!(
            "Result disagreements (engine 'query result' vs referee): {}\n",
            summary.disagreements
        ));
    }
    if summary.ponder.iter().any(|p| p.searches > 0) {
        let [pa, pb] = summary.ponder;
        out.push_str(&format!(
            "Ponderhits: {a} {}/{}, {b} {}/{}\n",
            pa.hits, pa.searches, pb.hits, pb.searches
        ));
    }
    let o = &summary.overhead;
    if o.moves > 0 {
        out.push_str(&format!(
            "Moves: {}, engine time {:.3} ms/move, referee overhead {:.3} ms/move, wall {:.1} s\n",
            o.moves,
            o.engine_time.as_secs_f64() * 1000.0 / o.moves as f64,
            o.referee_time.as_secs_f64() * 1000.0 / o.moves as f64,
            summary.wall_time.as_secs_f64()
        ));
    }
    out
}

/// `referee merge`: the summary of a match from its slices' JSON-line
/// records (`--shard K/N ... --records F`), as one run of the whole match
/// would give it: scores, by colour, Elo, pentanomial, game ends and, with
/// `sprt`, its state once every game is counted. Engine and referee times
/// and ponder counts are not in the records and are left out. A game found
/// twice is an error.
pub fn merge_records(paths: &[String], sprt: Option<&SprtConfig>) -> Result<MatchSummary, String> {
    let mut games: BTreeMap<usize, GameRecord> = BTreeMap::new();
    for path in paths {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        for record in parse_json_lines(&text).map_err(|e| format!("{path}: {e}"))? {
            let game = record
                .round
                .checked_sub(1)
                .ok_or_else(|| format!("{path}: a record has no game number"))?;
            if games.insert(game, record).is_some() {
                return Err(format!("{path}: game {} is in two records", game + 1));
            }
        }
    }
    let mut summary = MatchSummary::default();
    for (&game, record) in &games {
        let first_index = game % 2;
        for (name, index) in summary.names.iter_mut().zip([first_index, 1 - first_index]) {
            if name.is_empty() {
                name.clone_from(&record.players[index]);
            }
        }
        summary.add_game(game, record, sprt);
    }
    Ok(summary)
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
