//! One tab's connection on a thread of its own: the page's messages in
//! order, the engine moves between them, and every engine of the tab shut
//! down when the tab goes away. Engines block while they think, so this
//! runs outside the async server.

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::Duration;

use crate::registry::{GameEntry, GameList, GameVisitor, ProjectGames};

use super::messages::{ClientMessage, GameInfo, PlayerSpec, ServerMessage};
use super::session::{game_info, read_record, record_rules, AnySession, Outbox, Session};

/// Every game of `L`, in the page's order.
pub fn games<L: GameList>() -> Vec<GameInfo> {
    L::each(InfoOf)
}

#[derive(Clone, Copy)]
struct InfoOf;

impl GameVisitor for InfoOf {
    type Output = GameInfo;
    fn visit<E: GameEntry>(self) -> GameInfo {
        game_info::<E::Rules>()
    }
}

/// A new game's settings, waiting for its rules type.
struct NewSession {
    rules: Vec<(String, String)>,
    players: [PlayerSpec; 2],
    delay: Duration,
}

impl GameVisitor for NewSession {
    type Output = Result<Box<dyn AnySession>, String>;
    fn visit<E: GameEntry>(self) -> Self::Output {
        let session = Session::<E::Rules>::new(self.rules, self.players, self.delay)?;
        Ok(Box::new(session))
    }
}

/// A session of the game of `L` named `game`.
pub fn new_session<L: GameList>(
    game: &str,
    rules: Vec<(String, String)>,
    players: [PlayerSpec; 2],
    delay: Duration,
) -> Result<Box<dyn AnySession>, String> {
    let settings = NewSession {
        rules,
        players,
        delay,
    };
    L::visit(game, settings)
        .unwrap_or_else(|| Err(format!("unknown game '{game}' ({})", L::names().join(", "))))
}

/// The longest pause between engine moves a page may ask for.
const MAX_DELAY: Duration = Duration::from_secs(10);

fn handle<L: GameList>(
    session: &mut Option<Box<dyn AnySession>>,
    message: ClientMessage,
    out: &Outbox,
) {
    match message {
        ClientMessage::NewGame {
            game,
            rules,
            players,
            delay_ms,
        } => {
            let delay = Duration::from_millis(delay_ms).min(MAX_DELAY);
            match new_session::<L>(&game, rules, players, delay) {
                Ok(new) => {
                    // The old game's engines are shut down here.
                    *session = Some(new);
                    if let Some(session) = session.as_ref() {
                        out.send(session.state());
                    }
                }
                Err(why) => out.send(ServerMessage::error(why)),
            }
        }
        ClientMessage::Load { text } => load::<L>(session, &text, out),
        other => match session.as_mut() {
            Some(session) => session.handle(other, out),
            None => out.send(ServerMessage::error("no game yet: start a new game")),
        },
    }
}

/// Loads a record, of this tab's game or another: a game of another kind
/// starts anew under the record's rules with the same players. A record
/// that cannot be loaded leaves the game as it was.
fn load<L: GameList>(session: &mut Option<Box<dyn AnySession>>, text: &str, out: &Outbox) {
    let record = match read_record(text) {
        Ok(record) => record,
        Err(why) => {
            out.send(ServerMessage::error(why));
            if let Some(session) = session.as_ref() {
                out.send(session.state());
            }
            return;
        }
    };
    if let Some(current) = session.as_mut().filter(|s| s.game() == record.game) {
        current.handle(
            ClientMessage::Load {
                text: text.to_owned(),
            },
            out,
        );
        return;
    }
    let players = session
        .as_ref()
        .map_or([PlayerSpec::Human, PlayerSpec::Human], |s| s.players());
    let delay = session.as_ref().map_or(Duration::ZERO, |s| s.delay());
    let rules = record_rules(&record).unwrap_or_default();
    let loaded = new_session::<L>(&record.game, rules, players, delay).and_then(|mut new| {
        new.load_record(text)?;
        Ok(new)
    });
    match loaded {
        // The old game's engines are shut down here.
        Ok(new) => *session = Some(new),
        Err(why) => out.send(ServerMessage::error(why)),
    }
    if let Some(session) = session.as_ref() {
        out.send(session.state());
    }
}

/// Routes one message from the page: "move now" is for the engine
/// thinking now, so it is acted on at once; the rest go to the tab's
/// thread in order. Returns false when the tab's thread is gone.
pub fn dispatch(message: ClientMessage, commands: &Sender<ClientMessage>, out: &Outbox) -> bool {
    match message {
        ClientMessage::MoveNow => {
            out.move_now();
            true
        }
        other => commands.send(other).is_ok(),
    }
}

/// Serves one tab with the project's games until its messages end (the tab
/// closed); returns when every engine of the tab has been shut down.
pub fn run(commands: Receiver<ClientMessage>, out: Outbox) {
    run_with::<ProjectGames>(commands, out);
}

/// Serves one tab with the games of `L`, as `run` does.
pub fn run_with<L: GameList>(commands: Receiver<ClientMessage>, out: Outbox) {
    out.send(ServerMessage::Hello {
        games: games::<L>(),
    });
    let mut session: Option<Box<dyn AnySession>> = None;
    loop {
        let due = session.as_ref().is_some_and(|s| s.engine_due());
        let next = if due {
            let delay = session.as_ref().map_or(Duration::ZERO, |s| s.delay());
            if delay.is_zero() {
                commands.try_recv().map_err(|e| match e {
                    TryRecvError::Empty => None,
                    TryRecvError::Disconnected => Some(()),
                })
            } else {
                commands.recv_timeout(delay).map_err(|e| match e {
                    RecvTimeoutError::Timeout => None,
                    RecvTimeoutError::Disconnected => Some(()),
                })
            }
        } else {
            commands.recv().map_err(|_| Some(()))
        };
        match next {
            Ok(message) => handle::<L>(&mut session, message, &out),
            // Nothing from the page: the engine to move plays.
            Err(None) => {
                if let Some(session) = session.as_mut() {
                    session.engine_move(&out);
                }
            }
            Err(Some(())) => break,
        }
    }
    // Dropping the session shuts its engines down.
    drop(session);
    log::debug!("a tab closed; its engines are shut down");
}
