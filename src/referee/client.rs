//! An engine as the match loop sees it: a spec from the command line, a
//! process that is (re)started on demand, and one protocol adapter that turns
//! "here is the position, give me a move" into the engine's own dialect.

use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use crate::core::Player;
use crate::wire::score::Score;

use super::process::{EngineProcess, ProcessError};
use super::protocol::EngineProtocol;
use super::timecontrol::TimeControl;
use super::transcript::Transcript;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Ugi,
    Uci,
    Gtp,
    Pbrain,
}

impl Proto {
    pub fn parse(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "ugi" => Ok(Proto::Ugi),
            "uci" => Ok(Proto::Uci),
            "gtp" => Ok(Proto::Gtp),
            "pbrain" | "gomocup" => Ok(Proto::Pbrain),
            other => Err(format!(
                "unknown protocol '{other}' (ugi, uci, gtp, pbrain)"
            )),
        }
    }

    /// Only the UCI family has `go ponder` and `ponderhit`.
    pub fn can_ponder(self) -> bool {
        self.client().can_ponder()
    }
}

/// One `--engine` on the command line.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub command: String,
    pub name: Option<String>,
    pub proto: Proto,
    pub working_dir: Option<String>,
    /// `option.X=V`: sent as `setoption name X value V` (UGI/UCI).
    pub options: Vec<(String, String)>,
    pub time: TimeControl,
    /// `ponder=true` or `--ponder`: think on the opponent's time (UGI/UCI
    /// engines that declare a `Ponder` option).
    pub ponder: bool,
    /// Shared by every client of this spec (one per worker, one per
    /// restart) so an engine without `Ponder` is reported once, not once a
    /// game.
    pub(crate) ponder_unsupported: Arc<Once>,
}

impl EngineSpec {
    /// Parses the `key=value` words that follow one `--engine`.
    pub fn parse(words: &[String]) -> Result<Self, String> {
        let mut spec = EngineSpec {
            command: String::new(),
            name: None,
            proto: Proto::Ugi,
            working_dir: None,
            options: Vec::new(),
            time: TimeControl::default(),
            ponder: false,
            ponder_unsupported: Arc::new(Once::new()),
        };
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("engine setting '{word}' is not key=value"))?;
            if let Some(option) = key.strip_prefix("option.") {
                spec.options.push((option.to_owned(), value.to_owned()));
                continue;
            }
            match key {
                "cmd" => spec.command = value.to_owned(),
                "name" => spec.name = Some(value.to_owned()),
                "proto" => spec.proto = Proto::parse(value)?,
                "dir" => spec.working_dir = Some(value.to_owned()),
                "ponder" => {
                    spec.ponder = match value.to_ascii_lowercase().as_str() {
                        "true" => true,
                        "false" => false,
                        _ => return Err(format!("ponder={value}: true or false")),
                    }
                }
                _ => {
                    if !spec.time.apply(key, value)? {
                        return Err(format!("unknown engine setting '{key}'"));
                    }
                }
            }
        }
        if spec.command.is_empty() {
            return Err("an --engine needs cmd=<command>".to_owned());
        }
        if spec.ponder && !spec.proto.can_ponder() {
            log::warn!(
                "{}: ponder=true ignored, GTP and pbrain engines never ponder",
                spec.command
            );
            spec.ponder = false;
        }
        Ok(spec)
    }

    /// The search threads the engine is told to use (`option.Threads=N`), 1
    /// when not set: what a game costs in cores.
    pub fn threads(&self) -> usize {
        self.options
            .iter()
            .rev()
            .find(|(name, _)| name.eq_ignore_ascii_case("threads"))
            .and_then(|(_, value)| value.trim().parse().ok())
            .unwrap_or(1)
    }
}

/// How long the referee waits for answers that should be immediate.
#[derive(Clone, Debug)]
pub struct Timeouts {
    /// `uci`/`ugi` to `uciok`, `START` to `OK`, ...
    pub handshake: Duration,
    /// `isready` to `readyok`; longer than this is a stall.
    pub ready: Duration,
    /// During an untimed search (depth or nodes only), how often the referee
    /// checks with `isready` that the engine still lives.
    pub ping_interval: Duration,
    /// Between `quit` and a kill.
    pub grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            handshake: Duration::from_secs(10),
            ready: Duration::from_secs(10),
            ping_interval: Duration::from_secs(5),
            grace: Duration::from_millis(1000),
        }
    }
}

/// Why an engine did not produce a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Exited, closed a pipe, or could not be started.
    Crashed(String),
    /// Stopped answering `isready` (or a handshake) in time.
    Stalled(String),
    /// Gave no move within its time.
    TimedOut(Duration),
    /// Resigned (GTP `resign`).
    Resigned,
    /// Said something the protocol does not allow where a move was due.
    Protocol(String),
}

impl Fault {
    pub fn from_process(error: ProcessError, waiting_for: &str) -> Fault {
        match error {
            ProcessError::Closed(why) => {
                Fault::Crashed(format!("{why} (waiting for {waiting_for})"))
            }
            ProcessError::Timeout => Fault::Stalled(format!("no {waiting_for}")),
        }
    }
}

/// What the game loop asks an engine to move in.
pub struct PositionRequest<'a> {
    /// `None`: the standard start position.
    pub start_fen: Option<&'a str>,
    /// Every move since the start position, in the project's notation.
    pub moves: &'a [String],
    pub to_move: Player,
    /// For protocols that speak in board coordinates (GTP, pbrain).
    pub board_size: Option<u32>,
}

/// Both clocks as a `go` reports them.
#[derive(Clone, Debug, Default)]
pub struct ClockReport {
    pub time_left: [Option<Duration>; 2],
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
}

/// A move and what the engine said about it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineReply {
    pub mv: String,
    /// From the `go` being written to the move being read.
    pub elapsed: Duration,
    /// The engine's last `score cp 35`, `score mate 3`, ...
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Error lines the engine printed while this move was asked for.
    pub complaints: Vec<String>,
    /// `bestmove X ponder Y`: the reply the engine expects.
    pub ponder: Option<String>,
    /// The move was a ponder search's, after `ponderhit`; `elapsed` counts
    /// from the `ponderhit`.
    pub ponderhit: bool,
}

/// An engine's answer to a Swap2 question, before the referee checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swap2Answer {
    /// `None`: `SWAP`, take Black. Otherwise the cells given, in the
    /// project's notation (unreadable ones as the engine wrote them).
    pub stones: Option<Vec<String>>,
    pub elapsed: Duration,
}

/// An option the engine declared in its handshake (`option name X type
/// spin default D min A max B`).
pub type DeclaredOption = crate::wire::ugi::OptionDeclaration;

/// Protocol-specific memory of what the engine has been told this game.
#[derive(Debug, Default)]
pub struct SessionState {
    /// Moves of the current game the engine already knows (GTP, pbrain).
    pub moves_known: usize,
    pub started_game: bool,
}

pub struct EngineClient {
    pub spec: Arc<EngineSpec>,
    pub timeouts: Timeouts,
    transcript: Option<Arc<Transcript>>,
    label_prefix: String,
    launches: u32,
    process: Option<EngineProcess>,
    /// The name the engine gave (`id name`) or the spec's.
    pub display_name: String,
    pub session: SessionState,
    /// Set when the engine is in an unknown state (late, stalled, crashed):
    /// it is restarted before its next game.
    pub needs_restart: bool,
    /// Rule options (`--rule X=V`) every engine is told.
    pub rule_options: Vec<(String, String)>,
    /// What the engine offered in its last handshake (UGI/UCI).
    pub declared_options: Vec<DeclaredOption>,
    /// Pondering was asked for and the engine accepted `Ponder` in its last
    /// handshake.
    pub ponders: bool,
    /// The moves of the position a `go ponder` is searching, while it runs.
    pub(crate) pondering: Option<Vec<String>>,
    /// Sees every `info` line of a search as it arrives, and a Gomocup
    /// brain's MESSAGE and DEBUG lines (the board's live thinking
    /// display); the referee's matches leave it unset.
    pub info_listener: Option<InfoListener>,
}

/// A callback for the `info` lines of a search (UGI/UCI).
pub type InfoListener = Box<dyn FnMut(&str) + Send>;

impl EngineClient {
    pub fn new(
        spec: Arc<EngineSpec>,
        label_prefix: &str,
        timeouts: Timeouts,
        transcript: Option<Arc<Transcript>>,
        rule_options: Vec<(String, String)>,
    ) -> Self {
        let display_name = spec.name.clone().unwrap_or_else(|| spec.command.clone());
        EngineClient {
            spec,
            timeouts,
            transcript,
            label_prefix: label_prefix.to_owned(),
            launches: 0,
            process: None,
            display_name,
            session: SessionState::default(),
            needs_restart: false,
            rule_options,
            declared_options: Vec::new(),
            ponders: false,
            pondering: None,
            info_listener: None,
        }
    }

    pub fn proto(&self) -> Proto {
        self.spec.proto
    }

    /// The engine's dialect.
    pub fn protocol(&self) -> &'static dyn EngineProtocol {
        self.spec.proto.client()
    }

    /// The running process; only valid after `ensure_started`.
    pub(crate) fn process(&mut self) -> Result<&mut EngineProcess, Fault> {
        self.process
            .as_mut()
            .ok_or_else(|| Fault::Crashed("engine is not running".to_owned()))
    }

    /// Starts the engine (again) if it is not running or in a bad state, and
    /// does the handshake.
    pub fn ensure_started(&mut self) -> Result<(), Fault> {
        let healthy =
            !self.needs_restart && self.process.as_mut().map(|p| p.is_alive()).unwrap_or(false);
        if healthy {
            return Ok(());
        }
        self.shutdown();
        self.launches += 1;
        let label = format!("{}#{}", self.label_prefix, self.launches);
        let process = EngineProcess::spawn(
            &self.spec.command,
            self.spec.working_dir.as_deref(),
            &label,
            self.transcript.clone(),
        )
        .map_err(Fault::Crashed)?;
        self.process = Some(process);
        self.needs_restart = false;
        self.session = SessionState::default();
        self.ponders = false;
        let result = self.protocol().handshake(self);
        if result.is_err() {
            self.needs_restart = true;
        }
        result
    }

    /// Prepares a new game; starts the engine first if needed.
    pub fn new_game(
        &mut self,
        start_fen: Option<&str>,
        board_size: Option<u32>,
    ) -> Result<(), Fault> {
        self.cancel_ponder();
        self.ensure_started()?;
        self.session.moves_known = 0;
        self.session.started_game = false;
        let result = self.protocol().new_game(self, start_fen, board_size);
        if result.is_err() {
            self.needs_restart = true;
        }
        result
    }

    /// Asks for a move. `allowed` is the time after which the referee stops
    /// waiting (the engine's limit plus margin); `None` waits with pings.
    pub fn go(
        &mut self,
        position: &PositionRequest,
        clocks: &ClockReport,
        allowed: Option<Duration>,
    ) -> Result<EngineReply, Fault> {
        let protocol = self.protocol();
        let result = protocol.go(self, position, clocks, allowed);
        match &result {
            Ok(_) | Err(Fault::Resigned) => {}
            // A late engine that still answers keeps its process (and its
            // warm caches); only one that cannot be brought back is restarted.
            Err(Fault::TimedOut(_)) if protocol.resync(self) => {}
            Err(_) => self.needs_restart = true,
        }
        result
    }

    /// Asks the Swap2 question (see [`EngineProtocol::swap2`]); a fault
    /// restarts the engine before its next game, as after a move.
    pub fn swap2(
        &mut self,
        stones: &[String],
        time_left: Option<Duration>,
        allowed: Option<Duration>,
    ) -> Result<Swap2Answer, Fault> {
        let result = self.protocol().swap2(self, stones, time_left, allowed);
        if result.is_err() {
            self.needs_restart = true;
        }
        result
    }

    /// After the engine's own move, which it expects `position` (with its
    /// move and the reply it predicted) to follow: `go ponder` there, with
    /// the clocks a move would get. Returns whether a ponder search runs; a
    /// failure shows when the engine is next asked for a move.
    pub fn start_ponder(&mut self, position: &PositionRequest, clocks: &ClockReport) -> bool {
        let protocol = self.protocol();
        if !self.ponders || !protocol.can_ponder() || self.needs_restart {
            return false;
        }
        self.cancel_ponder();
        match protocol.start_ponder(self, position, clocks) {
            Ok(()) => {
                self.pondering = Some(position.moves.to_vec());
                true
            }
            Err(fault) => {
                log::warn!("{}: cannot start pondering: {fault:?}", self.display_name);
                self.needs_restart = true;
                false
            }
        }
    }

    /// Ends a ponder search that will not be hit (the game is over) and
    /// throws its move away. An engine that does not answer `stop` is
    /// restarted before its next game.
    pub fn cancel_ponder(&mut self) {
        if self.pondering.take().is_none() {
            return;
        }
        if let Err(fault) = self.protocol().stop_ponder(self) {
            log::warn!(
                "{}: ponder search not stopped: {fault:?}; restarting it",
                self.display_name
            );
            self.needs_restart = true;
        }
    }

    /// The engine's own verdict on a finished game (`p1win`, `p2win`,
    /// `draw`, `none`), where its protocol can say it.
    pub fn query_result(&mut self, position: &PositionRequest) -> Option<String> {
        self.cancel_ponder();
        if self.needs_restart {
            return None;
        }
        self.protocol().query_result(self, position)
    }

    pub fn shutdown(&mut self) {
        self.pondering = None;
        if let Some(mut process) = self.process.take() {
            let quit = self.spec.proto.client().quit_line();
            process.shutdown(Some(quit), self.timeouts.grace);
        }
    }

    /// Sends a line to the engine.
    pub(crate) fn send(&mut self, line: &str) -> Result<Instant, Fault> {
        let process = self.process()?;
        process
            .send(line)
            .map_err(|e| Fault::from_process(e, "a readable input"))
    }

    /// Waits for a line for which `accept` returns `Some`, skipping others.
    pub(crate) fn wait_for<T>(
        &mut self,
        deadline: Instant,
        what: &str,
        mut accept: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, Fault> {
        let process = self.process()?;
        loop {
            let line = process
                .receive(deadline)
                .map_err(|e| Fault::from_process(e, what))?;
            if let Some(value) = accept(line.text.trim()) {
                return Ok(value);
            }
        }
    }
}

impl Drop for EngineClient {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn engine_specs_parse_every_kind_of_setting() {
        let spec = EngineSpec::parse(&words(
            "cmd=./bt name=deep option.Depth=3 st=0.1 timemargin=5 proto=uci",
        ))
        .unwrap();
        assert_eq!(spec.command, "./bt");
        assert_eq!(spec.name.as_deref(), Some("deep"));
        assert_eq!(spec.options, [("Depth".to_owned(), "3".to_owned())]);
        assert_eq!(spec.time.move_time, Some(Duration::from_millis(100)));
        assert_eq!(spec.proto, Proto::Uci);
        assert!(!spec.ponder);
        assert_eq!(spec.threads(), 1);
        let spec = EngineSpec::parse(&words("cmd=./bt option.threads=3 ponder=true")).unwrap();
        assert!(spec.ponder);
        assert_eq!(spec.threads(), 3);
        assert!(EngineSpec::parse(&words("name=x")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x colour=red")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x proto=smoke")).is_err());
    }
}
