//! Measurement tools for the Jogo do Cavalo engine, kept apart from the
//! engine binary (`cavalo`), which only runs the shared protocol loop.
//!
//! `cavalo-tools solvepoint [boards]` measures from which ply of a self-played
//! game a one-second search proves the result.
//!
//! `cavalo-tools balance [boards] [first-seed] [ms]` prints the engine's
//! score for White after the placements of each board: how far a board
//! favours one colour before either player has chosen anything.
//!
//! `cavalo-tools verdicts BOARD_SEED MAX_NODES MOST_CELLS MOVE...` replays a
//! game and prints the exact solver's verdict after each move: where a lost
//! game was lost.
//!
//! `cavalo-tools labels [games] [first-seed] [nodes] [least-cells]
//! [most-cells]` prints positions labelled by the exact solver, for tuning
//! the evaluation.
//!
//! `cavalo-tools features [games] [first-seed] [ms]` prints the middle-game
//! positions of self-played games with their evaluation features and what
//! the side to move went on to gain more than the other.
//!
//! `cavalo-tools solvebench [positions] [first-seed] [cells] [max-nodes]`
//! times the exact solver on positions reached by deterministic play: the
//! benchmark for making the solver faster.
//!
//! `cavalo-tools match ...` is a separate helper, kept out of the engine's play:
//! it plays the engine against the seed's algorithm (see
//! `games::cavalo::seed_baseline`) and prints the results.

use std::time::Duration;

use boardgames::core::{Game, Outcome, Player, MATE_BOUND};
use boardgames::engine::{Engine, SearchLimits};
use boardgames::games::cavalo::seed_baseline::{seed_move, SeedDepth, SeedEvaluation};
use boardgames::games::cavalo::{exact, Cavalo, Rules};

/// `println!` that ends the tool quietly once its output is closed (piped
/// into `head`, say) instead of panicking on the broken pipe.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

const USAGE: &str = "usage: cavalo-tools match [...] | solvepoint [boards] | solvebench [positions] [first-seed] [cells] [max-nodes] | balance [boards] [first-seed] [ms] | verdicts BOARD_SEED MAX_NODES MOST_CELLS MOVE... | labels [games] [first-seed] [nodes] [least-cells] [most-cells] | features [games] [first-seed] [ms]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    boardgames::protocol::init_logging();
    let number = |i: usize, default: u64| {
        args.get(i)
            .and_then(|n: &String| n.parse().ok())
            .unwrap_or(default)
    };
    match args.first().map(String::as_str) {
        Some("solvepoint") => solve_point(number(1, 3)),
        Some("solvebench") => solve_bench(
            number(1, 12),
            number(2, 0),
            number(3, 74) as u32,
            number(4, 50_000_000),
        ),
        Some("balance") => balance(
            number(1, 100),
            number(2, 1000),
            Duration::from_millis(number(3, 1000)),
        ),
        Some("labels") => {
            let (least, most) = (number(4, 76) as u32, number(5, 84) as u32);
            if least > most {
                eprintln!("cavalo-tools labels: least-cells {least} is above most-cells {most}");
                std::process::exit(2);
            }
            labels(
                number(1, 100),
                number(2, 7000),
                number(3, 10_000_000),
                least..=most,
            );
        }
        Some("features") => features(number(1, 100), number(2, 20000), number(3, 20)),
        Some("verdicts") => {
            if let Err(message) = verdicts(&args[1..]) {
                eprintln!("cavalo-tools verdicts: {message}");
                eprintln!("usage: cavalo-tools verdicts BOARD_SEED MAX_NODES MOST_CELLS MOVE...");
                std::process::exit(2);
            }
        }
        Some("match") => match MatchSettings::parse(&args[1..]) {
            Ok(settings) => run_match(&settings),
            Err(message) => {
                eprintln!("cavalo-tools match: {message}");
                eprintln!(
                    "usage: cavalo-tools match [boards N] [first-seed S] [ours MS] [ours-late MS] [late-cells N] [baseline MS] [eval abs|diff] [search seed|deepening|lisp] [colour white|black|both] [threads T] [verbose 1]"
                );
                std::process::exit(2);
            }
        },
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    }
}

struct MatchSettings {
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
    /// Print every move with both scores.
    verbose: bool,
    /// The engine's search threads.
    threads: u64,
}

impl MatchSettings {
    fn parse(args: &[String]) -> Result<Self, String> {
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
    let mut engine = Engine::<Cavalo>::new();
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
            if let Err(message) = engine.set_position(Some(&game.to_fen()), &[]) {
                log::error!("engine rejected its position: {message}");
            }
            let time = match settings.ours_late {
                Some(time) if cells <= settings.late_cells => time,
                _ => settings.ours,
            };
            let limits = SearchLimits {
                movetime: Some(time),
                ..Default::default()
            };
            let result = engine.start_search(limits, Box::new(|_| {})).wait();
            (result.best_move, time)
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

fn run_match(settings: &MatchSettings) {
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

/// Replays a game on board BOARD_SEED and prints, after each move that
/// leaves at most MOST_CELLS cells, the exact solver's verdict for White
/// (within MAX_NODES nodes, `?` beyond): where a lost game was lost.
fn verdicts(args: &[String]) -> Result<(), String> {
    let [seed, nodes, most_cells, moves @ ..] = args else {
        return Err("too few arguments".to_string());
    };
    let board_seed = seed
        .parse()
        .map_err(|_| format!("'{seed}' is not a board seed"))?;
    let nodes = nodes
        .parse()
        .map_err(|_| format!("'{nodes}' is not a node count"))?;
    let most_cells: u32 = most_cells
        .parse()
        .map_err(|_| format!("'{most_cells}' is not a cell count"))?;
    let rules = Rules::on_board(board_seed);
    let mut game = Cavalo::start(&rules);
    let mut legal = Vec::new();
    for (ply, text) in moves.iter().enumerate() {
        let mv = game.parse_move(text)?;
        game.generate_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(format!("move {} '{text}' is illegal", ply + 1));
        }
        game.make_move(mv);
        if game.outcome().is_some() {
            break;
        }
        if game.present_cells().count_ones() > most_cells {
            continue;
        }
        let verdict = match exact::solve(&game, exact::Limit::Nodes(nodes)) {
            Some(solution) => {
                let for_white = match (solution.verdict, game.side_to_move()) {
                    (exact::Verdict::Draw, _) => "draw",
                    (exact::Verdict::Win, Player::P1) | (exact::Verdict::Loss, Player::P2) => {
                        "white wins"
                    }
                    _ => "black wins",
                };
                format!("{for_white} ({} nodes)", solution.nodes)
            }
            None => "?".to_string(),
        };
        out!(
            "ply {} after {text}: {} cells, {verdict}",
            ply + 1,
            game.present_cells().count_ones()
        );
    }
    Ok(())
}

/// Evaluation-tuning data labelled by the exact solver: on each of `games`
/// boards from `first_seed`, a game of the engine at 10 ms a move with one
/// move in four random, stopped at `cells` cells left; if the solver settles
/// the position within `nodes`, prints one line: the verdict for the side to
/// move (1, 0, -1), the cells left, the score difference and each knight's
/// reach (mover's first: mobility, best values 1 to 3 jumps away, region,
/// denied value).
fn labels(games: u64, first_seed: u64, nodes: u64, cells: std::ops::RangeInclusive<u32>) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(first_seed);
    let mut engine = Engine::<Cavalo>::new();
    for board_seed in first_seed..first_seed + games {
        let rules = Rules::on_board(board_seed);
        let mut game = Cavalo::start(&rules);
        let stop_at = rng.gen_range(cells.clone());
        while game.outcome().is_none() && game.present_cells().count_ones() > stop_at {
            let time = Duration::from_millis(10);
            let Some(mv) = self_play_move(&mut engine, &game, &mut rng, 0.25, time) else {
                break;
            };
            game.make_move(mv);
        }
        if game.outcome().is_some() || game.in_placement() {
            continue;
        }
        let Some(solution) = exact::solve(&game, exact::Limit::Nodes(nodes)) else {
            continue;
        };
        let verdict = match solution.verdict {
            exact::Verdict::Win => 1,
            exact::Verdict::Draw => 0,
            exact::Verdict::Loss => -1,
        };
        let mover = game.side_to_move();
        let scores = game.scores();
        let mut line = format!(
            "{verdict} {} {}",
            game.present_cells().count_ones(),
            scores[mover.index()] - scores[mover.other().index()]
        );
        line += &knight_fields(&game, mover);
        out!("{line}");
    }
}

/// A move of a self-played game: a random legal move with probability
/// `random_share` (so that games differ), else the engine's within `time`.
fn self_play_move(
    engine: &mut Engine<Cavalo>,
    game: &Cavalo,
    rng: &mut rand::rngs::SmallRng,
    random_share: f64,
    time: Duration,
) -> Option<<Cavalo as Game>::Move> {
    use rand::Rng;
    let mut legal = Vec::new();
    game.generate_moves(&mut legal);
    if !legal.is_empty() && random_share > 0.0 && rng.gen_bool(random_share) {
        return Some(legal[rng.gen_range(0..legal.len())]);
    }
    engine_search(engine, game, time).map(|(mv, _)| mv)
}

/// Each knight's reach (`first`'s first: mobility, best values 1 to 3 jumps
/// away, region, denied value), then each one's territory (cells, value).
fn knight_fields(game: &Cavalo, first: Player) -> String {
    use boardgames::games::cavalo::eval::reach;
    let mut fields = String::new();
    for player in [first, first.other()] {
        let r = reach(game, player);
        let [b1, b2, b3] = r.best_by_distance;
        fields += &format!(
            " {} {b1} {b2} {b3} {} {}",
            r.mobility, r.region, r.denied_value
        );
    }
    for (cells, value) in territory(game, first) {
        fields += &format!(" {cells} {value}");
    }
    fields
}

/// (cells, value) each knight reaches in fewer jumps than the other (the
/// mover winning ties), `first` first; for tuning experiments only.
fn territory(game: &Cavalo, first: Player) -> [(u32, i32); 2] {
    use boardgames::games::cavalo::board::{bit, cells_of, knight_jumps};
    use boardgames::games::cavalo::eval::spread;
    let present = game.present_cells();
    let mut frontier = [0u128; 2];
    let mut seen = [0u128; 2];
    for (side, player) in [first, first.other()].into_iter().enumerate() {
        if let Some(knight) = game.knight(player) {
            frontier[side] = knight_jumps(knight) & present & !game.denied_to(player);
            seen[side] = frontier[side] | bit(knight);
        }
    }
    let mut owned = [0u128; 2];
    let mut claimed = 0u128;
    while frontier[0] | frontier[1] != 0 {
        let mine = frontier[0] & !claimed;
        claimed |= mine;
        owned[0] |= mine;
        let theirs = frontier[1] & !claimed;
        claimed |= theirs;
        owned[1] |= theirs;
        for side in 0..2 {
            frontier[side] = spread(frontier[side]) & present & !seen[side] & !claimed;
            seen[side] |= frontier[side];
        }
    }
    owned.map(|cells| {
        let value = cells_of(cells)
            .filter_map(|c| game.value(c))
            .map(i32::from)
            .sum();
        (cells.count_ones(), value)
    })
}

/// Fewest and most cells of the positions `features` prints: the middle game,
/// where the evaluation decides (the root solver takes over below).
const FEATURE_CELLS: std::ops::RangeInclusive<u32> = 60..=94;
/// Plies of the opening in which `features` plays a random move now and
/// then, so that the games differ, and how often.
const FEATURE_RANDOM_PLIES: u32 = 14;
const FEATURE_RANDOM_SHARE: f64 = 0.12;

/// Plays a game on each board, the engine at `ms` a move on both sides (a
/// random move now and then in the opening), and prints each position of the
/// middle game: what the side to move then gained more than the other until
/// the end (its "future"), the cells on the board, the evaluation, each
/// knight's reach terms (mover first: mobility, best value 1, 2 and 3 jumps
/// away, region, denied value), each knight's territory (cells and value it
/// reaches first), 1 if the knights stand on the same colour, and both
/// knights' cells (mover first, 0-99).
fn features(games: u64, first_seed: u64, ms: u64) {
    use boardgames::games::cavalo::board;
    use boardgames::games::cavalo::eval::evaluate;
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(first_seed);
    let mut engine = Engine::<Cavalo>::new();
    for board_seed in first_seed..first_seed + games {
        let rules = Rules::on_board(board_seed);
        let mut game = Cavalo::start(&rules);
        let mut rows: Vec<(Player, [i32; 2], String)> = Vec::new();
        let mut ply = 0;
        while game.outcome().is_none() {
            let cells = game.present_cells().count_ones();
            if !game.in_placement() && FEATURE_CELLS.contains(&cells) {
                let mover = game.side_to_move();
                let mut line = format!("{cells} {}", evaluate(&game));
                line += &knight_fields(&game, mover);
                let same = match (game.knight(mover), game.knight(mover.other())) {
                    (Some(a), Some(b)) => i32::from(board::colour(a) == board::colour(b)),
                    _ => -1,
                };
                line += &format!(" {same}");
                for player in [mover, mover.other()] {
                    line += &format!(" {}", game.knight(player).map_or(-1, i32::from));
                }
                rows.push((mover, game.scores(), line));
            }
            let random_share = if ply < FEATURE_RANDOM_PLIES {
                FEATURE_RANDOM_SHARE
            } else {
                0.0
            };
            let time = Duration::from_millis(ms);
            let Some(mv) = self_play_move(&mut engine, &game, &mut rng, random_share, time) else {
                break;
            };
            game.make_move(mv);
            ply += 1;
        }
        let end = game.scores();
        for (mover, scores, line) in rows {
            let m = mover.index();
            let future = (end[m] - end[1 - m]) - (scores[m] - scores[1 - m]);
            out!("{future} {line}");
        }
    }
}

/// On each board, the engine's score for White after the placements (forced
/// under the default rules), searched for `time`; then how many boards
/// favour either colour by 100 points or more.
fn balance(boards: u64, first_seed: u64, time: Duration) {
    let mut engine = Engine::<Cavalo>::new();
    let mut legal = Vec::new();
    let mut for_white = Vec::new();
    for board_seed in first_seed..first_seed + boards {
        let rules = Rules::on_board(board_seed);
        let mut game = Cavalo::start(&rules);
        while game.in_placement() {
            game.generate_moves(&mut legal);
            let Some(&placement) = legal.first() else {
                break;
            };
            game.make_move(placement);
        }
        engine.new_game();
        let Some((_, score)) = engine_search(&mut engine, &game, time) else {
            continue;
        };
        let score = match game.side_to_move() {
            Player::P1 => score,
            Player::P2 => -score,
        };
        out!("board {board_seed}: {score:+} for white");
        for_white.push(i64::from(score));
    }
    let count = for_white.len().max(1) as i64;
    let white_by_100 = for_white.iter().filter(|&&s| s >= 100).count();
    let black_by_100 = for_white.iter().filter(|&&s| s <= -100).count();
    out!(
        "{} boards: mean {:+} for white; {white_by_100} favour white and {black_by_100} black by 100 points or more",
        for_white.len(),
        for_white.iter().sum::<i64>() / count
    );
}

/// Times the exact solver from a cold table on `positions` positions: on each
/// board from `first_seed`, the engine plays both sides at depth 5 (so that
/// the positions never depend on the clock) until at most `cells` cells are
/// left. Prints the verdict, nodes and time of each solve, then the totals;
/// a solve that needs more than `max_nodes` counts them and prints `?`.
fn solve_bench(positions: u64, first_seed: u64, cells: u32, max_nodes: u64) {
    let mut engine = Engine::<Cavalo>::new();
    let (mut total_nodes, mut total_time, mut unsolved) = (0u64, Duration::ZERO, 0);
    for board_seed in first_seed..first_seed + positions {
        let mut game = Cavalo::start(&Rules::on_board(board_seed));
        engine.new_game();
        while game.outcome().is_none() && game.present_cells().count_ones() > cells {
            let Some((mv, _)) = engine_search_limited(&mut engine, &game, depth_limit(5)) else {
                break;
            };
            game.make_move(mv);
        }
        if game.outcome().is_some() {
            continue;
        }
        exact::clear_table();
        let started = std::time::Instant::now();
        let mut nodes = 0;
        let solution = exact::solve_counting(&game, exact::Limit::Nodes(max_nodes), &mut nodes);
        let elapsed = started.elapsed();
        let verdict = match solution.map(|s| s.verdict) {
            Some(verdict) => format!("{verdict:?}"),
            None => {
                unsolved += 1;
                "?".to_string()
            }
        };
        out!(
            "board {board_seed}: {} cells, {verdict} for the mover, {nodes} nodes, {} ms",
            game.present_cells().count_ones(),
            elapsed.as_millis()
        );
        total_nodes += nodes;
        total_time += elapsed;
    }
    out!(
        "total {total_nodes} nodes, {} ms, {} nodes/s, {unsolved} unsolved",
        total_time.as_millis(),
        (total_nodes as f64 / total_time.as_secs_f64().max(1e-9)) as u64
    );
}

fn depth_limit(depth: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(depth),
        ..Default::default()
    }
}

/// The engine's move (and score) with `time` to think.
fn engine_search(
    engine: &mut Engine<Cavalo>,
    game: &Cavalo,
    time: Duration,
) -> Option<(<Cavalo as Game>::Move, i32)> {
    let limits = SearchLimits {
        movetime: Some(time),
        ..Default::default()
    };
    engine_search_limited(engine, game, limits)
}

/// The engine's move (and score) within `limits`.
fn engine_search_limited(
    engine: &mut Engine<Cavalo>,
    game: &Cavalo,
    limits: SearchLimits,
) -> Option<(<Cavalo as Game>::Move, i32)> {
    if let Err(message) = engine.set_position(Some(&game.to_fen()), &[]) {
        log::error!("engine rejected its position: {message}");
        return None;
    }
    let result = engine.start_search(limits, Box::new(|_| {})).wait();
    result.best_move.map(|mv| (mv, result.score))
}

/// Self-plays a game per board at 100 ms a move, then walks back from the
/// end: the earliest ply from which every later position is proven (won or
/// lost) by a fresh one-second search.
fn solve_point(boards: u64) {
    for board_seed in 0..boards {
        let rules = Rules::on_board(board_seed);
        let mut engine = Engine::<Cavalo>::new();
        let mut game = Cavalo::start(&rules);
        let mut positions = Vec::new();
        while game.outcome().is_none() {
            positions.push(game.clone());
            match engine_search(&mut engine, &game, Duration::from_millis(100)) {
                Some((mv, _)) => game.make_move(mv),
                None => break,
            }
        }
        let total = positions.len();
        let mut earliest = total;
        for (ply, position) in positions.iter().enumerate().rev() {
            engine.new_game();
            let proven = engine_search(&mut engine, position, Duration::from_millis(1000))
                .is_some_and(|(_, score)| score.abs() >= MATE_BOUND);
            if !proven {
                break;
            }
            earliest = ply;
        }
        let cells = positions
            .get(earliest)
            .map_or(0, |p| p.present_cells().count_ones());
        let scores = game.scores();
        out!(
            "board {board_seed}: {total} plies ({} to {}); proven within 1 s from ply {earliest} on ({} plies before the end, {cells} cells left)",
            scores[0],
            scores[1],
            total - earliest
        );
    }
}
