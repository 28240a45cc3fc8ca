//! The proof-number search against exhaustive search: on positions small
//! enough to search every line, it must prove exactly the wins that exist
//! (within a number of plies or without limit, for either player), and the
//! move it names must keep the proof (or the refutation) standing.

use std::collections::HashMap;

use boardgames::core::dfpn::{prove, ProofKnowledge, ProofLimits, ProofTable, Verdict, UNLIMITED};
use boardgames::core::{Deadline, Game, Knowledge, Outcome, PlainKnowledge, Player};
use boardgames::games::breakthrough::{Breakthrough, BreakthroughKnowledge};
use boardgames::games::gomoku::Gomoku;
use boardgames::games::hex::{Hex, HexKnowledge};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Whether `attacker` can force a win within `remaining` plies, by trying
/// every line (with a memo of what it has seen, keyed with the side to
/// move: Hex gives a position and its colour-reversed mirror one key).
fn wins_within<G: Game>(
    position: &mut G,
    attacker: Player,
    remaining: u32,
    memo: &mut HashMap<(u64, Player, u32), bool>,
) -> bool {
    match position.outcome() {
        Some(Outcome::Win(winner)) => return winner == attacker,
        Some(Outcome::Draw) => return false,
        None if remaining == 0 => return false,
        None => {}
    }
    if let Some(&known) = memo.get(&(position.hash(), position.side_to_move(), remaining)) {
        return known;
    }
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let attacking = position.side_to_move() == attacker;
    let mut result = !attacking;
    for mv in moves {
        position.make_move(mv);
        let wins = wins_within(position, attacker, remaining - 1, memo);
        position.unmake_move(mv);
        if wins == attacking {
            result = attacking;
            break;
        }
    }
    memo.insert(
        (position.hash(), position.side_to_move(), remaining),
        result,
    );
    result
}

fn rules<G: Game>(settings: &[(&str, &str)]) -> G::Rules {
    let mut rules = G::Rules::default();
    for (name, value) in settings {
        G::set_rule_option(&mut rules, name, value).expect("a valid rule setting");
    }
    rules
}

/// Positions a few random plies from the start, not yet finished.
fn random_positions<G: Game>(
    rules: &G::Rules,
    count: usize,
    plies: std::ops::Range<usize>,
    seed: u64,
) -> Vec<G> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    while positions.len() < count {
        let mut position = G::start_position(rules);
        for _ in 0..rng.gen_range(plies.clone()) {
            position.generate_moves(&mut moves);
            if position.outcome().is_some() || moves.is_empty() {
                break;
            }
            position.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        if position.outcome().is_none() {
            positions.push(position);
        }
    }
    positions
}

/// Checks one question (`attacker` wins within `within` plies) on one
/// position; returns whether the win exists.
fn check_question<G: Game, K: ProofKnowledge<G>>(
    position: &G,
    attacker: Player,
    within: u32,
) -> bool {
    let exhaustive_limit = within.min(200);
    let mut memo = HashMap::new();
    let mut position = position.clone();
    let fen = position.to_fen();
    let expected = wins_within(&mut position, attacker, exhaustive_limit, &mut memo);
    let limits = ProofLimits {
        attacker,
        within_plies: within,
        max_nodes: None,
        deadline: Deadline::default(),
    };
    let mut table = ProofTable::new(4);
    let result = prove(
        &mut position,
        &limits,
        &mut table,
        &mut K::new(&Default::default()),
        &mut |_| {},
    );
    assert_eq!(position.to_fen(), fen, "the position is restored");
    let best = result.best_move.expect("a move is named");
    position.make_move(best);
    match result.verdict {
        Verdict::Proven { plies } => {
            assert!(
                expected,
                "{fen}: a win within {within} proven that does not exist"
            );
            assert!(plies <= within && plies >= 1, "{fen}: {plies} plies");
            assert!(
                wins_within(&mut position, attacker, plies - 1, &mut memo),
                "{fen}: the named move does not keep the {plies}-ply win"
            );
        }
        Verdict::Disproven => {
            assert!(!expected, "{fen}: a win within {within} missed");
            if position.side_to_move() == attacker {
                assert!(
                    !wins_within(&mut position, attacker, exhaustive_limit - 1, &mut memo),
                    "{fen}: the named refutation lets the attacker win"
                );
            }
        }
        Verdict::Open => panic!("{fen}: no answer without limits"),
    }
    expected
}

/// Every question on every position: each side as attacker, within a few
/// limits; returns how many wins there were, so a caller can see that both
/// answers were exercised.
fn check_positions<G: Game, K: ProofKnowledge<G>>(positions: &[G], limits: &[u32]) -> usize {
    let mut wins = 0;
    for position in positions {
        for attacker in [Player::P1, Player::P2] {
            for &within in limits {
                wins += usize::from(check_question::<G, K>(position, attacker, within));
            }
        }
    }
    wins
}

/// Checks every question on `positions` with the game's knowledge and with
/// none, which must agree; the wins must be neither rare nor nearly all, so
/// that both answers are exercised.
fn check_with_and_without_knowledge<G: Game, K: ProofKnowledge<G>>(
    positions: &[G],
    limits: &[u32],
    label: &str,
) {
    let questions = positions.len() * 2 * limits.len();
    let wins = check_positions::<G, K>(positions, limits);
    assert!(
        wins > questions / 10 && wins < questions * 9 / 10,
        "{label}: {wins} of {questions}"
    );
    assert_eq!(
        wins,
        check_positions::<G, PlainKnowledge<G>>(positions, limits),
        "{label}"
    );
}

#[test]
fn breakthrough_proofs_agree_with_exhaustive_search() {
    for (settings, seed) in [
        ([("Rows", "4"), ("Columns", "3")], 1),
        ([("Rows", "5"), ("Columns", "3")], 2),
    ] {
        let positions =
            random_positions::<Breakthrough>(&rules::<Breakthrough>(&settings), 25, 0..8, seed);
        let label = format!("{settings:?}");
        check_with_and_without_knowledge::<Breakthrough, BreakthroughKnowledge>(
            &positions,
            &[UNLIMITED, 3, 5, 8],
            &label,
        );
    }
}

#[test]
fn hex_proofs_agree_with_exhaustive_search() {
    for (settings, seed, plies) in [
        ([("BoardSize", "3"), ("Swap", "true")], 3, 0..4),
        ([("BoardSize", "4"), ("Swap", "false")], 4, 5..9),
    ] {
        let positions = random_positions::<Hex>(&rules::<Hex>(&settings), 20, plies, seed);
        let label = format!("{settings:?}");
        check_with_and_without_knowledge::<Hex, HexKnowledge>(
            &positions,
            &[UNLIMITED, 3, 6],
            &label,
        );
    }
}

/// Gomoku on a 5x5 board, near its end: many games are draws, which the
/// attacker's proof must count as failures for either side.
#[test]
fn gomoku_proofs_agree_with_exhaustive_search_where_draws_abound() {
    let settings = [("BoardSize", "5")];
    let positions = random_positions::<Gomoku>(&rules::<Gomoku>(&settings), 30, 15..18, 5);
    let limits = [UNLIMITED, 3, 5];
    let questions = positions.len() * 2 * limits.len();
    let wins = check_positions::<Gomoku, PlainKnowledge<Gomoku>>(&positions, &limits);
    let mut draws = 0;
    for position in &positions {
        let mut memo = HashMap::new();
        let mut position = position.clone();
        let p1 = wins_within(&mut position, Player::P1, 200, &mut memo);
        let p2 = wins_within(&mut position, Player::P2, 200, &mut memo);
        draws += usize::from(!p1 && !p2);
    }
    assert!(wins > 0 && wins < questions, "{wins} wins of {questions}");
    assert!(
        draws > positions.len() / 10,
        "{draws} drawn of {}",
        positions.len()
    );
}

/// Breakthrough's static results (wins in one and three plies, intruders,
/// runners) claim exact distances: every one the knowledge gives on random
/// positions, short enough to search, must be the shortest forced result.
#[test]
fn breakthrough_static_results_are_the_shortest_forced_results() {
    let mut checked = 0;
    for (rows, columns, plies) in [("6", "5", 6..30), ("5", "5", 4..20), ("8", "8", 20..60)] {
        let rules = rules::<Breakthrough>(&[("Rows", rows), ("Columns", columns)]);
        let short = if rows == "8" { 3 } else { 5 };
        for mut position in random_positions::<Breakthrough>(&rules, 1500, plies, 77) {
            let Some(plies) = BreakthroughKnowledge::default().forced_result(&mut position) else {
                continue;
            };
            let length = plies.unsigned_abs();
            if length > short {
                continue;
            }
            let mover = position.side_to_move();
            let winner = if plies > 0 { mover } else { mover.other() };
            let fen = position.to_fen();
            let mut memo = HashMap::new();
            assert!(
                wins_within(&mut position, winner, length, &mut memo),
                "{fen}: no forced win in {length} plies"
            );
            assert!(
                length < 2 || !wins_within(&mut position, winner, length - 2, &mut memo),
                "{fen}: a win faster than {length} plies"
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} static results checked");
}

/// Where Breakthrough's knowledge keeps moves out of the search, either a
/// kept move wins at once or every move kept out loses within four plies
/// (an intruder left standing, or a safe step allowed), so the kept ones
/// are never worse.
#[test]
fn breakthrough_moves_kept_out_of_the_search_lose_quickly() {
    let mut pruned = 0;
    for (rows, columns, plies) in [("6", "5", 6..30), ("8", "8", 20..60)] {
        let rules = rules::<Breakthrough>(&[("Rows", rows), ("Columns", columns)]);
        for mut position in random_positions::<Breakthrough>(&rules, 800, plies, 78) {
            let (mut all, mut kept) = (Vec::new(), Vec::new());
            position.generate_moves(&mut all);
            BreakthroughKnowledge::default().search_moves(&position, &mut kept);
            if BreakthroughKnowledge::default().forced_result(&mut position) == Some(1) {
                continue;
            }
            let winner = position.side_to_move().other();
            for mv in all.into_iter().filter(|mv| !kept.contains(mv)) {
                let fen = position.to_fen();
                position.make_move(mv);
                assert!(
                    wins_within(&mut position, winner, 3, &mut HashMap::new()),
                    "{fen}: a move kept out does not lose within four plies"
                );
                position.unmake_move(mv);
                pruned += 1;
            }
        }
    }
    assert!(pruned > 100, "only {pruned} moves kept out");
}
