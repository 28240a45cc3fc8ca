//! Static evaluation: the score difference plus what each knight can still
//! reach, in points (one unit is one point of the game's score).

use super::board::{bit, cells_of, colour, knight_jumps, Cells, ALL_CELLS, NO_CELL};
use super::position::{Cavalo, Move};
use crate::core::{EvalTerm, Player, Score};

/// Regions larger than this count as this large: room enough either way.
const REGION_CAP: u32 = 30;
/// A knight left alone collects about this fraction (1 / ALONE_SHARE) of
/// what it can still reach: against the seed's player at 20 ms against 200 ms
/// on boards 9000-9199, a third raised the engine's average margin by 36
/// points a game (standard error 12) over no such term, a half by 29 and a
/// fifth by 23, with the same share of wins.
const ALONE_SHARE: i32 = 3;
/// What moving with the knights on opposite colours is worth, in points a
/// cell still on the board (see `colour_parity`).
const PARITY_PER_CELL: i32 = 2;
/// How many jumps ahead the reach terms look.
const REACH_DEPTH: usize = 3;

/// Columns a knight's jump must not start from for each shift, so that a
/// shifted bitboard does not wrap around the board's edge.
const COLUMN_A: Cells = column_a();

const fn column_a() -> Cells {
    let mut mask = 0;
    let mut row = 0;
    while row < 10 {
        mask |= 1u128 << (row * 10);
        row += 1;
    }
    mask
}

fn column(col: u32) -> Cells {
    COLUMN_A << col
}

/// All cells one knight's jump from any cell of `from`.
pub fn spread(from: Cells) -> Cells {
    let not_a = !column(0);
    let not_ab = !(column(0) | column(1));
    let not_j = !column(9);
    let not_ij = !(column(8) | column(9));
    let up = ((from & not_ij) << 12)
        | ((from & not_j) << 21)
        | ((from & not_a) << 19)
        | ((from & not_ab) << 8);
    let down = ((from & not_ab) >> 12)
        | ((from & not_a) >> 21)
        | ((from & not_j) >> 19)
        | ((from & not_ij) >> 8);
    (up | down) & ALL_CELLS
}

/// `known` plus the cells a knight on `knight` reaches by jumps over
/// `present` cells. Stops early, with part of the flood, once more than
/// `cap` cells are known: callers that only need "more than `cap`" save the
/// rest of the work.
pub fn flood(knight: u8, present: Cells, known: Cells, cap: u32) -> Cells {
    let mut union = known;
    let mut ring = spread(bit(knight)) & present & !known;
    while ring != 0 {
        union |= ring;
        if union.count_ones() > cap {
            break;
        }
        ring = spread(ring) & present & !union;
    }
    union
}

/// What one knight can still reach.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Legal landing cells now.
    pub mobility: i32,
    /// The best value of each ring of cells 1..=REACH_DEPTH jumps away.
    pub best_by_distance: [i32; REACH_DEPTH],
    /// Cells connected to the knight by jumps over cells still on the board.
    pub region: i32,
    /// Value of the cells next to the knight that the other knight denies.
    pub denied_value: i32,
}

pub fn reach(position: &Cavalo, player: Player) -> Reach {
    let Some(knight) = position.knight(player) else {
        // Still to be placed: its home row is all it can count on.
        let home = position.destinations(player);
        let best = cells_of(home)
            .filter_map(|c| position.value(c))
            .max()
            .map_or(0, i32::from);
        return Reach {
            mobility: home.count_ones().max(1) as i32,
            best_by_distance: [best, 0, 0],
            region: 30,
            denied_value: 0,
        };
    };
    let present = position.present_cells();
    let denied = position.denied_to(player);
    let first = knight_jumps(knight) & present;
    let mut result = Reach {
        mobility: (first & !denied).count_ones() as i32,
        denied_value: value_sum(position, first & denied),
        ..Reach::default()
    };
    let mut ring = first & !denied;
    let mut seen = ring | bit(knight);
    for best in result.best_by_distance.iter_mut() {
        *best = best_value(position, ring);
        ring = spread(ring) & present & !seen;
        seen |= ring;
    }
    // The region only counts up to REGION_CAP cells: stop flooding there.
    while ring != 0 && (seen & present).count_ones() < REGION_CAP {
        ring = spread(ring) & present & !seen;
        seen |= ring;
    }
    result.region = ((seen & present).count_ones() as i32).min(REGION_CAP as i32);
    result
}

pub(super) fn value_sum(position: &Cavalo, cells: Cells) -> i32 {
    cells_of(cells)
        .filter_map(|c| position.value(c))
        .map(i32::from)
        .sum()
}

fn best_value(position: &Cavalo, cells: Cells) -> i32 {
    cells_of(cells)
        .filter_map(|c| position.value(c))
        .max()
        .map_or(0, i32::from)
}

/// The heuristic future of one knight, in points.
fn prospects(reach: &Reach) -> (i32, i32, i32) {
    let near = reach.best_by_distance[0] / 2
        + reach.best_by_distance[1] / 3
        + reach.best_by_distance[2] / 4;
    let room = 4 * reach.region + 6 * reach.mobility;
    let trapped = if reach.mobility == 0 { -40 } else { 0 };
    (near, room + trapped, -reach.denied_value / 8)
}

/// A knight with no cell left a jump away: removed cells never come back.
fn out_for_good(position: &Cavalo, knight: u8) -> bool {
    knight_jumps(knight) & position.present_cells() == 0
}

/// Once a knight has no cell left to jump to, it is out for good and the other knight plays on alone: worth a share
/// of the value of every cell it can still reach. For each knight, that share
/// if it is the one left alone, else 0.
fn playing_alone(position: &Cavalo) -> [i32; 2] {
    let present = position.present_cells();
    let mut alone = [0, 0];
    for player in [Player::P1, Player::P2] {
        let (Some(stuck), Some(free)) = (position.knight(player), position.knight(player.other()))
        else {
            continue;
        };
        if out_for_good(position, stuck) {
            let region = flood(free, present, 0, ALL_CELLS.count_ones());
            alone[player.other().index()] = value_sum(position, region) / ALONE_SHARE;
        }
    }
    alone
}

/// Both knights jump once a round and every jump changes colour, so whether
/// they stand on the same colour when a given player is to move holds all
/// game; only a pass changes it. The player who moves with them on opposite
/// colours lands on the colour of the other knight's cell, which that knight
/// never attacks, while the other may be denied its landings. In self-play
/// the first gained about 2 points a cell on the board more than the other
/// from there on, whatever the distance between the knights (CAVALO.md).
/// The credit of each player, counting the pass a side to move with no jump
/// (`mobility` 0) is about to make.
fn colour_parity(position: &Cavalo, reaches: &[Reach; 2]) -> [i32; 2] {
    let (Some(white), Some(black)) = (position.knight(Player::P1), position.knight(Player::P2))
    else {
        return [0, 0];
    };
    if !position.rules().attack_rule
        || out_for_good(position, white)
        || out_for_good(position, black)
    {
        return [0, 0];
    }
    let mut mover = position.side_to_move();
    if reaches[mover.index()].mobility == 0 {
        mover = mover.other();
    }
    let favoured = if colour(white) == colour(black) {
        mover.other()
    } else {
        mover
    };
    let mut parity = [0, 0];
    parity[favoured.index()] = PARITY_PER_CELL * position.present_cells().count_ones() as i32;
    parity
}

/// Each term for White and Black: (name, White's part, Black's part).
fn term_values(position: &Cavalo) -> [(&'static str, i32, i32); 7] {
    let scores = position.scores();
    let reaches = [reach(position, Player::P1), reach(position, Player::P2)];
    let parts = reaches.map(|r| prospects(&r));
    let mover = position.side_to_move().index();
    let mut tempo = [0, 0];
    tempo[mover] = reaches[mover].best_by_distance[0] / 2;
    let alone = playing_alone(position);
    let parity = colour_parity(position, &reaches);
    [
        ("score", scores[0], scores[1]),
        ("reachable values", parts[0].0, parts[1].0),
        ("region and mobility", parts[0].1, parts[1].1),
        ("denied by the other knight", parts[0].2, parts[1].2),
        ("tempo", tempo[0], tempo[1]),
        ("playing alone", alone[0], alone[1]),
        ("colour parity", parity[0], parity[1]),
    ]
}

pub fn terms(position: &Cavalo) -> Vec<EvalTerm> {
    term_values(position)
        .iter()
        .map(|&(name, p1, p2)| EvalTerm {
            name: name.to_string(),
            p1,
            p2,
        })
        .collect()
}

pub fn evaluate(position: &Cavalo) -> Score {
    let total: Score = term_values(position).iter().map(|t| t.1 - t.2).sum();
    match position.side_to_move() {
        Player::P1 => total,
        Player::P2 => -total,
    }
}

/// Larger for moves worth trying first: what the landing scores plus what
/// its removals take away from the opponent's reach.
pub fn move_order_hint(position: &Cavalo, mv: Move) -> i32 {
    if mv.is_pass() {
        return 0;
    }
    let (points, symmetric) = position.landing_effects(mv);
    let mut removed = 0;
    for cell in [symmetric, mv.removes] {
        if cell != NO_CELL {
            removed += position.value(cell).map_or(0, i32::from) / 2;
        }
    }
    1 + points + removed
}
