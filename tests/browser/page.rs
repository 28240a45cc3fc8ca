//! What the browser tests read and click on the board's page.

use std::path::Path;
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::Value;

// ---- the page ----------------------------------------------------------------

pub async fn state(client: &Client) -> Value {
    client
        .execute("return state;", vec![])
        .await
        .expect("the page's state")
}

pub async fn text_of(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .unwrap_or_default()
}

/// Waits until `accept` holds for the page's state.
pub async fn wait_state(client: &Client, what: &str, accept: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let s = state(client).await;
        if !s.is_null() && accept(&s) {
            return s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "timed out waiting for {what}; state {s}; error '{}'",
            text_of(client, "#error").await
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

pub async fn set_value(client: &Client, id: &str, value: &str) {
    client
        .execute(
            "const e = document.getElementById(arguments[0]); e.value = arguments[1]; \
             e.dispatchEvent(new Event('change'));",
            vec![id.into(), value.into()],
        )
        .await
        .unwrap_or_else(|e| panic!("cannot set #{id}: {e}"));
}

pub async fn set_checked(client: &Client, id: &str, checked: bool) {
    client
        .execute(
            "document.getElementById(arguments[0]).checked = arguments[1];",
            vec![id.into(), checked.into()],
        )
        .await
        .unwrap_or_else(|e| panic!("cannot set #{id}: {e}"));
}

pub async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
}

pub async fn click_cell(client: &Client, cell: &str) {
    click(client, &format!("[data-cell=\"{cell}\"]")).await;
}

/// Opens the page and starts a game: `p1`/`p2` are `human` or a level
/// (`custom` with `limit` for tiny limits).
pub async fn start_game(
    client: &Client,
    address: &str,
    game: &str,
    rules: &[(&str, &str)],
    players: [&str; 2],
    limit: &str,
) -> Value {
    start_game_with_delay(client, address, game, rules, players, limit, "0").await
}

pub async fn start_game_with_delay(
    client: &Client,
    address: &str,
    game: &str,
    rules: &[(&str, &str)],
    players: [&str; 2],
    limit: &str,
    delay_ms: &str,
) -> Value {
    client.goto(address).await.expect("the page opens");
    wait_ready(client).await;
    set_value(client, "game", game).await;
    for (name, value) in rules {
        let id = format!("rule-{name}");
        if *value == "true" || *value == "false" {
            set_checked(client, &id, *value == "true").await;
        } else {
            set_value(client, &id, value).await;
        }
    }
    for (side, player) in ["p1", "p2"].iter().zip(players) {
        if player == "human" {
            set_value(client, &format!("{side}-kind"), "human").await;
        } else {
            set_value(client, &format!("{side}-kind"), "ours").await;
            set_value(client, &format!("{side}-level"), "custom").await;
            set_value(client, &format!("{side}-limit"), limit).await;
        }
    }
    set_value(client, "delay", delay_ms).await;
    click(client, "#new-game").await;
    wait_state(client, "the new game", |s| s["game"] == game).await
}

/// Waits until the page is connected, lists the four games and shows the
/// game a first visit opens on; then forgets that game's state, so that the
/// test's next wait sees only the states of the game it starts.
pub async fn wait_ready(client: &Client) {
    let started = Instant::now();
    let ready = "return document.getElementById('connection').textContent === 'connected' \
                 && games.length >= 4 && state !== null;";
    while client.execute(ready, vec![]).await.ok() != Some(Value::Bool(true)) {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the page did not open on a game; error '{}'",
            text_of(client, "#error").await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    client
        .execute("state = null;", vec![])
        .await
        .expect("the page's state can be reset");
}

pub fn plies(s: &Value) -> usize {
    s["moves"].as_array().map_or(0, Vec::len)
}

pub fn legal(s: &Value) -> Vec<String> {
    s["legal"]
        .as_array()
        .map(|moves| {
            moves
                .iter()
                .filter_map(|m| m.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Plays the person's side (player 1) by clicks until the game ends:
/// `play` makes one move's clicks from the legal moves.
pub async fn play_to_the_end<F>(client: &Client, mut play: F) -> Value
where
    F: FnMut(&[String]) -> Vec<Click>,
{
    let started = Instant::now();
    loop {
        let s = wait_state(client, "the person's turn or the end", |s| {
            !s["result"].is_null() || s["to_move"] == "p1"
        })
        .await;
        if !s["result"].is_null() {
            return s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "game too long"
        );
        let before = plies(&s);
        for step in play(&legal(&s)) {
            match step {
                Click::Cell(cell) => click_cell(client, &cell).await,
                Click::Css(css) => click(client, &css).await,
            }
        }
        wait_state(client, "the move to be taken", |s| plies(s) > before).await;
    }
}

pub enum Click {
    Cell(String),
    Css(String),
}

/// Checks the result shown and the saved record.
pub async fn check_end(client: &Client, s: &Value, record_has: &[&str]) {
    let shown = text_of(client, "#result").await;
    let expected = s["result"]["score"].as_str().expect("a score");
    assert!(shown.starts_with(expected), "shown '{shown}', state {s}");
    click(client, "#save").await;
    let started = Instant::now();
    let record = loop {
        let text: String = client
            .execute("return document.getElementById('record').value;", vec![])
            .await
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        if !text.is_empty() {
            break text;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "no record");
        tokio::time::sleep(Duration::from_millis(40)).await;
    };
    for needle in record_has {
        assert!(
            record.contains(needle),
            "'{needle}' not in record:\n{record}"
        );
    }
    // SGF gives the result as RE[B+] / RE[W+] (player 1 is Black in Hex
    // and Gomoku), the text record as 1-0 / 0-1.
    let result_text = match (record.starts_with('('), expected) {
        (true, "1-0") => "RE[B+",
        (true, "0-1") => "RE[W+",
        (true, _) => "RE[",
        (false, score) => score,
    };
    assert!(
        record.contains(result_text),
        "no result in record:\n{record}"
    );
    let last = s["moves"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["move"].as_str())
        .expect("a last move");
    if record.starts_with("[Game") {
        assert!(record.contains(last), "last move {last} not in:\n{record}");
    }
}

/// With `BOARD_SCREENSHOTS=<folder>`, saves the page as `<folder>/<name>.png`
/// (the README's pictures come from here).
pub async fn screenshot(client: &Client, name: &str) {
    let Ok(folder) = std::env::var("BOARD_SCREENSHOTS") else {
        return;
    };
    let png = client.screenshot().await.expect("a screenshot");
    let path = Path::new(&folder).join(format!("{name}.png"));
    std::fs::write(&path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

pub async fn count(client: &Client, css: &str) -> usize {
    client
        .find_all(Locator::Css(css))
        .await
        .map_or(0, |found| found.len())
}

/// The board's `shape` cells whose fill is not the empty cell's: the stones.
pub async fn filled_cells(client: &Client, shape: &str, empty_fill: &str) -> Option<u64> {
    let script = format!(
        "return [...document.querySelectorAll('{shape}[data-cell]')]\
         .filter(c => c.getAttribute('fill') !== '{empty_fill}').length;"
    );
    client
        .execute(&script, vec![])
        .await
        .expect("stones")
        .as_u64()
}

/// Waits for the page to show an error, and returns it.
pub async fn wait_error(client: &Client) -> String {
    let started = Instant::now();
    loop {
        let error = text_of(client, "#error").await;
        if !error.is_empty() {
            return error;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no error shown"
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Waits until `script` (a JavaScript expression) is true on the page.
pub async fn wait_until(client: &Client, what: &str, script: &str) {
    let started = Instant::now();
    loop {
        let value = client
            .execute(&format!("return Boolean({script});"), vec![])
            .await
            .unwrap_or(Value::Bool(false));
        if value == Value::Bool(true) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what}; error '{}'",
            text_of(client, "#error").await
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}
