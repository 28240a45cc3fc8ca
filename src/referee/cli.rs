//! The referee's command line.

use std::sync::Arc;
use std::time::Duration;

use super::client::{EngineSpec, Proto, Timeouts};
use super::openings::OpeningSource;
use super::record::{RecordHeader, DEFAULT_EVENT};
use super::schedule::{duplicate_name, TournamentKind};
use super::stats::SprtConfig;
use super::tournament::Shard;
use clap::builder::PossibleValuesParser;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::core::{Game, OptionKind, Player, Presentation};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HumanSide {
    P1,
    P2,
    /// `black` or `white`: which player that is, the game says.
    Colour(String),
    Both,
    Neither,
}

impl HumanSide {
    pub fn parse(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "p1" => Ok(HumanSide::P1),
            "p2" => Ok(HumanSide::P2),
            colour @ ("black" | "white") => Ok(HumanSide::Colour(colour.to_owned())),
            "both" => Ok(HumanSide::Both),
            "none" => Ok(HumanSide::Neither),
            other => Err(format!("unknown human side '{other}'")),
        }
    }

    /// Whether a person plays P1 and P2 in game `G`.
    pub fn seats<G: Game>(&self) -> [bool; 2] {
        match self {
            HumanSide::P1 => [true, false],
            HumanSide::P2 => [false, true],
            HumanSide::Colour(colour) => {
                let first = G::player_colour(Player::P1) == colour;
                [first, !first]
            }
            HumanSide::Both => [true, true],
            HumanSide::Neither => [false, false],
        }
    }
}

/// How games open besides the openings given (`--opening-rule`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningRule {
    /// The openings as given (or the start position).
    #[default]
    None,
    /// Gomoku's Swap2, asked of pbrain engines by `SWAP2BOARD`.
    Swap2,
}

impl OpeningRule {
    pub fn parse(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "none" => Ok(OpeningRule::None),
            "swap2" => Ok(OpeningRule::Swap2),
            other => Err(format!("unknown opening rule '{other}': none or swap2")),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Cli {
    pub game: String,
    pub engines: Vec<Arc<EngineSpec>>,
    pub games: usize,
    pub concurrency: usize,
    /// The openings asked for; without them the game's default
    /// (`Cli::openings_for`).
    pub openings: Option<OpeningSource>,
    /// The seed of random openings that give none of their own.
    pub seed: u64,
    pub opening_rule: OpeningRule,
    pub max_plies: Option<usize>,
    pub rule_options: Vec<(String, String)>,
    pub sprt: Option<SprtConfig>,
    pub records: Option<String>,
    pub no_records: bool,
    pub log: Option<String>,
    pub timeouts: Timeouts,
    pub quiet: bool,
    pub human: Option<HumanSide>,
    pub compliance: Option<String>,
    pub compliance_proto: Proto,
    pub shard: Option<Shard>,
    /// A round-robin or gauntlet; `None` is a match of two engines.
    pub tournament: Option<TournamentKind>,
    /// `--results FILE`: a tournament's table as JSON.
    pub results: Option<String>,
    /// `--timing-scale N`: the compliance check's time limits times N.
    pub timing_scale: u32,
    /// The records' Event (`--event`) and Site (`--site`, else the host).
    pub event: String,
    pub site: Option<String>,
}

const USAGE: &str = "\
  bg-referee --game <breakthrough|hex|gomoku|cavalo> --engine cmd=<command> [name=N] [proto=ugi|uci|gtp|pbrain]
          [option.X=V] [st=S] [tc=[M/]B[+I]] [depth=D] [nodes=N] [timemargin=MS] [dir=D] [ponder=true]
          --engine ... [--ponder] [--games N] [--concurrency K] [--openings FILE|random:N[:SEED]|boards[:SEED]] [--seed S]
          [--opening-rule none|swap2]
          [--maxmoves PLIES] [--rule X=V]... [--sprt elo0=E0 elo1=E1 alpha=A beta=B]
          [--records FILE | --no-records] [--event NAME] [--site NAME] [--log FILE] [--ready-timeout MS]
          [--ping MS] [--grace MS] [--quiet] [--shard K/N]
  bg-referee --game <game> --engine ... --engine ... --engine ... [--tournament round-robin|gauntlet]
          [--results FILE.json] [match options but --sprt]
  bg-referee merge [--sprt elo0=E0 elo1=E1 alpha=A beta=B] [--results FILE.json] FILE...
  bg-referee --game <game> --human <p1|p2|black|white|both|none> [--engine ...] [--records FILE] [--rule X=V]
  bg-referee --game <game> --compliance <command> [--proto ugi|uci] [--timing-scale N]";

/// The command line as typed; `Cli` is what it means once checked.
#[derive(Parser, Debug)]
#[command(
    name = "bg-referee",
    version,
    about = "Engine matches, human play and protocol compliance checks",
    override_usage = USAGE,
    help_template = "usage:\n  {usage}\n\n{about}\n\n{all-args}",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct RefereeArgs {
    #[command(subcommand)]
    command: Option<RefereeCommand>,
    /// The game (its choices are the game list's, set in `parse`).
    #[arg(long, required = true, ignore_case = true)]
    game: Option<String>,
    /// One engine as key=value words: cmd=COMMAND (quoted arguments kept
    /// together), name=, proto=ugi|uci|gtp|pbrain, option.X=V, st=, tc=,
    /// depth=, nodes=, timemargin=, dir=, ponder=true.
    // Grouped by occurrence from the matches, see `engine_words`.
    #[arg(long = "engine", id = ENGINE_ID, value_name = "KEY=VALUE", num_args = 1..)]
    engines: Vec<String>,
    /// Games in the match; in a tournament, games each pair of engines
    /// plays.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Games played in parallel, each with its own pair of engine processes.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    concurrency: u64,
    /// FILE, random:N[:SEED] or boards[:SEED].
    #[arg(long, value_name = "SOURCE")]
    openings: Option<String>,
    /// Seed of random openings that give none of their own.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// none, or swap2: each Gomoku game opens with Swap2 between two pbrain
    /// engines (Gomocup's SWAP2BOARD): player 1 as scheduled proposes three
    /// stones, and the engines choose their colours; each pair of games
    /// swaps the proposer.
    #[arg(long, value_name = "RULE", default_value = "none", value_parser = OpeningRule::parse)]
    opening_rule: OpeningRule,
    /// A draw after this many plies, opening included.
    #[arg(long = "maxmoves", value_name = "PLIES")]
    max_plies: Option<usize>,
    /// A rule option, e.g. BoardSize=7; repeat for more.
    #[arg(long = "rule", value_name = "X=V", value_parser = parse_rule)]
    rules: Vec<(String, String)>,
    /// Sequential test: elo0=E0 elo1=E1 alpha=A beta=B.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// Where the game records go.
    #[arg(long, value_name = "FILE", conflicts_with = "no_records")]
    records: Option<String>,
    /// Keep no game records.
    #[arg(long)]
    no_records: bool,
    /// The records' Event.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_EVENT)]
    event: String,
    /// The records' Site (default: this machine's host name).
    #[arg(long, value_name = "NAME")]
    site: Option<String>,
    /// A transcript of every line exchanged with every engine.
    #[arg(long, value_name = "FILE")]
    log: Option<String>,
    /// Milliseconds an engine has to answer isready.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    ready_timeout: u64,
    /// Milliseconds between isready checks during an untimed search.
    #[arg(long = "ping", value_name = "MS", default_value_t = 5_000)]
    ping: u64,
    /// Milliseconds between quit and a kill.
    #[arg(long, value_name = "MS", default_value_t = 1_000)]
    grace: u64,
    /// Print no progress line.
    #[arg(long)]
    quiet: bool,
    /// Every UGI/UCI engine ponders (as ponder=true on each).
    #[arg(long)]
    ponder: bool,
    /// Play a slice K of N of the match (pairs, openings and seeds as in
    /// the whole).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// round-robin (every pair; the default with three or more --engine)
    /// or gauntlet (the first engine against each of the others).
    #[arg(long, value_name = "KIND", value_parser = TournamentKind::parse)]
    tournament: Option<TournamentKind>,
    /// Write a tournament's table here as JSON.
    #[arg(long, value_name = "FILE")]
    results: Option<String>,
    /// Play in this terminal: p1, p2, black, white, both or none.
    #[arg(long, value_name = "SIDE", value_parser = HumanSide::parse)]
    human: Option<HumanSide>,
    /// Check this engine command against the protocol.
    #[arg(long, value_name = "COMMAND")]
    compliance: Option<String>,
    /// The compliance check's protocol: ugi or uci.
    #[arg(long, value_name = "PROTO", default_value = "ugi", value_parser = Proto::parse)]
    proto: Proto,
    /// Multiplies the compliance check's time limits (a loaded machine).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    timing_scale: u32,
}

#[derive(Subcommand, Debug)]
enum RefereeCommand {
    /// One summary from the JSON-line records of a match's slices.
    Merge {
        /// The SPRT to report on: elo0=E0 elo1=E1 alpha=A beta=B.
        #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
        sprt: Option<Vec<String>>,
        /// Write a tournament's table here as JSON.
        #[arg(long, value_name = "FILE")]
        results: Option<String>,
        /// The slices' records.
        #[arg(value_name = "FILE")]
        files: Vec<String>,
    },
}

const ENGINE_ID: &str = "engines";

fn parse_rule(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}' is not X=V"))?;
    Ok((name.to_owned(), value.to_owned()))
}

/// What the referee was asked to do.
#[derive(Debug)]
pub enum Invocation {
    Play(Box<Cli>),
    Merge {
        sprt: Option<SprtConfig>,
        files: Vec<String>,
        results: Option<String>,
    },
}

/// Why the command line was not run: help asked for (exit code 0) or a
/// usage error (2), with the text to show as it is.
#[derive(Debug)]
pub struct Refusal {
    pub exit_code: i32,
    pub text: String,
}

impl From<clap::Error> for Refusal {
    fn from(error: clap::Error) -> Self {
        Refusal {
            exit_code: error.exit_code(),
            text: error.render().to_string(),
        }
    }
}

impl From<String> for Refusal {
    fn from(text: String) -> Self {
        Refusal {
            exit_code: 2,
            text: format!("error: {text}\n"),
        }
    }
}

/// Reads the referee's arguments (without the program name); `--game` is
/// one of `games`.
pub fn parse(args: &[String], games: &[&'static str]) -> Result<Invocation, Refusal> {
    let program = std::iter::once("referee".to_owned());
    let command = RefereeArgs::command().mut_arg("game", |arg| {
        arg.value_parser(PossibleValuesParser::new(games.iter().copied()))
    });
    let matches = command.try_get_matches_from(program.chain(args.iter().cloned()))?;
    let typed = RefereeArgs::from_arg_matches(&matches)?;
    match typed.command {
        Some(RefereeCommand::Merge {
            sprt,
            files,
            results,
        }) => Ok(merge_invocation(sprt, files, results)?),
        None => Ok(Invocation::Play(Box::new(checked(
            typed,
            &engine_words(&matches),
        )?))),
    }
}

/// `--sprt` takes every word up to the next flag, so the files may come
/// among its words: those without `=` are files.
fn merge_invocation(
    sprt: Option<Vec<String>>,
    files: Vec<String>,
    results: Option<String>,
) -> Result<Invocation, String> {
    let (settings, mut leading_files): (Vec<String>, Vec<String>) = sprt
        .iter()
        .flatten()
        .cloned()
        .partition(|word| word.contains('='));
    leading_files.extend(files);
    if leading_files.is_empty() {
        return Err("merge: no records to merge".to_owned());
    }
    let sprt = match sprt {
        Some(_) => Some(SprtConfig::parse(&settings)?),
        None => None,
    };
    Ok(Invocation::Merge {
        sprt,
        files: leading_files,
        results,
    })
}

/// The words of each `--engine`, one list per engine (derive flattens
/// repeated multi-word flags into one list).
fn engine_words(matches: &ArgMatches) -> Vec<Vec<String>> {
    matches
        .get_occurrences::<String>(ENGINE_ID)
        .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
        .unwrap_or_default()
}

fn checked(typed: RefereeArgs, engine_words: &[Vec<String>]) -> Result<Cli, String> {
    let game = typed
        .game
        .as_deref()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let mut engines = engine_words
        .iter()
        .map(|words| EngineSpec::parse(words).map(Arc::new))
        .collect::<Result<Vec<_>, _>>()?;
    let openings = match &typed.openings {
        Some(text) => Some(OpeningSource::parse(text, typed.seed)?),
        None => None,
    };
    let tournament = if typed.human.is_none() && typed.compliance.is_none() {
        tournament_of(&typed, &engines)?
    } else if typed.tournament.is_some() || typed.results.is_some() {
        return Err("--tournament and --results are for engine matches".to_owned());
    } else {
        None
    };
    if typed.ponder {
        for engine in engines.iter_mut() {
            if engine.proto.can_ponder() {
                Arc::make_mut(engine).ponder = true;
            } else {
                log::info!("{}: GTP and pbrain engines never ponder", engine.command);
            }
        }
    }
    let sprt = match &typed.sprt {
        Some(words) => Some(SprtConfig::parse(words)?),
        None => None,
    };
    if typed.opening_rule == OpeningRule::Swap2 {
        check_swap2(&typed, &game, &engines)?;
    }
    let count = |value: u64| usize::try_from(value).map_err(|e| e.to_string());
    Ok(Cli {
        game,
        engines,
        games: count(typed.games)?,
        concurrency: count(typed.concurrency)?,
        openings,
        seed: typed.seed,
        opening_rule: typed.opening_rule,
        max_plies: typed.max_plies,
        rule_options: typed.rules,
        sprt,
        records: typed.records,
        no_records: typed.no_records,
        log: typed.log,
        timeouts: Timeouts {
            ready: Duration::from_millis(typed.ready_timeout),
            ping_interval: Duration::from_millis(typed.ping),
            grace: Duration::from_millis(typed.grace),
            ..Timeouts::default()
        },
        quiet: typed.quiet,
        human: typed.human,
        compliance: typed.compliance,
        compliance_proto: typed.proto,
        shard: typed.shard,
        tournament,
        results: typed.results,
        timing_scale: typed.timing_scale,
        event: typed.event,
        site: typed.site,
    })
}

/// Swap2 is Gomoku's, asked by the Gomocup protocol's `SWAP2BOARD`, and
/// makes the openings itself.
fn check_swap2(typed: &RefereeArgs, game: &str, engines: &[Arc<EngineSpec>]) -> Result<(), String> {
    if game != "gomoku" {
        return Err(format!("--opening-rule swap2 is for gomoku, not {game}"));
    }
    if typed.human.is_some() || typed.compliance.is_some() {
        return Err("--opening-rule swap2 is for engine matches".to_owned());
    }
    if typed.openings.is_some() {
        return Err("--opening-rule swap2 makes the openings: no --openings with it".to_owned());
    }
    match engines.iter().find(|e| !e.proto.client().can_swap2()) {
        Some(engine) => Err(format!(
            "--opening-rule swap2 needs engines that speak pbrain (proto=pbrain); {} does not",
            engine.name.as_deref().unwrap_or(&engine.command)
        )),
        None => Ok(()),
    }
}

/// What the engines play: a match (`None`) of two engines, or a tournament
/// of two or more named apart, which has no SPRT.
fn tournament_of(
    typed: &RefereeArgs,
    engines: &[Arc<EngineSpec>],
) -> Result<Option<TournamentKind>, String> {
    let kind = match (typed.tournament, engines.len()) {
        (None, 2) if typed.results.is_some() => return Err(
            "--results writes a tournament's table; for two engines add --tournament round-robin"
                .to_owned(),
        ),
        (None, 2) => return Ok(None),
        (None, n) if n < 2 => {
            return Err("a match needs two --engine, a tournament three or more".to_owned())
        }
        (None, _) => TournamentKind::RoundRobin,
        (Some(kind), n) if n < 2 => {
            return Err(format!(
                "a {} needs at least two --engine (it has {n}){}",
                kind.keyword(),
                if kind == TournamentKind::Gauntlet {
                    ": the first against each of the others"
                } else {
                    ""
                }
            ))
        }
        (Some(kind), _) => kind,
    };
    if typed.sprt.is_some() {
        return Err(format!(
            "--sprt tests one engine against one other; a {} of {} engines has none \
             (play the two to test as a match)",
            kind.keyword(),
            engines.len()
        ));
    }
    let names: Vec<String> = engines
        .iter()
        .map(|e| e.name.clone().unwrap_or_else(|| e.command.clone()))
        .collect();
    if let Some((first, second)) = duplicate_name(&names) {
        return Err(format!(
            "engines {} and {} are both called '{}': a tournament's table needs a distinct name= for each",
            first + 1,
            second + 1,
            names[first]
        ));
    }
    Ok(Some(kind))
}

/// The board size the coordinate protocols and records need: the one
/// given, else the default of the game's own `BoardSize` rule; `None` for
/// games without one.
impl Cli {
    /// The openings of a match of `G`: those asked for, or else a board of
    /// its own for each pair where the game draws its boards at random, or
    /// the start position.
    pub fn openings_for<G: Presentation>(&self) -> OpeningSource {
        match &self.openings {
            Some(openings) => openings.clone(),
            None if G::BOARD_PER_PAIR => OpeningSource::RandomBoards { seed: self.seed },
            None => OpeningSource::StartPosition,
        }
    }

    /// What every record of this run says besides its game.
    pub fn record_header<G: Game>(&self) -> RecordHeader {
        let event = match (&self.human, self.event.as_str()) {
            (Some(_), DEFAULT_EVENT) => "bg-referee human game",
            (_, event) => event,
        };
        RecordHeader::new::<G>(event, self.site.as_deref(), &self.rule_options)
    }
}

pub fn board_size<G: Game>(rule_options: &[(String, String)]) -> Option<u32> {
    let is_size = |name: &str| name.eq_ignore_ascii_case("boardsize");
    let given = rule_options
        .iter()
        .find(|(name, _)| is_size(name))
        .and_then(|(_, value)| value.parse().ok());
    let default = || {
        G::rule_options()
            .into_iter()
            .find(|option| is_size(option.name))
            .and_then(|option| match option.kind {
                OptionKind::Spin { default, .. } => u32::try_from(default).ok(),
                _ => None,
            })
    };
    given.or_else(default)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::Breakthrough;
    use crate::games::gomoku::Gomoku;
    use crate::games::hex::Hex;
    use crate::registry::{GameList, ProjectGames};

    fn args(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_owned).collect()
    }

    fn parse(text: &str) -> Result<Cli, Refusal> {
        match super::parse(&args(text), &ProjectGames::names())? {
            Invocation::Play(cli) => Ok(*cli),
            Invocation::Merge { .. } => Err(Refusal::from("a merge".to_owned())),
        }
    }

    #[test]
    fn a_full_match_command_parses() {
        let cli = parse(
            "--game hex --engine cmd=./hex name=a depth=2 --engine cmd=./hex st=0.01 \
             --games 10 --concurrency 2 --openings random:3 --seed 5 --rule BoardSize=7 \
             --sprt elo0=0 elo1=20 --maxmoves 100",
        )
        .unwrap();
        assert_eq!(cli.engines.len(), 2);
        assert_eq!(cli.engines[0].time.depth, Some(2));
        assert_eq!(cli.games, 10);
        assert_eq!(
            cli.openings,
            Some(OpeningSource::Random { plies: 3, seed: 5 })
        );
        assert_eq!(cli.sprt.unwrap().elo1, 20.0);
        assert_eq!(board_size::<Hex>(&cli.rule_options), Some(7));
        assert_eq!(board_size::<Hex>(&[]), Some(11));
        assert_eq!(board_size::<Gomoku>(&[]), Some(15));
        assert_eq!(board_size::<Breakthrough>(&[]), None);
        assert_eq!(cli.max_plies, Some(100));
    }

    #[test]
    fn ponder_is_per_engine_or_for_every_engine_that_can() {
        let one = parse("--game breakthrough --engine cmd=a ponder=true --engine cmd=b").unwrap();
        assert_eq!(
            (one.engines[0].ponder, one.engines[1].ponder),
            (true, false)
        );
        let both = parse("--game hex --engine cmd=a --ponder --engine cmd=b proto=gtp ponder=true")
            .unwrap();
        assert_eq!(
            (both.engines[0].ponder, both.engines[1].ponder),
            (true, false)
        );
        assert!(parse("--game hex --engine cmd=a ponder=maybe --engine cmd=b").is_err());
    }

    #[test]
    fn bad_commands_are_refused_with_a_reason() {
        assert!(parse("--engine cmd=x --engine cmd=y").is_err());
        assert!(parse("--game hex --engine cmd=x").is_err());
        assert!(parse("--game hex --engine cmd=x --engine cmd=y --games x").is_err());
        assert!(parse("--game hex --bogus 1").is_err());
        let zero = parse("--game hex --engine cmd=x --engine cmd=y --games 0");
        assert_eq!(zero.map(|_| ()).unwrap_err().exit_code, 2);
        let help = parse("--help").map(|_| ()).unwrap_err();
        assert_eq!(help.exit_code, 0);
        assert!(help.text.starts_with("usage:"), "{}", help.text);
    }

    #[test]
    fn three_engines_or_a_named_kind_make_a_tournament() {
        let three = "--game hex --engine cmd=a --engine cmd=b --engine cmd=c";
        assert_eq!(
            parse(three).unwrap().tournament,
            Some(TournamentKind::RoundRobin)
        );
        let two = "--game hex --engine cmd=a --engine cmd=b";
        assert_eq!(parse(two).unwrap().tournament, None);
        let gauntlet = parse(&format!("{two} --tournament gauntlet --results t.json")).unwrap();
        assert_eq!(gauntlet.tournament, Some(TournamentKind::Gauntlet));
        assert_eq!(gauntlet.results.as_deref(), Some("t.json"));
    }

    #[test]
    fn bad_tournaments_are_usage_errors() {
        let refused = |text: &str| parse(text).map(|_| ()).unwrap_err();
        for text in [
            "--game hex --engine cmd=a --tournament gauntlet",
            "--game hex --engine cmd=a name=x --engine cmd=b name=x --engine cmd=c",
            "--game hex --engine cmd=a --engine cmd=a --tournament round-robin",
            "--game hex --engine cmd=a --engine cmd=b --engine cmd=c --sprt elo0=0 elo1=5",
            "--game hex --engine cmd=a --engine cmd=b --results t.json",
            "--game hex --engine cmd=a --engine cmd=b --tournament swiss",
            "--game hex --human both --tournament gauntlet",
        ] {
            assert_eq!(refused(text).exit_code, 2, "{text}");
        }
        assert!(refused("--game hex --engine cmd=a --tournament gauntlet")
            .text
            .contains("the first against each of the others"));
    }

    #[test]
    fn merge_takes_its_files_after_or_among_the_sprt_words() {
        let merge = super::parse(
            &args("merge --sprt elo0=0 elo1=5 a.jsonl b.jsonl"),
            &ProjectGames::names(),
        )
        .unwrap();
        let Invocation::Merge { sprt, files, .. } = merge else {
            panic!("not a merge");
        };
        assert_eq!(sprt.map(|s| s.elo1), Some(5.0));
        assert_eq!(files, ["a.jsonl", "b.jsonl"]);
        assert!(super::parse(&args("merge --sprt elo0=0 elo1=5"), &ProjectGames::names()).is_err());
        assert!(super::parse(&args("merge a.jsonl --game hex"), &ProjectGames::names()).is_err());
    }

    #[test]
    fn swap2_is_for_gomoku_between_pbrain_engines() {
        let two = "--engine cmd=a proto=pbrain --engine cmd=b proto=pbrain";
        let swap2 = parse(&format!("--game gomoku {two} --opening-rule swap2")).unwrap();
        assert_eq!(swap2.opening_rule, OpeningRule::Swap2);
        assert_eq!(
            parse(&format!("--game gomoku {two}")).unwrap().opening_rule,
            OpeningRule::None
        );
        for (text, why) in [
            (
                format!("--game hex {two} --opening-rule swap2"),
                "for gomoku",
            ),
            (
                "--game gomoku --engine cmd=a proto=pbrain --engine cmd=b --opening-rule swap2"
                    .to_owned(),
                "speak pbrain",
            ),
            (
                format!("--game gomoku {two} --opening-rule swap2 --openings random:2"),
                "no --openings",
            ),
            (format!("--game gomoku {two} --opening-rule swap3"), "swap3"),
        ] {
            let refusal = parse(&text).map(|_| ()).unwrap_err();
            assert_eq!(refusal.exit_code, 2, "{text}");
            assert!(refusal.text.contains(why), "{text}: {}", refusal.text);
        }
    }

    #[test]
    fn human_colours_follow_the_game() {
        let hex = parse("--game hex --human black --engine cmd=x").unwrap();
        assert_eq!(hex.human.map(|h| h.seats::<Hex>()), Some([true, false]));
        let bt = parse("--game breakthrough --human black --engine cmd=x").unwrap();
        let black = bt.human.map(|h| h.seats::<Breakthrough>());
        assert_eq!(black, Some([false, true]));
        let both = parse("--game gomoku --human both").unwrap();
        assert_eq!(both.human, Some(HumanSide::Both));
        assert!(parse("--game gomoku --human red").is_err());
    }
}
