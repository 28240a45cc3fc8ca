//! Training positions for a network, read from self-play data files
//! (`dataset.rs`): each searched position's active features from both
//! views, its search score and its game's result, for the side to move.

use std::path::PathBuf;

use super::dataset::{self, NO_SCORE};
use crate::core::game::Game;
use crate::core::nnue::FeatureSet;

/// One position: its features are `features[start..]`, the side to move's
/// `mover_count` first, then the other side's `other_count`.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub start: u32,
    pub mover_count: u16,
    pub other_count: u16,
    /// The search's score for the side to move, in the game's units.
    pub score: f32,
    /// The game's result for the side to move: 1, 0.5 or 0.
    pub result: f32,
}

/// Positions and their features, packed.
#[derive(Clone, Debug, Default)]
pub struct TrainingSet {
    pub features: Vec<u16>,
    pub samples: Vec<Sample>,
}

impl TrainingSet {
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The side to move's and the other side's features of a sample.
    pub fn views(&self, sample: &Sample) -> (&[u16], &[u16]) {
        let start = sample.start as usize;
        let middle = start + usize::from(sample.mover_count);
        let end = middle + usize::from(sample.other_count);
        (&self.features[start..middle], &self.features[middle..end])
    }

    pub fn push(&mut self, mover: &[u16], other: &[u16], score: f32, result: f32) {
        self.samples.push(Sample {
            start: self.features.len() as u32,
            mover_count: mover.len() as u16,
            other_count: other.len() as u16,
            score,
            result,
        });
        self.features.extend_from_slice(mover);
        self.features.extend_from_slice(other);
    }
}

/// What loading found.
#[derive(Debug, Default)]
pub struct LoadReport {
    pub games: usize,
    pub training: usize,
    pub held_back: usize,
    /// Positions the features do not describe (another board size).
    pub unfit: usize,
}

/// The scored positions of `files`; the games whose number is a multiple
/// of `held_every` go to the held-back set (whole games, so that no
/// position has its neighbours on the other side). With `mirror`, the
/// training set also holds each position's mirror image, where the
/// features have one.
pub fn load<G: Game, F: FeatureSet<G>>(
    files: &[PathBuf],
    held_every: u32,
    mirror: bool,
) -> Result<(TrainingSet, TrainingSet, LoadReport), String> {
    let (mut training, mut held) = (TrainingSet::default(), TrainingSet::default());
    let mut report = LoadReport::default();
    let (mut mover, mut other) = (Vec::new(), Vec::new());
    for path in files {
        let (data, rules) = dataset::read_games_of::<G>(path)?;
        for game in &data.games {
            let held_back = held_every > 0 && game.index % held_every == 0;
            let set = match held_back {
                true => &mut held,
                false => &mut training,
            };
            dataset::replay::<G>(game, &rules, |at| {
                if at.score == NO_SCORE {
                    return;
                }
                if !F::fits(at.position) {
                    report.unfit += 1;
                    return;
                }
                let side = at.position.side_to_move();
                F::active(at.position, side, &mut mover);
                F::active(at.position, side.other(), &mut other);
                set.push(&mover, &other, f32::from(at.score), at.result);
                if mirror && !held_back {
                    if let (Some(mover), Some(other)) =
                        (mirror_all::<G, F>(&mover), mirror_all::<G, F>(&other))
                    {
                        set.push(&mover, &other, f32::from(at.score), at.result);
                    }
                }
            })
            .map_err(|e| format!("{}: {e}", path.display()))?;
            report.games += 1;
        }
    }
    report.training = training.len();
    report.held_back = held.len();
    Ok((training, held, report))
}

fn mirror_all<G: Game, F: FeatureSet<G>>(features: &[u16]) -> Option<Vec<u16>> {
    features
        .iter()
        .map(|&feature| F::mirrored(feature))
        .collect()
}
