//! What the referee needs from an engine's dialect, as one trait: the
//! client (`client.rs`) keeps the process, the clocks' requests and the
//! restarts; an [`EngineProtocol`] turns them into lines. Three
//! implementations: [`UgiClient`](super::ugi::UgiClient) for UGI and UCI,
//! [`GtpClient`](super::gtp::GtpClient), [`PbrainClient`](super::pbrain::PbrainClient).

use std::time::Duration;

use super::client::{
    ClockReport, EngineClient, EngineReply, Fault, PositionRequest, Proto, Swap2Answer,
};
use super::gtp::GtpClient;
use super::pbrain::PbrainClient;
use super::ugi::UgiClient;

pub trait EngineProtocol: Sync {
    /// After the process starts: the greeting, the engine's name and
    /// options, the options it is told.
    fn handshake(&self, client: &mut EngineClient) -> Result<(), Fault>;

    /// A new game from `start_fen` (the standard start when `None`) on a
    /// board of `board_size` (the game's default when `None`).
    fn new_game(
        &self,
        client: &mut EngineClient,
        start_fen: Option<&str>,
        board_size: Option<u32>,
    ) -> Result<(), Fault>;

    /// Asks for a move; `allowed` is when the referee stops waiting.
    fn go(
        &self,
        client: &mut EngineClient,
        position: &PositionRequest,
        clocks: &ClockReport,
        allowed: Option<Duration>,
    ) -> Result<EngineReply, Fault>;

    /// Whether the dialect has the Swap2 opening's question (Gomocup's
    /// `SWAP2BOARD`).
    fn can_swap2(&self) -> bool {
        false
    }

    /// Asks the Swap2 question on `stones` (0, 3 or 5, in the order they
    /// were placed); `time_left` is the engine's clock, `allowed` when the
    /// referee stops waiting.
    fn swap2(
        &self,
        _client: &mut EngineClient,
        _stones: &[String],
        _time_left: Option<Duration>,
        _allowed: Option<Duration>,
    ) -> Result<Swap2Answer, Fault> {
        Err(Fault::Protocol("this protocol has no Swap2".to_owned()))
    }

    /// The words that end the engine.
    fn quit_line(&self) -> &'static str {
        "quit"
    }

    /// Whether the engine keeps its own board and plays the moves it finds
    /// on it: asked for a move it will not play, it must hear the game
    /// anew.
    fn keeps_its_board(&self) -> bool {
        false
    }

    /// Whether the dialect has `go ponder` and `ponderhit`.
    fn can_ponder(&self) -> bool {
        false
    }

    /// Starts thinking in `position` on the opponent's time.
    fn start_ponder(
        &self,
        _client: &mut EngineClient,
        _position: &PositionRequest,
        _clocks: &ClockReport,
    ) -> Result<(), Fault> {
        Err(Fault::Protocol("this protocol cannot ponder".to_owned()))
    }

    /// Ends a ponder search and throws its move away.
    fn stop_ponder(&self, _client: &mut EngineClient) -> Result<(), Fault> {
        Ok(())
    }

    /// After a move came too late: whether the engine can be trusted
    /// again without a restart.
    fn resync(&self, _client: &mut EngineClient) -> bool {
        false
    }

    /// The engine's verdict on a finished game (`p1win`, `p2win`, `draw`,
    /// `none`), where the dialect can ask for it.
    fn query_result(
        &self,
        _client: &mut EngineClient,
        _position: &PositionRequest,
    ) -> Option<String> {
        None
    }
}

impl Proto {
    /// The dialect's implementation: the one place a protocol's name
    /// chooses code.
    pub fn client(self) -> &'static dyn EngineProtocol {
        match self {
            Proto::Ugi | Proto::Uci => &UgiClient,
            Proto::Gtp => &GtpClient,
            Proto::Pbrain => &PbrainClient,
        }
    }
}
