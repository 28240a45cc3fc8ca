//! Depth-first proof-number search (df-pn; Nagai, 2002) with the 1+ε
//! trick (Pawlewicz and Lew, 2007): proves or disproves that one player,
//! the attacker, can force a win, within a number of plies or without limit.
//!
//! Where alpha-beta must search every move to the depth of the longest
//! defence, proof numbers steer the search towards the moves that are
//! cheapest to prove or refute: a node's proof number is the least number of
//! leaves still to prove for the attacker to win there, its disproof number
//! the least number to refute it. The depth-first form re-enters a subtree
//! while both numbers stay under thresholds set by its parent and keeps what
//! it learned in a table (`table.rs`).
//!
//! The game's knowledge settles what it can prove without search
//! (`forced_result`) and keeps out moves it can prove are never better
//! (`search_moves`), exactly as in the alpha-beta search; what only a proof
//! asks of it is `ProofKnowledge` (`knowledge.rs`). The search assumes
//! no position repeats along a line, which holds in every game of the
//! project (each move adds a stone, advances a piece or removes a cell).

mod knowledge;
mod proof_cells;
mod table;

use std::marker::PhantomData;

pub use knowledge::ProofKnowledge;
pub use proof_cells::ProofCells;
use table::Entry;
pub use table::ProofTable;

use super::game::{Game, MoveCode, Outcome, Player};
use super::knowledge::Deadline;

/// Proof and disproof numbers at this value are infinite (the node is
/// disproven, or proven); sums stop just below it.
const INFINITE: u32 = u32::MAX / 2;
/// The "within plies" of a search without a limit, and the bound of a
/// disproof that holds at any depth.
pub const UNLIMITED: u32 = u32::MAX;
/// The longest line read back from the table (a guard against a key
/// collision leading it in circles).
const MAX_LINE: usize = 1000;
/// Nodes between two progress reports (a few seconds' work).
pub const PROGRESS_INTERVAL: u64 = 1 << 23;
/// A new leaf's numbers range from 1 to 1 + this weight by the chance of
/// winning its evaluation gives, a logistic of the score over the scale
/// (Winands and Schadd's evaluation-based proof numbers, 2011). On
/// Breakthrough's 5x5 start this halved the nodes and saved a fifth of the
/// time against numbers of 1 and 1 (121 against 237 million nodes).
const FIRST_NUMBERS_WEIGHT: f64 = 30.0;
const FIRST_NUMBERS_SCALE: f64 = 100.0;
/// Tells the defender's positions from the attacker's in the table.
const DEFENDER_KEY: u64 = 0x9e37_79b9_7f4a_7c15;
/// The best move of an entry the knowledge settled without moves.
pub(super) const NO_MOVE_CODE: u32 = u32::MAX;
/// Nodes between two looks at the deadline. A node may cost a
/// millisecond (a Hex node runs H-search), and a root solver may have only
/// tens of them; the clock costs some nanoseconds. (At 16, a Hex root
/// solver with a 2.5 ms share once took 21 ms.)
const DEADLINE_CHECK_INTERVAL: u64 = 4;

/// A node's proof and disproof numbers for the attacker. A proven node
/// (`pn` 0) keeps in `bound` the plies of the win it found; a disproven one
/// (`dn` 0) the plies within which the attacker surely cannot win
/// (`UNLIMITED` when it cannot win at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    pn: u32,
    dn: u32,
    bound: u32,
}

impl Numbers {
    /// The thresholds of the root: search until it is settled.
    const UNBOUNDED: Numbers = Numbers {
        pn: INFINITE,
        dn: INFINITE,
        bound: 0,
    };

    fn proven(plies: u32) -> Numbers {
        Numbers {
            pn: 0,
            dn: INFINITE,
            bound: plies,
        }
    }

    fn disproven(within: u32) -> Numbers {
        Numbers {
            pn: INFINITE,
            dn: 0,
            bound: within,
        }
    }

    fn is_settled(self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// Whether these numbers answer the question at `remaining` plies: a win
    /// longer than that proves nothing there, nor a disproof shorter.
    fn holds_within(self, remaining: u32) -> bool {
        match (self.pn, self.dn) {
            (0, _) => self.bound <= remaining,
            (_, 0) => self.bound >= remaining,
            _ => true,
        }
    }
}

/// What the search concluded about the attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker wins, in `plies` at most.
    Proven { plies: u32 },
    /// The attacker cannot win within the plies asked (a draw or a loss).
    Disproven,
    /// The search stopped before it knew.
    Open,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofResult<M> {
    pub verdict: Verdict,
    /// The root move the proof (or refutation) rests on, or the most
    /// promising one while the question is open.
    pub best_move: Option<M>,
    /// The line the table holds from the root: the attacker's wins and the
    /// defender's longest resistance found, or the defender's refutations.
    pub line: Vec<M>,
    pub nodes: u64,
    /// Moves settled as lost by a refuted sibling's proof set.
    pub set_pruned: u64,
}

/// The limits of one proof search.
#[derive(Clone, Debug)]
pub struct ProofLimits {
    /// Whose win is to be proven.
    pub attacker: Player,
    /// The plies the win may take, or `UNLIMITED`.
    pub within_plies: u32,
    pub max_nodes: Option<u64>,
    pub deadline: Deadline,
}

/// Proves or disproves the attacker's win from `position` (left as it was
/// found). The table may be kept between searches for the same attacker.
/// `progress` is told the nodes searched every `PROGRESS_INTERVAL` nodes.
pub fn prove<G: Game, K: ProofKnowledge<G>>(
    position: &mut G,
    limits: &ProofLimits,
    table: &mut ProofTable,
    knowledge: &mut K,
    progress: &mut dyn FnMut(u64),
) -> ProofResult<G::Move> {
    knowledge.prepare_proof(position, &limits.deadline, limits.within_plies);
    let mut search = ProofSearch {
        table,
        knowledge,
        limits,
        progress,
        nodes: 0,
        set_pruned: 0,
        stopped: false,
        expanding_root: true,
        // A disproof within a number of plies is no win of the defender.
        proof_cells: limits.within_plies == UNLIMITED,
        game: PhantomData,
    };
    // The root is searched even where the knowledge could settle it, so that
    // the result names a move.
    let finished = position.outcome().is_some() || limits.within_plies == 0;
    let root = if finished {
        // `settle` decides every finished root.
        search
            .settle(position, limits.within_plies)
            .unwrap_or(Numbers::disproven(0))
    } else {
        search.expand_and_search(position, limits.within_plies, Numbers::UNBOUNDED)
    };
    let verdict = match (root.pn, root.dn) {
        (0, _) => Verdict::Proven { plies: root.bound },
        (_, 0) => Verdict::Disproven,
        _ => Verdict::Open,
    };
    let line = search.line(position);
    ProofResult {
        verdict,
        best_move: line.first().copied(),
        line,
        nodes: search.nodes,
        set_pruned: search.set_pruned,
    }
}

/// A child of the node being searched: its move and the move's index,
/// its keys, and its numbers (`settled` when the knowledge or the rules
/// decided it without search, or `pruned` as lost by a sibling's proof
/// set).
struct Child<M> {
    mv: M,
    index: usize,
    key: u64,
    exact_key: u64,
    numbers: Numbers,
    settled: bool,
    pruned: bool,
}

struct ProofSearch<'a, G, K> {
    table: &'a mut ProofTable,
    knowledge: &'a mut K,
    limits: &'a ProofLimits,
    progress: &'a mut dyn FnMut(u64),
    nodes: u64,
    set_pruned: u64,
    stopped: bool,
    /// True until the root's expansion began.
    expanding_root: bool,
    /// Whether proof sets are kept and prune (`proof_cells.rs`).
    proof_cells: bool,
    game: PhantomData<fn(&G)>,
}

impl<G: Game, K: ProofKnowledge<G>> ProofSearch<'_, G, K> {
    /// The numbers of a position decided without search: by the rules, by
    /// the knowledge's `forced_result`, or by having no plies left.
    fn settle(&mut self, position: &mut G, remaining: u32) -> Option<Numbers> {
        let attacker = self.limits.attacker;
        match position.outcome() {
            Some(Outcome::Win(winner)) if winner == attacker => return Some(Numbers::proven(0)),
            Some(_) => return Some(Numbers::disproven(UNLIMITED)),
            None => {}
        }
        if let Some(plies) = self.knowledge.forced_result(position) {
            if let Some(numbers) = self.numbers_of_forced(position, plies, remaining) {
                return Some(numbers);
            }
        }
        (remaining == 0).then(|| Numbers::disproven(0))
    }

    /// The numbers of a position the knowledge's costlier analysis
    /// (`expansion_result`) decides, asked once the position is to be
    /// expanded. Not at the root, whose result must name a move.
    fn settle_on_expansion(&mut self, position: &mut G, remaining: u32) -> Option<Numbers> {
        if self.expanding_root {
            self.expanding_root = false;
            return None;
        }
        let plies = self.knowledge.expansion_result(position)?;
        self.numbers_of_forced(position, plies, remaining)
    }

    /// The numbers of a result the knowledge proved, `plies` counted for
    /// the side to move as in `Knowledge::forced_result`.
    fn numbers_of_forced(&self, position: &G, plies: i32, remaining: u32) -> Option<Numbers> {
        let mover = position.side_to_move();
        let winner = match plies.signum() {
            1 => Some(mover),
            -1 => Some(mover.other()),
            _ => None,
        };
        if winner != Some(self.limits.attacker) {
            return Some(Numbers::disproven(UNLIMITED));
        }
        (plies.unsigned_abs() <= remaining).then(|| Numbers::proven(plies.unsigned_abs()))
    }

    /// The table's key of a position. A game's key may be shared by a
    /// position and its mirror image with the colours and the side to move
    /// exchanged (Hex's is), which have the same value for the side to
    /// move but not for the attacker: the defender's positions are keyed
    /// apart.
    fn key(&self, position: &G) -> u64 {
        if position.side_to_move() == self.limits.attacker {
            position.hash()
        } else {
            position.hash() ^ DEFENDER_KEY
        }
    }

    /// What the table knows of a position that answers at `remaining` plies.
    fn known(&self, key: u64, remaining: u32) -> Option<Numbers> {
        self.table
            .probe(key)
            .map(|entry| entry.numbers)
            .filter(|numbers| numbers.holds_within(remaining))
    }

    /// Searches an unsettled position until its numbers reach the
    /// thresholds `limit` (or it is settled, or the search must stop), stores
    /// them and returns them.
    fn expand_and_search(&mut self, position: &mut G, remaining: u32, limit: Numbers) -> Numbers {
        if let Some(numbers) = self.settle_on_expansion(position, remaining) {
            self.note_settled_cells(position);
            self.table.store(Entry {
                key: self.key(position),
                numbers,
                work: 1,
                best_code: NO_MOVE_CODE,
            });
            return numbers;
        }
        let mut moves = Vec::new();
        self.knowledge.search_moves(position, &mut moves);
        let narrowing = self.narrowing_cells(position);
        let attacking = position.side_to_move() == self.limits.attacker;
        if moves.is_empty() {
            // No game of the project gets here (a finished position is
            // settled); a side that cannot move has lost.
            return if attacking {
                Numbers::disproven(UNLIMITED)
            } else {
                Numbers::proven(0)
            };
        }
        let mut children = self.expand(position, &moves, remaining - 1);
        let start_nodes = self.nodes;
        loop {
            self.refresh(&mut children, remaining - 1);
            if self.proof_cells {
                self.prune_outside_refutations(&mut children, attacking);
            }
            let (numbers, chosen) = combine(&children, attacking);
            let done = numbers.is_settled()
                || numbers.pn >= limit.pn
                || numbers.dn >= limit.dn
                || self.stopped;
            if done {
                if self.proof_cells && numbers.is_settled() {
                    let cells = self.node_cells(numbers, &children, chosen, narrowing, attacking);
                    let exact_key = self.knowledge.exact_key(position);
                    self.table.cells.insert(exact_key, cells);
                }
                self.record(self.key(position), numbers, &children[chosen], start_nodes);
                return numbers;
            }
            let child_limit = child_limit(&children, chosen, numbers, limit, attacking);
            let child = &children[chosen];
            let mv = child.mv;
            position.make_move(mv);
            let found = self.expand_and_search(position, remaining - 1, child_limit);
            position.unmake_move(mv);
            children[chosen].numbers = found;
        }
    }

    /// The children of a position about to be searched, in the knowledge's
    /// order (tactical moves first break ties between equal numbers), each
    /// settled if it can be and otherwise read from the table.
    fn expand(
        &mut self,
        position: &mut G,
        moves: &[G::Move],
        remaining: u32,
    ) -> Vec<Child<G::Move>> {
        let mut ordered: Vec<(i32, G::Move)> = moves
            .iter()
            .map(|&mv| (self.knowledge.move_order_hint(position, mv), mv))
            .collect();
        ordered.sort_by_key(|&(hint, _)| std::cmp::Reverse(hint));
        let mut children = Vec::with_capacity(ordered.len());
        for (_, mv) in ordered {
            let index = self.knowledge.move_index(position, mv);
            position.make_move(mv);
            let key = self.key(position);
            let exact_key = self.knowledge.exact_key(position);
            let settled = self.settle(position, remaining);
            if settled.is_some() {
                self.note_settled_cells(position);
            }
            let numbers = settled
                .or_else(|| self.known(key, remaining))
                .unwrap_or_else(|| self.first_numbers(position));
            position.unmake_move(mv);
            self.count_node();
            children.push(Child {
                mv,
                index,
                key,
                exact_key,
                numbers,
                settled: settled.is_some(),
                pruned: false,
            });
        }
        children
    }

    /// The numbers of a leaf met for the first time, from the static
    /// evaluation: the better it stands for the attacker, the fewer leaves
    /// its proof is guessed to need and the more its disproof.
    fn first_numbers(&mut self, position: &G) -> Numbers {
        let score = f64::from(self.knowledge.evaluate(position));
        let for_attacker = if position.side_to_move() == self.limits.attacker {
            score
        } else {
            -score
        };
        let chance = 1.0 / (1.0 + (-for_attacker / FIRST_NUMBERS_SCALE).exp());
        Numbers {
            pn: 1 + (FIRST_NUMBERS_WEIGHT * (1.0 - chance)) as u32,
            dn: 1 + (FIRST_NUMBERS_WEIGHT * chance) as u32,
            bound: 0,
        }
    }

    /// Reads the children's numbers again: a transposition elsewhere in the
    /// tree may have moved them since.
    fn refresh(&self, children: &mut [Child<G::Move>], remaining: u32) {
        for child in children.iter_mut().filter(|child| !child.settled) {
            if let Some(numbers) = self.known(child.key, remaining) {
                child.numbers = numbers;
            }
        }
    }

    /// Keeps the proof set the knowledge gives for a position it (or the
    /// rules) just settled.
    fn note_settled_cells(&mut self, position: &G) {
        if !self.proof_cells {
            return;
        }
        if let Some(cells) = self.knowledge.settled_cells(position) {
            let exact_key = self.knowledge.exact_key(position);
            self.table.cells.insert(exact_key, cells);
        }
    }

    /// What justifies the moves `search_moves` left out at `position`.
    fn narrowing_cells(&mut self, position: &G) -> ProofCells {
        if !self.proof_cells {
            return ProofCells::ALL;
        }
        self.knowledge
            .narrowing_cells(position)
            .unwrap_or(ProofCells::ALL)
    }

    /// Settles as lost the mover's moves outside the proof set of every
    /// refuted move: the same strategy refutes them (`proof_cells.rs`).
    fn prune_outside_refutations(&mut self, children: &mut [Child<G::Move>], attacking: bool) {
        let mut allowed = ProofCells::ALL;
        let mut longest = 0;
        let refuted = |child: &&Child<G::Move>| !child.pruned && lost_by_mover(child, attacking);
        for child in children.iter().filter(refuted) {
            allowed = allowed.intersection(self.table.cells.get(child.exact_key));
            longest = longest.max(child.numbers.bound);
        }
        if allowed == ProofCells::ALL {
            return;
        }
        let outside = |child: &&mut Child<G::Move>| {
            !child.numbers.is_settled() && !allowed.contains(child.index)
        };
        for child in children.iter_mut().filter(outside) {
            child.numbers = if attacking {
                Numbers::disproven(UNLIMITED)
            } else {
                Numbers::proven(longest)
            };
            child.settled = true;
            child.pruned = true;
            self.set_pruned += 1;
        }
    }

    /// The proof set of a node just settled: a won node's is its winning
    /// child's and the move's cell; a lost node's joins its children's and
    /// what justified leaving moves out. A pruned child needs nothing more
    /// than the refutation's set, which its refuted sibling brings.
    fn node_cells(
        &self,
        numbers: Numbers,
        children: &[Child<G::Move>],
        chosen: usize,
        narrowing: ProofCells,
        attacking: bool,
    ) -> ProofCells {
        let mover_won = if attacking {
            numbers.pn == 0
        } else {
            numbers.dn == 0
        };
        let cells_of = |child: &Child<G::Move>| self.table.cells.get(child.exact_key);
        if mover_won {
            let winning = &children[chosen];
            return cells_of(winning).with(winning.index);
        }
        children
            .iter()
            .filter(|child| !child.pruned)
            .fold(narrowing, |cells, child| cells.union(cells_of(child)))
    }

    fn record(&mut self, key: u64, numbers: Numbers, chosen: &Child<G::Move>, start_nodes: u64) {
        self.table.store(Entry {
            key,
            numbers,
            work: u32::try_from(self.nodes - start_nodes).unwrap_or(u32::MAX),
            best_code: chosen.mv.to_code(),
        });
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(DEADLINE_CHECK_INTERVAL) {
            let out_of_nodes = self.limits.max_nodes.is_some_and(|max| self.nodes >= max);
            if out_of_nodes || self.limits.deadline.passed() {
                self.stopped = true;
            }
            if self.nodes.is_multiple_of(PROGRESS_INTERVAL) {
                (self.progress)(self.nodes);
            }
        }
    }

    /// The line the table holds from `position`, following each entry's
    /// move while the entry is settled (left as it was found).
    fn line(&self, position: &mut G) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut moves = Vec::new();
        while let Some(entry) = self.table.probe(self.key(position)) {
            if line.len() >= MAX_LINE {
                break;
            }
            if position.outcome().is_some() || (!entry.numbers.is_settled() && !line.is_empty()) {
                break;
            }
            position.generate_moves(&mut moves);
            let Some(&mv) = moves.iter().find(|mv| mv.to_code() == entry.best_code) else {
                break;
            };
            position.make_move(mv);
            line.push(mv);
        }
        for &mv in line.iter().rev() {
            position.unmake_move(mv);
        }
        line
    }
}

/// Whether the child's numbers say the mover loses by moving there: a
/// disproof is the defender's win where no draw exists (`proof_cells.rs`).
fn lost_by_mover<M>(child: &Child<M>, attacking: bool) -> bool {
    if attacking {
        child.numbers.dn == 0
    } else {
        child.numbers.pn == 0
    }
}

/// A node's numbers from its children's, and the child to search next (or,
/// once the node is settled, the child that settled it).
fn combine<M>(children: &[Child<M>], attacking: bool) -> (Numbers, usize) {
    // The mover's own number is the least of its children's; the other is
    // their sum. At the attacker's nodes the own number is the proof number.
    let own = |c: &Child<M>| {
        if attacking {
            c.numbers.pn
        } else {
            c.numbers.dn
        }
    };
    let other = |c: &Child<M>| {
        if attacking {
            c.numbers.dn
        } else {
            c.numbers.pn
        }
    };
    let chosen = (0..children.len())
        .min_by_key(|&i| own(&children[i]))
        .unwrap_or(0);
    let least = own(&children[chosen]);
    let sum = children
        .iter()
        .map(|c| u64::from(other(c)))
        .sum::<u64>()
        .min(u64::from(INFINITE - 1)) as u32;
    let bounds = children.iter().map(|c| c.numbers.bound);
    let (numbers, decisive) = if least == 0 {
        // The mover reaches its goal through `chosen`: the attacker wins in
        // one more ply; the defender refutes, one ply further out.
        let bound = children[chosen].numbers.bound.saturating_add(1);
        let numbers = if attacking {
            Numbers::proven(bound)
        } else {
            Numbers::disproven(bound)
        };
        (numbers, chosen)
    } else if sum == 0 {
        // Every move fails the mover: the attacker's win is refuted within
        // the shortest of its children's bounds; the defender's loss takes
        // its longest resistance.
        let longest = (0..children.len())
            .max_by_key(|&i| children[i].numbers.bound)
            .unwrap_or(0);
        let numbers = if attacking {
            Numbers::disproven(bounds.min().unwrap_or(0).saturating_add(1))
        } else {
            Numbers::proven(bounds.max().unwrap_or(0).saturating_add(1))
        };
        (numbers, longest)
    } else {
        let numbers = if attacking {
            Numbers {
                pn: least,
                dn: sum,
                bound: 0,
            }
        } else {
            Numbers {
                pn: sum,
                dn: least,
                bound: 0,
            }
        };
        (numbers, chosen)
    };
    (numbers, decisive)
}

/// The thresholds for searching `chosen`: the mover's own number may grow
/// to a little past the second-best child's (the 1+ε trick, ε = 1/4, which
/// spares the search from switching back and forth between two close
/// children), and the other number by what its parent's threshold leaves.
fn child_limit<M>(
    children: &[Child<M>],
    chosen: usize,
    node: Numbers,
    limit: Numbers,
    attacking: bool,
) -> Numbers {
    let own = |n: Numbers| if attacking { n.pn } else { n.dn };
    let other = |n: Numbers| if attacking { n.dn } else { n.pn };
    let second = children
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != chosen)
        .map(|(_, c)| own(c.numbers))
        .min()
        .unwrap_or(INFINITE);
    let widened = u64::from(second) + u64::from(second) / 4 + 1;
    let own_limit = u64::from(own(limit)).min(widened).min(u64::from(INFINITE)) as u32;
    let chosen_other = u64::from(other(children[chosen].numbers));
    let other_limit = (u64::from(other(limit)) + chosen_other)
        .saturating_sub(u64::from(other(node)))
        .min(u64::from(INFINITE)) as u32;
    if attacking {
        Numbers {
            pn: own_limit,
            dn: other_limit,
            bound: 0,
        }
    } else {
        Numbers {
            pn: other_limit,
            dn: own_limit,
            bound: 0,
        }
    }
}
