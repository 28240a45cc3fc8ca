//! The board's controls in a real browser: a saved game loaded back,
//! "copy FEN", engines that fail replaced mid-game, what a thinking engine
//! shows (its clock, its principal variation, the score graph), move now
//! and the hint on the board, and `--allow-commands`.
#![cfg(feature = "board")]

mod browser;

use std::time::{Duration, Instant};

use browser::page::*;
use browser::{with_server, Ending};
use fantoccini::Client;

/// How soon an engine told to move now must have moved (its limit is a
/// minute).
const SOON: Duration = Duration::from_secs(10);

/// Sets one side to an engine command (`proto` ugi) at `limit`.
async fn command_player(client: &Client, side: &str, command: &str, limit: &str) {
    set_value(client, &format!("{side}-kind"), "command").await;
    set_value(client, &format!("{side}-command"), command).await;
    set_value(client, &format!("{side}-proto"), "ugi").await;
    set_value(client, &format!("{side}-level"), "custom").await;
    set_value(client, &format!("{side}-limit"), limit).await;
}

/// A command running the project's Breakthrough engine through the
/// misbehaving relay in `mode`, from its `after`-th move on.
fn misbehaving(mode: &str, after: u32) -> String {
    format!(
        "python3 '{}/tests/fixtures/misbehave.py' {mode} --after {after} -- '{}'",
        env!("CARGO_MANIFEST_DIR"),
        env!("CARGO_BIN_EXE_bg-breakthrough")
    )
}

async fn open_breakthrough_5x5(client: &Client, address: &str) {
    client.goto(address).await.expect("the page opens");
    wait_ready(client).await;
    set_value(client, "game", "breakthrough").await;
    set_value(client, "rule-Rows", "5").await;
    set_value(client, "rule-Columns", "5").await;
    set_value(client, "p1-kind", "human").await;
    set_value(client, "delay", "0").await;
}

/// Plays player 1's most forward move by clicks; returns the plies after
/// the engine's answer (or its fault).
async fn person_moves(client: &Client) {
    let s = wait_state(client, "the person's turn", |s| s["to_move"] == "p1").await;
    let mv = legal(&s)
        .into_iter()
        .max_by_key(|m| m.as_bytes()[3])
        .expect("a legal move");
    click_cell(client, &mv[0..2]).await;
    click_cell(client, &mv[2..4]).await;
    let before = plies(&s);
    wait_state(client, "the person's move", |s| plies(s) > before).await;
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn engines_that_play_illegal_or_crash_are_reported_and_replaced() {
    with_server(&[], Ending::CloseTab, |client, address| async move {
        open_breakthrough_5x5(&client, &address).await;
        command_player(&client, "p2", &misbehaving("illegal", 1), "depth=1").await;
        click(&client, "#new-game").await;
        wait_state(&client, "the new game", |s| s["game"] == "breakthrough").await;
        person_moves(&client).await;
        person_moves(&client).await;
        // Its second move is the person's last: illegal, reported, and
        // the side waits for a new player.
        let faulted = wait_state(&client, "the fault", |s| {
            s["players"][1]["fault"].is_string()
        })
        .await;
        let fault = faulted["players"][1]["fault"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(fault.contains("illegal move"), "{fault}");
        let error = wait_error(&client).await;
        assert!(error.contains("choose another engine for black"), "{error}");
        assert!(text_of(&client, ".faulted").await.contains("illegal move"));
        // A crashing engine in its place is reported too.
        command_player(&client, "p2", &misbehaving("crash", 0), "depth=1").await;
        click(&client, "#p2-apply").await;
        let crashed = wait_state(&client, "the crash", |s| {
            s["players"][1]["fault"]
                .as_str()
                .is_some_and(|f| f.contains("crashed"))
        })
        .await;
        // Our engine takes over and the game goes on from where it was.
        set_value(&client, "p2-kind", "ours").await;
        click(&client, "#p2-apply").await;
        let going_on = wait_state(&client, "the new engine's move", |s| {
            plies(s) == plies(&crashed) + 1 && s["players"][1]["fault"].is_null()
        })
        .await;
        assert_eq!(going_on["to_move"], "p1");
        assert_eq!(count(&client, ".faulted").await, 0);
    });
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn a_saved_game_loads_back_and_its_fen_is_copied() {
    with_server(&[], Ending::CloseTab, |client, address| async move {
        open_breakthrough_5x5(&client, &address).await;
        set_value(&client, "p2-kind", "human").await;
        click(&client, "#new-game").await;
        wait_state(&client, "the new game", |s| s["game"] == "breakthrough").await;
        // Each move waits for the board to be drawn anew before the next.
        for (ply, (from, to)) in [("a2", "a3"), ("e4", "e3"), ("b2", "b3")]
            .iter()
            .enumerate()
        {
            click_cell(&client, from).await;
            click_cell(&client, to).await;
            wait_state(&client, "the move", |s| plies(s) == ply + 1).await;
        }
        let saved_state = wait_state(&client, "three moves", |s| plies(s) == 3).await;
        click(&client, "#save").await;
        wait_until(
            &client,
            "the record",
            "document.getElementById('record').value.includes('b2b3')",
        )
        .await;
        // Another game, of another kind, then the record loaded back: the
        // board's game, rules and position come back, unfinished.
        set_value(&client, "game", "hex").await;
        click(&client, "#new-game").await;
        wait_state(&client, "the hex game", |s| s["game"] == "hex").await;
        click(&client, "#load").await;
        let loaded = wait_state(&client, "the loaded game", |s| s["game"] == "breakthrough").await;
        assert_eq!(loaded["fen"], saved_state["fen"]);
        assert_eq!(plies(&loaded), 3);
        assert!(loaded["result"].is_null());
        assert_eq!(count(&client, "rect[data-cell]").await, 25);
        // It goes on: Black to move.
        click_cell(&client, "d4").await;
        click_cell(&client, "d3").await;
        let on = wait_state(&client, "the next move", |s| plies(s) == 4).await;
        // "Copy FEN" puts the position in its field, selected.
        click(&client, "#copy-fen").await;
        let shown = wait_error(&client).await;
        assert!(shown.starts_with("FEN"), "{shown}");
        let field = client
            .execute(
                "const f = document.getElementById('fen'); \
                 return [f.value, f.value.substring(f.selectionStart, f.selectionEnd)];",
                vec![],
            )
            .await
            .expect("the FEN field");
        assert_eq!(field[0], on["fen"]);
        assert_eq!(field[1], on["fen"], "the FEN is selected");
    });
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn thinking_is_shown_and_move_now_and_the_hint_cut_it_short() {
    with_server(&[], Ending::CloseTab, |client, address| async move {
        client.goto(&address).await.expect("the page opens");
        wait_ready(&client).await;
        set_value(&client, "game", "hex").await;
        // 9x9, not smaller: the engine proves small boards (at most 64 empty
        // cells) at once and would answer before it could be seen thinking.
        set_value(&client, "rule-BoardSize", "9").await;
        set_value(&client, "p1-kind", "ours").await;
        set_value(&client, "p1-level", "custom").await;
        set_value(&client, "p1-limit", "ms=60000").await;
        set_value(&client, "p2-kind", "human").await;
        click(&client, "#new-game").await;
        // The engine's clock, its figures, its PV on the board and the
        // score graph's live stretch.
        wait_until(&client, "the thinking shown", "document.getElementById('thinking').textContent.includes('thinking: ') && document.getElementById('thinking').textContent.includes('pv ')").await;
        wait_until(
            &client,
            "the PV drawn",
            "document.querySelectorAll('circle.pv-stone').length > 0",
        )
        .await;
        wait_until(
            &client,
            "the live score",
            "document.getElementById('graph-live')",
        )
        .await;
        screenshot(&client, "thinking").await;
        let asked = Instant::now();
        click(&client, "#move-now").await;
        let s = wait_state(&client, "the move made now", |s| plies(s) == 1).await;
        assert!(asked.elapsed() < SOON, "the engine went on thinking");
        assert!(s["moves"][0]["score"].is_string(), "{s}");
        // The person's move; then a hint from the engine, cut short too,
        // drawn on the board.
        let free = legal(&s)[0].clone();
        click_cell(&client, &free).await;
        wait_state(&client, "the person's move", |s| plies(s) == 2).await;
        wait_until(&client, "the engine thinking again", "thinking !== null").await;
        let asked = Instant::now();
        click(&client, "#move-now").await;
        wait_state(&client, "the person's turn", |s| plies(s) == 3).await;
        assert!(asked.elapsed() < SOON, "the engine went on thinking");
        wait_until(
            &client,
            "the graph's points",
            "Number(document.getElementById('graph').dataset.points) >= 2",
        )
        .await;
        click(&client, "#hint").await;
        wait_until(&client, "the hint search", "thinking !== null").await;
        let asked = Instant::now();
        click(&client, "#move-now").await;
        wait_until(
            &client,
            "the hint drawn",
            "document.querySelectorAll('.hint-mark').length === 1",
        )
        .await;
        assert!(asked.elapsed() < SOON, "the engine went on thinking");
        let hinted = client
            .execute(
                "return document.querySelector('.hint-mark').dataset.hint;",
                vec![],
            )
            .await
            .expect("the hint's cell");
        let shown = text_of(&client, "#hint-move").await;
        assert_eq!(shown.split_whitespace().nth(1), hinted.as_str(), "{shown}");
    });
}

/// A page on a server listening beyond this machine may run only the
/// project's engines, unless the server was started with
/// `--allow-commands`.
async fn command_engine_game(client: Client, address: String) -> bool {
    open_breakthrough_5x5(&client, &address).await;
    let command = format!("'{}'", env!("CARGO_BIN_EXE_bg-breakthrough"));
    command_player(&client, "p2", &command, "depth=1").await;
    click(&client, "#new-game").await;
    wait_until(
        &client,
        "an answer",
        "state !== null || document.getElementById('error').textContent !== ''",
    )
    .await;
    let error = text_of(&client, "#error").await;
    if error.is_empty() {
        person_moves(&client).await;
        wait_state(&client, "the command engine's move", |s| plies(s) == 2).await;
        true
    } else {
        assert!(error.contains("--allow-commands"), "{error}");
        false
    }
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn beyond_this_machine_engine_commands_need_allow_commands() {
    with_server(
        &["--host", "0.0.0.0"],
        Ending::CloseTab,
        |client, address| async move {
            assert!(!command_engine_game(client, address).await, "a command ran");
        },
    );
    with_server(
        &["--host", "0.0.0.0", "--allow-commands"],
        Ending::CloseTab,
        |client, address| async move {
            assert!(
                command_engine_game(client, address).await,
                "the command was refused"
            );
        },
    );
}
