//! Search knowledge: forced-move generation, VCF and VCT proofs played out
//! against every defence, and results the game proves without search.

use boardgames::core::search::AlphaBetaKnowledge;
use boardgames::core::{Deadline, Game, Knowledge, Player};
use boardgames::games::gomoku::pattern::{T_FIVE, T_OPEN_FOUR};
use boardgames::games::gomoku::{Gomoku, GomokuKnowledge, GomokuRules, Move};
mod common;

use common::gomoku::{random_game, win_holds};
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn game_from(moves: &[&str]) -> Gomoku {
    let mut game = Gomoku::start_position(&GomokuRules::default());
    for name in moves {
        let mv = game.parse_move(name).expect("test move");
        game.make_move(mv);
    }
    game
}

fn fen(text: &str) -> Gomoku {
    Gomoku::from_fen(text, &GomokuRules::default()).expect("test position")
}

fn vcf(knowledge: &mut GomokuKnowledge, game: &mut Gomoku) -> Option<(Move, i32)> {
    knowledge.find_vcf(game, 1_000_000)
}

fn vct(knowledge: &mut GomokuKnowledge, game: &mut Gomoku) -> Option<(Move, i32)> {
    knowledge.find_vct(game, 1_000_000, &Deadline::default())
}

fn vcf_holds(
    game: &mut Gomoku,
    knowledge: &mut GomokuKnowledge,
    attacker: Player,
    fours: u32,
) -> bool {
    win_holds(game, knowledge, attacker, fours + 1, vcf)
}

/// The VCT holds, and the attacker's five comes within the `plies` its
/// first search claimed.
fn vct_holds(
    game: &mut Gomoku,
    knowledge: &mut GomokuKnowledge,
    attacker: Player,
    plies: i32,
) -> bool {
    win_holds(game, knowledge, attacker, (plies as u32).div_ceil(2), vct)
}

/// Black: three on row 5 and on row 8, each closed on the left, and two on
/// column h below a White stone. h8 is a four that also makes h6-h7-h8, so
/// after the forced i8, h5 makes two fours at once.
const TWO_STEP_VCF: &str = "15/15/15/15/15/15/7o7/3oxxx8/7x7/7x7/3oxxx8/15/15/15/15 x";

#[test]
fn a_hand_built_vcf_is_found_and_holds_against_every_defence() {
    let mut game = fen(TWO_STEP_VCF);
    let mut knowledge = GomokuKnowledge::default();
    let (first, plies) = knowledge
        .find_vcf(&mut game, 10_000)
        .expect("the VCF is found");
    assert!(plies >= 5 && plies % 2 == 1, "plies {plies}");
    assert!(game.board().threat(0, first as usize) >= boardgames::games::gomoku::pattern::T_FOUR);
    assert!(vcf_holds(&mut game, &mut knowledge, Player::P1, 10));
    assert_eq!(knowledge.forced_result(&mut game), Some(plies));
    // White to move in the same position has no fours at all.
    let mut white = fen(&TWO_STEP_VCF.replace(" x", " o"));
    assert_eq!(
        GomokuKnowledge::default().find_vcf(&mut white, 10_000),
        None
    );
}

#[test]
fn no_vcf_when_the_fours_run_out() {
    // One closed three: either four is blocked and nothing follows.
    let mut game = fen("15/15/15/15/15/15/15/3oxxx8/15/15/15/15/15/15/15 x");
    let mut knowledge = GomokuKnowledge::default();
    assert_eq!(knowledge.find_vcf(&mut game, 100_000), None);
    assert_eq!(knowledge.forced_result(&mut game), None);
    // Without h6 there is still a win, through the diagonal f5-g6-h7-i8.
    let mut game = fen("15/15/15/15/15/15/7o7/3oxxx8/7x7/15/3oxxx8/15/15/15/15 x");
    let mut knowledge = GomokuKnowledge::default();
    assert!(knowledge.find_vcf(&mut game, 100_000).is_some());
    assert!(vcf_holds(&mut game, &mut knowledge, Player::P1, 10));
}

#[test]
fn vcfs_found_in_random_games_hold() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut proven = 0;
    for _ in 0..60 {
        let mut game = random_game(&mut rng, 12..40);
        if game.outcome().is_some() {
            continue;
        }
        let mut knowledge = GomokuKnowledge::default();
        if let Some((_, plies)) = knowledge.find_vcf(&mut game, 20_000) {
            if plies >= 5 {
                let attacker = game.side_to_move();
                assert!(
                    vcf_holds(&mut game, &mut knowledge, attacker, 30),
                    "{}",
                    game.to_fen()
                );
                proven += 1;
            }
        }
    }
    assert!(proven >= 3, "only {proven} multi-step VCFs in the sample");
}

#[test]
fn a_double_three_is_a_threat_win_the_fours_alone_miss() {
    // Black f8-g8 and h9-h10: h8 makes two open threes; White can stop one.
    let mut game = game_from(&["f8", "a1", "g8", "a15", "h10", "o1", "h9", "o15"]);
    let mut knowledge = GomokuKnowledge::default();
    assert_eq!(knowledge.find_vcf(&mut game, 100_000), None);
    let (first, plies) = knowledge
        .find_vct(&mut game, 100_000, &Deadline::default())
        .expect("the VCT is found");
    assert_eq!(game.format_move(first), "h8");
    assert_eq!(plies, 5);
    assert!(vct_holds(&mut game, &mut knowledge, Player::P1, plies));
    // White, to move instead, has nothing to threaten with.
    let mut white = fen(&game.to_fen().replace(" x", " o"));
    assert_eq!(
        GomokuKnowledge::default().find_vct(&mut white, 100_000, &Deadline::default()),
        None
    );
}

#[test]
fn threat_wins_found_in_random_games_hold() {
    let mut rng = SmallRng::seed_from_u64(29);
    let mut proven = 0;
    for _ in 0..80 {
        if proven == 6 {
            break;
        }
        let mut game = random_game(&mut rng, 12..40);
        let mut knowledge = GomokuKnowledge::default();
        if game.outcome().is_some() || knowledge.find_vcf(&mut game, 20_000).is_some() {
            continue;
        }
        if let Some((_, plies)) = knowledge.find_vct(&mut game, 20_000, &Deadline::default()) {
            if plies <= 7 {
                let attacker = game.side_to_move();
                assert!(
                    vct_holds(&mut game, &mut knowledge, attacker, plies),
                    "{}",
                    game.to_fen()
                );
                proven += 1;
            }
        }
    }
    assert_eq!(proven, 6, "too few short VCTs in the sample");
}

#[test]
fn forced_results_without_search() {
    // Black to move with four in a row open: five next.
    let mut game = fen("15/15/15/15/15/15/15/3xxxx8/15/15/3ooo9/15/15/15/15 x");
    assert_eq!(GomokuKnowledge::default().forced_result(&mut game), Some(1));
    // White to move facing that open four: lost in two plies.
    let mut game = fen("15/15/15/15/15/15/15/3xxxx8/15/15/3ooo9/o14/15/15/15 o");
    assert_eq!(
        GomokuKnowledge::default().forced_result(&mut game),
        Some(-2)
    );
    // Black to move with an open three and White without fours: open four.
    let mut game = fen("15/15/15/15/15/15/15/4xxx8/15/15/3oo10/15/15/15/15 x");
    assert_eq!(GomokuKnowledge::default().forced_result(&mut game), Some(3));
}

#[test]
fn only_blocks_against_a_four() {
    // White has four on row 4 closed on the left; Black must take e4... f4.
    let game = fen("15/15/15/15/15/15/15/7x7/7x7/15/15/xoooo10/15/15/15 x");
    let mut moves = Vec::new();
    GomokuKnowledge::default().search_moves(&game, &mut moves);
    let names: Vec<String> = moves.iter().map(|&m| game.format_move(m)).collect();
    assert_eq!(names, ["f4"]);
}

#[test]
fn against_an_open_three_only_defences_or_fours() {
    // White: open three g7-h7-i7. Black: a blocked three on column c, so
    // Black has fours to play as well.
    let mut game = fen("15/15/15/15/15/15/2x12/2x3x8/2x3ooo6/2o12/15/15/15/15/15 x");
    let me = 0;
    let them = 1;
    assert!(game.board().threat_count(them, T_OPEN_FOUR) > 0);
    let mut kept = Vec::new();
    GomokuKnowledge::default().search_moves(&game, &mut kept);
    assert!(!kept.is_empty());
    let mut all = Vec::new();
    game.generate_moves(&mut all);
    let mut fours = 0;
    for mv in all {
        let is_four =
            game.board().threat(me, mv as usize) >= boardgames::games::gomoku::pattern::T_FOUR;
        game.make_move(mv);
        let defends = game.board().threat_count(them, T_OPEN_FOUR) == 0
            && game.board().threat_count(them, T_FIVE) == 0;
        game.unmake_move(mv);
        fours += is_four as usize;
        let should_keep = is_four || defends;
        assert_eq!(
            kept.contains(&(mv as Move)),
            should_keep,
            "{}",
            game.format_move(mv)
        );
    }
    assert!(fours > 0);
}

#[test]
fn noisy_moves_are_fours_or_blocks() {
    let game = fen(TWO_STEP_VCF);
    let mut noisy = Vec::new();
    GomokuKnowledge::default().noisy_moves(&game, &mut noisy);
    let mut names: Vec<String> = noisy.iter().map(|&m| game.format_move(m)).collect();
    names.sort();
    assert_eq!(names, ["h5", "h8", "i5", "i8"]);
}
