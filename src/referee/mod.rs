//! The referee: matches between engines (ours and other communities'),
//! refereed with the project's own rules; human play in a terminal; game
//! records; statistics; and a protocol compliance check.
//!
//! Layers, bottom up: `process` (an engine process and its group),
//! `client` with the dialects `ugi`, `gtp`, `pbrain`; `timecontrol`,
//! `openings`, `adjudication`; `play` (one game), `schedule` (who plays
//! whom on which opening) and `tournament` (a match, and the workers that
//! any schedule uses);
//! `stats`, `record`, `transcript`; `human` and `compliance` beside them.

pub mod adjudication;
pub mod cli;
pub mod client;
pub mod compliance;
pub mod gtp;
pub mod human;
pub mod openings;
pub mod pbrain;
pub mod play;
pub mod process;
pub mod protocol;
pub mod record;
pub mod schedule;
pub mod stats;
pub mod summary;
pub mod timecontrol;
pub mod tournament;
pub mod transcript;
pub mod ugi;
pub mod watchdog;

use std::sync::Arc;

use crate::core::Presentation;
use crate::registry::{GameEntry, GameList, GameVisitor, ProjectGames};

use self::stats::SprtConfig;
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
        Ok(cli::Invocation::Merge { sprt, files }) => return merge(sprt.as_ref(), &files),
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

/// `bg-referee merge [--sprt ...] FILE...`: one summary from the JSON-line
/// records of a match's slices.
fn merge(sprt: Option<&SprtConfig>, files: &[String]) -> i32 {
    match tournament::merge_records(files, sprt) {
        Ok(summary) => {
            print!("{}", format_summary(&summary, sprt));
            0
        }
        Err(e) => {
            eprintln!("bg-referee merge: {e}");
            1
        }
    }
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
    let config = MatchConfig {
        engines: [cli.engines[0].clone(), cli.engines[1].clone()],
        games: cli.games,
        concurrency: cli.concurrency,
        openings: cli.openings_for::<G>(),
        first_pair: 0,
        settings: play::GameSettings {
            max_plies: cli.max_plies,
            board_size: cli::board_size::<G>(&cli.rule_options),
        },
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
    if let Some(path) = records {
        println!("Records: {path}");
    }
    Ok(0)
}
