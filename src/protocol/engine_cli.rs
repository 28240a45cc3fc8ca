//! The engines' command line: no argument speaks the protocol on stdin (as
//! GUIs and the referee start an engine); subcommands run the tools every
//! engine has, and a game's binary may add tools of its own.

use clap::{ArgMatches, Parser, Subcommand};

use super::{init_logging, run_ugi, selfplay, spawn_stdin_reader, ugi};
use crate::core::presentation::Presentation;
use crate::engine::EngineProfile;

/// The tools of every engine binary.
#[derive(Subcommand, Debug, Clone, PartialEq, Eq)]
pub enum EngineTool {
    /// Searches the bench positions to a fixed depth; prints nodes, time and
    /// the signature.
    Bench {
        /// Search depth in plies.
        #[arg(default_value_t = ugi::DEFAULT_BENCH_DEPTH,
              value_parser = clap::value_parser!(u32).range(1..))]
        depth: u32,
        /// An engine option set first, `NAME=VALUE` (repeat for more), e.g.
        /// `--option Evaluation=classical`.
        #[arg(long = "option", value_parser = parse_option)]
        options: Vec<(String, String)>,
    },
    /// Shows a game of the engine against itself, move by move.
    Selfplay {
        /// Thinking time a move, in milliseconds.
        #[arg(default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
        movetime_ms: u64,
    },
}

impl EngineTool {
    pub fn run<G: Presentation, K: EngineProfile<G>>(&self) {
        match self {
            EngineTool::Bench { depth, options } => ugi::bench::<G, K>(*depth, options),
            EngineTool::Selfplay { movetime_ms } => {
                selfplay::selfplay::<G, K>(std::time::Duration::from_millis(*movetime_ms))
            }
        }
    }
}

/// `NAME=VALUE`, split at the first `=`.
fn parse_option(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(name, value)| (name.trim().to_owned(), value.to_owned()))
        .filter(|(name, _)| !name.is_empty())
        .ok_or_else(|| format!("'{text}' is not NAME=VALUE"))
}

/// A plain engine's command line: the common tools only.
#[derive(Parser, Debug)]
#[command(about = "A game engine speaking UGI/UCI on stdin and stdout when given no command")]
struct PlainEngineArgs {
    #[command(subcommand)]
    tool: Option<EngineTool>,
}

/// Parses the process's arguments as `A`, the program shown as `name`; on
/// `--help` prints it and exits 0, on a usage error explains and exits 2.
pub fn parse_or_exit<A: Parser>(name: &'static str) -> A {
    parse_from(name, std::env::args_os()).unwrap_or_else(|error| error.exit())
}

/// As `parse_or_exit`, from given arguments (the program name first).
pub fn parse_from<A, I, T>(name: &'static str, args: I) -> Result<A, clap::Error>
where
    A: Parser,
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches: ArgMatches = A::command()
        .name(format!("bg-{name}"))
        .version(env!("CARGO_PKG_VERSION"))
        .try_get_matches_from(args)?;
    A::from_arg_matches(&matches)
}

/// What a plain game binary's `main` does: `<game> bench [depth]`,
/// `<game> selfplay [movetime-ms]`, or with no argument the UGI loop.
pub fn run_engine_main<G: Presentation, K: EngineProfile<G>>() {
    init_logging();
    let args: PlainEngineArgs = parse_or_exit(G::NAME);
    match args.tool {
        Some(tool) => tool.run::<G, K>(),
        None => run_ugi::<G, K>(spawn_stdin_reader(), Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<PlainEngineArgs, clap::Error> {
        parse_from(
            "engine",
            std::iter::once("engine").chain(args.iter().copied()),
        )
    }

    #[test]
    fn tools_take_their_numbers_or_defaults_and_refuse_bad_ones() {
        assert_eq!(parse(&[]).unwrap().tool, None);
        let bench = parse(&["bench"]).unwrap().tool;
        let depth = ugi::DEFAULT_BENCH_DEPTH;
        let options = Vec::new();
        assert_eq!(bench, Some(EngineTool::Bench { depth, options }));
        let bench = parse(&["bench", "6", "--option", "Evaluation=classical"]);
        let options = vec![("Evaluation".to_owned(), "classical".to_owned())];
        assert_eq!(
            bench.unwrap().tool,
            Some(EngineTool::Bench { depth: 6, options })
        );
        let selfplay = parse(&["selfplay", "250"]).unwrap().tool;
        assert_eq!(selfplay, Some(EngineTool::Selfplay { movetime_ms: 250 }));
        for bad in [
            &["bench", "abc"][..],
            &["bench", "0"],
            &["bench", "--option", "Evaluation"],
            &["selfplay", "-1"],
            &["fly"],
        ] {
            let error = parse(bad).unwrap_err();
            assert_eq!(error.exit_code(), 2, "{bad:?}");
        }
        assert_eq!(parse(&["--help"]).unwrap_err().exit_code(), 0);
        let version = parse(&["--version"]).unwrap_err();
        assert_eq!(version.kind(), clap::error::ErrorKind::DisplayVersion);
        let shown = version.render().to_string();
        assert_eq!(
            shown.trim(),
            format!("bg-engine {}", env!("CARGO_PKG_VERSION"))
        );
    }
}
