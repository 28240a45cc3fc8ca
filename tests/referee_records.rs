//! Records written by the referee in real matches (two of our engines at
//! depth 1) are read by independent parsers (`pgn-reader` for PGN,
//! `sgf-parse` for SGF) and by the referee, carry their game info and
//! rules, and replay under the rules they name.

mod common;

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;

use assert_cmd::Command;
use boardgames::core::{Game, Outcome};
use boardgames::games::breakthrough::Breakthrough;
use boardgames::games::cavalo::Cavalo;
use boardgames::games::gomoku::Gomoku;
use boardgames::games::hex::Hex;
use boardgames::referee::adjudication::Termination;
use boardgames::referee::record::{parse_sgf, parse_text, utc_date_today, GameRecord};
use boardgames::referee::tournament::build_rules;
use pgn_reader::{Outcome as PgnOutcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use sgf_parse::unknown_game::Prop;
use sgf_parse::{GameTree, SgfProp};

/// Plays a two-game match of `game` between two depth-1 engines and
/// returns the records file's text.
fn play_match(game: &str, records: &Path, extra: &[&str]) -> String {
    let engine = common::binary(game).display().to_string();
    let output = Command::new(common::binary("referee"))
        .args([
            "--game",
            game,
            "--games",
            "2",
            "--quiet",
            "--event",
            "records test",
        ])
        .args([
            "--engine",
            &format!("cmd={engine}"),
            "name=first",
            "depth=1",
        ])
        .args([
            "--engine",
            &format!("cmd={engine}"),
            "name=second",
            "depth=1",
        ])
        .arg("--records")
        .arg(records)
        .args(extra)
        .output()
        .expect("the referee runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(records).expect("records written");
    let _ = std::fs::remove_file(records);
    text
}

fn rule(record: &GameRecord, name: &str) -> Option<String> {
    record
        .rules
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
}

/// The game info every record of `play_match` carries.
fn check_header(record: &GameRecord, game: &str) {
    assert_eq!(record.game, game);
    assert_eq!(record.event, "records test");
    assert!(!record.site.is_empty());
    assert_eq!(record.date, utc_date_today());
    let mut players = record.players.clone();
    players.sort();
    assert_eq!(players, ["first", "second"]);
}

/// Replays a record under the rules it names: every move legal, and a game
/// the rules ended ends the same way.
fn replay<G: Game>(record: &GameRecord) {
    let rules = build_rules::<G>(&record.rules).expect("the recorded rules build");
    let mut position = match &record.start_fen {
        Some(fen) => G::from_fen(fen, &rules).expect("the recorded FEN reads"),
        None => G::start_position(&rules),
    };
    for m in &record.moves {
        let mv = position
            .parse_legal_move(&m.mv)
            .unwrap_or_else(|e| panic!("round {}: {} ({e:?})", record.round, m.mv));
        position.make_move(mv);
    }
    if record.result.termination == Termination::Rules {
        let winner = match position.outcome() {
            Some(Outcome::Win(player)) => Some(player),
            Some(Outcome::Draw) => None,
            None => panic!("round {}: the rules have not ended it", record.round),
        };
        assert_eq!(winner, record.result.winner, "round {}", record.round);
    }
}

/// One PGN game as `pgn-reader` sees it.
#[derive(Debug, Default)]
struct PgnGame {
    tags: Vec<(String, String)>,
    sans: Vec<String>,
    comments: usize,
    outcome: Option<String>,
}

struct Collect;

impl Visitor for Collect {
    type Tags = Vec<(String, String)>;
    type Movetext = PgnGame;
    type Output = PgnGame;

    fn begin_tags(&mut self) -> ControlFlow<PgnGame, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<PgnGame> {
        let name = String::from_utf8_lossy(name).into_owned();
        tags.push((name, value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<PgnGame, PgnGame> {
        ControlFlow::Continue(PgnGame {
            tags,
            ..PgnGame::default()
        })
    }

    fn san(&mut self, game: &mut PgnGame, san: SanPlus) -> ControlFlow<PgnGame> {
        game.sans.push(san.to_string());
        ControlFlow::Continue(())
    }

    fn comment(&mut self, game: &mut PgnGame, _comment: RawComment<'_>) -> ControlFlow<PgnGame> {
        game.comments += 1;
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut PgnGame, outcome: PgnOutcome) -> ControlFlow<PgnGame> {
        game.outcome = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: PgnGame) -> PgnGame {
        game
    }
}

fn read_with_pgn_reader(text: &str) -> Vec<PgnGame> {
    let mut reader = Reader::new(text.as_bytes());
    let mut games = Vec::new();
    while let Some(game) = reader
        .read_game(&mut Collect)
        .expect("pgn-reader reads the file")
    {
        games.push(game);
    }
    games
}

/// What `pgn-reader` read of a game agrees with the referee's reading.
fn check_pgn_game(pgn: &PgnGame, record: &GameRecord) {
    let names: Vec<&str> = pgn.tags.iter().map(|(n, _)| n.as_str()).collect();
    let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
    assert_eq!(names[..7], roster, "{names:?}");
    let tags: HashMap<&str, &str> = pgn
        .tags
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(tags["Event"], "records test");
    let date = record.date.as_deref().expect("a date").replace('-', ".");
    assert_eq!(tags["Date"], date);
    assert_eq!(tags["White"], record.players[0]);
    assert_eq!(tags["Black"], record.players[1]);
    assert_eq!(tags["Variant"], record.game);
    assert_eq!(pgn.outcome.as_deref(), Some(tags["Result"]));
    assert_eq!(tags["Result"], record.result.score_text());
    assert_eq!(tags["PlyCount"], record.moves.len().to_string());
    assert_eq!(pgn.comments, record.moves.len(), "one comment a move");
    let rules: Vec<String> = record
        .rules
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    assert_eq!(tags["Rules"], rules.join(" "));
    if let Some(fen) = &record.start_fen {
        assert_eq!((tags["SetUp"], tags["FEN"]), ("1", fen.as_str()));
    }
}

#[test]
fn breakthrough_pgn_reads_in_pgn_reader_and_replays_on_seven_columns() {
    let records = common::temp_path("records", "breakthrough.pgn");
    let text = play_match("breakthrough", &records, &["--rule", "Columns=7"]);
    let games = parse_text(&text).expect("the referee reads its PGN");
    let pgn_games = read_with_pgn_reader(&text);
    assert_eq!((games.len(), pgn_games.len()), (2, 2), "{text}");
    for (record, pgn) in games.iter().zip(&pgn_games) {
        check_header(record, "breakthrough");
        assert_eq!(rule(record, "Columns").as_deref(), Some("7"));
        assert_eq!(rule(record, "Rows").as_deref(), Some("8"));
        check_pgn_game(pgn, record);
        // Breakthrough's moves read as SAN: pgn-reader sees them all.
        let moves: Vec<&str> = record.moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(pgn.sans, moves);
        replay::<Breakthrough>(record);
    }
}

#[test]
fn cavalo_pgn_with_variants_reads_in_pgn_reader_and_replays() {
    let records = common::temp_path("records", "cavalo.pgn");
    let rules = ["--rule", "AttackRule=false", "--rule", "FirstMover=black"];
    let text = play_match("cavalo", &records, &rules);
    let games = parse_text(&text).expect("the referee reads its PGN");
    let pgn_games = read_with_pgn_reader(&text);
    assert_eq!((games.len(), pgn_games.len()), (2, 2), "{text}");
    for (record, pgn) in games.iter().zip(&pgn_games) {
        check_header(record, "cavalo");
        assert_eq!(rule(record, "AttackRule").as_deref(), Some("false"));
        assert_eq!(rule(record, "FirstMover").as_deref(), Some("black"));
        check_pgn_game(pgn, record);
        // Cells past h8 and `e5:c3` are not SAN: pgn-reader passes over
        // them, and what it does take is among the moves.
        for san in &pgn.sans {
            assert!(record.moves.iter().any(|m| &m.mv == san), "{san}");
        }
        replay::<Cavalo>(record);
    }
}

/// The root node's properties of every game tree, as `sgf-parse` reads
/// them: name and first value.
fn sgf_roots(text: &str) -> Vec<HashMap<String, Vec<String>>> {
    sgf_parse::parse(text)
        .expect("sgf-parse reads the file")
        .into_iter()
        .map(|tree| {
            let GameTree::Unknown(root) = tree else {
                panic!("not one of our games: GM[1]");
            };
            let mut properties = HashMap::new();
            for prop in root.properties() {
                properties.insert(prop.identifier(), prop_values(prop));
            }
            properties
        })
        .collect()
}

/// A property's values as text.
fn prop_values(prop: &Prop) -> Vec<String> {
    match prop {
        Prop::GM(number) | Prop::FF(number) => vec![number.to_string()],
        Prop::SZ((columns, rows)) => vec![format!("{columns}:{rows}")],
        Prop::AP((name, version)) => vec![format!("{}:{}", name.text, version.text)],
        Prop::EV(text)
        | Prop::PC(text)
        | Prop::DT(text)
        | Prop::PB(text)
        | Prop::PW(text)
        | Prop::RE(text)
        | Prop::RU(text)
        | Prop::RO(text) => vec![text.text.clone()],
        Prop::Unknown(_, values) | Prop::Invalid(_, values) => values.clone(),
        _ => Vec::new(),
    }
}

/// The root properties every SGF record carries, checked against the
/// referee's reading of it.
fn check_sgf_root(root: &HashMap<String, Vec<String>>, record: &GameRecord, gm: &str, ru: &str) {
    let one = |name: &str| {
        root.get(name)
            .and_then(|v| v.first())
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(one("GM"), gm);
    assert_eq!(one("FF"), "4");
    assert!(one("AP").starts_with("boardgames:"), "{}", one("AP"));
    assert_eq!(one("EV"), "records test");
    assert_eq!(Some(one("DT")), record.date);
    // Player 1 is Black in Hex and Gomoku.
    assert_eq!(
        (one("PB"), one("PW")),
        (record.players[0].clone(), record.players[1].clone())
    );
    let re = one("RE");
    match record.result.winner {
        Some(boardgames::core::Player::P1) => assert!(re.starts_with("B+"), "{re}"),
        Some(boardgames::core::Player::P2) => assert!(re.starts_with("W+"), "{re}"),
        None => assert_eq!(re, "0"),
    }
    assert_eq!(one("RU"), ru);
    let rules: Vec<String> = record
        .rules
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    assert_eq!(root.get("XR"), Some(&rules));
    assert!(!root.contains_key("KM"), "no komi in these games");
}

#[test]
fn hex_sgf_on_seven_by_seven_with_swap_has_its_root_and_replays() {
    let records = common::temp_path("records", "hex.sgf");
    let rules = [
        "--rule",
        "BoardSize=7",
        "--rule",
        "Swap=true",
        "--openings",
        "random:1",
    ];
    let text = play_match("hex", &records, &rules);
    let games = parse_sgf(&text).expect("the referee reads its SGF");
    let roots = sgf_roots(&text);
    assert_eq!((games.len(), roots.len()), (2, 2), "{text}");
    for (record, root) in games.iter().zip(&roots) {
        check_header(record, "hex");
        assert_eq!(rule(record, "BoardSize").as_deref(), Some("7"));
        assert_eq!(rule(record, "Swap").as_deref(), Some("true"));
        assert_eq!(root["SZ"], ["7:7"]);
        check_sgf_root(root, record, "11", "Swap");
        replay::<Hex>(record);
    }
}

#[test]
fn gomoku_sgf_under_renju_has_its_root_and_replays() {
    let records = common::temp_path("records", "gomoku.sgf");
    let text = play_match(
        "gomoku",
        &records,
        &["--rule", "Rule=renju", "--openings", "random:2"],
    );
    let games = parse_sgf(&text).expect("the referee reads its SGF");
    let roots = sgf_roots(&text);
    assert_eq!((games.len(), roots.len()), (2, 2), "{text}");
    for (record, root) in games.iter().zip(&roots) {
        check_header(record, "gomoku");
        assert_eq!(rule(record, "Rule").as_deref(), Some("renju"));
        check_sgf_root(root, record, "4", "Renju");
        replay::<Gomoku>(record);
    }
}

#[cfg(feature = "tune")]
#[test]
fn json_records_name_their_rules_and_tune_sample_replays_under_them() {
    let records = common::temp_path("records", "breakthrough.jsonl");
    let engine = common::binary("breakthrough").display().to_string();
    let output = Command::new(common::binary("referee"))
        .args([
            "--game",
            "breakthrough",
            "--games",
            "2",
            "--quiet",
            "--rule",
            "Columns=6",
        ])
        .args(["--engine", &format!("cmd={engine}"), "depth=1"])
        .args(["--engine", &format!("cmd={engine}"), "depth=1"])
        .arg("--records")
        .arg(&records)
        .output()
        .expect("the referee runs");
    assert!(output.status.success());
    let text = std::fs::read_to_string(&records).expect("records written");
    for line in text.lines() {
        assert!(
            line.contains(r#""rules":{"Rows":"8","Columns":"6"}"#),
            "{line}"
        );
        assert!(line.contains(r#""event":"bg-referee match""#), "{line}");
    }
    // No --rule: the positions come from six-column boards all the same.
    let positions = common::temp_path("records", "positions.txt");
    let (ok, stdout, stderr) = common::run_tune(&[
        "sample".as_ref(),
        "--game".as_ref(),
        "breakthrough".as_ref(),
        "--records".as_ref(),
        records.as_os_str(),
        "--skip".as_ref(),
        "0".as_ref(),
        "--keep-noisy".as_ref(),
        "--out".as_ref(),
        positions.as_os_str(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    let sampled = std::fs::read_to_string(&positions).expect("positions written");
    let _ = std::fs::remove_file(&records);
    let _ = std::fs::remove_file(&positions);
    let first_fen = sampled.lines().next().expect("a position");
    assert!(first_fen.starts_with("pppppp/pppppp/6/"), "{first_fen}");
}
