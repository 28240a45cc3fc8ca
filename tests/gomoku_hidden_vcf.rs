//! The defence against a hidden VCF: where the opponent could win by fours
//! if it were to move, the search keeps only the moves that may break that
//! win; every move it leaves out must lose to a VCF.

use boardgames::core::{Deadline, Game, Knowledge, KnowledgeSettings, OptionKind};
use boardgames::games::gomoku::{Gomoku, GomokuKnowledge, GomokuSettings, Move};
mod common;

use common::gomoku::random_game;
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Large enough that the checking solver does not run out of budget where
/// the search's budgeted probe found a win.
const CHECK_BUDGET: u32 = 200_000;

/// The moves a search would try here, and those outside one (no restriction).
fn restricted_and_plain(game: &Gomoku) -> (Vec<Move>, Vec<Move>) {
    let mut searching = GomokuKnowledge::new(&GomokuSettings {
        hidden_vcf_defence: true,
        ..GomokuSettings::default()
    });
    searching.prepare_search(game, &Deadline::default());
    let mut restricted = Vec::new();
    searching.search_moves(game, &mut restricted);
    let mut plain = Vec::new();
    GomokuKnowledge::default().search_moves(game, &mut plain);
    (restricted, plain)
}

#[test]
fn every_move_left_out_loses_to_a_vcf() {
    // Off by default (it did not win in self-play): on in this search.
    let mut rng = SmallRng::seed_from_u64(2323);
    let mut restricted_positions = 0;
    let mut left_out = 0;
    for _ in 0..400 {
        let mut game = random_game(&mut rng, 8..40);
        if game.outcome().is_some() {
            continue;
        }
        let (restricted, plain) = restricted_and_plain(&game);
        assert!(!restricted.is_empty(), "{}", game.to_fen());
        assert!(
            restricted.iter().all(|mv| plain.contains(mv)),
            "{}",
            game.to_fen()
        );
        if restricted.len() == plain.len() {
            continue;
        }
        restricted_positions += 1;
        let mut checker = GomokuKnowledge::default();
        for &mv in plain.iter().filter(|mv| !restricted.contains(mv)) {
            game.make_move(mv);
            let loses =
                game.outcome().is_none() && checker.find_vcf(&mut game, CHECK_BUDGET).is_some();
            game.unmake_move(mv);
            assert!(
                loses,
                "{} left out of {} but holds",
                game.format_move(mv),
                game.to_fen()
            );
            left_out += 1;
        }
    }
    assert!(
        restricted_positions >= 20,
        "only {restricted_positions} positions with a hidden VCF"
    );
    eprintln!("{restricted_positions} positions restricted, {left_out} moves left out");
}

#[test]
fn the_option_is_listed_off_and_takes_only_true_or_false() {
    let listed = GomokuSettings::option_specs();
    let option = listed
        .iter()
        .find(|option| option.name == "HiddenVcfDefence")
        .expect("HiddenVcfDefence is listed");
    assert!(matches!(option.kind, OptionKind::Check { default: false }));
    let mut settings = GomokuSettings::default();
    assert!(!settings.hidden_vcf_defence);
    assert_eq!(settings.set_option("hiddenvcfdefence", "TRUE"), Ok(true));
    assert!(settings.hidden_vcf_defence);
    let refused = settings.set_option("HiddenVcfDefence", "maybe");
    assert!(refused.is_err_and(|message| message.contains("true or false")));
    assert!(
        settings.hidden_vcf_defence,
        "a refused value changes nothing"
    );
    assert_eq!(settings.set_option("Rule", "renju"), Ok(false));
}
