//! Renju's forbidden points: the cells where Black may not play, after the
//! Renju International Federation's rules.
//!
//! - A five is exactly five in a row; six or more is an overline.
//! - A four is a line one more stone turns into a five; a straight four is
//!   four in a row that two cells turn into a five.
//! - A three is a line one more stone turns into a straight four "without
//!   at the same time a five in a row is made" (the RIF's definition), and
//!   counted only if that stone is itself allowed (the recursive "real
//!   three"): a stone that would make a five elsewhere makes no three here.
//!
//! Black may not make an overline, two fours or two threes with one stone,
//! unless the same stone makes a five: a five always wins.
//!
//! The board's shape tables say cheaply which cells could be forbidden
//! (`may_be_forbidden`); only those are examined by reading the lines, with
//! the stones the recursive three test imagines on the way down.

use super::board::{cell_of, coordinates, stone_of, Board, BLACK, DIRECTIONS, EMPTY};
use super::pattern::{shape_table, FIVE, T_DOUBLE_THREE, T_FIVE, T_FOUR_THREE, T_OPEN_FOUR};

/// Why a point is forbidden to Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forbidden {
    Overline,
    DoubleFour,
    DoubleThree,
}

impl Forbidden {
    pub fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double four",
            Forbidden::DoubleThree => "double three",
        }
    }
}

/// Whether Black on empty `cell` could be forbidden, from the board's
/// shapes: every forbidden point makes two threes, a four and two threes,
/// two fours (an open four in the table's terms) or a line of six, and no
/// five. Black's table is the exactly-five one, so a line the freestyle
/// table calls a five and Black's does not is an overline.
pub fn may_be_forbidden(board: &Board, cell: usize) -> bool {
    let threat = board.threat(BLACK, cell);
    if matches!(threat, T_DOUBLE_THREE | T_FOUR_THREE | T_OPEN_FOUR) {
        return true;
    }
    let freestyle = shape_table(false);
    threat != T_FIVE
        && (0..DIRECTIONS.len())
            .any(|direction| freestyle[board.line_key(BLACK, cell, direction)] == FIVE)
}

/// Why Black may not play on empty `cell`, or `None` if it may.
pub fn forbidden_kind(board: &Board, cell: usize) -> Option<Forbidden> {
    let mut view = Imagined {
        board,
        black_stones: Vec::new(),
    };
    view.forbidden(cell)
}

/// Every cell forbidden to Black in the position, in board order.
pub fn forbidden_cells(board: &Board) -> Vec<usize> {
    let size = board.size();
    (0..size * size)
        .map(|index| cell_of(index % size, index / size))
        .filter(|&cell| board.is_empty(cell) && board.is_forbidden_to(BLACK, cell))
        .collect()
}

/// What Black on an empty cell does under the rules.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Exactly five: a win, whatever else the stone makes.
    Five,
    Forbidden(Forbidden),
    Allowed,
}

/// What a cell of a line holds, seen by Black.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spot {
    Empty,
    Black,
    /// A White stone or beyond the edge.
    Blocked,
}

/// Cells read on each side of the centre: a five needs four, telling it
/// from an overline one more.
const REACH: i32 = 5;
const LINE: usize = 2 * REACH as usize + 1;
const CENTRE: usize = REACH as usize;
type Line = [Spot; LINE];

/// The board with Black stones imagined on some empty cells: the moves the
/// recursive three test has made on its way down.
struct Imagined<'a> {
    board: &'a Board,
    black_stones: Vec<usize>,
}

impl Imagined<'_> {
    fn spot(&self, x: i32, y: i32) -> Spot {
        if !self.board.on_board(x, y) {
            return Spot::Blocked;
        }
        let cell = cell_of(x as usize, y as usize);
        match self.board.stone(cell) {
            EMPTY if self.black_stones.contains(&cell) => Spot::Black,
            EMPTY => Spot::Empty,
            stone if stone == stone_of(BLACK) => Spot::Black,
            _ => Spot::Blocked,
        }
    }

    /// The line through `cell` along `direction`, a Black stone on `cell`.
    fn line(&self, cell: usize, direction: usize) -> Line {
        let (x, y) = coordinates(cell);
        let (dx, dy) = DIRECTIONS[direction];
        std::array::from_fn(|index| {
            let offset = index as i32 - REACH;
            if offset == 0 {
                Spot::Black
            } else {
                self.spot(x as i32 + offset * dx, y as i32 + offset * dy)
            }
        })
    }

    fn forbidden(&mut self, cell: usize) -> Option<Forbidden> {
        match self.verdict(cell) {
            Verdict::Forbidden(kind) => Some(kind),
            Verdict::Five | Verdict::Allowed => None,
        }
    }

    fn verdict(&mut self, cell: usize) -> Verdict {
        let lines: [Line; 4] = std::array::from_fn(|direction| self.line(cell, direction));
        let runs = lines.map(|line| run_through_centre(&line));
        if runs.contains(&5) {
            return Verdict::Five;
        }
        if runs.iter().any(|&run| run > 5) {
            return Verdict::Forbidden(Forbidden::Overline);
        }
        let fours = lines.map(|line| four_count(&line));
        if fours.iter().sum::<usize>() >= 2 {
            return Verdict::Forbidden(Forbidden::DoubleFour);
        }
        let mut threes = 0;
        for direction in 0..DIRECTIONS.len() {
            if fours[direction] == 0 && self.is_real_three(cell, direction, &lines[direction]) {
                threes += 1;
                if threes == 2 {
                    return Verdict::Forbidden(Forbidden::DoubleThree);
                }
            }
        }
        Verdict::Allowed
    }

    /// Whether Black on `cell` makes a three along `direction`: some cell
    /// of the line turns it into a straight four, and that stone, once the
    /// stone on `cell` stands, is allowed and makes no five (a five wins
    /// at once, so the RIF does not count the four it would also make).
    fn is_real_three(&mut self, cell: usize, direction: usize, line: &Line) -> bool {
        let (x, y) = coordinates(cell);
        let (dx, dy) = DIRECTIONS[direction];
        (1..LINE - 1).any(|index| {
            if line[index] != Spot::Empty {
                return false;
            }
            let mut extended = *line;
            extended[index] = Spot::Black;
            if !is_straight_four(&extended) {
                return false;
            }
            let offset = index as i32 - REACH;
            let extension = cell_of(
                (x as i32 + offset * dx) as usize,
                (y as i32 + offset * dy) as usize,
            );
            self.black_stones.push(cell);
            let allowed = self.verdict(extension) == Verdict::Allowed;
            self.black_stones.pop();
            allowed
        })
    }
}

/// Black stones in a row through the centre.
fn run_through_centre(line: &Line) -> usize {
    let before = line[..CENTRE]
        .iter()
        .rev()
        .take_while(|&&spot| spot == Spot::Black)
        .count();
    let after = line[CENTRE + 1..]
        .iter()
        .take_while(|&&spot| spot == Spot::Black)
        .count();
    before + 1 + after
}

/// The cells of the line (as a bit set of indices) where one more Black
/// stone makes exactly five through the centre.
fn completions(line: &Line) -> u16 {
    let mut found = 0;
    for index in 1..LINE - 1 {
        if line[index] == Spot::Empty {
            let mut next = *line;
            next[index] = Spot::Black;
            if run_through_centre(&next) == 5 {
                found |= 1 << index;
            }
        }
    }
    found
}

/// Whether the line holds a straight four through the centre: two cells
/// five apart, each completing exactly five, around four Black stones.
fn is_straight_four(line: &Line) -> bool {
    let found = completions(line);
    found.count_ones() == 2 && found >> found.trailing_zeros() == 0b10_0001
}

/// The fours through the centre: a straight four is one four, two cells
/// completing different fives are two (the one-line double four).
fn four_count(line: &Line) -> usize {
    if is_straight_four(line) {
        1
    } else {
        completions(line).count_ones() as usize
    }
}
