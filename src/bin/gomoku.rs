//! The Gomoku engine: UGI/UCI by default, the Gomocup (pbrain) protocol when
//! asked for by `--pbrain`, by a `pbrain-*` executable name, or by a first
//! line that is a Gomocup command.

use boardgames::core::Game;
use boardgames::games::gomoku::{speed, Gomoku, GomokuKnowledge};
use boardgames::protocol::engine_cli::{self, EngineTool};
use boardgames::protocol::{init_logging, pbrain, run_ugi, spawn_stdin_reader};
use clap::{Parser, Subcommand};

/// `gomoku` with no argument picks UGI/UCI or Gomocup from the first line.
#[derive(Parser, Debug)]
#[command(
    about = "The Gomoku engine: UGI/UCI or Gomocup on stdin and stdout when given no command",
    args_conflicts_with_subcommands = true
)]
struct GomokuArgs {
    /// Speak the Gomocup (pbrain) protocol from the start.
    #[arg(long)]
    pbrain: bool,
    #[command(subcommand)]
    tool: Option<GomokuTool>,
}

#[derive(Subcommand, Debug)]
enum GomokuTool {
    /// Move, shape-update, move-generation, VCF and VCT speeds.
    Speed,
    #[command(flatten)]
    Engine(EngineTool),
}

fn main() {
    init_logging();
    let program = std::env::args().next().unwrap_or_default();
    // Gomocup managers start `pbrain-*` executables with no arguments.
    let invoked_as_pbrain = std::path::Path::new(&program)
        .file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.to_ascii_lowercase().starts_with("pbrain-"));
    if invoked_as_pbrain {
        pbrain::run_pbrain(spawn_stdin_reader(), Vec::new());
        return;
    }
    let args: GomokuArgs = engine_cli::parse_or_exit(Gomoku::NAME);
    match args.tool {
        Some(GomokuTool::Speed) => print_speed(),
        Some(GomokuTool::Engine(tool)) => tool.run::<Gomoku, GomokuKnowledge>(),
        None if args.pbrain => pbrain::run_pbrain(spawn_stdin_reader(), Vec::new()),
        None => choose_front_end(),
    }
}

/// The first line that says something picks the front-end.
fn choose_front_end() {
    let input = spawn_stdin_reader();
    let mut first_lines = Vec::new();
    for line in input.iter() {
        let meaningful = !line.trim().is_empty();
        first_lines.push(line);
        if meaningful {
            break;
        }
    }
    let gomocup = first_lines
        .last()
        .is_some_and(|line| pbrain::is_gomocup_command(line));
    if gomocup {
        pbrain::run_pbrain(input, first_lines);
    } else {
        run_ugi::<Gomoku, GomokuKnowledge>(input, first_lines);
    }
}

/// `bg-gomoku speed`: move and shape-update cost, move generation, VCF and VCT
/// solving.
fn print_speed() {
    let report = speed::measure(400, 100_000, 20_000);
    let vcf_seconds = report.vcf_time.as_secs_f64().max(1e-9);
    println!("Positions            : {}", report.positions);
    println!(
        "Make+unmake/second   : {:.0}",
        report.make_unmake_per_second
    );
    println!(
        "Move lists/second    : {:.0}",
        report.generations_per_second
    );
    println!("VCF wins found       : {}", report.vcf_found);
    println!("VCF nodes            : {}", report.vcf_nodes);
    println!("VCF time (ms)        : {}", report.vcf_time.as_millis());
    println!(
        "VCF nodes/second     : {:.0}",
        report.vcf_nodes as f64 / vcf_seconds
    );
    println!(
        "VCF positions/second : {:.0}",
        report.positions as f64 / vcf_seconds
    );
    if let Some((fen, first, plies)) = report.longest_vcf {
        println!("Longest VCF          : {first}, a win in {plies} plies, in {fen}");
    }
    let vct_seconds = report.vct_time.as_secs_f64().max(1e-9);
    println!(
        "VCT wins found       : {} (where no VCF was)",
        report.vct_found
    );
    println!("VCT nodes            : {}", report.vct_nodes);
    println!("VCT time (ms)        : {}", report.vct_time.as_millis());
    println!(
        "VCT nodes/second     : {:.0}",
        report.vct_nodes as f64 / vct_seconds
    );
    if let Some((fen, first, plies)) = report.longest_vct {
        println!("Longest VCT          : {first}, a win in {plies} plies, in {fen}");
    }
}
