//! The Renju rule in play: the engine passes over tempting forbidden
//! points, `d` marks them, the Gomocup front-end selects renju with
//! `INFO rule 4`, the referee adjudicates a forbidden move as a loss, and
//! self-play games hold no forbidden Black move (checked with the brute
//! force of tests/common/renju.rs).

mod common;

use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use boardgames::core::{Game, Player};
use boardgames::games::gomoku::board::{cell_of, Rule};
use boardgames::games::gomoku::{Gomoku, GomokuRules};
use boardgames::referee::adjudication::Termination;
use boardgames::referee::record::{parse_sgf, GameRecord};
use common::renju::{point, Grid, BLACK, EMPTY, WHITE};
use common::{require_python, Engine};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Black to move; f10 would make six in a row.
const OVERLINE: &str = "15/15/15/15/15/2xxx1xx7/15/15/15/15/15/15/15/15/o13o x";
/// Black to move; h8 would make two fours, d8, i8, h4 or h9 one.
const DOUBLE_FOUR: &str = "15/15/15/15/15/15/15/4xxx8/7x7/7x7/7x7/15/15/15/o13o x";
/// Black to move; h8 would make two threes.
const DOUBLE_THREE: &str = "15/15/15/15/15/7x7/7x7/5xx8/15/15/15/15/15/15/o13o x";
/// Black to move; h10 makes five and a four: a five wins.
const FIVE_AND_FOUR: &str = "15/15/7x7/7x7/7x7/2oxxxx8/15/15/15/15/15/15/15/15/15 x";

fn best_move(rule: &str, fen: &str) -> String {
    let mut engine = Engine::start("gomoku");
    engine.send(&format!("setoption name Rule value {rule}"));
    engine.send(&format!("position fen {fen}"));
    let lines = engine.ask("go depth 3", "bestmove");
    engine.send("quit");
    engine.finish();
    let last = lines.last().expect("a bestmove line");
    last.split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_engine_passes_over_a_tempting_forbidden_point() {
    assert_eq!(best_move("freestyle", OVERLINE), "f10");
    assert_ne!(best_move("renju", OVERLINE), "f10");
    let renju_move = best_move("renju", DOUBLE_FOUR);
    assert!(
        ["d8", "i8", "h4", "h9"].contains(&renju_move.as_str()),
        "{renju_move}"
    );
    assert_ne!(best_move("renju", DOUBLE_THREE), "h8");
    assert_eq!(best_move("renju", FIVE_AND_FOUR), "h10");
}

#[test]
fn d_marks_the_forbidden_points() {
    let mut engine = Engine::start("gomoku");
    engine.send("setoption name Rule value renju");
    engine.send(&format!("position fen {DOUBLE_THREE}"));
    let picture = engine.ask("d", "Key: ");
    let row_8 = picture
        .iter()
        .find(|l| l.trim_start().starts_with("8 "))
        .expect("row 8");
    assert!(row_8.contains('*'), "{picture:#?}");
    assert!(picture
        .iter()
        .any(|l| l.contains("Forbidden to Black (*): h8 (double three)")));
    assert_eq!(picture.iter().filter(|l| l.contains('*')).count(), 2);
    // Not under freestyle.
    engine.send("setoption name Rule value freestyle");
    engine.send(&format!("position fen {DOUBLE_THREE}"));
    let picture = engine.ask("d", "Key: ");
    assert!(!picture.iter().any(|l| l.contains('*')), "{picture:#?}");
    engine.send("quit");
    engine.finish();
}

/// The Gomocup engine's move as Black in the overline position, under the
/// Gomocup rule bits given, and the messages it sent.
fn pbrain_overline_move(rule_bits: u32) -> (String, Vec<String>) {
    let mut engine = Engine::start_with_args("gomoku", &["--pbrain"]);
    engine.send("INFO timeout_turn 500");
    engine.ask("START 15", "OK");
    engine.send(&format!("INFO rule {rule_bits}"));
    engine.send("BOARD");
    let ours = ["2,9,1", "3,9,1", "4,9,1", "6,9,1", "7,9,1"];
    let theirs = ["0,0,2", "14,0,2", "0,14,2", "14,14,2", "7,0,2"];
    for line in ours.iter().chain(&theirs) {
        engine.send(line);
    }
    engine.send("DONE");
    let lines = engine.read_until(|l| !l.starts_with("MESSAGE"));
    engine.send("END");
    engine.finish();
    let mv = lines.last().cloned().unwrap_or_default();
    (mv, lines)
}

#[test]
fn info_rule_4_selects_renju() {
    let (freestyle, _) = pbrain_overline_move(0);
    assert_eq!(freestyle, "5,9");
    let (renju, lines) = pbrain_overline_move(4);
    assert_ne!(renju, "5,9");
    assert!(
        !lines.iter().any(|l| l.contains("not supported")),
        "{lines:#?}"
    );
}

fn run_referee(args: &[String]) {
    let output = Command::new(cargo_bin("bg-referee"))
        .args(args)
        .output()
        .expect("run the referee");
    assert!(
        output.status.success(),
        "referee failed: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Plays `games` refereed under renju from the openings in `openings`
/// (a file's text) and returns their records.
fn renju_match(name: &str, engines: &[&[String]], openings: &str, games: u32) -> Vec<GameRecord> {
    let openings_path = common::temp_path("renju-test", &format!("{name}-openings.txt"));
    let records = common::temp_path("renju-test", &format!("{name}.sgf"));
    std::fs::write(&openings_path, openings).expect("openings written");
    let mut args = common::strings(&["--game", "gomoku", "--rule", "Rule=renju"]);
    for engine in engines {
        args.push("--engine".to_owned());
        args.extend(engine.iter().cloned());
    }
    args.extend(common::strings(&[
        "--games",
        &games.to_string(),
        "--quiet",
        "--openings",
        openings_path.to_str().expect("a path"),
        "--records",
        records.to_str().expect("a path"),
    ]));
    run_referee(&args);
    let text = std::fs::read_to_string(&records).expect("records written");
    let _ = std::fs::remove_file(records);
    let _ = std::fs::remove_file(openings_path);
    parse_sgf(&text).expect("records parse")
}

fn gomoku_command() -> String {
    cargo_bin("bg-gomoku").display().to_string()
}

#[test]
fn the_referee_adjudicates_a_forbidden_move_as_a_loss() {
    require_python();
    let bad = vec![
        format!(
            "cmd=python3 {} play --move h8 --after 0 -- {}",
            common::misbehave_fixture(),
            gomoku_command()
        ),
        "name=bad".to_owned(),
        "depth=1".to_owned(),
    ];
    let good = vec![
        format!("cmd={}", gomoku_command()),
        "name=good".to_owned(),
        "depth=1".to_owned(),
    ];
    let games = renju_match("forbidden", &[&bad, &good], &format!("{DOUBLE_THREE}\n"), 1);
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.players[0], "bad", "{:?}", game.players);
    assert_eq!(game.result.termination, Termination::IllegalMove);
    assert_eq!(game.result.winner, Some(Player::P2));
    assert!(
        game.result.reason.contains("forbidden point")
            && game.result.reason.contains("double three"),
        "{}",
        game.result.reason
    );
}

/// Replays a record under renju, checking each Black move against the
/// brute force before it is played; returns how many forbidden points
/// Black had to avoid along the way.
fn assert_no_forbidden_black_move(game: &GameRecord) -> usize {
    let rules = GomokuRules {
        size: 15,
        rule: Rule::Renju,
    };
    let mut position = match &game.start_fen {
        Some(fen) => Gomoku::from_fen(fen, &rules).expect("the start parses"),
        None => Gomoku::start_position(&rules),
    };
    let mut avoided = 0;
    let mut grid = Grid::new(15);
    for y in 0..15 {
        for x in 0..15 {
            let stone = position.board().stone(cell_of(x, y));
            grid.set(x as i32, y as i32, stone);
        }
    }
    for record in &game.moves {
        let (x, y) = point(&record.mv);
        let black = position.side_to_move() == Player::P1;
        if black {
            let forbidden = grid.forbidden_cells();
            assert!(
                !forbidden.contains(&(x, y)),
                "Black played forbidden {}",
                record.mv
            );
            avoided += forbidden.len();
        }
        let mv = position.parse_move(&record.mv).expect("a legal move");
        position.make_move(mv);
        grid.set(x, y, if black { BLACK } else { WHITE });
    }
    avoided
}

/// Positions with Black to move and forbidden points on the board: the
/// three above and random ones with as many stones of each colour, none of
/// them already won.
fn openings_with_forbidden_points(count: usize) -> Vec<String> {
    let rules = GomokuRules {
        size: 15,
        rule: Rule::Renju,
    };
    let mut openings: Vec<String> = [OVERLINE, DOUBLE_FOUR, DOUBLE_THREE]
        .map(String::from)
        .to_vec();
    let mut rng = SmallRng::seed_from_u64(0x0072_656e_6a75);
    while openings.len() < count {
        let mut grid = Grid::new(15);
        let stones = rng.gen_range(8..16);
        for colour in [BLACK, WHITE] {
            let mut placed = 0;
            while placed < stones {
                let (x, y) = (rng.gen_range(3..12), rng.gen_range(3..12));
                if grid.get(x, y) == Some(EMPTY) {
                    grid.set(x, y, colour);
                    placed += 1;
                }
            }
        }
        let fen = grid.to_fen(true);
        let playable = Gomoku::from_fen(&fen, &rules).is_ok_and(|game| game.outcome().is_none());
        if playable && !grid.forbidden_cells().is_empty() {
            openings.push(fen);
        }
    }
    openings
}

#[test]
fn renju_self_play_holds_no_forbidden_black_move() {
    let engine = |name: &str| {
        vec![
            format!("cmd={}", gomoku_command()),
            format!("name={name}"),
            "depth=2".to_owned(),
        ]
    };
    // Positions with forbidden points at once, and a whole game from the
    // balanced opening, where Black meets them later.
    let balanced_file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/gomoku-openings.txt"
    );
    let balanced = std::fs::read_to_string(balanced_file).expect("the openings");
    let balanced = balanced.lines().filter(|l| !l.starts_with('#')).take(1);
    let openings: Vec<String> = openings_with_forbidden_points(10)
        .into_iter()
        .chain(balanced.map(String::from))
        .collect();
    let games = renju_match(
        "selfplay",
        &[&engine("one"), &engine("two")],
        &(openings.join("\n") + "\n"),
        32,
    );
    assert_eq!(games.len(), 32);
    let mut black_moves = 0;
    let mut avoided = 0;
    for game in &games {
        assert_eq!(
            game.result.termination,
            Termination::Rules,
            "{:?}",
            game.result
        );
        avoided += assert_no_forbidden_black_move(game);
        black_moves += game.moves.len() / 2;
    }
    assert!(black_moves > 100, "{black_moves} Black moves");
    assert!(avoided > 100, "{avoided} forbidden points avoided");
}

#[test]
fn a_gomocup_engine_plays_renju_through_the_referee() {
    let pbrain = vec![
        format!("cmd={} --pbrain", gomoku_command()),
        "proto=pbrain".to_owned(),
        "name=pbrain".to_owned(),
        "st=0.05".to_owned(),
        "timemargin=500".to_owned(),
    ];
    let ugi = vec![
        format!("cmd={}", gomoku_command()),
        "name=ugi".to_owned(),
        "depth=2".to_owned(),
    ];
    // As moves (pbrain engines take no FEN): Black to move, f10 then h8
    // forbidden.
    let openings = "c10 a1 d10 o1 e10 a15 g10 o15 h10 n1\n\
                    e8 a1 f8 o1 g8 a15 h5 o15 h6 n1 h7 b1\n";
    let games = renju_match("pbrain", &[&pbrain, &ugi], openings, 4);
    assert_eq!(games.len(), 4);
    for game in &games {
        assert_eq!(
            game.result.termination,
            Termination::Rules,
            "{:?}",
            game.result
        );
        assert_no_forbidden_black_move(game);
    }
}
