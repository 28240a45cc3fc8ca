//! `go mate N`: the engine answers with the proof-number search
//! (`core::dfpn`) instead of alpha-beta. It proves a forced win for the side
//! to move within N of its moves, or that there is none, or runs out of the
//! time and nodes it was given; it stops as soon as it knows.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{spawn_search, Engine, EngineProfile, SearchHandle, SearchLimits, SearchResult};
use crate::core::control::SearchSignals;
use crate::core::dfpn::{ProofLimits, ProofTable, Verdict};
use crate::core::game::{Game, MATE};
use crate::core::knowledge::Deadline;

/// What a proof search tells the front-end: progress while it works
/// (`finished` false), then its conclusion.
#[derive(Clone, Debug)]
pub struct ProofReport {
    /// The moves (not plies) the win was asked within.
    pub within_moves: u32,
    pub verdict: Verdict,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Table entries in use, per mille.
    pub hashfull: u32,
    pub line: Vec<String>,
    pub best_move: Option<String>,
    pub finished: bool,
}

impl<G: Game, K: EngineProfile<G>> Engine<G, K> {
    /// Starts a proof search of the current position on its own thread, with
    /// a table of the `Hash` option's size in place of the alpha-beta one.
    /// Only time limits (`movetime`, a clock) and `nodes` bound it; without
    /// them it runs until it knows or is stopped. An error where the game's
    /// knowledge has no proof search.
    pub fn start_proof(
        &mut self,
        within_moves: u32,
        limits: SearchLimits,
        mut on_report: Box<dyn FnMut(&ProofReport) + Send>,
    ) -> Result<SearchHandle<G>, String> {
        let prove = self
            .profile
            .methods
            .proof
            .ok_or_else(|| format!("{} has no proof search (go mate)", G::NAME))?;
        let stop = Arc::new(AtomicBool::new(false));
        let timed = limits.movetime.is_some() || limits.clock.is_some();
        let hard = timed
            .then(|| limits.budget(self.options.move_overhead, false).maximum)
            .flatten();
        let start = Instant::now();
        let within_moves = within_moves.max(1);
        let mut position = self.position.clone();
        let proof_limits = ProofLimits {
            attacker: position.side_to_move(),
            within_plies: within_moves.saturating_mul(2) - 1,
            max_nodes: limits.nodes,
            deadline: Deadline::new(hard.map(|time| start + time), Arc::clone(&stop)),
        };
        let megabytes = self.options.hash_megabytes;
        let signals = SearchSignals {
            stop,
            ..Default::default()
        };
        let state = Arc::clone(&self.state);
        let settings = self.settings.clone();
        Ok(spawn_search(signals, move || {
            // Held to the end: no other search runs beside the proof.
            let mut state = state
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            state.alpha_beta.release_tt();
            let mut table = ProofTable::new(megabytes);
            let mut progress = |nodes| {
                on_report(&ProofReport {
                    within_moves,
                    verdict: Verdict::Open,
                    nodes,
                    elapsed: start.elapsed(),
                    hashfull: 0,
                    line: Vec::new(),
                    best_move: None,
                    finished: false,
                })
            };
            let knowledge = &mut K::new(&settings);
            let result = prove(
                &mut position,
                &proof_limits,
                &mut table,
                knowledge,
                &mut progress,
            );
            let line = position.format_line(&result.line);
            on_report(&ProofReport {
                within_moves,
                verdict: result.verdict,
                nodes: result.nodes,
                elapsed: start.elapsed(),
                hashfull: table.permille_full(),
                best_move: line.first().cloned(),
                line,
                finished: true,
            });
            let plies = match result.verdict {
                Verdict::Proven { plies } => Some(plies),
                _ => None,
            };
            SearchResult {
                best_move: result.best_move,
                score: plies.map_or(0, |plies| MATE - plies as i32),
                depth: plies.unwrap_or(0),
                nodes: result.nodes,
                cutoffs: 0,
                pv: result.line,
                elapsed: start.elapsed(),
            }
        }))
    }
}
