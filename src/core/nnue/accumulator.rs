//! The hidden layer of both views, kept along the search's line: each move
//! pushes the parent's values plus the rows of the features it adds, minus
//! those it removes; taking the move back pops them. Nothing is recomputed
//! in the search's hot path; a position reached otherwise (a new root, a
//! prover's moves) is noticed by its placement key and computed afresh.

use std::marker::PhantomData;

use multiversion::multiversion;

use super::features::{FeatureChanges, FeatureSet};
use super::network::Network;
use crate::core::game::{Game, Player};

/// The hidden values of one view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator(Vec<i16>);

impl Accumulator {
    /// The values computed from scratch from the active features.
    pub fn fresh(network: &Network, features: &[u16]) -> Self {
        let mut values = network.input_bias().to_vec();
        for &feature in features {
            add_row(&mut values, network.input_row(feature));
        }
        Accumulator(values)
    }

    pub fn values(&self) -> &[i16] {
        &self.0
    }

    /// These values become `parent`'s changed by the move's `changes`.
    fn derive(&mut self, parent: &Accumulator, network: &Network, changes: &FeatureChanges) {
        derive_values(&mut self.0, &parent.0, network, changes);
    }
}

/// The child's values: the parent's, less the rows of the features the move
/// removes, plus those it adds. The loops are plain code that the compiler
/// vectorises (SSE2, on every x86-64 processor); `multiversion` compiles
/// this function a second time for AVX2, twice as wide, and calls that one
/// where the processor has it (measured: docs/results/learned-evaluation.md,
/// step 3).
#[multiversion(targets("x86_64+avx2"))]
fn derive_values(child: &mut [i16], parent: &[i16], network: &Network, changes: &FeatureChanges) {
    child.copy_from_slice(parent);
    for &feature in changes.removed() {
        subtract_row(child, network.input_row(feature));
    }
    for &feature in changes.added() {
        add_row(child, network.input_row(feature));
    }
}

// Wrapping arithmetic: adding and subtracting a row then give back exactly
// the values before, whatever the weights, so the incremental values always
// equal fresh ones. Always inlined, so that they take the instruction set
// of the function they are called from.
#[inline(always)]
fn add_row(values: &mut [i16], row: &[i16]) {
    values
        .iter_mut()
        .zip(row)
        .for_each(|(v, w)| *v = v.wrapping_add(*w));
}

#[inline(always)]
fn subtract_row(values: &mut [i16], row: &[i16]) {
    values
        .iter_mut()
        .zip(row)
        .for_each(|(v, w)| *v = v.wrapping_sub(*w));
}

/// Both views' accumulators for one position, and which position.
#[derive(Clone, Debug)]
struct Entry {
    /// `FeatureSet::placement_key` of the position; `None` until computed.
    key: Option<u64>,
    views: [Accumulator; 2],
}

fn blank_entry(network: &Network) -> Entry {
    let blank = Accumulator(network.input_bias().to_vec());
    Entry {
        key: None,
        views: [blank.clone(), blank],
    }
}

/// The accumulators of the positions along one search line, per search
/// thread (it lives in the game's knowledge).
#[derive(Clone, Debug)]
pub struct AccumulatorStack<G, F> {
    entries: Vec<Entry>,
    top: usize,
    features: Vec<u16>,
    changes: [FeatureChanges; 2],
    /// Positions computed from scratch, for tests and diagnostics.
    refreshes: u64,
    _marker: PhantomData<fn() -> (G, F)>,
}

impl<G: Game, F: FeatureSet<G>> Default for AccumulatorStack<G, F> {
    fn default() -> Self {
        AccumulatorStack {
            entries: Vec::new(),
            top: 0,
            features: Vec::new(),
            changes: Default::default(),
            refreshes: 0,
            _marker: PhantomData,
        }
    }
}

impl<G: Game, F: FeatureSet<G>> AccumulatorStack<G, F> {
    /// Forgets the line: the next evaluation computes afresh.
    pub fn reset(&mut self) {
        self.top = 0;
        if let Some(entry) = self.entries.first_mut() {
            entry.key = None;
        }
    }

    pub fn refreshes(&self) -> u64 {
        self.refreshes
    }

    /// The score of `position` for its side to move.
    pub fn evaluate(&mut self, network: &Network, position: &G) -> i32 {
        let mover = position.side_to_move();
        let entry = self.current(network, position);
        let [first, second] = &entry.views;
        match mover {
            Player::P1 => network.evaluate(first.values(), second.values()),
            Player::P2 => network.evaluate(second.values(), first.values()),
        }
    }

    /// Plays `mv` on `position` and pushes its accumulators, the parent's
    /// updated by the features the move changes.
    pub fn play(&mut self, network: &Network, position: &mut G, mv: G::Move) {
        self.current(network, position);
        if self.entries.len() <= self.top + 1 {
            self.entries.push(blank_entry(network));
        }
        let (parents, children) = self.entries.split_at_mut(self.top + 1);
        let (parent, child) = (&parents[self.top], &mut children[0]);
        F::changes(position, mv, &mut self.changes);
        for (index, changes) in self.changes.iter().enumerate() {
            child.views[index].derive(&parent.views[index], network, changes);
        }
        position.make_move(mv);
        self.top += 1;
        self.entries[self.top].key = Some(F::placement_key(position));
    }

    /// The score of `network`, if there is one and its features describe
    /// `position`; `None`: the game evaluates otherwise.
    pub fn evaluate_fitting(&mut self, network: Option<&Network>, position: &G) -> Option<i32> {
        let network = network.filter(|_| F::fits(position))?;
        Some(self.evaluate(network, position))
    }

    /// Plays `mv` through the stack where `network` describes `position`,
    /// as a plain move otherwise (`take_back` undoes either).
    pub fn play_fitting(&mut self, network: Option<&Network>, position: &mut G, mv: G::Move) {
        match network.filter(|_| F::fits(position)) {
            Some(network) => self.play(network, position, mv),
            None => position.make_move(mv),
        }
    }

    /// Takes `mv` back on `position` and pops its accumulators.
    pub fn take_back(&mut self, position: &mut G, mv: G::Move) {
        position.unmake_move(mv);
        self.top = self.top.saturating_sub(1);
    }

    /// The entry for `position` at the top, computed afresh if the top
    /// holds another position's.
    fn current(&mut self, network: &Network, position: &G) -> &Entry {
        let key = F::placement_key(position);
        if self.entries.is_empty() {
            self.top = 0;
            self.entries.push(blank_entry(network));
        }
        if self.entries[self.top].key != Some(key) {
            self.refreshes += 1;
            for (index, view) in [Player::P1, Player::P2].into_iter().enumerate() {
                F::active(position, view, &mut self.features);
                self.entries[self.top].views[index] = Accumulator::fresh(network, &self.features);
            }
            self.entries[self.top].key = Some(key);
        }
        &self.entries[self.top]
    }

    /// The top's accumulators of both views, if they belong to `position`.
    pub fn views(&self, position: &G) -> Option<&[Accumulator; 2]> {
        let entry = self.entries.get(self.top)?;
        (entry.key == Some(F::placement_key(position))).then_some(&entry.views)
    }
}
