//! The seam between the engine and a game's knowledge: options reach the
//! knowledge through the engine that made it (so two engines in one
//! process can differ), and an engine offers only the searches its
//! knowledge implements.

use boardgames::core::search::AlphaBetaKnowledge;
use boardgames::core::{Game, Knowledge, OptionKind, Score};
use boardgames::engine::{
    Engine, EngineProfile, Profile, SearchLimits, SearchMethod, SearchMethods,
};
use boardgames::games::breakthrough::Breakthrough;
use boardgames::games::gomoku::{Gomoku, GomokuKnowledge};
use boardgames::games::hex::{Hex, HexKnowledge};

fn hex_engine(evaluation: &str) -> Engine<Hex, HexKnowledge> {
    let mut engine = Engine::new();
    for (name, value) in [
        ("Swap", "false"),
        ("BoardSize", "7"),
        ("SearchMethod", "alphabeta"),
        ("Evaluation", evaluation),
    ] {
        engine.set_option(name, value).expect("a valid option");
    }
    engine
        .set_position(None, &["d4", "c5"])
        .expect("legal moves");
    engine
}

fn search_to_depth<G: Game, K: EngineProfile<G>>(
    engine: &mut Engine<G, K>,
    depth: u32,
) -> (Score, u64) {
    let limits = SearchLimits {
        depth: Some(depth),
        ..Default::default()
    };
    // From empty tables, so that a search repeats exactly.
    engine.new_game();
    let result = engine.start_search(limits, Box::new(|_| {})).wait();
    (result.score, result.nodes)
}

#[test]
fn two_engines_in_one_process_keep_their_own_evaluation() {
    let mut two_distance = hex_engine("twodistance");
    let mut resistance = hex_engine("resistance");
    // Set after the other engine's option: a process-wide setting would
    // have changed both.
    let (_, two_distance_total) = two_distance.evaluation();
    let (terms, resistance_total) = resistance.evaluation();
    assert_ne!(two_distance_total, resistance_total);
    assert!(terms.iter().any(|term| term.name.contains("resistance")));
    let first = search_to_depth(&mut two_distance, 3);
    let second = search_to_depth(&mut resistance, 3);
    assert_ne!(first, second, "the same search under two evaluations");
    // Each engine searches the same way again, whatever the other did.
    assert_eq!(search_to_depth(&mut two_distance, 3), first);
    assert_eq!(search_to_depth(&mut resistance, 3), second);
}

#[test]
fn a_knowledge_option_keeps_the_position_and_a_bad_value_changes_nothing() {
    let mut engine = hex_engine("twodistance");
    let before = engine.evaluation().1;
    assert!(engine.set_option("Evaluation", "voltage").is_err());
    assert_eq!(engine.evaluation().1, before);
    engine
        .set_option("Evaluation", "resistance")
        .expect("a valid choice");
    assert_eq!(engine.history().len(), 2, "the game goes on");
    assert_ne!(engine.evaluation().1, before);
}

#[test]
fn gomoku_engines_hold_their_own_threat_switches() {
    let mut on = Engine::<Gomoku, GomokuKnowledge>::new();
    let off = Engine::<Gomoku, GomokuKnowledge>::new();
    on.set_option("VctBelowRoot", "true").expect("a check");
    assert!(on.knowledge_settings().vct_below_root);
    assert!(!off.knowledge_settings().vct_below_root);
    assert!(on.set_option("HiddenVcfDefence", "perhaps").is_err());
    assert!(!on.knowledge_settings().hidden_vcf_defence);
}

/// A knowledge that implements alpha-beta's trait and no other search's.
struct AlphaBetaOnly;

impl Knowledge<Breakthrough> for AlphaBetaOnly {
    type Settings = ();

    fn new(_settings: &()) -> Self {
        AlphaBetaOnly
    }

    fn evaluate(&mut self, _position: &Breakthrough) -> Score {
        0
    }
}

impl AlphaBetaKnowledge<Breakthrough> for AlphaBetaOnly {}

impl EngineProfile<Breakthrough> for AlphaBetaOnly {
    fn profile() -> Profile<Breakthrough, Self> {
        Profile {
            // Asked for, but not offered: the engine falls back.
            search_method: SearchMethod::MonteCarlo,
            ..Profile::generic(SearchMethods::alpha_beta())
        }
    }
}

#[test]
fn an_engine_offers_only_the_searches_its_knowledge_implements() {
    let mut engine = Engine::<Breakthrough, AlphaBetaOnly>::new();
    let specs = engine.option_specs();
    let method = specs
        .iter()
        .find(|spec| spec.name == "SearchMethod")
        .expect("SearchMethod is listed");
    let OptionKind::Combo { default, choices } = &method.kind else {
        panic!("SearchMethod is a combo");
    };
    assert_eq!(
        (default.as_str(), choices.as_slice()),
        ("alphabeta", &["alphabeta".to_string()][..])
    );
    assert!(engine.set_option("SearchMethod", "mcts").is_err());
    assert_eq!(engine.options().search_method, SearchMethod::AlphaBeta);
    let proof = engine.start_proof(2, SearchLimits::default(), Box::new(|_| {}));
    assert!(proof.is_err_and(|e| e.contains("proof")));
    // Alpha-beta still plays.
    let limits = SearchLimits {
        depth: Some(2),
        ..Default::default()
    };
    let result = engine.start_search(limits, Box::new(|_| {})).wait();
    assert!(result.best_move.is_some());
}

#[test]
fn the_games_offer_what_they_offered_before_the_seam() {
    let hex = Engine::<Hex, HexKnowledge>::new();
    assert_eq!(hex.options().search_method, SearchMethod::MonteCarlo);
    assert_eq!(hex.profile().methods.offered(), SearchMethod::ALL.to_vec());
    assert!(hex.profile().methods.proves());
    let gomoku = Engine::<Gomoku, GomokuKnowledge>::new();
    assert_eq!(gomoku.options().search_method, SearchMethod::AlphaBeta);
    assert!(gomoku.profile().methods.proves());
}
