//! H-search (Anshelevich, "A hierarchical approach to computer Hex", 2002)
//! over one position for one player.
//!
//! Nodes are the player's two edges, its groups and the empty cells.
//! Base cases: adjacent nodes are fully connected with an empty carrier.
//! AND rule: full connections x-z and z-y with disjoint carriers, neither
//! holding the other's far end, join x to y: fully if z is a group (the
//! owner's stones carry the connection through), semi if z is an empty
//! cell (the owner must first play z, which joins the carrier). OR rule:
//! semi connections of one pair whose carriers share no cell make a full
//! one (see `connections::or_rule`). New full connections are worked off in
//! the order found, which finds small carriers first.
//!
//! An edge is never the middle of the AND rule: two stones that each reach
//! the same edge are not connected to each other. The work is bounded by
//! the caps of `connections` and by a budget; `hex vc-bench` times it
//! (about a millisecond on 11x11 and 13x13 middle games).

use super::super::board::{stone_of, Hex, EMPTY};
use super::super::geometry::{BOTTOM, LEFT, NO_CELL, RIGHT, TOP};
use super::cellset::{Carrier, CellSet};
use super::connections::{self, Added, Node, PairConnections};
use super::templates;
use crate::core::Player;
use std::collections::VecDeque;
use std::time::Instant;

const NO_NODE: u16 = u16::MAX;
pub(super) const NO_PAIR: u32 = u32::MAX;

/// How much work one H-search may do, in carrier comparisons of the AND
/// rule (deterministic, unlike a clock, so that a search is reproducible),
/// and, inside a timed search, until when: an H-search takes from 1 to
/// some 30 ms on 11x11, more than a fast move has. Stopped early, it has
/// found fewer connections, each of them sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub max_work: u64,
    pub until: Option<Instant>,
}

impl Budget {
    /// Enough to finish on 11x11 and 13x13 middle games (`hex vc-bench`).
    pub const FULL: Budget = Budget {
        max_work: 20_000_000,
        until: None,
    };

    /// The same work, stopped at `until` if that comes first.
    pub fn until(self, until: Option<Instant>) -> Budget {
        Budget { until, ..self }
    }
}

/// New full connections worked off between two looks at the clock: each
/// takes microseconds, the clock some nanoseconds.
const CLOCK_CHECK_INTERVAL: u32 = 16;

/// One player's virtual connections in one position, with carriers of
/// type `C` (`CellSet` by default; `SmallCellSet` on boards up to 8x8).
#[derive(Clone, Debug)]
pub struct Connections<C = CellSet> {
    pub player: Player,
    pub(super) nodes: Vec<Node>,
    node_of_cell: Vec<u16>,
    /// Index into `pairs` for node pair (a, b), a row per node.
    pub(super) pair_index: Vec<u32>,
    /// The pairs in use are the first `pairs_used`; the rest keep their
    /// lists' memory for the next search (`search_again`).
    pub(super) pairs: Vec<PairConnections<C>>,
    pairs_used: usize,
    /// The nodes each node has a full connection with.
    full_neighbours: Vec<Vec<u16>>,
    pub(super) queue: VecDeque<(u16, u16, C)>,
    /// Whether the H-search ran to its end within its budget.
    pub complete: bool,
    /// Carrier comparisons done.
    pub work: u64,
}

impl Connections<CellSet> {
    /// Runs H-search for `player` on `hex` within `budget`.
    pub fn compute(hex: &Hex, player: Player, budget: Budget) -> Connections<CellSet> {
        Connections::search(hex, player, budget)
    }
}

impl<C: Carrier> Default for Connections<C> {
    fn default() -> Self {
        Connections {
            player: Player::P1,
            nodes: Vec::new(),
            node_of_cell: Vec::new(),
            pair_index: Vec::new(),
            pairs: Vec::new(),
            pairs_used: 0,
            full_neighbours: Vec::new(),
            queue: VecDeque::new(),
            complete: true,
            work: 0,
        }
    }
}

impl<C: Carrier> Connections<C> {
    /// Runs H-search for `player` on `hex` within `budget`, with carriers
    /// of type `C`, which must hold every cell of the board.
    pub fn search(hex: &Hex, player: Player, budget: Budget) -> Connections<C> {
        let mut vc = Connections::default();
        vc.search_again(hex, player, budget);
        vc
    }

    /// `search`, reusing this value's memory: the proof search runs one
    /// H-search per node, and allocating the lists afresh each time cost
    /// a tenth of it.
    pub fn search_again(&mut self, hex: &Hex, player: Player, budget: Budget) {
        debug_assert!(hex.geometry().cells() <= C::CAPACITY);
        self.reset_nodes(hex, player);
        self.seed_adjacency(hex);
        self.seed_edge_templates(hex);
        self.run(budget);
    }

    pub(super) fn seed_edge_templates(&mut self, hex: &Hex) {
        templates::seed_edge_templates(hex, self.player, |cell, edge, carrier| {
            let node = self.node_of_cell[cell];
            if node != NO_NODE {
                self.add_full(node, edge as u16, C::from_cell_set(&carrier));
            }
        });
    }

    pub(super) fn reset_nodes(&mut self, hex: &Hex, player: Player) {
        let stone = stone_of(player);
        let cells = hex.geometry().cells();
        self.player = player;
        self.nodes.clear();
        self.nodes.extend([Node::Edge(0), Node::Edge(1)]);
        self.node_of_cell.clear();
        self.node_of_cell.resize(cells, NO_NODE);
        for cell in 0..cells {
            let content = hex.stone_at(cell);
            if content == EMPTY {
                self.node_of_cell[cell] = self.nodes.len() as u16;
                self.nodes.push(Node::Cell(cell as u16));
            } else if content == stone {
                let root = hex.find(cell);
                if self.node_of_cell[root] == NO_NODE {
                    self.node_of_cell[root] = self.nodes.len() as u16;
                    self.nodes.push(Node::Group(root as u16));
                }
                self.node_of_cell[cell] = self.node_of_cell[root];
            }
        }
        let count = self.nodes.len();
        self.pair_index.clear();
        self.pair_index.resize(count * count, NO_PAIR);
        for pair in &mut self.pairs[..self.pairs_used] {
            pair.full.clear();
            pair.semi.clear();
        }
        self.pairs_used = 0;
        for neighbours in self.full_neighbours.iter_mut().take(count) {
            neighbours.clear();
        }
        if self.full_neighbours.len() < count {
            self.full_neighbours.resize(count, Vec::new());
        }
        self.queue.clear();
        self.complete = true;
        self.work = 0;
    }

    /// The player's edge bits, first and second.
    fn edge_bits(&self) -> [u8; 2] {
        match self.player {
            Player::P1 => [TOP, BOTTOM],
            Player::P2 => [LEFT, RIGHT],
        }
    }

    pub(super) fn seed_adjacency(&mut self, hex: &Hex) {
        let geo = hex.geometry();
        let edge_bits = self.edge_bits();
        for cell in 0..geo.cells() {
            let node = self.node_of_cell[cell];
            if node == NO_NODE {
                continue;
            }
            for (edge, bit) in edge_bits.iter().enumerate() {
                if geo.edges[cell] & bit != 0 {
                    self.add_full(node, edge as u16, C::default());
                }
            }
            for &neighbour in geo.ring[cell].iter() {
                if neighbour == NO_CELL {
                    continue;
                }
                let other = self.node_of_cell[neighbour as usize];
                if other != NO_NODE && other != node {
                    self.add_full(node, other, C::default());
                }
            }
        }
    }

    /// The node standing for a cell: its group, or itself if empty;
    /// `None` for an opponent's stone.
    pub fn node_at(&self, cell: usize) -> Option<u16> {
        let node = *self.node_of_cell.get(cell)?;
        (node != NO_NODE).then_some(node)
    }

    pub fn node(&self, node: u16) -> Node {
        self.nodes[node as usize]
    }

    /// The connections between two nodes (empty if none are known).
    pub fn between(&self, a: u16, b: u16) -> Option<&PairConnections<C>> {
        let index = *self
            .pair_index
            .get(a as usize * self.nodes.len() + b as usize)?;
        self.pairs[..self.pairs_used].get(index as usize)
    }

    /// Full connections between the player's two edges: a proven win.
    pub fn edge_to_edge_full(&self) -> &[C] {
        self.between(0, 1).map_or(&[], |pair| &pair.full)
    }

    /// Semi connections between the player's two edges: a win if the
    /// player moves next.
    pub fn edge_to_edge_semi(&self) -> &[C] {
        self.between(0, 1).map_or(&[], |pair| &pair.semi)
    }

    /// Every pair of nodes with connections known, each pair once.
    pub fn pairs(&self) -> impl Iterator<Item = (Node, Node, &PairConnections<C>)> + '_ {
        let count = self.nodes.len();
        (0..count).flat_map(move |a| {
            (a + 1..count).filter_map(move |b| {
                let pair = self.between(a as u16, b as u16)?;
                Some((self.nodes[a], self.nodes[b], pair))
            })
        })
    }

    /// How many full and semi connections are known, over all pairs.
    pub fn counts(&self) -> (usize, usize) {
        self.pairs[..self.pairs_used]
            .iter()
            .fold((0, 0), |(full, semi), pair| {
                (full + pair.full.len(), semi + pair.semi.len())
            })
    }

    fn pair_mut(&mut self, a: u16, b: u16) -> &mut PairConnections<C> {
        let count = self.nodes.len();
        let index = self.pair_index[a as usize * count + b as usize];
        if index != NO_PAIR {
            return &mut self.pairs[index as usize];
        }
        let index = self.pairs_used as u32;
        self.pair_index[a as usize * count + b as usize] = index;
        self.pair_index[b as usize * count + a as usize] = index;
        if self.pairs_used == self.pairs.len() {
            self.pairs.push(PairConnections::default());
        }
        self.pairs_used += 1;
        &mut self.pairs[index as usize]
    }

    pub(super) fn add_full(&mut self, a: u16, b: u16, carrier: C) {
        if self.insert_full(a, b, carrier) {
            self.queue.push_back((a, b, carrier));
        }
    }

    /// Stores a full connection without queueing it for the AND rule;
    /// whether it was kept.
    pub(super) fn insert_full(&mut self, a: u16, b: u16, carrier: C) -> bool {
        if a == b {
            return false;
        }
        let pair = self.pair_mut(a, b);
        // A pair's full list, once filled, is never emptied (a carrier is
        // only dropped for a smaller one): the first one makes neighbours.
        let first_full = pair.full.is_empty();
        let kept = connections::add_full(pair, carrier) == Added::Kept;
        if kept && first_full {
            self.full_neighbours[a as usize].push(b);
            self.full_neighbours[b as usize].push(a);
        }
        kept
    }

    pub(super) fn add_semi(&mut self, a: u16, b: u16, carrier: C, scratch: &mut Vec<C>) {
        if self.insert_semi(a, b, carrier) {
            connections::or_rule(self.pair_mut(a, b), scratch);
            for &full in scratch.iter() {
                self.add_full(a, b, full);
            }
        }
    }

    /// Stores a semi connection without trying the OR rule on it; whether
    /// it was kept.
    pub(super) fn insert_semi(&mut self, a: u16, b: u16, carrier: C) -> bool {
        a != b && connections::add_semi(self.pair_mut(a, b), carrier) == Added::Kept
    }

    /// Works off the queue of new full connections with the AND rule.
    pub(super) fn run(&mut self, budget: Budget) {
        let mut found: Vec<(u16, C)> = Vec::new();
        let mut scratch = Vec::new();
        let mut until_clock: u32 = 0;
        while let Some((a, b, carrier)) = self.queue.pop_front() {
            let late = until_clock == 0 && budget.until.is_some_and(|t| Instant::now() >= t);
            until_clock = until_clock.checked_sub(1).unwrap_or(CLOCK_CHECK_INTERVAL);
            if self.work > budget.max_work || late {
                self.complete = false;
                return;
            }
            // Superseded by a smaller carrier since it was queued.
            if self
                .between(a, b)
                .is_none_or(|pair| !pair.full.contains(&carrier))
            {
                continue;
            }
            for (middle, end) in [(a, b), (b, a)] {
                let middle_cell = match self.nodes[middle as usize] {
                    Node::Edge(_) => continue,
                    Node::Group(_) => None,
                    Node::Cell(cell) => Some(cell as usize),
                };
                self.and_candidates(middle, end, &carrier, &mut found);
                for (other, union) in found.drain(..) {
                    match middle_cell {
                        None => self.add_full(end, other, union),
                        Some(cell) => {
                            let mut with_key = union;
                            with_key.insert(cell);
                            self.add_semi(end, other, with_key, &mut scratch);
                        }
                    }
                }
            }
        }
    }

    /// The full connections middle-other that combine with middle-end's
    /// `carrier`: disjoint carriers, neither holding the other's far end.
    fn and_candidates(&mut self, middle: u16, end: u16, carrier: &C, found: &mut Vec<(u16, C)>) {
        let end_cell = self.nodes[end as usize].empty_cell();
        let mut work = 0;
        for &other in &self.full_neighbours[middle as usize] {
            if other == end {
                continue;
            }
            if let Some(cell) = self.nodes[other as usize].empty_cell() {
                if carrier.contains(cell) {
                    continue;
                }
            }
            let Some(pair) = self.between(middle, other) else {
                continue;
            };
            for second in &pair.full {
                work += 1;
                if second.is_disjoint(carrier) && end_cell.is_none_or(|cell| !second.contains(cell))
                {
                    found.push((other, second.union(carrier)));
                }
            }
        }
        self.work += work;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::hex::{HexMove, HexRules};

    fn position(fen: &str) -> Hex {
        Hex::from_fen(fen, &HexRules::default()).expect("test positions are valid")
    }

    fn cells(hex: &Hex, names: &str) -> CellSet {
        names
            .split_whitespace()
            .map(|name| match hex.parse_move(name) {
                Ok(HexMove(cell)) => cell as usize,
                Err(e) => panic!("{name}: {e}"),
            })
            .collect()
    }

    #[test]
    fn a_centre_stone_on_three_by_three_is_connected_by_two_bridges() {
        let hex = position("3/1x1/3 w");
        let vc = Connections::compute(&hex, Player::P1, Budget::FULL);
        assert_eq!(vc.edge_to_edge_full(), &[cells(&hex, "b1 c1 a3 b3")]);
        let white = Connections::compute(&hex, Player::P2, Budget::FULL);
        assert!(white.edge_to_edge_full().is_empty() && white.edge_to_edge_semi().is_empty());
    }

    #[test]
    fn the_empty_three_by_three_is_a_semi_connection_through_the_centre() {
        let hex = position("3/3/3 b");
        let vc = Connections::compute(&hex, Player::P1, Budget::FULL);
        assert!(vc.edge_to_edge_full().is_empty());
        let semis = vc.edge_to_edge_semi();
        assert!(semis.contains(&cells(&hex, "b2 b1 c1 a3 b3")), "{semis:?}");
    }

    #[test]
    fn a_bridge_between_two_stones_is_a_full_connection() {
        let hex = position("5/1x3/5/x4/5 w");
        let vc = Connections::compute(&hex, Player::P1, Budget::FULL);
        let (b2, a4) = (cells(&hex, "b2"), cells(&hex, "a4"));
        let node = |set: CellSet| {
            let cell = set.iter().next().expect("one cell");
            vc.node_at(cell).expect("own stone")
        };
        let pair = vc.between(node(b2), node(a4)).expect("connected");
        assert!(pair.full.contains(&cells(&hex, "a3 b3")), "{pair:?}");
    }

    #[test]
    fn an_opponent_stone_in_the_carrier_leaves_a_semi_connection() {
        let hex = position("5/1x3/1o3/x4/5 b");
        let vc = Connections::compute(&hex, Player::P1, Budget::FULL);
        let node = |name: &str| {
            let cell = cells(&hex, name).iter().next().expect("one cell");
            vc.node_at(cell).expect("own stone")
        };
        let pair = vc.between(node("b2"), node("a4")).expect("half connected");
        assert!(pair.full.is_empty(), "{pair:?}");
        assert!(pair.semi.contains(&cells(&hex, "a3")), "{pair:?}");
    }

    #[test]
    fn an_h_search_past_its_time_stops_before_any_work() {
        let hex = Hex::start_position(&HexRules {
            board_size: 11,
            swap: false,
        });
        let past = Budget::FULL.until(Some(Instant::now()));
        let vc = Connections::compute(&hex, Player::P1, past);
        assert!(!vc.complete);
        assert_eq!(vc.work, 0);
        assert!(Connections::compute(&hex, Player::P1, Budget::FULL).complete);
    }
}
