//! Breakthrough's engine profile: the settings measurement chose for its
//! engine, and the searches its knowledge supports.

use super::{Breakthrough, BreakthroughKnowledge};
use crate::core::params::{NullMove, SearchParams};
use crate::core::strength::Ladder;
use crate::core::wdl::WdlModel;
use crate::engine::{EngineProfile, Profile, SearchMethod, SearchMethods};

impl EngineProfile<Breakthrough> for BreakthroughKnowledge {
    fn profile() -> Profile<Breakthrough, Self> {
        Profile {
            // At 50 ms a move against the engine without each: the verified
            // null move from depth 3 scored 425-375 in 800 games (+22 Elo);
            // late-move pruning up to depth 3, 221-179 alone and 214-186 on
            // top of the null move (400 games each); reverse futility
            // (margin 80 a ply up to depth 3) lost, 186-214.
            params: SearchParams {
                null_move_min_depth: 3,
                lmp_max_depth: 3,
                ..SearchParams::default()
            },
            wdl: WdlModel::embedded(include_str!("wdl.txt")),
            ladder: Ladder::embedded(include_str!("levels.txt")),
            search_method: SearchMethod::AlphaBeta,
            // Zugzwang happens in Breakthrough endgames (mutual blocks where
            // whoever moves must open a lane), so a pass's fail-high is
            // confirmed.
            null_move: NullMove::Verified,
            hints_every_move: false,
            methods: SearchMethods::alpha_beta().and_monte_carlo().and_proof(),
        }
    }
}
