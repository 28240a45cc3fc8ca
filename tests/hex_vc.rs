//! Virtual connections against the exact solver: on small boards, every
//! result H-search proves (a full edge-to-edge connection, a must-play
//! set, a loss) must agree with what exhaustive search finds.

use boardgames::core::notation::fen_row;
use boardgames::core::{Game, Player};
use boardgames::games::hex::solver;
use boardgames::games::hex::vc::connections::Node;
use boardgames::games::hex::vc::{
    mustplay, Budget, Carrier, CellSet, Connections, SmallCellSet, Verdict,
};
use boardgames::games::hex::{Hex, HexKnowledge, HexMove, HexRules};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

/// A random position of `size` without a winner: alternating stone
/// counts, the side with fewer stones (or Black) to move, no pie rule.
fn random_position(size: usize, rng: &mut SmallRng) -> Option<Hex> {
    let rules = HexRules {
        board_size: size,
        swap: false,
    };
    let cells = size * size;
    let stones = rng.gen_range(size.min(4)..cells * 2 / 3);
    let mut board = vec!['.'; cells];
    for index in 0..stones {
        let mut cell = rng.gen_range(0..cells);
        while board[cell] != '.' {
            cell = (cell + 1) % cells;
        }
        board[cell] = if index % 2 == 0 { 'x' } else { 'o' };
    }
    let rows: Vec<String> = board
        .chunks(size)
        .map(|row| fen_row(row.iter().map(|&c| (c != '.').then_some(c))))
        .collect();
    let side = if stones % 2 == 0 { "b" } else { "w" };
    let hex = Hex::from_fen(&format!("{} {side}", rows.join("/")), &rules).ok()?;
    hex.winner().is_none().then_some(hex)
}

/// Whether the side to move wins, by the exact solver (`None` when it
/// gives up).
fn wins(hex: &Hex) -> Option<bool> {
    let mut knowledge = HexKnowledge::default();
    solver::solve(&mut knowledge, hex).map(|proof| proof.win)
}

/// The moves that win for the side to move, by the exact solver.
fn winning_moves(hex: &Hex) -> Option<Vec<usize>> {
    let mut moves = Vec::new();
    hex.generate_moves(&mut moves);
    let mut winners = Vec::new();
    for mv in moves {
        let mut child = hex.clone();
        child.make_move(mv);
        let child_lost = child.winner().is_some() || !wins(&child)?;
        if child_lost {
            winners.push(mv.0 as usize);
        }
    }
    Some(winners)
}

#[derive(Debug, Default)]
struct Seen {
    positions: usize,
    full_connections: usize,
    wins: usize,
    losses: usize,
    must_play: usize,
    /// Must-play positions where the side to move has a winning move.
    must_play_with_winners: usize,
    must_play_cells: usize,
    empty_cells: usize,
}

fn check(hex: &Hex, seen: &mut Seen) {
    let fen = hex.to_fen();
    let me = hex.side_to_move();
    let Some(i_win) = wins(hex) else {
        return;
    };
    seen.positions += 1;
    for player in [Player::P1, Player::P2] {
        let vc = Connections::compute(hex, player, Budget::FULL);
        if !vc.edge_to_edge_full().is_empty() {
            seen.full_connections += 1;
            assert_eq!(
                i_win,
                player == me,
                "{fen}: {player:?} has a full connection"
            );
        }
    }
    match mustplay::verdict(hex, Budget::FULL) {
        Verdict::Win { carrier, .. } => {
            seen.wins += 1;
            assert!(i_win, "{fen}: proven win {carrier:?}");
        }
        Verdict::Loss { .. } => {
            seen.losses += 1;
            assert!(!i_win, "{fen}: proven loss");
        }
        Verdict::MustPlay(cells) => {
            let Some(winners) = winning_moves(hex) else {
                return;
            };
            seen.must_play += 1;
            if !winners.is_empty() {
                seen.must_play_with_winners += 1;
            }
            seen.must_play_cells += cells.len();
            seen.empty_cells += hex.empty_cells().count();
            let outside: Vec<usize> = winners
                .into_iter()
                .filter(|&c| !cells.contains(c))
                .collect();
            assert!(
                outside.is_empty(),
                "{fen}: winning {outside:?} outside {cells:?}"
            );
        }
        Verdict::Open => {}
    }
}

#[test]
fn what_h_search_proves_the_exact_solver_confirms() {
    let mut rng = SmallRng::seed_from_u64(22);
    let mut seen = Seen::default();
    for (size, positions) in [(3, 200), (4, 600), (5, 600)] {
        for _ in 0..positions {
            if let Some(hex) = random_position(size, &mut rng) {
                check(&hex, &mut seen);
            }
        }
    }
    eprintln!("{seen:?}");
    assert!(seen.positions > 1000, "{seen:?}");
    assert!(seen.full_connections > 300, "{seen:?}");
    assert!(seen.wins > 500 && seen.losses > 200, "{seen:?}");
    assert!(
        seen.must_play > 50 && seen.must_play_with_winners > 15,
        "{seen:?}"
    );
    // Must-play narrows the moves to search.
    assert!(seen.must_play_cells < seen.empty_cells, "{seen:?}");
}

#[test]
fn must_play_keeps_exactly_the_winning_cells_here() {
    // 4x4, White to move: Black (a1, c2, d2, a3) has semi connections
    // between its edges; the cells common to all their carriers are d1,
    // a2, b3 and a4, exactly White's winning moves.
    let rules = HexRules {
        board_size: 4,
        swap: false,
    };
    let hex = Hex::from_fen("xoo1/2xx/x3/2o1 w", &rules).expect("valid");
    let cells: CellSet = ["d1", "a2", "b3", "a4"]
        .iter()
        .map(|name| {
            hex.parse_move(name)
                .map(|HexMove(c)| c as usize)
                .expect(name)
        })
        .collect();
    assert_eq!(
        mustplay::verdict(&hex, Budget::FULL),
        Verdict::MustPlay(cells)
    );
    let mut winners = winning_moves(&hex).expect("solved");
    winners.sort_unstable();
    assert_eq!(winners, cells.iter().collect::<Vec<_>>());
}

#[test]
fn the_search_tries_only_must_play_cells_at_the_root() {
    use boardgames::core::{Deadline, Knowledge};
    let rules = HexRules {
        board_size: 4,
        swap: false,
    };
    let hex = Hex::from_fen("xoo1/2xx/x3/2o1 w", &rules).expect("valid");
    let Verdict::MustPlay(cells) = mustplay::verdict(&hex, Budget::FULL) else {
        panic!("a must-play position");
    };
    let mut knowledge = HexKnowledge::default();
    knowledge.prepare_search(&hex, &Deadline::default());
    let mut moves = Vec::new();
    knowledge.search_moves(&hex, &mut moves);
    assert!(!moves.is_empty());
    assert!(
        moves.iter().all(|mv| cells.contains(mv.0 as usize)),
        "{moves:?}"
    );
}

/// Every pair's full and semi carriers, by node, as full-size sets.
fn all_connections<C: Carrier>(
    hex: &Hex,
    vc: &Connections<C>,
) -> Vec<(u16, u16, Vec<CellSet>, Vec<CellSet>)> {
    let mut nodes: Vec<u16> = vec![0, 1];
    nodes.extend((0..hex.size() * hex.size()).filter_map(|cell| vc.node_at(cell)));
    nodes.sort_unstable();
    nodes.dedup();
    let mut pairs = Vec::new();
    for &a in &nodes {
        for &b in nodes.iter().filter(|&&b| b > a) {
            if let Some(pair) = vc.between(a, b) {
                let sets = |list: &[C]| list.iter().map(Carrier::to_cell_set).collect();
                pairs.push((a, b, sets(&pair.full), sets(&pair.semi)));
            }
        }
    }
    pairs
}

#[test]
fn one_word_carriers_find_exactly_the_full_size_connections() {
    let mut rng = SmallRng::seed_from_u64(2207);
    let mut compared = 0;
    let mut edge_verdicts = 0;
    for size in 3..=8 {
        for _ in 0..60 {
            let Some(hex) = random_position(size, &mut rng) else {
                continue;
            };
            for player in [Player::P1, Player::P2] {
                let full_size = Connections::compute(&hex, player, Budget::FULL);
                let one_word = Connections::<SmallCellSet>::search(&hex, player, Budget::FULL);
                assert_eq!(one_word.work, full_size.work, "{}", hex.to_fen());
                assert_eq!(one_word.complete, full_size.complete);
                assert_eq!(
                    all_connections(&hex, &one_word),
                    all_connections(&hex, &full_size),
                    "{}",
                    hex.to_fen()
                );
                compared += 1;
                if !full_size.edge_to_edge_full().is_empty() {
                    edge_verdicts += 1;
                }
            }
        }
    }
    assert!(
        compared > 500 && edge_verdicts > 50,
        "{compared} {edge_verdicts}"
    );
}

#[test]
fn a_reused_h_search_forgets_the_previous_position() {
    let mut rng = SmallRng::seed_from_u64(2208);
    let mut reused = Connections::<SmallCellSet>::default();
    let mut compared = 0;
    for size in [8, 4, 7, 5, 6, 8, 3] {
        for _ in 0..20 {
            let Some(hex) = random_position(size, &mut rng) else {
                continue;
            };
            for player in [Player::P1, Player::P2] {
                reused.search_again(&hex, player, Budget::FULL);
                let fresh = Connections::<SmallCellSet>::search(&hex, player, Budget::FULL);
                assert_eq!(reused.counts(), fresh.counts(), "{}", hex.to_fen());
                assert_eq!(
                    all_connections(&hex, &reused),
                    all_connections(&hex, &fresh),
                    "{}",
                    hex.to_fen()
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 200, "{compared}");
}

/// The local game a connection claims to win: the owner's stones and the
/// two endpoints, the carrier's empty cells to play in, nothing else.
struct LocalGame {
    size: usize,
    /// Black's edges are the top and bottom rows, White's the left and
    /// right columns.
    owner_is_black: bool,
    owner_cells: u64,
    carrier: Vec<usize>,
    ends: [Node; 2],
}

impl LocalGame {
    fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let (row, col) = ((cell / self.size) as i32, (cell % self.size) as i32);
        let size = self.size as i32;
        [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]
            .into_iter()
            .map(move |(dr, dc)| (row + dr, col + dc))
            .filter(move |&(r, c)| r >= 0 && c >= 0 && r < size && c < size)
            .map(move |(r, c)| (r * size + c) as usize)
    }

    fn on_edge(&self, cell: usize, edge: u8) -> bool {
        let line = if self.owner_is_black {
            cell / self.size
        } else {
            cell % self.size
        };
        line == if edge == 0 { 0 } else { self.size - 1 }
    }

    fn touches(&self, end: Node, cell: usize) -> bool {
        match end {
            Node::Edge(edge) => self.on_edge(cell, edge),
            Node::Group(at) | Node::Cell(at) => cell == at as usize,
        }
    }

    /// Whether the owner's cells join the two ends.
    fn joined(&self, owner: u64) -> bool {
        let cells = self.size * self.size;
        let mut seen = 0u64;
        let mut stack: Vec<usize> = (0..cells)
            .filter(|&c| owner & (1 << c) != 0 && self.touches(self.ends[0], c))
            .collect();
        while let Some(cell) = stack.pop() {
            if seen & (1 << cell) != 0 {
                continue;
            }
            seen |= 1 << cell;
            if self.touches(self.ends[1], cell) {
                return true;
            }
            stack.extend(self.neighbours(cell).filter(|&n| owner & (1 << n) != 0));
        }
        false
    }

    /// Whether the owner joins the ends, playing only in the carrier.
    fn owner_wins(
        &self,
        owner: u64,
        taken: u64,
        owner_moves: bool,
        memo: &mut HashMap<(u64, u64, bool), bool>,
    ) -> bool {
        if self.joined(owner) {
            return true;
        }
        if let Some(&known) = memo.get(&(owner, taken, owner_moves)) {
            return known;
        }
        let free: Vec<usize> = self
            .carrier
            .iter()
            .copied()
            .filter(|&c| taken & (1 << c) == 0)
            .collect();
        let result = if owner_moves {
            free.iter()
                .any(|&c| self.owner_wins(owner | 1 << c, taken | 1 << c, false, memo))
        } else {
            !free.is_empty()
                && free
                    .iter()
                    .all(|&c| self.owner_wins(owner, taken | 1 << c, true, memo))
        };
        memo.insert((owner, taken, owner_moves), result);
        result
    }
}

/// The cells of `hex` holding `stone` (`x` or `o`), as bits.
fn stones(hex: &Hex, stone: char) -> u64 {
    let fen = hex.to_fen();
    let board = fen.split(' ').next().unwrap_or_default();
    let (mut bits, mut cell, mut run) = (0u64, 0, 0);
    for c in board.chars() {
        match c.to_digit(10) {
            Some(d) => run = run * 10 + d as usize,
            None => {
                cell += run;
                run = 0;
                if c == stone {
                    bits |= 1 << cell;
                }
                if c != '/' {
                    cell += 1;
                }
            }
        }
    }
    bits
}

#[test]
fn every_connection_h_search_claims_holds_in_its_carrier() {
    let mut rng = SmallRng::seed_from_u64(2209);
    let (mut full_checked, mut semi_checked) = (0, 0);
    for size in [3, 4, 4, 5] {
        for _ in 0..40 {
            let Some(hex) = random_position(size, &mut rng) else {
                continue;
            };
            for player in [Player::P1, Player::P2] {
                let vc = Connections::<SmallCellSet>::search(&hex, player, Budget::FULL);
                let owner_is_black = player == Player::P1;
                let owner_stones = stones(&hex, if owner_is_black { 'x' } else { 'o' });
                for (a, b, full, semi) in all_connections(&hex, &vc) {
                    let ends = [vc.node(a), vc.node(b)];
                    let endpoint_bits = ends
                        .iter()
                        .filter_map(|end| end.empty_cell())
                        .fold(0u64, |bits, cell| bits | 1 << cell);
                    for (carriers, owner_first) in [(full, false), (semi, true)] {
                        for carrier in carriers.iter().filter(|c| c.len() <= 9) {
                            let game = LocalGame {
                                size,
                                owner_is_black,
                                owner_cells: owner_stones | endpoint_bits,
                                carrier: carrier.iter().collect(),
                                ends,
                            };
                            let wins = game.owner_wins(
                                game.owner_cells,
                                0,
                                owner_first,
                                &mut HashMap::new(),
                            );
                            assert!(
                                wins,
                                "{}: {player:?} {ends:?} {} {carrier:?}",
                                hex.to_fen(),
                                if owner_first { "semi" } else { "full" }
                            );
                            if owner_first {
                                semi_checked += 1;
                            } else {
                                full_checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        full_checked > 2000 && semi_checked > 500,
        "{full_checked} {semi_checked}"
    );
}
