//! The Swap2 opening, as the Gomoku World Championships and Gomocup's
//! tournaments play it: the first player puts down three stones (black,
//! white, black); the second takes Black, or stays White and plays the
//! fourth stone, or adds a white and a black stone (the fourth and fifth)
//! and leaves the choice of colour to the first player, who then takes
//! Black or plays the sixth stone as White.
//!
//! Each decision follows one rule the engine can say in a sentence: a
//! short search scores the position from White's side (White is to move
//! after three and after five stones), and
//! - three stones are proposed, and two are added, where that score is
//!   nearest 0, so that the opponent's choice of colour gains it little;
//!   among the near-balanced candidates one is drawn at random, so the
//!   engine does not always open alike;
//! - the colour is chosen by the score's sign: Black when White's score is
//!   below 0 (after three stones, below `-BALANCED`), else White with the
//!   search's move; after three stones a score within `BALANCED` of 0 adds
//!   two stones instead, when a balanced pair is found.
//!
//! The search is given as a function, so this file knows neither the
//! engine nor the protocol that asks.

use std::time::Duration;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

use super::board::{cell_of, coordinates};
use super::notation::format_cell;
use super::{Gomoku, Move};
use crate::core::{Game, Score};

/// A score (White to move) within this of 0 is called balanced: about a
/// third of a stone's worth, 8 points of win chance in the WDL model.
pub const BALANCED: Score = 60;
/// Proposals within this of the most balanced one are drawn from.
const NEAR_BEST: Score = 25;
/// Candidate openings (and stone pairs) scored per decision.
const CANDIDATES: usize = 6;
/// The least time one candidate's search gets.
const MIN_SEARCH: Duration = Duration::from_millis(5);

/// What a short search says of a position: the score for the side to move
/// and the move it would play.
#[derive(Clone, Copy, Debug)]
pub struct Verdict {
    pub score: Score,
    pub best: Option<Move>,
}

/// The answer to one Swap2 question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Choice {
    /// The first three stones: black, white, black.
    Propose([Move; 3]),
    /// Take Black; the opponent moves next, as White.
    Swap,
    /// Stay White (take White) and play this stone.
    Play(Move),
    /// White's fourth and Black's fifth stone; the opponent chooses.
    AddTwo([Move; 2]),
}

/// A choice and the sentence that explains it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swap2Decision {
    pub choice: Swap2Choice,
    pub reason: String,
}

impl Swap2Decision {
    /// The stones this choice puts on the board, in order.
    pub fn stones(&self) -> Vec<Move> {
        match &self.choice {
            Swap2Choice::Propose(stones) => stones.to_vec(),
            Swap2Choice::AddTwo(stones) => stones.to_vec(),
            Swap2Choice::Play(stone) => vec![*stone],
            Swap2Choice::Swap => Vec::new(),
        }
    }
}

/// The search a decision uses: a position and the time it may take.
pub type Searcher<'a> = dyn FnMut(&Gomoku, Duration) -> Verdict + 'a;

/// The decision Swap2 asks for in `position` (0, 3 or 5 stones, played in
/// turn from the empty board), within about `budget` of search.
pub fn decide(
    position: &Gomoku,
    search: &mut Searcher,
    budget: Duration,
    rng: &mut StdRng,
) -> Result<Swap2Decision, String> {
    if position.outcome().is_some() {
        return Err("the game is over".to_owned());
    }
    match position.board().stone_count() {
        0 => propose(position, search, budget, rng),
        3 => respond(position, search, budget, rng),
        5 => choose_colour(position, search, budget),
        n => Err(format!("Swap2 asks with 0, 3 or 5 stones, not {n}")),
    }
}

/// Whether `cell` may be played next in `position`.
fn legal(position: &Gomoku, cell: usize) -> bool {
    position.parse_legal_move(&format_cell(cell)).is_ok()
}

/// An empty cell within `radius` of `(x, y)` (Chebyshev), drawn at random.
fn near(position: &Gomoku, (x, y): (usize, usize), radius: i32, rng: &mut StdRng) -> Option<Move> {
    let size = position.rules().size as i32;
    let mut cells: Vec<usize> = Vec::new();
    for dy in -radius..=radius {
        for dx in -radius..=radius {
            let (cx, cy) = (x as i32 + dx, y as i32 + dy);
            if (0..size).contains(&cx) && (0..size).contains(&cy) {
                let cell = cell_of(cx as usize, cy as usize);
                if legal(position, cell) {
                    cells.push(cell);
                }
            }
        }
    }
    cells.choose(rng).map(|&cell| cell as Move)
}

/// `position` after `stones`, or `None` if one is not legal there.
fn after(position: &Gomoku, stones: &[Move]) -> Option<Gomoku> {
    let mut next = position.clone();
    for &stone in stones {
        if !legal(&next, stone as usize) || next.outcome().is_some() {
            return None;
        }
        next.make_move(stone);
    }
    Some(next)
}

/// Random first three stones around the centre: black within one of it,
/// then white and black within two of the stones before.
fn random_opening(position: &Gomoku, rng: &mut StdRng) -> Option<[Move; 3]> {
    let centre = position.rules().size / 2;
    let first = near(position, (centre, centre), 1, rng)?;
    let board = after(position, &[first])?;
    let second = near(&board, coordinates(first as usize), 2, rng)?;
    let board = after(&board, &[second])?;
    let anchor = if rng.gen_bool(0.5) { first } else { second };
    let third = near(&board, coordinates(anchor as usize), 2, rng)?;
    Some([first, second, third])
}

/// Scores each candidate (White to move after it) and draws one of those
/// within `NEAR_BEST` of the most balanced; returns it with its score and
/// the range of scores seen.
fn most_balanced<const N: usize>(
    position: &Gomoku,
    candidates: Vec<[Move; N]>,
    search: &mut Searcher,
    each: Duration,
    rng: &mut StdRng,
) -> Option<([Move; N], Score, (Score, Score))> {
    let mut scored: Vec<([Move; N], Score)> = Vec::new();
    for stones in candidates {
        if let Some(board) = after(position, &stones) {
            scored.push((stones, search(&board, each).score));
        }
    }
    let best = scored.iter().map(|(_, s)| s.abs()).min()?;
    let low = scored.iter().map(|(_, s)| *s).min().unwrap_or(0);
    let high = scored.iter().map(|(_, s)| *s).max().unwrap_or(0);
    let near: Vec<_> = scored
        .into_iter()
        .filter(|(_, s)| s.abs() <= best + NEAR_BEST)
        .collect();
    near.choose(rng)
        .map(|&(stones, score)| (stones, score, (low, high)))
}

fn names(stones: &[Move]) -> String {
    let names: Vec<String> = stones.iter().map(|&s| format_cell(s as usize)).collect();
    names.join(" ")
}

/// Three stones that leave White's score nearest 0.
fn propose(
    position: &Gomoku,
    search: &mut Searcher,
    budget: Duration,
    rng: &mut StdRng,
) -> Result<Swap2Decision, String> {
    let mut candidates: Vec<[Move; 3]> = Vec::new();
    for _ in 0..CANDIDATES * 4 {
        if candidates.len() == CANDIDATES {
            break;
        }
        if let Some(opening) = random_opening(position, rng) {
            if !candidates.contains(&opening) {
                candidates.push(opening);
            }
        }
    }
    let each = (budget / CANDIDATES as u32).max(MIN_SEARCH);
    let tried = candidates.len();
    let (stones, score, (low, high)) = most_balanced(position, candidates, search, each, rng)
        .ok_or("no room for three stones on this board")?;
    Ok(Swap2Decision {
        choice: Swap2Choice::Propose(stones),
        reason: format!(
            "proposing {}: White to move scores {score}, the most balanced of {tried} \
             openings tried (scores {low} to {high})",
            names(&stones)
        ),
    })
}

/// After three stones: Black, White, or two more stones.
fn respond(
    position: &Gomoku,
    search: &mut Searcher,
    budget: Duration,
    rng: &mut StdRng,
) -> Result<Swap2Decision, String> {
    let verdict = search(position, budget / 3);
    let score = verdict.score;
    if score < -BALANCED {
        return Ok(swap(score, "Black is better"));
    }
    if score <= BALANCED {
        let pairs = stone_pairs(position, verdict.best, rng);
        let each = (budget / (2 * CANDIDATES as u32)).max(MIN_SEARCH);
        if let Some((pair, after, _)) = most_balanced(position, pairs, search, each, rng) {
            if after.abs() <= BALANCED {
                return Ok(Swap2Decision {
                    choice: Swap2Choice::AddTwo(pair),
                    reason: format!(
                        "White to move scores {score}, near balance: adding {}, after \
                         which White to move scores {after}; the opponent chooses",
                        names(&pair)
                    ),
                });
            }
        }
    }
    if score < 0 {
        return Ok(swap(
            score,
            "no balanced pair of stones found; Black is better",
        ));
    }
    play_white(position, verdict, "staying White")
}

/// White's fourth stone (the search's move first, then random ones near
/// the stones) with a random black fifth near it.
fn stone_pairs(position: &Gomoku, best: Option<Move>, rng: &mut StdRng) -> Vec<[Move; 2]> {
    let history: Vec<Move> = position.history.clone();
    let mut pairs = Vec::new();
    for attempt in 0..CANDIDATES * 4 {
        if pairs.len() == CANDIDATES {
            break;
        }
        let white = match (attempt, best) {
            (0, Some(best)) => Some(best),
            _ => history
                .choose(rng)
                .and_then(|&s| near(position, coordinates(s as usize), 2, rng)),
        };
        let Some(white) = white else { continue };
        let Some(board) = after(position, &[white]) else {
            continue;
        };
        let anchor = history.choose(rng).copied().unwrap_or(white);
        if let Some(black) = near(&board, coordinates(anchor as usize), 2, rng) {
            if !pairs.contains(&[white, black]) {
                pairs.push([white, black]);
            }
        }
    }
    pairs
}

/// After five stones: Black when White's score is below 0, else White.
fn choose_colour(
    position: &Gomoku,
    search: &mut Searcher,
    budget: Duration,
) -> Result<Swap2Decision, String> {
    let verdict = search(position, budget);
    if verdict.score < 0 {
        return Ok(swap(verdict.score, "Black is better"));
    }
    play_white(position, verdict, "taking White")
}

fn swap(score: Score, why: &str) -> Swap2Decision {
    Swap2Decision {
        choice: Swap2Choice::Swap,
        reason: format!("White to move scores {score}: {why}; taking Black"),
    }
}

/// White with the search's move (any legal stone if it gave none).
fn play_white(position: &Gomoku, verdict: Verdict, what: &str) -> Result<Swap2Decision, String> {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let stone = verdict
        .best
        .filter(|mv| moves.contains(mv))
        .or_else(|| moves.first().copied())
        .ok_or("no legal move for White")?;
    Ok(Swap2Decision {
        choice: Swap2Choice::Play(stone),
        reason: format!(
            "White to move scores {}: {what}, playing {}",
            verdict.score,
            format_cell(stone as usize)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::GomokuRules;
    use rand::SeedableRng;

    fn played(stones: &[&str]) -> Gomoku {
        let mut position = Gomoku::start_position(&GomokuRules::default());
        for text in stones {
            let mv = position.parse_legal_move(text).unwrap();
            position.make_move(mv);
        }
        position
    }

    /// A stand-in search: a fixed score, the first legal move.
    fn fixed(score: Score) -> impl FnMut(&Gomoku, Duration) -> Verdict {
        move |position: &Gomoku, _| {
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            Verdict {
                score,
                best: moves.first().copied(),
            }
        }
    }

    fn decide_with(stones: &[&str], score: Score, seed: u64) -> Swap2Decision {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut search = fixed(score);
        decide(&played(stones), &mut search, Duration::ZERO, &mut rng).unwrap()
    }

    #[test]
    fn proposals_are_three_legal_stones_that_depend_on_the_seed() {
        let mut seen = Vec::new();
        for seed in 0..8 {
            let decision = decide_with(&[], 0, seed);
            let stones = decision.stones();
            assert_eq!(stones.len(), 3, "{decision:?}");
            assert!(after(&played(&[]), &stones).is_some());
            assert_eq!(
                decision,
                decide_with(&[], 0, seed),
                "same seed, same opening"
            );
            seen.push(stones);
        }
        seen.sort();
        seen.dedup();
        assert!(seen.len() > 1, "eight seeds proposed one opening");
    }

    #[test]
    fn colours_follow_the_sign_of_whites_score() {
        let three = ["h8", "i9", "g9"];
        assert_eq!(decide_with(&three, -200, 1).choice, Swap2Choice::Swap);
        assert!(matches!(
            decide_with(&three, 200, 1).choice,
            Swap2Choice::Play(_)
        ));
        assert!(matches!(
            decide_with(&three, 10, 1).choice,
            Swap2Choice::AddTwo(_)
        ));
        let five = ["h8", "i9", "g9", "h9", "h10"];
        assert_eq!(decide_with(&five, -1, 1).choice, Swap2Choice::Swap);
        assert!(matches!(
            decide_with(&five, 0, 1).choice,
            Swap2Choice::Play(_)
        ));
    }

    #[test]
    fn other_stone_counts_are_refused() {
        let mut rng = StdRng::seed_from_u64(0);
        let mut search = fixed(0);
        let error = decide(&played(&["h8"]), &mut search, Duration::ZERO, &mut rng).unwrap_err();
        assert!(error.contains("0, 3 or 5"), "{error}");
    }
}
