//! Static evaluation: the score difference plus what each knight can still
//! reach, in points (one unit is one point of the game's score). It is a
//! weighted sum of integer features, the weights read from `weights.txt`.

use once_cell::sync::Lazy;

use super::board::{bit, cells_of, colour, knight_jumps, Cells, ALL_CELLS, NO_CELL};
use super::position::{Cavalo, Move};
use crate::core::weights::WeightTable;
use crate::core::{EvalTerm, Player, Score};

/// The weights as data (`weights.txt`, compiled in): a tuning run rewrites
/// the file, not this code.
pub static WEIGHT_TABLE: Lazy<WeightTable> = Lazy::new(|| {
    // The file is part of the source; a test reads it, so a broken one
    // never gets past the test suite.
    WeightTable::parse(include_str!("weights.txt")).unwrap_or_else(|e| panic!("weights.txt: {e}"))
});

static WEIGHTS: Lazy<Weights> =
    Lazy::new(|| Weights::from_table(&WEIGHT_TABLE).unwrap_or_else(|e| panic!("weights.txt: {e}")));

/// How many weights, and features, the evaluation has.
pub const FEATURES: usize = 11;

/// The weights' names, in table (and feature) order.
pub const WEIGHT_NAMES: [&str; FEATURES] = [
    "score",
    "near_1",
    "near_2",
    "near_3",
    "region",
    "mobility",
    "trapped",
    "denied",
    "tempo",
    "playing_alone",
    "colour_parity",
];

/// Where each weight's feature sits in a feature array.
const SCORE: usize = 0;
const NEAR: usize = 1;
const REGION: usize = 4;
const MOBILITY: usize = 5;
const TRAPPED: usize = 6;
const DENIED: usize = 7;
const TEMPO: usize = 8;
const ALONE: usize = 9;
const PARITY: usize = 10;

/// The terms the `eval` command shows, each the weighted sum of a run of
/// features (first, end).
const TERMS: [(&str, usize, usize); 7] = [
    ("score", SCORE, NEAR),
    ("reachable values", NEAR, REGION),
    ("region and mobility", REGION, DENIED),
    ("denied by the other knight", DENIED, TEMPO),
    ("tempo", TEMPO, ALONE),
    ("playing alone", ALONE, PARITY),
    ("colour parity", PARITY, FEATURES),
];

/// The weights in feature order, checked against the evaluation's names.
struct Weights([Score; FEATURES]);

/// Whether the evaluation would load `table`.
pub fn check_table(table: &WeightTable) -> Result<(), String> {
    Weights::from_table(table).map(|_| ())
}

impl Weights {
    /// The table must list exactly the evaluation's weights, in order.
    fn from_table(table: &WeightTable) -> Result<Weights, String> {
        table.require_names(&WEIGHT_NAMES)?;
        let weights = table
            .values()
            .try_into()
            .map_err(|_| "one value per weight")?;
        Ok(Weights(weights))
    }
}

/// Regions larger than this count as this large: room enough either way.
const REGION_CAP: u32 = 30;
/// The best values one, two and three jumps away count in halves, thirds
/// and quarters (`near_*` in weights.txt), each rounded down: the weights
/// count those shares, so that the features stay integers and the weighted
/// sum stays exactly the evaluation.
const NEAR_SHARES: [i32; REACH_DEPTH] = [2, 3, 4];
/// The value the other knight denies counts in eighths (`denied`).
const DENIED_SHARE: i32 = 8;
/// What a knight left alone can reach counts in thirds (`playing_alone`,
/// where the experiment that chose a third is told).
const ALONE_SHARE: i32 = 3;
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

/// One knight's share of the features: what it can still reach.
fn knight_features(reach: &Reach) -> [i32; FEATURES] {
    let mut features = [0; FEATURES];
    for (i, (best, share)) in reach.best_by_distance.iter().zip(NEAR_SHARES).enumerate() {
        features[NEAR + i] = best / share;
    }
    features[REGION] = reach.region;
    features[MOBILITY] = reach.mobility;
    features[TRAPPED] = i32::from(reach.mobility == 0);
    features[DENIED] = reach.denied_value / DENIED_SHARE;
    features
}

/// A knight with no cell left a jump away: removed cells never come back.
fn out_for_good(position: &Cavalo, knight: u8) -> bool {
    knight_jumps(knight) & position.present_cells() == 0
}

/// Once a knight has no cell left to jump to, it is out for good and the
/// other knight plays on alone: worth a share of the value of every cell it
/// can still reach. For each knight, that value in shares (rounded down) if
/// it is the one left alone, else 0.
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
/// never attacks, while the other may be denied its landings (what that is
/// worth: `colour_parity` in weights.txt). The cells on the board for the
/// player so favoured, 0 for the other, counting the pass a side to move
/// with no jump (`mobility` 0) is about to make.
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
    parity[favoured.index()] = position.present_cells().count_ones() as i32;
    parity
}

/// Each player's features (White, Black), one per weight in table order:
/// each player's part of the evaluation is their weighted sum.
fn player_features(position: &Cavalo) -> [[i32; FEATURES]; 2] {
    let reaches = [reach(position, Player::P1), reach(position, Player::P2)];
    let mut features = reaches.map(|r| knight_features(&r));
    let mover = position.side_to_move().index();
    // The mover collects first: its nearest best value counts again.
    features[mover][TEMPO] = features[mover][NEAR];
    let scores = position.scores();
    let alone = playing_alone(position);
    let parity = colour_parity(position, &reaches);
    for (side, own) in features.iter_mut().enumerate() {
        own[SCORE] = scores[side];
        own[ALONE] = alone[side];
        own[PARITY] = parity[side];
    }
    features
}

fn weighted(features: &[i32], weights: &[Score]) -> Score {
    features.iter().zip(weights).map(|(f, w)| f * w).sum()
}

/// The features of `position` from the side to move's view (White's minus
/// Black's, negated when Black is to move): `evaluate` is their sum
/// weighted by the table, exactly.
pub fn features(position: &Cavalo) -> [i32; FEATURES] {
    let [white, black] = player_features(position);
    let sign = match position.side_to_move() {
        Player::P1 => 1,
        Player::P2 => -1,
    };
    std::array::from_fn(|i| sign * (white[i] - black[i]))
}

pub fn terms(position: &Cavalo) -> Vec<EvalTerm> {
    let [white, black] = player_features(position);
    let weights = &WEIGHTS.0;
    TERMS
        .iter()
        .map(|&(name, first, end)| EvalTerm {
            name: name.to_string(),
            p1: weighted(&white[first..end], &weights[first..end]),
            p2: weighted(&black[first..end], &weights[first..end]),
        })
        .collect()
}

pub fn evaluate(position: &Cavalo) -> Score {
    evaluate_with(position, &WEIGHTS)
}

fn evaluate_with(position: &Cavalo, weights: &Weights) -> Score {
    weighted(&features(position), &weights.0)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::weights::LinearEval;
    use crate::core::{Game, Knowledge};
    use crate::games::cavalo::rules::{Placement, Rules};
    use crate::games::cavalo::CavaloKnowledge;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The weights the evaluation had in code before they moved to
    /// weights.txt, in table order.
    const FIRST_WEIGHTS: [Score; FEATURES] = [1, 1, 1, 1, 4, 6, -40, -1, 1, 1, 2];

    /// Every position of a seeded random game on each of 80 boards, the
    /// rule variants mixed across the boards.
    fn random_positions() -> Vec<Cavalo> {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut moves = Vec::new();
        let mut positions = Vec::new();
        for board_seed in 0..80 {
            let rules = Rules {
                board_seed,
                attack_rule: board_seed % 3 != 0,
                single_digit_symmetric: board_seed % 4 != 1,
                placement: [Placement::Highest, Placement::Choose][(board_seed % 5 == 2) as usize],
                first_mover: [Player::P1, Player::P2][(board_seed % 2) as usize],
            };
            let mut position = Cavalo::start(&rules);
            while position.outcome().is_none() {
                positions.push(position.clone());
                position.generate_moves(&mut moves);
                position.make_move(moves[rng.gen_range(0..moves.len())]);
            }
            positions.push(position);
        }
        positions
    }

    /// The evaluation as the code had it before the weights were data,
    /// numbers and divisions written out.
    fn evaluation_before_the_table(position: &Cavalo) -> Score {
        let reaches = [reach(position, Player::P1), reach(position, Player::P2)];
        let alone = playing_alone(position);
        let parity = colour_parity(position, &reaches);
        let side_total = |player: Player| {
            let side = player.index();
            let r = &reaches[side];
            let near =
                r.best_by_distance[0] / 2 + r.best_by_distance[1] / 3 + r.best_by_distance[2] / 4;
            let trapped = if r.mobility == 0 { -40 } else { 0 };
            let room = 4 * r.region + 6 * r.mobility + trapped;
            let tempo = if player == position.side_to_move() {
                r.best_by_distance[0] / 2
            } else {
                0
            };
            let denied = -r.denied_value / 8;
            position.scores()[side] + near + room + denied + tempo + alone[side] + 2 * parity[side]
        };
        let total = side_total(Player::P1) - side_total(Player::P2);
        match position.side_to_move() {
            Player::P1 => total,
            Player::P2 => -total,
        }
    }

    #[test]
    fn the_weight_file_lists_every_weight_in_order() {
        assert_eq!(WEIGHT_TABLE.names(), WEIGHT_NAMES);
        assert!(Weights::from_table(&WEIGHT_TABLE).is_ok());
        // The score's weight is the unit every other weight is counted in.
        assert_eq!(WEIGHTS.0[SCORE], 1);
        let swapped = WeightTable::parse("score 1\nnear_2 1\nnear_1 1\n").unwrap();
        assert!(Weights::from_table(&swapped).is_err());
    }

    /// The tuner fits weights to features alone: the features weighted by
    /// the table must be what the search evaluates, in every position.
    #[test]
    fn the_weighted_features_are_the_evaluation() {
        let table = CavaloKnowledge::weights();
        let mut knowledge = CavaloKnowledge::default();
        let mut features = Vec::new();
        let mut seen = [false; FEATURES];
        let positions = random_positions();
        for position in &positions {
            CavaloKnowledge::features(position, &mut features);
            let weighted: Score = weighted(&features, table.values());
            let evaluation = knowledge.evaluate(position);
            assert_eq!(weighted, evaluation, "{}", position.to_fen());
            let terms = knowledge.eval_terms(position);
            let shown: Score = terms.iter().map(|t| t.p1 - t.p2).sum();
            let sign = if position.side_to_move() == Player::P1 {
                1
            } else {
                -1
            };
            assert_eq!(sign * shown, evaluation, "{}", position.to_fen());
            for (seen, &feature) in seen.iter_mut().zip(&features) {
                *seen |= feature != 0;
            }
        }
        assert!(positions.len() > 3000, "{}", positions.len());
        // Every feature is exercised but the denied value, which is the
        // same for both knights and cancels (see weights.txt).
        let idle: Vec<&str> = (0..FEATURES)
            .filter(|&i| !seen[i])
            .map(|i| WEIGHT_NAMES[i])
            .collect();
        assert_eq!(idle, ["denied"]);
    }

    /// Moving the weights to data changed no evaluation: with the weights
    /// the code had, every position scores as it did.
    #[test]
    fn the_first_weights_give_the_evaluation_as_it_was() {
        let first = WEIGHT_TABLE.with_values(&FIRST_WEIGHTS).unwrap();
        let first = Weights::from_table(&first).unwrap();
        for position in &random_positions() {
            assert_eq!(
                evaluate_with(position, &first),
                evaluation_before_the_table(position),
                "{}",
                position.to_fen()
            );
        }
    }
}
