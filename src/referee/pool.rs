//! A tournament of a pool of engines: a round-robin or a gauntlet played
//! by the match's workers (each with its own process of every engine it
//! plays), the games tallied into the table as they finish.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::Arc;
use std::time::Instant;

use crate::core::Game;

use super::client::{EngineSpec, Timeouts};
use super::openings::{openings_for_pairs, OpeningSource};
use super::play::GameSettings;
use super::schedule::{units, TournamentKind};
use super::summary::progress_line;
use super::table::{progress_status, Table};
use super::tournament::{
    add_overhead, build_rules, label_for, log_game_end, my_units, spawn_workers,
    warn_if_cores_are_short, Finished, RecordsFile, Shard, UnitQueue, WorkerSetup,
};
use super::transcript::Transcript;

pub struct TournamentConfig {
    pub kind: TournamentKind,
    pub engines: Vec<Arc<EngineSpec>>,
    /// Games each pair of engines plays, on the same openings.
    pub games_per_pair: usize,
    pub concurrency: usize,
    pub openings: OpeningSource,
    pub settings: GameSettings,
    pub records: Option<String>,
    pub transcript: Option<Arc<Transcript>>,
    pub rule_options: Vec<(String, String)>,
    pub timeouts: Timeouts,
    pub quiet: bool,
    /// `--shard K/N`: the units whose number leaves K - 1 divided by N.
    pub shard: Option<Shard>,
}

pub fn run_tournament<G: Game>(config: &TournamentConfig) -> Result<Table, String> {
    let started = Instant::now();
    let rules = build_rules::<G>(&config.rule_options)?;
    let pairs = config.kind.engine_pairs(config.engines.len());
    let my_units = my_units(units(&pairs, config.games_per_pair), config.shard);
    let my_games = my_units.iter().map(|unit| unit.games.len()).sum::<usize>();
    let worker_count = config.concurrency.max(1).min(my_units.len().max(1));
    warn_of_the_busiest_pair(config, &pairs, worker_count);
    let openings = openings_for_pairs::<G>(
        &config.openings,
        &rules,
        config.settings.board_size,
        0,
        config.games_per_pair.div_ceil(2),
    )?;
    let mut records = RecordsFile::create::<G>(&config.records, config.shard)?;
    let queue = Arc::new(UnitQueue::<G> {
        rules,
        openings,
        units: my_units,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        settings: config.settings.clone(),
    });
    let labels: Vec<String> = (config.engines.iter().enumerate())
        .map(|(index, spec)| label_for(spec, &format!("engine{}", index + 1)))
        .collect();
    let setup = WorkerSetup {
        engines: &config.engines,
        labels: &labels,
        timeouts: &config.timeouts,
        transcript: &config.transcript,
        rule_options: &config.rule_options,
    };
    let (receiver, workers) = spawn_workers(&setup, worker_count, &queue)?;
    let mut table = Table::new(config.kind, labels);
    let interactive = std::io::stderr().is_terminal();
    let mut widest_line = 0;
    for (done, finished) in receiver.into_iter().enumerate() {
        records.write(&finished.record)?;
        count_game(config, &mut table, finished);
        if !config.quiet {
            let status = progress_status(&table, done + 1, my_games);
            progress_line(&status, done + 1, my_games, interactive, &mut widest_line);
        }
    }
    if interactive && !config.quiet {
        eprintln!();
    }
    for worker in workers {
        let _ = worker.join();
    }
    table.wall_time = started.elapsed();
    Ok(table)
}

/// The cores warning of a match, for the pair whose games need the most.
fn warn_of_the_busiest_pair(config: &TournamentConfig, pairs: &[[usize; 2]], workers: usize) {
    let pondering = |e: &EngineSpec| e.ponder && e.proto.can_ponder();
    let busiest = pairs
        .iter()
        .map(|&[a, b]| [&*config.engines[a], &*config.engines[b]])
        .filter(|pair| pair.iter().any(|e| pondering(e)))
        .max_by_key(|pair| pair.iter().map(|e| e.threads()).sum::<usize>());
    if let Some(pair) = busiest {
        warn_if_cores_are_short(pair, workers);
    }
}

fn count_game(config: &TournamentConfig, table: &mut Table, finished: Finished) {
    let Finished {
        game,
        record,
        overhead,
        ponder,
        seats,
    } = finished;
    for (player, engine) in seats.into_iter().enumerate() {
        table.ponder[engine].add(ponder[player]);
        // The engine's own name (from `id name`) once it is known.
        if config.engines[engine].name.is_none() && !record.players[player].is_empty() {
            table.names[engine] = record.players[player].clone();
        }
    }
    table.add_game(seats, &record);
    add_overhead(&mut table.overhead, overhead);
    log_game_end(game, &record);
}
