//! The Hex engine: UGI/UCI by default, GTP with `--gtp`; `hex bench-eval`
//! times the static evaluation, `hex vc-bench` the H-search.

use boardgames::core::Player;
use boardgames::core::{Game, Knowledge, Presentation};
use boardgames::games::hex::resistance::{EvalSettings, Evaluation};
use boardgames::games::hex::vc::{Budget, Connections};
use boardgames::games::hex::{Hex, HexKnowledge, HexRules};
use boardgames::protocol::{self, gtp};
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
            let mut knowledge = HexKnowledge::default();
            knowledge.set_eval_settings(settings);
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
        rows.push(encode_row(&cells));
    }
    rows.extend(vec![size.to_string(); border]);
    format!("{} {side}", rows.join("/"))
}

/// A row of `.`, `x` and `o` in FEN form (runs of empty cells as numbers).
fn encode_row(cells: &str) -> String {
    let mut out = String::new();
    let mut run = 0;
    for c in cells.chars() {
        if c == '.' {
            run += 1;
            continue;
        }
        if run > 0 {
            out.push_str(&run.to_string());
            run = 0;
        }
        out.push(c);
    }
    if run > 0 {
        out.push_str(&run.to_string());
    }
    out
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

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("bench-eval") => bench_eval(),
        Some("vc-bench") => vc_bench(),
        Some("--gtp") => {
            protocol::init_logging();
            gtp::run_gtp(protocol::spawn_stdin_reader(), Vec::new());
        }
        Some(_) => protocol::run_engine_main::<Hex, HexKnowledge>(),
        None => {
            protocol::init_logging();
            choose_front_end();
        }
    }
}
