//! Static evaluation from the threat values both sides hold on the empty
//! cells, which make/unmake keep summed. Its numbers are data
//! (`weights.txt`): the shape and threat values the sums are made of, how
//! the two sides' sums combine, and the side to move's bonuses.

use std::ops::RangeInclusive;

use once_cell::sync::Lazy;

use super::board::{cell_of, coordinates, stone_of, Board, Rule, DIRECTIONS, EMPTY};
use super::pattern::{
    combine, digit_position, shape_set_index, shape_table, Shape, DIGIT_BLOCKED, DIGIT_EMPTY,
    DIGIT_OWN, HALF_WINDOW, POW3, ROLE_TO_MOVE, ROLE_WAITING, SHAPE_COUNT, SHAPE_NAMES, SHAPE_SETS,
    SHAPE_SET_COUNT, THREAT_COUNT, THREAT_NAMES, T_DOUBLE_THREE, T_FOUR_THREE, T_OPEN_FOUR,
    T_OPEN_THREE,
};
use crate::core::weights::WeightTable;
use crate::core::{EvalTerm, Score};

/// The weights as data (`weights.txt`, compiled in): a tuning run rewrites
/// the file, not this code.
pub static WEIGHT_TABLE: Lazy<WeightTable> = Lazy::new(|| {
    // The file is part of the source; a test reads it, so a broken one
    // never gets past the test suite.
    WeightTable::parse(include_str!("weights.txt")).unwrap_or_else(|e| panic!("weights.txt: {e}"))
});

/// The weights the evaluation and the board's value tables read; built once.
pub(super) static WEIGHTS: Lazy<Weights> =
    Lazy::new(|| Weights::from_table(&WEIGHT_TABLE).unwrap_or_else(|e| panic!("weights.txt: {e}")));

/// Open-three cells the bonus counts at most.
const OPEN_THREE_CAP: i32 = 4;
/// The largest shape, threat or shape set value: a cell's value, four
/// shapes and two bonuses, must fit the board's i16.
const MAX_CLASS_VALUE: i32 = i16::MAX as i32 / 6;
/// The largest scale divisor: the features' unit, it, times the bonuses
/// must fit an i32.
const MAX_SCALE_DIVISOR: i32 = 1024;

/// The weights, one field per term, in table order (per role, the side to
/// move's then the waiting side's: shapes, threats; then the scale divisor,
/// winning shape bonus, open three bonus; then per role the shape sets).
pub(super) struct Weights {
    pub(super) shape: [[i16; SHAPE_COUNT]; 2],
    pub(super) threat: [[i16; THREAT_COUNT]; 2],
    pub(super) shape_set: [[i16; SHAPE_SET_COUNT]; 2],
    scale_divisor: i32,
    /// The divisor's logarithm: it is a power of two, so that the
    /// evaluation divides by a shift, as cheaply as by the constant it was.
    scale_shift: u32,
    winning_shape_bonus: i32,
    open_three_bonus: i32,
}

/// Weights per role: the shapes', then the threats'.
const ROLE_WEIGHTS: usize = SHAPE_COUNT + THREAT_COUNT;
/// How many weights, and features, the evaluation has.
pub const FEATURES: usize = SHAPE_SET_FIRST + 2 * SHAPE_SET_COUNT;
const SCALE_DIVISOR: usize = 2 * ROLE_WEIGHTS;
const WINNING_SHAPE_BONUS: usize = SCALE_DIVISOR + 1;
const OPEN_THREE_BONUS: usize = SCALE_DIVISOR + 2;
/// The side to move's first shape set value, then the waiting side's.
const SHAPE_SET_FIRST: usize = SCALE_DIVISOR + 3;
/// The roles' prefixes in the weights' names, in role order.
const ROLE_NAMES: [&str; 2] = ["to_move", "waiting"];

/// The weights' names, in table (and feature) order.
pub fn weight_names() -> Vec<String> {
    let mut names = Vec::with_capacity(FEATURES);
    for role in ROLE_NAMES {
        names.extend(
            SHAPE_NAMES
                .iter()
                .map(|name| format!("{role}_shape_{name}")),
        );
        names.extend(
            THREAT_NAMES
                .iter()
                .map(|name| format!("{role}_threat_{name}")),
        );
    }
    names.extend(["scale_divisor", "winning_shape_bonus", "open_three_bonus"].map(str::to_owned));
    for role in ROLE_NAMES {
        names.extend(SHAPE_SETS.iter().map(|set| {
            let shapes = set.map(|shape| SHAPE_NAMES[shape as usize]);
            format!("{role}_set_{}", shapes.join("+"))
        }));
    }
    names
}

/// Whether the evaluation would load `table`.
pub fn check_table(table: &WeightTable) -> Result<(), String> {
    Weights::from_table(table).map(|_| ())
}

impl Weights {
    /// The table must list exactly the evaluation's weights, in order, with
    /// values the sums can hold.
    fn from_table(table: &WeightTable) -> Result<Weights, String> {
        let names = weight_names();
        table.require_names(&names)?;
        let v = table.values();
        let scale_divisor = checked(&names, v, SCALE_DIVISOR, 1..=MAX_SCALE_DIVISOR)?;
        if scale_divisor.count_ones() != 1 {
            return Err(format!("scale_divisor {scale_divisor} is no power of two"));
        }
        let role_first = |role: usize| role * ROLE_WEIGHTS;
        Ok(Weights {
            shape: [
                class_values(&names, v, role_first(ROLE_TO_MOVE))?,
                class_values(&names, v, role_first(ROLE_WAITING))?,
            ],
            threat: [
                class_values(&names, v, role_first(ROLE_TO_MOVE) + SHAPE_COUNT)?,
                class_values(&names, v, role_first(ROLE_WAITING) + SHAPE_COUNT)?,
            ],
            shape_set: [
                class_values(&names, v, SHAPE_SET_FIRST)?,
                class_values(&names, v, SHAPE_SET_FIRST + SHAPE_SET_COUNT)?,
            ],
            scale_divisor,
            scale_shift: scale_divisor.trailing_zeros(),
            winning_shape_bonus: v[WINNING_SHAPE_BONUS],
            open_three_bonus: v[OPEN_THREE_BONUS],
        })
    }

    /// `value / scale_divisor`, rounded toward zero as `/` rounds: a
    /// negative value is raised by the divisor less one before the shift.
    fn scale_down(&self, value: i32) -> i32 {
        (value + ((value >> 31) & (self.scale_divisor - 1))) >> self.scale_shift
    }
}

/// The value of weight `index`, if it lies in `range`.
fn checked(
    names: &[String],
    values: &[i32],
    index: usize,
    range: RangeInclusive<i32>,
) -> Result<i32, String> {
    let value = values[index];
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(format!("{} {value} is outside {range:?}", names[index]))
    }
}

/// The `N` shape or threat values from weight `first` on.
fn class_values<const N: usize>(
    names: &[String],
    values: &[i32],
    first: usize,
) -> Result<[i16; N], String> {
    let mut class_values = [0; N];
    for (index, value) in class_values.iter_mut().enumerate() {
        let range = -MAX_CLASS_VALUE..=MAX_CLASS_VALUE;
        // In range, so within i16.
        *value = checked(names, values, first + index, range)? as i16;
    }
    Ok(class_values)
}

/// Bonus for the side to move holding a winning shape on the board while
/// the opponent has no open three to answer with.
fn initiative_bonus(board: &Board, weights: &Weights) -> i32 {
    let me = board.side();
    let them = me ^ 1;
    let their_pressure = board.count_at_least(them, T_OPEN_FOUR) > 0;
    if their_pressure {
        return 0;
    }
    let winning = board.threat_count(me, T_FOUR_THREE) + board.threat_count(me, T_DOUBLE_THREE);
    if winning > 0 {
        weights.winning_shape_bonus
    } else {
        (board.threat_count(me, T_OPEN_THREE) as i32).min(OPEN_THREE_CAP) * weights.open_three_bonus
    }
}

pub fn evaluate(board: &Board) -> Score {
    let weights = &*WEIGHTS;
    let me = board.side();
    let mine = board.value_sum(me, ROLE_TO_MOVE);
    let theirs = board.value_sum(me ^ 1, ROLE_WAITING);
    weights.scale_down(mine - theirs) + initiative_bonus(board, weights)
}

pub fn terms(board: &Board) -> Vec<EvalTerm> {
    let weights = &*WEIGHTS;
    let me = board.side();
    let role = |side: usize| {
        if side == me {
            ROLE_TO_MOVE
        } else {
            ROLE_WAITING
        }
    };
    let per_side = |side: usize| weights.scale_down(board.value_sum(side, role(side)));
    let mut initiative = [0; 2];
    initiative[me] = initiative_bonus(board, weights);
    vec![
        EvalTerm {
            name: "shapes".to_string(),
            p1: per_side(0),
            p2: per_side(1),
        },
        EvalTerm {
            name: "initiative".to_string(),
            p1: initiative[0],
            p2: initiative[1],
        },
    ]
}

/// The unit of the features: 1/(scale divisor) of the evaluation's, the
/// unit the sums are combined in before the division.
pub fn feature_scale() -> i32 {
    WEIGHTS.scale_divisor
}

/// The features of `board` from the side to move's view, in
/// `feature_scale` units, counted from the stones alone. Their sum
/// weighted by the table is the evaluation before its two integer
/// divisions: divided by `feature_scale`, it is less than one unit from
/// `evaluate`.
pub fn features(board: &Board) -> [i32; FEATURES] {
    let counts = ClassCounts::scan(board);
    let me = board.side();
    let them = me ^ 1;
    // Per role, shapes then threats, as in the table: the mover's counts
    // add, the waiting side's subtract. The divisor's feature stays 0.
    let mine = counts.shapes[me].iter().chain(&counts.threats[me]);
    let theirs = counts.shapes[them].iter().chain(&counts.threats[them]);
    let mut features = [0; FEATURES];
    let (to_move, waiting) = features[..2 * ROLE_WEIGHTS].split_at_mut(ROLE_WEIGHTS);
    for (feature, &count) in to_move.iter_mut().zip(mine) {
        *feature = count;
    }
    for (feature, &count) in waiting.iter_mut().zip(theirs) {
        *feature = -count;
    }
    let (winning, open_threes) = counts.initiative(me);
    features[WINNING_SHAPE_BONUS] = feature_scale() * winning;
    features[OPEN_THREE_BONUS] = feature_scale() * open_threes;
    let (to_move, waiting) = features[SHAPE_SET_FIRST..].split_at_mut(SHAPE_SET_COUNT);
    for (feature, &count) in to_move.iter_mut().zip(&counts.shape_sets[me]) {
        *feature = count;
    }
    for (feature, &count) in waiting.iter_mut().zip(&counts.shape_sets[them]) {
        *feature = -count;
    }
    features
}

/// Per side, the (empty cell, direction) pairs holding each shape and the
/// empty cells holding each threat: what the board's value sums and threat
/// counts are made of.
struct ClassCounts {
    shapes: [[i32; SHAPE_COUNT]; 2],
    threats: [[i32; THREAT_COUNT]; 2],
    shape_sets: [[i32; SHAPE_SET_COUNT]; 2],
}

impl ClassCounts {
    /// Counted by reading every line from the stones, not from the keys
    /// make/unmake keep: slow, and independent of them.
    fn scan(board: &Board) -> ClassCounts {
        // Exactly five counts for Black under `standard` and `renju`, for
        // White under `standard` only.
        let rule = board.rule();
        let tables = [
            shape_table(rule != Rule::Freestyle),
            shape_table(rule == Rule::Standard),
        ];
        let mut counts = ClassCounts {
            shapes: [[0; SHAPE_COUNT]; 2],
            threats: [[0; THREAT_COUNT]; 2],
            shape_sets: [[0; SHAPE_SET_COUNT]; 2],
        };
        for cell in cells(board).filter(|&cell| board.is_empty(cell)) {
            for side in 0..2 {
                let shapes: [Shape; 4] = std::array::from_fn(|direction| {
                    tables[side][line_key(board, side, cell, direction)]
                });
                for shape in shapes {
                    counts.shapes[side][shape as usize] += 1;
                }
                counts.threats[side][combine(shapes) as usize] += 1;
                counts.shape_sets[side][shape_set_index(shapes)] += 1;
            }
        }
        counts
    }

    /// What the initiative bonus of `me`, to move, counts: whether it can
    /// make a winning shape, else its open-three cells (capped); nothing
    /// while the opponent can make an open four or a five.
    fn initiative(&self, me: usize) -> (i32, i32) {
        let (mine, theirs) = (&self.threats[me], &self.threats[me ^ 1]);
        if theirs[T_OPEN_FOUR as usize..].iter().sum::<i32>() > 0 {
            (0, 0)
        } else if mine[T_FOUR_THREE as usize] + mine[T_DOUBLE_THREE as usize] > 0 {
            (1, 0)
        } else {
            (0, mine[T_OPEN_THREE as usize].min(OPEN_THREE_CAP))
        }
    }
}

/// Every cell of the board.
fn cells(board: &Board) -> impl Iterator<Item = usize> {
    let size = board.size();
    (0..size * size).map(move |index| cell_of(index % size, index / size))
}

/// The line key `side` sees at `cell` along `direction`, read off the
/// stones: the edge and the opponent's stones block.
fn line_key(board: &Board, side: usize, cell: usize, direction: usize) -> usize {
    let (x, y) = coordinates(cell);
    let (dx, dy) = DIRECTIONS[direction];
    let reach = HALF_WINDOW as i32;
    let digit = |offset: i32| {
        let (nx, ny) = (x as i32 + offset * dx, y as i32 + offset * dy);
        if !board.on_board(nx, ny) {
            return DIGIT_BLOCKED;
        }
        match board.stone(cell_of(nx as usize, ny as usize)) {
            EMPTY => DIGIT_EMPTY,
            stone if stone == stone_of(side) => DIGIT_OWN,
            _ => DIGIT_BLOCKED,
        }
    };
    (-reach..=reach)
        .filter(|&offset| offset != 0)
        .map(|offset| usize::from(digit(offset) * POW3[digit_position(offset)]))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// `side`'s value sum in `role` from the scanned counts and the table's
    /// weights.
    fn scanned_value_sum(counts: &ClassCounts, side: usize, role: usize) -> i32 {
        let shapes = counts.shapes[side].iter().zip(WEIGHTS.shape[role]);
        let threats = counts.threats[side].iter().zip(WEIGHTS.threat[role]);
        let sets = counts.shape_sets[side].iter().zip(WEIGHTS.shape_set[role]);
        shapes
            .chain(threats)
            .chain(sets)
            .map(|(&count, value)| count * i32::from(value))
            .sum()
    }

    #[test]
    fn the_weight_file_lists_every_weight_in_order() {
        assert_eq!(WEIGHT_TABLE.names(), weight_names().as_slice());
        assert_eq!(WEIGHT_TABLE.names().len(), FEATURES);
        assert_eq!(WEIGHTS.scale_divisor, 8);
        assert_eq!(WEIGHTS.shape[ROLE_WAITING][SHAPE_COUNT - 1], 1000);
    }

    #[test]
    fn tables_the_sums_cannot_hold_are_refused() {
        let values = WEIGHT_TABLE.values().to_vec();
        let with = |index: usize, value: i32| {
            let mut changed = values.clone();
            changed[index] = value;
            Weights::from_table(&WEIGHT_TABLE.with_values(&changed).expect("same length"))
        };
        assert!(with(3, MAX_CLASS_VALUE).is_ok());
        assert!(with(3, MAX_CLASS_VALUE + 1).is_err());
        assert!(with(SCALE_DIVISOR, 0).is_err());
        assert!(with(SCALE_DIVISOR, 12).is_err());
        assert!(with(ROLE_WEIGHTS + 3, -MAX_CLASS_VALUE - 1).is_err());
        assert!(with(SHAPE_SET_FIRST + 7, MAX_CLASS_VALUE).is_ok());
        assert!(with(FEATURES - 1, MAX_CLASS_VALUE + 1).is_err());
        let renamed = WeightTable::parse("initiative 20\n").expect("valid text");
        assert!(Weights::from_table(&renamed).is_err());
    }

    #[test]
    fn scaling_down_divides_as_the_division_does() {
        let values = WEIGHT_TABLE.values().to_vec();
        for divisor in [1, 2, 8, 1024] {
            let mut changed = values.clone();
            changed[SCALE_DIVISOR] = divisor;
            let table = WEIGHT_TABLE.with_values(&changed).expect("same length");
            let weights = Weights::from_table(&table).expect("valid weights");
            for value in (-5000..5000).chain([i32::MIN + 1024, i32::MAX - 1024]) {
                assert_eq!(
                    weights.scale_down(value),
                    value / divisor,
                    "{value} / {divisor}"
                );
            }
        }
    }

    /// Positions from seeded random play near the stones, every one of a
    /// game's plies, on the given board; before a third of them a move was
    /// tried and taken back, so that unmaking is checked too.
    fn random_games(size: usize, rule: Rule, games: usize, seed: u64) -> Vec<Board> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut positions = Vec::new();
        for _ in 0..games {
            let mut board = Board::new(size, rule);
            board.play(cell_of(size / 2, size / 2));
            while board.winner().is_none() && !board.is_full() {
                let candidates: Vec<usize> = cells(&board)
                    .filter(|&c| board.is_empty(c) && (board.is_near(c) || rng.gen_ratio(1, 20)))
                    .collect();
                let pick = |rng: &mut SmallRng| candidates[rng.gen_range(0..candidates.len())];
                if rng.gen_ratio(1, 3) {
                    let tried = pick(&mut rng);
                    board.play(tried);
                    board.unplay(tried);
                }
                positions.push(board.clone());
                board.play(pick(&mut rng));
            }
        }
        positions
    }

    fn every_rule_and_size() -> Vec<Board> {
        let mut positions = Vec::new();
        for (seed, rule) in [(1, Rule::Freestyle), (2, Rule::Standard), (3, Rule::Renju)] {
            positions.extend(random_games(15, rule, 30, seed));
            positions.extend(random_games(9, rule, 30, seed + 10));
        }
        positions
    }

    #[test]
    fn the_scan_agrees_with_the_incremental_sums() {
        let positions = every_rule_and_size();
        assert!(positions.len() > 3000, "{}", positions.len());
        for board in &positions {
            let counts = ClassCounts::scan(board);
            for (side, role) in [0, 1].into_iter().flat_map(|s| [(s, 0), (s, 1)]) {
                let incremental = board.value_sum(side, role);
                assert_eq!(scanned_value_sum(&counts, side, role), incremental);
            }
            for side in 0..2 {
                for threat in 0..THREAT_COUNT {
                    let incremental = board.threat_count(side, threat as u8);
                    assert_eq!(counts.threats[side][threat], i32::from(incremental));
                }
            }
        }
    }

    /// The weighted features are the evaluation before its division by the
    /// scale divisor, which truncates by under one unit.
    #[test]
    fn the_weighted_features_are_within_one_unit_of_the_evaluation() {
        let scale = feature_scale();
        // Each bonus must have been given somewhere for the test to hold it.
        let mut bonuses = [0; 2];
        for board in every_rule_and_size() {
            let features = features(&board);
            let weighted: i32 = WEIGHT_TABLE
                .values()
                .iter()
                .zip(features)
                .map(|(w, f)| w * f)
                .sum();
            let evaluation = evaluate(&board);
            assert!(
                (weighted - scale * evaluation).abs() < scale,
                "{weighted} / {scale} against {evaluation}"
            );
            bonuses[0] += features[WINNING_SHAPE_BONUS].signum();
            bonuses[1] += features[OPEN_THREE_BONUS].signum();
        }
        assert!(bonuses.iter().all(|&given| given > 50), "{bonuses:?}");
    }
}
