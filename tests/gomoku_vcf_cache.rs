//! The VCF solver's table of answers and the search's count of the VCF
//! nodes: an answer read back from the table is the one a fresh solver
//! gives and still wins when played out, and a node-limited search stops
//! near its limit with the VCF probes' nodes counted.

use boardgames::core::control::{SearchControl, SearchSignals};
use boardgames::core::search::{search, SearchTables};
use boardgames::core::{Game, Player, Presentation};
use boardgames::games::gomoku::{Gomoku, GomokuKnowledge, GomokuRules, Move};
mod common;

use common::gomoku::{random_game, win_holds};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Large enough that no probe of these positions runs out of budget, so
/// that a fresh solver's answer does not depend on what it met before.
const BUDGET: u32 = 1_000_000;

/// Plays the attacker's VCF as the solver answers it at each of its turns
/// (from its table when it has met the position) against every legal
/// defence: true when every line ends in the attacker's five within
/// `turns` attacking moves.
fn vcf_wins(
    game: &mut Gomoku,
    knowledge: &mut GomokuKnowledge,
    attacker: Player,
    turns: u32,
) -> bool {
    win_holds(game, knowledge, attacker, turns, |knowledge, game| {
        knowledge.find_vcf(game, BUDGET)
    })
}

#[test]
fn answers_from_the_table_equal_a_fresh_search_and_win() {
    let mut rng = SmallRng::seed_from_u64(23);
    // One solver for every position: its table fills as it goes.
    let mut cached = GomokuKnowledge::default();
    let mut wins = 0;
    for _ in 0..80 {
        let mut game = random_game(&mut rng, 12..40);
        if game.outcome().is_some() {
            continue;
        }
        let first = cached.find_vcf(&mut game, BUDGET);
        let answered_before = cached.vcf_stats().answered;
        let again = cached.find_vcf(&mut game, BUDGET);
        assert_eq!(cached.vcf_stats().answered, answered_before + 1);
        assert_eq!(again, first, "{}", game.to_fen());
        let fresh = GomokuKnowledge::default().find_vcf(&mut game, BUDGET);
        assert_eq!(again, fresh, "{}", game.to_fen());
        if let Some((_, plies)) = again {
            let attacker = game.side_to_move();
            let turns = (plies as u32).div_ceil(2);
            assert!(
                vcf_wins(&mut game, &mut cached, attacker, turns),
                "{}",
                game.to_fen()
            );
            wins += 1;
        }
    }
    assert!(wins >= 5, "only {wins} VCFs in the sample");
}

#[test]
fn a_smaller_budget_reuses_a_failure_a_larger_one_searches_again() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut knowledge = GomokuKnowledge::default();
    let mut checked = 0;
    for _ in 0..40 {
        let mut game = random_game(&mut rng, 12..40);
        if game.outcome().is_some() || knowledge.find_vcf(&mut game, 50).is_some() {
            continue;
        }
        let before = knowledge.vcf_stats();
        assert_eq!(knowledge.find_vcf(&mut game, 20), None);
        assert_eq!(knowledge.vcf_stats().answered, before.answered + 1);
        let fresh = GomokuKnowledge::default().find_vcf(&mut game, BUDGET);
        assert_eq!(knowledge.find_vcf(&mut game, BUDGET), fresh);
        assert_eq!(knowledge.vcf_stats().answered, before.answered + 1);
        checked += 1;
    }
    assert!(
        checked >= 10,
        "only {checked} positions without a short VCF"
    );
}

#[test]
fn a_node_limited_search_counts_the_vcf_nodes_and_stops_near_its_limit() {
    const LIMIT: u64 = 30_000;
    // A probe is never interrupted: one near the root may visit 1000 nodes.
    const OVERSHOOT: u64 = 2_000;
    let mut probed = 0;
    for text in Gomoku::bench_positions() {
        let game = Gomoku::from_fen(text, &GomokuRules::default()).expect("bench position");
        let mut tables = SearchTables::<Gomoku>::new(16);
        let mut knowledge = [GomokuKnowledge::default()];
        let control = SearchControl {
            max_nodes: Some(LIMIT),
            ..SearchControl::default()
        };
        let result = search(
            game,
            &mut knowledge,
            &mut tables,
            &SearchSignals::default(),
            control,
            &[],
            &mut |_| {},
        );
        let knowledge = &knowledge[0];
        let vcf_nodes = knowledge.vcf_stats().nodes + knowledge.vct_nodes();
        assert!(result.best_move.is_some(), "{text}");
        probed += u32::from(vcf_nodes > 0);
        assert!(
            vcf_nodes <= result.nodes,
            "{text}: {vcf_nodes} VCF nodes of {} counted",
            result.nodes
        );
        assert!(
            result.nodes <= LIMIT + OVERSHOOT,
            "{text}: {} nodes",
            result.nodes
        );
    }
    assert!(probed >= 3, "VCF probes in only {probed} searches");
}

/// The moves each side may make are what the probes read; a sanity check
/// that the table does not hand one side's answer to the other.
#[test]
fn the_two_sides_of_one_board_get_their_own_answers() {
    let black = "15/15/15/15/15/15/7o7/3oxxx8/7x7/7x7/3oxxx8/15/15/15/15 x";
    let mut knowledge = GomokuKnowledge::default();
    let mut game = Gomoku::from_fen(black, &GomokuRules::default()).expect("position");
    assert!(knowledge.find_vcf(&mut game, 10_000).is_some());
    let mut white =
        Gomoku::from_fen(&black.replace(" x", " o"), &GomokuRules::default()).expect("position");
    assert_eq!(knowledge.find_vcf(&mut white, 10_000), None::<(Move, i32)>);
}
