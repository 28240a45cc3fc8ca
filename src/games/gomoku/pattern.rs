//! Line shapes: what a stone placed on an empty cell would make along one
//! direction, for one colour, looked up from the ten cells around it.
//!
//! Each side keeps, for every cell and direction, a base-3 key of the five
//! cells on either side (empty, own stone, blocked: the opponent's stone or
//! the edge). The table maps a key to a [`Shape`]; it is built once per rule
//! from the definitions below, each shape defined by the shapes one more
//! stone reaches, so `standard` (exactly five) is handled by the same code.

use once_cell::sync::Lazy;

use super::eval::WEIGHTS;

/// Cells looked at on each side of the centre: five, so that a sixth stone
/// next to a five (an overline) is seen.
pub const HALF_WINDOW: usize = 5;
/// Digits of a line key (the centre itself is not part of it).
pub const KEY_DIGITS: usize = 2 * HALF_WINDOW;
/// Number of distinct line keys, 3^10.
pub const KEY_COUNT: usize = 59_049;

/// Key digit values.
pub const DIGIT_EMPTY: u16 = 0;
pub const DIGIT_OWN: u16 = 1;
pub const DIGIT_BLOCKED: u16 = 2;

/// Powers of three, one per key digit.
pub const POW3: [u16; KEY_DIGITS] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

/// Shape made by placing a stone, ordered by strength.
pub type Shape = u8;
/// No five through this cell is possible any more in this direction.
pub const DEAD: Shape = 0;
/// Still open, but nothing better than a lone stone.
pub const ONE: Shape = 1;
/// A two that can only become a blocked three.
pub const BLOCKED_TWO: Shape = 2;
/// A two that one more stone turns into an open three.
pub const OPEN_TWO: Shape = 3;
/// A three that one more stone turns into a four with one completion.
pub const BLOCKED_THREE: Shape = 4;
/// A three that one more stone turns into an open four.
pub const OPEN_THREE: Shape = 5;
/// A four: exactly one cell completes the five.
pub const FOUR: Shape = 6;
/// An open four: two or more cells complete the five; unstoppable.
pub const OPEN_FOUR: Shape = 7;
/// Five in a row (exactly five under `standard`).
pub const FIVE: Shape = 8;
pub const SHAPE_COUNT: usize = 9;
/// The shapes' names in the weight table, in shape order.
pub const SHAPE_NAMES: [&str; SHAPE_COUNT] = [
    "dead",
    "one",
    "blocked_two",
    "open_two",
    "blocked_three",
    "open_three",
    "four",
    "open_four",
    "five",
];

/// Digit position of the cell `offset` steps away from the centre
/// (`offset` in -5..=5, not 0).
pub const fn digit_position(offset: i32) -> usize {
    if offset < 0 {
        (offset + HALF_WINDOW as i32) as usize
    } else {
        (offset + HALF_WINDOW as i32 - 1) as usize
    }
}

/// A shape for every `u16`, the keys past `KEY_COUNT` (never met) dead:
/// indexed by a `u16` key, it needs no bounds check on make/unmake's path.
pub type ShapeTable = [Shape; 1 << 16];

/// The shape tables, one per rule, built on first use.
static FREESTYLE_TABLE: Lazy<Box<ShapeTable>> = Lazy::new(|| build_table(false));
static STANDARD_TABLE: Lazy<Box<ShapeTable>> = Lazy::new(|| build_table(true));

/// The table for a rule: `exact_five` is the `standard` rule.
pub fn shape_table(exact_five: bool) -> &'static ShapeTable {
    if exact_five {
        &STANDARD_TABLE
    } else {
        &FREESTYLE_TABLE
    }
}

const UNKNOWN: Shape = u8::MAX;
const LINE_LEN: usize = KEY_DIGITS + 1;
const CENTRE: usize = HALF_WINDOW;

fn build_table(exact_five: bool) -> Box<ShapeTable> {
    let mut memo = vec![UNKNOWN; KEY_COUNT];
    for key in 0..KEY_COUNT {
        shape_of(key, exact_five, &mut memo);
    }
    let mut table = Box::new([DEAD; 1 << 16]);
    table[..KEY_COUNT].copy_from_slice(&memo);
    table
}

/// The eleven cells of a key with the centre filled by an own stone.
fn decode(key: usize) -> [u16; LINE_LEN] {
    let mut line = [DIGIT_OWN; LINE_LEN];
    let mut rest = key;
    for position in 0..KEY_DIGITS {
        let index = if position < HALF_WINDOW {
            position
        } else {
            position + 1
        };
        line[index] = (rest % 3) as u16;
        rest /= 3;
    }
    line
}

fn line_index_to_digit(index: usize) -> usize {
    if index < CENTRE {
        index
    } else {
        index - 1
    }
}

/// Whether the line holds a five through the centre.
fn has_five(line: &[u16; LINE_LEN], exact_five: bool) -> bool {
    (CENTRE - 4..=CENTRE).any(|start| {
        let run = line[start..start + 5].iter().all(|&cell| cell == DIGIT_OWN);
        if !run || !exact_five {
            return run;
        }
        // Under `standard` a longer line is no five: the cells just outside
        // must not be own stones (both are inside the eleven-cell window).
        line[start - 1] != DIGIT_OWN && line[start + 5] != DIGIT_OWN
    })
}

/// Whether some window of five through the centre holds no blocked cell.
fn is_alive(line: &[u16; LINE_LEN]) -> bool {
    (CENTRE - 4..=CENTRE).any(|start| {
        line[start..start + 5]
            .iter()
            .all(|&cell| cell != DIGIT_BLOCKED)
    })
}

fn shape_of(key: usize, exact_five: bool, memo: &mut [Shape]) -> Shape {
    if memo[key] != UNKNOWN {
        return memo[key];
    }
    let mut line = decode(key);
    let shape = if !is_alive(&line) {
        DEAD
    } else if has_five(&line, exact_five) {
        FIVE
    } else {
        let mut completions = 0;
        let mut best_next = DEAD;
        for index in CENTRE - 4..=CENTRE + 4 {
            if index == CENTRE || line[index] != DIGIT_EMPTY {
                continue;
            }
            line[index] = DIGIT_OWN;
            if has_five(&line, exact_five) {
                completions += 1;
            }
            line[index] = DIGIT_EMPTY;
            let next_key = key + POW3[line_index_to_digit(index)] as usize;
            best_next = best_next.max(shape_of(next_key, exact_five, memo));
        }
        match (completions, best_next) {
            (c, _) if c >= 2 => OPEN_FOUR,
            (1, _) => FOUR,
            (_, OPEN_FOUR) => OPEN_THREE,
            (_, FOUR) => BLOCKED_THREE,
            (_, OPEN_THREE) => OPEN_TWO,
            (_, BLOCKED_THREE) => BLOCKED_TWO,
            _ => ONE,
        }
    };
    memo[key] = shape;
    shape
}

/// What one move makes for one side across its four directions, the level
/// threat search and move ordering work with.
pub type Threat = u8;
pub const T_NONE: Threat = 0;
/// Some two or blocked three: a quiet building move.
pub const T_QUIET: Threat = 1;
/// Makes a blocked three, a later four.
pub const T_BLOCKED_THREE: Threat = 2;
/// Makes one open three.
pub const T_OPEN_THREE: Threat = 3;
/// Makes two open threes.
pub const T_DOUBLE_THREE: Threat = 4;
/// Makes one four (must be answered).
pub const T_FOUR: Threat = 5;
/// Makes a four and an open three in another direction.
pub const T_FOUR_THREE: Threat = 6;
/// Makes an open four or two fours: wins unless the opponent has a five.
pub const T_OPEN_FOUR: Threat = 7;
/// Makes five: wins at once.
pub const T_FIVE: Threat = 8;
pub const THREAT_COUNT: usize = 9;
/// The threats' names in the weight table, in threat order.
pub const THREAT_NAMES: [&str; THREAT_COUNT] = [
    "none",
    "quiet",
    "blocked_three",
    "open_three",
    "double_three",
    "four",
    "four_three",
    "open_four",
    "five",
];

/// Combines the four direction shapes of one side at one cell.
pub fn combine(shapes: [Shape; 4]) -> Threat {
    let mut counts = [0u8; SHAPE_COUNT];
    for shape in shapes {
        counts[shape as usize] += 1;
    }
    if counts[FIVE as usize] > 0 {
        T_FIVE
    } else if counts[OPEN_FOUR as usize] > 0 || counts[FOUR as usize] >= 2 {
        T_OPEN_FOUR
    } else if counts[FOUR as usize] == 1 && counts[OPEN_THREE as usize] > 0 {
        T_FOUR_THREE
    } else if counts[FOUR as usize] == 1 {
        T_FOUR
    } else if counts[OPEN_THREE as usize] >= 2 {
        T_DOUBLE_THREE
    } else if counts[OPEN_THREE as usize] == 1 {
        T_OPEN_THREE
    } else if counts[BLOCKED_THREE as usize] > 0 {
        T_BLOCKED_THREE
    } else if counts[OPEN_TWO as usize] + counts[BLOCKED_TWO as usize] > 0 {
        T_QUIET
    } else {
        T_NONE
    }
}

/// How many multisets of four shapes there are: a cell's four direction
/// shapes, their directions forgotten. Each has its own value beside the
/// shapes' and the threat's, for what a sum of shapes cannot say (two open
/// twos on one cell are a double three in the making).
pub const SHAPE_SET_COUNT: usize = 495;

/// Every multiset of four shapes, each written strongest first, in the
/// order of their weights: the strongest shape counting most.
pub static SHAPE_SETS: Lazy<Vec<[Shape; 4]>> = Lazy::new(|| {
    let mut sets = Vec::with_capacity(SHAPE_SET_COUNT);
    for a in 0..SHAPE_COUNT as Shape {
        for b in 0..=a {
            for c in 0..=b {
                for d in 0..=c {
                    sets.push([a, b, c, d]);
                }
            }
        }
    }
    sets
});

/// Where four direction shapes, in any order, stand in `SHAPE_SETS`.
pub fn shape_set_index(mut shapes: [Shape; 4]) -> usize {
    shapes.sort_unstable_by(|a, b| b.cmp(a));
    let [a, b, c, d] = shapes.map(usize::from);
    // Sets before those led by `a`, then by (a, b), (a, b, c): the counts of
    // multisets of 4, 3, 2 shapes drawn from fewer kinds.
    let multisets = |kinds: usize, size: usize| binomial(kinds + size - 1, size);
    multisets(a, 4) + multisets(b, 3) + multisets(c, 2) + d
}

const fn binomial(n: usize, k: usize) -> usize {
    let mut result = 1;
    let mut i = 0;
    while i < k {
        result = result * (n - i) / (i + 1);
        i += 1;
    }
    result
}

/// The two roles a side's cells are valued in: the side to move plays
/// its threats first, so the same shapes are worth more to it.
pub const ROLE_TO_MOVE: usize = 0;
pub const ROLE_WAITING: usize = 1;

/// A combination's threat and its value in each role.
pub type Combination = (Threat, [i16; 2]);

/// Threat and values of every combination of four direction shapes,
/// indexed by `combination_index`; make/unmake look them up instead of
/// combining. The values are the weight table's (`weights.txt`), read once
/// here.
static COMBINATIONS: Lazy<Vec<Combination>> = Lazy::new(|| {
    let weights = &*WEIGHTS;
    let mut table = Vec::with_capacity(SHAPE_COUNT.pow(4));
    for index in 0..SHAPE_COUNT.pow(4) {
        let shapes = combination_shapes(index);
        let threat = combine(shapes);
        let set = shape_set_index(shapes);
        // The table's bounds keep four shapes and two bonuses within i16.
        let value = |role: usize| {
            shapes
                .iter()
                .map(|&s| weights.shape[role][s as usize])
                .sum::<i16>()
                + weights.threat[role][threat as usize]
                + weights.shape_set[role][set]
        };
        table.push((threat, [value(ROLE_TO_MOVE), value(ROLE_WAITING)]));
    }
    table
});

pub fn combination_table() -> &'static [Combination] {
    &COMBINATIONS
}

/// What one step of each direction's shape is worth in a combination
/// index: the first direction is the most significant digit.
pub const COMBINATION_PLACES: [usize; 4] = [
    SHAPE_COUNT * SHAPE_COUNT * SHAPE_COUNT,
    SHAPE_COUNT * SHAPE_COUNT,
    SHAPE_COUNT,
    1,
];

/// Where four direction shapes stand in `combination_table`: make/unmake
/// also moves a stored index by one place when a single shape changes.
pub fn combination_index(shapes: [Shape; 4]) -> usize {
    shapes
        .iter()
        .zip(COMBINATION_PLACES)
        .map(|(&shape, place)| shape as usize * place)
        .sum()
}

/// The four direction shapes of a `combination_index`.
pub fn combination_shapes(index: usize) -> [Shape; 4] {
    let mut rest = index;
    let mut shapes = [0; 4];
    for shape in shapes.iter_mut().rev() {
        *shape = (rest % SHAPE_COUNT) as Shape;
        rest /= SHAPE_COUNT;
    }
    shapes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_combination_index_gives_back_its_shapes() {
        for index in 0..SHAPE_COUNT.pow(4) {
            assert_eq!(combination_index(combination_shapes(index)), index);
        }
    }

    #[test]
    fn every_shape_set_has_its_own_index_in_any_order() {
        assert_eq!(SHAPE_SETS.len(), SHAPE_SET_COUNT);
        for (index, set) in SHAPE_SETS.iter().enumerate() {
            let [a, b, c, d] = *set;
            for shapes in [[a, b, c, d], [d, c, b, a], [b, d, a, c], [c, a, d, b]] {
                assert_eq!(shape_set_index(shapes), index, "{shapes:?}");
            }
        }
    }
}
