//! The harness of the browser tests: the board server started as a person
//! would start it, headless Chromium driven through WebDriver (chromedriver,
//! installed by `scripts/test-all`), and what the tests read and click on the page
//! (`page`). The tests that use it are marked ignored, with the reason, for
//! `cargo test` on a machine without Chromium; `scripts/test-all` installs it
//! and runs them (`--include-ignored`), and there, without chromedriver, they
//! fail: they never skip themselves.
#![allow(dead_code)] // each test crate uses a different part of this module

pub mod page;

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};

pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// One browser test at a time: the machine has few cores.
pub static SERIAL: Mutex<()> = Mutex::new(());

/// A child process in a process group of its own, killed with its group
/// when dropped (also when a test fails).
pub struct Group(pub Child);

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

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The board server, started like a person starts it; its address.
pub fn start_server(args: &[&str]) -> (Group, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bg-board"))
        .args(["--port", "0"])
        .args(args)
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
        // A server listening on every address is opened on this machine's.
        .replace("0.0.0.0", "127.0.0.1");
    (group, address)
}

pub fn start_chromedriver() -> (Group, u16) {
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

pub async fn connect(port: u16) -> Client {
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
pub fn engine_processes() -> Vec<u32> {
    let engines = [
        env!("CARGO_BIN_EXE_bg-hex"),
        env!("CARGO_BIN_EXE_bg-gomoku"),
        env!("CARGO_BIN_EXE_bg-breakthrough"),
        env!("CARGO_BIN_EXE_bg-cavalo"),
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

pub fn wait_for_no_engines(within: Duration) {
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
pub enum Ending {
    /// The tab closes first (its engines must go at once), then the server
    /// gets a Ctrl-C.
    CloseTab,
    /// The server gets a Ctrl-C with the tab open (its engines must go
    /// with it).
    Interrupt,
}

pub fn interrupt(server: &mut Group) {
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
pub fn with_page<F, Fut>(ending: Ending, body: F)
where
    F: FnOnce(Client, String) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    with_server(&[], ending, body);
}

/// `with_page` with the server started with `server_args`.
pub fn with_server<F, Fut>(server_args: &[&str], ending: Ending, body: F)
where
    F: FnOnce(Client, String) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (driver, port) = start_chromedriver();
    let (mut server, address) = start_server(server_args);
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
