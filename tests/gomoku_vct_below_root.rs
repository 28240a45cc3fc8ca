//! The threat search below the search's root: it runs one ply below the
//! root (not at the root, which has its own solver, nor deeper), its wins
//! hold against every defence, and its nodes reach the search's count. It
//! runs only in searches with a time limit.

use boardgames::core::{Deadline, Game, Knowledge, KnowledgeSettings, Player};
use boardgames::games::gomoku::{Gomoku, GomokuKnowledge, GomokuRules, GomokuSettings, Move};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
mod common;

use common::gomoku::{random_game, win_holds};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn game_from(moves: &[&str]) -> Gomoku {
    let mut game = Gomoku::start_position(&GomokuRules::default());
    for name in moves {
        play(&mut game, name);
    }
    game
}

fn play(game: &mut Gomoku, name: &str) {
    let mv = game.parse_move(name).expect("test move");
    game.make_move(mv);
}

/// A knowledge with the threat search below the root switched on
/// (`VctBelowRoot`, off by default; every test of this file wants it on).
fn threat_searching() -> GomokuKnowledge {
    GomokuKnowledge::new(&GomokuSettings {
        vct_below_root: true,
        ..GomokuSettings::default()
    })
}

/// A search's deadline far enough away that no test reaches it.
fn timed() -> Deadline {
    let later = Instant::now() + Duration::from_secs(600);
    Deadline::new(Some(later), Arc::new(AtomicBool::new(false)))
}

fn vct(knowledge: &mut GomokuKnowledge, game: &mut Gomoku) -> Option<(Move, i32)> {
    knowledge.find_vct(game, 1_000_000, &Deadline::default())
}

/// Black f8-g8 and h9-h10, White to move at the root: unless White spoils
/// h8, Black's h8 makes two open threes, a win by threats but not by fours.
const ROOT_BEFORE_THE_DOUBLE_THREE: [&str; 7] = ["f8", "a1", "g8", "a15", "h10", "o1", "h9"];

#[test]
fn a_root_move_that_allows_a_threat_win_is_proven_lost() {
    let mut game = game_from(&ROOT_BEFORE_THE_DOUBLE_THREE);
    let mut knowledge = threat_searching();
    knowledge.prepare_search(&game, &timed());
    knowledge.take_prover_nodes();
    play(&mut game, "o15");
    let by_fours = threat_searching().find_vcf(&mut game, 100_000);
    assert_eq!(by_fours, None);
    let plies = knowledge
        .forced_result(&mut game)
        .expect("the threat win is found");
    assert!(plies > 0, "Black, to move, wins: {plies}");
    assert!(knowledge.take_prover_nodes() > 0);
    let turns = (plies as u32).div_ceil(2);
    assert!(win_holds(&mut game, &mut knowledge, Player::P1, turns, vct));
}

#[test]
fn a_root_move_that_spoils_the_threat_is_not_proven_lost() {
    let mut game = game_from(&ROOT_BEFORE_THE_DOUBLE_THREE);
    let mut knowledge = threat_searching();
    knowledge.prepare_search(&game, &timed());
    play(&mut game, "h8");
    assert_eq!(knowledge.forced_result(&mut game), None);
}

#[test]
fn the_threat_search_runs_neither_at_the_root_nor_two_plies_below() {
    let mut at_root = game_from(&ROOT_BEFORE_THE_DOUBLE_THREE);
    play(&mut at_root, "o15");
    let mut knowledge = threat_searching();
    knowledge.prepare_search(&at_root, &timed());
    assert_eq!(knowledge.forced_result(&mut at_root), None);

    let mut two_below = game_from(&ROOT_BEFORE_THE_DOUBLE_THREE[..6]);
    knowledge.prepare_search(&two_below, &timed());
    for name in ["h9", "o15"] {
        play(&mut two_below, name);
    }
    assert_eq!(knowledge.forced_result(&mut two_below), None);
    // The same position, one ply below its root, is proven.
    let mut one_below = game_from(&ROOT_BEFORE_THE_DOUBLE_THREE);
    knowledge.prepare_search(&one_below, &timed());
    play(&mut one_below, "o15");
    assert!(knowledge
        .forced_result(&mut one_below)
        .is_some_and(|plies| plies > 0));
}

#[test]
fn every_win_proven_one_ply_below_the_root_holds() {
    let mut rng = SmallRng::seed_from_u64(31);
    let mut proven = 0;
    for _ in 0..300 {
        if proven == 6 {
            break;
        }
        let mut root = random_game(&mut rng, 10..30);
        let mut moves = Vec::new();
        let mut knowledge = threat_searching();
        knowledge.search_moves(&root, &mut moves);
        if root.outcome().is_some() || moves.is_empty() {
            continue;
        }
        knowledge.prepare_search(&root, &timed());
        let mv = moves[rng.gen_range(0..moves.len())];
        root.make_move(mv);
        let attacker = root.side_to_move();
        let by_fours = threat_searching().find_vcf(&mut root, 1_000_000);
        if let (None, Some(plies)) = (by_fours, knowledge.forced_result(&mut root)) {
            if plies > 0 {
                let turns = (plies as u32).div_ceil(2);
                let mut prover = threat_searching();
                assert!(
                    win_holds(&mut root, &mut prover, attacker, turns, vct),
                    "{}",
                    root.to_fen()
                );
                proven += 1;
            }
        }
    }
    assert!(proven >= 2, "only {proven} threat wins in the sample");
}

#[test]
fn a_search_without_a_time_limit_runs_no_threat_search_below_its_root() {
    let mut game = game_from(&ROOT_BEFORE_THE_DOUBLE_THREE);
    let mut knowledge = threat_searching();
    knowledge.prepare_search(&game, &Deadline::default());
    play(&mut game, "o15");
    assert_eq!(knowledge.forced_result(&mut game), None);
}

#[test]
fn the_vct_below_root_option_takes_true_or_false_only() {
    let mut settings = GomokuSettings::default();
    assert_eq!(settings.set_option("VctBelowRoot", "true"), Ok(true));
    assert!(settings.vct_below_root);
    let refused = settings.set_option("VctBelowRoot", "maybe");
    assert!(refused.is_err_and(|message| message.contains("true or false")));
    assert!(settings.vct_below_root, "a refused value changes nothing");
    let listed = GomokuSettings::option_specs();
    assert!(listed.iter().any(|option| option.name == "VctBelowRoot"));
    // An engine option now, not a rule.
    assert!(!Gomoku::rule_options()
        .iter()
        .any(|option| option.name == "VctBelowRoot"));
}
