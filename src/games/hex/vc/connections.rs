//! The store of one player's virtual connections: for every pair of
//! nodes, its full connections (the owner connects the pair even if the
//! opponent moves first) and its semi connections (only if the owner moves
//! first), each a carrier of empty cells, kept minimal and capped.

use super::cellset::Carrier;

/// Full connections kept per pair. Four covers the alternatives the
/// search and the AND rule use in practice (Anshelevich keeps a handful);
/// more multiplies the AND rule's work for carriers that are seldom
/// disjoint from anything.
pub const MAX_FULL_PER_PAIR: usize = 4;
/// Semi connections kept per pair: the OR rule needs several with small
/// intersections to find a full one, and must-play intersects all of them
/// (more kept, smaller must-play sets), so this is twice the full cap.
pub const MAX_SEMI_PER_PAIR: usize = 8;
/// Semi connections the OR rule combines at most. Each one must shrink the
/// intersection; four is what the usual H-search limits allow and keeps the
/// subsets tried per new semi connection small.
pub const MAX_OR_SEMIS: usize = 4;

/// A node of the connection graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// One of the owner's two edges: 0 the first (top or left), 1 the second.
    Edge(u8),
    /// A group of the owner's stones, by one of its cells.
    Group(u16),
    /// An empty cell, as if the owner had a stone there.
    Cell(u16),
}

impl Node {
    /// The cell an endpoint occupies, which no carrier of its may hold.
    pub fn empty_cell(self) -> Option<usize> {
        match self {
            Node::Cell(cell) => Some(cell as usize),
            _ => None,
        }
    }
}

/// The connections of one pair of nodes.
#[derive(Clone, Debug)]
pub struct PairConnections<C> {
    pub full: Vec<C>,
    pub semi: Vec<C>,
}

impl<C> Default for PairConnections<C> {
    fn default() -> Self {
        PairConnections {
            full: Vec::new(),
            semi: Vec::new(),
        }
    }
}

/// What adding a connection did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// Kept: no known connection of the pair makes it redundant.
    Kept,
    /// Dropped: redundant, or the pair's list is full.
    Dropped,
}

/// Adds a full connection with `carrier` unless one with a subset of it is
/// known; drops the known ones (full and semi) it makes redundant.
pub fn add_full<C: Carrier>(pair: &mut PairConnections<C>, carrier: C) -> Added {
    if pair.full.iter().any(|known| known.is_subset(&carrier)) {
        return Added::Dropped;
    }
    pair.full.retain(|known| !carrier.is_subset(known));
    pair.semi.retain(|known| !carrier.is_subset(known));
    if pair.full.len() >= MAX_FULL_PER_PAIR {
        return Added::Dropped;
    }
    pair.full.push(carrier);
    Added::Kept
}

/// Adds a semi connection unless a full or semi one with a subset of its
/// carrier is known; drops the semi ones it makes redundant.
pub fn add_semi<C: Carrier>(pair: &mut PairConnections<C>, carrier: C) -> Added {
    let redundant = pair.full.iter().chain(&pair.semi);
    if redundant.into_iter().any(|known| known.is_subset(&carrier)) {
        return Added::Dropped;
    }
    pair.semi.retain(|known| !carrier.is_subset(known));
    if pair.semi.len() >= MAX_SEMI_PER_PAIR {
        return Added::Dropped;
    }
    pair.semi.push(carrier);
    Added::Kept
}

/// The OR rule for the semi connection just added last: subsets of the
/// pair's semi connections that include it, whose carriers have no common
/// cell, make full connections with the union of their carriers (the
/// opponent cannot intrude into all at once). Returns those carriers.
pub fn or_rule<C: Carrier>(pair: &PairConnections<C>, out: &mut Vec<C>) {
    out.clear();
    let Some((newest, others)) = pair.semi.split_last() else {
        return;
    };
    combine(others, 0, *newest, *newest, 1, out);
}

fn combine<C: Carrier>(
    semis: &[C],
    from: usize,
    common: C,
    union: C,
    used: usize,
    out: &mut Vec<C>,
) {
    if used >= MAX_OR_SEMIS {
        return;
    }
    for (index, carrier) in semis.iter().enumerate().skip(from) {
        let narrower = common.intersection(carrier);
        // A semi connection that leaves the common cells as they are adds
        // nothing to the combination but cells.
        if narrower == common {
            continue;
        }
        let wider = union.union(carrier);
        if narrower.is_empty() {
            out.push(wider);
        } else {
            combine(semis, index + 1, narrower, wider, used + 1, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::cellset::CellSet;
    use super::*;

    fn set(cells: &[usize]) -> CellSet {
        cells.iter().copied().collect()
    }

    #[test]
    fn carriers_stay_minimal() {
        let mut pair = PairConnections::<CellSet>::default();
        assert_eq!(add_semi(&mut pair, set(&[1, 2])), Added::Kept);
        assert_eq!(add_semi(&mut pair, set(&[1, 2, 3])), Added::Dropped);
        assert_eq!(add_semi(&mut pair, set(&[1])), Added::Kept);
        assert_eq!(pair.semi, vec![set(&[1])]);
        assert_eq!(add_full(&mut pair, set(&[1, 4])), Added::Kept);
        assert_eq!(add_full(&mut pair, set(&[1, 4, 5])), Added::Dropped);
        assert_eq!(add_full(&mut pair, set(&[1])), Added::Kept);
        assert!(
            pair.semi.is_empty(),
            "a full carrier makes equal semis redundant"
        );
        assert_eq!(pair.full, vec![set(&[1])]);
    }

    #[test]
    fn the_or_rule_needs_an_empty_intersection() {
        let mut pair = PairConnections::<CellSet>::default();
        let mut out = Vec::new();
        add_semi(&mut pair, set(&[1, 2]));
        add_semi(&mut pair, set(&[2, 3]));
        or_rule(&pair, &mut out);
        assert!(out.is_empty());
        add_semi(&mut pair, set(&[3, 4]));
        or_rule(&pair, &mut out);
        assert_eq!(out, vec![set(&[1, 2, 3, 4])]);
        add_semi(&mut pair, set(&[5]));
        or_rule(&pair, &mut out);
        assert_eq!(out.len(), 3, "{out:?}");
    }
}
