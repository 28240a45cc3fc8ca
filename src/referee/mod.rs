//! The referee: matches between engines (ours and other communities'),
//! refereed with the project's own rules; human play in a terminal; game
//! records; statistics; and a protocol compliance check.
//!
//! Layers, bottom up: `process` (an engine process and its group),
//! `client` with the dialects `ugi`, `gtp`, `pbrain`; `timecontrol`,
//! `openings`, `adjudication`; `play` (one game), `schedule` (who plays
//! whom on which opening), `tournament` (a match, and the workers that any
//! schedule uses) and `pool` (a round-robin or gauntlet of more engines);
//! `stats`, `summary` and `table` (results), `record`, `transcript`;
//! `human` and `compliance` beside them.

pub mod adjudication;
pub mod cli;
pub mod client;
pub mod compliance;
pub mod gtp;
pub mod human;
pub mod openings;
pub mod pbrain;
pub mod play;
pub mod pool;
pub mod process;
pub mod protocol;
pub mod record;
pub mod schedule;
pub mod stats;
pub mod summary;
pub mod swap2;
pub mod table;
pub mod timecontrol;
pub mod tournament;
pub mod transcript;
pub mod ugi;
pub mod watchdog;

use std::sync::Arc;

use crate::core::Presentation;
use crate::registry::{GameEntry, GameList, GameVisitor, ProjectGames};

use self::pool::{run_tournament, TournamentConfig};
use self::stats::SprtConfig;
use self::summary::{read_slices, summary_of_games};
use self::table::{format_table, table_json, table_of_games, Table};
use self::tournament::{default_records_path, format_summary, run_match, MatchConfig};
use self::transcript::Transcript;

/// Runs the referee on the project's games with these arguments (without
/// the program name); returns the process exit code.
pub fn main_with_args(args: &[String]) -> i32 {
    main_with::<ProjectGames>(args)
}

/// Runs the referee on the games of `L`, as `main_with_args` does. The
/// referee restarts its own executable as its watchdog (`--watchdog`), so
/// an executable that calls this passes that argument on to it too.
pub fn main_with<L: GameList>(args: &[String]) -> i32 {
    if args.first().map(String::as_str) == Some("--watchdog") {
        watchdog::run();
        return 0;
    }
    let cli = match cli::parse(args, &L::names()) {
        Ok(cli::Invocation::Play(cli)) => cli,
        Ok(cli::Invocation::Merge {
            sprt,
            files,
            results,
        }) => return merge(sprt.as_ref(), &files, results.as_deref()),
        Err(refusal) if refusal.exit_code == 0 => {
            print!("{}", refusal.text);
            return 0;
        }
        Err(refusal) => {
            eprint!("{}", refusal.text);
            return refusal.exit_code;
        }
    };
    if let Err(e) = watchdog::start() {
        log::warn!("{e}; engines may outlive an interrupted referee");
    }
    let result = L::visit(&cli.game, Referee(cli.as_ref()))
        .unwrap_or_else(|| Err(format!("unknown or unavailable game '{}'", cli.game)));
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("referee: {e}");
            1
        }
    }
}

/// `bg-referee merge [--sprt ...] [--results FILE] FILE...`: one summary
/// from the JSON-line records of a run's slices: a match's when they name
/// two engines, a tournament's table when more.
fn merge(sprt: Option<&SprtConfig>, files: &[String], results: Option<&str>) -> i32 {
    let games = match read_slices(files) {
        Ok(games) => games,
        Err(e) => {
            eprintln!("bg-referee merge: {e}");
            return 1;
        }
    };
    let mut names: Vec<&String> = games.values().flat_map(|g| &g.players).collect();
    names.sort();
    names.dedup();
    if names.len() <= 2 {
        if results.is_some() {
            eprintln!("error: --results writes a tournament's table; these records are a match");
            return 2;
        }
        let summary = summary_of_games(&games, sprt);
        print!("{}", format_summary(&summary, sprt));
        return 0;
    }
    if sprt.is_some() {
        eprintln!(
            "error: --sprt tests two engines; these records name {}",
            names.len()
        );
        return 2;
    }
    match print_table(&table_of_games(&games), results) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("bg-referee merge: {e}");
            1
        }
    }
}

/// The table on stdout, and as JSON in `results` if given.
fn print_table(table: &Table, results: Option<&str>) -> Result<(), String> {
    print!("{}", format_table(table));
    if let Some(path) = results {
        std::fs::write(path, table_json(table))
            .map_err(|e| format!("cannot write '{path}': {e}"))?;
        println!("Results: {path}");
    }
    Ok(())
}

/// The referee's work for the game `--game` names.
struct Referee<'a>(&'a cli::Cli);

impl GameVisitor for Referee<'_> {
    type Output = Result<i32, String>;
    fn visit<E: GameEntry>(self) -> Result<i32, String> {
        run::<E::Rules>(self.0)
    }
}

fn run<G: Presentation>(cli: &cli::Cli) -> Result<i32, String> {
    let rules = tournament::build_rules::<G>(&cli.rule_options)?;
    if let Some(command) = &cli.compliance {
        let results = compliance::check::<G>(
            command,
            cli.compliance_proto,
            &rules,
            &cli.rule_options,
            cli.timing_scale,
        );
        return Ok(compliance::report(&results));
    }
    if let Some(side) = &cli.human {
        let setup = human::HumanGame {
            game_name: &cli.game,
            side: side.clone(),
            engines: &cli.engines,
            rule_options: &cli.rule_options,
            timeouts: cli.timeouts.clone(),
            board_size: cli::board_size::<G>(&cli.rule_options),
            records: cli.records.clone(),
            header: cli.record_header::<G>(),
        };
        return human::play::<G>(&setup, &rules);
    }
    let transcript = match &cli.log {
        Some(path) => Some(Arc::new(Transcript::create(path)?)),
        None => None,
    };
    let records = if cli.no_records {
        None
    } else {
        Some(
            cli.records
                .clone()
                .unwrap_or_else(|| default_records_path(&cli.game)),
        )
    };
    if let Some(kind) = cli.tournament {
        let config = TournamentConfig {
            kind,
            engines: cli.engines.clone(),
            games_per_pair: cli.games,
            concurrency: cli.concurrency,
            openings: cli.openings_for::<G>(),
            settings: game_settings::<G>(cli),
            records: records.clone(),
            transcript,
            rule_options: cli.rule_options.clone(),
            timeouts: cli.timeouts.clone(),
            quiet: cli.quiet,
            shard: cli.shard,
        };
        let table = run_tournament::<G>(&config)?;
        print_table(&table, cli.results.as_deref())?;
    } else {
        let config = MatchConfig {
            engines: [cli.engines[0].clone(), cli.engines[1].clone()],
            games: cli.games,
            concurrency: cli.concurrency,
            openings: cli.openings_for::<G>(),
            first_pair: 0,
            settings: game_settings::<G>(cli),
            sprt: cli.sprt,
            records: records.clone(),
            transcript,
            rule_options: cli.rule_options.clone(),
            timeouts: cli.timeouts.clone(),
            quiet: cli.quiet,
            shard: cli.shard,
        };
        let summary = run_match::<G>(&config)?;
        print!("{}", format_summary(&summary, cli.sprt.as_ref()));
    }
    if let Some(path) = records {
        println!("Records: {path}");
    }
    Ok(0)
}

fn game_settings<G: Presentation>(cli: &cli::Cli) -> play::GameSettings {
    play::GameSettings {
        max_plies: cli.max_plies,
        board_size: cli::board_size::<G>(&cli.rule_options),
        header: cli.record_header::<G>(),
        swap2: cli.opening_rule == cli::OpeningRule::Swap2,
    }
}
