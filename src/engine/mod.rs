//! The engine core every protocol front-end adapts: options, the current
//! position and its move history, and a search running on its own thread.

mod options;
mod profile;
mod proof;
mod state;

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::core::control::{SearchControl, SearchSignals, MAX_PLY};
pub use crate::core::control::{SearchInfo, SearchResult};
use crate::core::game::{Game, OptionSpec};
use crate::core::knowledge::{EvalTerm, KnowledgeSettings};
pub use crate::core::mcts::{CandidateReport, TreeReport};
use crate::core::params::SearchParams;
use crate::core::presentation::Presentation;
use crate::core::search;
use crate::core::strength::{Skill, LEVEL_LINES};
pub use crate::core::time::{Clock, SearchLimits};
pub use options::{EngineOptions, OptionRanges};
pub use profile::{EngineProfile, Profile, SearchMethod, SearchMethods};
pub use proof::ProofReport;
use state::SearchState;

/// A running search. Dropping the handle stops the search and waits for it.
pub struct SearchHandle<G: Game> {
    signals: SearchSignals,
    /// A search started by `go ponder`: it waits for `ponderhit` or `stop`.
    ponder: bool,
    /// The longest a ponder search may run after `ponderhit`, if limited.
    maximum_after_ponderhit: Option<Duration>,
    thread: Option<JoinHandle<SearchResult<G::Move>>>,
}

impl<G: Game> SearchHandle<G> {
    /// Asks the search to stop; it answers with its best move so far.
    pub fn stop(&self) {
        self.signals.stop.store(true, Ordering::Relaxed);
    }

    /// Whether this is a search started by `go ponder` still waiting for
    /// `ponderhit`.
    pub fn is_pondering(&self) -> bool {
        self.ponder
            && self.signals.ponderhit.hit_at().is_none()
            && !self.signals.stop.load(Ordering::Relaxed)
    }

    /// `ponderhit`: the ponder search goes on as a normal search whose
    /// clock starts now. A watchdog enforces the maximum on everything the
    /// search runs, a game's long analyses included.
    pub fn ponderhit(&self) {
        if !self.is_pondering() {
            return;
        }
        self.signals.ponderhit.hit();
        if let Some(maximum) = self.maximum_after_ponderhit {
            let stop = Arc::clone(&self.signals.stop);
            let spawned = std::thread::Builder::new()
                .name("ponderhit watchdog".into())
                .spawn(move || {
                    std::thread::sleep(maximum);
                    stop.store(true, Ordering::Relaxed);
                });
            if let Err(e) = spawned {
                log::warn!("no watchdog after ponderhit: {e}");
            }
        }
    }

    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Waits for the search to end and returns its result.
    pub fn wait(mut self) -> SearchResult<G::Move> {
        self.join()
    }

    fn join(&mut self) -> SearchResult<G::Move> {
        match self.thread.take().map(|t| t.join()) {
            Some(Ok(result)) => result,
            Some(Err(_)) => {
                log::error!("the search thread panicked");
                SearchResult::empty()
            }
            None => SearchResult::empty(),
        }
    }
}

impl<G: Game> Drop for SearchHandle<G> {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.stop();
            self.join();
        }
    }
}

/// One game's engine: `G` the rules, `K` the knowledge its searches use,
/// with its game's profile.
pub struct Engine<G: Game, K: EngineProfile<G>> {
    options: EngineOptions,
    profile: Profile<G, K>,
    params: SearchParams,
    /// The options the knowledge reads, handed to every knowledge made.
    settings: K::Settings,
    rules: G::Rules,
    /// The position `position` set, before its moves.
    root: G,
    /// The moves played since `root`, so that `undo_move` can step back.
    history: Vec<G::Move>,
    position: G,
    state: Arc<Mutex<SearchState<G, K>>>,
}

impl<G: Game, K: EngineProfile<G>> Default for Engine<G, K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game, K: EngineProfile<G>> Engine<G, K> {
    pub fn new() -> Self {
        let profile = K::profile();
        let ranges = profile.option_ranges();
        let options = EngineOptions {
            elo: EngineOptions::default_elo(ranges.elo),
            search_method: ranges.default_method,
            ..Default::default()
        };
        let rules = G::Rules::default();
        let root = G::start_position(&rules);
        Engine {
            params: profile.params,
            state: Arc::new(Mutex::new(SearchState::new(options.hash_megabytes))),
            profile,
            options,
            settings: K::Settings::default(),
            rules,
            position: root.clone(),
            root,
            history: Vec::new(),
        }
    }

    pub fn option_specs(&self) -> Vec<OptionSpec> {
        let mut specs = EngineOptions::specs(&self.profile.option_ranges());
        specs.extend(self.params.specs());
        specs.extend(G::rule_options());
        specs.extend(K::Settings::option_specs());
        specs
    }

    /// `setoption`: engine options first, then the search's parameters, the
    /// game's rule options and the knowledge's. A rule change resets the
    /// position to the new rules' start; a knowledge option makes the
    /// searches' knowledge anew with it.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if let Some(change) = self
            .options
            .set(name, value, &self.profile.option_ranges())?
        {
            if change.hash_changed {
                *self.lock_state() = SearchState::new(self.options.hash_megabytes);
            }
            if change.clear_hash {
                self.lock_state().clear();
            }
            return Ok(());
        }
        if self.params.set(name, value)? {
            return Ok(());
        }
        let mut settings = self.settings.clone();
        if settings.set_option(name, value)? {
            self.settings = settings;
            self.lock_state().knowledge.clear();
            return Ok(());
        }
        let spec = G::rule_options()
            .into_iter()
            .find(|spec| spec.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown option '{name}'"))?;
        let mut rules = self.rules.clone();
        G::set_rule_option(&mut rules, spec.name, value)?;
        self.rules = rules;
        self.root = G::start_position(&self.rules);
        self.position = self.root.clone();
        self.history.clear();
        self.lock_state().clear();
        Ok(())
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    pub fn profile(&self) -> &Profile<G, K> {
        &self.profile
    }

    /// The option values the knowledge is made with.
    pub fn knowledge_settings(&self) -> &K::Settings {
        &self.settings
    }

    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    pub fn position(&self) -> &G {
        &self.position
    }

    /// The moves played since the last `set_position` base.
    pub fn history(&self) -> &[G::Move] {
        &self.history
    }

    pub fn new_game(&mut self) {
        self.lock_state().clear();
    }

    fn lock_state(&self) -> std::sync::MutexGuard<'_, SearchState<G, K>> {
        // A panicked search leaves the tables in a usable state: entries are
        // written whole, so the poison flag can be ignored.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// `position [fen F | startpos] moves ...`: all or nothing.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let root = match fen {
            None => G::start_position(&self.rules),
            Some(fen) => {
                G::from_fen(fen, &self.rules).map_err(|e| format!("bad position '{fen}': {e}"))?
            }
        };
        let mut position = root.clone();
        let mut history = Vec::with_capacity(moves.len());
        for (index, text) in moves.iter().enumerate() {
            let mv = position
                .parse_legal_move(text)
                .map_err(|e| format!("move {} '{text}': {e}", index + 1))?;
            position.make_move(mv);
            history.push(mv);
        }
        self.root = root;
        self.position = position;
        self.history = history;
        Ok(())
    }

    /// Plays one legal move on the current position.
    pub fn play_move(&mut self, text: &str) -> Result<G::Move, String> {
        let mv = self
            .position
            .parse_legal_move(text)
            .map_err(|e| e.to_string())?;
        self.position.make_move(mv);
        self.history.push(mv);
        Ok(mv)
    }

    /// Takes back the last move played; the base position cannot be undone.
    pub fn undo_move(&mut self) -> Result<(), String> {
        let mv = self.history.pop().ok_or("no move to take back")?;
        self.position.unmake_move(mv);
        Ok(())
    }

    /// The evaluation of the current position, term by term, and its total,
    /// from a knowledge of its own (a running search keeps its own).
    pub fn evaluation(&self) -> (Vec<EvalTerm>, crate::core::Score) {
        let mut knowledge = K::new(&self.settings);
        let terms = knowledge.eval_terms(&self.position);
        (terms, knowledge.evaluate(&self.position))
    }

    /// Starts a search of the current position on its own thread. `on_info`
    /// is called (on that thread) after every completed depth and a last time
    /// with `finished` set, just before the thread ends.
    pub fn start_search(
        &mut self,
        limits: SearchLimits,
        on_info: Box<dyn FnMut(&SearchInfo) + Send>,
    ) -> SearchHandle<G> {
        self.start_search_among(limits, Vec::new(), on_info)
    }

    /// The same, searching only `root_moves` at the root (all when empty):
    /// `go searchmoves`, checked by `parse_root_moves`.
    pub fn start_search_among(
        &mut self,
        limits: SearchLimits,
        root_moves: Vec<G::Move>,
        on_info: Box<dyn FnMut(&SearchInfo) + Send>,
    ) -> SearchHandle<G> {
        let method = self.search_method(&limits);
        self.start_search_by(method, limits, root_moves, on_info)
    }

    /// A search by `method` whatever the options say (an analysis that
    /// wants the Monte Carlo tree); alpha-beta if the game has no such
    /// search.
    pub fn start_search_by(
        &mut self,
        method: SearchMethod,
        limits: SearchLimits,
        root_moves: Vec<G::Move>,
        mut on_info: Box<dyn FnMut(&SearchInfo) + Send>,
    ) -> SearchHandle<G> {
        let signals = SearchSignals::default();
        let control = self.search_control(&limits);
        let game = self.position.clone();
        // Monte Carlo search runs on one thread.
        let monte_carlo = match method {
            SearchMethod::AlphaBeta => None,
            SearchMethod::MonteCarlo => self.profile.methods.monte_carlo,
        };
        let threads = match monte_carlo {
            Some(_) => 1,
            None => self.options.threads,
        };
        let settings = self.settings.clone();
        let state = Arc::clone(&self.state);
        let thread_signals = signals.clone();
        let work = move || {
            let mut state = state
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let SearchState {
                knowledge,
                alpha_beta,
                monte_carlo: kept,
            } = &mut *state;
            let knowledge = SearchState::<G, K>::knowledge_for(knowledge, threads, &settings);
            match monte_carlo {
                Some(monte_carlo) => {
                    // The tree takes the memory the transposition table would.
                    alpha_beta.release_tt();
                    monte_carlo(
                        game,
                        &mut knowledge[0],
                        kept,
                        &thread_signals,
                        control,
                        &root_moves,
                        &mut *on_info,
                    )
                }
                None => search::search(
                    game,
                    knowledge,
                    alpha_beta,
                    &thread_signals,
                    control,
                    &root_moves,
                    &mut *on_info,
                ),
            }
        };
        let mut handle = spawn_search(signals, work);
        handle.ponder = limits.ponder;
        handle.maximum_after_ponderhit = control.budget.maximum;
        handle
    }

    /// The search `go` runs: the option's (one the profile offers), except
    /// that `go depth` and `Depth`, limits only alpha-beta has, and the
    /// weaker levels, whose ladder was measured with alpha-beta, always run
    /// alpha-beta.
    fn search_method(&self, limits: &SearchLimits) -> SearchMethod {
        let weakened = self.options.limit_strength && !self.options.analyse_mode;
        if limits.depth.is_some() || self.options.depth_cap > 0 || weakened {
            return SearchMethod::AlphaBeta;
        }
        self.options.search_method
    }

    /// The search's limits from `go` and the options; a weakened level
    /// (`UCI_LimitStrength`, unless `UCI_AnalyseMode`) caps the nodes.
    fn search_control(&self, limits: &SearchLimits) -> SearchControl {
        let depth_cap = self.options.depth_cap;
        let mut control = SearchControl {
            max_depth: limits
                .depth
                .or(if depth_cap > 0 { Some(depth_cap) } else { None })
                .unwrap_or(MAX_PLY as u32)
                .clamp(1, MAX_PLY as u32 - 1),
            max_nodes: limits.nodes,
            budget: limits.budget(self.options.move_overhead, depth_cap > 0),
            until_stopped: limits.infinite,
            params: self.params,
            lines: self.options.multipv,
            ponder: limits.ponder,
            skill: None,
            null_move: self.profile.null_move,
            hints_every_move: self.profile.hints_every_move,
        };
        if self.options.limit_strength && !self.options.analyse_mode {
            let setting = self.profile.ladder.setting(self.options.elo as f64);
            control.max_nodes = Some(
                control
                    .max_nodes
                    .map_or(setting.nodes, |n| n.min(setting.nodes)),
            );
            let seed = match self.options.strength_seed {
                0 => rand::random(),
                seed => seed,
            };
            control.skill = Some(Skill {
                lines: LEVEL_LINES,
                temperature: setting.temperature,
                seed,
                random_share: setting.random_share,
            });
        }
        control
    }

    /// The last Monte Carlo search's statistics at the current position:
    /// its root, or a position up to two plies below it that the tree
    /// reached (after our move and the reply). `None` when no such search
    /// ran or its tree does not hold this position expanded.
    pub fn tree_report(&self) -> Option<TreeReport<G::Move>> {
        let state = self.lock_state();
        match state.knowledge.first() {
            Some(knowledge) => {
                crate::core::mcts::tree_report(&state.monte_carlo, &self.position, knowledge)
            }
            None => {
                let knowledge = K::new(&self.settings);
                crate::core::mcts::tree_report(&state.monte_carlo, &self.position, &knowledge)
            }
        }
    }

    /// `go searchmoves`: each move parsed and checked legal, none twice.
    pub fn parse_root_moves(&self, texts: &[String]) -> Result<Vec<G::Move>, String> {
        let mut moves: Vec<G::Move> = Vec::with_capacity(texts.len());
        for text in texts {
            let mv = self
                .position
                .parse_legal_move(text)
                .map_err(|e| format!("searchmoves '{text}': {e}"))?;
            if !moves.contains(&mv) {
                moves.push(mv);
            }
        }
        Ok(moves)
    }

    /// Searches a fixed set of positions to a fixed depth, with the
    /// engine options `options` set first. Returns the total node count (a
    /// signature of the search) and the time taken.
    pub fn bench(depth: u32, options: &[(String, String)]) -> Result<(u64, Duration), String>
    where
        G: Presentation,
    {
        let mut engine = Engine::<G, K>::new();
        for (name, value) in options {
            engine
                .set_option(name, value)
                .map_err(|e| format!("option {name}={value}: {e}"))?;
        }
        let mut fens: Vec<String> = G::bench_positions().iter().map(|s| s.to_string()).collect();
        if fens.is_empty() {
            fens.push(engine.position.to_fen());
        }
        let start = Instant::now();
        let mut nodes = 0;
        for fen in &fens {
            engine.set_position(Some(fen), &[])?;
            engine.new_game();
            let limits = SearchLimits {
                depth: Some(depth),
                ..Default::default()
            };
            nodes += engine.start_search(limits, Box::new(|_| {})).wait().nodes;
        }
        Ok((nodes, start.elapsed()))
    }
}

/// Runs `work` on a thread of its own, reached through `signals`.
fn spawn_search<G: Game>(
    signals: SearchSignals,
    work: impl FnOnce() -> SearchResult<G::Move> + Send + 'static,
) -> SearchHandle<G> {
    let spawned = std::thread::Builder::new()
        .name("search".into())
        .spawn(work);
    let thread = match spawned {
        Ok(thread) => Some(thread),
        Err(e) => {
            log::error!("could not start the search thread: {e}");
            None
        }
    };
    SearchHandle {
        signals,
        ponder: false,
        maximum_after_ponderhit: None,
        thread,
    }
}
