//! Monte Carlo search on small Hex boards, whose results a brute-force
//! search settles: with the plain knowledge (random playouts, no proofs of
//! its own) the tree's proofs are the search's alone.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::tree::{Proof, Tree, ROOT};
use super::{reuse, search, KeptTree, MonteCarloKnowledge, MonteCarloTables};
use crate::core::control::{SearchControl, SearchResult, SearchSignals};
use crate::core::game::{Game, MoveCode, Outcome, MATE_BOUND};
use crate::core::knowledge::{Deadline, Knowledge, PlainKnowledge};
use crate::games::hex::{solver, Hex, HexKnowledge, HexMove, HexRules};

fn board(size: usize) -> Hex {
    Hex::start_position(&HexRules {
        board_size: size,
        swap: false,
    })
}

/// A knowledge and the tables kept from one search to the next, as the
/// engine holds them.
struct Kept<K> {
    knowledge: K,
    monte_carlo: MonteCarloTables<Hex>,
}

impl<K: MonteCarloKnowledge<Hex>> Kept<K> {
    fn new() -> Self {
        Kept {
            knowledge: K::new(&Default::default()),
            monte_carlo: MonteCarloTables::new(16),
        }
    }
}

fn run<K: MonteCarloKnowledge<Hex>>(hex: &Hex, simulations: u64) -> SearchResult<HexMove> {
    search_in(&mut Kept::<K>::new(), hex, simulations, &[])
}

/// Searches `hex` for `simulations` among `only` (all moves if empty),
/// with `tables`, where the tree is kept for the next search.
fn search_in<K: MonteCarloKnowledge<Hex>>(
    tables: &mut Kept<K>,
    hex: &Hex,
    simulations: u64,
    only: &[HexMove],
) -> SearchResult<HexMove> {
    let control = SearchControl {
        max_nodes: Some(simulations),
        ..Default::default()
    };
    search_controlled(tables, hex, control, only)
}

/// As `search_in`, under any control (limits and parameters).
fn search_controlled<K: MonteCarloKnowledge<Hex>>(
    tables: &mut Kept<K>,
    hex: &Hex,
    control: SearchControl,
    only: &[HexMove],
) -> SearchResult<HexMove> {
    let signals = SearchSignals::default();
    search(
        hex.clone(),
        &mut tables.knowledge,
        &mut tables.monte_carlo,
        &signals,
        control,
        only,
        &mut |_| {},
    )
}

/// True when the side to move wins, by plain negamax.
fn mover_wins(hex: &mut Hex) -> bool {
    if let Some(Outcome::Win(winner)) = hex.outcome() {
        return winner == hex.side_to_move();
    }
    let mut moves = Vec::new();
    hex.generate_moves(&mut moves);
    moves.into_iter().any(|mv| {
        hex.make_move(mv);
        let wins = !mover_wins(hex);
        hex.unmake_move(mv);
        wins
    })
}

#[test]
fn random_3x3_positions_are_proven_as_brute_force_proves_them() {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut proven = [0, 0];
    for _ in 0..40 {
        let mut hex = board(3);
        let mut moves = Vec::new();
        for _ in 0..rng.gen_range(0..4) {
            hex.generate_moves(&mut moves);
            if hex.outcome().is_some() || moves.is_empty() {
                break;
            }
            hex.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        if hex.outcome().is_some() {
            continue;
        }
        let result = run::<PlainKnowledge<Hex>>(&hex, 200_000);
        assert!(
            result.score.abs() >= MATE_BOUND,
            "3x3 is proven: {}",
            hex.to_fen()
        );
        let wins = mover_wins(&mut hex.clone());
        assert_eq!(result.score > 0, wins, "{}", hex.to_fen());
        let best = result.best_move.expect("a move");
        hex.make_move(best);
        if wins {
            assert!(!mover_wins(&mut hex), "the move played wins");
        }
        proven[usize::from(wins)] += 1;
    }
    assert!(
        proven[0] > 3 && proven[1] > 3,
        "both results met: {proven:?}"
    );
}

#[test]
fn the_hex_playouts_choose_a_winning_opening_on_5x5() {
    // On 5x5 the first player wins only from the centre region; the
    // search picks a winner (or proves one, and stops), as the exact
    // solver confirms.
    let hex = board(5);
    let result = run::<HexKnowledge>(&hex, 20_000);
    let best = result.best_move.expect("a move");
    let mut after = hex.clone();
    after.make_move(best);
    let proof = solver::solve(&mut HexKnowledge::default(), &after).expect("5x5 is solved");
    assert!(
        !proof.win,
        "{} is a first-player win",
        hex.format_move(best)
    );
}

/// Asserts that `copy`'s subtree under `b` is `original`'s under `a`.
fn assert_same_subtree(original: &Tree, a: u32, copy: &Tree, b: u32) {
    let (x, y) = (original.node(a), copy.node(b));
    assert_eq!((x.visits, x.wins, x.proof), (y.visits, y.wins, y.proof));
    assert_eq!((x.expanded, x.child_count), (y.expanded, y.child_count));
    for (i, j) in original.children(a).zip(copy.children(b)) {
        assert_eq!(original.node(i).code, copy.node(j).code);
        assert_same_subtree(original, i, copy, j);
    }
}

#[test]
fn the_next_search_starts_from_the_subtree_two_plies_on() {
    let hex = board(6);
    let mut tables = Kept::<HexKnowledge>::new();
    search_in(&mut tables, &hex, 4_000, &[]);
    let kept = tables.monte_carlo.kept.take().expect("the tree is kept");
    let child = kept.tree.best_child(ROOT).expect("a move");
    let reply = kept.tree.best_child(child).expect("a reply");
    let mut next = hex.clone();
    next.make_move(HexMove::from_code(kept.tree.node(child).code));
    next.make_move(HexMove::from_code(kept.tree.node(reply).code));
    let knowledge = HexKnowledge::default();
    let original = kept.tree.nodes.clone();
    let copy = reuse::subtree(kept, &next, &knowledge, 1 << 20).expect("found two plies on");
    let original = Tree::from_nodes(original);
    assert!(copy.node(ROOT).visits > 10);
    assert_same_subtree(&original, reply, &copy, ROOT);
    // A position three plies on is not looked for.
    let mut further = next.clone();
    further.make_move(HexMove::from_code(
        copy.node(copy.best_child(ROOT).expect("a move")).code,
    ));
    let kept = KeptTree {
        root: hex.clone(),
        tree: original,
    };
    assert!(reuse::subtree(kept, &further, &knowledge, 1 << 20).is_none());
}

#[test]
fn a_root_cut_down_by_searchmoves_is_not_kept() {
    let hex = board(5);
    let mut tables = Kept::<HexKnowledge>::new();
    let result = search_in(&mut tables, &hex, 500, &[HexMove::cell(0)]);
    assert_eq!(result.best_move, Some(HexMove::cell(0)));
    assert!(tables.monte_carlo.kept.is_none());
    search_in(&mut tables, &hex, 500, &[]);
    let kept = tables
        .monte_carlo
        .kept
        .as_ref()
        .expect("a whole root is kept");
    assert!(kept.tree.node(ROOT).child_count > 1);
}

/// Hex's moves at `hex` as a root: must-play applies there only.
fn root_moves(hex: &Hex) -> Vec<u32> {
    let mut knowledge = HexKnowledge::default();
    knowledge.prepare_search(hex, &Deadline::default());
    let mut moves = Vec::new();
    knowledge.search_moves(hex, &mut moves);
    moves.iter().map(|mv| mv.to_code()).collect()
}

/// A position two plies below a searched `hex` whose node in `tree` has
/// more children than the moves it has as a root.
fn narrowed_grandchild(hex: &Hex, tree: &Tree) -> Option<Hex> {
    for child in tree.children(ROOT) {
        for reply in tree.children(child) {
            if tree.node(reply).child_count == 0 {
                continue;
            }
            let mut next = hex.clone();
            next.make_move(HexMove::from_code(tree.node(child).code));
            next.make_move(HexMove::from_code(tree.node(reply).code));
            if root_moves(&next).len() < tree.node(reply).child_count as usize {
                return Some(next);
            }
        }
    }
    None
}

#[test]
fn a_kept_root_has_only_the_moves_of_a_root() {
    // Inner nodes have all their moves; a root, only the must-play cells.
    let mut rng = SmallRng::seed_from_u64(5);
    for _ in 0..40 {
        let mut hex = board(6);
        let mut moves = Vec::new();
        for _ in 0..6 {
            hex.generate_moves(&mut moves);
            hex.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        if hex.outcome().is_some() {
            continue;
        }
        let mut tables = Kept::<HexKnowledge>::new();
        search_in(&mut tables, &hex, 3_000, &[]);
        let Some(kept) = tables.monte_carlo.kept.as_ref() else {
            continue;
        };
        let Some(next) = narrowed_grandchild(&hex, &kept.tree) else {
            continue;
        };
        let allowed = root_moves(&next);
        let result = search_in(&mut tables, &next, 3_000, &[]);
        let best = result.best_move.expect("a move").to_code();
        assert!(allowed.contains(&best), "{}", next.to_fen());
        let tree = &tables.monte_carlo.kept.as_ref().expect("kept").tree;
        assert!(tree.node(ROOT).child_count as usize > allowed.len());
        for child in tree.children(ROOT) {
            let node = tree.node(child);
            let left_out = matches!(node.proof, Proof::Pruned | Proof::Loss(_));
            if allowed.contains(&node.code) {
                assert_ne!(node.proof, Proof::Pruned, "{}", next.to_fen());
            } else {
                assert!(left_out, "{}", next.to_fen());
            }
        }
        return;
    }
    panic!("no kept root that must-play narrows was met");
}

/// A move whose time is already up still gets an answer, after one batch
/// of simulations, the root's H-search cut short by the same deadline.
#[test]
fn a_deadline_already_past_yields_a_move_after_one_batch() {
    let mut hex = board(11);
    for cell in ["f6", "e7", "d7", "g5", "c9", "h4"] {
        let mv = hex.parse_legal_move(cell).expect("legal");
        hex.make_move(mv);
    }
    let past = crate::core::time::TimeBudget {
        optimum: Some(std::time::Duration::ZERO),
        maximum: Some(std::time::Duration::ZERO),
        adaptive: false,
    };
    let control = SearchControl {
        budget: past,
        ..Default::default()
    };
    let mut kept = Kept::<HexKnowledge>::new();
    let result = search(
        hex.clone(),
        &mut kept.knowledge,
        &mut kept.monte_carlo,
        &SearchSignals::default(),
        control,
        &[],
        &mut |_| {},
    );
    let best = result.best_move.expect("a move");
    assert!(hex.parse_legal_move(&hex.format_move(best)).is_ok());
    assert!(result.nodes <= super::CHECK_INTERVAL, "{}", result.nodes);
}

/// Random playouts and a policy that puts all its weight on one corner.
#[derive(Default)]
struct CornerPolicy;

impl Knowledge<Hex> for CornerPolicy {
    type Settings = ();

    fn new(_settings: &()) -> Self {
        CornerPolicy
    }

    fn evaluate(&mut self, _position: &Hex) -> crate::core::Score {
        0
    }
}

impl MonteCarloKnowledge<Hex> for CornerPolicy {
    fn move_policy(&mut self, _hex: &Hex, moves: &[HexMove], policy: &mut Vec<f32>) {
        policy.clear();
        policy.extend(moves.iter().map(|&mv| f32::from(mv == HexMove::cell(0))));
    }
}

#[test]
fn the_policy_s_bias_leads_the_search_and_fades_with_visits() {
    let hex = board(5);
    let search_with_bias = |bias: i32, simulations: u64| {
        let mut control = SearchControl {
            max_nodes: Some(simulations),
            ..Default::default()
        };
        control.params.mcts_progressive_bias = bias;
        search_controlled(&mut Kept::<CornerPolicy>::new(), &hex, control, &[]).best_move
    };
    // A strong bias makes the corner the most simulated move.
    assert_eq!(search_with_bias(20_000, 300), Some(HexMove::cell(0)));
    // Without it the corner, a poor opening, is not chosen; nor with a
    // mild bias once the simulations outweigh it.
    assert_ne!(search_with_bias(0, 3_000), Some(HexMove::cell(0)));
    assert_ne!(search_with_bias(500, 3_000), Some(HexMove::cell(0)));
}
