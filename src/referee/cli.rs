//! The referee's command line.

use std::sync::Arc;
use std::time::Duration;

use super::client::{EngineSpec, Proto, Timeouts};
use super::openings::OpeningSource;
use super::stats::SprtConfig;
use super::tournament::Shard;
use crate::core::{Game, OptionKind, Player};

pub const USAGE: &str = "\
usage:
  referee --game <breakthrough|hex|gomoku|cavalo> --engine cmd=<command> [name=N] [proto=ugi|uci|gtp|pbrain]
          [option.X=V] [st=S] [tc=[M/]B[+I]] [depth=D] [nodes=N] [timemargin=MS] [dir=D] [ponder=true]
          --engine ... [--ponder] [--games N] [--concurrency K] [--openings FILE|random:N[:SEED]|boards[:SEED]] [--seed S]
          [--maxmoves PLIES] [--rule X=V]... [--sprt elo0=E0 elo1=E1 alpha=A beta=B]
          [--records FILE | --no-records] [--log FILE] [--ready-timeout MS] [--ping MS] [--grace MS] [--quiet]
          [--shard K/N]
  referee merge [--sprt elo0=E0 elo1=E1 alpha=A beta=B] FILE...
  referee --game <game> --human <p1|p2|black|white|both|none> [--engine ...] [--records FILE] [--rule X=V]
  referee --game <game> --compliance <command> [--proto ugi|uci] [--timing-scale N]
";

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
    fn parse(text: &str) -> Result<Self, String> {
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

#[derive(Clone, Debug)]
pub struct Cli {
    pub game: String,
    pub engines: Vec<Arc<EngineSpec>>,
    pub games: usize,
    pub concurrency: usize,
    pub openings: OpeningSource,
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
    /// `--timing-scale N`: the compliance check's time limits times N.
    pub timing_scale: u32,
}

fn number<T: std::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    value
        .parse()
        .map_err(|_| format!("{flag}: '{value}' is not a valid number"))
}

pub fn parse(args: &[String]) -> Result<Cli, String> {
    let mut cli = Cli {
        game: String::new(),
        engines: Vec::new(),
        games: 2,
        concurrency: 1,
        openings: OpeningSource::StartPosition,
        max_plies: None,
        rule_options: Vec::new(),
        sprt: None,
        records: None,
        no_records: false,
        log: None,
        timeouts: Timeouts::default(),
        quiet: false,
        human: None,
        compliance: None,
        compliance_proto: Proto::Ugi,
        shard: None,
        timing_scale: 1,
    };
    let mut openings_text: Option<String> = None;
    let mut seed: u64 = 1;
    let mut human_text: Option<String> = None;
    let mut ponder = false;
    let mut i = 0;
    let value = |i: usize| args.get(i + 1);
    while i < args.len() {
        let flag = args[i].as_str();
        match flag {
            "--engine" | "--sprt" => {
                let mut words = Vec::new();
                while let Some(word) = args.get(i + 1).filter(|w| !w.starts_with("--")) {
                    words.push(word.clone());
                    i += 1;
                }
                if flag == "--engine" {
                    cli.engines.push(Arc::new(EngineSpec::parse(&words)?));
                } else {
                    cli.sprt = Some(SprtConfig::parse(&words)?);
                }
                i += 1;
                continue;
            }
            "--quiet" => cli.quiet = true,
            "--ponder" => ponder = true,
            "--no-records" => cli.no_records = true,
            _ => {
                let v = value(i).ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
                match flag {
                    "--game" => cli.game = v.to_ascii_lowercase(),
                    "--games" => cli.games = number(flag, Some(v))?,
                    "--concurrency" => cli.concurrency = number(flag, Some(v))?,
                    "--openings" => openings_text = Some(v.clone()),
                    "--seed" => seed = number(flag, Some(v))?,
                    "--maxmoves" => cli.max_plies = Some(number(flag, Some(v))?),
                    "--rule" => {
                        let (name, value) = v
                            .split_once('=')
                            .ok_or_else(|| format!("--rule '{v}' is not X=V"))?;
                        cli.rule_options.push((name.to_owned(), value.to_owned()));
                    }
                    "--records" => cli.records = Some(v.clone()),
                    "--shard" => cli.shard = Some(Shard::parse(v)?),
                    "--timing-scale" => cli.timing_scale = number(flag, Some(v))?,
                    "--log" => cli.log = Some(v.clone()),
                    "--ready-timeout" => {
                        cli.timeouts.ready = Duration::from_millis(number(flag, Some(v))?)
                    }
                    "--ping" => {
                        cli.timeouts.ping_interval = Duration::from_millis(number(flag, Some(v))?)
                    }
                    "--grace" => cli.timeouts.grace = Duration::from_millis(number(flag, Some(v))?),
                    "--human" => human_text = Some(v.clone()),
                    "--compliance" => cli.compliance = Some(v.clone()),
                    "--proto" => cli.compliance_proto = Proto::parse(v)?,
                    _ => return Err(format!("unknown argument '{flag}'\n{USAGE}")),
                }
                i += 1;
            }
        }
        i += 1;
    }
    if cli.game.is_empty() {
        return Err(format!("--game is required\n{USAGE}"));
    }
    if let Some(text) = openings_text {
        cli.openings = OpeningSource::parse(&text, seed)?;
    } else if cli.game == "cavalo" {
        // Every pair of Jogo do Cavalo games gets a board of its own.
        cli.openings = OpeningSource::RandomBoards { seed };
    }
    if let Some(text) = human_text {
        cli.human = Some(HumanSide::parse(&text)?);
    } else if cli.compliance.is_none() && cli.engines.len() != 2 {
        return Err(format!("a match needs exactly two --engine\n{USAGE}"));
    }
    if ponder {
        for engine in cli.engines.iter_mut() {
            if engine.proto.can_ponder() {
                Arc::make_mut(engine).ponder = true;
            } else {
                log::info!("{}: GTP and pbrain engines never ponder", engine.command);
            }
        }
    }
    if cli.games == 0 || cli.concurrency == 0 {
        return Err("--games and --concurrency must be positive".to_owned());
    }
    if cli.timing_scale == 0 {
        return Err("--timing-scale must be positive".to_owned());
    }
    Ok(cli)
}

/// The board size the coordinate protocols and records need: the one
/// given, else the default of the game's own `BoardSize` rule; `None` for
/// games without one.
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

    fn args(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn a_full_match_command_parses() {
        let cli = parse(&args(
            "--game hex --engine cmd=./hex name=a depth=2 --engine cmd=./hex st=0.01 \
             --games 10 --concurrency 2 --openings random:3 --seed 5 --rule BoardSize=7 \
             --sprt elo0=0 elo1=20 --maxmoves 100",
        ))
        .unwrap();
        assert_eq!(cli.engines.len(), 2);
        assert_eq!(cli.engines[0].time.depth, Some(2));
        assert_eq!(cli.games, 10);
        assert_eq!(cli.openings, OpeningSource::Random { plies: 3, seed: 5 });
        assert_eq!(cli.sprt.unwrap().elo1, 20.0);
        assert_eq!(board_size::<Hex>(&cli.rule_options), Some(7));
        assert_eq!(board_size::<Hex>(&[]), Some(11));
        assert_eq!(board_size::<Gomoku>(&[]), Some(15));
        assert_eq!(board_size::<Breakthrough>(&[]), None);
        assert_eq!(cli.max_plies, Some(100));
    }

    #[test]
    fn ponder_is_per_engine_or_for_every_engine_that_can() {
        let one = parse(&args(
            "--game breakthrough --engine cmd=a ponder=true --engine cmd=b",
        ))
        .unwrap();
        assert_eq!(
            (one.engines[0].ponder, one.engines[1].ponder),
            (true, false)
        );
        let both = parse(&args(
            "--game hex --engine cmd=a --ponder --engine cmd=b proto=gtp ponder=true",
        ))
        .unwrap();
        assert_eq!(
            (both.engines[0].ponder, both.engines[1].ponder),
            (true, false)
        );
        assert!(parse(&args(
            "--game hex --engine cmd=a ponder=maybe --engine cmd=b"
        ))
        .is_err());
    }

    #[test]
    fn bad_commands_are_refused_with_a_reason() {
        assert!(parse(&args("--engine cmd=x --engine cmd=y")).is_err());
        assert!(parse(&args("--game hex --engine cmd=x")).is_err());
        assert!(parse(&args("--game hex --engine cmd=x --engine cmd=y --games x")).is_err());
        assert!(parse(&args("--game hex --bogus 1")).is_err());
    }

    #[test]
    fn human_colours_follow_the_game() {
        let hex = parse(&args("--game hex --human black --engine cmd=x")).unwrap();
        assert_eq!(hex.human.map(|h| h.seats::<Hex>()), Some([true, false]));
        let bt = parse(&args("--game breakthrough --human black --engine cmd=x")).unwrap();
        let black = bt.human.map(|h| h.seats::<Breakthrough>());
        assert_eq!(black, Some([false, true]));
        let both = parse(&args("--game gomoku --human both")).unwrap();
        assert_eq!(both.human, Some(HumanSide::Both));
        assert!(parse(&args("--game gomoku --human red")).is_err());
    }
}
