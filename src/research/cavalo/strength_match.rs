//! `bg-cavalo-tools match`: the engine against the seed's player
//! (`seed_baseline`), board after board and with both colours, and the
//! results.

use crate::games::cavalo::CavaloKnowledge;
use std::time::Duration;

use super::engine_search;
use super::seed_baseline::{seed_move, SeedDepth, SeedEvaluation};
use crate::core::{Game, Outcome, Player};
use crate::engine::Engine;
use crate::games::cavalo::{Cavalo, Rules};

pub(super) struct MatchSettings {
    boards: u64,
    first_seed: u64,
    ours: Duration,
    /// The engine's time a move once at most `late_cells` cells are left,
    /// if it differs from `ours` (to see in which part of the game time
    /// tells).
    ours_late: Option<Duration>,
    late_cells: u32,
    baseline: Duration,
    evaluation: SeedEvaluation,
    /// The seed's single pass, or the stronger iterative deepening.
    depth: SeedDepth,
    /// The colours the engine plays on each board.
    colours: Vec<Player>,
    /// Print every move with both scores, the cells left and its time.
    verbose: bool,
    /// The engine's search threads.
    threads: u64,
}

impl MatchSettings {
    pub(super) fn parse(args: &[String]) -> Result<Self, String> {
        let mut settings = MatchSettings {
            boards: 10,
            first_seed: 1000,
            ours: Duration::from_millis(100),
            ours_late: None,
            late_cells: 80,
            baseline: Duration::from_millis(1000),
            evaluation: SeedEvaluation::AbsoluteDifference,
            depth: SeedDepth::SinglePass,
            colours: vec![Player::P1, Player::P2],
            verbose: false,
            threads: 1,
        };
        for pair in args.chunks(2) {
            let [key, value] = pair else {
                return Err(format!("'{}' has no value", pair[0]));
            };
            let number = || {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("'{value}' is not a number"))
            };
            match key.as_str() {
                "boards" => settings.boards = number()?,
                "first-seed" => settings.first_seed = number()?,
                "ours" => settings.ours = Duration::from_millis(number()?),
                "ours-late" => settings.ours_late = Some(Duration::from_millis(number()?)),
                "late-cells" => {
                    settings.late_cells = u32::try_from(number()?)
                        .map_err(|_| format!("late-cells {value} is too large"))?
                }
                "baseline" => settings.baseline = Duration::from_millis(number()?),
                "verbose" => settings.verbose = number()? != 0,
                "threads" => settings.threads = number()?,
                "search" => {
                    settings.depth = match value.as_str() {
                        "seed" => SeedDepth::SinglePass,
                        "deepening" => SeedDepth::Deepening,
                        "lisp" => SeedDepth::AsWritten,
                        _ => {
                            return Err(format!(
                                "search must be seed, deepening or lisp, not '{value}'"
                            ))
                        }
                    }
                }
                "colour" => {
                    settings.colours = match value.as_str() {
                        "white" => vec![Player::P1],
                        "black" => vec![Player::P2],
                        "both" => vec![Player::P1, Player::P2],
                        _ => {
                            return Err(format!(
                                "colour must be white, black or both, not '{value}'"
                            ))
                        }
                    }
                }
                "eval" => {
                    settings.evaluation = match value.as_str() {
                        "abs" => SeedEvaluation::AbsoluteDifference,
                        "diff" => SeedEvaluation::Difference,
                        _ => return Err(format!("eval must be abs or diff, not '{value}'")),
                    }
                }
                _ => return Err(format!("unknown setting '{key}'")),
            }
        }
        if settings.depth == SeedDepth::AsWritten
            && settings.evaluation == SeedEvaluation::Difference
        {
            // The Lisp plays its last root child, which with p1 - p2 would be
            // the jump that scores least: no yardstick at all.
            return Err("search lisp is the seed's program, which evaluates by |p1 - p2|: use it with eval abs".into());
        }
        Ok(settings)
    }
}

/// Plays one game; returns the outcome and the final scores.
fn play_game(settings: &MatchSettings, rules: &Rules, ours: Player) -> (Outcome, [i32; 2]) {
    let mut engine = Engine::<Cavalo, CavaloKnowledge>::new();
    if let Err(message) = engine.set_option("Threads", &settings.threads.to_string()) {
        log::error!("{message}");
    }
    engine.new_game();
    let mut game = Cavalo::start(rules);
    loop {
        if let Some(outcome) = game.outcome() {
            return (outcome, game.scores());
        }
        let cells = game.present_cells().count_ones();
        let (mv, time) = if game.side_to_move() == ours {
            let time = match settings.ours_late {
                Some(time) if cells <= settings.late_cells => time,
                _ => settings.ours,
            };
            (
                engine_search(&mut engine, &game, time).map(|(mv, _)| mv),
                time,
            )
        } else {
            let mv = seed_move(
                &game,
                settings.baseline,
                settings.evaluation,
                settings.depth,
            );
            (mv, settings.baseline)
        };
        let Some(mv) = mv else {
            log::error!("no move in {}", game.to_fen());
            return (Outcome::Win(ours.other()), game.scores());
        };
        if settings.verbose {
            let mover = if game.side_to_move() == ours {
                "engine"
            } else {
                "seed"
            };
            let text = game.format_move(mv);
            game.make_move(mv);
            let scores = game.scores();
            out!(
                "  {mover} {text} {} {} ({cells} cells, {} ms)",
                scores[0],
                scores[1],
                time.as_millis()
            );
        } else {
            game.make_move(mv);
        }
    }
}

pub(super) fn run_match(settings: &MatchSettings) {
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    // Boards on which the engine's margins over its colours add up to more
    // than nothing (or less): a count that the board's bias cancels out of.
    let (mut boards_ahead, mut boards_behind) = (0u32, 0u32);
    for board_seed in settings.first_seed..settings.first_seed + settings.boards {
        let rules = Rules::on_board(board_seed);
        let mut margin = 0;
        for &ours in &settings.colours {
            let (outcome, scores) = play_game(settings, &rules, ours);
            margin += scores[ours.index()] - scores[ours.other().index()];
            let verdict = match outcome {
                Outcome::Win(winner) if winner == ours => {
                    wins += 1;
                    "win"
                }
                Outcome::Draw => {
                    draws += 1;
                    "draw"
                }
                Outcome::Win(_) => {
                    losses += 1;
                    "loss"
                }
            };
            out!(
                "board {board_seed} engine as {}: {verdict} ({} to {})",
                Cavalo::player_colour(ours),
                scores[0],
                scores[1]
            );
        }
        match margin.cmp(&0) {
            std::cmp::Ordering::Greater => boards_ahead += 1,
            std::cmp::Ordering::Less => boards_behind += 1,
            std::cmp::Ordering::Equal => {}
        }
    }
    let games = wins + draws + losses;
    out!(
        "engine {wins} wins, {draws} draws, {losses} losses in {games} games: {:.1}%",
        100.0 * (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games.max(1))
    );
    if settings.colours.len() == 2 {
        out!(
            "over both colours of a board, the engine's margin was ahead on {boards_ahead} and behind on {boards_behind} of {} boards",
            settings.boards
        );
    }
}
