//! The Hex engine: UGI/UCI by default, GTP with `--gtp`; `hex bench-eval`
//! times the static evaluation.

use boardgames::core::{Game, Knowledge, Presentation};
use boardgames::games::hex::{Hex, HexKnowledge};
use boardgames::protocol::{self, gtp};
use std::time::Instant;

/// Times the evaluation over the bench positions and prints microseconds per
/// call.
fn bench_eval() {
    let rules = Default::default();
    let mut positions: Vec<Hex> = Hex::bench_positions()
        .iter()
        .filter_map(|fen| Hex::from_fen(fen, &rules).ok())
        .collect();
    let rounds = 2_000;
    let start = Instant::now();
    let mut checksum = 0i64;
    let mut moves = Vec::new();
    let mut knowledge = HexKnowledge::default();
    for round in 0..rounds {
        for position in positions.iter_mut() {
            // Vary the position so that the cached result is never reused.
            position.generate_moves(&mut moves);
            let Some(&mv) = moves.get(round % moves.len().max(1)) else {
                continue;
            };
            position.make_move(mv);
            checksum += knowledge.evaluate(position) as i64;
            position.unmake_move(mv);
        }
    }
    let calls = rounds * positions.len();
    let micros = start.elapsed().as_secs_f64() * 1e6 / calls.max(1) as f64;
    println!("evaluations     : {calls}");
    println!("checksum        : {checksum}");
    println!("microseconds/eval: {micros:.2}");
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
