//! Where a session's messages go, and the engines searching for it: the
//! server reaches them while the tab's thread waits for their move.

use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::referee::process::kill_process_group;

use super::super::messages::ServerMessage;

/// An engine searching for a tab.
pub(super) struct Search {
    pub(super) pid: u32,
    /// A handle on its input, for `stop`; `None` when its protocol has no
    /// way to cut a search short (GTP, Gomocup).
    pub(super) input: Option<File>,
}

/// Where a session's messages go (the connection forwards them), and the
/// engines searching for it, which the server stops when the tab closes.
#[derive(Clone)]
pub struct Outbox {
    send: Arc<dyn Fn(ServerMessage) + Send + Sync>,
    searching: Arc<Mutex<Vec<Search>>>,
}

impl Outbox {
    pub fn new(send: Arc<dyn Fn(ServerMessage) + Send + Sync>) -> Self {
        Outbox {
            send,
            searching: Arc::new(Mutex::new(Vec::new())),
        }
    }

    pub fn send(&self, message: ServerMessage) {
        (self.send)(message);
    }

    pub(super) fn searching(&self) -> MutexGuard<'_, Vec<Search>> {
        self.searching.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Kills the engines searching now (their process groups): a closed
    /// tab does not wait for a long search to end. The blocked search then
    /// fails at once.
    pub fn stop_searches(&self) {
        for search in self.searching().drain(..) {
            kill_process_group(search.pid);
        }
    }

    /// Tells the engines searching now to play their best move at once.
    /// Answered on the page by the move (through the tab's thread), or
    /// here by an error when no engine that can be stopped is thinking.
    pub fn move_now(&self) {
        let mut stopped = false;
        let mut unstoppable = false;
        for search in self.searching().iter_mut() {
            match search.input.as_mut() {
                Some(input) => {
                    let written = input.write_all(b"stop\n").and_then(|()| input.flush());
                    if let Err(e) = written {
                        log::warn!("cannot tell engine {} to stop: {e}", search.pid);
                    }
                    stopped = true;
                }
                None => unstoppable = true,
            }
        }
        if !stopped {
            let why = if unstoppable {
                "this engine's protocol (GTP, Gomocup) cannot be told to move now: it plays when its limit is up"
            } else {
                "no engine is thinking"
            };
            self.send(ServerMessage::error(why));
        }
    }
}
