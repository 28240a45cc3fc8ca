//! `hex-move-values [depth]`: the engine's score of every move it would
//! consider, as HexGui's `pspairs` type (a cell, then the text HexGui writes
//! on it), from one multi-line search of the position to a shallow depth.
//! Scores are centipawns for the side to move; proven results show as
//! `W3` (wins in three moves) or `L2`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::core::game::{Game, MATE, MATE_BOUND};
use crate::engine::{Engine, SearchLimits};
use crate::games::hex::{Hex, HexKnowledge};

/// Deeper searches of every move take too long for an analysis click.
const MAX_DEPTH: u32 = 6;
const DEFAULT_DEPTH: u32 = 2;

/// The engine's `MultiPV` ceiling.
const MAX_LINES: usize = 256;

/// Searches `engine`'s position with one line per root move and returns
/// `cell score` pairs, best first, the cells on the colour-mirrored board
/// when `mirrored` (GTP's board after a swap). The engine's `MultiPV` is
/// put back.
pub fn move_values(
    engine: &mut Engine<Hex, HexKnowledge>,
    args: &[&str],
    mirrored: bool,
) -> Result<String, String> {
    let depth = match args.first() {
        Some(word) => word
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=MAX_DEPTH).contains(d))
            .ok_or(format!("usage: hex-move-values [depth 1..{MAX_DEPTH}]"))?,
        None => DEFAULT_DEPTH,
    };
    let mut moves = Vec::new();
    engine.position().generate_moves(&mut moves);
    if moves.is_empty() {
        return Ok(String::new());
    }
    let previous_lines = engine.options().multipv;
    engine.set_option("MultiPV", &moves.len().min(MAX_LINES).to_string())?;
    let scores: Arc<Mutex<HashMap<String, (u32, i32)>>> = Arc::default();
    let sink = Arc::clone(&scores);
    let limits = SearchLimits {
        depth: Some(depth),
        ..Default::default()
    };
    let result = engine
        .start_search(
            limits,
            Box::new(move |info| {
                let (Some(_), Some(first)) = (info.multipv, info.pv.first()) else {
                    return;
                };
                let mut scores = sink.lock().unwrap_or_else(|p| p.into_inner());
                let entry = scores.entry(first.clone()).or_insert((0, 0));
                if info.depth >= entry.0 {
                    *entry = (info.depth, info.score);
                }
            }),
        )
        .wait();
    engine.set_option("MultiPV", &previous_lines.to_string())?;
    let mut scores: Vec<(String, i32)> = scores
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .drain()
        .map(|(cell, (_, score))| (cell, score))
        .filter(|(cell, _)| cell != "swap")
        .collect();
    // A search settled at once (a proven root) reports only its move.
    if scores.is_empty() {
        if let Some(best) = result.best_move {
            let name = engine.position().format_move(best);
            scores.push((name, result.score));
        }
    }
    if mirrored {
        for (cell, _) in &mut scores {
            *cell = crate::wire::gtp::colour_mirrored_cell(cell);
        }
    }
    scores.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(scores
        .iter()
        .map(|(cell, score)| format!("{cell} {}", score_text(*score)))
        .collect::<Vec<_>>()
        .join(" "))
}

fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("W{}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("L{}", (MATE + score) / 2)
    } else {
        score.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_scores_read_as_moves_to_the_result() {
        assert_eq!(score_text(MATE - 1), "W1");
        assert_eq!(score_text(MATE - 5), "W3");
        assert_eq!(score_text(-(MATE - 4)), "L2");
        assert_eq!(score_text(-35), "-35");
    }
}
