//! The Hex engine: UGI/UCI by default, GTP with `--gtp`; `hex bench-eval`
//! times the static evaluation.

use boardgames::core::Game;
use boardgames::games::hex::Hex;
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
    for round in 0..rounds {
        for position in positions.iter_mut() {
            // Vary the position so that the cached result is never reused.
            position.generate_moves(&mut moves);
            let Some(&mv) = moves.get(round % moves.len().max(1)) else {
                continue;
            };
            position.make_move(mv);
            checksum += position.evaluate() as i64;
            position.unmake_move(mv);
        }
    }
    let calls = rounds * positions.len();
    let micros = start.elapsed().as_secs_f64() * 1e6 / calls.max(1) as f64;
    println!("evaluations     : {calls}");
    println!("checksum        : {checksum}");
    println!("microseconds/eval: {micros:.2}");
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("bench-eval") {
        bench_eval();
        return;
    }
    boardgames::protocol::run_engine_main::<Hex>();
}
