//! What the last stone put changed in the empty cells' combinations, noted
//! while make/unmake works them out: the network's features
//! (`network::ShapeSetFeatures`) read their changes from here after the
//! move, where walking the stone's lines again took a sixth of a search's
//! time.

use crate::games::gomoku::pattern::HALF_WINDOW;

/// Cells a stone reshapes at most: `HALF_WINDOW` each way along four lines,
/// for both sides.
const MOST_RESHAPES: usize = 2 * 4 * 2 * HALF_WINDOW;

/// One empty cell's combination for one side, before and after the stone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reshape {
    /// The empty cell; a cell's two sides, when both change, are noted one
    /// after the other.
    pub cell: u16,
    pub side: u8,
    pub old: u16,
    pub new: u16,
}

#[derive(Clone, Debug)]
pub struct Reshapes {
    /// The cell of the stone whose changes these are; `None` once a stone
    /// was taken away since (the notes no longer describe the board).
    stone: Option<usize>,
    count: usize,
    noted: [Reshape; MOST_RESHAPES],
}

impl Default for Reshapes {
    fn default() -> Self {
        Reshapes {
            stone: None,
            count: 0,
            noted: [Reshape::default(); MOST_RESHAPES],
        }
    }
}

impl Reshapes {
    /// Starts the notes of a stone put at `cell`.
    pub(super) fn start(&mut self, cell: usize) {
        self.stone = Some(cell);
        self.count = 0;
    }

    pub(super) fn forget(&mut self) {
        self.stone = None;
    }

    #[inline(always)]
    pub(super) fn note(&mut self, cell: usize, side: usize, old: u16, new: u16) {
        self.noted[self.count] = Reshape {
            cell: cell as u16,
            side: side as u8,
            old,
            new,
        };
        self.count += 1;
    }

    /// The changes of the stone at `cell`, if it is the last one put and
    /// none was taken away since.
    pub fn of_stone(&self, cell: usize) -> Option<&[Reshape]> {
        (self.stone == Some(cell)).then(|| &self.noted[..self.count])
    }
}
