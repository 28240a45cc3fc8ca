//! The Hex proof search (df-pn with H-search at every node, must-play and
//! dead cells) against a plain minimax written here, against the exact
//! small-board solver, and against published results; its proof mode
//! against the alpha-beta mode it must leave unchanged.

mod common;

use std::collections::HashMap;

use common::hex::brute_force_wins;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use boardgames::core::dfpn::{prove, ProofKnowledge, ProofLimits, ProofTable, Verdict, UNLIMITED};
use boardgames::core::{Deadline, Game, Knowledge};
use boardgames::games::hex::proving::{opening_cells, prove_opening, published_first_player_wins};
use boardgames::games::hex::vc::{mustplay, Budget};
use boardgames::games::hex::{notation, solver};
use boardgames::games::hex::{Hex, HexKnowledge, HexMove, HexRules};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn rules(size: usize) -> HexRules {
    HexRules {
        board_size: size,
        swap: false,
    }
}

/// df-pn's verdict for the side to move, with no limit but `nodes`.
fn proof_for_mover(hex: &mut Hex, nodes: u64) -> (Verdict, Option<HexMove>) {
    let limits = ProofLimits {
        attacker: hex.side_to_move(),
        within_plies: UNLIMITED,
        max_nodes: Some(nodes),
        deadline: Deadline::default(),
    };
    let mut table = ProofTable::new(4);
    let mut knowledge = HexKnowledge::default();
    let result = prove(hex, &limits, &mut table, &mut knowledge, &mut |_| {});
    (result.verdict, result.best_move)
}

fn opening_map(size: usize) -> Vec<bool> {
    let mut table = ProofTable::new(16);
    let mut knowledge = HexKnowledge::default();
    opening_cells(size, false)
        .into_iter()
        .map(|cell| {
            let proof = prove_opening(size, cell, None, &mut table, &mut knowledge);
            proof.first_player_wins.expect("small openings are proven")
        })
        .collect()
}

#[test]
fn every_opening_up_to_4x4_agrees_with_minimax() {
    for size in 2..=4 {
        let proven = opening_map(size);
        let mut memo = HashMap::new();
        for (cell, &first_player_wins) in proven.iter().enumerate() {
            let mut hex = Hex::start_position(&rules(size));
            hex.make_move(HexMove::cell(cell));
            let white_wins = brute_force_wins(&mut hex, &mut memo);
            assert_eq!(first_player_wins, !white_wins, "{size}x{size} cell {cell}");
        }
        // The short diagonal wins on 4x4 and nothing else (a known map).
        if size == 4 {
            let wins: Vec<usize> = (0..16).filter(|&cell| proven[cell]).collect();
            assert_eq!(wins, vec![3, 6, 9, 12]);
        }
    }
}

/// A position of `size` after `plies` random moves without a winner.
fn random_position(size: usize, plies: usize, rng: &mut SmallRng) -> Option<Hex> {
    let mut hex = Hex::start_position(&rules(size));
    let mut moves = Vec::new();
    for _ in 0..plies {
        hex.generate_moves(&mut moves);
        hex.make_move(moves[rng.gen_range(0..moves.len())]);
        if hex.winner().is_some() {
            return None;
        }
    }
    Some(hex)
}

#[test]
fn random_4x4_positions_agree_with_minimax() {
    let mut rng = SmallRng::seed_from_u64(22);
    let mut memo = HashMap::new();
    let (mut wins, mut losses) = (0, 0);
    for _ in 0..300 {
        let plies = rng.gen_range(0..9);
        let Some(mut hex) = random_position(4, plies, &mut rng) else {
            continue;
        };
        let fen = hex.to_fen();
        let truth = brute_force_wins(&mut hex, &mut memo);
        let (verdict, best) = proof_for_mover(&mut hex, 1_000_000);
        match verdict {
            Verdict::Proven { .. } => {
                assert!(truth, "{fen}: proven a win that minimax refutes");
                let best = best.expect("a proof names its move");
                hex.make_move(best);
                let answers = hex.winner().is_some() || !brute_force_wins(&mut hex, &mut memo);
                hex.unmake_move(best);
                assert!(answers, "{fen}: the proof's move does not win");
                wins += 1;
            }
            Verdict::Disproven => {
                assert!(!truth, "{fen}: disproven a win that minimax finds");
                losses += 1;
            }
            Verdict::Open => panic!("{fen}: 4x4 left open"),
        }
    }
    assert!(wins > 50 && losses > 50, "{wins} wins, {losses} losses");
}

/// Random 5x5 positions: df-pn with its proof sets (a refuted move's set
/// settles the moves outside it as lost) against the exact solver, which
/// knows nothing of them. The sets must prune somewhere, or this checks
/// nothing.
#[test]
fn proof_set_pruning_on_random_5x5_positions_agrees_with_the_exact_solver() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut solver_knowledge = HexKnowledge::default();
    let (mut checked, mut set_pruned) = (0, 0);
    for _ in 0..120 {
        let plies = rng.gen_range(2..9);
        let Some(mut hex) = random_position(5, plies, &mut rng) else {
            continue;
        };
        let fen = hex.to_fen();
        let truth = solver::solve(&mut solver_knowledge, &hex).expect("5x5 is within its budget");
        let limits = ProofLimits {
            attacker: hex.side_to_move(),
            within_plies: UNLIMITED,
            max_nodes: Some(2_000_000),
            deadline: Deadline::default(),
        };
        let mut table = ProofTable::new(4);
        let mut knowledge = HexKnowledge::default();
        let result = prove(&mut hex, &limits, &mut table, &mut knowledge, &mut |_| {});
        match result.verdict {
            Verdict::Proven { .. } => assert!(truth.win, "{fen}: proven a loss"),
            Verdict::Disproven => assert!(!truth.win, "{fen}: disproven a win"),
            Verdict::Open => panic!("{fen}: 5x5 left open"),
        }
        checked += 1;
        set_pruned += result.set_pruned;
    }
    assert!(checked > 80, "{checked} positions");
    assert!(set_pruned > 0, "the proof sets never pruned");
}

#[test]
fn the_5x5_openings_agree_with_the_exact_solver() {
    let proven = opening_map(5);
    let mut knowledge = HexKnowledge::default();
    for (cell, &first_player_wins) in proven.iter().enumerate() {
        let mut hex = Hex::start_position(&rules(5));
        hex.make_move(HexMove::cell(cell));
        let white = solver::solve(&mut knowledge, &hex).expect("5x5 is within its budget");
        assert_eq!(first_player_wins, !white.win, "5x5 cell {cell}");
    }
    // The centre wins on every board; the acute corner a1 loses.
    assert!(proven[12]);
    assert!(!proven[0]);
}

/// The 6x6 openings quickest to prove, against the published map: the
/// losing border stones a1 to d1, the winning b3, d3 and its image c4.
#[test]
fn cheap_6x6_openings_agree_with_the_published_map() {
    let mut table = ProofTable::new(64);
    let mut knowledge = HexKnowledge::default();
    for name in ["a1", "b1", "c1", "d1", "b3", "d3", "c4"] {
        let cell = notation::parse_cell(6, name).expect("a 6x6 cell");
        let proof = prove_opening(6, cell, None, &mut table, &mut knowledge);
        let published = published_first_player_wins(6, cell);
        assert!(published.is_some(), "{name}");
        assert_eq!(proof.first_player_wins, published, "{name}");
    }
    assert_eq!(published_first_player_wins(6, 0), Some(false), "a1 loses");
}

#[test]
fn the_published_maps_are_whole_and_keep_the_half_turn() {
    for size in 6..=8 {
        let cells = size * size;
        for cell in 0..cells {
            let result = published_first_player_wins(size, cell);
            assert!(result.is_some(), "{size}x{size} cell {cell}");
            assert_eq!(result, published_first_player_wins(size, cells - 1 - cell));
        }
        assert_eq!(published_first_player_wins(size, cells), None);
        // The centre wins, the acute corner a1 loses.
        let centre = size / 2 * size + (size - 1) / 2;
        assert_eq!(published_first_player_wins(size, centre), Some(true));
        assert_eq!(published_first_player_wins(size, 0), Some(false));
    }
    assert_eq!(published_first_player_wins(9, 0), None);
}

/// A 4x4 position where White has must-play cells (Black's semi
/// connections), with its search root some plies earlier.
fn must_play_position() -> (Hex, Hex) {
    let hex = Hex::from_fen("xoo1/2xx/x3/2o1 w", &rules(4)).expect("valid");
    (hex, Hex::start_position(&rules(4)))
}

#[test]
fn proof_mode_narrows_to_must_play_below_the_root_and_alpha_beta_does_not() {
    let (hex, root) = must_play_position();
    let mustplay::Verdict::MustPlay(cells) = mustplay::verdict(&hex, Budget::FULL) else {
        panic!("a must-play position");
    };
    let mut knowledge = HexKnowledge::default();
    let mut moves = Vec::new();
    knowledge.prepare_search(&root, &Deadline::default());
    knowledge.search_moves(&hex, &mut moves);
    assert!(
        moves.iter().any(|mv| !cells.contains(mv.0 as usize)),
        "alpha-beta keeps H-search to its root: {moves:?}"
    );
    knowledge.prepare_proof(&root, &Deadline::default(), UNLIMITED);
    knowledge.search_moves(&hex, &mut moves);
    assert!(!moves.is_empty());
    assert!(
        moves.iter().all(|mv| cells.contains(mv.0 as usize)),
        "{moves:?}"
    );
    assert!(knowledge.proof_stats.must_play_nodes >= 1);
    // The next search is alpha-beta again.
    knowledge.prepare_search(&root, &Deadline::default());
    knowledge.search_moves(&hex, &mut moves);
    assert!(moves.iter().any(|mv| !cells.contains(mv.0 as usize)));
}

#[test]
fn proof_mode_drops_the_opening_policy() {
    let hex = Hex::start_position(&HexRules {
        board_size: 7,
        swap: true,
    });
    let mut knowledge = HexKnowledge::default();
    let mut moves = Vec::new();
    knowledge.prepare_search(&hex, &Deadline::default());
    knowledge.search_moves(&hex, &mut moves);
    // a3 and its image: a4 wins on 7x7 (published map), so it would be swapped.
    let named = |name: &str| hex.parse_move(name).expect(name);
    assert_eq!(
        moves,
        vec![named("a3"), named("g5")],
        "the policy's first stones"
    );
    knowledge.prepare_proof(&hex, &Deadline::default(), UNLIMITED);
    knowledge.search_moves(&hex, &mut moves);
    // A proof tries every first stone but the inferior ones: c1 on Black's
    // edge is dominated by c2, which captures c1 and d1.
    assert!(moves.len() > 4 && moves.len() < 49, "{moves:?}");
    assert!(moves.contains(&named("d4")) && moves.contains(&named("c2")));
    assert!(!moves.contains(&named("c1")), "{moves:?}");
}

fn deadline_in(time: Duration) -> Deadline {
    Deadline::new(
        Some(Instant::now() + time),
        Arc::new(AtomicBool::new(false)),
    )
}

#[test]
fn the_root_solver_proves_wins_and_losses_and_gives_up_in_time() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut memo = HashMap::new();
    let mut knowledge = HexKnowledge::default();
    let mut checked = 0;
    while checked < 40 {
        let Some(mut hex) = random_position(4, rng.gen_range(1..7), &mut rng) else {
            continue;
        };
        let fen = hex.to_fen();
        let truth = brute_force_wins(&mut hex, &mut memo);
        let mut nodes = 0;
        let solution = knowledge
            .solve_root(&mut hex, &deadline_in(Duration::from_secs(20)), &mut nodes)
            .expect("4x4 is proven in time");
        assert_eq!(hex.to_fen(), fen, "the position is restored");
        assert!(nodes > 0);
        assert_eq!(solution.plies > 0, truth, "{fen}");
        if truth {
            hex.make_move(solution.best_move);
            assert!(
                hex.winner().is_some() || !brute_force_wins(&mut hex, &mut memo),
                "{fen}"
            );
            hex.unmake_move(solution.best_move);
        }
        checked += 1;
    }
    // Nothing to prove where the swap is legal, and an 8x8 opening is out
    // of reach of the 50 ms the solver takes of 100.
    let mut swap = Hex::start_position(&HexRules {
        board_size: 4,
        swap: true,
    });
    swap.make_move(HexMove::cell(5));
    let deadline = deadline_in(Duration::from_secs(5));
    assert!(knowledge.solve_root(&mut swap, &deadline, &mut 0).is_none());
    let mut eight = Hex::start_position(&rules(8));
    eight.make_move(HexMove::cell(27));
    let start = Instant::now();
    let deadline = deadline_in(Duration::from_millis(100));
    let mut nodes = 0;
    assert!(knowledge
        .solve_root(&mut eight, &deadline, &mut nodes)
        .is_none());
    assert!(nodes > 0, "it tried");
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
}

/// On boards whose openings are all solved the swap follows the map, where
/// the border rule of larger boards would be wrong: on 7x7 the inner b2
/// loses (play on) and the border a4 wins (swap).
#[test]
fn the_swap_follows_the_solved_map_on_7x7() {
    let swap_rules = HexRules {
        board_size: 7,
        swap: true,
    };
    let mut knowledge = HexKnowledge::default();
    let mut moves = Vec::new();
    for (name, swapped) in [("b2", false), ("a4", true), ("d4", true), ("a1", false)] {
        let cell = notation::parse_cell(7, name).expect("a 7x7 cell");
        assert_eq!(
            published_first_player_wins(7, cell),
            Some(swapped),
            "{name}"
        );
        let mut hex = Hex::start_position(&swap_rules);
        hex.make_move(HexMove::cell(cell));
        knowledge.prepare_search(&hex, &Deadline::default());
        knowledge.search_moves(&hex, &mut moves);
        if swapped {
            assert_eq!(moves, vec![HexMove::SWAP], "{name}");
        } else {
            assert!(!moves.contains(&HexMove::SWAP), "{name}: {moves:?}");
        }
    }
}
