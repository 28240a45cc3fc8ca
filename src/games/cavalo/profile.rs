//! Jogo do Cavalo's engine profile: the settings measurement chose for its
//! engine, and the searches its knowledge supports.

use super::{Cavalo, CavaloKnowledge};
use crate::core::params::{NullMove, SearchParams};
use crate::core::strength::Ladder;
use crate::core::wdl::WdlModel;
use crate::engine::{EngineProfile, Profile, SearchMethod, SearchMethods};

impl EngineProfile<Cavalo> for CavaloKnowledge {
    fn profile() -> Profile<Cavalo, Self> {
        Profile {
            params: SearchParams::default(),
            wdl: WdlModel::embedded(include_str!("wdl.txt")),
            ladder: Ladder::embedded(include_str!("levels.txt")),
            search_method: SearchMethod::AlphaBeta,
            // A knight forced to jump may have to give up a cell it guards
            // or walk into a corner, so passing can be better than every
            // move: a pass's fail-high is confirmed by a search without one.
            null_move: NullMove::Verified,
            // Every jump takes points. Reducing late jumps and trying killers
            // first cut the nodes to depth 14 of the bench positions from
            // 1.72 M to 0.57 M.
            hints_every_move: true,
            methods: SearchMethods::alpha_beta().and_monte_carlo().and_proof(),
        }
    }
}
