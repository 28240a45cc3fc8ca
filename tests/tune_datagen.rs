//! `bg-tune datagen`: self-play data that replays under the rules, resumes
//! where a run stopped (a torn last game included), splits into shards that
//! together are the whole run, refuses a file of other rules, and feeds
//! `bg-tune sample`.
#![cfg(feature = "tune")]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use boardgames::games::breakthrough::Breakthrough;
use boardgames::games::gomoku::Gomoku;
use boardgames::referee::tournament::build_rules;
use boardgames::tuning::dataset::{self, DataFile, NO_SCORE};
use common::run_tune as tune;

mod common;

fn temp_path(name: &str) -> PathBuf {
    common::temp_path("datagen", name)
}

/// Breakthrough on 6 columns, 300 nodes a move, from four random plies.
fn datagen(out: &Path, games: u32, extra: &[&str]) -> (bool, String, String) {
    let games = games.to_string();
    let mut args = vec![
        "datagen",
        "--game",
        "breakthrough",
        "--rule",
        "Columns=6",
        "--nodes",
        "300",
        "--games",
        &games,
        "--openings",
        "random:4:7",
        "--out",
    ];
    args.push(out.to_str().expect("a UTF-8 temp path"));
    args.extend_from_slice(extra);
    tune(&args)
}

fn indices(data: &DataFile) -> Vec<u32> {
    data.games.iter().map(|game| game.index).collect()
}

#[test]
fn self_play_data_replays_under_its_rules() {
    let out = temp_path("replay.bgdata");
    let (ok, stdout, stderr) = datagen(&out, 6, &["--threads", "2"]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("6 games played (0 were in the file before)"),
        "{stdout}"
    );
    let data = dataset::read_file(&out).expect("the file reads back");
    assert_eq!(data.header.game, "breakthrough");
    assert!(data.header.rules.contains(&("Columns".into(), "6".into())));
    assert!(data.header.rules.contains(&("Rows".into(), "8".into())));
    assert_eq!(data.torn_bytes, 0);
    let set: BTreeSet<u32> = indices(&data).into_iter().collect();
    assert_eq!(set, (0..6).collect());
    let rules = build_rules::<Breakthrough>(&data.header.rules).expect("the rules");
    for game in &data.games {
        let scored: Vec<bool> = game.moves.iter().map(|m| m.1 != NO_SCORE).collect();
        assert_eq!(
            scored[..4],
            [false; 4],
            "the opening's four plies carry no score"
        );
        assert!(
            scored[4..].iter().all(|&s| s),
            "every searched move has its score"
        );
        let mut results = Vec::new();
        let end = dataset::replay::<Breakthrough>(game, &rules, |at| results.push(at.result))
            .expect("a game replays");
        assert!(game.winner.is_some(), "Breakthrough has no draws");
        assert!(boardgames::core::Game::outcome(&end).is_some());
        // The side to move alternates, and so does the result for it.
        assert!(results.windows(2).all(|pair| pair[0] + pair[1] == 1.0));
    }
    let (ok, stdout, _) = tune(&["dataset", out.to_str().unwrap()]);
    assert!(ok);
    assert!(stdout.contains("breakthrough 6 games"), "{stdout}");
    let _ = std::fs::remove_file(out);
}

#[test]
fn a_run_resumes_after_its_last_whole_game() {
    let out = temp_path("resume.bgdata");
    assert!(datagen(&out, 4, &[]).0);
    let (ok, stdout, stderr) = datagen(&out, 7, &[]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("3 games played (4 were in the file before)"),
        "{stdout}"
    );
    // A run stopped while writing leaves a torn last game: it is dropped
    // and played again.
    let length = std::fs::metadata(&out).expect("the file").len();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&out)
        .expect("open");
    file.set_len(length - 5).expect("cut the file");
    let torn = dataset::read_file(&out).expect("a torn file still reads");
    assert_eq!(torn.games.len(), 6);
    assert!(torn.torn_bytes > 0);
    let (ok, stdout, stderr) = datagen(&out, 7, &[]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("1 games played (6 were in the file before)"),
        "{stdout}"
    );
    assert!(stderr.contains("cut short"), "{stderr}");
    let data = dataset::read_file(&out).expect("whole again");
    assert_eq!(data.torn_bytes, 0);
    let mut all = indices(&data);
    all.sort_unstable();
    assert_eq!(all, (0..7).collect::<Vec<_>>());
    let _ = std::fs::remove_file(out);
}

#[test]
fn shards_together_are_the_whole_run() {
    let (whole, even, odd) = (
        temp_path("whole.bgdata"),
        temp_path("even.bgdata"),
        temp_path("odd.bgdata"),
    );
    assert!(datagen(&whole, 6, &[]).0);
    assert!(datagen(&even, 6, &["--shard", "0/2"]).0);
    assert!(datagen(&odd, 6, &["--shard", "1/2"]).0);
    let read = |path: &PathBuf| dataset::read_file(path).expect("a data file");
    let (whole, even, odd) = (read(&whole), read(&even), read(&odd));
    assert_eq!(indices(&even), [0, 2, 4]);
    assert_eq!(indices(&odd), [1, 3, 5]);
    // A search limited by nodes on one thread plays the same game anywhere.
    for game in even.games.iter().chain(&odd.games) {
        assert_eq!(
            Some(game),
            whole.games.iter().find(|g| g.index == game.index)
        );
    }
    for name in ["whole.bgdata", "even.bgdata", "odd.bgdata"] {
        let _ = std::fs::remove_file(temp_path(name));
    }
}

#[test]
fn bad_requests_and_bad_files_are_refused_with_the_file_kept() {
    let out = temp_path("refuse.bgdata");
    assert!(datagen(&out, 2, &[]).0);
    let before = std::fs::read(&out).expect("the file");
    let games = "3".to_owned();
    let path = out.to_str().unwrap();
    let other_rules = [
        "datagen",
        "--game",
        "breakthrough",
        "--rule",
        "Columns=7",
        "--games",
        &games,
        "--out",
        path,
    ];
    let (ok, _, stderr) = tune(&other_rules);
    assert!(!ok);
    assert!(stderr.contains("other rules"), "{stderr}");
    assert_eq!(std::fs::read(&out).expect("the file"), before);
    let (ok, _, stderr) = datagen(&out, 4, &["--shard", "2/2"]);
    assert!(!ok);
    assert!(stderr.contains("K must be below N"), "{stderr}");

    // A move code that is no legal move is caught when the game replays.
    let mut data = dataset::read_file(&out).expect("the file");
    data.games[0].moves[5].0 = 0xFF_FFFF;
    let mut bytes = dataset::header_bytes(&data.header).expect("header");
    bytes.extend(dataset::game_bytes(&data.games[0]).expect("game"));
    let corrupt = temp_path("corrupt.bgdata");
    std::fs::write(&corrupt, &bytes).expect("write");
    let (ok, _, stderr) = tune(&["dataset", corrupt.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        stderr.contains("ply 6") && stderr.contains("not legal"),
        "{stderr}"
    );
    bytes[0] = b'X';
    std::fs::write(&corrupt, &bytes).expect("write");
    let (ok, _, stderr) = tune(&["dataset", corrupt.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("not a self-play data file"), "{stderr}");
    let _ = std::fs::remove_file(out);
    let _ = std::fs::remove_file(corrupt);
}

#[test]
fn sample_reads_self_play_data_as_it_reads_records() {
    let out = temp_path("gomoku.bgdata");
    let positions = temp_path("gomoku-positions.txt");
    let path = out.to_str().unwrap();
    let args = [
        "datagen",
        "--game",
        "gomoku",
        "--rule",
        "BoardSize=9",
        "--nodes",
        "200",
        "--games",
        "3",
        "--openings",
        "random:3:5",
        "--out",
        path,
    ];
    let (ok, _, stderr) = tune(&args);
    assert!(ok, "{stderr}");
    let data = dataset::read_file(&out).expect("the file");
    let rules = build_rules::<Gomoku>(&data.header.rules).expect("the rules");
    let searched: usize = data.games.iter().map(|g| g.moves.len() - 3).sum();
    for game in &data.games {
        dataset::replay::<Gomoku>(game, &rules, |_| {}).expect("a game replays");
    }
    let sample = [
        "sample",
        "--game",
        "gomoku",
        "--records",
        path,
        "--skip",
        "3",
        "--out",
        positions.to_str().unwrap(),
    ];
    let (ok, stdout, stderr) = tune(&sample);
    assert!(ok, "{stderr}");
    assert!(
        stdout.starts_with("3 games (0 not ended by the rules"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&positions).expect("positions");
    let lines: Vec<&str> = text.lines().collect();
    assert!(!lines.is_empty() && lines.len() <= searched);
    // Every position is on a 9x9 board and carries the search's score.
    assert!(
        lines
            .iter()
            .all(|l| l.split('|').count() == 3 && l.split('/').count() == 9),
        "{text}"
    );
    let _ = std::fs::remove_file(out);
    let _ = std::fs::remove_file(positions);
}

#[test]
fn engine_options_reach_every_game_and_a_bad_one_is_refused() {
    let plain = temp_path("plain.bgdata");
    let monte_carlo = temp_path("mcts.bgdata");
    assert!(datagen(&plain, 2, &[]).0);
    let (ok, _, stderr) = datagen(&monte_carlo, 2, &["--set", "SearchMethod=mcts"]);
    assert!(ok, "{stderr}");
    let moves = |path: &Path| {
        let data = dataset::read_file(path).expect("the file reads back");
        let mut games = data.games;
        games.sort_by_key(|game| game.index);
        games.into_iter().map(|game| game.moves).collect::<Vec<_>>()
    };
    assert_ne!(moves(&plain), moves(&monte_carlo), "another search plays");

    let unknown = temp_path("unknown-option.bgdata");
    let (ok, _, stderr) = datagen(&unknown, 2, &["--set", "NoSuchOption=3"]);
    assert!(!ok);
    assert!(stderr.contains("option NoSuchOption=3"), "{stderr}");
    let (ok, _, stderr) = datagen(&unknown, 2, &["--set", "SearchMethod"]);
    assert!(!ok);
    assert!(stderr.contains("NAME=VALUE"), "{stderr}");
    for path in [plain, monte_carlo, unknown] {
        let _ = std::fs::remove_file(path);
    }
}
