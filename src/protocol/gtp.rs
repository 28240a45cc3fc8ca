//! GTP (Go Text Protocol, version 2) for Hex, as HexGui and benzene's
//! tournament scripts speak it: an adapter over the one engine core.
//!
//! Replies are `=[id] result` or `?[id] message`, each closed by a blank
//! line; an empty success is `= ` (the space matters to HexGui). `genmove`
//! runs on the search thread so that the line `# interrupt` (HexGui's Stop
//! button) can end it with its best move so far; other commands that arrive
//! meanwhile wait their turn. See protocol/HEX.md.

use crate::core::Presentation;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use super::gtp_analysis;
use super::gtp_mcts;
use super::gtp_time::GtpClock;
use super::gtp_values;
use super::output::send;
use crate::core::game::{Game, Outcome, Player, MATE_BOUND};
use crate::engine::{Engine, SearchHandle, SearchLimits, SearchMethod, TreeReport};
use crate::games::hex::{Hex, HexKnowledge, HexMove};
use crate::wire::gtp::{is_comment, parse_command, to_gtp_move, GtpResponse};

/// Every command this front-end answers, as `list_commands` shows them.
pub const COMMANDS: [&str; 41] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_left",
    "time_settings",
    "param_game",
    "hexgui-analyze_commands",
    "hex-eval",
    "hex-fen",
    "hex-setfen",
    "hex-setoption",
    "hex-legal",
    "hex-solve",
    "hex-move-values",
    "hex-mcts-search",
    "hex-mcts-values",
    "hex-mcts-visits",
    "hex-mcts-pv",
    "hex-mcts-candidates",
    "vc-between-cells-full",
    "vc-between-cells-semi",
    "vc-edge",
    "vc-must-play",
    "vc-verdict",
    "inferior-cells",
    "inferior-dead",
    "inferior-captured",
    "inferior-vulnerable",
    "inferior-dominated",
    "inferior-report",
];

/// Analysis commands offered in HexGui's menu (`type/label/command`).
const ANALYZE_COMMANDS: &str = "string/Evaluation/hex-eval\n\
string/Position string (FEN)/hex-fen\n\
string/Legal moves/hex-legal\n\
string/Solve (10 s)/hex-solve 10\n\
pspairs/Move Values (depth 2)/hex-move-values 2";

/// True when `line` is a GTP command (optionally after a numeric id) and
/// not a UCI/UGI one: how the `hex` binary tells the two protocols apart.
pub fn looks_like_gtp(line: &str) -> bool {
    match parse_command(line) {
        Ok(Some(command)) => command.name != "quit" && COMMANDS.contains(&command.name.as_str()),
        _ => false,
    }
}

/// A GTP reply: success or failure text.
type Reply = Result<String, String>;

/// What a search on the search thread answers when it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// `genmove`: the move, played.
    Play,
    /// `reg_genmove`: the move, not played.
    Report,
    /// `hex-mcts-search`: what the tree says of the position.
    Analysis,
}

struct RunningGenmove {
    handle: SearchHandle<Hex>,
    id: Option<String>,
    colour: Player,
    answer: Answer,
}

struct Session {
    engine: Engine<Hex, HexKnowledge>,
    clock: GtpClock,
    genmove: Option<RunningGenmove>,
    quit: bool,
    /// A swap was played before the engine's base position (a `play` out of
    /// turn restarts from the position without its history).
    swap_before_base: bool,
}

/// Runs GTP until `quit` or the end of input; `first_lines` were read
/// already (to choose the protocol).
pub fn run_gtp(input: Receiver<String>, first_lines: Vec<String>) {
    let mut session = Session {
        engine: Engine::new(),
        clock: GtpClock::default(),
        genmove: None,
        quit: false,
        swap_before_base: false,
    };
    let mut pending: VecDeque<String> = first_lines.into();
    let mut input_open = true;
    while !session.quit {
        if session.genmove.is_some() {
            if session.genmove_finished() {
                session.finish_genmove();
                continue;
            }
            if !input_open {
                // Nothing more can arrive: let the search end by its limits.
                std::thread::sleep(Duration::from_millis(2));
                continue;
            }
            match input.recv_timeout(Duration::from_millis(2)) {
                Ok(line) => {
                    if is_comment(&line) {
                        if line.trim_start_matches('#').trim() == "interrupt" {
                            session.interrupt();
                        }
                    } else {
                        pending.push_back(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => input_open = false,
            }
            continue;
        }
        let line = match pending.pop_front() {
            Some(line) => line,
            None if input_open => match input.recv() {
                Ok(line) => line,
                Err(_) => break,
            },
            None => break,
        };
        session.handle_line(&line);
    }
    session.interrupt();
    if session.genmove.is_some() {
        session.finish_genmove();
    }
}

fn respond(id: Option<&str>, reply: Reply) {
    let response = GtpResponse {
        id: id.map(str::to_owned),
        result: reply,
    };
    send(&response.to_string());
}

fn parse_colour(word: Option<&str>) -> Result<Player, String> {
    let word = word.ok_or("missing color")?;
    crate::wire::gtp::parse_colour(word)
        .ok_or_else(|| format!("invalid color '{}'", word.to_ascii_lowercase()))
}

/// Our move in benzene's spelling.
fn gtp_move(position: &Hex, mv: HexMove) -> String {
    to_gtp_move(&position.format_move(mv))
}

/// After a swap GTP's board is the colour mirror of ours: benzene's
/// `swap-pieces` leaves Black's stone and exchanges the players, ours
/// mirrors the stone (see `games::hex::colour_mirror`). Colours, cells and
/// positions cross between the two here.
impl Session {
    fn swapped(&self) -> bool {
        self.swap_before_base || self.engine.history().iter().any(|mv| mv.is_swap())
    }

    /// Our player for a GTP colour.
    fn player(&self, colour: Player) -> Player {
        if self.swapped() {
            colour.other()
        } else {
            colour
        }
    }

    /// A move on our board as it is on GTP's, or back: the mirror is its
    /// own inverse.
    fn across(&self, mv: HexMove) -> HexMove {
        if self.swapped() {
            mv.colour_mirrored(self.engine.position().size())
        } else {
            mv
        }
    }

    /// The position as GTP's board shows it.
    fn shown(&self) -> Cow<'_, Hex> {
        if self.swapped() {
            Cow::Owned(self.engine.position().colour_mirrored())
        } else {
            Cow::Borrowed(self.engine.position())
        }
    }

    /// Our move in GTP's spelling, on GTP's board.
    fn shown_move(&self, mv: HexMove) -> String {
        gtp_move(self.engine.position(), self.across(mv))
    }

    /// The last search's tree at this position, its moves on GTP's board.
    fn shown_report(&self) -> Option<TreeReport<HexMove>> {
        let mut report = self.engine.tree_report()?;
        for candidate in &mut report.candidates {
            candidate.mv = self.across(candidate.mv);
        }
        for mv in &mut report.principal_variation {
            *mv = self.across(*mv);
        }
        Some(report)
    }
}

impl Session {
    fn handle_line(&mut self, line: &str) {
        let (id, command, args) = match parse_command(line) {
            Ok(Some(command)) => (command.id, command.name, command.args),
            Ok(None) => return,
            Err(missing) => return respond(missing.id.as_deref(), Err("missing command".into())),
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (command, args) = (command.as_str(), args.as_slice());
        let reply = match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok(Hex::NAME.into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(args
                .first()
                .is_some_and(|c| COMMANDS.contains(c))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => self.boardsize(args),
            "clear_board" => {
                self.swap_before_base = false;
                self.engine.set_position(None, &[]).map(|_| String::new())
            }
            "play" => self.play(args),
            "genmove" | "reg_genmove" => {
                let answer = match command {
                    "genmove" => Answer::Play,
                    _ => Answer::Report,
                };
                match self.start_genmove(args, id.clone(), answer) {
                    Ok(()) => return,
                    Err(message) => Err(message),
                }
            }
            "hex-mcts-search" => match self.start_analysis(args, id.clone()) {
                Ok(()) => return,
                Err(message) => Err(message),
            },
            "undo" => self.engine.undo_move().map(|_| String::new()),
            "showboard" => Ok(format!("\n{}", self.shown().render())),
            "final_score" => match self.shown().outcome() {
                Some(Outcome::Win(Player::P1)) => Ok("B+".into()),
                Some(Outcome::Win(Player::P2)) => Ok("W+".into()),
                _ => Err("cannot score: the game is not over".into()),
            },
            "time_left" => self.time_left(args),
            "time_settings" => self.clock.time_settings(args).map(|_| String::new()),
            "param_game" => self.param_game(args),
            "hexgui-analyze_commands" => Ok(format!(
                "{ANALYZE_COMMANDS}\n{}\n{}",
                gtp_mcts::ANALYZE_COMMANDS,
                gtp_analysis::ANALYZE_COMMANDS
            )),
            "hex-eval" => Ok(self.eval_text()),
            "hex-fen" => Ok(self.shown().to_fen()),
            "hex-setfen" => self.set_fen(&args.join(" ")),
            "hex-setoption" => self.set_option(args),
            "hex-legal" => {
                let position = self.shown();
                let mut moves = Vec::new();
                position.generate_moves(&mut moves);
                Ok(moves
                    .iter()
                    .map(|&mv| gtp_move(&position, mv))
                    .collect::<Vec<_>>()
                    .join(" "))
            }
            "hex-solve" => self.solve(args),
            "hex-move-values" => {
                let mirrored = self.swapped();
                gtp_values::move_values(&mut self.engine, args, mirrored)
            }
            command if gtp_mcts::COMMANDS.contains(&command) => {
                gtp_mcts::answer(&self.shown(), self.shown_report(), command, args)
            }
            command if gtp_analysis::COMMANDS.contains(&command) => {
                gtp_analysis::answer(&self.shown(), command, args)
            }
            _ => Err("unknown command".into()),
        };
        respond(id.as_deref(), reply);
    }

    fn boardsize(&mut self, args: &[&str]) -> Reply {
        let sizes: Vec<usize> = args
            .iter()
            .map(|a| a.parse::<usize>())
            .collect::<Result<_, _>>()
            .map_err(|_| "boardsize needs numbers".to_string())?;
        match sizes.as_slice() {
            [n] | [n, _] if sizes.iter().all(|s| s == n) => {
                self.engine.set_option("BoardSize", &n.to_string())?;
                self.swap_before_base = false;
                self.engine.new_game();
                Ok(String::new())
            }
            [_, _] => Err("unacceptable size: only square boards".into()),
            _ => Err("usage: boardsize <n> [<n>]".into()),
        }
    }

    /// `play <colour> <move>`. Out of turn, the stone is added to the board
    /// and the other colour moves next (a position without move history).
    /// After a swap, the colour and the cell are GTP's (see `across`).
    fn play(&mut self, args: &[&str]) -> Reply {
        let colour = parse_colour(args.first().copied())?;
        let text = args.get(1).ok_or("missing move")?;
        let lower = text.to_ascii_lowercase();
        if lower == "resign" || lower == "pass" {
            return Err(format!("'{text}' cannot be played in Hex"));
        }
        let position = self.engine.position();
        let mv = position
            .parse_move(&lower)
            .map_err(|e| format!("illegal move: {text} ({e})"))?;
        let ours = position.format_move(self.across(mv));
        let player = self.player(colour);
        if position.side_to_move() != player {
            self.set_side_to_move(player)?;
        }
        self.engine
            .play_move(&ours)
            .map(|_| String::new())
            .map_err(|e| format!("illegal move: {text} ({e})"))
    }

    /// Makes `player` the side to move by restarting from the current
    /// position with the other side to move (its history is lost).
    fn set_side_to_move(&mut self, player: Player) -> Result<(), String> {
        let position = self
            .engine
            .position()
            .with_side_to_move(player)
            .ok_or("cannot change the side to move")?;
        let swapped = self.swapped();
        self.engine.set_position(Some(&position.to_fen()), &[])?;
        self.swap_before_base = swapped;
        Ok(())
    }

    /// `hex-setfen`: a position without history, in our own frame.
    fn set_fen(&mut self, fen: &str) -> Reply {
        self.engine.set_position(Some(fen), &[])?;
        self.swap_before_base = false;
        Ok(String::new())
    }

    /// `hex-setoption <name> <value>`: a rule's change starts a new game.
    fn set_option(&mut self, args: &[&str]) -> Reply {
        let (name, value) = args
            .split_first()
            .ok_or("usage: hex-setoption <name> <value>")?;
        let rules = self.engine.rules().clone();
        self.engine.set_option(name, &value.join(" "))?;
        if *self.engine.rules() != rules {
            self.swap_before_base = false;
        }
        Ok(String::new())
    }

    /// benzene's `param_game`: only `allow_swap`, the pie rule, which a
    /// referee or GUI sets this way since GTP has no word for it. Changing
    /// it starts a new game on the same board, as changing the size does.
    fn param_game(&mut self, args: &[&str]) -> Reply {
        let swap = self.engine.rules().swap;
        match args {
            [] => Ok(format!("[bool] allow_swap {}", u8::from(swap))),
            ["allow_swap", value] => {
                let wanted = match *value {
                    "1" | "true" => true,
                    "0" | "false" => false,
                    _ => return Err(format!("allow_swap takes 0 or 1, not '{value}'")),
                };
                if wanted != swap {
                    self.engine.set_option("Swap", &wanted.to_string())?;
                    self.swap_before_base = false;
                }
                Ok(String::new())
            }
            [name, ..] => Err(format!("unknown game parameter '{name}' (allow_swap only)")),
        }
    }

    fn time_left(&mut self, args: &[&str]) -> Reply {
        let colour = parse_colour(args.first().copied())?;
        self.clock.time_left(colour, args).map(|_| String::new())
    }

    fn start_genmove(
        &mut self,
        args: &[&str],
        id: Option<String>,
        answer: Answer,
    ) -> Result<(), String> {
        let colour = parse_colour(args.first().copied())?;
        if self.engine.position().outcome().is_some() {
            respond(id.as_deref(), Ok("resign".into()));
            return Ok(());
        }
        // The clock is GTP's colour's; the board, our player's.
        let player = self.player(colour);
        if self.engine.position().side_to_move() != player {
            self.set_side_to_move(player)?;
        }
        let limits = self.clock.limits(colour);
        let handle = self.engine.start_search(limits, Box::new(log_progress));
        self.genmove = Some(RunningGenmove {
            handle,
            id,
            colour,
            answer,
        });
        Ok(())
    }

    /// `hex-mcts-search <seconds>s | <simulations>`: a Monte Carlo search
    /// of the position as it stands, whatever `SearchMethod` says, on the
    /// search thread (HexGui's Stop button ends it); it answers with the
    /// candidates, which the other `hex-mcts-*` commands then show.
    fn start_analysis(&mut self, args: &[&str], id: Option<String>) -> Result<(), String> {
        let limits = gtp_mcts::search_limits(args)?;
        if self.engine.position().outcome().is_some() {
            return Err("the game is over".into());
        }
        let colour = self.player(self.engine.position().side_to_move());
        let handle = self.engine.start_search_by(
            SearchMethod::MonteCarlo,
            limits,
            Vec::new(),
            Box::new(log_progress),
        );
        self.genmove = Some(RunningGenmove {
            handle,
            id,
            colour,
            answer: Answer::Analysis,
        });
        Ok(())
    }

    fn genmove_finished(&self) -> bool {
        self.genmove.as_ref().is_none_or(|g| g.handle.is_finished())
    }

    fn interrupt(&self) {
        if let Some(genmove) = &self.genmove {
            genmove.handle.stop();
        }
    }

    fn finish_genmove(&mut self) {
        let Some(genmove) = self.genmove.take() else {
            return;
        };
        let result = genmove.handle.wait();
        let position = self.engine.position().clone();
        if genmove.answer == Answer::Analysis {
            let reply = match self.shown_report() {
                Some(report) => Ok(gtp_mcts::candidates_text(&self.shown(), &report)),
                // The root solver settled it before any simulation.
                None => Ok(format!(
                    "visits 0 pv {}",
                    result
                        .pv
                        .iter()
                        .map(|&mv| self.shown_move(mv))
                        .collect::<Vec<_>>()
                        .join(" ")
                )),
            };
            return respond(genmove.id.as_deref(), reply);
        }
        if genmove.answer == Answer::Play {
            self.clock.spent(genmove.colour, result.elapsed);
        }
        let reply = match result.best_move {
            None => Ok("resign".to_string()),
            Some(_) if result.score <= -MATE_BOUND => Ok("resign".to_string()),
            Some(mv) => {
                let text = self.shown_move(mv);
                if genmove.answer == Answer::Play {
                    self.engine
                        .play_move(&position.format_move(mv))
                        .map(|_| text)
                } else {
                    Ok(text)
                }
            }
        };
        log::info!("genmove for {:?}: {:?}", genmove.colour, reply);
        respond(genmove.id.as_deref(), reply);
    }

    fn eval_text(&self) -> String {
        let (terms, total) = self.engine.evaluation();
        let swapped = self.swapped();
        let mut lines: Vec<String> = terms
            .iter()
            .map(|t| {
                let (black, white) = if swapped { (t.p2, t.p1) } else { (t.p1, t.p2) };
                format!("{}: black {black} white {white}", t.name)
            })
            .collect();
        lines.push(format!("total {total} for the side to move"));
        lines.join("\n")
    }

    /// Searches up to `seconds` (default 10) and reports the proven result
    /// if one was found, else the best move and its score.
    fn solve(&mut self, args: &[&str]) -> Reply {
        let seconds: u64 = match args.first() {
            Some(s) => s.parse().map_err(|_| "usage: hex-solve [seconds]")?,
            None => 10,
        };
        let limits = SearchLimits {
            movetime: Some(Duration::from_secs(seconds.clamp(1, 3600))),
            ..Default::default()
        };
        let result = self.engine.start_search(limits, Box::new(|_| {})).wait();
        let side = Hex::player_colour(self.shown().side_to_move());
        let best = result
            .best_move
            .map(|mv| self.shown_move(mv))
            .unwrap_or_else(|| "none".into());
        Ok(if result.score >= MATE_BOUND {
            format!("{side} wins with {best}")
        } else if result.score <= -MATE_BOUND {
            format!("{side} loses (best try {best})")
        } else {
            format!("unproven; best {best} score {}", result.score)
        })
    }
}

/// A search's progress, for the log (stdout carries GTP only).
fn log_progress(info: &crate::engine::SearchInfo) {
    log::info!(
        "depth {} score {} nodes {} pv {}",
        info.depth,
        info.score,
        info.nodes,
        info.pv.join(" ")
    )
}
