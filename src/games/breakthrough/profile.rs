//! Breakthrough's engine profile: the settings measurement chose for its
//! engine, and the searches its knowledge supports.

use once_cell::sync::Lazy;

use super::{Breakthrough, BreakthroughKnowledge};
use crate::core::params::{NullMove, SearchParams};
use crate::core::strength::Ladder;
use crate::core::wdl::WdlModel;
use crate::engine::{EngineProfile, Profile, SearchMethod, SearchMethods};

impl EngineProfile<Breakthrough> for BreakthroughKnowledge {
    fn profile() -> Profile<Breakthrough, Self> {
        Profile {
            params: search_params(),
            wdl: wdl_model(),
            ladder: strength_ladder(),
            search_method: SearchMethod::AlphaBeta,
            null_move: null_move(),
            hints_every_move: false,
            methods: SearchMethods::alpha_beta().and_monte_carlo().and_proof(),
        }
    }
}

fn wdl_model() -> WdlModel {
    WdlModel::embedded(include_str!("wdl.txt"))
}

fn strength_ladder() -> &'static Ladder {
    static LADDER: Lazy<Ladder> = Lazy::new(|| Ladder::embedded(include_str!("levels.txt")));
    &LADDER
}

/// Zugzwang happens in Breakthrough endgames (mutual blocks where
/// whoever moves must open a lane), so a pass's fail-high is confirmed.
fn null_move() -> NullMove {
    NullMove::Verified
}

/// At 50 ms a move against the engine without each: the verified null
/// move from depth 3 scored 425-375 in 800 games (+22 Elo); late-move
/// pruning up to depth 3, 221-179 alone and 214-186 on top of the null
/// move (400 games each); reverse futility (margin 80 a ply up to depth
/// 3) lost, 186-214.
fn search_params() -> SearchParams {
    SearchParams {
        null_move_min_depth: 3,
        lmp_max_depth: 3,
        ..SearchParams::default()
    }
}
