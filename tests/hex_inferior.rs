//! Inferior cell analysis (src/games/hex/inferior/): each rule on a
//! position where it applies and one where it must not, and brute force on
//! random small boards: fill-in never changes the winner, and the moves
//! the proof search leaves out never hold a player's only wins.

mod common;

use std::collections::HashMap;

use common::hex::brute_force_wins;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use boardgames::core::{Game, Player};
use boardgames::games::hex::board::{BLACK, EMPTY, WHITE};
use boardgames::games::hex::inferior::captured::captures_pair;
use boardgames::games::hex::inferior::dead::{ring_is_dead, Stones};
use boardgames::games::hex::inferior::InferiorCells;
use boardgames::games::hex::{Hex, HexMove, HexRules};

fn position(fen: &str) -> Hex {
    Hex::from_fen(fen, &HexRules::default()).expect(fen)
}

fn cell(hex: &Hex, name: &str) -> usize {
    hex.parse_move(name).expect(name).0 as usize
}

fn names(hex: &Hex, cells: impl Iterator<Item = usize>) -> Vec<String> {
    let mut names: Vec<String> = cells.map(|c| hex.format_move(HexMove::cell(c))).collect();
    names.sort();
    names
}

fn analyse(hex: &Hex) -> InferiorCells {
    InferiorCells::analyse(hex, hex.side_to_move_player())
}

const B: u8 = BLACK;
const W: u8 = WHITE;
const E: u8 = EMPTY;

#[test]
fn four_in_a_row_of_either_colour_make_a_dead_ring_in_every_rotation() {
    for shift in 0..6 {
        let rotate = |ring: [u8; 6]| -> [u8; 6] { std::array::from_fn(|k| ring[(k + shift) % 6]) };
        assert!(ring_is_dead(&rotate([B, B, B, B, E, E])));
        assert!(ring_is_dead(&rotate([W, W, W, W, E, B])));
        assert!(!ring_is_dead(&rotate([B, B, B, E, E, E])));
    }
}

#[test]
fn three_facing_two_adjacent_opponents_is_dead_but_not_when_they_are_apart() {
    assert!(ring_is_dead(&[B, B, B, E, W, W]));
    assert!(ring_is_dead(&[B, B, B, W, W, E]));
    // The two white stones apart leave White a way through.
    assert!(!ring_is_dead(&[B, B, B, W, E, W]));
    // Black's neighbours split by White: Black may pass through.
    assert!(!ring_is_dead(&[B, W, B, E, E, E]));
    assert!(!ring_is_dead(&[E; 6]));
}

#[test]
fn a_mixed_ring_is_live() {
    assert!(!ring_is_dead(&[B, W, B, W, B, W]));
    assert!(!ring_is_dead(&[B, B, W, W, E, E]));
}

#[test]
fn three_of_one_colour_facing_two_of_the_other_is_dead_and_apart_is_not() {
    // c3 on 5x5, ring c2 d2 d3 c4 b4 b3: Black c2 d2 d3, White b4 b3.
    let hex = position("5/2xx1/1o1x1/1o3/5 b");
    assert!(Stones::of(&hex).is_dead(cell(&hex, "c3")));
    assert!(names(&hex, analyse(&hex).dead()).contains(&"c3".to_owned()));
    // White on c4 and b3, which do not touch: White may pass through c3.
    let hex = position("5/2xx1/1o1x1/2o2/5 b");
    assert!(!Stones::of(&hex).is_dead(cell(&hex, "c3")));
    assert!(!names(&hex, analyse(&hex).dead()).contains(&"c3".to_owned()));
}

#[test]
fn a_stone_on_row_two_captures_the_two_edge_cells_below_it() {
    // Black c2 and Black's top edge: c1 and d1 are Black's. Filled, they
    // capture the acute corner's a1 and b1 in turn, then a2 and b2.
    let hex = position("5/2x2/5/5/5 w");
    let mut stones = Stones::of(&hex);
    let (c1, d1) = (cell(&hex, "c1"), cell(&hex, "d1"));
    assert!(captures_pair(&mut stones, BLACK, c1, d1));
    assert!(!captures_pair(&mut stones, WHITE, c1, d1));
    let inferior = analyse(&hex);
    let captured = names(&hex, inferior.captured_by(Player::P1).iter().copied());
    assert_eq!(captured, ["a1", "a2", "b1", "b2", "c1", "d1"]);
    assert!(inferior.captured_by(Player::P2).is_empty());
    // A White stone there captures nothing: the edge is Black's.
    let hex = position("5/2o2/5/5/5 b");
    let inferior = analyse(&hex);
    assert!(inferior.captured_by(Player::P1).is_empty());
    assert!(inferior.captured_by(Player::P2).is_empty());
}

#[test]
fn a_cell_inside_three_opponent_stones_is_vulnerable_and_not_when_they_are_split() {
    // c3 with White on c2, d2, d3: a White reply on c4 or b3 kills it.
    let hex = position("5/2oo1/3o1/5/5 b");
    let inferior = analyse(&hex);
    let c3 = cell(&hex, "c3");
    let killers: Vec<usize> = inferior
        .vulnerable
        .iter()
        .filter(|&&(c, _)| c == c3)
        .map(|&(_, k)| k)
        .collect();
    assert_eq!(killers.len(), 1);
    assert!(["c4", "b3"].contains(&hex.format_move(HexMove::cell(killers[0])).as_str()));
    // White on c2, d3 and b4 only: no single reply kills c3.
    let hex = position("5/2o2/3o1/1o3/5 b");
    let inferior = analyse(&hex);
    assert!(!inferior.vulnerable.iter().any(|&(c, _)| c == c3));
}

#[test]
fn row_two_dominates_the_edge_cells_it_would_capture_for_their_owner_only() {
    // Black to move: a stone on c2 captures c1 and d1, so c2 dominates them.
    let hex = position("5/5/5/5/5 b");
    let inferior = analyse(&hex);
    let (c1, d1, c2) = (cell(&hex, "c1"), cell(&hex, "d1"), cell(&hex, "c2"));
    assert!(inferior.dominated.contains(&(c1, c2)));
    assert!(inferior.dominated.contains(&(d1, c2)));
    // For White, the top edge is the opponent's: c2 takes nothing there.
    let hex = position("5/5/5/5/5 w");
    let inferior = analyse(&hex);
    assert!(!inferior.dominated.contains(&(c1, c2)));
    assert!(!inferior.dominated.contains(&(d1, c2)));
}

#[test]
fn pruning_keeps_one_of_two_cells_that_dominate_each_other_and_never_empties() {
    let hex = position("5/5/5/5/5 b");
    let inferior = analyse(&hex);
    let pruning = inferior.pruning();
    let mut moves: Vec<HexMove> = hex.empty_cells().map(HexMove::cell).collect();
    let pruned = pruning.prune(&mut moves, hex.geometry());
    assert!(pruned.dominated > 0, "{pruned:?}");
    assert!(!moves.is_empty());
    // Every dominated cell left out has a dominator that stayed, directly
    // or through another left-out cell.
    for mv in hex.empty_cells().map(HexMove::cell) {
        if !moves.contains(&mv) {
            assert!(inferior.dominated.iter().any(|&(c, _)| c == mv.0 as usize));
        }
    }
    // Two cells only, each the other's dominator: one stays.
    let mut pair = vec![
        HexMove::cell(cell(&hex, "c1")),
        HexMove::cell(cell(&hex, "c2")),
    ];
    pruning.prune(&mut pair, hex.geometry());
    assert_eq!(pair.len(), 1);
}

/// `hex` with a stone of `player` on `cell`, the side to move unchanged.
fn with_stone(hex: &Hex, cell: usize, player: Player) -> Hex {
    let mover = hex.side_to_move_player();
    let mut next = hex.clone();
    next.set_side_to_move(player);
    next.make_move(HexMove::cell(cell));
    next.set_side_to_move(mover);
    next
}

/// Whether the side to move wins `hex`, a finished game counting for its
/// winner.
fn mover_wins(hex: &Hex, memo: &mut HashMap<u64, bool>) -> bool {
    match hex.winner() {
        Some(winner) => winner == hex.side_to_move_player(),
        None => brute_force_wins(&mut hex.clone(), memo),
    }
}

/// A random position of `size` with `stones` stones of random colours and
/// a random side to move, without a winner.
fn random_position(size: usize, stones: usize, rng: &mut SmallRng) -> Option<Hex> {
    let rules = HexRules {
        board_size: size,
        swap: false,
    };
    let mut hex = Hex::start_position(&rules);
    for _ in 0..stones {
        let empty: Vec<usize> = hex.empty_cells().collect();
        let player = if rng.gen_bool(0.5) {
            Player::P1
        } else {
            Player::P2
        };
        hex = with_stone(&hex, empty[rng.gen_range(0..empty.len())], player);
        if hex.winner().is_some() {
            return None;
        }
    }
    let mover = if rng.gen_bool(0.5) {
        Player::P1
    } else {
        Player::P2
    };
    hex.set_side_to_move(mover);
    Some(hex)
}

/// What the brute-force checks met, so that a check that never applied
/// fails.
#[derive(Debug, Default)]
struct Seen {
    positions: usize,
    dead: usize,
    filled: usize,
    fill_wins: usize,
    pruned: usize,
    pruned_in_wins: usize,
    /// Won positions where the tree's fill-in (`TreeFillIn`) left cells out.
    tree_pruned_in_wins: usize,
}

/// The searches' moves with the tree's fill-in on (`TreeFillIn`).
fn tree_fill_in_moves(hex: &Hex) -> Vec<HexMove> {
    use boardgames::core::knowledge::Knowledge;
    use boardgames::games::hex::resistance::EvalSettings;
    let settings = EvalSettings {
        tree_fill_in: true,
        ..EvalSettings::default()
    };
    let mut knowledge = boardgames::games::hex::HexKnowledge::new(&settings);
    let mut moves = Vec::new();
    knowledge.search_moves(hex, &mut moves);
    moves
}

/// Checks one position against minimax: a dead cell's colour does not
/// matter, the fill-in keeps the winner, and when the mover wins a kept
/// move wins.
fn check_position(hex: &Hex, memo: &mut HashMap<u64, bool>, seen: &mut Seen) {
    let fen = hex.to_fen();
    let mover = hex.side_to_move_player();
    let truth = mover_wins(hex, memo);
    seen.positions += 1;
    let stones = Stones::of(hex);
    for cell in hex.empty_cells().filter(|&c| stones.is_dead(c)) {
        seen.dead += 1;
        let black = mover_wins(&with_stone(hex, cell, Player::P1), memo);
        let white = mover_wins(&with_stone(hex, cell, Player::P2), memo);
        assert_eq!(black, white, "{fen}: the colour of dead {cell} matters");
    }
    let inferior = InferiorCells::analyse(hex, mover);
    if !inferior.fill.is_empty() {
        seen.filled += 1;
        seen.fill_wins += usize::from(inferior.filled_winner().is_some());
        let filled = mover_wins(&inferior.filled, memo);
        assert_eq!(filled, truth, "{fen}: fill-in changed the winner");
    }
    let all: Vec<HexMove> = hex.empty_cells().map(HexMove::cell).collect();
    let wins = |mv: &HexMove, memo: &mut HashMap<u64, bool>| {
        let mut child = hex.clone();
        child.make_move(*mv);
        child.winner().is_some() || !brute_force_wins(&mut child, memo)
    };
    if truth {
        let tree_moves = tree_fill_in_moves(hex);
        seen.tree_pruned_in_wins += usize::from(tree_moves.len() < all.len());
        assert!(
            tree_moves.iter().any(|mv| wins(mv, memo)),
            "{fen}: the tree's fill-in left out every winning move (kept {tree_moves:?})"
        );
    }
    if inferior.filled_winner().is_some() {
        return;
    }
    let mut kept = all.clone();
    inferior.pruning().prune(&mut kept, hex.geometry());
    assert!(!kept.is_empty(), "{fen}");
    if kept.len() < all.len() {
        seen.pruned += 1;
    }
    if truth {
        seen.pruned_in_wins += usize::from(kept.len() < all.len());
        assert!(
            kept.iter().any(|mv| wins(mv, memo)),
            "{fen}: every winning move was pruned (kept {kept:?})"
        );
    }
    for &(cell, by) in &inferior.dominated {
        let (dominated, dominator) = (HexMove::cell(cell), HexMove::cell(by));
        if wins(&dominated, memo) {
            assert!(
                wins(&dominator, memo),
                "{fen}: {by} does not dominate {cell}"
            );
        }
    }
}

fn check_random_positions(
    size: usize,
    count: usize,
    stones: std::ops::Range<usize>,
    seed: u64,
) -> Seen {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut memo = HashMap::new();
    let mut seen = Seen::default();
    while seen.positions < count {
        let placed = rng.gen_range(stones.clone());
        if let Some(hex) = random_position(size, placed, &mut rng) {
            check_position(&hex, &mut memo, &mut seen);
        }
    }
    seen
}

#[test]
fn on_random_3x3_and_4x4_positions_the_rules_agree_with_minimax() {
    let seen = check_random_positions(3, 200, 0..6, 31);
    assert!(seen.dead > 20 && seen.filled > 20, "{seen:?}");
    let seen = check_random_positions(4, 400, 0..11, 32);
    assert!(seen.dead > 100, "{seen:?}");
    assert!(seen.filled > 100 && seen.fill_wins > 10, "{seen:?}");
    assert!(seen.pruned > 100 && seen.pruned_in_wins > 50, "{seen:?}");
    assert!(seen.tree_pruned_in_wins > 50, "{seen:?}");
}

#[test]
fn on_random_5x5_positions_the_rules_agree_with_minimax() {
    let seen = check_random_positions(5, 150, 12..18, 33);
    assert!(seen.dead > 50, "{seen:?}");
    assert!(seen.filled > 50 && seen.fill_wins > 5, "{seen:?}");
    assert!(seen.pruned > 50 && seen.pruned_in_wins > 20, "{seen:?}");
    assert!(seen.tree_pruned_in_wins > 20, "{seen:?}");
}

/// Monte Carlo search's closer look by inferior cells (`CloserLook
/// inferior`): a node the fill-in decides is settled, and otherwise the
/// mover's inferior cells leave its move list.
#[test]
fn the_inferior_closer_look_settles_what_the_fill_in_decides_and_prunes_the_rest() {
    use boardgames::core::knowledge::Knowledge;
    use boardgames::core::mcts::MonteCarloKnowledge;
    use boardgames::games::hex::resistance::{CloserLook, EvalSettings};
    let settings = EvalSettings {
        closer_look: CloserLook::Inferior,
        ..EvalSettings::default()
    };
    let mut knowledge = boardgames::games::hex::HexKnowledge::new(&settings);
    let all_moves = |hex: &Hex| -> Vec<HexMove> { hex.empty_cells().map(HexMove::cell).collect() };
    // Black b2 on 3x3 captures a cell pair on each of its edges: Black has
    // won, and White, to move, has lost in at most the eight plies left.
    let mut hex = Hex::from_fen(
        "3/1x1/3 w",
        &HexRules {
            board_size: 3,
            swap: false,
        },
    )
    .expect("3x3");
    let mut moves = all_moves(&hex);
    assert_eq!(knowledge.closer_look(&mut hex, &mut moves), Some(-8));
    // c3 inside three White stones dies to one White reply: Black need
    // not try it; what is left out is inferior, and something is kept.
    let mut hex = position("5/2oo1/3o1/5/5 b");
    let mut moves = all_moves(&hex);
    assert_eq!(knowledge.closer_look(&mut hex, &mut moves), None);
    let c3 = HexMove::cell(cell(&hex, "c3"));
    assert!(!moves.is_empty() && !moves.contains(&c3), "{moves:?}");
    let inferior = analyse(&hex);
    for mv in all_moves(&hex).into_iter().filter(|mv| !moves.contains(mv)) {
        let cell = mv.0 as usize;
        let inferior_cell = !inferior.filled.empty_cells().any(|c| c == cell)
            || inferior.vulnerable.iter().any(|&(c, _)| c == cell)
            || inferior.dominated.iter().any(|&(c, _)| c == cell);
        assert!(inferior_cell, "{} left out", hex.format_move(mv));
    }
}
