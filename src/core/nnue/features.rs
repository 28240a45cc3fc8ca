//! How a game's positions become a network's inputs.

use crate::core::game::{Game, Player};

/// The most features one move may add or remove for one side's view.
pub const MAX_CHANGES: usize = 8;

/// A game's input features: for each side's point of view ("view"), the
/// indices of the features active in a position, and how a move changes
/// them. Both views use the same indices for the same meaning relative to
/// the viewer (a feature says "my piece on my third rank", not "White's
/// piece on rank 3"), so one set of weights serves both sides.
pub trait FeatureSet<G: Game>: Send + Sync + 'static {
    /// The feature set's name, written into network files and checked when
    /// one is loaded: a network trained on other features is refused.
    const NAME: &'static str;
    /// Input features per view.
    const INPUTS: usize;

    /// False where the features do not describe the position (another
    /// board size than the network's): the game then evaluates otherwise.
    fn fits(position: &G) -> bool;

    /// Clears `features` and fills it with the active features of `view`.
    fn active(position: &G, view: Player, features: &mut Vec<u16>);

    /// Whether `changes` lists what a move changes. A feature set whose
    /// moves change more than `MAX_CHANGES` features (the shapes of whole
    /// lines of cells) says no: the accumulators of a position after a move
    /// are then computed afresh, when it is evaluated.
    const LISTS_CHANGES: bool = true;

    /// What playing `mv` in `position` (before the move) changes in the
    /// active features of `view` (never asked where `LISTS_CHANGES` is false).
    fn changes(position: &G, mv: G::Move, view: Player, changes: &mut FeatureChanges);

    /// The feature's image in the position's mirror image, for games
    /// whose rules a mirror keeps (Breakthrough's left and right): the
    /// trainer may learn from both images. `None`: no such symmetry.
    fn mirrored(feature: u16) -> Option<u16> {
        let _ = feature;
        None
    }

    /// A key of everything the features depend on, but not the side to
    /// move (a null move keeps it): two positions with one key have the
    /// same features.
    fn placement_key(position: &G) -> u64;
}

/// The features a move adds to and removes from one view.
#[derive(Clone, Copy, Debug, Default)]
pub struct FeatureChanges {
    added: [u16; MAX_CHANGES],
    removed: [u16; MAX_CHANGES],
    added_count: u8,
    removed_count: u8,
}

impl FeatureChanges {
    pub fn clear(&mut self) {
        self.added_count = 0;
        self.removed_count = 0;
    }

    pub fn add(&mut self, feature: u16) {
        self.added[usize::from(self.added_count)] = feature;
        self.added_count += 1;
    }

    pub fn remove(&mut self, feature: u16) {
        self.removed[usize::from(self.removed_count)] = feature;
        self.removed_count += 1;
    }

    pub fn added(&self) -> &[u16] {
        &self.added[..usize::from(self.added_count)]
    }

    pub fn removed(&self) -> &[u16] {
        &self.removed[..usize::from(self.removed_count)]
    }
}
