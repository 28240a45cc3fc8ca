//! What an engine knows of its game before any search: the static
//! settings measurement chose for it (search parameters, WDL model,
//! strength ladder, default search method, null-move soundness) and the
//! searches its knowledge supports. One `Profile` per game, in the game's
//! own `profile.rs`; the per-thread knowledge holds none of it.

use super::options::OptionRanges;
use crate::core::control::{SearchControl, SearchInfo, SearchResult, SearchSignals};
use crate::core::dfpn::{self, ProofKnowledge, ProofLimits, ProofResult, ProofTable};
use crate::core::game::Game;
use crate::core::knowledge::PlainKnowledge;
use crate::core::mcts::{self, MonteCarloKnowledge, MonteCarloTables};
use crate::core::params::{NullMove, SearchParams};
use crate::core::search::AlphaBetaKnowledge;
use crate::core::strength::{Ladder, GENERIC_LADDER};
use crate::core::wdl::WdlModel;

/// Which search an engine runs (the `SearchMethod` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchMethod {
    /// Alpha-beta over the static evaluation (`core/search`).
    AlphaBeta,
    /// Monte Carlo tree search over the knowledge's playouts (`core/mcts`).
    MonteCarlo,
}

impl SearchMethod {
    pub const ALL: [SearchMethod; 2] = [SearchMethod::AlphaBeta, SearchMethod::MonteCarlo];

    pub fn name(self) -> &'static str {
        match self {
            SearchMethod::AlphaBeta => "alphabeta",
            SearchMethod::MonteCarlo => "mcts",
        }
    }

    pub fn parse(text: &str) -> Option<SearchMethod> {
        let text = text.trim();
        Self::ALL
            .into_iter()
            .find(|method| method.name().eq_ignore_ascii_case(text))
    }
}

/// Monte Carlo search as the engine calls it (`mcts::search`).
pub type MonteCarloSearch<G, K> = fn(
    G,
    &mut K,
    &mut MonteCarloTables<G>,
    &SearchSignals,
    SearchControl,
    &[<G as Game>::Move],
    &mut dyn FnMut(&SearchInfo),
) -> SearchResult<<G as Game>::Move>;

/// Proof-number search as the engine calls it (`dfpn::prove`, `go mate`).
pub type ProofSearch<G, K> = fn(
    &mut G,
    &ProofLimits,
    &mut ProofTable,
    &mut K,
    &mut dyn FnMut(u64),
) -> ProofResult<<G as Game>::Move>;

/// The searches a knowledge supports beyond alpha-beta, which every engine
/// runs (`go depth`, the weaker levels, the bench). Each is added only
/// where the knowledge implements that search's trait, so the compiler
/// checks what the engine offers.
pub struct SearchMethods<G: Game, K> {
    pub(super) monte_carlo: Option<MonteCarloSearch<G, K>>,
    pub(super) proof: Option<ProofSearch<G, K>>,
}

impl<G: Game, K> Clone for SearchMethods<G, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game, K> Copy for SearchMethods<G, K> {}

impl<G: Game, K: AlphaBetaKnowledge<G>> SearchMethods<G, K> {
    /// Alpha-beta alone.
    pub fn alpha_beta() -> Self {
        SearchMethods {
            monte_carlo: None,
            proof: None,
        }
    }

    /// Adds Monte Carlo tree search (`SearchMethod mcts`).
    pub fn and_monte_carlo(mut self) -> Self
    where
        K: MonteCarloKnowledge<G>,
    {
        self.monte_carlo = Some(mcts::search::<G, K>);
        self
    }

    /// Adds proof-number search (`go mate`).
    pub fn and_proof(mut self) -> Self
    where
        K: ProofKnowledge<G>,
    {
        self.proof = Some(dfpn::prove::<G, K>);
        self
    }
}

impl<G: Game, K> SearchMethods<G, K> {
    /// The values `SearchMethod` may take.
    pub fn offered(&self) -> Vec<SearchMethod> {
        let mut methods = vec![SearchMethod::AlphaBeta];
        if self.monte_carlo.is_some() {
            methods.push(SearchMethod::MonteCarlo);
        }
        methods
    }

    /// Whether `go mate` has a proof search to run.
    pub fn proves(&self) -> bool {
        self.proof.is_some()
    }
}

/// One game's static engine settings, chosen by measurement.
pub struct Profile<G: Game, K> {
    /// The defaults of the search's parameters (each a `setoption` spin).
    pub params: SearchParams,
    /// How scores turn into chances of a win, a draw and a loss
    /// (`UCI_ShowWDL`), fitted to the game's results.
    pub wdl: WdlModel,
    /// The weaker levels with their measured Elo (`UCI_LimitStrength`).
    pub ladder: Ladder,
    /// The search `go` runs unless `SearchMethod` says otherwise; one of
    /// `methods`.
    pub search_method: SearchMethod,
    /// Alpha-beta: whether a pass may stand in for a move (`NullMove`).
    pub null_move: NullMove,
    /// Alpha-beta: every move gets a positive ordering hint because every
    /// move scores (Jogo do Cavalo).
    pub hints_every_move: bool,
    pub methods: SearchMethods<G, K>,
}

impl<G: Game, K: AlphaBetaKnowledge<G>> Profile<G, K> {
    /// The settings of a game nothing has been measured for, with `methods`.
    pub fn generic(methods: SearchMethods<G, K>) -> Self {
        Profile {
            params: SearchParams::default(),
            wdl: WdlModel::GENERIC,
            ladder: GENERIC_LADDER.clone(),
            search_method: SearchMethod::AlphaBeta,
            null_move: NullMove::Unsound,
            hints_every_move: false,
            methods,
        }
    }

    /// What this profile decides of the engine options.
    pub fn option_ranges(&self) -> OptionRanges {
        OptionRanges {
            elo: self.ladder.elo_range(),
            default_method: self.default_method(),
            methods: self.methods.offered(),
        }
    }

    /// The default search method, where the game offers it.
    pub fn default_method(&self) -> SearchMethod {
        match self.methods.offered().contains(&self.search_method) {
            true => self.search_method,
            false => SearchMethod::AlphaBeta,
        }
    }
}

/// A knowledge an engine can run on: alpha-beta's, with its game's profile.
pub trait EngineProfile<G: Game>: AlphaBetaKnowledge<G> + Sized {
    fn profile() -> Profile<G, Self>;
}

/// A game with no knowledge yet runs every search, with generic settings.
impl<G: Game> EngineProfile<G> for PlainKnowledge<G> {
    fn profile() -> Profile<G, Self> {
        Profile::generic(SearchMethods::alpha_beta().and_monte_carlo().and_proof())
    }
}
