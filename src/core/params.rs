//! The search's tunable parameters. Each is a `setoption` spin, so that a
//! tuner (SPSA) or a person can change it without a rebuild; a game's
//! knowledge gives its own defaults (`Knowledge::search_params`), because
//! what pays in one game may not in another.

use super::game::{OptionKind, OptionSpec};

/// What a game says of null-move pruning, where a side that could pass
/// and still score at least beta is taken to stand at least that well.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NullMove {
    /// A pass may be a side's best move (or the game has none).
    #[default]
    Unsound,
    /// A move is never worse than a pass (Hex: a stone never hurts its owner).
    Sound,
    /// Zugzwang occurs, rarely: a fail-high after a pass is confirmed by a
    /// shallower search of the real moves before it is trusted.
    Verified,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Half-width of the first aspiration window around the last score.
    pub aspiration_window: i32,
    /// Late-move reductions: moves from `lmr_min_index` on (counted from 0)
    /// at depth `lmr_min_depth` or more lose one ply; from
    /// `lmr_second_index` on, another; from `lmr_third_index` on at depth
    /// `lmr_third_depth` or more, a third.
    pub lmr_min_depth: i32,
    pub lmr_min_index: i32,
    pub lmr_second_index: i32,
    pub lmr_third_index: i32,
    pub lmr_third_depth: i32,
    /// Reductions from a table instead of the steps (0: the steps):
    /// `lmr_table_base / 100 + ln(depth) * ln(index) * 100 / lmr_table_divisor`.
    pub lmr_table_divisor: i32,
    pub lmr_table_base: i32,
    /// A quiet move is reduced one ply less for every `lmr_history_divisor`
    /// points of its history, and more for a bad history (0: history is
    /// not asked).
    pub lmr_history_divisor: i32,
    /// Tactical moves (those the game hints) whose hint is below
    /// `lmr_tactical_below` are reduced as late quiet moves are, though
    /// never pruned (0: none).
    pub lmr_tactical_below: i32,
    /// Plies more a reduced late move loses at a node whose static
    /// evaluation is no better than two plies before (0: none).
    pub lmr_worsening: i32,
    /// Plies more a late move loses at a node expected to fail high (a
    /// cut node: a PV node's null-window child, a reduced move's, or one of
    /// a node expected to fail low), where a wrong reduction costs least
    /// (0: none).
    pub lmr_cut_node: i32,
    /// A reduced late move that beats alpha is searched again a ply deeper
    /// than its full depth when its reduced score beats alpha by this
    /// margin plus a tenth of it a ply of the reduction (0: never): a move
    /// that shines even reduced is worth a closer look.
    pub lmr_deeper_margin: i32,
    /// Null-move pruning from this depth on (0: never), where the game's
    /// knowledge says it is sound; the pass is searched
    /// `null_move_reduction + depth / null_move_depth_divisor` plies shallower.
    pub null_move_min_depth: i32,
    pub null_move_reduction: i32,
    pub null_move_depth_divisor: i32,
    /// Reverse futility: at depth `rfp_max_depth` or less (0: never), a
    /// non-PV node whose static evaluation beats beta by `rfp_margin` a ply
    /// is cut off unsearched.
    pub rfp_max_depth: i32,
    pub rfp_margin: i32,
    /// Razoring: at depth `razor_max_depth` or less (0: never), a non-PV
    /// node whose static evaluation falls short of alpha by `razor_margin`
    /// a ply is settled by quiescence when quiescence also fails low.
    pub razor_max_depth: i32,
    pub razor_margin: i32,
    /// Late-move pruning: at depth `lmp_max_depth` or less (0: never), a
    /// non-PV node searches only its first `lmp_base + depth ^ (lmp_power
    /// / 100)` quiet moves: by default the square of the depth; a lower
    /// power keeps fewer moves and, with a higher `lmp_max_depth`, prunes
    /// deep nodes too, for a game whose late moves are nearly all idle.
    pub lmp_max_depth: i32,
    pub lmp_base: i32,
    pub lmp_power: i32,
    /// The share, in percent, of those quiet moves a node searches when its
    /// static evaluation is no better than two plies before (100: as
    /// many): a side whose position is getting worse has fewer quiet moves
    /// worth a look.
    pub lmp_worsening: i32,
    /// Plies added to the search of a node's only move (0: none), within
    /// twice the iteration's depth from the root: a forced reply costs the
    /// attack no depth, so a line of threats is seen to its end.
    pub single_reply_extension: i32,
    /// Tenths of a ply (0..9) a node's only move earns on top of
    /// `single_reply_extension`, carried down the line until they make a
    /// whole ply of extension: a forced reply then gives the attack some
    /// depth back, as a fractional extension would.
    pub single_reply_tenths: i32,
    /// Singular extension: at depth `singular_min_depth` or more (0: never)
    /// below the root, the table's move is searched a ply deeper when every
    /// other move, searched to half the depth, falls short of the table's
    /// score by `singular_margin` a ply; when they reach beta even so, the
    /// node is cut at once (multi-cut).
    pub singular_min_depth: i32,
    pub singular_margin: i32,
    /// Plies taken from the table's move (0: none) when the test finds it
    /// not singular but the table's score already beats beta: other moves
    /// may hold the node too, so the table's is trusted less.
    pub singular_negative: i32,
    /// Internal iterative reduction: a node below the root at this depth or
    /// more (0: never) with no move from the table is searched a ply
    /// shallower, its move ordering being only a guess.
    pub iir_min_depth: i32,
    /// Root refutation: each new best move of a timed search is checked
    /// for a forced win of the opponent after it, by the game's root
    /// solver given this part (1/n) of the move's time (0: never); a
    /// refuted move is left out (`search/refutation.rs`).
    pub refutation_share: i32,
    /// Quiescence reads the transposition table's bounds and leaves its
    /// results in positions the table does not hold yet (0: neither), so
    /// that the same run of fours is not searched again.
    pub quiescence_table: i32,
    /// The pruning before a node's moves (reverse futility, razoring, the
    /// null move) takes the table's score for the static evaluation where
    /// the table's bound says the true score lies beyond it (0: never).
    pub table_eval: i32,
    /// Fail-high reduction: at a cut node whose static evaluation beats
    /// beta by this margin a ply (0: never), every move but the tactical
    /// ones is searched a ply shallower, its result final.
    pub fail_high_margin: i32,
    /// Monte Carlo search (`SearchMethod mcts`): UCT's exploration
    /// constant in thousandths, RAVE's bias in millionths, the simulations
    /// a leaf takes before it is expanded, and the value of a move with no
    /// statistics yet in thousandths.
    pub mcts_exploration: i32,
    pub mcts_rave_bias: i32,
    pub mcts_expand_visits: i32,
    pub mcts_first_play: i32,
    /// The simulations a node takes before the knowledge's closer look
    /// (`Knowledge::closer_look`); 0 never looks.
    pub mcts_knowledge_visits: i32,
    /// The weight of the knowledge's move policy in thousandths
    /// (`MonteCarloKnowledge::move_policy`); nothing for a game without one.
    pub mcts_progressive_bias: i32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            aspiration_window: 35,
            lmr_min_depth: 3,
            lmr_min_index: 3,
            lmr_second_index: 10,
            lmr_third_index: 20,
            lmr_third_depth: 8,
            lmr_table_divisor: 0,
            lmr_table_base: 50,
            lmr_history_divisor: 0,
            lmr_tactical_below: 0,
            lmr_worsening: 0,
            lmr_cut_node: 0,
            lmr_deeper_margin: 0,
            null_move_min_depth: 0,
            null_move_reduction: 3,
            null_move_depth_divisor: 6,
            rfp_max_depth: 0,
            rfp_margin: 100,
            razor_max_depth: 0,
            razor_margin: 200,
            lmp_max_depth: 0,
            lmp_base: 3,
            lmp_power: 200,
            lmp_worsening: 100,
            single_reply_extension: 0,
            single_reply_tenths: 0,
            singular_min_depth: 0,
            singular_margin: 2,
            singular_negative: 0,
            iir_min_depth: 0,
            refutation_share: 0,
            quiescence_table: 0,
            table_eval: 0,
            fail_high_margin: 0,
            mcts_exploration: 0,
            mcts_rave_bias: 1_000,
            mcts_expand_visits: 8,
            mcts_first_play: 1_000,
            mcts_knowledge_visits: 0,
            mcts_progressive_bias: 2_470,
        }
    }
}

/// One spin: its option name, its range, and the field it sets.
struct Spin {
    name: &'static str,
    min: i32,
    max: i32,
    field: fn(&mut SearchParams) -> &mut i32,
}

const SPINS: [Spin; 40] = [
    Spin {
        name: "AspirationWindow",
        min: 1,
        max: 10_000,
        field: |p| &mut p.aspiration_window,
    },
    Spin {
        name: "LmrMinDepth",
        min: 1,
        max: 100,
        field: |p| &mut p.lmr_min_depth,
    },
    Spin {
        name: "LmrMinIndex",
        min: 1,
        max: 1_000,
        field: |p| &mut p.lmr_min_index,
    },
    Spin {
        name: "LmrSecondIndex",
        min: 1,
        max: 1_000,
        field: |p| &mut p.lmr_second_index,
    },
    Spin {
        name: "LmrThirdIndex",
        min: 1,
        max: 1_000,
        field: |p| &mut p.lmr_third_index,
    },
    Spin {
        name: "LmrThirdDepth",
        min: 1,
        max: 100,
        field: |p| &mut p.lmr_third_depth,
    },
    Spin {
        name: "LmrTableDivisor",
        min: 0,
        max: 10_000,
        field: |p| &mut p.lmr_table_divisor,
    },
    Spin {
        name: "LmrTableBase",
        min: -1_000,
        max: 1_000,
        field: |p| &mut p.lmr_table_base,
    },
    Spin {
        name: "LmrHistoryDivisor",
        min: 0,
        max: 1_000_000,
        field: |p| &mut p.lmr_history_divisor,
    },
    Spin {
        name: "LmrTacticalBelow",
        min: 0,
        max: i32::MAX,
        field: |p| &mut p.lmr_tactical_below,
    },
    Spin {
        name: "LmrWorsening",
        min: 0,
        max: 3,
        field: |p| &mut p.lmr_worsening,
    },
    Spin {
        name: "LmrCutNode",
        min: 0,
        max: 3,
        field: |p| &mut p.lmr_cut_node,
    },
    Spin {
        name: "LmrDeeperMargin",
        min: 0,
        max: 10_000,
        field: |p| &mut p.lmr_deeper_margin,
    },
    Spin {
        name: "NullMoveMinDepth",
        min: 0,
        max: 100,
        field: |p| &mut p.null_move_min_depth,
    },
    Spin {
        name: "NullMoveReduction",
        min: 1,
        max: 20,
        field: |p| &mut p.null_move_reduction,
    },
    Spin {
        name: "NullMoveDepthDivisor",
        min: 1,
        max: 100,
        field: |p| &mut p.null_move_depth_divisor,
    },
    Spin {
        name: "RfpMaxDepth",
        min: 0,
        max: 100,
        field: |p| &mut p.rfp_max_depth,
    },
    Spin {
        name: "RfpMargin",
        min: 1,
        max: 100_000,
        field: |p| &mut p.rfp_margin,
    },
    Spin {
        name: "RazorMaxDepth",
        min: 0,
        max: 100,
        field: |p| &mut p.razor_max_depth,
    },
    Spin {
        name: "RazorMargin",
        min: 1,
        max: 100_000,
        field: |p| &mut p.razor_margin,
    },
    Spin {
        name: "LmpMaxDepth",
        min: 0,
        max: 100,
        field: |p| &mut p.lmp_max_depth,
    },
    Spin {
        name: "LmpBase",
        min: 0,
        max: 1_000,
        field: |p| &mut p.lmp_base,
    },
    Spin {
        name: "LmpPower",
        min: 100,
        max: 400,
        field: |p| &mut p.lmp_power,
    },
    Spin {
        name: "LmpWorsening",
        min: 25,
        max: 100,
        field: |p| &mut p.lmp_worsening,
    },
    Spin {
        name: "SingleReplyExtension",
        min: 0,
        max: 1,
        field: |p| &mut p.single_reply_extension,
    },
    Spin {
        name: "SingleReplyTenths",
        min: 0,
        max: 9,
        field: |p| &mut p.single_reply_tenths,
    },
    Spin {
        name: "SingularMinDepth",
        min: 0,
        max: 100,
        field: |p| &mut p.singular_min_depth,
    },
    Spin {
        name: "SingularMargin",
        min: 0,
        max: 100_000,
        field: |p| &mut p.singular_margin,
    },
    Spin {
        name: "SingularNegative",
        min: 0,
        max: 1,
        field: |p| &mut p.singular_negative,
    },
    Spin {
        name: "IirMinDepth",
        min: 0,
        max: 100,
        field: |p| &mut p.iir_min_depth,
    },
    Spin {
        name: "RefutationShare",
        min: 0,
        max: 1_000,
        field: |p| &mut p.refutation_share,
    },
    Spin {
        name: "QuiescenceTable",
        min: 0,
        max: 1,
        field: |p| &mut p.quiescence_table,
    },
    Spin {
        name: "TableEval",
        min: 0,
        max: 1,
        field: |p| &mut p.table_eval,
    },
    Spin {
        name: "FailHighMargin",
        min: 0,
        max: 10_000,
        field: |p| &mut p.fail_high_margin,
    },
    Spin {
        name: "MctsExploration",
        min: 0,
        max: 10_000,
        field: |p| &mut p.mcts_exploration,
    },
    Spin {
        name: "MctsRaveBias",
        min: 0,
        max: 1_000_000,
        field: |p| &mut p.mcts_rave_bias,
    },
    Spin {
        name: "MctsExpandVisits",
        min: 1,
        max: 1_000,
        field: |p| &mut p.mcts_expand_visits,
    },
    Spin {
        name: "MctsFirstPlay",
        min: 0,
        max: 2_000,
        field: |p| &mut p.mcts_first_play,
    },
    Spin {
        name: "MctsKnowledgeVisits",
        min: 0,
        max: 100_000_000,
        field: |p| &mut p.mcts_knowledge_visits,
    },
    Spin {
        name: "MctsProgressiveBias",
        min: 0,
        max: 100_000,
        field: |p| &mut p.mcts_progressive_bias,
    },
];

impl SearchParams {
    /// The quiet moves a non-PV node at `depth` searches before late-move
    /// pruning leaves out the rest (`i32::MAX`: all of them).
    pub fn late_move_count(&self, depth: i32, improving: bool) -> i32 {
        if depth > self.lmp_max_depth {
            return i32::MAX;
        }
        let grown = match self.lmp_power {
            200 => depth * depth,
            power => f64::from(depth).powf(f64::from(power) / 100.0) as i32,
        };
        let count = self.lmp_base + grown;
        match improving {
            true => count,
            false => count * self.lmp_worsening / 100,
        }
    }

    /// Whether late-move pruning or reductions ask whether a node's
    /// evaluation improves.
    pub fn tracks_improvement(&self) -> bool {
        (self.lmp_max_depth > 0 && self.lmp_worsening < 100) || self.lmr_worsening > 0
    }

    /// The spins, announced with these values as their defaults.
    pub fn specs(&self) -> Vec<OptionSpec> {
        let mut current = *self;
        SPINS
            .iter()
            .map(|spin| OptionSpec {
                name: spin.name,
                kind: OptionKind::Spin {
                    default: i64::from(*(spin.field)(&mut current)),
                    min: i64::from(spin.min),
                    max: i64::from(spin.max),
                },
            })
            .collect()
    }

    /// `Ok(false)` when `name` is not a search parameter; an error for a
    /// value that is not a whole number in range (nothing changes then).
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let Some(spin) = SPINS.iter().find(|s| s.name.eq_ignore_ascii_case(name)) else {
            return Ok(false);
        };
        let number: i32 = value
            .trim()
            .parse()
            .map_err(|_| format!("option {} needs a whole number, not '{value}'", spin.name))?;
        if !(spin.min..=spin.max).contains(&number) {
            return Err(format!(
                "option {} must be between {} and {}",
                spin.name, spin.min, spin.max
            ));
        }
        *(spin.field)(self) = number;
        Ok(true)
    }

    /// Whether a tactical move whose ordering hint is `hint` is reduced as
    /// a late quiet move is (`lmr_tactical_below`).
    pub fn reduces_tactical(&self, hint: i64) -> bool {
        hint < i64::from(self.lmr_tactical_below)
    }

    /// Internal iterative reduction: the ply a node at `depth`, `ply`
    /// plies below the root, loses when the table has no move for it to
    /// try first.
    pub fn iir_reduction(&self, depth: i32, ply: usize, table_move_known: bool) -> i32 {
        let min_depth = self.iir_min_depth;
        i32::from(!table_move_known && ply > 0 && min_depth > 0 && depth >= min_depth)
    }

    /// Plies a late move loses: the `index`th move (from 0) at `depth`,
    /// whose history score is `history`, at a cut node or not. Never below
    /// depth 0.
    pub fn late_move_reduction(&self, depth: i32, index: i32, history: i32, cut_node: bool) -> i32 {
        if depth < self.lmr_min_depth || index < self.lmr_min_index {
            return 0;
        }
        let base = if self.lmr_table_divisor > 0 {
            let logs = f64::from(depth).ln() * f64::from(index).ln();
            let plies = f64::from(self.lmr_table_base)
                + logs * 10_000.0 / f64::from(self.lmr_table_divisor);
            (plies / 100.0) as i32
        } else {
            1 + i32::from(index >= self.lmr_second_index)
                + i32::from(depth >= self.lmr_third_depth && index >= self.lmr_third_index)
        };
        let by_history = match self.lmr_history_divisor {
            0 => 0,
            divisor => history / divisor,
        };
        let at_cut_node = if cut_node { self.lmr_cut_node } else { 0 };
        (base - by_history + at_cut_node).clamp(0, depth - 1)
    }

    /// Plies added to the search again of a move reduced by `reduction`
    /// plies whose reduced score beat alpha by `gain`: 1 when the gain
    /// clears `lmr_deeper_margin` and a tenth of it a ply of the reduction.
    pub fn deeper_after_reduction(&self, gain: i32, reduction: i32) -> i32 {
        let margin = self.lmr_deeper_margin;
        i32::from(margin > 0 && gain > margin + margin * reduction / 10)
    }
}

/// `late_move_count` at every depth late-move pruning reaches, worked out
/// once a search: a power other than the square costs a `powf` a quiet
/// move otherwise.
pub struct LateMoveCounts(Vec<[i32; 2]>);

impl LateMoveCounts {
    pub fn new(params: &SearchParams) -> Self {
        let deepest = params.lmp_max_depth.max(0);
        LateMoveCounts(
            (0..=deepest)
                .map(|depth| match depth {
                    0 => [i32::MAX; 2],
                    _ => [false, true].map(|improving| params.late_move_count(depth, improving)),
                })
                .collect(),
        )
    }

    /// The quiet moves a node at `depth` searches (`i32::MAX`: all).
    pub fn get(&self, depth: i32, improving: bool) -> i32 {
        usize::try_from(depth)
            .ok()
            .and_then(|depth| self.0.get(depth))
            .map_or(i32::MAX, |counts| counts[usize::from(improving)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_node_below_the_root_without_a_table_move_loses_a_ply_to_iir() {
        let params = SearchParams {
            iir_min_depth: 4,
            ..SearchParams::default()
        };
        assert_eq!(params.iir_reduction(4, 1, false), 1);
        assert_eq!(params.iir_reduction(9, 7, false), 1);
        assert_eq!(params.iir_reduction(3, 1, false), 0);
        assert_eq!(params.iir_reduction(9, 1, true), 0);
        assert_eq!(params.iir_reduction(9, 0, false), 0);
        assert_eq!(SearchParams::default().iir_reduction(9, 1, false), 0);
    }

    #[test]
    fn tactical_moves_are_reduced_only_below_the_hint_asked() {
        let params = SearchParams {
            lmr_tactical_below: 4_000_000,
            ..SearchParams::default()
        };
        assert!(params.reduces_tactical(1_000_000));
        assert!(params.reduces_tactical(3_999_999));
        assert!(!params.reduces_tactical(4_000_000));
        assert!(!SearchParams::default().reduces_tactical(1));
    }

    #[test]
    fn every_spin_sets_its_own_field_and_announces_it() {
        let mut params = SearchParams::default();
        for (index, spin) in SPINS.iter().enumerate() {
            let before = params.specs();
            let OptionKind::Spin { default, .. } = before[index].kind else {
                panic!("{} is announced as no spin", spin.name);
            };
            // A value in range other than the present one, so that the
            // field written is seen to change.
            let value = if default < i64::from(spin.max) {
                default + 1
            } else {
                default - 1
            };
            assert_eq!(params.set(spin.name, &value.to_string()), Ok(true));
            let after = params.specs();
            for (other, (was, is)) in before.iter().zip(&after).enumerate() {
                if other == index {
                    let expected = OptionKind::Spin {
                        default: value,
                        min: i64::from(spin.min),
                        max: i64::from(spin.max),
                    };
                    assert_eq!(is.kind, expected, "{}", spin.name);
                } else {
                    assert_eq!(
                        is.kind, was.kind,
                        "setting {} changed {}",
                        spin.name, is.name
                    );
                }
            }
        }
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut params = SearchParams::default();
        assert!(params.set("LmrMinDepth", "0").is_err());
        assert!(params.set("NullMoveReduction", "21").is_err());
        assert!(params.set("lmrmindepth", "three").is_err());
        assert_eq!(params, SearchParams::default());
        assert_eq!(params.set("Hash", "16"), Ok(false));
    }

    #[test]
    fn late_moves_are_counted_by_a_power_of_the_depth_up_to_the_deepest_pruned() {
        let square = SearchParams {
            lmp_max_depth: 6,
            ..SearchParams::default()
        };
        assert_eq!(square.late_move_count(6, true), 3 + 36);
        assert_eq!(square.late_move_count(7, true), i32::MAX);
        let lower = SearchParams {
            lmp_max_depth: 100,
            lmp_power: 132,
            ..square
        };
        // 10 ^ 1.32 = 20.9, 20 ^ 1.32 = 52.4
        assert_eq!(lower.late_move_count(10, true), 3 + 20);
        assert_eq!(lower.late_move_count(20, true), 3 + 52);
        assert_eq!(lower.late_move_count(101, true), i32::MAX);
        let halved = SearchParams {
            lmp_worsening: 50,
            ..lower
        };
        assert_eq!(halved.late_move_count(10, false), 11);
        assert_eq!(halved.late_move_count(10, true), 23);
        assert!(halved.tracks_improvement() && !lower.tracks_improvement());
        let reducing = SearchParams {
            lmr_worsening: 1,
            ..SearchParams::default()
        };
        assert!(reducing.tracks_improvement());
    }

    #[test]
    fn the_table_of_late_move_counts_agrees_with_the_formula_at_every_depth() {
        let params = SearchParams {
            lmp_max_depth: 40,
            lmp_power: 132,
            lmp_worsening: 50,
            ..SearchParams::default()
        };
        let table = LateMoveCounts::new(&params);
        for depth in -1..=45 {
            for improving in [false, true] {
                let expected = match depth {
                    ..=0 => i32::MAX,
                    _ => params.late_move_count(depth, improving),
                };
                assert_eq!(table.get(depth, improving), expected, "depth {depth}");
            }
        }
    }

    #[test]
    fn reductions_grow_with_lateness_and_depth() {
        let params = SearchParams::default();
        assert_eq!(params.late_move_reduction(2, 30, 0, false), 0);
        assert_eq!(params.late_move_reduction(3, 2, 0, false), 0);
        assert_eq!(params.late_move_reduction(3, 3, 0, false), 1);
        assert_eq!(params.late_move_reduction(3, 10, 0, false), 2);
        assert_eq!(params.late_move_reduction(7, 20, 0, false), 2);
        assert_eq!(params.late_move_reduction(8, 20, 0, false), 3);
        // History is not asked unless a divisor is set.
        assert_eq!(params.late_move_reduction(8, 20, -1_000_000, false), 3);
    }

    #[test]
    fn a_table_reduces_by_logs_and_history_moves_it_within_the_depth() {
        let params = SearchParams {
            lmr_table_divisor: 200,
            lmr_table_base: 50,
            lmr_history_divisor: 1_000,
            ..SearchParams::default()
        };
        // 0.5 + ln 10 * ln 10 / 2 = 3.15 plies
        assert_eq!(params.late_move_reduction(10, 10, 0, false), 3);
        assert_eq!(params.late_move_reduction(10, 10, 2_500, false), 1);
        assert_eq!(params.late_move_reduction(10, 10, 9_000, false), 0);
        assert_eq!(params.late_move_reduction(10, 10, -3_000, false), 6);
        assert_eq!(params.late_move_reduction(4, 40, -50_000, false), 3);
    }

    #[test]
    fn a_cut_node_reduces_more_only_where_asked_and_within_the_depth() {
        let plain = SearchParams::default();
        assert_eq!(plain.late_move_reduction(8, 20, 0, true), 3);
        let params = SearchParams {
            lmr_cut_node: 2,
            lmr_history_divisor: 1_000,
            ..SearchParams::default()
        };
        assert_eq!(params.late_move_reduction(8, 20, 0, false), 3);
        assert_eq!(params.late_move_reduction(8, 20, 0, true), 5);
        assert_eq!(params.late_move_reduction(4, 20, 0, true), 3);
        // A good history takes plies back from the cut node's too.
        assert_eq!(params.late_move_reduction(8, 20, 4_000, true), 1);
        // Too shallow or too early a move: no reduction at all.
        assert_eq!(params.late_move_reduction(2, 20, 0, true), 0);
        assert_eq!(params.late_move_reduction(8, 2, 0, true), 0);
    }

    #[test]
    fn a_reduced_move_goes_deeper_only_past_a_margin_that_grows_with_its_reduction() {
        assert_eq!(SearchParams::default().deeper_after_reduction(10_000, 1), 0);
        let params = SearchParams {
            lmr_deeper_margin: 50,
            ..SearchParams::default()
        };
        assert_eq!(params.deeper_after_reduction(56, 1), 1);
        assert_eq!(params.deeper_after_reduction(55, 1), 0);
        assert_eq!(params.deeper_after_reduction(56, 2), 0);
        assert_eq!(params.deeper_after_reduction(61, 2), 1);
        assert_eq!(params.deeper_after_reduction(50, 0), 0);
    }
}
