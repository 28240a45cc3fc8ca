//! Where a session's messages go, and the engines searching for it.

use std::sync::{Arc, Mutex};

use crate::referee::process::kill_process_group;

use super::super::messages::ServerMessage;

/// Where a session's messages go (the connection forwards them), and the
/// engines searching for it, which the server stops when the tab closes.
#[derive(Clone)]
pub struct Outbox {
    send: Arc<dyn Fn(ServerMessage) + Send + Sync>,
    searching: Arc<Mutex<Vec<u32>>>,
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

    pub(super) fn searching(&self) -> std::sync::MutexGuard<'_, Vec<u32>> {
        self.searching.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Kills the engines searching now (their process groups): a closed
    /// tab does not wait for a long search to end. The blocked search then
    /// fails at once.
    pub fn stop_searches(&self) {
        for pid in self.searching().drain(..) {
            kill_process_group(pid);
        }
    }
}
