//! `tune spsa` against our Breakthrough engine at a fixed node count, where
//! games are reproducible: a stopped and resumed run ends exactly where an
//! unbroken one does, a crashing engine stops the run without losing its
//! finished steps, and bad parameters are refused before any game.
#![cfg(feature = "tune")]

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin;

mod common;

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("spsa-test-{}-{name}", std::process::id()))
}

fn tune(args: &[String]) -> (bool, String, String) {
    common::run_tune(args)
}

/// Four pairs, one per step, tuning two of Breakthrough's spins.
fn spsa_args(engine: &str, log: &Path, out: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = strings(&[
        "spsa",
        "--game",
        "breakthrough",
        "--engine",
        &format!("cmd={engine}"),
        "nodes=400",
        "--param",
        "LmpBase=3,0,12,1,0.05",
        "--param",
        "AspirationWindow=35,10,120,5,0.05",
        "--pairs",
        "4",
        "--pairs-per-step",
        "1",
        "--openings",
        "random:4",
        "--seed",
        "3",
        "--log",
        log.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(strings(extra));
    args
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|s| s.to_string()).collect()
}

fn engine() -> String {
    cargo_bin("bg-breakthrough").display().to_string()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn a_resumed_run_ends_where_an_unbroken_run_does() {
    let (log, out) = (temp_path("whole.jsonl"), temp_path("whole.txt"));
    let (ok, report, err) = tune(&spsa_args(&engine(), &log, &out, &[]));
    assert!(ok, "{report}{err}");
    let whole = read(&log);
    assert_eq!(whole.lines().count(), 1 + 4, "{whole}");
    assert!(whole
        .lines()
        .any(|l| l.contains("\"step\":") && !l.contains("\"plus\":[3,35]")));
    assert!(read(&out).starts_with("option.LmpBase="), "{}", read(&out));

    // Stopped after two steps, killed in the middle of writing the third.
    let (cut, cut_out) = (temp_path("cut.jsonl"), temp_path("cut.txt"));
    let first_three: Vec<&str> = whole.lines().take(3).collect();
    std::fs::write(&cut, first_three.join("\n") + "\n{\"step\":{\"step\":2,").unwrap();
    let (ok, _, err) = tune(&spsa_args(&engine(), &cut, &cut_out, &[]));
    assert!(!ok && err.contains("--resume"), "{err}");
    let (ok, resumed_report, err) = tune(&spsa_args(&engine(), &cut, &cut_out, &["--resume"]));
    assert!(ok, "{err}");
    assert_eq!(read(&cut), whole);
    assert_eq!(read(&cut_out), read(&out));
    assert!(
        resumed_report.contains("4 pairs in 4 steps"),
        "{resumed_report}"
    );

    // Other settings do not resume this log.
    let mut other = spsa_args(&engine(), &cut, &cut_out, &["--resume"]);
    let seed = other.iter().position(|a| a == "--seed").unwrap();
    other[seed + 1] = "4".to_owned();
    let (ok, _, err) = tune(&other);
    assert!(!ok && err.contains("--seed"), "{err}");
    let mut faster = spsa_args(&engine(), &cut, &cut_out, &["--resume"]);
    let nodes = faster.iter().position(|a| a == "nodes=400").unwrap();
    faster[nodes] = "nodes=300".to_owned();
    let (ok, _, err) = tune(&faster);
    assert!(!ok && err.contains("--engine"), "{err}");
    assert_eq!(read(&cut), whole);
    for path in [log, out, cut, cut_out] {
        std::fs::remove_file(path).ok();
    }
}

/// An engine wrapper that fails to start from its `limit`-th launch on.
fn flaky_engine(dir: &Path, limit: u32) -> PathBuf {
    let script = dir.join("engine.sh");
    let counter = dir.join("launches");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nn=$(cat '{c}' 2>/dev/null || echo 0)\necho $((n + 1)) > '{c}'\n\
             [ \"$n\" -ge {limit} ] && exit 3\nexec '{e}'\n",
            c = counter.display(),
            e = engine()
        ),
    )
    .unwrap();
    script
}

#[test]
fn a_crashing_engine_stops_the_run_and_keeps_its_finished_steps() {
    let dir = temp_path("flaky");
    std::fs::create_dir_all(&dir).unwrap();
    let (log, out) = (dir.join("run.jsonl"), dir.join("out.txt"));
    // The probe is launch 0; each step starts two engines: the third step
    // cannot start its engines.
    let script = flaky_engine(&dir, 5);
    let command = format!("sh {}", script.display());
    let (ok, _, err) = tune(&spsa_args(&command, &log, &out, &[]));
    assert!(!ok, "the run must fail");
    assert!(
        err.contains("step 3 stopped the run") && err.contains("crash"),
        "{err}"
    );
    assert_eq!(read(&log).lines().count(), 1 + 2, "{}", read(&log));
    assert!(!out.exists());

    let kept = read(&log);
    flaky_engine(&dir, 1000);
    let (ok, report, err) = tune(&spsa_args(&command, &log, &out, &["--resume"]));
    assert!(ok, "{report}{err}");
    let finished = read(&log);
    assert!(finished.starts_with(&kept));
    assert_eq!(finished.lines().count(), 1 + 4);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_parameters_are_refused_before_any_game() {
    let (log, out) = (temp_path("bad.jsonl"), temp_path("bad.txt"));
    let hex = cargo_bin("bg-hex").display().to_string();
    // (engine, game, parameter, what the error must say)
    let cases = [
        (engine(), "breakthrough", "Width", "no option 'Width'"),
        (hex, "hex", "Swap", "not a spin"),
        (
            engine(),
            "breakthrough",
            "LmpBase=50,0,12",
            "must lie in [0, 12]",
        ),
        (
            engine(),
            "breakthrough",
            "LmpBase=1,2",
            "NAME=START,MIN,MAX",
        ),
        (
            "/no/such/engine".to_owned(),
            "breakthrough",
            "LmpBase",
            "cannot start the engine",
        ),
    ];
    for (engine, game, param, expected) in cases {
        let args = strings(&[
            "spsa",
            "--game",
            game,
            "--engine",
            &format!("cmd={engine}"),
            "nodes=100",
            "--param",
            param,
            "--openings",
            "random:2",
            "--log",
            log.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let (ok, _, err) = tune(&args);
        assert!(!ok && err.contains(expected), "{param}: {err}");
        assert!(!log.exists() && !out.exists(), "{param}: wrote files");
    }
}
