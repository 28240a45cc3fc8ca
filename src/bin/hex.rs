//! The Hex engine: UGI/UCI by default, GTP with `--gtp`; `bg-hex bench-eval`
//! times the static evaluation, `hex vc-bench` the H-search, `bg-hex solve N`
//! proves the openings of an N x N board.

use boardgames::core::notation::fen_row_of_dots;
use boardgames::core::Player;
use boardgames::core::{Game, Knowledge, Presentation};
use boardgames::games::hex::resistance::{EvalSettings, Evaluation};
use boardgames::games::hex::vc::{Budget, Connections, SmallCellSet};
use boardgames::games::hex::{notation, policy, Hex, HexKnowledge, HexMove, HexRules};
use boardgames::protocol::engine_cli::{self, EngineTool};
use boardgames::protocol::{self, gtp};
use clap::{Parser, Subcommand};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Times both static evaluations on random middle games of 11x11 and
/// 13x13 (a fixed seed, so every run sees the same positions), each
/// evaluated after each of its first moves in turn as a search's leaves
/// are, and prints evaluations per second.
fn bench_eval() {
    println!("size evaluation   positions  evals/s   us/eval  checksum");
    for size in [11, 13] {
        let positions = random_middle_games(size, 100);
        for evaluation in [Evaluation::TwoDistance, Evaluation::Resistance] {
            let Ok(settings) = EvalSettings::from_weights(evaluation) else {
                eprintln!("bench-eval: the resistance weights do not load");
                return;
            };
            let mut knowledge = HexKnowledge::new(&settings);
            let (calls, seconds, checksum) = time_children(&positions, &mut knowledge);
            println!(
                "{size:>4} {:<12} {:>9} {:>8.0} {:>9.2} {checksum:>9}",
                evaluation.name(),
                positions.len(),
                calls as f64 / seconds,
                seconds * 1e6 / calls.max(1) as f64
            );
        }
    }
}

/// Evaluates the children of every position, the first 20 moves of each;
/// returns the evaluations, the seconds they took and their sum.
fn time_children(positions: &[Hex], knowledge: &mut HexKnowledge) -> (usize, f64, i64) {
    let mut moves = Vec::new();
    let (mut calls, mut checksum) = (0, 0i64);
    let start = Instant::now();
    for position in positions {
        let mut position = position.clone();
        position.generate_moves(&mut moves);
        for &mv in moves.iter().take(20) {
            position.make_move(mv);
            checksum += knowledge.evaluate(&position) as i64;
            position.unmake_move(mv);
            calls += 1;
        }
    }
    (calls, start.elapsed().as_secs_f64(), checksum)
}

/// `count` positions of `size` with a quarter to a half of the board
/// filled by random moves, none of them won.
fn random_middle_games(size: usize, count: usize) -> Vec<Hex> {
    let rules = HexRules {
        board_size: size,
        swap: false,
    };
    let mut rng = SmallRng::seed_from_u64(size as u64);
    let mut positions = Vec::with_capacity(count);
    let mut moves = Vec::new();
    while positions.len() < count {
        let mut position = Hex::start_position(&rules);
        let stones = rng.gen_range(size * size / 4..=size * size / 2);
        for _ in 0..stones {
            position.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            position.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        if position.outcome().is_none() {
            positions.push(position);
        }
    }
    positions
}

/// The bench positions, and the same stones moved one cell in from the
/// top-left corner of a 13x13 board (middle games of the larger size).
fn vc_bench_positions() -> Vec<Hex> {
    let eleven = HexRules::default();
    let thirteen = HexRules {
        board_size: 13,
        ..HexRules::default()
    };
    let mut positions = Vec::new();
    for fen in Hex::bench_positions() {
        let Ok(position) = Hex::from_fen(fen, &eleven) else {
            continue;
        };
        let padded = pad_fen(fen, 1);
        positions.push(position);
        match Hex::from_fen(&padded, &thirteen) {
            Ok(larger) => positions.push(larger),
            Err(e) => eprintln!("vc-bench: {padded}: {e}"),
        }
    }
    positions
}

/// The position of `fen` with `border` empty cells added around it.
fn pad_fen(fen: &str, border: usize) -> String {
    let (board, side) = fen.split_once(' ').unwrap_or((fen, "b"));
    let size = board.split('/').count() + 2 * border;
    let mut rows = vec![size.to_string(); border];
    for row in board.split('/') {
        let mut cells = ".".repeat(border);
        let mut run = 0;
        for c in row.chars() {
            match c.to_digit(10) {
                Some(d) => run = run * 10 + d as usize,
                None => {
                    cells.push_str(&".".repeat(run));
                    run = 0;
                    cells.push(c);
                }
            }
        }
        cells.push_str(&".".repeat(run + border));
        rows.push(fen_row_of_dots(&cells));
    }
    rows.extend(vec![size.to_string(); border]);
    format!("{} {side}", rows.join("/"))
}

/// Times a full H-search for both players on every vc-bench position.
fn vc_bench() {
    let mut totals: std::collections::BTreeMap<usize, (f64, usize)> = Default::default();
    println!("size stones player  ms      work  full  semi  complete edge-full edge-semi");
    for position in vc_bench_positions() {
        for player in [Player::P1, Player::P2] {
            let start = Instant::now();
            let vc = Connections::compute(&position, player, Budget::FULL);
            let ms = start.elapsed().as_secs_f64() * 1e3;
            let (full, semi) = vc.counts();
            println!(
                "{:>4} {:>6} {:>6} {:>6.2} {:>9} {:>5} {:>5} {:>9} {:>9} {:>9}",
                position.size(),
                position.stones_on_board(),
                Hex::player_colour(player),
                ms,
                vc.work,
                full,
                semi,
                vc.complete,
                vc.edge_to_edge_full().len(),
                vc.edge_to_edge_semi().len()
            );
            let entry = totals.entry(position.size()).or_default();
            entry.0 += ms;
            entry.1 += 1;
        }
    }
    for (size, (ms, runs)) in totals {
        println!(
            "{size}x{size}: {runs} H-searches, mean {:.2} ms",
            ms / runs as f64
        );
    }
    vc_bench_proof_boards();
    vc_bench_carried();
}

/// Times H-search along random games of 11x11 and 13x13 (a fixed seed)
/// to half the board, after every stone for both players: searched afresh,
/// and carried from the position before (`vc::incremental`), which a
/// tree search's closer looks use. Prints how often the two agree on the
/// edge-to-edge verdict (a full connection, a semi one, neither).
fn vc_bench_carried() {
    const GAMES: u64 = 6;
    println!(
        "size H-searches  fresh ms  carried ms  verdicts agreeing  wins fresh only  carried only"
    );
    for size in [11, 13] {
        let rules = HexRules {
            board_size: size,
            swap: false,
        };
        let (mut fresh_ms, mut carried_ms, mut agreeing, mut runs) = (0.0, 0.0, 0, 0);
        let (mut fresh_only, mut carried_only) = (0, 0);
        let verdict = |vc: &Connections| {
            let full = !vc.edge_to_edge_full().is_empty();
            (full, !vc.edge_to_edge_semi().is_empty())
        };
        for game in 0..GAMES {
            let mut rng = SmallRng::seed_from_u64(1000 + game);
            let mut hex = Hex::start_position(&rules);
            let mut carried =
                [Player::P1, Player::P2].map(|p| Connections::compute(&hex, p, Budget::FULL));
            while hex.outcome().is_none() && (hex.stones_on_board() as usize) < size * size / 2 {
                let empty: Vec<usize> = hex.empty_cells().collect();
                let cell = empty[rng.gen_range(0..empty.len())];
                hex.make_move(HexMove::cell(cell));
                for (index, player) in [Player::P1, Player::P2].into_iter().enumerate() {
                    let start = Instant::now();
                    let fresh = Connections::compute(&hex, player, Budget::FULL);
                    fresh_ms += start.elapsed().as_secs_f64() * 1e3;
                    let start = Instant::now();
                    let mut next = Connections::default();
                    next.search_after_stone(&carried[index], &hex, cell, Budget::FULL);
                    carried_ms += start.elapsed().as_secs_f64() * 1e3;
                    let (fresh_verdict, carried_verdict) = (verdict(&fresh), verdict(&next));
                    agreeing += usize::from(fresh_verdict == carried_verdict);
                    fresh_only += usize::from(fresh_verdict.0 && !carried_verdict.0);
                    carried_only += usize::from(carried_verdict.0 && !fresh_verdict.0);
                    runs += 1;
                    carried[index] = next;
                }
            }
        }
        let mean = |ms: f64| ms / runs.max(1) as f64;
        println!(
            "{size:>4} {runs:>10} {:>9.3} {:>11.3} {agreeing:>9} of {runs} {fresh_only:>16} {carried_only:>13}",
            mean(fresh_ms),
            mean(carried_ms)
        );
    }
}

/// Times H-search on the boards the proof search works on (7x7 and 8x8
/// middle games, a fixed seed), with full-size carriers allocated afresh
/// as before and with one-word carriers in reused memory as the proof
/// search runs it.
fn vc_bench_proof_boards() {
    const POSITIONS: usize = 40;
    const REPEATS: usize = 20;
    println!("size carriers                    H-searches  us/H-search  connections");
    for size in [7, 8] {
        let positions = random_middle_games(size, POSITIONS);
        let runs = POSITIONS * 2 * REPEATS;
        let start = Instant::now();
        let mut found = 0;
        for _ in 0..REPEATS {
            for position in &positions {
                for player in [Player::P1, Player::P2] {
                    let vc = Connections::compute(position, player, Budget::FULL);
                    found += vc.counts().0 + vc.counts().1;
                }
            }
        }
        let full_size = start.elapsed().as_secs_f64() * 1e6 / runs as f64;
        println!("{size:>4} full-size, fresh memory     {runs:>10} {full_size:>12.1} {found:>12}");
        let start = Instant::now();
        let mut found = 0;
        let mut reused = Connections::<SmallCellSet>::default();
        for _ in 0..REPEATS {
            for position in &positions {
                for player in [Player::P1, Player::P2] {
                    reused.search_again(position, player, Budget::FULL);
                    found += reused.counts().0 + reused.counts().1;
                }
            }
        }
        let one_word = start.elapsed().as_secs_f64() * 1e6 / runs as f64;
        println!("{size:>4} one word, reused memory     {runs:>10} {one_word:>12.1} {found:>12}");
    }
}

/// Reads up to the first line that decides the protocol: GTP when it is a
/// GTP command, UCI/UGI otherwise. Blank and comment lines before it carry
/// nothing and are dropped.
fn choose_front_end() {
    let input = protocol::spawn_stdin_reader();
    for line in input.iter() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if gtp::looks_like_gtp(trimmed) {
            gtp::run_gtp(input, vec![line]);
        } else {
            protocol::run_ugi::<Hex, HexKnowledge>(input, vec![line]);
        }
        return;
    }
}

/// `hex` with no argument picks UGI/UCI or GTP from the first line.
#[derive(Parser, Debug)]
#[command(
    about = "The Hex engine: UGI/UCI or GTP on stdin and stdout when given no command",
    args_conflicts_with_subcommands = true
)]
struct HexArgs {
    /// Speak GTP from the start, whatever the first line.
    #[arg(long)]
    gtp: bool,
    #[command(subcommand)]
    tool: Option<HexTool>,
}

#[derive(Subcommand, Debug)]
enum HexTool {
    /// Times the static evaluation over the bench positions.
    BenchEval,
    /// Times a full H-search (virtual connections) on every bench position.
    VcBench,
    /// Proves the first stones of an N x N board without swap.
    Solve(SolveArgs),
    #[command(flatten)]
    Engine(EngineTool),
}

/// `bg-hex solve`: which openings, and how long each may take.
#[derive(clap::Args, Debug)]
struct SolveArgs {
    /// The board's side.
    size: usize,
    /// Every cell, not one of each pair the half turn exchanges.
    #[arg(long)]
    all: bool,
    /// Only these cells (`--only d4,c5`).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Seconds each opening may take (no limit without it).
    #[arg(long)]
    seconds: Option<f64>,
    /// The proof table's size in MB.
    #[arg(long, default_value_t = 1024)]
    hash: usize,
}

fn main() {
    protocol::init_logging();
    let args: HexArgs = engine_cli::parse_or_exit(Hex::NAME);
    match args.tool {
        Some(HexTool::BenchEval) => bench_eval(),
        Some(HexTool::VcBench) => vc_bench(),
        Some(HexTool::Solve(solve)) => {
            if let Err(message) = solve_openings(solve) {
                eprintln!("bg-hex solve: {message}");
                std::process::exit(2);
            }
        }
        Some(HexTool::Engine(tool)) => tool.run::<Hex, HexKnowledge>(),
        None if args.gtp => {
            policy::load_tables();
            gtp::run_gtp(protocol::spawn_stdin_reader(), Vec::new())
        }
        None => {
            policy::load_tables();
            choose_front_end()
        }
    }
}

/// `bg-hex solve N [--all] [--only CELL,...] [--seconds S] [--hash MB]`:
/// proves each first stone of an N x N board without swap (one of each
/// pair the half turn exchanges unless `--all`, or the cells named), one
/// line per opening, then the map of wins and losses for the first player.
fn solve_openings(args: SolveArgs) -> Result<(), String> {
    use boardgames::core::dfpn::ProofTable;
    use boardgames::games::hex::notation::cell_name;
    use boardgames::games::hex::proving::{
        opening_cells, prove_opening, published_first_player_wins,
    };
    use std::time::Duration;

    let size = args.size;
    notation::check_size(size)?;
    let openings = if args.only.is_empty() {
        opening_cells(size, !args.all)
    } else {
        args.only
            .iter()
            .map(|name| notation::parse_cell(size, name))
            .collect::<Result<Vec<usize>, String>>()?
    };
    let (all, seconds, hash_megabytes) = (args.all, args.seconds, args.hash);
    let time = seconds.filter(|s| *s > 0.0).map(Duration::from_secs_f64);
    let mut table = ProofTable::new(hash_megabytes);
    let mut knowledge = HexKnowledge::default();
    let cells = size * size;
    let mut results: Vec<Option<bool>> = vec![None; cells];
    let (mut total_nodes, mut total_seconds) = (0u64, 0.0f64);
    println!("opening result published  nodes        seconds  nodes/s  vc-settled  must-play: nodes  moves before -> after  fill-settled  inferior-pruned  set-pruned");
    let verdict_name = |wins: Option<bool>| match wins {
        Some(true) => "win",
        Some(false) => "loss",
        None => "open",
    };
    let (mut agree, mut disagree) = (0, 0);
    for cell in openings {
        let proof = prove_opening(size, cell, time, &mut table, &mut knowledge);
        let published = published_first_player_wins(size, cell);
        if let (Some(ours), Some(theirs)) = (proof.first_player_wins, published) {
            if ours == theirs {
                agree += 1;
            } else {
                disagree += 1;
            }
        }
        let published = published.map_or("-", |wins| verdict_name(Some(wins)));
        let secs = proof.elapsed.as_secs_f64();
        let stats = proof.stats;
        println!(
            "{:<7} {:<6} {:<9} {:>12} {:>8.2} {:>8.0} {:>11} {:>16} {:>14.1} -> {:<4.1} {:>12} {:>16} {:>11}",
            cell_name(size, cell),
            verdict_name(proof.first_player_wins),
            published,
            proof.nodes,
            secs,
            proof.nodes as f64 / secs.max(1e-9),
            stats.vc_wins + stats.vc_losses,
            stats.must_play_nodes,
            stats.moves_before as f64 / stats.must_play_nodes.max(1) as f64,
            stats.moves_after as f64 / stats.must_play_nodes.max(1) as f64,
            stats.fill_settled,
            stats.inferior_pruned,
            proof.set_pruned,
        );
        total_nodes += proof.nodes;
        total_seconds += secs;
        results[cell] = proof.first_player_wins;
        if !all {
            results[cells - 1 - cell] = proof.first_player_wins;
        }
    }
    println!(
        "total: {total_nodes} nodes in {total_seconds:.1} s ({:.0} nodes/s)",
        total_nodes as f64 / total_seconds.max(1e-9)
    );
    println!("agree with the published result: {agree}, disagree: {disagree}");
    print_opening_map(size, &results);
    Ok(())
}

/// The board with each cell's result for the first player: `W` a win,
/// `l` a loss, `?` unproven; rows indented like the Hex rhombus.
fn print_opening_map(size: usize, results: &[Option<bool>]) {
    use boardgames::games::hex::notation::cell_name;
    let wins = results.iter().filter(|r| **r == Some(true)).count();
    let losses = results.iter().filter(|r| **r == Some(false)).count();
    println!(
        "first-player wins {wins}, losses {losses}, unproven {}",
        results.len() - wins - losses
    );
    let header: String = (0..size)
        .map(|col| cell_name(size, col).chars().next().unwrap_or(' '))
        .map(|letter| format!("{letter} "))
        .collect();
    println!("   {header}");
    for row in 0..size {
        let line: String = (0..size)
            .map(|col| match results[row * size + col] {
                Some(true) => "W ",
                Some(false) => "l ",
                None => "? ",
            })
            .collect();
        println!("{:>2} {}{line}", row + 1, " ".repeat(row));
    }
}
