//! Tournaments of more than two engines: a round-robin and a gauntlet of
//! our Breakthrough engine at depth 1 under several names, their tables
//! checked against themselves, the records and a merge of their slices;
//! and the command lines refused before any game is played.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use boardgames::core::Player;
use boardgames::referee::record::{parse_json_lines, GameRecord};
use serde_json::Value;

mod common;

fn temp_path(name: &str) -> PathBuf {
    common::temp_path("referee-tournament", name)
}

fn referee(args: &[String]) -> Output {
    Command::new(common::binary("referee"))
        .args(args)
        .output()
        .expect("the referee runs")
}

/// Runs the referee, which must succeed, and returns its stdout.
fn table_of(args: &[String]) -> String {
    let output = referee(args);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{args:?}: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// A tournament of one Breakthrough engine at depth 1 named `names`.
fn tournament_args(names: &[&str], extra: &[&str]) -> Vec<String> {
    let mut words = common::strings(&["--game", "breakthrough", "--quiet"]);
    for name in names {
        words.extend(common::strings(&[
            "--engine",
            &format!("cmd={}", common::breakthrough_command()),
            &format!("name={name}"),
            "depth=1",
        ]));
    }
    words.extend(common::strings(extra));
    words
}

fn path_text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}

fn read_records(path: &Path) -> Vec<GameRecord> {
    let text = std::fs::read_to_string(path).expect("the records");
    parse_json_lines(&text).expect("JSON-line records")
}

/// Each engine's totals are its pairs' results, and the whole adds up:
/// every game counted once for each side, points summing to the games.
fn assert_json_table_adds_up(json: &Value, engines: usize, games: u64) {
    let rows = json["engines"].as_array().expect("engines");
    assert_eq!(rows.len(), engines);
    assert_eq!(json["games"], games);
    let number = |v: &Value| v.as_f64().expect("a number");
    let total = |key: &str| rows.iter().map(|r| number(&r[key])).sum::<f64>();
    assert_eq!(total("games"), 2.0 * games as f64);
    assert_eq!(total("points"), games as f64);
    assert_eq!(total("wins"), total("losses"));
    let mut by_pairs: BTreeMap<String, [f64; 4]> = BTreeMap::new();
    for pair in json["pairs"].as_array().expect("pairs") {
        let (w, d, l) = (
            number(&pair["wins"]),
            number(&pair["draws"]),
            number(&pair["losses"]),
        );
        assert_eq!(w + d + l, number(&pair["games"]));
        for (side, [w, l]) in [[w, l], [l, w]].into_iter().enumerate() {
            let name = pair["engines"][side].as_str().expect("a name").to_owned();
            let sum = by_pairs.entry(name).or_default();
            *sum = [sum[0] + w + d + l, sum[1] + w, sum[2] + d, sum[3] + l];
        }
    }
    let mut points = f64::INFINITY;
    for row in rows {
        let [g, w, d, l] = by_pairs[row["name"].as_str().expect("a name")];
        let counted = [&row["games"], &row["wins"], &row["draws"], &row["losses"]].map(number);
        assert_eq!(counted, [g, w, d, l], "{row}");
        assert_eq!(number(&row["points"]), w + d / 2.0);
        assert!(number(&row["points"]) <= points, "sorted by points");
        points = number(&row["points"]);
    }
}

/// The cross table's cells `points/games`, by (row, column) name.
fn cross_cells(text: &str) -> BTreeMap<(String, String), (f64, u64)> {
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with("Cross table"))
        .skip(1)
        .take_while(|l| !l.starts_with("Game ends"));
    let columns: Vec<String> = lines
        .next()
        .expect("the header")
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let mut cells = BTreeMap::new();
    for line in lines {
        let mut words = line.split_whitespace();
        let row = words.next().expect("a name").to_owned();
        for (column, cell) in columns.iter().zip(words) {
            if let Some((points, games)) = cell.split_once('/') {
                let value = (
                    points.parse().expect("points"),
                    games.parse().expect("games"),
                );
                cells.insert((row.clone(), column.clone()), value);
            }
        }
    }
    cells
}

/// Lines both a run and a merge of its records print.
fn comparable(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            !["Moves:", "Records:", "Results:"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect()
}

#[test]
fn a_round_robin_of_three_adds_up_and_merges_from_its_slices() {
    let names = ["alpha", "beta", "gamma"];
    let (records, results) = (temp_path("rr.jsonl"), temp_path("rr.json"));
    let common = [
        "--games",
        "4",
        "--openings",
        "random:2:3",
        "--concurrency",
        "2",
    ];
    let mut args = tournament_args(&names, &common);
    args.extend(common::strings(&["--records", path_text(&records)]));
    args.extend(common::strings(&["--results", path_text(&results)]));
    let text = table_of(&args);
    assert!(
        text.starts_with("Round-robin of 3 engines: 12 games\n"),
        "{text}"
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(&results).expect("results")).expect("JSON");
    assert_eq!(json["tournament"], "round-robin");
    assert_json_table_adds_up(&json, 3, 12);

    let cells = cross_cells(&text);
    assert_eq!(cells.len(), 6, "{text}");
    for ((row, column), (points, games)) in &cells {
        let (other, back) = cells[&(column.clone(), row.clone())];
        assert_eq!((*games, back), (4, 4), "{text}");
        assert_eq!(points + other, 4.0, "{text}");
    }

    let games = read_records(&records);
    let mut rounds: Vec<usize> = games.iter().map(|g| g.round).collect();
    rounds.sort();
    assert_eq!(rounds, (1..=12).collect::<Vec<_>>());
    let mut as_first: BTreeMap<&str, usize> = BTreeMap::new();
    for game in &games {
        assert!(
            game.players.iter().all(|p| names.contains(&p.as_str())),
            "{game:?}"
        );
        assert_ne!(game.players[0], game.players[1]);
        *as_first.entry(&game.players[0]).or_default() += 1;
    }
    assert_eq!(as_first.values().copied().collect::<Vec<_>>(), [4, 4, 4]);

    let mut merge = vec!["merge".to_owned()];
    for k in 1..=2 {
        let slice = temp_path(&format!("rr-slice-{k}.jsonl"));
        let mut args = tournament_args(&names, &common);
        args.extend(common::strings(&["--shard", &format!("{k}/2")]));
        args.extend(common::strings(&["--records", path_text(&slice)]));
        table_of(&args);
        merge.push(path_text(&slice).to_owned());
    }
    let merged = table_of(&merge);
    assert_eq!(comparable(&merged), comparable(&text), "{merged}\n{text}");
    for path in merge[1..]
        .iter()
        .map(PathBuf::from)
        .chain([records, results])
    {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn a_gauntlet_plays_only_the_first_engine_against_the_others() {
    let records = temp_path("gauntlet.jsonl");
    let extra = [
        "--tournament",
        "gauntlet",
        "--games",
        "2",
        "--openings",
        "random:2:5",
    ];
    let mut args = tournament_args(&["new", "old1", "old2"], &extra);
    args.extend(common::strings(&["--records", path_text(&records)]));
    let text = table_of(&args);
    assert!(
        text.starts_with("Gauntlet of 3 engines: 4 games\n"),
        "{text}"
    );
    assert!(text.contains("0 (reference)"), "{text}");
    let games = read_records(&records);
    assert_eq!(games.len(), 4);
    for game in &games {
        assert!(game.players.contains(&"new".to_owned()), "{game:?}");
    }
    let new_as = |player: Player| {
        games
            .iter()
            .filter(|g| g.players[player.index()] == "new")
            .count()
    };
    assert_eq!((new_as(Player::P1), new_as(Player::P2)), (2, 2));
    let cells = cross_cells(&text);
    assert!(
        !cells.contains_key(&("old1".to_owned(), "old2".to_owned())),
        "{text}"
    );
    assert_eq!(cells.len(), 4, "{text}");
    let _ = std::fs::remove_file(records);
}

#[test]
fn bad_tournaments_are_refused_before_any_game() {
    let records = temp_path("refused.jsonl");
    let cases: [(&[&str], &[&str], &str); 4] = [
        (
            &["solo"],
            &["--tournament", "gauntlet"],
            "gauntlet needs at least two",
        ),
        (&["a", "b", "a"], &[], "both called 'a'"),
        (&["a", "b", "c"], &["--sprt", "elo0=0", "elo1=5"], "--sprt"),
        (&["a", "b"], &["--results", "table.json"], "--results"),
    ];
    for (names, extra, reason) in cases {
        let mut args = tournament_args(names, extra);
        args.extend(common::strings(&["--records", path_text(&records)]));
        let output = referee(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(!records.exists(), "{args:?}: a game was played");
    }
}
