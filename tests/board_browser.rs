//! The board in a real browser: the server started as a person would start
//! it, headless Chromium driven through WebDriver (chromedriver, installed
//! by `.ci/run`), games played by clicks on the drawn boards. Without
//! chromedriver these tests fail: they are never skipped.

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::Value;

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// One browser test at a time: the machine has few cores.
static SERIAL: Mutex<()> = Mutex::new(());

/// A child process in a process group of its own, killed with its group
/// when dropped (also when a test fails).
struct Group(Child);

impl Drop for Group {
    fn drop(&mut self) {
        let pid = self.0.id();
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{pid}")])
            .stderr(Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The board server, started like a person starts it; its address.
fn start_server() -> (Group, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_board"))
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .process_group(0)
        .spawn()
        .expect("the board server starts");
    let stdout = child.stdout.take().expect("stdout");
    let group = Group(child);
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the server prints its address");
    let address = line
        .trim()
        .strip_prefix("board: open ")
        .unwrap_or_else(|| panic!("unexpected first line '{line}'"))
        .to_owned();
    (group, address)
}

fn start_chromedriver() -> (Group, u16) {
    assert!(
        Path::new(CHROMEDRIVER).exists(),
        "{CHROMEDRIVER} is missing: install Debian's chromium and chromium-driver \
         (apt-get install chromium chromium-driver; .ci/run does)"
    );
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("chromedriver starts");
    (Group(child), port)
}

async fn connect(port: u16) -> Client {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_owned(),
        serde_json::json!({
            "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--disable-gpu", "--window-size=1400,1000"]
        }),
    );
    let started = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(capabilities.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => return client,
            Err(e) if started.elapsed() < Duration::from_secs(20) => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("cannot start a WebDriver session: {e}"),
        }
    }
}

/// The pids of processes running one of the project's engines.
fn engine_processes() -> Vec<u32> {
    let engines = [
        env!("CARGO_BIN_EXE_hex"),
        env!("CARGO_BIN_EXE_gomoku"),
        env!("CARGO_BIN_EXE_breakthrough"),
        env!("CARGO_BIN_EXE_cavalo"),
    ]
    .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.into()));
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(exe) = std::fs::read_link(entry.path().join("exe")) {
            if engines.contains(&exe) {
                found.push(pid);
            }
        }
    }
    found
}

fn wait_for_no_engines(within: Duration) {
    let started = Instant::now();
    loop {
        let left = engine_processes();
        if left.is_empty() {
            return;
        }
        assert!(
            started.elapsed() < within,
            "engine processes left behind: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// How a test ends its page.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// The tab closes first (its engines must go at once), then the server
    /// gets a Ctrl-C.
    CloseTab,
    /// The server gets a Ctrl-C with the tab open (its engines must go
    /// with it).
    Interrupt,
}

fn interrupt(server: &mut Group) {
    let _ = Command::new("kill")
        .args(["-INT", &server.0.id().to_string()])
        .status();
    let stopped = Instant::now();
    while stopped.elapsed() < Duration::from_secs(5) {
        if let Ok(Some(_)) = server.0.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the server did not stop within 5 s of a Ctrl-C");
}

/// Runs `body` against the page in a fresh browser and server; whatever
/// happens, the WebDriver session is ended and chromedriver, the browser
/// and the server are killed. Afterwards no engine may be running.
fn with_page<F, Fut>(ending: Ending, body: F)
where
    F: FnOnce(Client, String) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (driver, port) = start_chromedriver();
    let (mut server, address) = start_server();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let client = runtime.block_on(connect(port));
    let task = body(client.clone(), address);
    let outcome = runtime.block_on(async { tokio::spawn(task).await });
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if outcome.is_err() {
            return;
        }
        match ending {
            Ending::CloseTab => {
                runtime.block_on(async {
                    let _ = client.clone().close().await;
                });
                wait_for_no_engines(Duration::from_secs(3));
                interrupt(&mut server);
            }
            Ending::Interrupt => {
                interrupt(&mut server);
                wait_for_no_engines(Duration::from_secs(5));
            }
        }
    }));
    runtime.block_on(async {
        let _ = client.close().await;
    });
    drop(driver);
    drop(server);
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
    if let Err(panic) = checked {
        std::panic::resume_unwind(panic);
    }
    wait_for_no_engines(Duration::from_secs(5));
}

// ---- the page ----------------------------------------------------------------

async fn state(client: &Client) -> Value {
    client
        .execute("return state;", vec![])
        .await
        .expect("the page's state")
}

async fn text_of(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .unwrap_or_default()
}

/// Waits until `accept` holds for the page's state.
async fn wait_state(client: &Client, what: &str, accept: impl Fn(&Value) -> bool) -> Value {
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

async fn set_value(client: &Client, id: &str, value: &str) {
    client
        .execute(
            "const e = document.getElementById(arguments[0]); e.value = arguments[1]; \
             e.dispatchEvent(new Event('change'));",
            vec![id.into(), value.into()],
        )
        .await
        .unwrap_or_else(|e| panic!("cannot set #{id}: {e}"));
}

async fn set_checked(client: &Client, id: &str, checked: bool) {
    client
        .execute(
            "document.getElementById(arguments[0]).checked = arguments[1];",
            vec![id.into(), checked.into()],
        )
        .await
        .unwrap_or_else(|e| panic!("cannot set #{id}: {e}"));
}

async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
}

async fn click_cell(client: &Client, cell: &str) {
    click(client, &format!("[data-cell=\"{cell}\"]")).await;
}

/// Opens the page and starts a game: `p1`/`p2` are `human` or a level
/// (`custom` with `limit` for tiny limits).
async fn start_game(
    client: &Client,
    address: &str,
    game: &str,
    rules: &[(&str, &str)],
    players: [&str; 2],
    limit: &str,
) -> Value {
    start_game_with_delay(client, address, game, rules, players, limit, "0").await
}

async fn start_game_with_delay(
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

async fn wait_ready(client: &Client) {
    let started = Instant::now();
    while text_of(client, "#connection").await != "connected"
        || client
            .execute("return games.length;", vec![])
            .await
            .ok()
            .and_then(|v| v.as_u64())
            .unwrap_or(0)
            < 4
    {
        assert!(started.elapsed() < Duration::from_secs(20), "no connection");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn plies(s: &Value) -> usize {
    s["moves"].as_array().map_or(0, Vec::len)
}

fn legal(s: &Value) -> Vec<String> {
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
async fn play_to_the_end<F>(client: &Client, mut play: F) -> Value
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

enum Click {
    Cell(String),
    Css(String),
}

/// Checks the result shown and the saved record.
async fn check_end(client: &Client, s: &Value, record_has: &[&str]) {
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
async fn screenshot(client: &Client, name: &str) {
    let Ok(folder) = std::env::var("BOARD_SCREENSHOTS") else {
        return;
    };
    let png = client.screenshot().await.expect("a screenshot");
    let path = Path::new(&folder).join(format!("{name}.png"));
    std::fs::write(&path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

async fn count(client: &Client, css: &str) -> usize {
    client
        .find_all(Locator::Css(css))
        .await
        .map_or(0, |found| found.len())
}

/// The board's `shape` cells whose fill is not the empty cell's: the stones.
async fn filled_cells(client: &Client, shape: &str, empty_fill: &str) -> Option<u64> {
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

#[test]
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
        let started = Instant::now();
        let error = loop {
            let error = text_of(&client, "#error").await;
            if !error.is_empty() {
                break error;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "no refusal");
            tokio::time::sleep(Duration::from_millis(40)).await;
        };
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
        check_end(&client, &end, &["[Game \"breakthrough\"]"]).await;
    });
}

#[test]
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
        check_end(&client, &end, &["[Game \"cavalo\"]", "[FEN "]).await;
    });
}

#[test]
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
fn closing_the_tab_during_a_long_search_leaves_no_engine() {
    with_page(Ending::CloseTab, long_search);
}

#[test]
fn ctrl_c_during_a_long_search_leaves_no_engine() {
    with_page(Ending::Interrupt, long_search);
}

#[test]
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
