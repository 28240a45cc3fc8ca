//! Analysis helpers of `cavalo-tools`: where a game was lost (`verdicts`),
//! how far a board favours a colour (`balance`), and data for tuning the
//! evaluation (`labels`, `features`).

use crate::games::cavalo::CavaloKnowledge;
use std::time::Duration;

use rand::{Rng, SeedableRng};

use super::engine_search;
use crate::core::{Game, MoveError, Player};
use crate::engine::Engine;
use crate::games::cavalo::board::{self, bit, cells_of, knight_jumps};
use crate::games::cavalo::eval::{evaluate, reach, spread};
use crate::games::cavalo::{exact, Cavalo, Rules};

/// Replays a game on board BOARD_SEED and prints, after each move that
/// leaves at most MOST_CELLS cells, the exact solver's verdict for White
/// (within MAX_NODES nodes, `?` beyond): where a lost game was lost.
pub(super) fn verdicts(
    board_seed: u64,
    nodes: u64,
    most_cells: u32,
    moves: &[String],
) -> Result<(), String> {
    let rules = Rules::on_board(board_seed);
    let mut game = Cavalo::start(&rules);
    let mut table = exact::BoundsTable::default();
    for (ply, text) in moves.iter().enumerate() {
        let mv = game.parse_legal_move(text).map_err(|e| match e {
            MoveError::Unreadable(e) => e,
            _ => format!("move {} '{text}' is illegal", ply + 1),
        })?;
        game.make_move(mv);
        if game.outcome().is_some() {
            break;
        }
        if game.present_cells().count_ones() > most_cells {
            continue;
        }
        let verdict = match exact::solve(&game, &mut table, exact::Limit::Nodes(nodes)) {
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
pub(super) fn labels(
    games: u64,
    first_seed: u64,
    nodes: u64,
    cells: std::ops::RangeInclusive<u32>,
) {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(first_seed);
    let mut engine = Engine::<Cavalo, CavaloKnowledge>::new();
    let mut table = exact::BoundsTable::default();
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
        let Some(solution) = exact::solve(&game, &mut table, exact::Limit::Nodes(nodes)) else {
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
    engine: &mut Engine<Cavalo, CavaloKnowledge>,
    game: &Cavalo,
    rng: &mut rand::rngs::SmallRng,
    random_share: f64,
    time: Duration,
) -> Option<<Cavalo as Game>::Move> {
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
pub(super) fn features(games: u64, first_seed: u64, ms: u64) {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(first_seed);
    let mut engine = Engine::<Cavalo, CavaloKnowledge>::new();
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
pub(super) fn balance(boards: u64, first_seed: u64, time: Duration) {
    let mut engine = Engine::<Cavalo, CavaloKnowledge>::new();
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
