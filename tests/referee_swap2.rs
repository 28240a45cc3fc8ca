//! The referee's Swap2 opening (`--opening-rule swap2`) between two
//! instances of `pbrain-bg-gomoku`: the records say who proposed, who
//! chose what, which engine ended up Black, and the games replay with the
//! rules; the option is refused where it cannot apply.

mod common;

use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use boardgames::core::{Game, Outcome, Player};
use boardgames::games::gomoku::board::Rule;
use boardgames::games::gomoku::{Gomoku, GomokuRules};
use boardgames::referee::adjudication::Termination;
use boardgames::referee::record::{parse_json_lines, parse_sgf, render, GameRecord, RecordFormat};

fn brain(seed: u64) -> String {
    let program = env!("CARGO_BIN_EXE_pbrain-bg-gomoku");
    format!("cmd={program} --seed {seed}")
}

/// The referee's exit code, stdout and stderr.
fn referee(args: &[String]) -> (i32, String, String) {
    let output = Command::new(cargo_bin("bg-referee"))
        .args(args)
        .output()
        .expect("run the referee");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Plays the record's moves under exactly-five rules, each legal, and
/// returns the final position.
fn replay(record: &GameRecord) -> Gomoku {
    let rules = GomokuRules {
        size: 15,
        rule: Rule::Standard,
    };
    let mut position = Gomoku::start_position(&rules);
    for m in &record.moves {
        let mv = position
            .parse_legal_move(&m.mv)
            .unwrap_or_else(|_| panic!("illegal recorded move {}", m.mv));
        position.make_move(mv);
    }
    position
}

/// The opening's steps follow Swap2: a proposal of three by the proposer,
/// then the other engine's swap, stay (one stone) or add (two), and after
/// an add the proposer's swap or stay; the colours follow the choices.
fn check_opening(record: &GameRecord, proposer: &str, other: &str) {
    assert_eq!(record.opening, "swap2");
    let swap2 = record.swap2.as_ref().expect("the Swap2 exchange");
    assert_eq!(swap2.proposer, proposer);
    let steps: Vec<(&str, &str, usize)> = swap2
        .steps
        .iter()
        .map(|s| (s.engine.as_str(), s.choice.as_str(), s.stones.len()))
        .collect();
    assert_eq!(steps[0], (proposer, "propose", 3), "{steps:?}");
    let proposer_black = match steps[1..] {
        [(o, "swap", 0)] if o == other => false,
        [(o, "stay", 1)] if o == other => true,
        [(o, "add", 2), (p, "swap", 0)] if o == other && p == proposer => true,
        [(o, "add", 2), (p, "stay", 1)] if o == other && p == proposer => false,
        _ => panic!("not a Swap2 exchange: {steps:?}"),
    };
    assert_eq!(swap2.proposer_white, !proposer_black);
    let black = if proposer_black { proposer } else { other };
    assert_eq!(swap2.black, black);
    assert_eq!(record.players[0], black, "player 1 is Black");
    let stones: Vec<&String> = swap2.steps.iter().flat_map(|s| &s.stones).collect();
    let first_moves: Vec<&String> = record
        .moves
        .iter()
        .map(|m| &m.mv)
        .take(stones.len())
        .collect();
    assert_eq!(stones, first_moves);
    assert_eq!(swap2.stones.len(), stones.len());
}

/// Two games, each engine proposing once; every game is played to its end
/// by the rules from the stones the engines chose.
#[test]
fn a_swap2_match_between_two_pbrain_engines() {
    let records = common::temp_path("referee-swap2", "games.jsonl");
    let args = common::strings(&[
        "--game",
        "gomoku",
        "--rule",
        "Rule=standard",
        "--opening-rule",
        "swap2",
        "--engine",
        &brain(1),
        "proto=pbrain",
        "name=A",
        "st=0.2",
        "timemargin=2000",
        "--engine",
        &brain(2),
        "proto=pbrain",
        "name=B",
        "st=0.2",
        "timemargin=2000",
        "--games",
        "2",
        "--records",
        records.to_str().expect("a UTF-8 path"),
        "--quiet",
    ]);
    let (code, stdout, stderr) = referee(&args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let text = std::fs::read_to_string(&records).expect("the records");
    let _ = std::fs::remove_file(&records);
    let mut games = parse_json_lines(&text).expect("JSON records");
    games.sort_by_key(|g| g.round);
    assert_eq!(games.len(), 2);
    for (game, (proposer, other)) in games.iter().zip([("A", "B"), ("B", "A")]) {
        check_opening(game, proposer, other);
        assert_eq!(
            game.result.termination,
            Termination::Rules,
            "{:?}",
            game.result
        );
        let position = replay(game);
        let winner = match position.outcome() {
            Some(Outcome::Win(player)) => Some(player),
            Some(Outcome::Draw) => None,
            None => panic!("the game did not end: {:?}", game.result),
        };
        assert_eq!(game.result.winner, winner);
        if let Some(winner) = winner {
            let name = &game.players[usize::from(winner == Player::P2)];
            assert!(
                game.result.reason.contains("wins"),
                "{name}: {:?}",
                game.result
            );
        }
        // The SGF record carries the same exchange.
        let sgf = render(game, RecordFormat::Sgf);
        assert!(sgf.contains("GN[swap2]") && sgf.contains("XS["), "{sgf}");
        assert_eq!(parse_sgf(&sgf).expect("SGF reads back"), vec![game.clone()]);
    }
}

/// Swap2 is refused, before anything is played, for other games, for
/// engines that do not speak pbrain and beside --openings.
#[test]
fn swap2_is_refused_where_it_cannot_apply() {
    let records = common::temp_path("referee-swap2", "refused.jsonl");
    let gomoku = format!("cmd={}", cargo_bin("bg-gomoku").display());
    let cases: [(&[&str], &str); 3] = [
        (
            &[
                "--game",
                "hex",
                "--engine",
                "cmd=x",
                "proto=pbrain",
                "--engine",
                "cmd=y",
                "proto=pbrain",
            ],
            "for gomoku",
        ),
        (
            &[
                "--game", "gomoku", "--engine", &gomoku, "--engine", &gomoku, "name=two",
            ],
            "speak pbrain",
        ),
        (
            &[
                "--game",
                "gomoku",
                "--engine",
                "cmd=x",
                "proto=pbrain",
                "--engine",
                "cmd=y",
                "proto=pbrain",
                "--openings",
                "random:2",
            ],
            "no --openings",
        ),
    ];
    for (words, why) in cases {
        let mut args = common::strings(words);
        args.extend(common::strings(&["--opening-rule", "swap2", "--records"]));
        args.push(records.to_string_lossy().into_owned());
        let (code, stdout, stderr) = referee(&args);
        assert_eq!(code, 2, "{words:?}: {stdout}\n{stderr}");
        assert!(stderr.contains(why), "{words:?}: {stderr}");
        assert!(!records.exists(), "{words:?} wrote records");
    }
}
