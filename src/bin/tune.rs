//! The `tune` executable: positions from game records, Texel tuning of an
//! evaluation's weight table, SPSA over any UGI engine's spin options, and
//! the fit of a game's win/draw/loss model to its results.
//! Games come from the referee (`--records games.jsonl`); see README,
//! "Tuning".

use std::path::PathBuf;
use std::process::ExitCode;

use boardgames::core::nnue::network::Activation;
use boardgames::core::nnue::FeatureSet;
use boardgames::core::weights::LinearEval;
use boardgames::core::Game;
use boardgames::engine::EngineProfile;
use boardgames::games::breakthrough::network::PieceFeatures;
use boardgames::games::breakthrough::{Breakthrough, BreakthroughKnowledge};
use boardgames::games::gomoku::network::ShapeSetFeatures;
use boardgames::games::gomoku::{Gomoku, GomokuKnowledge};
use boardgames::games::hex::policy::HexPolicy;
use boardgames::games::hex::Hex;
use boardgames::referee::client::EngineSpec;
use boardgames::referee::openings::OpeningSource;
use boardgames::registry::{GameEntry, GameList, GameVisitor, LinearEvalVisitor, ProjectGames};
use boardgames::tuning::commands::{run_sample, run_texel, run_wdl, SampleJob, TexelJob, WdlJob};
use boardgames::tuning::datagen::{self, DatagenJob};
use boardgames::tuning::dataset;
use boardgames::tuning::network_command::{run_network_training, NetworkJob};
use boardgames::tuning::network_train::TrainSettings;
use boardgames::tuning::policy_fit::{run_policy_fit, IterationReport, PolicyJob, Sources, Split};
use boardgames::tuning::sample::SampleFilter;
use boardgames::tuning::spsa_run::{run_spsa, ParamRequest, SpsaJob};
use boardgames::tuning::texel::FitSettings;
use clap::builder::PossibleValuesParser;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Parser)]
#[command(
    name = "bg-tune",
    version,
    about = "Fit an engine's evaluation and options to game results"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Labelled positions from JSON-lines game records: the opening plies,
    /// forcing positions and repeats left out; each labelled with its
    /// game's result for the side to move.
    Sample {
        #[arg(long, ignore_case = true, value_parser = PossibleValuesParser::new(ProjectGames::names()))]
        game: String,
        /// A records file written by `bg-referee --records FILE.jsonl` (repeat
        /// for several).
        #[arg(long = "records", required = true)]
        records: Vec<PathBuf>,
        /// Opening plies to skip in every game.
        #[arg(long, default_value_t = 8)]
        skip: usize,
        /// Keep positions where the side to move has captures or other
        /// noisy moves (only those where it must answer a threat are
        /// dropped): the exchange terms of an evaluation are fitted there.
        #[arg(long)]
        keep_noisy: bool,
        /// A rule option as the referee takes it, `NAME=VALUE`, for records
        /// that do not name their rules (records that do are replayed
        /// under their own).
        #[arg(long = "rule", value_parser = parse_rule)]
        rules: Vec<(String, String)>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Self-play games at a fixed node count from varied openings, written
    /// game by game to a binary data file (positions, the search's scores,
    /// the results). Resumes a stopped run in the same file; `--shard K/N`
    /// plays a share of the run, so several machines can each write one.
    Datagen {
        #[arg(long, ignore_case = true, value_parser = PossibleValuesParser::new(ProjectGames::names()))]
        game: String,
        /// The data file; an existing one is continued.
        #[arg(long)]
        out: PathBuf,
        /// Games in the whole run, all shards together.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Nodes searched for every move.
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// As the referee's: an openings file, `random:N` or `boards`.
        #[arg(long, default_value = "random:4")]
        openings: String,
        /// Seeds the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long = "rule", value_parser = parse_rule)]
        rules: Vec<(String, String)>,
        /// `NAME=VALUE`: an engine option for every game (repeat for
        /// several), e.g. `MctsProgressiveBias=0`; the file does not keep it.
        #[arg(long = "set", value_parser = parse_rule)]
        options: Vec<(String, String)>,
        /// `K/N`: play the games whose number is K modulo N.
        #[arg(long, default_value = "0/1", value_parser = parse_shard)]
        shard: (u32, u32),
        /// Games played at once, one search thread each.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Plies after which a game is stopped and counted drawn.
        #[arg(long, default_value_t = boardgames::tuning::datagen::DEFAULT_MAX_PLIES)]
        max_plies: usize,
    },
    /// Trains a learned evaluation (the NNUE shape: sparse inputs of both
    /// sides, one hidden layer a side, one output) on `datagen` files, and
    /// writes the quantized network for the engine's `EvalFile`. A stopped
    /// run resumes from its checkpoint. The games with network features:
    /// Breakthrough (8x8) and Gomoku (the shape sets of the empty cells and
    /// the threat pairs, any size).
    TrainNetwork {
        #[arg(long, ignore_case = true, value_parser = PossibleValuesParser::new(["breakthrough", "gomoku"]))]
        game: String,
        /// Data files of `datagen` (repeat for several).
        #[arg(long = "data", required = true)]
        data: Vec<PathBuf>,
        /// The network file, rewritten after every epoch.
        #[arg(long)]
        out: PathBuf,
        /// The checkpoint; default: the network file's name with `.ckpt`.
        #[arg(long)]
        checkpoint: Option<PathBuf>,
        /// Start afresh even if the checkpoint exists.
        #[arg(long)]
        fresh: bool,
        /// Start from this network file's weights (the engine's built-in
        /// one, or an earlier run's) instead of random ones, where no
        /// checkpoint is resumed. A file with fewer hidden units than
        /// `--hidden` is widened: its units are copied, the function kept.
        #[arg(long)]
        init: Option<PathBuf>,
        /// Hidden units a side.
        #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=4096))]
        hidden: u64,
        /// The hidden units' activation: clamp(v, 0, 1), or its square.
        /// Default: the `--init` network's, else clipped. A checkpoint of
        /// another activation is not resumed.
        #[arg(long, value_parser = PossibleValuesParser::new(Activation::NAMES))]
        activation: Option<String>,
        #[arg(long, default_value_t = 20)]
        epochs: usize,
        /// Positions a mini-batch.
        #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
        batch: u64,
        /// Adam's learning rate.
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// The learning rate is multiplied by this every `--decay-every` epochs.
        #[arg(long, default_value_t = 0.3)]
        decay: f32,
        #[arg(long, default_value_t = 8)]
        decay_every: usize,
        /// Share of the search score in the target (the game's result has the rest).
        #[arg(long, default_value_t = 0.5)]
        score_weight: f32,
        /// Score units a unit of output; default: the game's win/draw/loss scale.
        #[arg(long)]
        scale: Option<f32>,
        /// Games numbered a multiple of this are held back to measure the loss.
        #[arg(long, default_value_t = 20)]
        held_every: u32,
        /// Train on each position's mirror image too (left and right swapped).
        #[arg(long)]
        mirror: bool,
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The loss curve as SVG.
        #[arg(long)]
        plot: Option<PathBuf>,
    },
    /// Fits a move policy's gammas (the priors of Monte Carlo search) to
    /// the moves of `datagen` games and of the referee's records by
    /// minorization-maximization, and
    /// writes them as the game's policy file (Hex: `policy.txt`). The
    /// table is rewritten after every iteration.
    FitPolicy {
        #[arg(long, ignore_case = true, value_parser = PossibleValuesParser::new(["hex"]))]
        game: String,
        /// Data files of `datagen` (repeat for several).
        #[arg(long = "data", required_unless_present = "records")]
        data: Vec<PathBuf>,
        /// JSON-lines game records of `bg-referee --records` (repeat for
        /// several): every move an engine chose, but the opening's and
        /// those after its search reported a proof.
        #[arg(long = "records")]
        records: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        iterations: u64,
        /// Values seen fewer times among the training positions' moves
        /// keep gamma 1.
        #[arg(long, default_value_t = 20)]
        min_seen: u32,
        /// Games numbered a multiple of this are held back to measure the fit.
        #[arg(long, default_value_t = 10)]
        held_every: u32,
        /// Fit on only the first N games not held back (the held-back ones
        /// stay the same): a learning curve, fit by fit.
        #[arg(long)]
        training_games: Option<usize>,
        /// Fit only these feature groups (comma-separated names, e.g.
        /// `pattern,last`); the others keep gamma 1.
        #[arg(long, value_delimiter = ',')]
        groups: Vec<String>,
        /// A line for the written file's header, saying where the games
        /// came from (repeat for several).
        #[arg(long = "note")]
        notes: Vec<String>,
        /// A policy file (e.g. the built-in one) to measure on the same
        /// held-back positions, for comparison.
        #[arg(long)]
        compare: Option<PathBuf>,
    },
    /// What a data file of `datagen` holds: games, results, positions and
    /// how many of them differ. `bg-tune sample --records` reads such
    /// files too.
    Dataset {
        /// Data files (repeat for several).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Fits the evaluation's weight table to labelled positions (Texel's
    /// method: a logistic model of the result, scale first, then Adam) and
    /// writes the table with the new numbers.
    Texel {
        #[arg(long, ignore_case = true, value_parser = PossibleValuesParser::new(ProjectGames::names()))]
        game: String,
        /// Positions from `tune sample`.
        #[arg(long)]
        positions: PathBuf,
        #[arg(long, default_value_t = 300)]
        epochs: usize,
        /// Adam's step, in weight units.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// A weight to keep as it is (repeat for several); the piece value
        /// is a good anchor. `*` stands for any run of characters:
        /// `--freeze 'waiting_*'`.
        #[arg(long = "freeze")]
        frozen: Vec<String>,
        /// Keep the weights whose feature is nonzero in fewer fitted
        /// positions than this: too little data to move them.
        #[arg(long, default_value_t = 0)]
        min_seen: usize,
        /// One position in this many is held back to measure the fit.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..))]
        hold_back: u64,
        /// How much of each fitted target is the search's score from the
        /// records (through the fitted logistic) rather than the game's
        /// result: 0 (results only) to 1. The held-back loss stays on
        /// results.
        #[arg(long, default_value_t = 0.0, value_parser = parse_fraction)]
        score_weight: f64,
        #[arg(long = "rule", value_parser = parse_rule)]
        rules: Vec<(String, String)>,
        /// Where the tuned weight table goes.
        #[arg(long)]
        out: PathBuf,
        /// The loss of every epoch, as CSV.
        #[arg(long)]
        curve: Option<PathBuf>,
        /// The loss curve, drawn as SVG.
        #[arg(long)]
        plot: Option<PathBuf>,
    },
    /// Tunes an engine's spin options by SPSA: each step plays game pairs
    /// between the options pushed up and down a random direction and moves
    /// them towards the winner. Works with any UGI or UCI engine.
    Spsa {
        #[arg(long, ignore_case = true, value_parser = PossibleValuesParser::new(ProjectGames::names()))]
        game: String,
        /// The engine as the referee takes it, e.g. `cmd=./breakthrough
        /// st=0.05 timemargin=100 option.Threads=1`.
        #[arg(long, num_args = 1.., required = true, allow_hyphen_values = false)]
        engine: Vec<String>,
        /// `NAME`, `NAME=START`, `NAME=START,MIN,MAX` or
        /// `NAME=START,MIN,MAX,C_END,R_END` (repeat per option); what is
        /// left out comes from the engine's declaration, C_END from a
        /// twentieth of the range and R_END 0.002.
        #[arg(long = "param", required = true, value_parser = ParamRequest::parse)]
        params: Vec<ParamRequest>,
        /// Game pairs in the whole run (the gains decay over them).
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
        pairs: u64,
        /// Pairs played with one perturbation (default: the concurrency).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        pairs_per_step: Option<u64>,
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        concurrency: u64,
        /// As the referee's: an openings file, `random:N` or `boards`.
        #[arg(long)]
        openings: String,
        /// Seeds the perturbations and the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long = "rule", value_parser = parse_rule)]
        rules: Vec<(String, String)>,
        /// Plies after which a game is drawn.
        #[arg(long)]
        maxmoves: Option<usize>,
        /// The run's log (JSON lines), written step by step.
        #[arg(long)]
        log: PathBuf,
        /// Continue the run in `--log` with the same settings.
        #[arg(long)]
        resume: bool,
        /// The final values as `option.X=V` words for the referee.
        #[arg(long)]
        out: Option<PathBuf>,
        /// The trajectories, drawn as SVG.
        #[arg(long)]
        plot: Option<PathBuf>,
    },
    /// Fits a game's win/draw/loss model (the `wdl.txt` beside its weights)
    /// to the results of scored positions: the scale, and the draw margin
    /// where games were drawn, by maximum likelihood.
    Wdl {
        /// Positions from `tune sample` over records with the searches'
        /// scores (repeat for several); unscored and mate positions are
        /// left out.
        #[arg(long = "positions", required = true)]
        positions: Vec<PathBuf>,
        /// Fit a draw margin even if no game in the data was drawn (it is
        /// fitted anyway when some were).
        #[arg(long)]
        draws: bool,
        /// The model in use (a `wdl.txt`), whose log-loss is shown beside
        /// the fitted one's.
        #[arg(long)]
        current: Option<PathBuf>,
        /// Where the fitted model goes, as a `wdl.txt`.
        #[arg(long)]
        out: Option<PathBuf>,
        /// A line for the written file's header, saying where the games
        /// came from (repeat for several).
        #[arg(long = "note")]
        notes: Vec<String>,
    },
}

/// The command line as typed, `--note` texts left out (they are in the
/// header already), for a fitted file's header.
fn command_line() -> String {
    let mut words = vec!["tune".to_owned()];
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--note" {
            args.next();
        } else if !arg.starts_with("--note=") {
            words.push(arg);
        }
    }
    words.join(" ")
}

fn parse_fraction(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|v| (0.0..=1.0).contains(v))
        .ok_or_else(|| format!("'{text}' is not a number from 0 to 1"))
}

fn parse_rule(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .ok_or_else(|| format!("'{text}' is not NAME=VALUE"))
}

/// `K/N` with K below N.
fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let (k, n) = text.split_once('/').ok_or("a shard is K/N")?;
    let k: u32 = k
        .trim()
        .parse()
        .map_err(|_| format!("'{k}' is not a number"))?;
    let n: u32 = n
        .trim()
        .parse()
        .map_err(|_| format!("'{n}' is not a number"))?;
    if n == 0 || k >= n {
        return Err(format!("shard {k}/{n}: K must be below N"));
    }
    Ok((k, n))
}

fn texel<G: Game, T: LinearEval<G>>(job: &TexelJob) -> Result<String, String> {
    let bar = ProgressBar::new(job.settings.epochs as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} epoch {pos}/{len}, {eta} left  {msg}")
    {
        bar.set_style(style);
    }
    let report = run_texel::<G, T>(job, |point| {
        bar.set_position(point.epoch as u64);
        bar.set_message(format!("held-back loss {:.6}", point.held));
        if point.epoch % 50 == 0 {
            log::info!(
                "epoch {}: loss {:.6} fitted, {:.6} held back",
                point.epoch,
                point.fit,
                point.held
            );
        }
    });
    bar.finish_and_clear();
    report
}

/// The games with network features: `--game` picks one.
fn train_network(game: &str, mut job: NetworkJob) -> Result<String, String> {
    match game.to_ascii_lowercase().as_str() {
        "breakthrough" => {
            if job.settings.scale <= 0.0 {
                job.settings.scale = BreakthroughKnowledge::profile().wdl.scale as f32;
            }
            train_with::<Breakthrough, PieceFeatures>(&job)
        }
        "gomoku" => {
            if job.settings.scale <= 0.0 {
                job.settings.scale = GomokuKnowledge::profile().wdl.scale as f32;
            }
            train_with::<Gomoku, ShapeSetFeatures>(&job)
        }
        other => Err(format!("no network features for {other} yet")),
    }
}

fn train_with<G: Game, F: FeatureSet<G>>(job: &NetworkJob) -> Result<String, String> {
    let bar = ProgressBar::new(job.settings.epochs as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} epoch {pos}/{len}, {eta} left  {msg}")
    {
        bar.set_style(style);
    }
    let report = run_network_training::<G, F>(
        job,
        |loaded| {
            log::info!(
                "{} games: {} positions to train on, {} held back",
                loaded.games,
                loaded.training,
                loaded.held_back
            )
        },
        |epoch| {
            bar.set_position(epoch.epoch as u64);
            bar.set_message(format!("held-back loss {:.6}", epoch.held_loss));
            // Without a terminal (a run in the background, its output in a
            // file) the bar is hidden: each epoch then gets a line instead.
            if bar.is_hidden() {
                eprintln!(
                    "epoch {}/{}: held-back loss {:.6}, {:.1} s",
                    epoch.epoch, epoch.epochs, epoch.held_loss, epoch.seconds
                );
            }
            log::info!(
                "epoch {}/{}: loss {:.6} trained, {:.6} held back, {:.1} s",
                epoch.epoch,
                epoch.epochs,
                epoch.training_loss,
                epoch.held_loss,
                epoch.seconds
            );
        },
    );
    bar.finish_and_clear();
    report
}

/// The games with a move policy: `--game` picks one.
fn fit_policy(game: &str, job: &PolicyJob) -> Result<String, String> {
    let on_iteration = |report: &IterationReport| {
        eprintln!(
            "iteration {}: played move first {:.2}% held back ({:.2}% fitted), \
             log-likelihood {:.4} held back ({:.4} fitted), {:.0} s",
            report.iteration,
            100.0 * report.held_back.first,
            100.0 * report.training.first,
            report.held_back.log_likelihood,
            report.training.log_likelihood,
            report.seconds
        )
    };
    match game.to_ascii_lowercase().as_str() {
        "hex" => run_policy_fit::<Hex, HexPolicy>(job, on_iteration),
        other => Err(format!("no move policy for {other} yet")),
    }
}

/// Runs `visitor` on the game `--game` names (clap has checked the name).
fn for_game<V: GameVisitor<Output = Result<String, String>>>(game: &str, visitor: V) -> V::Output {
    let game = game.to_ascii_lowercase();
    ProjectGames::visit(&game, visitor).unwrap_or_else(|| Err(format!("unknown game '{game}'")))
}

struct Sample<'a>(&'a SampleJob);

impl GameVisitor for Sample<'_> {
    type Output = Result<String, String>;
    fn visit<E: GameEntry>(self) -> Self::Output {
        run_sample::<E::Rules, E::Knowledge>(self.0)
    }
}

struct Texel<'a>(&'a TexelJob);

impl GameVisitor for Texel<'_> {
    type Output = Result<String, String>;
    fn visit<E: GameEntry>(self) -> Self::Output {
        E::visit_linear_eval(self).unwrap_or_else(|| {
            Err(format!(
                "{}'s evaluation is not a weight table to fit",
                <E::Rules as Game>::NAME
            ))
        })
    }
}

impl<G: Game> LinearEvalVisitor<G> for Texel<'_> {
    type Output = Result<String, String>;
    fn visit<T: LinearEval<G>>(self) -> Self::Output {
        texel::<G, T>(self.0)
    }
}

struct Datagen<'a>(&'a DatagenJob);

impl GameVisitor for Datagen<'_> {
    type Output = Result<String, String>;
    fn visit<E: GameEntry>(self) -> Self::Output {
        let job = self.0;
        let bar = ProgressBar::new(u64::from(job.games.div_ceil(job.shard.1)));
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} games, {eta} left") {
            bar.set_style(style);
        }
        let report = datagen::run::<E::Rules, E::Knowledge>(job, &|_| bar.inc(1));
        bar.finish_and_clear();
        let report = report?;
        let data = dataset::read_file(&job.out)?;
        let stats = datagen::stats::<E::Rules>(&data)?;
        Ok(format!(
            "{}\n{}: {}\n",
            report.summary(),
            job.out.display(),
            stats.summary()
        ))
    }
}

struct DataStats<'a>(&'a dataset::DataFile);

impl GameVisitor for DataStats<'_> {
    type Output = Result<String, String>;
    fn visit<E: GameEntry>(self) -> Self::Output {
        datagen::stats::<E::Rules>(self.0).map(|stats| stats.summary())
    }
}

struct Spsa<'a>(&'a SpsaJob);

impl GameVisitor for Spsa<'_> {
    type Output = Result<String, String>;
    fn visit<E: GameEntry>(self) -> Self::Output {
        run_spsa::<E::Rules>(self.0)
    }
}

fn run(cli: Cli) -> Result<String, String> {
    match cli.command {
        Command::Sample {
            game,
            records,
            skip,
            keep_noisy,
            rules,
            out,
        } => {
            let job = SampleJob {
                records,
                rule_options: rules,
                filter: SampleFilter {
                    skip_plies: skip,
                    keep_noisy,
                },
                out,
            };
            for_game(&game, Sample(&job))
        }
        Command::Texel {
            game,
            positions,
            epochs,
            rate,
            frozen,
            min_seen,
            hold_back,
            score_weight,
            rules,
            out,
            curve,
            plot,
        } => {
            let job = TexelJob {
                positions,
                rule_options: rules,
                settings: FitSettings {
                    epochs,
                    learning_rate: rate,
                    frozen: Vec::new(),
                },
                frozen,
                min_seen,
                hold_back: hold_back as usize,
                score_weight,
                out,
                curve,
                plot,
            };
            for_game(&game, Texel(&job))
        }
        Command::Spsa {
            game,
            engine,
            params,
            pairs,
            pairs_per_step,
            concurrency,
            openings,
            seed,
            rules,
            maxmoves,
            log,
            resume,
            out,
            plot,
        } => {
            let job = SpsaJob {
                engine: EngineSpec::parse(&engine)?,
                engine_words: engine.join(" "),
                params,
                total_pairs: pairs as usize,
                pairs_per_step: pairs_per_step.unwrap_or(concurrency) as usize,
                concurrency: concurrency as usize,
                openings: OpeningSource::parse(&openings, seed)?,
                max_plies: maxmoves,
                rule_options: rules,
                seed,
                log,
                resume,
                out,
                plot,
            };
            for_game(&game, Spsa(&job))
        }
        Command::Datagen {
            game,
            out,
            games,
            nodes,
            openings,
            seed,
            rules,
            options,
            shard,
            threads,
            max_plies,
        } => {
            let job = DatagenJob {
                out,
                games,
                nodes,
                openings,
                seed,
                rules,
                options,
                shard,
                threads: threads as usize,
                max_plies,
            };
            for_game(&game, Datagen(&job))
        }
        Command::TrainNetwork {
            game,
            data,
            out,
            checkpoint,
            fresh,
            init,
            hidden,
            activation,
            epochs,
            batch,
            lr,
            decay,
            decay_every,
            score_weight,
            scale,
            held_every,
            mirror,
            threads,
            seed,
            plot,
        } => {
            let checkpoint = checkpoint.unwrap_or_else(|| out.with_extension("ckpt"));
            let activation = activation.as_deref().and_then(Activation::from_name);
            let settings = TrainSettings {
                hidden: hidden as usize,
                activation,
                epochs,
                batch: batch as usize,
                learning_rate: lr,
                decay,
                decay_every,
                score_weight: score_weight.clamp(0.0, 1.0),
                scale: scale.unwrap_or(0.0),
                threads: threads as usize,
                seed,
            };
            let job = NetworkJob {
                data,
                out,
                checkpoint,
                fresh,
                init,
                held_every,
                mirror,
                plot,
                settings,
            };
            train_network(&game, job)
        }
        Command::FitPolicy {
            game,
            data,
            records,
            out,
            iterations,
            min_seen,
            held_every,
            training_games,
            groups,
            notes,
            compare,
        } => {
            let mut header = vec![command_line()];
            header.extend(notes);
            let job = PolicyJob {
                sources: Sources { data, records },
                out,
                iterations: iterations as usize,
                min_seen: min_seen.max(1),
                split: Split {
                    held_every,
                    training_games,
                },
                groups,
                header: header.join("\n"),
                compare,
            };
            fit_policy(&game, &job)
        }
        Command::Dataset { files } => {
            let mut report = String::new();
            for file in files {
                let data = dataset::read_file(&file)?;
                let stats = for_game(&data.header.game, DataStats(&data))?;
                report += &format!("{}: {} {stats}\n", file.display(), data.header.game);
            }
            Ok(report)
        }
        Command::Wdl {
            positions,
            draws,
            current,
            out,
            notes,
        } => run_wdl(&WdlJob {
            positions,
            draws,
            current,
            out,
            notes,
            command: command_line(),
        }),
    }
}

fn main() -> ExitCode {
    boardgames::protocol::init_logging();
    match run(Cli::parse()) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::FAILURE
        }
    }
}
