//! "Adding a game" end to end: the toy pile of `core::contract::toy` joins
//! the project's list with one line, and the referee's library entry plays
//! a match of it between two engines. The engines are this test binary
//! itself, started again in its engine role (the test has no harness, so
//! its `main` can be an engine's).

use std::path::PathBuf;

use boardgames::core::contract::toy::Pile;
use boardgames::core::{PlainKnowledge, Player};
use boardgames::referee::adjudication::Termination;
use boardgames::referee::record::{parse_json_lines, GameRecord};
use boardgames::registry::{Entry, GameList, ProjectGames, With};

/// The project's games and the pile.
type WithPile = With<Entry<Pile, PlainKnowledge<Pile>>, ProjectGames>;

/// Set in the environment of the engines the referee starts.
const ENGINE_ROLE: &str = "REGISTRY_TOY_GAME_ENGINE";

const GAMES: usize = 4;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--watchdog") {
        // The referee's watchdog is its own executable restarted: this one.
        std::process::exit(boardgames::referee::main_with::<WithPile>(&args));
    }
    if std::env::var_os(ENGINE_ROLE).is_some() {
        boardgames::protocol::run_engine_main::<Pile, PlainKnowledge<Pile>>();
        return;
    }
    // Set before any engine starts, and inherited by every one.
    std::env::set_var(ENGINE_ROLE, "1");
    the_project_list_alone_has_no_pile();
    a_match_of_the_listed_pile_is_played_to_perfect_results();
    println!("registry_toy_game: 2 tests passed");
}

fn match_args(records: &str) -> Vec<String> {
    let exe = std::env::current_exe().expect("the test binary's path");
    let engine = |name: &str| {
        vec![
            "--engine".to_owned(),
            format!("cmd={}", exe.display()),
            format!("name={name}"),
            "depth=12".to_owned(),
        ]
    };
    let mut args: Vec<String> = ["--game", "pile", "--games", &GAMES.to_string()]
        .map(str::to_owned)
        .to_vec();
    args.extend(engine("first"));
    args.extend(engine("second"));
    args.extend([
        "--records".to_owned(),
        records.to_owned(),
        "--quiet".to_owned(),
    ]);
    args
}

fn records_path() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    dir.join(format!("registry-toy-game-{}.jsonl", std::process::id()))
}

fn the_project_list_alone_has_no_pile() {
    assert!(!ProjectGames::names().contains(&"pile"));
    assert_eq!(WithPile::names()[0], "pile");
    let path = records_path();
    eprintln!("registry_toy_game: the referee's refusal of 'pile' below is expected");
    let code = boardgames::referee::main_with::<ProjectGames>(&match_args(&path.to_string_lossy()));
    assert_ne!(code, 0, "the referee played a game its list lacks");
    assert!(!path.exists(), "records of a refused match");
}

/// Nine stones, one or two a move: a multiple of three is lost for the
/// side to move, so engines that search to the end win every game as the
/// second player, with every move leaving the opponent a multiple of three.
fn a_match_of_the_listed_pile_is_played_to_perfect_results() {
    let path = records_path();
    let code = boardgames::referee::main_with::<WithPile>(&match_args(&path.to_string_lossy()));
    assert_eq!(code, 0, "the referee failed");
    let text = std::fs::read_to_string(&path).expect("the match's records");
    let _ = std::fs::remove_file(&path);
    let records = parse_json_lines(&text).expect("records that read back");
    assert_eq!(records.len(), GAMES);
    for record in &records {
        check_perfect_game(record);
    }
    let first_as_player_one = records.iter().filter(|r| r.players[0] == "first").count();
    assert_eq!(first_as_player_one, GAMES / 2, "colours alternate");
}

fn check_perfect_game(record: &GameRecord) {
    assert_eq!(record.game, "pile");
    assert_eq!(record.result.termination, Termination::Rules, "{record:?}");
    assert_eq!(record.result.winner, Some(Player::P2), "{record:?}");
    let mut stones = 9;
    for (ply, played) in record.moves.iter().enumerate() {
        let take: u32 = played.mv.parse().expect("a move is a count");
        assert!(take == 1 || take == 2, "{record:?}");
        stones -= take;
        if ply % 2 == 1 {
            assert_eq!(stones % 3, 0, "player two left {stones}: {record:?}");
        }
    }
    assert_eq!(stones, 0, "the game ended before the pile did");
}
