//! A move policy from learned move features: each move is described by one
//! value in each of a game's feature groups (Hex: the stones around the
//! cell, the cell's place beside the last move), each value has a strength
//! (a "gamma", Bradley-Terry's), a move's strength is the product of its
//! values' gammas, and its probability is its share of all the moves'.
//! The gammas are fitted by `bg-tune fit-policy` (minorization-maximization,
//! `tuning::policy_fit`) from the moves of self-play games and kept in a
//! data file in the game's folder; Monte Carlo search reads them as priors.
//!
//! A value the file does not name has gamma 1, as has a move with no
//! features (Hex's swap): the policy then leans neither way.

use std::collections::HashMap;

use super::game::Game;

/// One feature group: its name in the data file and how many values it
/// takes (values are `0..size`).
#[derive(Clone, Copy, Debug)]
pub struct FeatureGroup {
    pub name: &'static str,
    pub size: u32,
}

/// A value outside every group: the move has no features.
pub const NO_FEATURE: u32 = u32::MAX;

/// The move features a game offers its policy.
pub trait MoveFeatures<G: Game> {
    /// The groups, in the order `features` fills them.
    const GROUPS: &'static [FeatureGroup];

    /// Writes `mv`'s value in each group into `out` (`GROUPS.len()` long),
    /// or `NO_FEATURE` in every slot for a move the policy does not judge.
    fn features(position: &G, mv: G::Move, out: &mut [u32]);

    /// How a value is written in the data file; decimal by default.
    fn value_name(group: usize, value: u32) -> String {
        let _ = group;
        value.to_string()
    }

    /// The value a name in the data file stands for.
    fn value_of(group: usize, name: &str) -> Option<u32> {
        let value: u32 = name.parse().ok()?;
        (value < Self::GROUPS[group].size).then_some(value)
    }
}

/// The gammas of every group's values; those not stored are 1.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gammas {
    groups: Vec<HashMap<u32, f32>>,
}

impl Gammas {
    /// Every gamma 1: the uniform policy.
    pub fn uniform(groups: usize) -> Gammas {
        Gammas {
            groups: vec![HashMap::new(); groups],
        }
    }

    pub fn gamma(&self, group: usize, value: u32) -> f32 {
        self.groups[group].get(&value).copied().unwrap_or(1.0)
    }

    pub fn set(&mut self, group: usize, value: u32, gamma: f32) {
        self.groups[group].insert(value, gamma);
    }

    /// How many values have their own gamma.
    pub fn stored(&self) -> usize {
        self.groups.iter().map(HashMap::len).sum()
    }

    /// The product of the values' gammas; 1 for a move with no features.
    pub fn strength(&self, features: &[u32]) -> f32 {
        features
            .iter()
            .enumerate()
            .filter(|&(_, &value)| value != NO_FEATURE)
            .map(|(group, &value)| self.gamma(group, value))
            .product()
    }

    /// Reads a data file: `# comments`, blank lines and lines
    /// `group value gamma`; a gamma must be finite and positive.
    pub fn parse<G: Game, F: MoveFeatures<G>>(text: &str) -> Result<Gammas, String> {
        let mut gammas = Gammas::uniform(F::GROUPS.len());
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [group_name, value_name, gamma] = fields[..] else {
                return Err(format!("line {}: not 'group value gamma'", number + 1));
            };
            let group = F::GROUPS
                .iter()
                .position(|group| group.name == group_name)
                .ok_or_else(|| format!("line {}: no feature group '{group_name}'", number + 1))?;
            let value = F::value_of(group, value_name)
                .ok_or_else(|| format!("line {}: '{value_name}' is no {group_name}", number + 1))?;
            let gamma: f32 = gamma
                .parse()
                .ok()
                .filter(|gamma: &f32| gamma.is_finite() && *gamma > 0.0)
                .ok_or_else(|| format!("line {}: gamma '{gamma}' is not positive", number + 1))?;
            gammas.set(group, value, gamma);
        }
        Ok(gammas)
    }

    /// The data file `parse` reads, `header` first (each line a comment),
    /// values in ascending order within each group.
    pub fn write<G: Game, F: MoveFeatures<G>>(&self, header: &str) -> String {
        let mut text: String = header.lines().map(|line| format!("# {line}\n")).collect();
        for (group, values) in self.groups.iter().enumerate() {
            let mut sorted: Vec<(&u32, &f32)> = values.iter().collect();
            sorted.sort_unstable_by_key(|&(value, _)| *value);
            for (&value, gamma) in sorted {
                let name = F::value_name(group, value);
                text.push_str(&format!("{} {name} {gamma}\n", F::GROUPS[group].name));
            }
        }
        text
    }

    /// The policy over `moves`: each one's share of their strengths.
    /// Empty when no move has a stored gamma (nothing to tell them apart).
    pub fn policy<G: Game, F: MoveFeatures<G>>(
        &self,
        position: &G,
        moves: &[G::Move],
        policy: &mut Vec<f32>,
    ) {
        policy.clear();
        if self.stored() == 0 {
            return;
        }
        let mut features = vec![NO_FEATURE; F::GROUPS.len()];
        for &mv in moves {
            F::features(position, mv, &mut features);
            policy.push(self.strength(&features));
        }
        let total: f32 = policy.iter().sum();
        if total > 0.0 {
            policy.iter_mut().for_each(|share| *share /= total);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::contract::toy::{Pile, PileFlaws};

    /// The pile's moves described by their number's parity and size.
    struct PileFeatures;

    impl MoveFeatures<Pile> for PileFeatures {
        const GROUPS: &'static [FeatureGroup] = &[
            FeatureGroup {
                name: "parity",
                size: 2,
            },
            FeatureGroup {
                name: "size",
                size: 16,
            },
        ];

        fn features(_: &Pile, mv: u16, out: &mut [u32]) {
            let code = u32::from(mv);
            out[0] = code % 2;
            out[1] = code.min(15);
        }
    }

    #[test]
    fn a_data_file_reads_back_as_written() {
        let mut gammas = Gammas::uniform(2);
        gammas.set(0, 1, 2.5);
        gammas.set(1, 7, 0.125);
        gammas.set(1, 3, 4.0);
        let text = gammas.write::<Pile, PileFeatures>("fitted on nothing\nby hand");
        assert!(text.starts_with("# fitted on nothing\n# by hand\n"));
        assert!(text.contains("size 3 4\nsize 7 0.125\n"), "sorted: {text}");
        let read = Gammas::parse::<Pile, PileFeatures>(&text).expect("reads");
        assert_eq!(read, gammas);
        assert_eq!(read.strength(&[1, 7]), 2.5 * 0.125);
        assert_eq!(read.strength(&[0, 9]), 1.0);
        assert_eq!(read.strength(&[NO_FEATURE, NO_FEATURE]), 1.0);
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        for (text, expected) in [
            ("parity 1\n", "line 1: not 'group value gamma'"),
            ("# ok\ncolour 1 2.0\n", "line 2: no feature group 'colour'"),
            ("parity 2 2.0\n", "line 1: '2' is no parity"),
            ("size x 2.0\n", "line 1: 'x' is no size"),
            ("size 3 -1\n", "line 1: gamma '-1' is not positive"),
            ("size 3 NaN\n", "line 1: gamma 'NaN' is not positive"),
            ("size 3 inf\n", "line 1: gamma 'inf' is not positive"),
        ] {
            assert_eq!(
                Gammas::parse::<Pile, PileFeatures>(text),
                Err(expected.to_string())
            );
        }
    }

    #[test]
    fn the_policy_shares_out_the_strengths() {
        let toy = Pile::start_position(&PileFlaws::default());
        let moves = [1, 2, 3];
        let mut policy = Vec::new();
        Gammas::uniform(2).policy::<Pile, PileFeatures>(&toy, &moves, &mut policy);
        assert!(policy.is_empty(), "no gammas, no policy");
        let mut gammas = Gammas::uniform(2);
        gammas.set(0, 1, 3.0);
        gammas.policy::<Pile, PileFeatures>(&toy, &moves, &mut policy);
        assert_eq!(policy, vec![3.0 / 7.0, 1.0 / 7.0, 3.0 / 7.0]);
    }
}
