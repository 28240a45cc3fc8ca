//! The tree kept from one move to the next: after our move and the
//! opponent's reply, the subtree of the position reached is already
//! searched, and the next search starts from it.

use super::tree::{Tree, ROOT};
use crate::core::game::{Game, MoveCode};
use crate::core::knowledge::Knowledge;

/// A finished search's tree and the position at its root.
pub struct KeptTree<G> {
    pub(super) root: G,
    pub(super) tree: Tree,
}

/// What Monte Carlo search keeps between moves of a game: the memory its
/// tree may take and the last tree. Cleared by `ucinewgame`.
pub struct MonteCarloTables<G> {
    pub(super) megabytes: usize,
    pub(super) kept: Option<KeptTree<G>>,
}

impl<G> MonteCarloTables<G> {
    /// Tables whose trees take at most `megabytes` (the `Hash` option).
    pub fn new(megabytes: usize) -> Self {
        MonteCarloTables {
            megabytes,
            kept: None,
        }
    }

    pub fn clear(&mut self) {
        self.kept = None;
    }
}

/// Plies from the kept root to the new one that reuse looks through: our
/// move and the reply.
const REUSE_PLIES: usize = 2;

/// The subtree of `kept` whose root is `position`, if `position` is one
/// or two plies below the kept root, copied into a tree of `capacity`.
pub(super) fn subtree<G: Game, K: Knowledge<G>>(
    kept: KeptTree<G>,
    position: &G,
    knowledge: &K,
    capacity: usize,
) -> Option<Tree> {
    let target = knowledge.exact_key(position);
    let mut root = kept.root;
    let node = find(&kept.tree, ROOT, &mut root, target, knowledge, REUSE_PLIES)?;
    Some(copy_subtree(&kept.tree, node, capacity))
}

/// The node below `id` (where `game` stands) whose position has the
/// exact key `target`, at most `plies` below.
pub(super) fn find<G: Game, K: Knowledge<G>>(
    tree: &Tree,
    id: u32,
    game: &mut G,
    target: u64,
    knowledge: &K,
    plies: usize,
) -> Option<u32> {
    if knowledge.exact_key(game) == target {
        return Some(id);
    }
    if plies == 0 {
        return None;
    }
    for child in tree.children(id) {
        let mv = G::Move::from_code(tree.node(child).code);
        game.make_move(mv);
        let found = find(tree, child, game, target, knowledge, plies - 1);
        game.unmake_move(mv);
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A new tree holding `from`'s subtree under `root`, children kept
/// together as the arena needs them, as far as `capacity` allows.
fn copy_subtree(from: &Tree, root: u32, capacity: usize) -> Tree {
    let mut tree = Tree::new(capacity);
    *tree.node_mut(ROOT) = *from.node(root);
    // Pairs (new node, old node) whose children are still to copy.
    let mut pending = vec![(ROOT, root)];
    while let Some((new_id, old_id)) = pending.pop() {
        let old = from.node(old_id);
        if !old.expanded || !tree.has_room(old.child_count as usize) {
            let node = tree.node_mut(new_id);
            node.expanded = false;
            node.looked = false;
            node.child_count = 0;
            continue;
        }
        let first = tree.nodes.len() as u32;
        for old_child in from.children(old_id) {
            tree.nodes.push(*from.node(old_child));
            pending.push((first + old_child - old.first_child, old_child));
        }
        let node = tree.node_mut(new_id);
        node.first_child = first;
    }
    tree
}
