//! What a finished search's tree says of a position in it, for a front-end
//! to show (HexGui's candidate moves and principal variation): the
//! statistics as the tree holds them, with no game knowledge and no
//! protocol; the front-end formats them.

use super::node_score;
use super::reuse::{self, KeptTree, MonteCarloTables};
use super::tree::{Node, Proof, Tree};
use crate::core::game::{Game, MoveCode, Score};
use crate::core::knowledge::Knowledge;

/// Plies below the last search's root where a report is still found:
/// the root itself, after our move, and after the reply (where the next
/// search would start from the same subtree).
const REPORT_PLIES: usize = 2;

/// One move of the reported position, as the tree holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateReport<M> {
    pub mv: M,
    /// Simulations through the move.
    pub visits: u64,
    /// The share of those simulations the player making the move won
    /// (0.5 before any).
    pub value: f64,
    /// A proven result for that player: plies to a win (> 0) or a loss
    /// (< 0), counted from the reported position, 0 a draw.
    pub proven: Option<i32>,
    /// The move's value as the search's score (`SearchInfo::score`).
    pub score: Score,
}

/// The reported position's node: its simulations, its moves (those the
/// knowledge left out are not listed) best first, and the line the search
/// would follow from it, whose first move is the first candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeReport<M> {
    pub visits: u64,
    pub candidates: Vec<CandidateReport<M>>,
    pub principal_variation: Vec<M>,
}

/// The last search's statistics at `position`, if the kept tree holds it
/// (at most `REPORT_PLIES` below its root) and it has been expanded.
pub fn tree_report<G: Game, K: Knowledge<G>>(
    tables: &MonteCarloTables<G>,
    position: &G,
    knowledge: &K,
) -> Option<TreeReport<G::Move>> {
    let KeptTree { root, tree } = tables.kept.as_ref()?;
    let target = knowledge.exact_key(position);
    let mut walker = root.clone();
    let id = reuse::find(
        tree,
        super::tree::ROOT,
        &mut walker,
        target,
        knowledge,
        REPORT_PLIES,
    )?;
    let node = tree.node(id);
    if !node.expanded {
        return None;
    }
    let ranked: Vec<u32> = tree
        .ranked_children(id)
        .into_iter()
        .filter(|&child| tree.node(child).proof != Proof::Pruned)
        .collect();
    let candidates = ranked
        .iter()
        .map(|&child| candidate(tree.node(child)))
        .collect();
    let principal_variation = match ranked.first() {
        Some(&first) => line_from(tree, first),
        None => Vec::new(),
    };
    Some(TreeReport {
        visits: u64::from(node.visits),
        candidates,
        principal_variation,
    })
}

fn candidate<M: MoveCode>(node: &Node) -> CandidateReport<M> {
    // A child's plies count from the child: one more from its parent.
    let proven = match node.proof {
        Proof::Win(plies) => Some(i32::from(plies) + 1),
        Proof::Loss(plies) => Some(-(i32::from(plies) + 1)),
        Proof::Draw => Some(0),
        // Pruned moves are left out of the report before this.
        Proof::Pruned | Proof::Open => None,
    };
    CandidateReport {
        mv: M::from_code(node.code),
        visits: u64::from(node.visits),
        value: f64::from(node.mean()),
        proven,
        score: node_score(node),
    }
}

/// `first`, then the most simulated moves on down as long as they have
/// been simulated: the line the search's result reports.
pub(super) fn line_from<M: MoveCode>(tree: &Tree, first: u32) -> Vec<M> {
    let mut line = vec![M::from_code(tree.node(first).code)];
    let mut id = first;
    while let Some(child) = tree.best_child(id) {
        if tree.node(child).visits == 0 {
            break;
        }
        line.push(M::from_code(tree.node(child).code));
        id = child;
    }
    line
}
