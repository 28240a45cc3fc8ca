//! The hidden layer of both views, kept along the search's line: each move
//! pushes the features it adds and removes, and the first evaluation at or
//! below it brings the values up to date, the parent's plus the added rows
//! minus the removed ones; taking the move back pops them. A third of the
//! positions the search plays are never evaluated (cut by the table, or
//! settled by the rules or a threat), and so never pay for their rows.
//! Nothing is recomputed in the search's hot path; a position reached
//! otherwise (a new root, a prover's moves) is noticed by its placement key
//! and computed afresh.

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
///
/// The units go in blocks of `BLOCK`, each summed in a local array the
/// compiler keeps in registers (four AVX2 registers) over all the rows,
/// instead of loading and storing the child's values once a row: a third
/// of the instructions where a move changes some thirty rows.
#[multiversion(targets("x86_64+avx2"))]
fn derive_values(child: &mut [i16], parent: &[i16], network: &Network, changes: &FeatureChanges) {
    let blocks = child.len() / BLOCK * BLOCK;
    for start in (0..blocks).step_by(BLOCK) {
        let mut sum = [0i16; BLOCK];
        sum.copy_from_slice(&parent[start..start + BLOCK]);
        for &feature in changes.removed() {
            subtract_row(&mut sum, &network.input_row(feature)[start..start + BLOCK]);
        }
        for &feature in changes.added() {
            add_row(&mut sum, &network.input_row(feature)[start..start + BLOCK]);
        }
        child[start..start + BLOCK].copy_from_slice(&sum);
    }
    let rest = &mut child[blocks..];
    rest.copy_from_slice(&parent[blocks..]);
    for &feature in changes.removed() {
        subtract_row(rest, &network.input_row(feature)[blocks..]);
    }
    for &feature in changes.added() {
        add_row(rest, &network.input_row(feature)[blocks..]);
    }
}

const BLOCK: usize = 64;

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
    /// What the move that led here changed, per view.
    changes: [FeatureChanges; 2],
    /// `views` are still the values of an earlier position: `changes`
    /// (and those of the pending entries below) are not yet applied.
    pending: bool,
    views: [Accumulator; 2],
}

fn blank_entry(network: &Network) -> Entry {
    let blank = Accumulator(network.input_bias().to_vec());
    Entry {
        key: None,
        changes: Default::default(),
        pending: false,
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

    /// Plays `mv` on `position` and pushes the features it changes, to be
    /// applied to the parent's values when an evaluation needs them.
    pub fn play(&mut self, network: &Network, position: &mut G, mv: G::Move) {
        self.know_top(network, position);
        if self.entries.len() <= self.top + 1 {
            self.entries.push(blank_entry(network));
        }
        let child = &mut self.entries[self.top + 1];
        let mut known = true;
        if !F::CHANGES_AFTER_MOVE {
            known = F::changes(position, mv, &mut child.changes);
        }
        position.make_move(mv);
        if F::CHANGES_AFTER_MOVE {
            known = F::changes(position, mv, &mut child.changes);
        }
        // Unknown changes leave no key: the position is computed afresh
        // when it is next asked about.
        child.pending = known;
        child.key = known.then(|| F::placement_key(position));
        self.top += 1;
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

    /// The entry for `position` at the top with its values up to date,
    /// computed afresh if the top holds another position's.
    fn current(&mut self, network: &Network, position: &G) -> &Entry {
        self.know_top(network, position);
        self.apply_pending(network);
        &self.entries[self.top]
    }

    /// Makes the top entry `position`'s: as it is where its key says so
    /// (its values perhaps pending), else computed afresh.
    fn know_top(&mut self, network: &Network, position: &G) {
        let key = F::placement_key(position);
        if self.entries.is_empty() {
            self.top = 0;
            self.entries.push(blank_entry(network));
        }
        let entry = &mut self.entries[self.top];
        if entry.key != Some(key) {
            self.refreshes += 1;
            for (index, view) in [Player::P1, Player::P2].into_iter().enumerate() {
                F::active(position, view, &mut self.features);
                entry.views[index] = Accumulator::fresh(network, &self.features);
            }
            entry.key = Some(key);
            entry.pending = false;
        }
    }

    /// Applies the pending changes from the highest entry whose values are
    /// known up to the top. The bottom entry is never pending: only a
    /// move's child is.
    fn apply_pending(&mut self, network: &Network) {
        let mut known = self.top;
        while known > 0 && self.entries[known].pending {
            known -= 1;
        }
        for index in known + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(index);
            let (parent, child) = (&below[index - 1], &mut above[0]);
            for (view, parent_view) in parent.views.iter().enumerate() {
                child.views[view].derive(parent_view, network, &child.changes[view]);
            }
            child.pending = false;
        }
    }

    /// The top's accumulators of both views, brought up to date, if they
    /// belong to `position`.
    pub fn views(&mut self, network: &Network, position: &G) -> Option<&[Accumulator; 2]> {
        let entry = self.entries.get(self.top)?;
        if entry.key != Some(F::placement_key(position)) {
            return None;
        }
        self.apply_pending(network);
        Some(&self.entries[self.top].views)
    }
}
