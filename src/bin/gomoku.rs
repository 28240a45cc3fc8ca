//! The Gomoku engine: UGI/UCI by default, the Gomocup (pbrain) protocol when
//! asked for by `--pbrain`, by a `pbrain-*` executable name, or by a first
//! line that is a Gomocup command.

use boardgames::games::gomoku::{speed, Gomoku, GomokuKnowledge};
use boardgames::protocol::{init_logging, pbrain, run_engine_main, run_ugi, spawn_stdin_reader};

fn main() {
    let program = std::env::args().next().unwrap_or_default();
    let invoked_as_pbrain = std::path::Path::new(&program)
        .file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.to_ascii_lowercase().starts_with("pbrain-"));
    let args: Vec<String> = std::env::args().skip(1).collect();
    let wants_pbrain = args.first().is_some_and(|arg| arg == "--pbrain");
    if invoked_as_pbrain || wants_pbrain {
        init_logging();
        pbrain::run_pbrain(spawn_stdin_reader(), Vec::new());
        return;
    }
    if args.first().is_some_and(|arg| arg == "speed") {
        print_speed();
        return;
    }
    if !args.is_empty() {
        // `gomoku bench [depth]` and argument errors.
        run_engine_main::<Gomoku, GomokuKnowledge>();
        return;
    }
    init_logging();
    let input = spawn_stdin_reader();
    // The first line that says something picks the front-end.
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

/// `gomoku speed`: move and shape-update cost, move generation, VCF and VCT
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
