//! One player's board as an electrical circuit, and its effective
//! resistance between the player's two edges.
//!
//! Every cell is a resistor: 1 when empty, 0 when it holds the player's
//! stone, and an opponent's stone is an open circuit. Two adjacent cells
//! are joined by a conductor of resistance r(a) + r(b); a cell on one of the
//! player's edges is joined to that edge with resistance r(cell). Stones of
//! one group are at one potential, so a group is a single node, and a group
//! touching an edge is part of that edge. Bridges between two of the
//! player's groups (and between a group and its edge) may add one more
//! conductor each: a virtual connection conducts as if it were nearly
//! solid, which the cell-by-cell circuit alone understates.
//!
//! The source edge is held at potential 1 and the sink at 0; the potentials
//! of the other nodes solve the circuit's Laplacian system (Kirchhoff's
//! current law at every node), which is symmetric positive definite once
//! the two edges are fixed, so conjugate gradients with a diagonal
//! preconditioner solve it in a few dozen steps. The resistance is one
//! over the current that leaves the source.

use super::super::board::{goal_edges, Hex, BLACK, EMPTY};
use super::super::geometry::{Geometry, DIRECTIONS, NO_CELL};
use super::super::vc::templates::seed_edge_templates;
use crate::core::Player;

/// The resistance of a circuit with no path at all between the edges, and
/// the cap on any other: large enough to mean "cut", small enough that its
/// logarithm stays a number.
pub const OPEN_CIRCUIT: f64 = 1.0e4;

/// The residual, relative to the right-hand side, at which the solution is
/// good enough for the evaluation: it uses the logarithm of the
/// resistance, which this leaves correct to about a hundredth.
pub const EVAL_TOLERANCE: f64 = 1.0e-3;

/// Conjugate gradients converge in at most as many steps as there are
/// unknowns in exact arithmetic; this bounds the rounding's extra.
const MAX_ITERATIONS: usize = 400;

/// Where a cell sits in the circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    /// An opponent's stone: no conductor touches it.
    Cut,
    /// Part of the source edge (a stone of a group touching it).
    Source,
    /// Part of the sink edge.
    Sink,
    /// An unknown potential, by index.
    Free(u32),
}

/// The circuit of one player and the scratch to solve it, kept between
/// calls so that solving allocates nothing once warmed up.
#[derive(Clone, Debug)]
pub struct Network {
    node_of_cell: Vec<Node>,
    /// For a group's representative cell, the group's free node.
    group_node: Vec<u32>,
    /// Conductors between two free nodes.
    links: Vec<(u32, u32, f64)>,
    /// Conductors from a free node to the source (the current is read
    /// from these).
    source_links: Vec<(u32, f64)>,
    /// Current flowing straight from source to sink through conductors
    /// that touch no free node.
    direct_current: f64,
    /// The Laplacian's diagonal, the right-hand side, and the solver's
    /// vectors.
    diagonal: Vec<f64>,
    rhs: Vec<f64>,
    potential: Vec<f64>,
    residual: Vec<f64>,
    direction: Vec<f64>,
    product: Vec<f64>,
    preconditioned: Vec<f64>,
    /// Union-find over the free nodes and, after them, the source and the
    /// sink: whether any path joins the edges at all.
    component: Vec<u32>,
    /// Each cell's potential in the last solve, the start of the next one
    /// when `warm_start` is on: the search evaluates positions a stone or
    /// two apart, whose potentials differ little.
    cell_potential: Vec<f64>,
    pub warm_start: bool,
    /// The residual, relative to the right-hand side, at which a solve
    /// stops.
    pub tolerance: f64,
    /// Conjugate-gradient steps of the last solve.
    pub iterations: usize,
}

const NO_NODE: u32 = u32::MAX;

impl Network {
    /// An empty circuit that solves to `tolerance`, warm started or not.
    pub fn new(tolerance: f64, warm_start: bool) -> Network {
        Network {
            node_of_cell: Vec::new(),
            group_node: Vec::new(),
            links: Vec::new(),
            source_links: Vec::new(),
            direct_current: 0.0,
            diagonal: Vec::new(),
            rhs: Vec::new(),
            potential: Vec::new(),
            residual: Vec::new(),
            direction: Vec::new(),
            product: Vec::new(),
            preconditioned: Vec::new(),
            component: Vec::new(),
            cell_potential: Vec::new(),
            warm_start,
            tolerance,
            iterations: 0,
        }
    }
}

/// Resistance of a conductor between two cells (or a cell and an edge):
/// the sum of the cells' own resistances, 0 for a stone and 1 when empty.
fn cell_resistance(stone: u8) -> f64 {
    if stone == EMPTY {
        1.0
    } else {
        0.0
    }
}

impl Network {
    /// The effective resistance between the two edges of the owner of
    /// `stone` (`BLACK` or `WHITE`) on `hex`; `bridge_conductance` is added
    /// for every bridge of that player (0 for none). 0 when the player has
    /// already joined the edges, `OPEN_CIRCUIT` at most.
    pub fn resistance(&mut self, hex: &Hex, stone: u8, bridge_conductance: f64) -> f64 {
        let goal = goal_edges(stone);
        let (source_edge, sink_edge) = (goal & goal.wrapping_neg(), goal & (goal - 1));
        if self.assign_nodes(hex, stone, source_edge, sink_edge) {
            return 0.0;
        }
        self.link_neighbours(hex, source_edge, sink_edge);
        if bridge_conductance > 0.0 {
            self.link_bridges(hex, stone, bridge_conductance);
        }
        let free = self.rhs.len() as u32;
        if self.root(free) != self.root(free + 1) {
            return OPEN_CIRCUIT;
        }
        self.solve();
        self.remember_potentials();
        let current = self.direct_current
            + self
                .source_links
                .iter()
                .map(|&(node, g)| g * (1.0 - self.potential[node as usize]))
                .sum::<f64>();
        if current * OPEN_CIRCUIT <= 1.0 {
            OPEN_CIRCUIT
        } else {
            1.0 / current
        }
    }

    /// Numbers the free nodes (empty cells, then groups on first sight) and
    /// clears the circuit. Returns whether a group touches both edges.
    fn assign_nodes(&mut self, hex: &Hex, stone: u8, source_edge: u8, sink_edge: u8) -> bool {
        let cells = hex.geometry().cells();
        self.node_of_cell.clear();
        self.group_node.clear();
        self.group_node.resize(cells, NO_NODE);
        self.links.clear();
        self.source_links.clear();
        self.direct_current = 0.0;
        let mut free = 0u32;
        for cell in 0..cells {
            let here = hex.stone_at(cell);
            let node = if here == EMPTY {
                free += 1;
                Node::Free(free - 1)
            } else if here != stone {
                Node::Cut
            } else {
                let edges = hex.edges_of_group(cell);
                let (on_source, on_sink) = (edges & source_edge != 0, edges & sink_edge != 0);
                match (on_source, on_sink) {
                    (true, true) => return true,
                    (true, false) => Node::Source,
                    (false, true) => Node::Sink,
                    (false, false) => {
                        let root = hex.find(cell);
                        if self.group_node[root] == NO_NODE {
                            self.group_node[root] = free;
                            free += 1;
                        }
                        Node::Free(self.group_node[root])
                    }
                }
            };
            self.node_of_cell.push(node);
        }
        self.component.clear();
        self.component.extend(0..free + 2);
        let free = free as usize;
        for vector in [&mut self.diagonal, &mut self.rhs] {
            vector.clear();
            vector.resize(free, 0.0);
        }
        false
    }

    /// The union-find index of a node that is not cut.
    fn component_index(&self, node: Node) -> u32 {
        let free = self.rhs.len() as u32;
        match node {
            Node::Free(i) => i,
            Node::Source => free,
            Node::Sink | Node::Cut => free + 1,
        }
    }

    fn root(&mut self, mut index: u32) -> u32 {
        while self.component[index as usize] != index {
            let parent = self.component[index as usize];
            self.component[index as usize] = self.component[parent as usize];
            index = parent;
        }
        index
    }

    /// Adds a conductor of conductance `g` between two nodes.
    fn connect(&mut self, a: Node, b: Node, g: f64) {
        if a == Node::Cut || b == Node::Cut {
            return;
        }
        let (ra, rb) = (
            self.root(self.component_index(a)),
            self.root(self.component_index(b)),
        );
        self.component[ra as usize] = rb;
        match (a, b) {
            (Node::Free(i), Node::Free(j)) if i != j => {
                self.links.push((i, j, g));
                self.diagonal[i as usize] += g;
                self.diagonal[j as usize] += g;
            }
            (Node::Free(i), Node::Source) | (Node::Source, Node::Free(i)) => {
                self.diagonal[i as usize] += g;
                self.rhs[i as usize] += g;
                self.source_links.push((i, g));
            }
            (Node::Free(i), Node::Sink) | (Node::Sink, Node::Free(i)) => {
                self.diagonal[i as usize] += g;
            }
            (Node::Source, Node::Sink) | (Node::Sink, Node::Source) => self.direct_current += g,
            _ => {}
        }
    }

    /// The conductors between adjacent cells and from edge cells to the
    /// edges.
    fn link_neighbours(&mut self, hex: &Hex, source_edge: u8, sink_edge: u8) {
        let geo = hex.geometry();
        for cell in 0..geo.cells() {
            let node = self.node_of_cell[cell];
            if node == Node::Cut {
                continue;
            }
            let r = cell_resistance(hex.stone_at(cell));
            for &neighbour in geo.ring[cell].iter() {
                // Each pair once, from its lower cell.
                if neighbour == NO_CELL || (neighbour as usize) < cell {
                    continue;
                }
                let n = neighbour as usize;
                let other = self.node_of_cell[n];
                let total = r + cell_resistance(hex.stone_at(n));
                if other != Node::Cut && total > 0.0 {
                    self.connect(node, other, 1.0 / total);
                }
            }
            if hex.stone_at(cell) == EMPTY {
                if geo.edges[cell] & source_edge != 0 {
                    self.connect(node, Node::Source, 1.0 / r);
                }
                if geo.edges[cell] & sink_edge != 0 {
                    self.connect(node, Node::Sink, 1.0 / r);
                }
            }
        }
    }

    /// One extra conductor per virtual connection of the player: a bridge
    /// (two stones of different groups with two empty common neighbours),
    /// and an edge template (rows 2 to 4) from a stone to one of its edges.
    fn link_bridges(&mut self, hex: &Hex, stone: u8, g: f64) {
        let geo = hex.geometry();
        for cell in 0..geo.cells() {
            if hex.stone_at(cell) != stone {
                continue;
            }
            let node = self.node_of_cell[cell];
            for slot in 0..6 {
                let (first, second) = (geo.ring[cell][slot], geo.ring[cell][(slot + 1) % 6]);
                if first == NO_CELL || second == NO_CELL {
                    continue;
                }
                if hex.stone_at(first as usize) != EMPTY || hex.stone_at(second as usize) != EMPTY {
                    continue;
                }
                let Some(far) = bridge_cell(geo, cell, slot) else {
                    continue;
                };
                if far > cell && hex.stone_at(far) == stone {
                    self.connect(node, self.node_of_cell[far], g);
                }
            }
        }
        let player = if stone == BLACK {
            Player::P1
        } else {
            Player::P2
        };
        // A stone may hold several templates to one edge: one conductor.
        let mut linked = [usize::MAX; 2];
        seed_edge_templates(hex, player, |cell, edge, _carrier| {
            if hex.stone_at(cell) != stone || linked[edge] == cell {
                return;
            }
            linked[edge] = cell;
            let edge_node = if edge == 0 { Node::Source } else { Node::Sink };
            self.connect(self.node_of_cell[cell], edge_node, g);
        });
    }

    /// The potential of every cell after a solve (the edges' own cells at
    /// 1 and 0, cut cells at one half).
    fn remember_potentials(&mut self) {
        self.cell_potential.clear();
        for node in &self.node_of_cell {
            self.cell_potential.push(match node {
                Node::Free(i) => self.potential[*i as usize],
                Node::Source => 1.0,
                Node::Sink => 0.0,
                Node::Cut => 0.5,
            });
        }
    }

    /// The first guess: the last solve's potentials where the board size is
    /// the same and `warm_start` is on, otherwise all 0. Nodes cut off from
    /// both edges then have a zero right-hand side and stay at 0: the
    /// Krylov space never reaches their singular block. A warm guess there
    /// leaves a residual in the block's range, which converges too.
    fn initial_guess(&mut self) {
        let warm = self.warm_start && self.cell_potential.len() == self.node_of_cell.len();
        if !warm {
            return;
        }
        for (cell, node) in self.node_of_cell.iter().enumerate() {
            if let Node::Free(i) = *node {
                self.potential[i as usize] = self.cell_potential[cell];
            }
        }
    }

    /// Conjugate gradients with the Laplacian's diagonal as preconditioner,
    /// from `initial_guess`.
    fn solve(&mut self) {
        let n = self.rhs.len();
        for vector in [
            &mut self.potential,
            &mut self.residual,
            &mut self.direction,
            &mut self.product,
            &mut self.preconditioned,
        ] {
            vector.clear();
            vector.resize(n, 0.0);
        }
        self.initial_guess();
        self.direction.copy_from_slice(&self.potential);
        self.multiply_direction();
        for ((r, &b), &ap) in self.residual.iter_mut().zip(&self.rhs).zip(&self.product) {
            *r = b - ap;
        }
        let goal = self.tolerance * self.tolerance * dot(&self.rhs, &self.rhs);
        self.precondition();
        self.direction.copy_from_slice(&self.preconditioned);
        let mut rho = dot(&self.residual, &self.preconditioned);
        self.iterations = 0;
        while self.iterations < MAX_ITERATIONS && dot(&self.residual, &self.residual) > goal {
            self.iterations += 1;
            self.multiply_direction();
            let curvature = dot(&self.direction, &self.product);
            if curvature <= 0.0 {
                break;
            }
            let step = rho / curvature;
            for i in 0..n {
                self.potential[i] += step * self.direction[i];
                self.residual[i] -= step * self.product[i];
            }
            self.precondition();
            let next_rho = dot(&self.residual, &self.preconditioned);
            let beta = next_rho / rho;
            rho = next_rho;
            for i in 0..n {
                self.direction[i] = self.preconditioned[i] + beta * self.direction[i];
            }
        }
    }

    fn precondition(&mut self) {
        for ((z, &r), &d) in self
            .preconditioned
            .iter_mut()
            .zip(&self.residual)
            .zip(&self.diagonal)
        {
            // A node without any conductor has a zero residual anyway.
            *z = if d > 0.0 { r / d } else { 0.0 };
        }
    }

    /// `product` = Laplacian times `direction`.
    fn multiply_direction(&mut self) {
        for ((out, &d), &p) in self
            .product
            .iter_mut()
            .zip(&self.diagonal)
            .zip(&self.direction)
        {
            *out = d * p;
        }
        for &(i, j, g) in &self.links {
            let (i, j) = (i as usize, j as usize);
            self.product[i] -= g * self.direction[j];
            self.product[j] -= g * self.direction[i];
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The cell across the bridge whose carrier is the neighbours of `cell` in
/// ring slots `slot` and `slot + 1`: their two directions added.
fn bridge_cell(geo: &Geometry, cell: usize, slot: usize) -> Option<usize> {
    let (a, b) = (DIRECTIONS[slot], DIRECTIONS[(slot + 1) % 6]);
    let (col, row) = geo.col_row(cell);
    let (c, r) = (col as i32 + a.0 + b.0, row as i32 + a.1 + b.1);
    let size = geo.size as i32;
    if (0..size).contains(&c) && (0..size).contains(&r) {
        Some(geo.cell(c as usize, r as usize))
    } else {
        None
    }
}
