//! The Monte Carlo tree: nodes in one arena, chosen by UCT with RAVE, their
//! statistics and the results they prove.
//!
//! A node's statistics and proof are seen from the player who moved into
//! it, so a parent picks among its children by their own values.

use crate::core::game::Player;

use super::playout::PlayoutRecord;

/// What is proven about a node, for the player who moved into it, with the
/// plies to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    Open,
    Win(u16),
    Loss(u16),
    Draw,
    /// Lost, by the knowledge's closer look, in a number of plies it does
    /// not say: never searched, and counted as the shortest loss.
    Pruned,
}

#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The move into this node (`MoveCode`), and its `move_index`.
    pub code: u32,
    pub index: u32,
    pub first_child: u32,
    pub child_count: u32,
    pub expanded: bool,
    /// The knowledge has had its closer look (`MonteCarloKnowledge::closer_look`).
    pub looked: bool,
    pub proof: Proof,
    pub visits: u32,
    pub wins: f32,
    pub rave_visits: f32,
    pub rave_wins: f32,
    /// The knowledge's policy for the move into this node (0: none).
    pub policy: f32,
}

impl Node {
    pub fn new(code: u32, index: u32) -> Node {
        Node {
            code,
            index,
            first_child: 0,
            child_count: 0,
            expanded: false,
            looked: false,
            proof: Proof::Open,
            visits: 0,
            wins: 0.0,
            rave_visits: 0.0,
            rave_wins: 0.0,
            policy: 0.0,
        }
    }

    /// The share of simulations its mover won, 0.5 before any.
    pub fn mean(&self) -> f32 {
        match self.visits {
            0 => 0.5,
            n => self.wins / n as f32,
        }
    }
}

/// A child as the knowledge first sees it: its move (`MoveCode`) and
/// `move_index`, its prior (simulations and wins counted into its RAVE
/// statistics) and its policy.
#[derive(Clone, Copy, Debug)]
pub struct NewChild {
    pub code: u32,
    pub index: u32,
    pub prior_visits: f32,
    pub prior_wins: f32,
    pub policy: f32,
}

/// The constants of the selection rule, from the search's parameters.
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    /// UCT's exploration constant.
    pub exploration: f32,
    /// RAVE's bias: how soon a move's own mean outweighs its AMAF mean.
    pub rave_bias: f32,
    /// The value of a child with no statistics at all.
    pub first_play: f32,
    /// The weight of the knowledge's policy, which fades as the square
    /// root of a child's visits (MoHex 2.0's progressive bias).
    pub progressive_bias: f32,
}

pub struct Tree {
    pub nodes: Vec<Node>,
    /// The most nodes the arena may hold (the memory the options allow).
    capacity: usize,
}

pub const ROOT: u32 = 0;

impl Tree {
    pub fn new(capacity: usize) -> Tree {
        let mut nodes = Vec::with_capacity(capacity.min(1 << 20));
        nodes.push(Node::new(0, 0));
        Tree {
            nodes,
            capacity: capacity.max(2),
        }
    }

    /// A tree of these nodes, with room for no more.
    #[cfg(test)]
    pub fn from_nodes(nodes: Vec<Node>) -> Tree {
        let capacity = nodes.len();
        Tree { nodes, capacity }
    }

    pub fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn node_mut(&mut self, id: u32) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    pub fn children(&self, id: u32) -> std::ops::Range<u32> {
        let node = self.node(id);
        node.first_child..node.first_child + node.child_count
    }

    /// How full the arena is, in thousandths (UCI's `hashfull`).
    pub fn fill_permille(&self) -> u32 {
        (self.nodes.len() * 1_000 / self.capacity) as u32
    }

    /// True when `count` more nodes fit.
    pub fn has_room(&self, count: usize) -> bool {
        self.nodes.len() + count <= self.capacity
    }

    /// Gives `id` its children.
    pub fn expand(&mut self, id: u32, children: impl Iterator<Item = NewChild>) {
        let first = self.nodes.len() as u32;
        for new in children {
            let mut child = Node::new(new.code, new.index);
            child.rave_visits = new.prior_visits;
            child.rave_wins = new.prior_wins;
            child.policy = new.policy;
            self.nodes.push(child);
        }
        let count = self.nodes.len() as u32 - first;
        let node = self.node_mut(id);
        node.first_child = first;
        node.child_count = count;
        node.expanded = true;
    }

    /// The children of `id` not left out by the knowledge.
    pub fn open_children(&self, id: u32) -> usize {
        self.children(id)
            .filter(|&child| self.node(child).proof != Proof::Pruned)
            .count()
    }

    /// The child of an expanded, open node to follow next.
    pub fn select(&self, id: u32, rule: &Selection) -> Option<u32> {
        // Both terms that fade with a child's visits share one square root.
        let root_log_parent = (self.node(id).visits.max(1) as f32).ln().sqrt();
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        for child in self.children(id) {
            let node = self.node(child);
            let value = match node.proof {
                Proof::Loss(_) | Proof::Pruned => continue,
                Proof::Win(_) => f32::INFINITY,
                Proof::Draw => 0.5,
                Proof::Open => urgency(node, root_log_parent, rule),
            };
            if value > best_value {
                best_value = value;
                best = Some(child);
            }
        }
        best
    }

    /// Settles `id` from its children's proofs when they decide it: one
    /// child the mover wins with, or every child settled.
    pub fn settle_from_children(&mut self, id: u32) {
        let mut longest_loss = 0;
        let mut shortest_win = None;
        let mut any_draw = false;
        let mut any_open = false;
        for child in self.children(id) {
            match self.node(child).proof {
                Proof::Open => any_open = true,
                Proof::Win(plies) => {
                    shortest_win = Some(shortest_win.map_or(plies, |p: u16| p.min(plies)))
                }
                Proof::Loss(plies) => longest_loss = longest_loss.max(plies),
                Proof::Pruned => {}
                Proof::Draw => any_draw = true,
            }
        }
        let node = self.node_mut(id);
        if node.child_count == 0 || (any_open && shortest_win.is_none()) {
            return;
        }
        // The children's proofs are their mover's, who is this node's
        // opponent of the player who moved into it.
        node.proof = match shortest_win {
            Some(plies) => Proof::Loss(plies.saturating_add(1)),
            None if any_draw => Proof::Draw,
            None => Proof::Win(longest_loss.saturating_add(1)),
        };
    }

    /// Counts one simulation that `winner` won (`None` a draw) along
    /// `path`, with the player to move at each of its nodes, and the AMAF
    /// statistics of every child of the path's nodes that `record` says
    /// its mover played later in the simulation.
    pub fn back_up(
        &mut self,
        path: &[u32],
        to_move: &[Player],
        winner: Option<Player>,
        record: &mut PlayoutRecord,
    ) {
        let score = |player: Player| match winner {
            Some(w) if w == player => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        for depth in (0..path.len()).rev() {
            let id = path[depth];
            let mover = to_move[depth];
            if depth + 1 < path.len() {
                let index = self.node(path[depth + 1]).index as usize;
                record.note_earlier(index, mover);
            }
            let into = match depth {
                0 => mover.other(),
                _ => to_move[depth - 1],
            };
            let node = self.node_mut(id);
            node.visits += 1;
            node.wins += score(into);
            if !node.expanded {
                continue;
            }
            let result = score(mover);
            for child in self.children(id) {
                let node = &mut self.nodes[child as usize];
                if record.played_by(node.index as usize, mover) {
                    node.rave_visits += 1.0;
                    node.rave_wins += result;
                }
            }
        }
    }

    /// The child to play: a proven win (the shortest), else the most
    /// simulated move not proven lost, else the longest loss.
    pub fn best_child(&self, id: u32) -> Option<u32> {
        self.children(id)
            .max_by(|&a, &b| compare_ranks(rank(self.node(a)), rank(self.node(b))))
    }

    /// The children of `id`, the one to play first.
    pub fn ranked_children(&self, id: u32) -> Vec<u32> {
        let mut children: Vec<u32> = self.children(id).collect();
        children.sort_by(|&a, &b| compare_ranks(rank(self.node(b)), rank(self.node(a))));
        children
    }
}

/// How much a parent's mover wants a child: proven wins first (the
/// shortest), then open moves by simulations and mean, then losses (the
/// longest).
fn rank(node: &Node) -> (i32, i64, f32) {
    match node.proof {
        Proof::Win(plies) => (3, -(plies as i64), 0.0),
        Proof::Loss(plies) => (0, plies as i64, 0.0),
        Proof::Pruned => (0, -1, 0.0),
        Proof::Draw | Proof::Open => (1, node.visits as i64, node.mean()),
    }
}

fn compare_ranks(a: (i32, i64, f32), b: (i32, i64, f32)) -> std::cmp::Ordering {
    a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.total_cmp(&b.2))
}

/// UCT with RAVE: the child's mean blended with its AMAF mean, weighted by
/// how many simulations back each (Gelly and Silver's schedule), plus the
/// exploration term and the policy's fading bias.
fn urgency(node: &Node, root_log_parent: f32, rule: &Selection) -> f32 {
    let visits = node.visits as f32;
    let rave = node.rave_visits;
    let value = if node.visits == 0 && rave <= 0.0 {
        rule.first_play
    } else if rave <= 0.0 {
        node.wins / visits
    } else {
        let beta = rave / (rave + visits + rave * visits * rule.rave_bias);
        let mean = if node.visits == 0 {
            0.0
        } else {
            node.wins / visits
        };
        (1.0 - beta) * mean + beta * node.rave_wins / rave
    };
    let fading = (visits + 1.0).sqrt().recip();
    let bias = rule.progressive_bias * node.policy;
    value + (rule.exploration * root_log_parent + bias) * fading
}
