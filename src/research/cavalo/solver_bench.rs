//! Solver figures of `cavalo-tools`: the exact solver's speed
//! (`solvebench`) and from which ply of a game the engine proves the result
//! (`solvepoint`).

use crate::games::cavalo::CavaloKnowledge;
use std::time::Duration;

use super::{depth_limit, engine_search, engine_search_limited};
use crate::core::{Game, MATE_BOUND};
use crate::engine::Engine;
use crate::games::cavalo::{exact, Cavalo, Rules};

/// Times the exact solver from a cold table on `positions` positions: on each
/// board from `first_seed`, the engine plays both sides at depth 5 (so that
/// the positions never depend on the clock) until at most `cells` cells are
/// left. Prints the verdict, nodes and time of each solve, then the totals;
/// a solve that needs more than `max_nodes` counts them and prints `?`.
pub(super) fn solve_bench(positions: u64, first_seed: u64, cells: u32, max_nodes: u64) {
    let mut engine = Engine::<Cavalo, CavaloKnowledge>::new();
    let mut table = exact::BoundsTable::default();
    let (mut total_nodes, mut total_time, mut unsolved) = (0u64, Duration::ZERO, 0);
    for board_seed in first_seed..first_seed + positions {
        let mut game = Cavalo::start(&Rules::on_board(board_seed));
        engine.new_game();
        while game.outcome().is_none() && game.present_cells().count_ones() > cells {
            let Some((mv, _)) = engine_search_limited(&mut engine, &game, depth_limit(5)) else {
                break;
            };
            game.make_move(mv);
        }
        if game.outcome().is_some() {
            continue;
        }
        table.clear();
        let started = std::time::Instant::now();
        let mut nodes = 0;
        let limit = exact::Limit::Nodes(max_nodes);
        let solution = exact::solve_counting(&game, &mut table, limit, &mut nodes);
        let elapsed = started.elapsed();
        let verdict = match solution.map(|s| s.verdict) {
            Some(verdict) => format!("{verdict:?}"),
            None => {
                unsolved += 1;
                "?".to_string()
            }
        };
        out!(
            "board {board_seed}: {} cells, {verdict} for the mover, {nodes} nodes, {} ms",
            game.present_cells().count_ones(),
            elapsed.as_millis()
        );
        total_nodes += nodes;
        total_time += elapsed;
    }
    out!(
        "total {total_nodes} nodes, {} ms, {} nodes/s, {unsolved} unsolved",
        total_time.as_millis(),
        (total_nodes as f64 / total_time.as_secs_f64().max(1e-9)) as u64
    );
}

/// Self-plays a game per board at 100 ms a move, then walks back from the
/// end: the earliest ply from which every later position is proven (won or
/// lost) by a fresh one-second search.
pub(super) fn solve_point(boards: u64) {
    for board_seed in 0..boards {
        let rules = Rules::on_board(board_seed);
        let mut engine = Engine::<Cavalo, CavaloKnowledge>::new();
        let mut game = Cavalo::start(&rules);
        let mut positions = Vec::new();
        while game.outcome().is_none() {
            positions.push(game.clone());
            match engine_search(&mut engine, &game, Duration::from_millis(100)) {
                Some((mv, _)) => game.make_move(mv),
                None => break,
            }
        }
        let total = positions.len();
        let mut earliest = total;
        for (ply, position) in positions.iter().enumerate().rev() {
            engine.new_game();
            let proven = engine_search(&mut engine, position, Duration::from_millis(1000))
                .is_some_and(|(_, score)| score.abs() >= MATE_BOUND);
            if !proven {
                break;
            }
            earliest = ply;
        }
        let cells = positions
            .get(earliest)
            .map_or(0, |p| p.present_cells().count_ones());
        let scores = game.scores();
        out!(
            "board {board_seed}: {total} plies ({} to {}); proven within 1 s from ply {earliest} on ({} plies before the end, {cells} cells left)",
            scores[0],
            scores[1],
            total - earliest
        );
    }
}
