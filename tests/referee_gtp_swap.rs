//! The pie rule across the two ways of writing it. benzene's GTP (MoHex,
//! Wolve, HexGui) keeps Black's stone after `swap-pieces` and exchanges
//! the players; ours mirrors the stone (see `games::hex::colour_mirror`).
//! tests/fixtures/benzene_board.py keeps benzene's board, refuses a move
//! that does not fit it, and swaps whenever it may: the referee must tell
//! it every move in its frame, and `bg-hex --gtp` must speak that frame.

use std::path::PathBuf;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use boardgames::core::{Game, Player};
use boardgames::games::hex::{Hex, HexRules};
use boardgames::referee::adjudication::Termination;
use boardgames::referee::record::{parse_json_lines, GameRecord};

mod common;

const SIZE: usize = 6;

fn temp_path(name: &str) -> PathBuf {
    common::temp_path("referee-gtp-swap", name)
}

/// Plays `games` games between the benzene-board engine and `ours`, and
/// returns the records and the engine's boards, one line a game.
fn play_against_benzene_board(
    ours: &[&str],
    tag: &str,
    games: usize,
) -> (Vec<GameRecord>, Vec<String>) {
    common::require_python();
    let records = temp_path(&format!("{tag}.jsonl"));
    let boards = temp_path(&format!("{tag}-boards.txt"));
    let _ = std::fs::remove_file(&boards);
    let script = format!(
        "python3 '{}/tests/fixtures/benzene_board.py' --boards '{}' --seed 7",
        env!("CARGO_MANIFEST_DIR"),
        boards.display()
    );
    let mut args = common::strings(&[
        "--game",
        "hex",
        "--rule",
        &format!("BoardSize={SIZE}"),
        "--rule",
        "Swap=true",
        "--engine",
        &format!("cmd={script}"),
        "proto=gtp",
        "name=benzene",
        "st=0.05",
        "timemargin=1000",
    ]);
    args.push("--engine".to_owned());
    args.extend(common::strings(ours));
    args.extend(common::strings(&[
        "--games",
        &games.to_string(),
        "--openings",
        &format!("random:1:{SIZE}"),
        "--records",
        records.to_str().unwrap(),
        "--quiet",
    ]));
    let output = Command::new(cargo_bin("bg-referee"))
        .args(&args)
        .output()
        .expect("run the referee");
    assert!(
        output.status.success(),
        "referee failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = parse_json_lines(&std::fs::read_to_string(&records).unwrap()).unwrap();
    let boards = std::fs::read_to_string(&boards).unwrap_or_default();
    let _ = (
        std::fs::remove_file(&records),
        std::fs::remove_file(&boards),
    );
    (games, boards.lines().map(str::to_owned).collect())
}

/// The record's first `plies` moves replayed with our rules, drawn as the
/// fixture draws its board: in benzene's frame after a swap.
fn benzene_picture(record: &GameRecord, plies: usize) -> String {
    let rules = HexRules {
        board_size: SIZE,
        swap: true,
    };
    let mut position = Hex::start_position(&rules);
    for m in &record.moves[..plies] {
        let mv = position
            .parse_legal_move(&m.mv)
            .expect("a legal recorded move");
        position.make_move(mv);
    }
    if record.moves[..plies].iter().any(|m| m.mv == "swap") {
        position = position.colour_mirrored();
    }
    let rows: Vec<String> = (0..SIZE)
        .map(|row| {
            (0..SIZE)
                .map(|column| match position.stone_at(row * SIZE + column) {
                    1 => 'x',
                    2 => 'o',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    let side = match position.side_to_move() {
        Player::P1 => 'b',
        Player::P2 => 'w',
    };
    format!("{plies} {} {side}", rows.join("/"))
}

/// Every game ends by the rules (ours may resign a lost one over GTP), the
/// fixture swapped in every game it could, and its board is ours seen
/// through the mirror.
fn check(games: &[GameRecord], boards: &[String]) {
    assert_eq!(games.len(), boards.len(), "{boards:?}");
    let mut swaps = [0, 0];
    for (record, board) in games.iter().zip(boards) {
        assert!(
            matches!(
                record.result.termination,
                Termination::Rules | Termination::Resignation
            ),
            "{:?} {:?}",
            record.result,
            record.moves.iter().map(|m| &m.mv).collect::<Vec<_>>()
        );
        let benzene_second = record.players[1] == "benzene";
        if benzene_second {
            assert_eq!(record.moves[1].mv, "swap", "the fixture always swaps");
        }
        if record.moves[1].mv == "swap" {
            swaps[usize::from(!benzene_second)] += 1;
        }
        let plies: usize = board.split(' ').next().unwrap().parse().unwrap();
        assert_eq!(board, &benzene_picture(record, plies));
    }
    assert!(swaps[0] > 0, "the fixture never swapped");
    assert!(swaps[1] > 0, "ours never swapped: {games:?}");
}

#[test]
fn the_referee_tells_a_benzene_engine_every_move_in_its_frame() {
    let hex = cargo_bin("bg-hex");
    let (games, boards) = play_against_benzene_board(
        &[&format!("cmd={}", hex.display()), "name=ugi", "nodes=200"],
        "ugi",
        6,
    );
    check(&games, &boards);
}

#[test]
fn our_gtp_front_end_speaks_benzenes_frame_after_a_swap() {
    let hex = cargo_bin("bg-hex");
    let (games, boards) = play_against_benzene_board(
        &[
            &format!("cmd={} --gtp", hex.display()),
            "proto=gtp",
            "name=gtp",
            "st=0.05",
            "timemargin=1000",
        ],
        "gtp",
        6,
    );
    check(&games, &boards);
}
