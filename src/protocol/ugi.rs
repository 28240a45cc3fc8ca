//! The UCI/UGI front-end: reads commands, drives an [`Engine`], writes
//! answers. The contract is protocol/PROTOCOL.md.

use std::sync::mpsc::Receiver;
use std::time::Duration;

use super::command::{parse_command, Command, GoParams};
use super::output::{error, send};
use crate::core::dfpn::Verdict;
use crate::core::game::{Game, OptionKind, Outcome, Player};
use crate::core::knowledge::Knowledge;
use crate::core::perft::perft_divide;
use crate::core::presentation::Presentation;
use crate::core::search::SearchInfo;
use crate::core::wdl::WdlModel;
use crate::engine::{Clock, Engine, ProofReport, SearchHandle, SearchLimits};

pub const AUTHOR: &str = "the boardgames team";

/// Depth `bench` searches to when none is given.
pub const DEFAULT_BENCH_DEPTH: u32 = 7;

struct Session<G: Presentation, K: Knowledge<G>> {
    engine: Engine<G, K>,
    search: Option<SearchHandle<G>>,
}

/// Runs the UCI/UGI loop until `quit` or the end of input. `first_lines`
/// are lines already read from `input` (by a binary choosing its front-end).
pub fn run_ugi<G: Presentation, K: Knowledge<G>>(
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

impl<G: Presentation, K: Knowledge<G>> Session<G, K> {
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
            Command::NewGame => {
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
                bench::<G, K>(depth.unwrap_or(DEFAULT_BENCH_DEPTH));
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
        send(&format!(
            "id name {} {}",
            G::NAME,
            env!("CARGO_PKG_VERSION")
        ));
        send(&format!("id author {AUTHOR}"));
        for spec in self.engine.option_specs() {
            let kind = match spec.kind {
                OptionKind::Spin { default, min, max } => {
                    format!("type spin default {default} min {min} max {max}")
                }
                OptionKind::Check { default } => format!("type check default {default}"),
                OptionKind::Combo { default, choices } => {
                    let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
                    format!("type combo default {default} {}", vars.join(" "))
                }
                OptionKind::Text { default } => format!("type string default {default}"),
                OptionKind::Button => "type button".to_string(),
            };
            send(&format!("option name {} {kind}", spec.name));
        }
        send(if ugi { "ugiok" } else { "uciok" });
    }

    fn go(&mut self, params: GoParams) {
        self.finish_search();
        if let Some(depth) = params.perft {
            perft(&self.engine, depth);
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
            wdl: self.engine.options().show_wdl.then(K::wdl_model),
            ponder: self.engine.options().ponder,
        };
        let handle = match params.mate {
            Some(moves) if root_moves.is_empty() => self.engine.start_proof(
                moves,
                limits,
                Box::new(move |proof: &ProofReport| report_proof(proof, style)),
            ),
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
            Some(answer) => send(&format!("response {answer}")),
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

/// `score ...` and, when asked, ` wdl W D L`.
fn score_words(score: crate::core::Score, mate_in: Option<i32>, style: InfoStyle) -> String {
    let mut words = match mate_in {
        Some(moves) => format!("score mate {moves}"),
        None => format!("score cp {score}"),
    };
    if let Some(model) = style.wdl {
        let wdl = model.wdl(score);
        words.push_str(&format!(" wdl {} {} {}", wdl.win, wdl.draw, wdl.loss));
    }
    words
}

/// Prints `info` lines while searching, and `bestmove` at the end.
fn report(info: &SearchInfo, style: InfoStyle) {
    let multipv = info
        .multipv
        .map_or(String::new(), |k| format!(" multipv {k}"));
    let mut line = format!(
        "info depth {} seldepth {}{multipv} {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        score_words(info.score, info.mate_in(), style),
        info.nodes,
        info.nps(),
        info.elapsed.as_millis(),
        info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&info.pv.join(" "));
    }
    if info.finished {
        send(&format!("info string cutoffs {}", info.cutoffs));
        send(&line);
        let best = info.best_move.as_deref().unwrap_or("0000");
        let reply = info
            .pv
            .get(1)
            .filter(|_| style.ponder && info.best_move.is_some());
        match reply {
            Some(reply) => send(&format!("bestmove {best} ponder {reply}")),
            None => send(&format!("bestmove {best}")),
        }
    } else {
        send(&line);
    }
}

/// Prints the proof search's progress, its conclusion and `bestmove`.
fn report_proof(report: &ProofReport, style: InfoStyle) {
    let elapsed_ms = report.elapsed.as_millis().max(1);
    let counts = format!(
        "nodes {} nps {} time {}",
        report.nodes,
        u128::from(report.nodes) * 1000 / elapsed_ms,
        report.elapsed.as_millis()
    );
    if !report.finished {
        send(&format!("info {counts}"));
        return;
    }
    let within = report.within_moves;
    match report.verdict {
        Verdict::Proven { plies } => send(&format!(
            "info depth {plies} {} {counts} hashfull {} pv {}",
            score_words(
                crate::core::MATE - plies as i32,
                Some(plies.div_ceil(2) as i32),
                style
            ),
            report.hashfull,
            report.line.join(" ")
        )),
        Verdict::Disproven => {
            send(&format!("info string no forced win within {within} moves"));
            send(&format!("info {counts} hashfull {}", report.hashfull));
        }
        Verdict::Open => {
            send(&format!(
                "info string no forced win within {within} moves found before the search stopped"
            ));
            send(&format!("info {counts} hashfull {}", report.hashfull));
        }
    }
    send(&format!(
        "bestmove {}",
        report.best_move.as_deref().unwrap_or("0000")
    ));
}

fn perft<G: Game, K: Knowledge<G>>(engine: &Engine<G, K>, depth: u32) {
    let mut position = engine.position().clone();
    let start = std::time::Instant::now();
    let counts = perft_divide(&mut position, depth);
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    for (mv, count) in counts {
        send(&format!("{}: {count}", position.format_move(mv)));
    }
    send("");
    send(&format!("Nodes searched: {total}"));
    log::info!("perft {depth}: {total} in {:?}", start.elapsed());
}

/// Runs the benchmark and prints its figures, node count and speed last.
pub fn bench<G: Presentation, K: Knowledge<G>>(depth: u32) {
    match Engine::<G, K>::bench(depth) {
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
