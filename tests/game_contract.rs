//! The one conformance check of the `Game` contract, run for every game
//! under several of its rule settings (see `core::contract`).

use boardgames::core::contract::check_game_contract;
use boardgames::core::Game;
use boardgames::games::breakthrough::Breakthrough;
use boardgames::games::cavalo::Cavalo;
use boardgames::games::gomoku::Gomoku;
use boardgames::games::hex::Hex;
use boardgames::registry::{GameEntry, GameList, GameVisitor, ProjectGames};

/// The rules after the given `setoption` settings.
fn rules<G: Game>(settings: &[(&str, &str)]) -> G::Rules {
    let mut rules = G::Rules::default();
    for (name, value) in settings {
        G::set_rule_option(&mut rules, name, value)
            .unwrap_or_else(|e| panic!("{} option {name}={value}: {e}", G::NAME));
    }
    rules
}

/// Checks each rule setting on a few random games (played to the end or
/// `max_plies`) and that the check really visited positions.
fn check<G: Game>(settings: &[&[(&str, &str)]], games: usize, max_plies: usize) {
    for (index, setting) in settings.iter().enumerate() {
        let checked =
            check_game_contract::<G>(&rules::<G>(setting), games, max_plies, index as u64);
        assert!(
            checked > games,
            "{} {setting:?}: {checked} positions",
            G::NAME
        );
    }
}

/// Checks a listed game under its default rules, returning how many
/// positions were checked.
#[derive(Clone, Copy)]
struct DefaultRules;

impl GameVisitor for DefaultRules {
    type Output = (&'static str, usize);
    fn visit<E: GameEntry>(self) -> Self::Output {
        let checked = check_game_contract::<E::Rules>(&Default::default(), 2, 200, 0);
        (<E::Rules as Game>::NAME, checked)
    }
}

/// A game joins the list before it has settings of its own below; it is
/// checked from then on.
#[test]
fn every_listed_game_keeps_the_game_contract_under_its_default_rules() {
    let checked = ProjectGames::each(DefaultRules);
    assert_eq!(checked.len(), ProjectGames::names().len());
    for (name, positions) in checked {
        assert!(positions > 2, "{name}: {positions} positions");
    }
}

#[test]
fn breakthrough_keeps_the_game_contract() {
    check::<Breakthrough>(
        &[
            &[],
            &[("Rows", "5"), ("Columns", "5")],
            &[("Rows", "6"), ("Columns", "5")],
            &[("Rows", "4"), ("Columns", "2")],
        ],
        8,
        400,
    );
}

#[test]
fn hex_keeps_the_game_contract() {
    check::<Hex>(
        &[
            &[],
            &[("BoardSize", "1")],
            &[("BoardSize", "2")],
            &[("BoardSize", "4"), ("Swap", "false")],
            &[("BoardSize", "7")],
            &[("BoardSize", "13"), ("Swap", "false")],
        ],
        4,
        400,
    );
}

#[test]
fn gomoku_keeps_the_game_contract() {
    check::<Gomoku>(
        &[
            &[],
            &[("Rule", "standard")],
            &[("BoardSize", "7"), ("Rule", "standard")],
            &[("Rule", "renju")],
            &[("BoardSize", "9"), ("Rule", "renju")],
        ],
        3,
        400,
    );
}

#[test]
fn cavalo_keeps_the_game_contract() {
    check::<Cavalo>(
        &[
            &[],
            &[("Placement", "choose"), ("BoardSeed", "7")],
            &[
                ("AttackRule", "false"),
                ("SingleDigitSymmetric", "false"),
                ("FirstMover", "black"),
                ("BoardSeed", "123"),
            ],
        ],
        8,
        400,
    );
}
