//! The UCI/UGI front-end: reads commands, drives an [`Engine`], writes
//! answers. The contract is protocol/PROTOCOL.md.

use std::sync::mpsc::Receiver;
use std::time::Duration;

use super::output::{error, send};
use crate::core::control::SearchInfo;
use crate::core::dfpn::Verdict;
use crate::core::game::{Game, OptionKind, Outcome, Player};
use crate::core::perft::{perft_divide, PerftCount};
use crate::core::presentation::Presentation;
use crate::core::wdl::WdlModel;
use crate::engine::EngineProfile;
use crate::engine::{Clock, Engine, ProofReport, SearchHandle, SearchLimits};
use crate::wire::ugi::{
    parse_command, Command, EngineLine, GoParams, Info, OptionDeclaration, Wdl,
};
use crate::wire::Score;

pub const AUTHOR: &str = "the boardgames team";

/// Depth `bench` searches to when none is given.
pub const DEFAULT_BENCH_DEPTH: u32 = 7;

struct Session<G: Presentation, K: EngineProfile<G>> {
    engine: Engine<G, K>,
    search: Option<SearchHandle<G>>,
}

/// Runs the UCI/UGI loop until `quit` or the end of input. `first_lines`
/// are lines already read from `input` (by a binary choosing its front-end).
pub fn run_ugi<G: Presentation, K: EngineProfile<G>>(
    input: Receiver<String>,
    first_lines: Vec<String>,
) {
    let mut session = Session::<G, K> {
        engine: Engine::new(),
        search: None,
    };
    for line in first_lines.into_iter().chain(input.iter()) {
        log::debug!("<< {line}");
        if !session.handle(&line) {
            break;
        }
    }
    session.finish_search();
}

impl<G: Presentation, K: EngineProfile<G>> Session<G, K> {
    /// Handles one line; `false` means quit.
    fn handle(&mut self, line: &str) -> bool {
        let command = match parse_command(line) {
            Ok(command) => command,
            Err(message) => {
                error(&message);
                return true;
            }
        };
        match command {
            Command::Empty => {}
            Command::Hello { ugi } => self.hello(ugi),
            Command::IsReady => send("readyok"),
            Command::NewGame { .. } => {
                self.finish_search();
                self.engine.new_game();
            }
            Command::SetOption { name, value } => {
                self.finish_search();
                if let Err(message) = self.engine.set_option(&name, &value) {
                    error(&message);
                }
            }
            Command::Position { fen, moves } => {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                if let Err(message) = self.engine.set_position(fen.as_deref(), &moves) {
                    error(&message);
                }
            }
            Command::Go(params) => self.go(params),
            Command::Stop => {
                if let Some(search) = &self.search {
                    search.stop();
                }
            }
            Command::PonderHit => match &self.search {
                Some(search) if search.is_pondering() => search.ponderhit(),
                _ => error("ponderhit: no ponder search is running"),
            },
            Command::Quit => return false,
            Command::Query(what) => self.query(&what),
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Bench(depth) => {
                self.finish_search();
                bench::<G, K>(depth.unwrap_or(DEFAULT_BENCH_DEPTH), &[]);
            }
        }
        true
    }

    /// Stops a running search, if any, and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop();
            search.wait();
        }
    }

    fn hello(&self, ugi: bool) {
        let name = format!("{} {}", G::NAME, env!("CARGO_PKG_VERSION"));
        send_line(EngineLine::IdName(name));
        send_line(EngineLine::IdAuthor(AUTHOR.to_owned()));
        for spec in self.engine.option_specs() {
            send_line(EngineLine::Option(declaration(spec.name, spec.kind)));
        }
        send_line(EngineLine::HelloOk { ugi });
    }

    fn go(&mut self, params: GoParams) {
        self.finish_search();
        if let Some(depth) = params.perft {
            let count = if params.strict {
                PerftCount::Strict
            } else {
                PerftCount::GameEnds
            };
            perft(&self.engine, depth, count);
            return;
        }
        if params.mate.is_some() && params.ponder {
            // A proof answers as soon as it knows: it cannot wait for ponderhit.
            return error("go mate does not take ponder");
        }
        let root_moves = match self.engine.parse_root_moves(&params.searchmoves) {
            Ok(moves) => moves,
            Err(message) => return error(&message),
        };
        let limits = limits_for::<G>(&params, self.engine.position().side_to_move());
        let style = InfoStyle {
            wdl: self
                .engine
                .options()
                .show_wdl
                .then_some(self.engine.profile().wdl),
            ponder: self.engine.options().ponder,
        };
        let handle = match params.mate {
            Some(moves) if root_moves.is_empty() => match self.engine.start_proof(
                moves,
                limits,
                Box::new(move |proof: &ProofReport| report_proof(proof, style)),
            ) {
                Ok(handle) => handle,
                Err(message) => return error(&message),
            },
            Some(_) => return error("go mate does not take searchmoves"),
            None => self.engine.start_search_among(
                limits,
                root_moves,
                Box::new(move |info: &SearchInfo| report(info, style)),
            ),
        };
        self.search = Some(handle);
    }

    fn query(&self, what: &str) {
        let position = self.engine.position();
        let answer = match what {
            "gameover" => Some(position.outcome().is_some().to_string()),
            "p1turn" => Some((position.side_to_move() == Player::P1).to_string()),
            "result" => Some(
                match position.outcome() {
                    None => "none",
                    Some(Outcome::Draw) => "draw",
                    Some(Outcome::Win(Player::P1)) => "p1win",
                    Some(Outcome::Win(Player::P2)) => "p2win",
                }
                .to_string(),
            ),
            other => position.query(other),
        };
        match answer {
            Some(answer) => send_line(EngineLine::Response(answer)),
            None => error(&format!("unknown query '{what}'")),
        }
    }

    fn display(&self) {
        let position = self.engine.position();
        for line in position.render().lines() {
            send(line);
        }
        send(&format!("Fen: {}", position.to_fen()));
        send(&format!(
            "Side to move: {}",
            G::player_colour(position.side_to_move())
        ));
        send(&format!("Key: {:016x}", position.hash()));
    }

    fn eval(&self) {
        let side = self.engine.position().side_to_move();
        let (terms, total) = self.engine.evaluation();
        for term in terms {
            send(&format!(
                "info string eval {:<16} {}: {:>7} {}: {:>7}",
                term.name,
                G::player_colour(Player::P1),
                term.p1,
                G::player_colour(Player::P2),
                term.p2
            ));
        }
        send(&format!(
            "info string eval total {total} (for {}, the side to move)",
            G::player_colour(side)
        ));
    }
}

/// Turns `go` parameters into search limits for the side to move.
fn limits_for<G: Game>(params: &GoParams, side: Player) -> SearchLimits {
    let ms = Duration::from_millis;
    let (time, increment) = {
        // UCI's wtime/btime name colours; UGI's p1time/p2time name players.
        let by_colour = |colour: &str| match colour {
            "white" => (params.wtime, params.winc),
            _ => (params.btime, params.binc),
        };
        let (colour_time, colour_inc) = by_colour(G::player_colour(side));
        let (player_time, player_inc) = match side {
            Player::P1 => (params.p1time, params.p1inc),
            Player::P2 => (params.p2time, params.p2inc),
        };
        (player_time.or(colour_time), player_inc.or(colour_inc))
    };
    SearchLimits {
        depth: params.depth,
        nodes: params.nodes,
        movetime: params.movetime.map(ms),
        infinite: params.infinite,
        clock: time.map(|t| Clock {
            time_left: ms(t),
            increment: ms(increment.unwrap_or(0)),
            moves_to_go: params.movestogo,
        }),
        move_cap: None,
        ponder: params.ponder,
    }
}

/// What the options add to the search's output.
#[derive(Clone, Copy)]
struct InfoStyle {
    /// `UCI_ShowWDL`: the model that turns scores into `wdl W D L`.
    wdl: Option<WdlModel>,
    /// `Ponder`: `bestmove X ponder Y` when the line has a reply.
    ponder: bool,
}

/// Prints a protocol line.
fn send_line(line: EngineLine) {
    send(&line.to_string());
}

/// How `option` declares one of the engine's options.
fn declaration(name: &str, kind: OptionKind) -> OptionDeclaration {
    let (kind, default, range, vars) = match kind {
        OptionKind::Spin { default, min, max } => {
            ("spin", default.to_string(), Some((min, max)), Vec::new())
        }
        OptionKind::Check { default } => ("check", default.to_string(), None, Vec::new()),
        OptionKind::Combo { default, choices } => (
            "combo",
            default.to_string(),
            None,
            choices.iter().map(|c| c.to_string()).collect(),
        ),
        OptionKind::Text { default } => ("string", default.to_string(), None, Vec::new()),
        OptionKind::Button => {
            return OptionDeclaration {
                name: name.to_owned(),
                kind: "button".to_owned(),
                ..OptionDeclaration::default()
            }
        }
    };
    OptionDeclaration {
        name: name.to_owned(),
        kind: kind.to_owned(),
        default: Some(default),
        min: range.map(|(min, _)| min),
        max: range.map(|(_, max)| max),
        vars,
    }
}

/// The score (`cp` or `mate`) and, when asked, its `wdl` chances.
fn scored(info: &mut Info, score: crate::core::Score, style: InfoStyle) {
    info.score = Some(Score::from_search(score));
    info.wdl = style.wdl.map(|model| {
        let chances = model.wdl(score);
        Wdl {
            win: chances.win,
            draw: chances.draw,
            loss: chances.loss,
        }
    });
}

/// Prints `info` lines while searching, and `bestmove` at the end.
fn report(info: &SearchInfo, style: InfoStyle) {
    let mut line = Info {
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        multipv: info.multipv.map(|k| k as u32),
        nodes: Some(info.nodes),
        nps: Some(info.nps()),
        time: Some(info.elapsed.as_millis() as u64),
        hashfull: Some(info.hashfull),
        pv: info.pv.clone(),
        ..Info::default()
    };
    scored(&mut line, info.score, style);
    if !info.finished {
        return send_line(EngineLine::Info(line));
    }
    send_line(EngineLine::Info(Info::text(format!(
        "cutoffs {}",
        info.cutoffs
    ))));
    send_line(EngineLine::Info(line));
    let best = info.best_move.clone().unwrap_or_else(|| "0000".to_owned());
    let ponder = info
        .pv
        .get(1)
        .filter(|_| style.ponder && info.best_move.is_some())
        .cloned();
    send_line(EngineLine::BestMove { mv: best, ponder });
}

/// Prints the proof search's progress, its conclusion and `bestmove`.
fn report_proof(report: &ProofReport, style: InfoStyle) {
    let elapsed_ms = report.elapsed.as_millis().max(1);
    let counts = Info {
        nodes: Some(report.nodes),
        nps: Some((u128::from(report.nodes) * 1000 / elapsed_ms) as u64),
        time: Some(report.elapsed.as_millis() as u64),
        ..Info::default()
    };
    if !report.finished {
        return send_line(EngineLine::Info(counts));
    }
    let within = report.within_moves;
    let with_hash = Info {
        hashfull: Some(report.hashfull),
        ..counts
    };
    match report.verdict {
        Verdict::Proven { plies } => {
            let mut proof = Info {
                depth: Some(plies),
                pv: report.line.clone(),
                ..with_hash
            };
            scored(&mut proof, crate::core::MATE - plies as i32, style);
            send_line(EngineLine::Info(proof));
        }
        Verdict::Disproven => {
            send_line(EngineLine::Info(Info::text(format!(
                "no forced win within {within} moves"
            ))));
            send_line(EngineLine::Info(with_hash));
        }
        Verdict::Open => {
            send_line(EngineLine::Info(Info::text(format!(
                "no forced win within {within} moves found before the search stopped"
            ))));
            send_line(EngineLine::Info(with_hash));
        }
    }
    let best = report.best_move.clone();
    send_line(EngineLine::BestMove {
        mv: best.unwrap_or_else(|| "0000".to_owned()),
        ponder: None,
    });
}

fn perft<G: Game, K: EngineProfile<G>>(engine: &Engine<G, K>, depth: u32, count: PerftCount) {
    let mut position = engine.position().clone();
    let start = std::time::Instant::now();
    let counts = perft_divide(&mut position, depth, count);
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    for (mv, count) in counts {
        send(&format!("{}: {count}", position.format_move(mv)));
    }
    send("");
    send(&format!("Nodes searched: {total}"));
    log::info!("perft {depth}: {total} in {:?}", start.elapsed());
}

/// Runs the benchmark with `options` set and prints its figures, node
/// count and speed last.
pub fn bench<G: Presentation, K: EngineProfile<G>>(depth: u32, options: &[(String, String)]) {
    match Engine::<G, K>::bench(depth, options) {
        Ok((nodes, elapsed)) => {
            let nps = nodes as u128 * 1000 / elapsed.as_millis().max(1);
            send(&format!("Bench depth     : {depth}"));
            send(&format!("Total time (ms) : {}", elapsed.as_millis()));
            send(&format!("Nodes searched  : {nodes}"));
            send(&format!("Nodes/second    : {nps}"));
        }
        Err(message) => error(&format!("bench: {message}")),
    }
}
