//! How a game's positions become a network's inputs.

use crate::core::game::{Game, Player};

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
    /// An earlier feature set (its name and inputs) whose features are
    /// this one's first ones, meaning the same: a network of it can start
    /// the training of one of this, the new inputs' weights at zero.
    const EXTENDS: Option<(&'static str, usize)> = None;

    /// False where the features do not describe the position (another
    /// board size than the network's): the game then evaluates otherwise.
    fn fits(position: &G) -> bool;

    /// Clears `features` and fills it with the active features of `view`.
    fn active(position: &G, view: Player, features: &mut Vec<u16>);

    /// Whether `changes` is asked after the move is played (a game whose
    /// make-move works out what changed and notes it) rather than before.
    const CHANGES_AFTER_MOVE: bool = false;

    /// What playing `mv` changes in the active features of each view
    /// (`changes[player.index()]`); `position` is the one before the move,
    /// or after it where `CHANGES_AFTER_MOVE`. Both views at once: where a
    /// move reshapes whole lines of cells, the work of finding what changed
    /// is done once for the two. False where the position cannot tell:
    /// the features are then computed afresh.
    fn changes(position: &G, mv: G::Move, changes: &mut [FeatureChanges; 2]) -> bool;

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

/// The features a move adds to and removes from one view: a few for a
/// piece that moves, up to a few hundred for a stone that reshapes the
/// cells along its lines. The lists keep their room from move to move.
#[derive(Clone, Debug, Default)]
pub struct FeatureChanges {
    added: Vec<u16>,
    removed: Vec<u16>,
}

impl FeatureChanges {
    pub fn clear(&mut self) {
        self.added.clear();
        self.removed.clear();
    }

    pub fn add(&mut self, feature: u16) {
        self.added.push(feature);
    }

    pub fn remove(&mut self, feature: u16) {
        self.removed.push(feature);
    }

    pub fn added(&self) -> &[u16] {
        &self.added
    }

    pub fn removed(&self) -> &[u16] {
        &self.removed
    }
}
