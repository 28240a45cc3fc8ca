//! Playing below full strength: a level searches a few nodes and several
//! root lines, then picks one of them at random, the better lines the more
//! likely. The search stays the same; only the choice at the root is
//! weakened, so a weak level still sees a win in one and still answers a
//! threat it can see, and never plays an illegal or unsearched move.

use once_cell::sync::Lazy;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::game::{Score, MATE_BOUND};

/// How one search is weakened (`SearchControl::skill`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// Root lines searched to choose from.
    pub lines: usize,
    /// Score units that make a line e (2.718...) times less likely than the
    /// best: 0 always plays the best line.
    pub temperature: f64,
    /// With the position's key, fixes the draw: the same seed and position
    /// give the same move (with one thread and a node limit).
    pub seed: u64,
    /// The share of moves played uniformly at random, without a search.
    pub random_share: f64,
}

/// Index of the line to play among `scores` (best first, as searched).
/// Proven results are never traded: a line that wins is played, and a line
/// that loses is chosen only when nothing else is left.
pub fn choose_line(scores: &[Score], skill: &Skill, position_key: u64) -> usize {
    let Some(&best) = scores.iter().max() else {
        return 0;
    };
    if best >= MATE_BOUND || skill.temperature <= 0.0 || scores.len() < 2 {
        return index_of_best(scores);
    }
    let weights: Vec<f64> = scores
        .iter()
        .map(|&score| {
            if score <= -MATE_BOUND {
                return 0.0;
            }
            let behind = f64::from(best - score) / skill.temperature;
            (-behind.min(60.0)).exp()
        })
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return index_of_best(scores);
    }
    let mut rng = StdRng::seed_from_u64(skill.seed ^ position_key.rotate_left(23));
    let mut draw = rng.gen::<f64>() * total;
    for (index, weight) in weights.iter().enumerate() {
        if draw < *weight {
            return index;
        }
        draw -= weight;
    }
    index_of_best(scores)
}

fn index_of_best(scores: &[Score]) -> usize {
    scores
        .iter()
        .enumerate()
        .max_by_key(|&(index, &score)| (score, std::cmp::Reverse(index)))
        .map_or(0, |(index, _)| index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::MATE;

    fn skill(temperature: f64, seed: u64) -> Skill {
        Skill {
            lines: 4,
            temperature,
            seed,
            random_share: 0.0,
        }
    }

    #[test]
    fn the_same_seed_and_position_give_the_same_line() {
        let scores = [30, 20, 10, 0];
        for seed in 0..50 {
            let first = choose_line(&scores, &skill(40.0, seed), 0xabcdef);
            assert_eq!(first, choose_line(&scores, &skill(40.0, seed), 0xabcdef));
        }
    }

    #[test]
    fn a_cold_level_plays_the_best_line_and_a_warm_one_spreads() {
        let scores = [30, 20, 10, 0];
        let mut counts = [0; 4];
        for seed in 0..2000 {
            assert_eq!(choose_line(&scores, &skill(0.0, seed), 7), 0);
            counts[choose_line(&scores, &skill(20.0, seed), 7)] += 1;
        }
        // Weights 1, e^-0.5, e^-1, e^-1.5: 45%, 27%, 17%, 10% of 2000.
        assert!(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > counts[3]);
        assert!((800..1000).contains(&counts[0]), "{counts:?}");
        assert!((130..280).contains(&counts[3]), "{counts:?}");
    }

    #[test]
    fn proven_results_are_never_traded() {
        let win = MATE - 5;
        for seed in 0..200 {
            assert_eq!(choose_line(&[0, win, -20], &skill(1e6, seed), 1), 1);
            let lost = -(MATE - 4);
            assert_ne!(choose_line(&[-300, lost, lost], &skill(1e6, seed), 1), 1);
            assert_eq!(choose_line(&[lost, lost - 2], &skill(10.0, seed), 1), 0);
        }
    }
}

/// One rung of a game's ladder of levels: how it plays and the Elo it
/// measured at (the scale each game's `levels.txt` states).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rung {
    pub elo: f64,
    /// The share of moves played uniformly at random, without a search
    /// (1 is the random mover).
    pub random_share: f64,
    /// Nodes a move when it searches (the first iteration always ends).
    pub nodes: u64,
    /// The choice among the lines, in the game's score units: a line this
    /// far behind the best is e times less likely.
    pub temperature: f64,
}

/// What `UCI_Elo` asks for: the two rungs around it interpolated (nodes
/// geometrically, the rest linearly).
pub type LevelSetting = Rung;

/// Root lines a weakened level searches to choose from.
pub const LEVEL_LINES: usize = 4;

/// A game's measured levels, weakest first, each stronger than the last.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    rungs: Vec<Rung>,
}

impl Ladder {
    /// Reads `elo random_share nodes temperature` lines (`#` comments).
    pub fn parse(text: &str) -> Result<Ladder, String> {
        let mut rungs: Vec<Rung> = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let bad = |what: &str| format!("line {}: {what}: '{line}'", number + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let [elo, share, nodes, temperature] = words[..] else {
                return Err(bad("expected 'elo random_share nodes temperature'"));
            };
            let number = |word: &str| word.parse::<f64>().ok().filter(|x| x.is_finite());
            let rung = Rung {
                elo: number(elo).ok_or_else(|| bad("bad Elo"))?,
                random_share: number(share)
                    .filter(|x| (0.0..=1.0).contains(x))
                    .ok_or_else(|| bad("the random share is from 0 to 1"))?,
                nodes: nodes.parse().map_err(|_| bad("bad node count"))?,
                temperature: number(temperature)
                    .filter(|x| *x >= 0.0)
                    .ok_or_else(|| bad("bad temperature"))?,
            };
            if rung.nodes == 0 && rung.random_share < 1.0 {
                return Err(bad("a rung that searches needs nodes"));
            }
            if rungs.last().is_some_and(|last| last.elo >= rung.elo) {
                return Err(bad("rungs must climb in Elo"));
            }
            rungs.push(rung);
        }
        if rungs.len() < 2 {
            return Err("a ladder needs at least two rungs".into());
        }
        Ok(Ladder { rungs })
    }

    /// A ladder compiled into the binary: a bad one is a build defect,
    /// caught by every game's test of its ladder.
    pub fn embedded(text: &str) -> Ladder {
        Ladder::parse(text).unwrap_or_else(|e| panic!("levels.txt: {e}"))
    }

    pub fn rungs(&self) -> &[Rung] {
        &self.rungs
    }

    /// The lowest and highest Elo the ladder reaches.
    pub fn elo_range(&self) -> (i64, i64) {
        let first = self.rungs.first().map_or(0.0, |r| r.elo);
        let last = self.rungs.last().map_or(0.0, |r| r.elo);
        (first.round() as i64, last.round() as i64)
    }

    /// The setting for `elo`, clamped to the ladder's range.
    pub fn setting(&self, elo: f64) -> LevelSetting {
        let upper_index = self
            .rungs
            .iter()
            .position(|rung| rung.elo >= elo)
            .unwrap_or(self.rungs.len() - 1)
            .max(1);
        let (lower, upper) = (self.rungs[upper_index - 1], self.rungs[upper_index]);
        let share = ((elo - lower.elo) / (upper.elo - lower.elo)).clamp(0.0, 1.0);
        let between = |low: f64, high: f64| low * (1.0 - share) + high * share;
        let nodes = match lower.nodes {
            0 => upper.nodes as f64,
            low => (low as f64).powf(1.0 - share) * (upper.nodes as f64).powf(share),
        };
        Rung {
            elo: elo.clamp(lower.elo, upper.elo),
            random_share: between(lower.random_share, upper.random_share),
            nodes: nodes.round().max(1.0) as u64,
            temperature: between(lower.temperature, upper.temperature),
        }
    }
}

/// The rungs every game's ladder is made of (`elo random_share nodes
/// temperature`): a game measures their Elo, and until it has, these
/// placeholder numbers only keep them in order.
pub const GENERIC_RUNGS: &str = "\
0 1 0 0
100 0.9 64 200
200 0.75 64 200
300 0.5 64 200
400 0.25 64 200
500 0 64 200
600 0 256 100
700 0 1024 50
800 0 4096 25
900 0 16384 10
1000 0 65536 3
";

/// The ladder of a game that has not measured its own.
pub static GENERIC_LADDER: Lazy<Ladder> = Lazy::new(|| Ladder::embedded(GENERIC_RUNGS));

/// Whether a weakened level plays this move at random instead of searching,
/// drawn from its seed and the position; `Some` holds the draw that picks
/// the move.
pub fn plays_at_random(random_share: f64, seed: u64, position_key: u64) -> Option<u64> {
    if random_share <= 0.0 {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(seed ^ position_key.rotate_left(41));
    (rng.gen::<f64>() < random_share).then(|| rng.gen())
}

#[cfg(test)]
mod ladder_tests {
    use super::*;

    const LADDER: &str =
        "# elo share nodes temperature\n0 1 0 0\n300 0.5 16 2\n700 0 256 0.5  # comment\n";

    #[test]
    fn a_ladder_reads_its_rungs_and_refuses_bad_ones() {
        let ladder = Ladder::parse(LADDER).expect("a valid ladder");
        assert_eq!(ladder.rungs().len(), 3);
        assert_eq!(ladder.elo_range(), (0, 700));
        assert!(Ladder::parse("0 1 0 0\n").is_err());
        assert!(Ladder::parse("0 1 0 0\n10 0.5 0 1\n").is_err());
        assert!(Ladder::parse("0 1 0 0\n300 0 16 2\n200 0 64 1\n").is_err());
        assert!(Ladder::parse("0 1 0 0\n300 0 sixteen 2\n").is_err());
        assert!(Ladder::parse("0 1 0 0\n300 1.5 16 2\n").is_err());
        assert!(Ladder::parse("0 1 0 0\n300 0 16\n").is_err());
        assert!(Ladder::parse("0 1 0 0\n300 0 16 -1\n").is_err());
    }

    #[test]
    fn settings_interpolate_between_rungs() {
        let ladder = Ladder::parse(LADDER).expect("a valid ladder");
        let at_rung = ladder.setting(300.0);
        assert_eq!((at_rung.random_share, at_rung.nodes), (0.5, 16));
        let halfway = ladder.setting(500.0);
        assert_eq!(halfway.nodes, 64);
        assert!((halfway.temperature - 1.25).abs() < 1e-9);
        assert!((halfway.random_share - 0.25).abs() < 1e-9);
        let near_random = ladder.setting(75.0);
        assert!((near_random.random_share - 0.875).abs() < 1e-9);
        assert_eq!(near_random.nodes, 16);
        assert_eq!(ladder.setting(-50.0).random_share, 1.0);
        assert_eq!(ladder.setting(5000.0).nodes, 256);
    }

    #[test]
    fn the_random_share_is_reproducible() {
        let picks: Vec<_> = (0..100)
            .map(|seed| plays_at_random(0.5, seed, 99))
            .collect();
        let again: Vec<_> = (0..100)
            .map(|seed| plays_at_random(0.5, seed, 99))
            .collect();
        assert_eq!(picks, again);
        let random = picks.iter().filter(|p| p.is_some()).count();
        assert!((30..70).contains(&random), "{random}");
        assert_eq!(plays_at_random(0.0, 1, 2), None);
    }
}
