//! Hex's engine profile: the settings measurement chose for its engine,
//! and the searches its knowledge supports.

use super::{Hex, HexKnowledge};
use crate::core::params::{NullMove, SearchParams};
use crate::core::strength::Ladder;
use crate::core::wdl::WdlModel;
use crate::engine::{EngineProfile, Profile, SearchMethod, SearchMethods};

impl EngineProfile<Hex> for HexKnowledge {
    fn profile() -> Profile<Hex, Self> {
        Profile {
            params: SearchParams::default(),
            wdl: WdlModel::embedded(include_str!("wdl.txt")),
            ladder: Ladder::embedded(include_str!("levels.txt")),
            // Monte Carlo search with these playouts and priors beat the
            // alpha-beta engine by hundreds of Elo at 1 s a move
            // (docs/results/hex.md, "Monte Carlo tree search").
            search_method: SearchMethod::MonteCarlo,
            // A stone never hurts its owner in Hex, so a pass is never better
            // than the best move.
            null_move: NullMove::Sound,
            hints_every_move: false,
            methods: SearchMethods::alpha_beta().and_monte_carlo().and_proof(),
        }
    }
}
