//! H-search for the Monte Carlo search's closer looks, carried from the
//! parent node's connections where the parent was looked at
//! (`vc::incremental`): a node reaches the closer look's visits only after
//! its parent did, so along the tree each look costs the stone's changes
//! rather than a search afresh.

use std::collections::HashMap;
use std::sync::Arc;

use super::HexKnowledge;
use crate::core::{Game, Player};
use crate::games::hex::board::{Hex, HexMove};
use crate::games::hex::vc::mustplay::{self, Judgement};
use crate::games::hex::vc::Connections;

/// Positions whose connections are kept: both players' take up to a
/// megabyte on 13x13 middle games (some 6,000 carriers of 80 bytes a
/// player), and a second of search at 300 simulations a look makes some
/// forty looks.
const CARRIED_LIMIT: usize = 64;

/// Both players' connections, by position key, Black's first.
#[derive(Debug, Default)]
pub(super) struct CarriedConnections {
    by_key: HashMap<u64, Arc<[Connections; 2]>>,
}

impl HexKnowledge {
    /// H-search's verdict for the side to move at `hex`, from connections
    /// carried from its parent's when those are known; `hex` is left as
    /// it was.
    pub(super) fn carried_judgement(&mut self, hex: &mut Hex) -> Judgement {
        let key = hex.hash_key();
        let both = match self.carried.by_key.get(&key) {
            Some(known) => Arc::clone(known),
            None => {
                let both = Arc::new(self.carry_or_search(hex));
                if self.carried.by_key.len() >= CARRIED_LIMIT {
                    self.carried.by_key.clear();
                }
                self.carried.by_key.insert(key, Arc::clone(&both));
                both
            }
        };
        let me = hex.side_to_move_player();
        mustplay::judgement_from(hex, &both[me.index()], &both[me.other().index()])
    }

    fn carry_or_search(&mut self, hex: &mut Hex) -> [Connections; 2] {
        let budget = self.analysis_budget();
        // The second ply may be the swap, which a stone taken back does
        // not undo.
        let parent = hex
            .last_placed()
            .filter(|_| hex.ply() > 2)
            .and_then(|cell| {
                let mv = HexMove::cell(cell);
                hex.unmake_move(mv);
                let key = hex.hash_key();
                hex.make_move(mv);
                let known = self.carried.by_key.get(&key)?;
                Some((cell, Arc::clone(known)))
            });
        [Player::P1, Player::P2].map(|player| match &parent {
            Some((cell, before)) => {
                let mut after = Connections::default();
                after.search_after_stone(&before[player.index()], hex, *cell, budget);
                after
            }
            None => Connections::search(hex, player, budget),
        })
    }
}
