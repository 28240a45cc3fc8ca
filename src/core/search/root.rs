//! The root of the search: iterative deepening over one or several lines
//! (`MultiPV`), the moves `go searchmoves` allows, and the choice of a
//! weakened level among its lines.

use std::cmp::Reverse;

use super::{AlphaBetaKnowledge, Searcher};
use crate::core::control::{mate_distance_in_moves, SearchInfo, SearchResult, MAX_PLY};
use crate::core::game::{Game, MoveCode, Score};
use crate::core::strength::{choose_line, plays_at_random, Skill};

/// One root line of a completed iteration.
#[derive(Clone, Debug)]
pub(super) struct RootLine<M> {
    score: Score,
    pv: Vec<M>,
}

impl<G: Game, K: AlphaBetaKnowledge<G>> Searcher<'_, G, K> {
    /// Iterative deepening; `report` is called after every completed depth
    /// (once per line with `MultiPV` above 1).
    pub(in crate::core) fn run(
        &mut self,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<G::Move> {
        let mut root_moves = Vec::new();
        self.generate_root_moves(&mut root_moves);
        let mut result = SearchResult::empty();
        if self.game.outcome().is_some() || root_moves.is_empty() {
            return result;
        }
        result.best_move = root_moves.first().copied();
        if let Some(mv) = self.random_move() {
            result.best_move = Some(mv);
            result.pv = vec![mv];
            return result;
        }
        if let Some(proven) = self.solve_root_exactly() {
            report(&self.info(&proven, false));
            return proven;
        }
        self.decay_history();

        let wanted = match self.lines_searched() {
            1 => 1,
            lines => lines.min(self.root_move_count()),
        };
        let mut lines: Vec<RootLine<G::Move>> = Vec::new();
        for depth in 1..=self.control.max_depth.min(MAX_PLY as u32 - 1) {
            self.seldepth = 0;
            let found = self.search_lines(depth as i32, &lines, wanted);
            if self.aborted {
                self.keep_unfinished_iteration(&mut result, &found, depth);
                break;
            }
            lines = found;
            self.first_iteration_done = true;
            adopt_line(&mut result, &lines[0], depth);
            if self.best_move_refuted(&result) {
                // Searched again without it, past the soft limit if need be:
                // the move in hand is known to lose.
                continue;
            }
            if let Some(best) = result.best_move {
                self.timer.completed(best.to_code(), result.score);
            }
            self.report_lines(&result, &lines, report);

            if self.analysing() && self.whole_root_one_line() {
                if let Some(proven) = self.prove_root_between_iterations(&result) {
                    result = proven;
                    report(&self.info(&result, false));
                    return self.with_totals(result);
                }
            }
            if self.soft_time_is_up() || self.node_limit_reached() {
                break;
            }
            // A proven result searched at least as deep as its length cannot change.
            if !self.analysing() {
                if let Some(moves) = mate_distance_in_moves(result.score) {
                    if depth as i32 >= 2 * moves.abs() + 2 {
                        break;
                    }
                }
            }
        }
        if wanted == 1 {
            self.adopt_deeper_helper_iteration(&mut result);
        }
        if let Some(skill) = self.control.skill {
            play_chosen_line(&mut result, &lines, &skill, self.game.hash());
        }
        self.with_totals(result)
    }

    /// Clears `moves` and fills it with the root moves of the current line:
    /// those `go searchmoves` allows (else the knowledge's), less the first
    /// moves of the better lines and the moves found refuted.
    ///
    /// The first line is the engine's own choice, among the moves its
    /// knowledge keeps; the further lines rank every other legal move, so
    /// that `MultiPV` shows as many lines as there are moves, even where the
    /// knowledge keeps only one (a forced answer).
    pub(super) fn generate_root_moves(&mut self, moves: &mut Vec<G::Move>) {
        if !self.root_moves.is_empty() {
            moves.clear();
            moves.extend_from_slice(&self.root_moves);
        } else if self.excluded.is_empty() {
            self.knowledge.search_moves(&self.game, moves);
        } else {
            self.game.generate_moves(moves);
        }
        moves.retain(|mv| !self.excluded.contains(mv) && !self.root_checks.is_refuted(mv));
    }

    /// How many lines the root can give: every legal move (or every move
    /// `go searchmoves` allows).
    fn root_move_count(&self) -> usize {
        if !self.root_moves.is_empty() {
            return self.root_moves.len();
        }
        let mut legal = Vec::new();
        self.game.generate_moves(&mut legal);
        legal.len()
    }

    /// A weakened level's move played at random, when its seed says so:
    /// uniformly among the legal moves (or those `go searchmoves` allows).
    fn random_move(&self) -> Option<G::Move> {
        let skill = self.control.skill?;
        let draw = plays_at_random(skill.random_share, skill.seed, self.game.hash())?;
        let mut legal = self.root_moves.clone();
        if legal.is_empty() {
            self.game.generate_moves(&mut legal);
        }
        let count = legal.len() as u64;
        (count > 0).then(|| legal[(draw % count) as usize])
    }

    /// The whole root is searched: no move excluded or restricted.
    pub(super) fn whole_root(&self) -> bool {
        self.excluded.is_empty() && self.root_moves.is_empty()
    }

    /// One line over the whole root: where a game's solver may answer and
    /// a helper's deeper iteration may be played.
    pub(super) fn whole_root_one_line(&self) -> bool {
        self.root_moves.is_empty() && self.lines_searched() == 1
    }

    fn lines_searched(&self) -> usize {
        let skill_lines = self.control.skill.map_or(1, |skill| skill.lines);
        self.control.lines.max(skill_lines).max(1)
    }

    /// One iteration: each line searched with the first moves of the lines
    /// before it left out, then all sorted best first. Stops early when the
    /// search is aborted (the lines completed so far are returned).
    fn search_lines(
        &mut self,
        depth: i32,
        previous: &[RootLine<G::Move>],
        wanted: usize,
    ) -> Vec<RootLine<G::Move>> {
        self.excluded.clear();
        self.iteration_depth = depth;
        let mut found = Vec::with_capacity(wanted);
        for index in 0..wanted {
            let previous_score = previous.get(index).map_or(0, |line| line.score);
            let score = self.aspiration(depth, previous_score);
            if self.aborted {
                break;
            }
            let Some(&first) = self.pv[0].first() else {
                break;
            };
            found.push(RootLine {
                score,
                pv: self.pv[0].clone(),
            });
            self.excluded.push(first);
        }
        self.excluded.clear();
        found.sort_by_key(|line| Reverse(line.score));
        found
    }

    /// An iteration cut short still tells something: a first line that
    /// completed is searched deeper than the last iteration, and a move that
    /// beat the previous best before the first line ended is the better
    /// choice. When even the first iteration was cut short (a game whose
    /// nodes are dear, a very short move time), the best of the root moves
    /// it searched, which it tried in the knowledge's order, beats the first
    /// move the generator happened to list.
    fn keep_unfinished_iteration(
        &self,
        result: &mut SearchResult<G::Move>,
        found: &[RootLine<G::Move>],
        depth: u32,
    ) {
        if let Some(first) = found.first() {
            adopt_line(result, first, depth);
        } else if let Some(&mv) = self.pv[0].first() {
            result.best_move = Some(mv);
            result.pv = self.pv[0].clone();
        }
    }

    fn report_lines(
        &self,
        result: &SearchResult<G::Move>,
        lines: &[RootLine<G::Move>],
        report: &mut dyn FnMut(&SearchInfo),
    ) {
        if self.control.lines <= 1 {
            report(&self.info(result, false));
            return;
        }
        for (index, line) in lines.iter().take(self.control.lines).enumerate() {
            let mut shown = result.clone();
            adopt_line(&mut shown, line, result.depth);
            let mut info = self.info(&shown, false);
            info.multipv = Some(index + 1);
            report(&info);
        }
    }
}

fn adopt_line<M: Copy>(result: &mut SearchResult<M>, line: &RootLine<M>, depth: u32) {
    result.best_move = line.pv.first().copied().or(result.best_move);
    result.score = line.score;
    result.depth = depth;
    result.pv = line.pv.clone();
}

/// A weakened level plays one of the last complete iteration's lines.
fn play_chosen_line<M: Copy>(
    result: &mut SearchResult<M>,
    lines: &[RootLine<M>],
    skill: &Skill,
    position_key: u64,
) {
    if lines.is_empty() {
        return;
    }
    let scores: Vec<Score> = lines.iter().map(|line| line.score).collect();
    let chosen = &lines[choose_line(&scores, skill, position_key)];
    let depth = result.depth;
    adopt_line(result, chosen, depth);
}
