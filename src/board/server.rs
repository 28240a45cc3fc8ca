//! The HTTP side: the page's three files (embedded in the executable) and
//! the WebSocket each tab plays through. Messages from the page are read
//! here and handed, in order, to the tab's connection thread; what that
//! thread says goes back over the socket.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;

use super::connection;
use super::messages::{ClientMessage, ServerMessage};
use super::session::Outbox;

const INDEX_HTML: &str = include_str!("page/index.html");
const BOARD_JS: &str = include_str!("page/board.js");
const DRAW_JS: &str = include_str!("page/draw.js");
const STYLE_CSS: &str = include_str!("page/style.css");

fn file(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

pub fn router() -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { file("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/board.js",
            get(|| async { file("text/javascript; charset=utf-8", BOARD_JS) }),
        )
        .route(
            "/draw.js",
            get(|| async { file("text/javascript; charset=utf-8", DRAW_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { file("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/ws", get(upgrade))
}

async fn upgrade(ws: WebSocketUpgrade) -> Response {
    ws.max_message_size(4 << 20).on_upgrade(serve_tab)
}

/// One tab: reads its messages and writes what its connection thread says,
/// until either side ends. Closing the socket ends the thread, and with it
/// the tab's engines.
async fn serve_tab(socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (out_sender, mut out_receiver) = mpsc::unbounded_channel::<ServerMessage>();
    let (command_sender, commands) = std::sync::mpsc::channel::<ClientMessage>();
    let out = {
        let sender = out_sender.clone();
        Outbox::new(Arc::new(move |message| {
            let _ = sender.send(message);
        }))
    };
    let stopper = out.clone();
    let thread = std::thread::Builder::new()
        .name("board-tab".to_owned())
        .spawn(move || connection::run(commands, out));
    let thread = match thread {
        Ok(thread) => thread,
        Err(e) => {
            log::error!("cannot start a thread for a tab: {e}");
            return;
        }
    };
    let writer = tokio::spawn(async move {
        while let Some(message) = out_receiver.recv().await {
            let text = match serde_json::to_string(&message) {
                Ok(text) => text,
                Err(e) => {
                    log::error!("cannot write a message: {e}");
                    continue;
                }
            };
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
    });
    while let Some(Ok(message)) = stream.next().await {
        let text = match message {
            Message::Text(text) => text,
            Message::Close(_) => break,
            _ => continue,
        };
        match serde_json::from_str::<ClientMessage>(text.as_str()) {
            Ok(message) => {
                if !connection::dispatch(message, &command_sender, &stopper) {
                    break;
                }
            }
            Err(e) => {
                let _ = out_sender.send(ServerMessage::error(format!("bad message: {e}")));
            }
        }
    }
    // The tab is gone: the thread sees its commands end and shuts the
    // engines down; a search under way is cut short.
    drop(command_sender);
    stopper.stop_searches();
    drop(out_sender);
    let _ = tokio::task::spawn_blocking(move || thread.join()).await;
    writer.abort();
}

/// Serves until Ctrl-C or SIGTERM. `ready` is told the address bound (port
/// 0 picks a free one).
pub async fn serve(host: &str, port: u16, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind((host, port))
        .await
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let address = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?;
    ready(address);
    let shutdown = async {
        let interrupt = tokio::signal::ctrl_c();
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(signal) => signal,
                Err(e) => {
                    log::warn!("cannot watch SIGTERM: {e}");
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    };
    tokio::select! {
        served = axum::serve(listener, router()) => {
            served.map_err(|e| format!("server failed: {e}"))
        }
        () = shutdown => {
            log::info!("stopping; the engines still running are killed");
            Ok(())
        }
    }
}
