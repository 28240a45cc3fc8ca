//! Lazy SMP: helper threads search the same position beside the main thread
//! and share its transposition table. What one thread stores, the others
//! find; the threads' different timing and depths spread them over different
//! parts of the tree. The main thread reports and answers.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::{AlphaBetaKnowledge, SearchTables, Searcher, SharedSearch};
use crate::core::control::{
    wait_for_release, SearchControl, SearchInfo, SearchResult, SearchSignals,
};
use crate::core::game::{Game, Score};

/// Nodes between two reports of a helper's counts to the main thread.
pub(super) const HELPER_COUNT_INTERVAL: u64 = 4096;

/// What the helpers tell the main thread: their node and cut-off counts, for
/// its info lines, and the deepest iteration one of them has completed.
pub(super) struct HelperReports<M> {
    nodes: AtomicU64,
    cutoffs: AtomicU64,
    deepest: Mutex<Option<CompletedIteration<M>>>,
}

pub(super) struct CompletedIteration<M> {
    pub(super) depth: u32,
    pub(super) score: Score,
    pub(super) pv: Vec<M>,
}

impl<M> HelperReports<M> {
    pub(super) fn new() -> Self {
        HelperReports {
            nodes: AtomicU64::new(0),
            cutoffs: AtomicU64::new(0),
            deepest: Mutex::new(None),
        }
    }

    pub(super) fn add_counts(&self, nodes: u64, cutoffs: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        self.cutoffs.fetch_add(cutoffs, Ordering::Relaxed);
    }

    /// Nodes and cut-offs the helpers have reported so far.
    pub(super) fn counts(&self) -> (u64, u64) {
        (
            self.nodes.load(Ordering::Relaxed),
            self.cutoffs.load(Ordering::Relaxed),
        )
    }

    pub(super) fn deepest(&self) -> MutexGuard<'_, Option<CompletedIteration<M>>> {
        // An iteration is written whole, so a panicked writer left no half.
        self.deepest
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Searches `game` within `control` on as many threads as `knowledge` has
/// values (the first is the main thread's; an empty slice searches
/// nothing) and returns the main thread's result. Only `root_moves` are
/// searched at the root, unless it is empty. `report` is called after
/// every completed depth and a last time with `finished` set.
pub fn search<G: Game, K: AlphaBetaKnowledge<G>>(
    game: G,
    knowledge: &mut [K],
    tables: &mut SearchTables<G>,
    signals: &SearchSignals,
    control: SearchControl,
    root_moves: &[G::Move],
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult<G::Move> {
    let Some((main_knowledge, helper_knowledge)) = knowledge.split_first_mut() else {
        return SearchResult::empty();
    };
    let stop = &signals.stop;
    let ponderhit = &*signals.ponderhit;
    tables.restore_tt();
    tables.tt.new_search();
    let history = std::mem::take(&mut tables.history);
    let tt = &tables.tt;
    let bound = main_knowledge.move_index_bound(&game);
    let history = if history.len() == bound {
        history
    } else {
        vec![0; bound]
    };
    let helper_reports = HelperReports::new();
    // Helpers stop when the main thread is done, whatever ended its search.
    let helpers_stop = Arc::new(AtomicBool::new(false));
    let helper_control = SearchControl {
        max_nodes: None,
        until_stopped: false,
        lines: 1,
        skill: None,
        ..control
    };
    let (mut main, mut result) = std::thread::scope(|scope| {
        for (index, knowledge) in helper_knowledge.iter_mut().enumerate() {
            let id = index + 1;
            let game = game.clone();
            let history = history.clone();
            let shared = SharedSearch {
                tt,
                stop: &helpers_stop,
                ponderhit,
                reports: &helper_reports,
                root_moves,
            };
            let spawned = std::thread::Builder::new()
                .name(format!("helper {id}"))
                .spawn_scoped(scope, move || {
                    Searcher::new(game, knowledge, history, helper_control, shared, id)
                        .run_helper();
                });
            if let Err(e) = spawned {
                log::warn!("could not start search helper {id}: {e}");
                break;
            }
        }
        let shared = SharedSearch {
            tt,
            stop,
            ponderhit,
            reports: &helper_reports,
            root_moves,
        };
        let mut main = Searcher::new(game, main_knowledge, history, control, shared, 0);
        let result = main.run(report);
        helpers_stop.store(true, Ordering::Relaxed);
        (main, result)
    });
    wait_for_release(&control, signals);
    // Every helper has ended and added its last counts.
    result.nodes = main.total_nodes();
    result.cutoffs = main.total_cutoffs();
    report(&main.info(&result, true));
    tables.history = main.take_history();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::control::mate_distance_in_moves;
    use crate::core::knowledge::Knowledge;
    use crate::core::time::PonderHit;
    use crate::games::breakthrough::{Breakthrough, BreakthroughKnowledge, BreakthroughRules};

    fn to_depth(depth: u32) -> SearchControl {
        SearchControl {
            max_depth: depth,
            ..Default::default()
        }
    }

    #[test]
    fn a_helper_leaves_its_work_in_the_shared_table_and_counts_it() {
        let game = Breakthrough::start_position(&BreakthroughRules::default());
        let mut tables = SearchTables::<Breakthrough>::new(4);
        tables.tt.new_search();
        let counts = HelperReports::new();
        let stop = Arc::new(AtomicBool::new(false));
        let mut knowledge = BreakthroughKnowledge::default();
        let history = vec![0; knowledge.move_index_bound(&game)];
        let key = game.hash();
        let ponderhit = PonderHit::default();
        let shared = SharedSearch {
            tt: &tables.tt,
            stop: &stop,
            ponderhit: &ponderhit,
            reports: &counts,
            root_moves: &[],
        };
        let mut helper = Searcher::new(game, &mut knowledge, history, to_depth(5), shared, 1);
        helper.run_helper();
        // An odd helper runs one depth ahead, up to the last depth allowed.
        let root = tables.tt.probe(key, 0).expect("the helper stored the root");
        assert_eq!(root.depth, 5);
        assert!(root.best_move.is_some());
        // A helper's totals are its own counts.
        assert!(helper.total_nodes() > 0);
        assert_eq!(
            counts.counts(),
            (helper.total_nodes(), helper.total_cutoffs())
        );
        let deepest = counts.deepest();
        let deepest = deepest
            .as_ref()
            .expect("the helper published its iterations");
        assert_eq!(deepest.depth, 5);
        assert_eq!(deepest.pv.first().copied(), root.best_move);
    }

    #[test]
    fn the_main_thread_plays_a_deeper_helper_iteration() {
        let game = Breakthrough::start_position(&BreakthroughRules::default());
        let mut legal = Vec::new();
        game.generate_moves(&mut legal);
        let tables = SearchTables::<Breakthrough>::new(4);
        let counts = HelperReports::new();
        // A helper "completed" depth 9 preferring the last legal move.
        let helper_move = *legal.last().expect("moves from the start");
        *counts.deepest() = Some(CompletedIteration {
            depth: 9,
            score: 12_345,
            pv: vec![helper_move],
        });
        let stop = Arc::new(AtomicBool::new(false));
        let mut knowledge = BreakthroughKnowledge::default();
        let history = vec![0; knowledge.move_index_bound(&game)];
        let ponderhit = PonderHit::default();
        let shared = SharedSearch {
            tt: &tables.tt,
            stop: &stop,
            ponderhit: &ponderhit,
            reports: &counts,
            root_moves: &[],
        };
        let mut main = Searcher::new(game, &mut knowledge, history, to_depth(3), shared, 0);
        let result = main.run(&mut |_| {});
        assert_eq!((result.depth, result.score), (9, 12_345));
        assert_eq!(result.best_move, Some(helper_move));
        // A helper no deeper than the main thread changes nothing.
        *counts.deepest() = Some(CompletedIteration {
            depth: 3,
            score: 12_345,
            pv: vec![helper_move],
        });
        let result = main.run(&mut |_| {});
        assert_eq!(result.depth, 3);
        assert_ne!(result.score, 12_345);
    }

    #[test]
    fn more_threads_find_the_same_forced_win() {
        // White's e5 runner cannot be caught: it arrives in 3 moves.
        let rules = BreakthroughRules::default();
        let game =
            Breakthrough::from_fen("pp6/8/8/4P3/8/8/8/7P w 0 1", &rules).expect("a valid FEN");
        for threads in [1, 2, 4] {
            let mut tables = SearchTables::<Breakthrough>::new(4);
            let signals = SearchSignals::default();
            let mut infos = Vec::new();
            let mut knowledge: Vec<_> = (0..threads)
                .map(|_| BreakthroughKnowledge::default())
                .collect();
            let result = search(
                game.clone(),
                &mut knowledge,
                &mut tables,
                &signals,
                to_depth(7),
                &[],
                &mut |info| infos.push(info.clone()),
            );
            assert_eq!(
                mate_distance_in_moves(result.score),
                Some(3),
                "{threads} threads"
            );
            let last = infos.last().expect("a final report");
            assert!(last.finished);
            assert_eq!(last.nodes, result.nodes);
            assert!(result.best_move.is_some());
        }
    }
}
