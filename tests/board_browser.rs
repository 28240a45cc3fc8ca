//! The board in a real browser: a game of each of the four games by
//! clicks against an engine, engines watched, the swap, two tabs, and no
//! engine left behind however the page or the server ends.
#![cfg(feature = "board")]

mod browser;

use std::time::{Duration, Instant};

use browser::page::*;
use browser::{engine_processes, with_page, Ending};
use fantoccini::Client;
use serde_json::Value;

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn a_first_visit_opens_on_a_game_against_the_easy_engine() {
    with_page(Ending::CloseTab, |client, address| async move {
        client.goto(&address).await.expect("the page opens");
        let s = wait_state(&client, "the opening game", |s| !s.is_null()).await;
        assert_eq!(s["game"], "breakthrough");
        assert_eq!(s["to_move"], "p1");
        assert_eq!(s["players"][0]["human"], true, "{s}");
        assert_eq!(s["players"][1]["human"], false, "{s}");
        assert_eq!(count(&client, "rect[data-cell]").await, 64);
        // The person's first click-move gets the engine's answer.
        click_cell(&client, "a2").await;
        click_cell(&client, "a3").await;
        let s = wait_state(&client, "the engine's answer", |s| plies(s) == 2).await;
        assert_eq!(s["moves"][0]["move"], "a2a3");
        assert_eq!(s["to_move"], "p1");
    });
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn hex_by_clicks_against_an_engine_and_an_occupied_cell_refused() {
    with_page(Ending::CloseTab, |client, address| async move {
        let s = start_game(
            &client,
            &address,
            "hex",
            &[("BoardSize", "5"), ("Swap", "false")],
            ["human", "engine"],
            "depth=1",
        )
        .await;
        assert_eq!(count(&client, "polygon[data-cell]").await, 25);
        assert_eq!(legal(&s).len(), 25);
        click_cell(&client, "c3").await;
        let s = wait_state(&client, "the engine's reply", |s| plies(s) == 2).await;
        // An occupied cell is refused with a reason, and nothing changes.
        click_cell(&client, "c3").await;
        let error = wait_error(&client).await;
        assert!(error.contains("cell c3 is occupied"), "{error}");
        assert_eq!(plies(&state(&client).await), plies(&s));
        let end = play_to_the_end(&client, |legal| vec![Click::Cell(legal[0].clone())]).await;
        // Every move is a stone on the board.
        let stones = filled_cells(&client, "polygon", "#d9b36c").await;
        assert_eq!(stones, Some(plies(&end) as u64));
        screenshot(&client, "hex").await;
        check_end(&client, &end, &["GM[11]", "SZ[5]"]).await;
    });
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn gomoku_by_clicks_against_an_engine() {
    with_page(Ending::CloseTab, |client, address| async move {
        start_game(
            &client,
            &address,
            "gomoku",
            &[("BoardSize", "7")],
            ["human", "engine"],
            "depth=1",
        )
        .await;
        assert_eq!(count(&client, "circle[data-cell]").await, 49);
        let end = play_to_the_end(&client, |legal| vec![Click::Cell(legal[0].clone())]).await;
        let stones = filled_cells(&client, "circle", "transparent").await;
        assert_eq!(stones, Some(plies(&end) as u64));
        screenshot(&client, "gomoku").await;
        check_end(&client, &end, &["GM[4]", "SZ[7]"]).await;
    });
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn breakthrough_by_clicks_against_an_engine() {
    with_page(Ending::CloseTab, |client, address| async move {
        start_game(
            &client,
            &address,
            "breakthrough",
            &[("Rows", "5"), ("Columns", "5")],
            ["human", "engine"],
            "depth=1",
        )
        .await;
        assert_eq!(count(&client, "rect[data-cell]").await, 25);
        assert_eq!(count(&client, "[data-piece=white]").await, 10);
        // A first exchange, a hint, then undo back to the start.
        click_cell(&client, "b2").await;
        assert_eq!(count(&client, ".target").await, 3, "b2's three moves shown");
        click_cell(&client, "b3").await;
        wait_state(&client, "the engine's reply", |s| plies(s) == 2).await;
        click(&client, "#hint").await;
        let started = Instant::now();
        while !text_of(&client, "#hint-move").await.starts_with("hint: ") {
            assert!(started.elapsed() < Duration::from_secs(20), "no hint");
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
        click(&client, "#undo").await;
        wait_state(&client, "the undo", |s| plies(s) == 0).await;
        // Picking up an empty square is refused on the page.
        click_cell(&client, "c3").await;
        assert!(text_of(&client, "#error").await.contains("your own pieces"));
        // A piece taken too far is refused with the rule it breaks, in the
        // game's own words.
        click_cell(&client, "b2").await;
        click_cell(&client, "b4").await;
        let why = wait_error(&client).await;
        assert!(
            why.contains("b2b4: a piece moves one step forward or diagonally forward"),
            "{why}"
        );
        let end = play_to_the_end(&client, |legal| {
            // Forward moves first, so the game ends soon.
            let mv = legal
                .iter()
                .max_by_key(|m| m.as_bytes()[3])
                .expect("a legal move");
            vec![
                Click::Cell(mv[0..2].to_owned()),
                Click::Cell(mv[2..4].to_owned()),
            ]
        })
        .await;
        screenshot(&client, "breakthrough").await;
        check_end(&client, &end, &["[Variant \"breakthrough\"]"]).await;
    });
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn cavalo_by_clicks_against_an_engine() {
    with_page(Ending::CloseTab, |client, address| async move {
        start_game(
            &client,
            &address,
            "cavalo",
            &[("BoardSeed", "11")],
            ["human", "engine"],
            "depth=1",
        )
        .await;
        assert_eq!(count(&client, "rect[data-cell]").await, 100);
        let mut doubles = 0;
        let end = play_to_the_end(&client, |legal| {
            let mv = &legal[0];
            if mv == "pass" {
                return vec![Click::Css("#pass".to_owned())];
            }
            let (to, removes) = match mv.split_once('/') {
                Some((to, removes)) => (to, Some(removes)),
                None => (mv.as_str(), None),
            };
            let several = legal
                .iter()
                .filter(|m| m.as_str() == to || m.starts_with(&format!("{to}/")))
                .count()
                > 1;
            let mut clicks = vec![Click::Cell(to.to_owned())];
            if several {
                let _ = removes;
                doubles += 1;
                clicks.push(Click::Css(format!("#choices button[data-move=\"{mv}\"]")));
            }
            clicks
        })
        .await;
        let scores = text_of(&client, "#scores").await;
        assert!(scores.starts_with("White "), "{scores}");
        // This board's game lands on doubles: the choice was offered and
        // taken by a click on one of its buttons.
        assert!(doubles > 0, "no double choice arose");
        screenshot(&client, "cavalo").await;
        check_end(&client, &end, &["[Variant \"cavalo\"]", "[FEN "]).await;
    });
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn two_engines_watched_to_the_end() {
    with_page(Ending::CloseTab, |client, address| async move {
        start_game_with_delay(
            &client,
            &address,
            "breakthrough",
            &[("Rows", "5"), ("Columns", "5")],
            ["engine", "engine"],
            "nodes=300",
            "150",
        )
        .await;
        wait_state(&client, "the first move", |s| plies(s) >= 1).await;
        click(&client, "#pause").await;
        let paused = wait_state(&client, "the pause", |s| s["paused"] == true).await;
        tokio::time::sleep(Duration::from_millis(600)).await;
        let still = plies(&state(&client).await);
        assert!(still <= plies(&paused) + 1, "moves went on while paused");
        assert!(text_of(&client, "#status").await.contains("paused"));
        click(&client, "#step").await;
        wait_state(&client, "one step", |s| plies(s) == still + 1).await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(
            plies(&state(&client).await),
            still + 1,
            "a step is one move"
        );
        click(&client, "#resume").await;
        let end = wait_state(&client, "the end", |s| !s["result"].is_null()).await;
        assert!(plies(&end) >= 5);
        let listed = count(&client, "#moves li").await;
        assert_eq!(listed, plies(&end));
        assert!(text_of(&client, "#result").await.contains("wins"));
    });
}

/// Two engines that think long (20 s a move): the engines must go as soon
/// as the tab closes, or the server gets a Ctrl-C, not after their move.
async fn long_search(client: Client, address: String) {
    start_game(
        &client,
        &address,
        "gomoku",
        &[("BoardSize", "15")],
        ["engine", "engine"],
        "ms=20000",
    )
    .await;
    let started = Instant::now();
    while engine_processes().len() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "engines did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // It is thinking now, and the page shows what it thinks.
    let started = Instant::now();
    while !text_of(&client, "#thinking").await.contains("depth") || count(&client, ".pv").await == 0
    {
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "no thinking shown"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(plies(&state(&client).await), 0);
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn closing_the_tab_during_a_long_search_leaves_no_engine() {
    with_page(Ending::CloseTab, long_search);
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn ctrl_c_during_a_long_search_leaves_no_engine() {
    with_page(Ending::Interrupt, long_search);
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn the_swap_is_offered_in_hex_and_taken_by_a_click() {
    with_page(Ending::CloseTab, |client, address| async move {
        start_game(
            &client,
            &address,
            "hex",
            &[("BoardSize", "5"), ("Swap", "true")],
            ["engine", "human"],
            "depth=1",
        )
        .await;
        wait_state(&client, "the engine's first move", |s| plies(s) == 1).await;
        let hidden = client
            .execute("return document.getElementById('swap').hidden;", vec![])
            .await
            .expect("the swap button");
        assert_eq!(hidden, Value::Bool(false), "the swap is offered");
        click(&client, "#swap").await;
        let s = wait_state(&client, "the swap", |s| plies(s) >= 2).await;
        assert_eq!(s["moves"][1]["move"], "swap");
        let s = wait_state(&client, "the engine's reply", |s| plies(s) >= 3).await;
        assert!(!legal(&s).contains(&"swap".to_owned()));
    });
}

#[test]
#[ignore = "needs headless Chromium and chromedriver (Debian's chromium, chromium-driver); scripts/test-all installs them and runs it"]
fn two_tabs_play_two_games() {
    with_page(Ending::CloseTab, |client, address| async move {
        start_game(
            &client,
            &address,
            "breakthrough",
            &[],
            ["human", "human"],
            "depth=1",
        )
        .await;
        let first = client.window().await.expect("the first tab");
        let second = client.new_window(true).await.expect("a second tab");
        client
            .switch_to_window(second.handle)
            .await
            .expect("switch");
        start_game(
            &client,
            &address,
            "hex",
            &[("BoardSize", "7")],
            ["human", "human"],
            "depth=1",
        )
        .await;
        click_cell(&client, "d4").await;
        wait_state(&client, "the hex move", |s| plies(s) == 1).await;
        client.switch_to_window(first).await.expect("switch back");
        let s = state(&client).await;
        assert_eq!(s["game"], "breakthrough");
        assert_eq!(plies(&s), 0);
        click_cell(&client, "a2").await;
        click_cell(&client, "a3").await;
        let s = wait_state(&client, "the breakthrough move", |s| plies(s) == 1).await;
        assert_eq!(s["moves"][0]["move"], "a2a3");
        // A malformed message gets an error, and the game goes on.
        client
            .execute(
                "socket.send('{not json'); socket.send('{\"type\":\"fly\"}');",
                vec![],
            )
            .await
            .expect("sent");
        let started = Instant::now();
        while !text_of(&client, "#error").await.contains("bad message") {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no error shown"
            );
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
        click_cell(&client, "a7").await;
        click_cell(&client, "a6").await;
        wait_state(&client, "the game going on", |s| plies(s) == 2).await;
    });
}
