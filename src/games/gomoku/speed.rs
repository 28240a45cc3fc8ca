//! Speed figures beyond the search bench: the cost of a move with its shape
//! updates, of generating candidate moves, and of the VCF and VCT solvers.

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{Gomoku, GomokuKnowledge, GomokuRules, Move};
use crate::core::game::Game;
use crate::core::{Deadline, Knowledge};

/// What `bg-gomoku speed` measures, over the same positions every run.
pub struct SpeedReport {
    pub positions: usize,
    pub make_unmake_per_second: f64,
    pub generations_per_second: f64,
    pub vcf_found: usize,
    pub vcf_nodes: u64,
    pub vcf_time: Duration,
    /// The longest win found: position, first move, length in plies.
    pub longest_vcf: Option<(String, String, i32)>,
    /// Wins by threats found where the fours alone found none.
    pub vct_found: usize,
    /// Threat-search nodes (the VCF probes inside are not counted).
    pub vct_nodes: u64,
    pub vct_time: Duration,
    pub longest_vct: Option<(String, String, i32)>,
}

/// Middle games from seeded random play among the candidate moves: varied,
/// tactical, and the same on every machine.
pub fn sample_positions(count: usize) -> Vec<Gomoku> {
    let mut rng = SmallRng::seed_from_u64(2024);
    let mut positions = Vec::with_capacity(count);
    let mut moves = Vec::new();
    let mut knowledge = GomokuKnowledge::default();
    while positions.len() < count {
        let mut game = Gomoku::start_position(&GomokuRules::default());
        for _ in 0..rng.gen_range(10..50) {
            knowledge.search_moves(&game, &mut moves);
            if game.outcome().is_some() || moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.make_move(mv);
        }
        if game.outcome().is_none() {
            positions.push(game);
        }
    }
    positions
}

pub fn measure(positions: usize, vcf_budget: u32, vct_budget: u64) -> SpeedReport {
    let mut games = sample_positions(positions);
    // Each position keeps its solvers' memories through both solver runs,
    // as a search of it would; they start in step with it, so that the
    // timings below are of the solving alone.
    let mut knowledge: Vec<GomokuKnowledge> = games
        .iter()
        .map(|game| {
            let mut knowledge = GomokuKnowledge::default();
            knowledge.prepare_search(game, &Deadline::default());
            knowledge
        })
        .collect();
    let mut moves: Vec<Move> = Vec::new();

    let start = Instant::now();
    let mut pairs = 0u64;
    for _ in 0..20 {
        for game in games.iter_mut() {
            game.generate_moves(&mut moves);
            for &mv in &moves {
                game.make_move(mv);
                game.unmake_move(mv);
            }
            pairs += moves.len() as u64;
        }
    }
    let make_unmake_per_second = pairs as f64 / start.elapsed().as_secs_f64();

    let start = Instant::now();
    let mut generations = 0u64;
    for _ in 0..200 {
        for (game, knowledge) in games.iter().zip(knowledge.iter_mut()) {
            knowledge.search_moves(game, &mut moves);
            generations += 1;
        }
    }
    let generations_per_second = generations as f64 / start.elapsed().as_secs_f64();

    let start = Instant::now();
    let mut vcf_found = 0;
    let mut vcf_nodes = 0;
    let mut longest_vcf: Option<(String, String, i32)> = None;
    for (game, knowledge) in games.iter_mut().zip(knowledge.iter_mut()) {
        let before = knowledge.vcf_stats().nodes;
        if let Some((mv, plies)) = knowledge.find_vcf(game, vcf_budget) {
            vcf_found += 1;
            if longest_vcf
                .as_ref()
                .is_none_or(|(_, _, longest)| plies > *longest)
            {
                longest_vcf = Some((game.to_fen(), game.format_move(mv), plies));
            }
        }
        vcf_nodes += knowledge.vcf_stats().nodes - before;
    }
    let vcf_time = start.elapsed();

    let start = Instant::now();
    let mut vct_found = 0;
    let mut vct_nodes = 0;
    let mut longest_vct: Option<(String, String, i32)> = None;
    for (game, knowledge) in games.iter_mut().zip(knowledge.iter_mut()) {
        if knowledge.find_vcf(game, vcf_budget).is_some() {
            continue;
        }
        let before = knowledge.vct_nodes();
        if let Some((mv, plies)) = knowledge.find_vct(game, vct_budget, &Deadline::default()) {
            vct_found += 1;
            if longest_vct
                .as_ref()
                .is_none_or(|(_, _, longest)| plies > *longest)
            {
                longest_vct = Some((game.to_fen(), game.format_move(mv), plies));
            }
        }
        vct_nodes += knowledge.vct_nodes() - before;
    }
    SpeedReport {
        positions,
        make_unmake_per_second,
        generations_per_second,
        vcf_found,
        vcf_nodes,
        vcf_time,
        longest_vcf,
        vct_found,
        vct_nodes,
        vct_time: start.elapsed(),
        longest_vct,
    }
}
