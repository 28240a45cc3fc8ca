//! The learned evaluation end to end, for each game with network features
//! (Breakthrough, Gomoku): self-play data, a network trained on it (and
//! resumed from its checkpoint), loaded by the engine through `EvalFile`; a
//! bad network file, or one for another game's features, is refused and
//! the engine keeps its own.
#![cfg(feature = "tune")]

use std::path::{Path, PathBuf};

use common::{path_text as text, run_tune as tune, Engine};

mod common;

fn temp_path(name: &str) -> PathBuf {
    common::temp_path("network", name)
}

/// A small network trained on a few self-play games of `game`.
fn trained_network(game: &str, name: &str) -> PathBuf {
    let data = temp_path(&format!("{name}.bgdata"));
    let network = temp_path(&format!("{name}.bgnn"));
    common::datagen(game, &[], "12", "random:4:3", &data);
    let (ok, stdout, stderr) = train(game, &data, &network, 3, &["--fresh"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("epoch   3:"), "{stdout}");
    network
}

fn train(
    game: &str,
    data: &Path,
    network: &Path,
    epochs: u32,
    extra: &[&str],
) -> (bool, String, String) {
    let epochs = epochs.to_string();
    let mut args = vec![
        "train-network",
        "--game",
        game,
        "--data",
        text(data),
        "--out",
        text(network),
        "--hidden",
        "16",
        "--batch",
        "256",
        "--held-every",
        "4",
        "--epochs",
        &epochs,
    ];
    args.extend_from_slice(extra);
    tune(&args)
}

/// The network line of `eval`, which names its hash.
fn network_line(engine: &mut Engine) -> String {
    let lines = engine.ask("eval", "info string eval total");
    lines
        .into_iter()
        .find(|line| line.contains("hash "))
        .unwrap_or_else(|| "no network line".into())
}

/// The network's hash in a network line of `eval`.
fn hash_of(line: &str) -> String {
    let after = line.split("hash ").nth(1).unwrap_or_default();
    after
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn a_network_trained_on_self_play_plays_through_evalfile() {
    let network = trained_network("breakthrough", "pipeline");
    let data = temp_path("pipeline.bgdata");
    let (ok, stdout, stderr) = train("breakthrough", &data, &network, 5, &[]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("resumed after epoch 3"), "{stdout}");
    assert!(
        stdout.contains("epoch   4:") && !stdout.contains("epoch   3:"),
        "{stdout}"
    );

    let mut engine = Engine::start("breakthrough");
    engine.send(&format!("setoption name EvalFile value {}", text(&network)));
    engine.send("setoption name Evaluation value network");
    let said = engine.sync();
    assert!(said.iter().all(|l| !l.contains("error")), "{said:?}");
    let line = network_line(&mut engine);
    assert!(line.contains("breakthrough-pieces-8x8"), "{line}");
    engine.send("position startpos moves a2a3 h7h6");
    let lines = engine.ask("go depth 4", "bestmove");
    let best = lines.last().expect("a bestmove line");
    assert!(!best.contains("none") && !best.contains("(none)"), "{best}");
    engine.finish();
}

#[test]
fn a_bad_network_file_is_refused_and_the_loaded_one_kept() {
    let network = trained_network("breakthrough", "refusals");
    let bytes = std::fs::read(&network).expect("the network reads back");
    let truncated = temp_path("truncated.bgnn");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("writable");
    let altered = temp_path("altered.bgnn");
    let mut changed = bytes.clone();
    changed[100] ^= 0x40;
    std::fs::write(&altered, &changed).expect("writable");
    let missing = temp_path("missing.bgnn");
    let _ = std::fs::remove_file(&missing);

    let mut engine = Engine::start("breakthrough");
    engine.send(&format!("setoption name EvalFile value {}", text(&network)));
    engine.send("setoption name Evaluation value network");
    engine.sync();
    let loaded = network_line(&mut engine);
    for (path, reason) in [
        (&truncated, "truncated"),
        (&altered, "hash"),
        (&missing, "cannot read"),
    ] {
        engine.send(&format!("setoption name EvalFile value {}", text(path)));
        let said = engine.sync();
        assert!(
            said.iter()
                .any(|l| l.starts_with("info string error") && l.contains(reason)),
            "{path:?}: {said:?}"
        );
        assert_eq!(network_line(&mut engine), loaded);
    }
    engine.send("setoption name Evaluation value neural");
    let said = engine.sync();
    assert!(
        said.iter().any(|l| l.contains("classical or network")),
        "{said:?}"
    );
    assert_eq!(network_line(&mut engine), loaded);
    engine.finish();
}

#[test]
fn a_gomoku_network_plays_through_evalfile_and_a_foreign_one_is_refused() {
    let network = trained_network("gomoku", "gomoku");
    let foreign = trained_network("breakthrough", "foreign");
    let mut engine = Engine::start("gomoku");
    let line = network_line(&mut engine);
    assert!(
        line.contains("gomoku-shape-sets"),
        "the built-in network by default: {line}"
    );
    let built_in = hash_of(&line);
    engine.send(&format!("setoption name EvalFile value {}", text(&foreign)));
    let said = engine.sync();
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string error") && l.contains("breakthrough-pieces-8x8")),
        "{said:?}"
    );
    assert_eq!(hash_of(&network_line(&mut engine)), built_in);
    engine.send(&format!("setoption name EvalFile value {}", text(&network)));
    engine.send("setoption name Evaluation value network");
    let said = engine.sync();
    assert!(said.iter().all(|l| !l.contains("error")), "{said:?}");
    engine.send("position startpos moves h8 h9");
    let line = network_line(&mut engine);
    assert!(line.contains("gomoku-shape-sets"), "{line}");
    assert_ne!(hash_of(&line), built_in);
    let lines = engine.ask("go depth 3", "bestmove");
    let best = lines.last().expect("a bestmove line");
    assert!(!best.contains("none"), "{best}");
    // The shape sets do not depend on where a cell lies: the same network
    // evaluates another board size.
    engine.send("setoption name BoardSize value 13");
    engine.send("position startpos moves g7");
    assert!(network_line(&mut engine).contains("gomoku-shape-sets"));
    let lines = engine.ask("go depth 3", "bestmove");
    assert!(!lines.last().expect("a bestmove line").contains("none"));
    engine.send("setoption name EvalFile value <built-in>");
    assert_eq!(hash_of(&network_line(&mut engine)), built_in);
    engine.send("setoption name Evaluation value classical");
    assert_eq!(network_line(&mut engine), "no network line");
    engine.finish();
}

/// `--init` starts a run from a network file: with no epoch to train, the
/// run writes that network back unchanged; a file of another width or
/// another game is refused with the reason.
#[test]
fn training_starts_from_a_network_file_given_with_init() {
    let built_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/gomoku/network.bgnn");
    let data = temp_path("init.bgdata");
    common::datagen("gomoku", &[], "4", "random:4:3", &data);
    let copy = temp_path("init-copy.bgnn");
    let init = ["--fresh", "--init", text(&built_in)];
    let (ok, stdout, stderr) = tune(&[
        "train-network",
        "--game",
        "gomoku",
        "--data",
        text(&data),
        "--out",
        text(&copy),
        "--hidden",
        "64",
        "--epochs",
        "0",
        init[0],
        init[1],
        init[2],
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("0 epochs"), "{stdout}");
    assert!(stdout.contains("epoch   0: loss "), "{stdout}");
    let (written, original) = (std::fs::read(&copy), std::fs::read(&built_in));
    assert_eq!(
        written.ok(),
        original.ok(),
        "the network is not written back as it was"
    );

    let (ok, _, stderr) = train("gomoku", &data, &copy, 1, &init);
    assert!(!ok && stderr.contains("64 hidden units"), "{stderr}");
    let breakthrough = trained_network("breakthrough", "init-foreign");
    let foreign = ["--fresh", "--init", text(&breakthrough)];
    let (ok, _, stderr) = train("gomoku", &data, &copy, 1, &foreign);
    assert!(
        !ok && stderr.contains("breakthrough-pieces-8x8"),
        "{stderr}"
    );
}
