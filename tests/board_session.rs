//! The board's game sessions without a browser: a tab's connection thread
//! fed messages as the page would send them, with the project's engines.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use boardgames::board::connection;
use boardgames::board::messages::{ClientMessage, Level, PlayerSpec, ServerMessage};
use boardgames::board::session::Outbox;
use boardgames::core::Player;
use serde_json::Value;

struct Tab {
    commands: Option<Sender<ClientMessage>>,
    out: Outbox,
    replies: Receiver<Value>,
    thread: Option<JoinHandle<()>>,
}

impl Tab {
    fn open() -> Tab {
        let (commands, command_receiver) = channel();
        let (reply_sender, replies) = channel();
        let out = Outbox::new(Arc::new(move |message: ServerMessage| {
            let value = serde_json::to_value(&message).expect("messages serialise");
            let _ = reply_sender.send(value);
        }));
        let tab_out = out.clone();
        let thread = std::thread::spawn(move || connection::run(command_receiver, tab_out));
        let tab = Tab {
            commands: Some(commands),
            out,
            replies,
            thread: Some(thread),
        };
        let hello = tab.next();
        assert_eq!(hello["type"], "hello");
        tab
    }

    /// Sends as the server does: "move now" at once, the rest in order.
    fn send(&self, message: ClientMessage) {
        let commands = self.commands.as_ref().expect("open");
        assert!(
            connection::dispatch(message, commands, &self.out),
            "the tab's thread runs"
        );
    }

    fn send_json(&self, text: &str) {
        self.send(serde_json::from_str(text).expect("a valid message"));
    }

    fn next(&self) -> Value {
        self.replies
            .recv_timeout(Duration::from_secs(60))
            .expect("a reply within a minute")
    }

    /// The next message of the given type, skipping others.
    fn next_of(&self, kind: &str) -> Value {
        loop {
            let message = self.next();
            if message["type"] == kind {
                return message;
            }
            assert_ne!(
                message["type"], "error",
                "unexpected error while waiting for {kind}: {message}"
            );
        }
    }

    /// Waits for the state after an error, returning the error's text.
    fn expect_error(&self) -> String {
        let error = loop {
            let message = self.next();
            if message["type"] == "error" {
                break message;
            }
        };
        error["message"].as_str().unwrap_or_default().to_owned()
    }

    /// The first state for which `accept` holds, skipping older ones.
    fn state_where(&self, accept: impl Fn(&Value) -> bool) -> Value {
        loop {
            let state = self.next_of("state");
            if accept(&state) {
                return state;
            }
        }
    }

    fn close(&mut self) {
        self.commands = None;
        if let Some(thread) = self.thread.take() {
            thread.join().expect("the tab's thread ends cleanly");
        }
    }
}

fn engine(game: &str, level: Level) -> PlayerSpec {
    let path = match game {
        "hex" => env!("CARGO_BIN_EXE_bg-hex"),
        "gomoku" => env!("CARGO_BIN_EXE_bg-gomoku"),
        "breakthrough" => env!("CARGO_BIN_EXE_bg-breakthrough"),
        _ => env!("CARGO_BIN_EXE_bg-cavalo"),
    };
    PlayerSpec::Engine {
        command: Some(path.to_owned()),
        proto: None,
        level,
    }
}

fn new_game(game: &str, rules: &[(&str, &str)], players: [PlayerSpec; 2]) -> ClientMessage {
    ClientMessage::NewGame {
        game: game.to_owned(),
        rules: rules
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        players,
        delay_ms: 0,
    }
}

/// Tests that count this process's children run one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn children_of_this_process() -> Vec<String> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("proc").flatten() {
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // pid (comm) state ppid ...
        let after = stat.rsplit_once(") ").map(|(_, rest)| rest).unwrap_or("");
        let ppid = after.split_whitespace().nth(1).unwrap_or("");
        if ppid == me {
            found.push(stat);
        }
    }
    found
}

#[test]
fn a_person_plays_hex_against_an_engine_to_the_end_and_saves_it() {
    let _serial = serial();
    let mut tab = Tab::open();
    tab.send(new_game(
        "hex",
        &[("BoardSize", "5"), ("Swap", "false")],
        [PlayerSpec::Human, engine("hex", Level::Depth(1))],
    ));
    let mut state = tab.next_of("state");
    assert_eq!(state["game"], "hex");
    assert_eq!(state["legal"].as_array().map(Vec::len), Some(25));
    let started = Instant::now();
    while state["result"].is_null() {
        assert!(started.elapsed() < Duration::from_secs(60));
        if state["to_move"] == "p1" {
            let first = state["legal"][0].as_str().expect("a legal move").to_owned();
            tab.send(ClientMessage::Move { mv: first });
        }
        state = tab.next_of("state");
    }
    assert!(state["result"]["reason"].as_str().is_some());
    tab.send(ClientMessage::Save);
    let record = tab.next_of("record");
    assert_eq!(record["format"], "sgf");
    let text = record["text"].as_str().expect("text");
    assert!(text.contains("GM[11]") && text.contains("SZ[5]"), "{text}");
    tab.close();
    assert!(children_of_this_process().is_empty());
}

#[test]
fn illegal_moves_and_bad_requests_are_refused_without_harm() {
    let mut tab = Tab::open();
    tab.send(ClientMessage::Move { mv: "a1".into() });
    assert!(tab.expect_error().contains("no game"));
    tab.send(new_game(
        "chess",
        &[],
        [PlayerSpec::Human, PlayerSpec::Human],
    ));
    assert!(tab.expect_error().contains("unknown game"));
    tab.send(new_game(
        "gomoku",
        &[("BoardSize", "99")],
        [PlayerSpec::Human, PlayerSpec::Human],
    ));
    assert!(tab.expect_error().contains("BoardSize"));
    tab.send(new_game(
        "breakthrough",
        &[("Rows", "5"), ("Columns", "5")],
        [PlayerSpec::Human, PlayerSpec::Human],
    ));
    let state = tab.next_of("state");
    assert_eq!(state["fen"], "ppppp/ppppp/5/PPPPP/PPPPP w 0 1");
    // The page draws from the cells, the last rank first.
    let board = state["board"].as_array().expect("the board's rows");
    assert_eq!(board.len(), 5);
    assert_eq!(board[0], serde_json::json!(["p", "p", "p", "p", "p"]));
    assert_eq!(board[2], serde_json::json!(["", "", "", "", ""]));
    assert_eq!(board[4], serde_json::json!(["P", "P", "P", "P", "P"]));
    assert!(state.get("caption").is_none());
    tab.send(ClientMessage::Move { mv: "a2a4".into() });
    let why = tab.expect_error();
    assert!(
        why.contains("a2a4") && why.contains("one step forward or diagonally forward"),
        "{why}"
    );
    tab.send(ClientMessage::Move { mv: "h8".into() });
    assert!(tab.expect_error().contains("not a move"));
    tab.send_json(r#"{"type":"set_player","side":"p2","player":{"kind":"engine","command":"","proto":"smoke","level":{"depth":1}}}"#);
    assert!(tab.expect_error().contains("protocol"));
    // The game is untouched.
    tab.send(ClientMessage::Move { mv: "a2a3".into() });
    let state = tab.state_where(|s| s["moves"].as_array().is_some_and(|m| !m.is_empty()));
    assert_eq!(state["moves"][0]["move"], "a2a3");
    assert_eq!(state["to_move"], "p2");
    assert_eq!(state["moves"][0]["side"], "p1");
    tab.send(ClientMessage::Undo);
    tab.state_where(|s| s["moves"].as_array().is_some_and(Vec::is_empty));
    tab.close();
}

#[test]
fn a_crashed_engine_is_reported_and_a_new_one_takes_over() {
    let _serial = serial();
    let mut tab = Tab::open();
    let broken = PlayerSpec::Engine {
        command: Some("sh -c 'read line; exit 3'".into()),
        proto: None,
        level: Level::Depth(1),
    };
    tab.send(new_game(
        "gomoku",
        &[("BoardSize", "9")],
        [broken, PlayerSpec::Human],
    ));
    let why = tab.expect_error();
    assert!(why.contains("choose another engine"), "{why}");
    let state = tab.next_of("state");
    assert!(state["players"][0]["fault"].is_string(), "{state}");
    tab.send(ClientMessage::SetPlayer {
        side: Player::P1,
        player: engine("gomoku", Level::Depth(1)),
    });
    // The new engine moves.
    let state = tab.state_where(|s| s["moves"].as_array().is_some_and(|m| !m.is_empty()));
    assert_eq!(state["to_move"], "p2");
    assert!(state["players"][0]["fault"].is_null());
    tab.close();
    assert!(children_of_this_process().is_empty());
}

/// The page learns who played each move from the state, not from the
/// game's FEN: in Jogo do Cavalo with Black first, Black makes the first
/// move after White's and Black's placements, two turns in a row.
#[test]
fn the_state_names_who_played_each_move() {
    let mut tab = Tab::open();
    tab.send(new_game(
        "cavalo",
        &[("FirstMover", "black")],
        [PlayerSpec::Human, PlayerSpec::Human],
    ));
    let mut state = tab.next_of("state");
    for _ in 0..3 {
        let first_legal = state["legal"][0].as_str().expect("a legal move").to_owned();
        tab.send(ClientMessage::Move { mv: first_legal });
        state = tab.next_of("state");
    }
    let sides: Vec<&str> = state["moves"]
        .as_array()
        .expect("the moves")
        .iter()
        .filter_map(|m| m["side"].as_str())
        .collect();
    assert_eq!(sides, ["p1", "p2", "p2"], "{state}");
    // Both knights stand where the moves put them, White's as W, and the
    // scores are the caption under the board.
    let cell_of = |label: &str| {
        let rows = state["board"].as_array().expect("the board's rows");
        rows.iter().enumerate().find_map(|(row, cells)| {
            let col = cells.as_array()?.iter().position(|c| c == label)?;
            Some(format!("{}{}", (b'a' + col as u8) as char, row + 1))
        })
    };
    let fen_fields: Vec<&str> = state["fen"].as_str().expect("a FEN").split(' ').collect();
    assert_eq!(cell_of("W").as_deref(), Some(fen_fields[1]), "{state}");
    assert_eq!(cell_of("B").as_deref(), Some(fen_fields[2]), "{state}");
    let caption = format!("White {}   Black {}", fen_fields[3], fen_fields[4]);
    assert_eq!(state["caption"], caption.as_str());
    tab.close();
}

#[test]
fn two_engines_play_cavalo_to_the_end_and_the_record_reads_back() {
    let _serial = serial();
    let mut tab = Tab::open();
    tab.send(new_game(
        "cavalo",
        &[("BoardSeed", "7")],
        [
            engine("cavalo", Level::Depth(1)),
            engine("cavalo", Level::Nodes(200)),
        ],
    ));
    let started = Instant::now();
    let state = loop {
        assert!(started.elapsed() < Duration::from_secs(120));
        let state = tab.next_of("state");
        if !state["result"].is_null() {
            break state;
        }
    };
    let plies = state["moves"].as_array().map_or(0, Vec::len);
    assert!(plies > 2);
    tab.send(ClientMessage::Save);
    let record = tab.next_of("record");
    assert_eq!(record["format"], "pgn");
    let text = record["text"].as_str().expect("text").to_owned();
    tab.send(ClientMessage::Load { text });
    let loaded = tab.next_of("state");
    assert_eq!(loaded["fen"], state["fen"]);
    assert_eq!(loaded["moves"].as_array().map(Vec::len), Some(plies));
    tab.close();
}

/// Plays player 1's first legal move at each turn until the game ends.
fn play_first_moves_to_the_end(tab: &Tab) -> Value {
    let started = Instant::now();
    let mut state = tab.next_of("state");
    while state["result"].is_null() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "game too long"
        );
        if state["to_move"] == "p1" && state["players"][1]["fault"].is_null() {
            let first = state["legal"][0].as_str().expect("a legal move").to_owned();
            tab.send(ClientMessage::Move { mv: first });
        }
        assert!(
            state["players"][1]["fault"].is_null(),
            "the engine failed: {state}"
        );
        state = tab.next_of("state");
    }
    state
}

#[test]
fn engines_in_gtp_and_gomocup_play_through_their_own_protocols() {
    let _serial = serial();
    let mut tab = Tab::open();
    tab.send(new_game(
        "hex",
        &[("BoardSize", "5"), ("Swap", "false")],
        [
            PlayerSpec::Human,
            PlayerSpec::Engine {
                command: Some(format!("'{}' --gtp", env!("CARGO_BIN_EXE_bg-hex"))),
                proto: Some("gtp".into()),
                level: Level::MovetimeMs(50),
            },
        ],
    ));
    let end = play_first_moves_to_the_end(&tab);
    assert!(end["players"][1]["name"].as_str().is_some());
    tab.send(new_game(
        "gomoku",
        &[("BoardSize", "9")],
        [
            PlayerSpec::Human,
            PlayerSpec::Engine {
                command: Some(format!("'{}' --pbrain", env!("CARGO_BIN_EXE_bg-gomoku"))),
                proto: Some("pbrain".into()),
                level: Level::MovetimeMs(50),
            },
        ],
    ));
    let end = play_first_moves_to_the_end(&tab);
    assert_eq!(end["result"]["winner"], "p2", "{end}");
    // The brain says its depth and score only in a MESSAGE line: the move
    // list has them all the same.
    let reply = &end["moves"][1];
    assert!(reply["depth"].as_u64().is_some_and(|d| d > 0), "{reply}");
    assert!(reply["score"].is_string(), "{reply}");
    tab.close();
    assert!(children_of_this_process().is_empty());
}

#[test]
fn move_now_makes_a_long_search_end_with_its_best_move() {
    let _serial = serial();
    let mut tab = Tab::open();
    tab.send(new_game(
        "hex",
        &[("BoardSize", "7")],
        [PlayerSpec::Human, PlayerSpec::Human],
    ));
    tab.next_of("state");
    tab.send(ClientMessage::MoveNow);
    assert!(tab.expect_error().contains("no engine is thinking"));
    // Hex at 7x7 answers its first move at once (one policy move), so the
    // long search is Breakthrough's.
    tab.send(new_game(
        "breakthrough",
        &[],
        [
            engine("breakthrough", Level::MovetimeMs(60_000)),
            PlayerSpec::Human,
        ],
    ));
    tab.next_of("state");
    // Thinking is under way: then "move now".
    let thinking = tab.next_of("thinking");
    assert_eq!(thinking["side"], "p1");
    let asked = Instant::now();
    tab.send(ClientMessage::MoveNow);
    let state = tab.state_where(|s| s["moves"].as_array().is_some_and(|m| m.len() == 1));
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "no move soon after 'move now'"
    );
    assert!(state["players"][0]["fault"].is_null(), "{state}");
    assert_eq!(state["to_move"], "p2");
    tab.close();
    assert!(children_of_this_process().is_empty());
}

#[test]
fn an_unfinished_game_of_another_kind_loads_with_its_rules() {
    let mut tab = Tab::open();
    tab.send(new_game(
        "hex",
        &[("BoardSize", "5"), ("Swap", "false")],
        [PlayerSpec::Human, PlayerSpec::Human],
    ));
    tab.next_of("state");
    for mv in ["c3", "d2"] {
        tab.send(ClientMessage::Move { mv: mv.into() });
        tab.next_of("state");
    }
    tab.send(ClientMessage::Save);
    let text = tab.next_of("record")["text"]
        .as_str()
        .expect("text")
        .to_owned();
    tab.next_of("state");
    tab.send(new_game(
        "breakthrough",
        &[],
        [PlayerSpec::Human, PlayerSpec::Human],
    ));
    assert_eq!(tab.next_of("state")["game"], "breakthrough");
    // The record with a third move on an occupied cell, for later.
    let spoiled = text.trim_end().trim_end_matches(')').to_owned() + "\n;B[c3]C[])\n";
    tab.send(ClientMessage::Load { text });
    let loaded = tab.next_of("state");
    assert_eq!(loaded["game"], "hex");
    assert_eq!(loaded["board_size"], 5);
    assert!(loaded["result"].is_null(), "{loaded}");
    assert_eq!(loaded["moves"].as_array().map(Vec::len), Some(2));
    assert_eq!(loaded["to_move"], "p1");
    assert!(
        loaded["rules"]
            .as_array()
            .is_some_and(|rules| rules.iter().any(|r| r[0] == "Swap" && r[1] == "false")),
        "{loaded}"
    );
    // It goes on from the last position.
    tab.send(ClientMessage::Move { mv: "b4".into() });
    let state = tab.next_of("state");
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(3));
    // A record that cannot be loaded leaves the game as it was.
    tab.send(ClientMessage::Load { text: spoiled });
    let why = tab.expect_error();
    assert!(
        why.contains("move 3 of the record: cell c3 is occupied"),
        "{why}"
    );
    let kept = tab.next_of("state");
    assert_eq!(kept["moves"].as_array().map(Vec::len), Some(3));
    tab.close();
}
