//! The best move checked against a forced win of the opponent: after an
//! iteration names a new best move, the game's own root solver (Gomoku's
//! threat search) looks, from the position after it, for a win of the side
//! then to move. Alpha-beta sees such a win only when its depth reaches the
//! win's end; a threat sequence of twenty plies is far beyond it, and the
//! solver proves it in a fraction of a move's time. A refuted move is left
//! out of the following iterations, so the search finds another.

use std::sync::Arc;
use std::time::Instant;

use super::{AlphaBetaKnowledge, Searcher};
use crate::core::control::SearchResult;
use crate::core::game::{Game, MATE_BOUND};
use crate::core::knowledge::Deadline;

/// Checks a search may make: each new best move costs one, and most find
/// nothing.
const MOST_CHECKS: usize = 3;
/// The shallowest iteration whose best move is checked: those of the first
/// few iterations are mostly dropped by the search itself, and checking
/// them spent the checks and their time (-19 +/- 46 Elo at 100 ms a move,
/// docs/results/gomoku.md).
const SHALLOWEST_CHECKED: u32 = 5;

/// The root moves a search has checked, and those it found refuted.
#[derive(Debug)]
pub(super) struct RootChecks<M> {
    checked: Vec<M>,
    refuted: Vec<M>,
}

impl<M> Default for RootChecks<M> {
    fn default() -> Self {
        RootChecks {
            checked: Vec::new(),
            refuted: Vec::new(),
        }
    }
}

impl<M: PartialEq> RootChecks<M> {
    pub(super) fn is_refuted(&self, mv: &M) -> bool {
        self.refuted.contains(mv)
    }
}

impl<G: Game, K: AlphaBetaKnowledge<G>> Searcher<'_, G, K> {
    /// Whether the iteration's best move loses to a forced win the game's
    /// solver finds after it within the share of the time
    /// (`refutation_share`); a refuted move is remembered and left out of
    /// the root from then on.
    pub(super) fn best_move_refuted(&mut self, result: &SearchResult<G::Move>) -> bool {
        let (Some(best), Some(hard), Some(clock_start)) = (
            result.best_move,
            self.control.budget.maximum,
            self.clock_start(),
        ) else {
            return false;
        };
        if !self.checks(result, best) {
            return false;
        }
        self.root_checks.checked.push(best);
        let share = self.control.params.refutation_share as u32;
        let deadline =
            Deadline::new(Some(clock_start + hard), Arc::clone(self.stop)).within(hard / share);
        let began = Instant::now();
        self.knowledge.play(&mut self.game, best);
        let answer = self
            .knowledge
            .solve_root(&mut self.game, &deadline, &mut self.nodes);
        self.knowledge.take_back(&mut self.game, best);
        let winning_reply = answer.filter(|answer| answer.plies > 0);
        log::debug!(
            "root move {} of depth {} checked in {} ms: {}",
            self.game.format_move(best),
            result.depth,
            began.elapsed().as_millis(),
            winning_reply
                .as_ref()
                .map_or("holds".into(), |reply| format!(
                    "refuted by {}, a win in {} plies",
                    self.game.format_move(reply.best_move),
                    reply.plies
                ))
        );
        if winning_reply.is_some() {
            self.root_checks.refuted.push(best);
        }
        winning_reply.is_some()
    }

    /// Whether `best` is to be checked: by the main thread, where the
    /// game's solver may answer, past the first iterations, with no proven
    /// score yet, checks left, and another move to turn to.
    fn checks(&mut self, result: &SearchResult<G::Move>, best: G::Move) -> bool {
        self.control.params.refutation_share > 0
            && self.thread_id == 0
            && self.solver_may_answer()
            && result.depth >= SHALLOWEST_CHECKED
            && result.score.abs() < MATE_BOUND
            && self.root_checks.checked.len() < MOST_CHECKS
            && !self.root_checks.checked.contains(&best)
            && self.root_alternatives() >= 2
    }

    /// The root moves not yet refuted.
    fn root_alternatives(&mut self) -> usize {
        let mut moves = Vec::new();
        self.generate_root_moves(&mut moves);
        moves.len()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::core::control::{SearchControl, SearchSignals};
    use crate::core::game::{Game, Outcome, Player, Score};
    use crate::core::knowledge::{Deadline, Knowledge, RootSolution};
    use crate::core::params::SearchParams;
    use crate::core::search::{search, AlphaBetaKnowledge, SearchTables};
    use crate::core::time::TimeBudget;

    const BAIT: u16 = 1;
    const SAFE: u16 = 2;
    const STEP: u16 = 3;
    /// Plies from the bait to the second player's win: beyond any depth.
    const CORRIDOR: u32 = 300;

    /// The first player takes the bait, which looks good and loses at the
    /// end of a long corridor of forced moves, or stays safe (a draw).
    #[derive(Clone, Debug, Default)]
    struct Bait {
        first: Option<u16>,
        steps: u32,
    }

    impl Game for Bait {
        type Move = u16;
        type Rules = ();
        const NAME: &'static str = "bait";

        fn start_position(_: &()) -> Self {
            Bait::default()
        }
        fn from_fen(_: &str, _: &()) -> Result<Self, String> {
            Ok(Bait::default())
        }
        fn to_fen(&self) -> String {
            format!("{:?} {}", self.first, self.steps)
        }
        fn side_to_move(&self) -> Player {
            let plies = u32::from(self.first.is_some()) + self.steps;
            [Player::P1, Player::P2][plies as usize % 2]
        }
        fn outcome(&self) -> Option<Outcome> {
            match self.first {
                Some(SAFE) => Some(Outcome::Draw),
                Some(_) if self.steps == CORRIDOR => Some(Outcome::Win(Player::P2)),
                _ => None,
            }
        }
        fn hash(&self) -> u64 {
            u64::from(self.first.unwrap_or(0)) * 1_000 + u64::from(self.steps)
        }
        fn generate_moves(&self, moves: &mut Vec<u16>) {
            moves.clear();
            match (self.outcome(), self.first) {
                (Some(_), _) => {}
                (None, None) => moves.extend([BAIT, SAFE]),
                (None, Some(_)) => moves.push(STEP),
            }
        }
        fn make_move(&mut self, mv: u16) {
            match self.first {
                None => self.first = Some(mv),
                Some(_) => self.steps += 1,
            }
        }
        fn unmake_move(&mut self, _: u16) {
            match self.steps {
                0 => self.first = None,
                _ => self.steps -= 1,
            }
        }
        fn format_move(&self, mv: u16) -> String {
            mv.to_string()
        }
        fn parse_move(&self, text: &str) -> Result<u16, String> {
            text.parse().map_err(|_| "not a number".into())
        }
    }

    /// Likes the bait for the first player; its solver proves the second
    /// player's win in the corridor.
    struct BaitKnowledge;

    impl Knowledge<Bait> for BaitKnowledge {
        type Settings = ();
        fn new(_: &()) -> Self {
            BaitKnowledge
        }
        fn evaluate(&mut self, position: &Bait) -> Score {
            match (position.first, position.side_to_move()) {
                (Some(BAIT), Player::P1) => 300,
                (Some(BAIT), Player::P2) => -300,
                _ => 0,
            }
        }
        fn solve_root(
            &mut self,
            position: &mut Bait,
            _: &Deadline,
            _: &mut u64,
        ) -> Option<RootSolution<u16>> {
            (position.first == Some(BAIT) && position.side_to_move() == Player::P2).then(|| {
                RootSolution {
                    best_move: STEP,
                    plies: (CORRIDOR - position.steps) as i32,
                }
            })
        }
    }

    impl AlphaBetaKnowledge<Bait> for BaitKnowledge {}

    fn timed_search(refutation_share: i32, depth_capped: bool) -> Option<u16> {
        let time = Duration::from_millis(100);
        let mut control = SearchControl {
            params: SearchParams {
                refutation_share,
                ..SearchParams::default()
            },
            budget: TimeBudget {
                optimum: Some(time),
                maximum: Some(time),
                adaptive: false,
            },
            ..SearchControl::default()
        };
        if depth_capped {
            control.max_depth = 6;
        }
        let mut tables = SearchTables::<Bait>::new(1);
        let signals = SearchSignals::default();
        search(
            Bait::default(),
            &mut [BaitKnowledge],
            &mut tables,
            &signals,
            control,
            &[],
            &mut |_| {},
        )
        .best_move
    }

    #[test]
    fn a_best_move_the_solver_refutes_gives_way_to_the_next() {
        assert_eq!(timed_search(0, false), Some(BAIT));
        assert_eq!(timed_search(2, false), Some(SAFE));
    }

    #[test]
    fn a_search_capped_in_depth_does_not_ask_the_solver() {
        // Its result must not depend on the clock.
        assert_eq!(timed_search(2, true), Some(BAIT));
    }
}
