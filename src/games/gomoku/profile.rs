//! Gomoku's engine profile: the settings measurement chose for its engine,
//! and the searches its knowledge supports.

use super::{Gomoku, GomokuKnowledge};
use crate::core::params::{NullMove, SearchParams};
use crate::core::strength::Ladder;
use crate::core::wdl::WdlModel;
use crate::engine::{EngineProfile, Profile, SearchMethod, SearchMethods};

impl EngineProfile<Gomoku> for GomokuKnowledge {
    fn profile() -> Profile<Gomoku, Self> {
        Profile {
            // Each screened at 50 ms a move from the Piskvork openings
            // against the settings before it (docs/results/gomoku.md, first
            // round; the null move in docs/results/search-core.md): the null
            // move from depth 3 (+26 Elo over 800 games), then
            // reverse futility to depth 4 (+41 +/- 30) and late-move pruning
            // to depth 6 (+41 +/- 36). Futility to depth 6, late-move
            // pruning to depth 8 and the logarithmic reduction table gained
            // nothing; the rest stays as it was. A forced reply searched a
            // ply deeper: +44 +/- 31 (483 games, SPRT accepted). Razoring
            // to depth 2 at 200 a ply, at 100 ms: +28 +/- 27 (644 games,
            // SPRT accepted). The singular extension from depth 6 at 2 a
            // ply, at 100 ms: +26 +/- 24 (800 games, with the network).
            // Late-move pruning at every depth from 3 + depth^1.32 quiet
            // moves on, with history in the reductions, at 200 ms:
            // +21.3 +/- 19.1 (pentanomial, 800 games). Quiescence reading
            // and filling the table, at 200 ms: +27.8 +/- 18.2 (pentanomial,
            // 726 games, SPRT accepted). The pruning's evaluation taking
            // the table's score where its bound reaches past it, at 200 ms:
            // +25.5 +/- 20.7 (pentanomial, 600 games).
            params: SearchParams {
                null_move_min_depth: 3,
                rfp_max_depth: 4,
                razor_max_depth: 2,
                lmp_max_depth: 100,
                lmp_power: 132,
                lmr_history_divisor: 5000,
                single_reply_extension: 1,
                singular_min_depth: 6,
                singular_margin: 2,
                quiescence_table: 1,
                table_eval: 1,
                ..SearchParams::default()
            },
            wdl: WdlModel::embedded(include_str!("wdl.txt")),
            ladder: Ladder::embedded(include_str!("levels.txt")),
            search_method: SearchMethod::AlphaBeta,
            // A stone more never hurts its owner in freestyle (in
            // exactly-five it could, through an overline, and under renju by
            // leaving Black a forbidden point, too rarely to matter to a
            // pruning).
            null_move: NullMove::Sound,
            hints_every_move: false,
            methods: SearchMethods::alpha_beta().and_monte_carlo().and_proof(),
        }
    }
}
