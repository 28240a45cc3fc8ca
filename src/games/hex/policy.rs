//! Hex's move policy for Monte Carlo search: the features `core::policy`
//! weighs, and the gammas fitted to them (`policy.txt` for the tree,
//! `playout-policy.txt` for the playouts, both written by
//! `bg-tune fit-policy --game hex`).
//!
//! - `pattern`: the twelve cells around the move, its six neighbours and
//!   the six cells a bridge away, each empty (0), the mover's (1) or the
//!   opponent's (2). The board is seen from the mover's side: for White,
//!   rows and columns are exchanged, so "mine" always joins the first row
//!   to the last; a cell off the board belongs to the player whose edge it
//!   lies beyond (past a row, Black's; past a column, White's; past both,
//!   Black's, as for play). A pattern and its half turn (which keeps every
//!   edge's owner) are one value. Written as twelve digits, the six
//!   neighbours first, clockwise from the one above.
//! - `last`: where the move lies from the last stone placed: next to it,
//!   a bridge away, or farther.
//! - `own_last`: the same from the mover's own last stone (the one before
//!   the last): whether the move builds on the mover's own plan.
//! - `line`: how far the cell lies from the mover's nearest edge and from
//!   the opponent's, each up to 5 rows (written as two digits, the
//!   mover's first). The pattern sees an edge only two rows away; the
//!   edge templates reach the third and fourth.
//! - `wide`: the eighteen cells within two steps of the move, the twelve
//!   of `pattern` (in its order) and then the six two steps away in a
//!   straight line, read as `pattern` reads them, written as eighteen
//!   digits. Its gamma multiplies the twelve-cell pattern's, so it only
//!   corrects that pattern where the outer cells matter; a wide pattern
//!   seen too rarely keeps gamma 1. MoHex 2.0 matches patterns of 6, 12
//!   and 18 cells.
//!
//! MoHex 2.0 learned such patterns from game records for its priors and
//! playouts (Huang, Arneson, Hayward, Müller, Pawlewicz, "MoHex 2.0: a
//! pattern-based MCTS Hex player", 2013); these are fitted on our own
//! self-play.

use once_cell::sync::Lazy;

use super::board::{stone_of, Hex, HexMove, EMPTY};
use super::geometry::DIRECTIONS;
use crate::core::policy::{FeatureGroup, Gammas, MoveFeatures, NO_FEATURE};
use crate::core::Player;

/// The wide pattern's cells as (column, row) offsets, seen by Black: the
/// six neighbours, the six cells a bridge away, the six two steps away in
/// a straight line; each ring of six clockwise from the one above.
const WIDE_OFFSETS: [(i32, i32); 18] = pattern_offsets();
/// The pattern's cells: the wide pattern's first twelve.
const OFFSETS: &[(i32, i32)] = WIDE_OFFSETS.split_at(12).0;

const fn pattern_offsets() -> [(i32, i32); 18] {
    let mut offsets = [(0, 0); 18];
    let mut slot = 0;
    while slot < 6 {
        let (here, next) = (DIRECTIONS[slot], DIRECTIONS[(slot + 1) % 6]);
        offsets[slot] = here;
        offsets[6 + slot] = (here.0 + next.0, here.1 + next.1);
        offsets[12 + slot] = (2 * here.0, 2 * here.1);
        slot += 1;
    }
    offsets
}

/// The (column, row) offset of a pattern's `slot` from its centre, as
/// Black sees the board or (rows and columns exchanged) as White does.
pub fn slot_offset(slot: usize, black_view: bool) -> (i32, i32) {
    let (dx, dy) = WIDE_OFFSETS[slot];
    match black_view {
        true => (dx, dy),
        false => (dy, dx),
    }
}

/// Patterns: 3^12 values.
const PATTERNS: u32 = 531_441;
/// Wide patterns: 3^18 values.
const WIDE_PATTERNS: u32 = 387_420_489;
const EMPTY_DIGIT: u32 = 0;
const MINE: u32 = 1;
const THEIRS: u32 = 2;

pub const LAST_FAR: u32 = 0;
pub const LAST_ADJACENT: u32 = 1;
pub const LAST_BRIDGE: u32 = 2;
const LAST_NAMES: [&str; 3] = ["far", "adjacent", "bridge"];
/// Lines from an edge are told apart up to this many rows.
const LINE_CAP: u32 = 5;
const LINES: u32 = (LINE_CAP + 1) * (LINE_CAP + 1);

/// The gammas in use: `policy.txt`, read once.
pub static GAMMAS: Lazy<Gammas> = Lazy::new(|| {
    Gammas::parse::<Hex, HexPolicy>(include_str!("policy.txt"))
        .unwrap_or_else(|e| panic!("policy.txt: {e}"))
});

/// Hex's move features (see the module's notes).
pub struct HexPolicy;

impl MoveFeatures<Hex> for HexPolicy {
    const GROUPS: &'static [FeatureGroup] = &[
        FeatureGroup {
            name: "pattern",
            size: PATTERNS,
        },
        FeatureGroup {
            name: "last",
            size: 3,
        },
        FeatureGroup {
            name: "own_last",
            size: 3,
        },
        FeatureGroup {
            name: "line",
            size: LINES,
        },
        FeatureGroup {
            name: "wide",
            size: WIDE_PATTERNS,
        },
    ];

    fn features(hex: &Hex, mv: HexMove, out: &mut [u32]) {
        if mv.is_swap() {
            out.fill(NO_FEATURE);
            return;
        }
        let cell = mv.0 as usize;
        out[0] = pattern(hex, cell);
        out[1] = match hex.last_placed() {
            Some(last) => place_beside(hex, last, cell),
            None => LAST_FAR,
        };
        out[2] = match hex.own_last_placed() {
            Some(own) => place_beside(hex, own, cell),
            None => LAST_FAR,
        };
        out[3] = line(hex, cell);
        out[4] = wide_pattern(hex, cell);
    }

    fn value_name(group: usize, value: u32) -> String {
        match group {
            0 => digits::<12>(value)
                .iter()
                .map(|d| char::from(b'0' + *d as u8))
                .collect(),
            4 => digits::<18>(value)
                .iter()
                .map(|d| char::from(b'0' + *d as u8))
                .collect(),
            3 => format!("{}{}", value / (LINE_CAP + 1), value % (LINE_CAP + 1)),
            _ => LAST_NAMES[value as usize].to_string(),
        }
    }

    fn value_of(group: usize, name: &str) -> Option<u32> {
        match group {
            0 if name.len() == 12 => key_of_name(name),
            4 if name.len() == 18 => key_of_name(name),
            0 | 4 => None,
            3 => match name.as_bytes() {
                &[mine @ b'0'..=b'9', theirs @ b'0'..=b'9'] => {
                    let (mine, theirs) = (u32::from(mine - b'0'), u32::from(theirs - b'0'));
                    (mine <= LINE_CAP && theirs <= LINE_CAP)
                        .then_some(mine * (LINE_CAP + 1) + theirs)
                }
                _ => None,
            },
            _ => LAST_NAMES.iter().position(|&n| n == name).map(|i| i as u32),
        }
    }
}

/// The `line` value of `cell` for the side to move: its rows from the
/// mover's nearest edge and from the opponent's, each capped.
fn line(hex: &Hex, cell: usize) -> u32 {
    let n = hex.size();
    let (col, row) = (cell % n, cell / n);
    let from_edge = |at: usize| (at.min(n - 1 - at) as u32).min(LINE_CAP);
    let (rows, cols) = (from_edge(row), from_edge(col));
    let (mine, theirs) = match hex.side_to_move_player() {
        Player::P1 => (rows, cols),
        Player::P2 => (cols, rows),
    };
    mine * (LINE_CAP + 1) + theirs
}

/// A pattern's key from its digits as written, the first cell's first.
fn key_of_name(name: &str) -> Option<u32> {
    name.bytes().rev().try_fold(0, |key, byte| match byte {
        b'0'..=b'2' => Some(key * 3 + u32::from(byte - b'0')),
        _ => None,
    })
}

/// The `N` digits of a pattern, the first cell's the lowest.
fn digits<const N: usize>(mut key: u32) -> [u32; N] {
    let mut digits = [0; N];
    for digit in &mut digits {
        *digit = key % 3;
        key /= 3;
    }
    digits
}

fn key_of(digits: &[u32]) -> u32 {
    digits.iter().rev().fold(0, |key, &digit| key * 3 + digit)
}

/// The pattern around empty `cell` for the side to move, as its smaller
/// key and its half turn's.
pub fn pattern(hex: &Hex, cell: usize) -> u32 {
    let mover = hex.side_to_move_player();
    let key = seen_key(hex.size(), cell, stone_of(mover), |cell| hex.stone_at(cell));
    canonical::<12>(key)
}

/// The wide pattern around empty `cell` for the side to move, as its
/// smaller key and its half turn's.
fn wide_pattern(hex: &Hex, cell: usize) -> u32 {
    let mover = stone_of(hex.side_to_move_player());
    let key = key_over(WIDE_OFFSETS.len(), hex.size(), cell, mover, |cell| {
        hex.stone_at(cell)
    });
    canonical::<18>(key)
}

/// The pattern's key around `cell` for the player with stones `mine`, as
/// `stone_at` shows the board, not reduced by the half turn.
pub fn seen_key(size: usize, cell: usize, mine: u8, stone_at: impl Fn(usize) -> u8) -> u32 {
    key_over(OFFSETS.len(), size, cell, mine, stone_at)
}

/// The key of the first `slots` cells of the wide pattern around `cell`.
fn key_over(
    slots: usize,
    size: usize,
    cell: usize,
    mine: u8,
    stone_at: impl Fn(usize) -> u8,
) -> u32 {
    let n = size as i32;
    let mover_is_black = mine == stone_of(Player::P1);
    let (col, row) = ((cell % size) as i32, (cell / size) as i32);
    let mut key = 0;
    for slot in (0..slots).rev() {
        let (dc, dr) = slot_offset(slot, mover_is_black);
        let (c, r) = (col + dc, row + dr);
        let digit = if !(0..n).contains(&r) {
            if mover_is_black {
                MINE
            } else {
                THEIRS
            }
        } else if !(0..n).contains(&c) {
            if mover_is_black {
                THEIRS
            } else {
                MINE
            }
        } else {
            match stone_at((r * n + c) as usize) {
                EMPTY => EMPTY_DIGIT,
                stone if stone == mine => MINE,
                _ => THEIRS,
            }
        };
        key = key * 3 + digit;
    }
    key
}

/// The smaller of an `N`-cell key and its half turn's, which turns each
/// ring of six by three slots.
fn canonical<const N: usize>(key: u32) -> u32 {
    let cells = digits::<N>(key);
    let mut turned = [0; N];
    for (slot, digit) in turned.iter_mut().enumerate() {
        let ring = slot - slot % 6;
        *digit = cells[ring + (slot + 3) % 6];
    }
    key.min(key_of(&turned))
}

/// The gammas as playouts read them: a pattern's by its key in either
/// turn, without hashing, as one byte (a step of its logarithm), so that
/// the table (half a megabyte, where gammas as `f32` took two) stays in a
/// core's second-level cache; each playout move reads up to twelve of them
/// at scattered places. The last-stone gammas are kept as they are.
pub struct DenseGammas {
    levels: Vec<u8>,
    level_gammas: [f32; 256],
    pub last: [f32; 3],
}

/// Steps of a level per unit of a gamma's natural logarithm: a level is
/// within 3.2% of the gamma it stands for, and levels span gammas from
/// e^-8 to e^8 (the fitted ones lie within e^-6 and e^5).
const LEVELS_PER_LOG_UNIT: f32 = 16.0;
const LEVEL_OF_ONE: f32 = 128.0;

fn level_of(gamma: f32) -> u8 {
    (gamma.ln() * LEVELS_PER_LOG_UNIT + LEVEL_OF_ONE)
        .round()
        .clamp(0.0, 255.0) as u8
}

impl DenseGammas {
    fn from(gammas: &Gammas) -> DenseGammas {
        let levels = (0..PATTERNS)
            .map(|key| level_of(gammas.gamma(0, canonical::<12>(key))))
            .collect();
        DenseGammas {
            levels,
            level_gammas: std::array::from_fn(|level| {
                ((level as f32 - LEVEL_OF_ONE) / LEVELS_PER_LOG_UNIT).exp()
            }),
            last: [LAST_FAR, LAST_ADJACENT, LAST_BRIDGE].map(|value| gammas.gamma(1, value)),
        }
    }

    pub fn pattern(&self, key: u32) -> f32 {
        self.level_gammas[self.levels[key as usize] as usize]
    }
}

/// The gammas playouts read: a file of their own (`playout-policy.txt`),
/// fitted on the pattern and the last stone's place alone, the features a
/// playout looks at. The tree's table is fitted with every group, and its
/// pattern gammas only make sense beside the other groups' gammas.
pub static PLAYOUT_GAMMAS: Lazy<Gammas> = Lazy::new(|| {
    Gammas::parse::<Hex, HexPolicy>(include_str!("playout-policy.txt"))
        .unwrap_or_else(|e| panic!("playout-policy.txt: {e}"))
});

/// The playout gammas as playouts read them.
pub static DENSE_GAMMAS: Lazy<DenseGammas> = Lazy::new(|| DenseGammas::from(&PLAYOUT_GAMMAS));

/// Reads both tables now, so that an engine's first search, perhaps of a
/// few milliseconds, does not spend its time reading them (tens of
/// milliseconds).
pub fn load_tables() {
    Lazy::force(&GAMMAS);
    Lazy::force(&DENSE_GAMMAS);
}

/// The cells of the pattern around `cell` on a board of `size` (those on
/// the board), the neighbours first.
pub fn pattern_cells(size: usize, cell: usize) -> impl Iterator<Item = (usize, bool)> {
    let n = size as i32;
    let (col, row) = ((cell % size) as i32, (cell / size) as i32);
    OFFSETS
        .iter()
        .enumerate()
        .filter_map(move |(slot, &(dc, dr))| {
            let (c, r) = (col + dc, row + dr);
            ((0..n).contains(&c) && (0..n).contains(&r)).then_some(((r * n + c) as usize, slot < 6))
        })
}

/// Where `cell` lies from `last`.
fn place_beside(hex: &Hex, last: usize, cell: usize) -> u32 {
    let geo = hex.geometry();
    let ((lc, lr), (c, r)) = (geo.col_row(last), geo.col_row(cell));
    let offset = (c as i32 - lc as i32, r as i32 - lr as i32);
    match OFFSETS.iter().position(|&o| o == offset) {
        Some(slot) if slot < 6 => LAST_ADJACENT,
        Some(_) => LAST_BRIDGE,
        None => LAST_FAR,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::hex::HexRules;

    fn position(size: usize, moves: &[&str]) -> Hex {
        let rules = HexRules {
            board_size: size,
            swap: false,
        };
        let mut hex = Hex::start_position(&rules);
        for name in moves {
            let mv = hex.parse_move(name).expect("a legal move");
            hex.make_move(mv);
        }
        hex
    }

    fn features(hex: &Hex, name: &str) -> [u32; 5] {
        let mut out = [0; 5];
        let mv = hex.parse_move(name).expect("a move");
        HexPolicy::features(hex, mv, &mut out);
        out
    }

    #[test]
    fn a_pattern_reads_back_from_its_name() {
        for key in [0, 1, 2, 3, 12_345, PATTERNS - 1] {
            let name = HexPolicy::value_name(0, key);
            assert_eq!(name.len(), 12);
            assert_eq!(HexPolicy::value_of(0, &name), Some(key));
        }
        assert_eq!(HexPolicy::value_of(0, "0000000000003"), None);
        assert_eq!(HexPolicy::value_of(0, "00000000000"), None);
        assert_eq!(HexPolicy::value_of(1, "bridge"), Some(LAST_BRIDGE));
        assert_eq!(HexPolicy::value_of(1, "near"), None);
    }

    #[test]
    fn the_centre_of_an_empty_board_is_all_empty_and_far() {
        let hex = position(11, &[]);
        assert_eq!(features(&hex, "f6"), [0, LAST_FAR, LAST_FAR, LINES - 1, 0]);
    }

    #[test]
    fn the_mover_s_own_last_stone_is_the_one_before_the_last() {
        let hex = position(11, &["f6", "c3"]);
        assert_eq!(features(&hex, "f5")[1], LAST_FAR);
        assert_eq!(features(&hex, "f5")[2], LAST_ADJACENT);
        assert_eq!(features(&hex, "g4")[2], LAST_BRIDGE);
        assert_eq!(features(&hex, "c4")[1], LAST_ADJACENT);
        assert_eq!(features(&hex, "c4")[2], LAST_FAR);
    }

    #[test]
    fn lines_count_from_the_mover_s_edges_first() {
        // Black joins the first row to the last: c2 is a row from Black's
        // edge and two columns from White's.
        let black = position(11, &[]);
        let line_of = |hex: &Hex, name: &str| HexPolicy::value_name(3, features(hex, name)[3]);
        assert_eq!(line_of(&black, "c2"), "12");
        assert_eq!(line_of(&black, "k11"), "00");
        assert_eq!(line_of(&black, "f6"), "55");
        let white = position(11, &["f6"]);
        assert_eq!(line_of(&white, "c2"), "21");
        assert_eq!(line_of(&white, "i5"), "24");
        for name in ["00", "12", "55"] {
            let value = HexPolicy::value_of(3, name).expect("a line");
            assert_eq!(HexPolicy::value_name(3, value), name);
        }
        assert_eq!(HexPolicy::value_of(3, "56"), None);
        assert_eq!(HexPolicy::value_of(3, "5"), None);
    }

    #[test]
    fn the_edges_belong_to_their_owners_from_the_mover_s_side() {
        // Black to move at a1's neighbourhood: rows beyond are Black's.
        let hex = position(5, &[]);
        let black = pattern(&hex, hex.parse_move("c1").unwrap().0 as usize);
        // The same cell for White, seen with rows and columns exchanged:
        // the top edge beyond c1 is the opponent's for White, so White's
        // view of c1 is Black's view of a3 with the colours turned.
        let hex_white = position(5, &["e5"]);
        let white_c1 = pattern(&hex_white, hex_white.parse_move("c1").unwrap().0 as usize);
        assert_ne!(black, white_c1, "the edge changes hands");
        let digits_black = digits::<12>(black);
        assert!(
            digits_black.contains(&MINE),
            "Black's edge is Black's: {digits_black:?}"
        );
        assert!(
            !digits_black.contains(&THEIRS),
            "no White edge near c1: {digits_black:?}"
        );
    }

    #[test]
    fn colours_and_sides_exchanged_give_the_same_pattern() {
        // A Black stone below b2 with Black to move, and the mirror image
        // (a White stone right of b2) with White to move.
        let black = position(5, &["b3", "e5"]);
        let white = position(5, &["e5", "c2", "a5"]);
        assert_eq!(black.side_to_move_player(), Player::P1);
        assert_eq!(white.side_to_move_player(), Player::P2);
        assert_eq!(
            pattern(&black, black.parse_move("b2").unwrap().0 as usize),
            pattern(&white, white.parse_move("b2").unwrap().0 as usize)
        );
    }

    #[test]
    fn a_half_turn_gives_the_same_pattern() {
        // b2 beside a1's corner, and d4 beside e5's: the board turned.
        let hex = position(5, &["c3", "e5"]);
        let near_a1 = pattern(&hex, hex.parse_move("b2").unwrap().0 as usize);
        let hex_turned = position(5, &["c3", "a1"]);
        let near_e5 = pattern(&hex_turned, hex_turned.parse_move("d4").unwrap().0 as usize);
        assert_eq!(near_a1, near_e5);
    }

    #[test]
    fn the_wide_pattern_sees_two_steps_out_and_keeps_the_half_turn() {
        // f4 is two steps above f6 in a straight line: outside the
        // twelve-cell pattern, inside the wide one.
        let hex = position(11, &["f4", "a11"]);
        let [pattern, .., wide] = features(&hex, "f6");
        assert_eq!(pattern, 0);
        assert_ne!(wide, 0);
        let name = HexPolicy::value_name(4, wide);
        assert_eq!(name.len(), 18);
        assert_eq!(name.matches('1').count(), 1, "{name}");
        assert_eq!(HexPolicy::value_of(4, &name), Some(wide));
        assert_eq!(HexPolicy::value_of(4, &name[..12]), None);
        // The board turned: f8 two steps below f6, the same wide pattern.
        let turned = position(11, &["f8", "k1"]);
        assert_eq!(features(&turned, "f6")[4], wide);
        // On the second row, the three cells two rows up lie beyond
        // Black's edge: Black's, for Black to move.
        let edge = position(11, &[]);
        let wide_edge = HexPolicy::value_name(4, features(&edge, "f2")[4]);
        assert_eq!(wide_edge.matches('1').count(), 3, "{wide_edge}");
        assert_eq!(wide_edge.matches('2').count(), 0, "{wide_edge}");
    }

    #[test]
    fn the_last_stone_s_neighbours_and_bridge_cells_are_told_apart() {
        let hex = position(11, &["f6"]);
        assert_eq!(features(&hex, "f5")[1], LAST_ADJACENT);
        assert_eq!(features(&hex, "g5")[1], LAST_ADJACENT);
        assert_eq!(features(&hex, "g4")[1], LAST_BRIDGE);
        assert_eq!(features(&hex, "e7")[1], LAST_ADJACENT);
        assert_eq!(features(&hex, "g7")[1], LAST_BRIDGE);
        assert_eq!(features(&hex, "h6")[1], LAST_FAR);
        assert_eq!(features(&hex, "f8")[1], LAST_FAR);
    }

    #[test]
    fn the_swap_has_no_features_and_the_built_in_gammas_read() {
        let rules = HexRules {
            board_size: 5,
            swap: true,
        };
        let mut hex = Hex::start_position(&rules);
        hex.make_move(hex.parse_move("c3").unwrap());
        let mut out = [0; 5];
        HexPolicy::features(&hex, HexMove::SWAP, &mut out);
        assert_eq!(out, [NO_FEATURE; 5]);
        let _ = GAMMAS.stored();
    }

    #[test]
    fn the_playouts_table_holds_only_what_a_playout_reads() {
        let text = include_str!("playout-policy.txt");
        let groups: std::collections::BTreeSet<&str> = text
            .lines()
            .filter(|line| !line.starts_with('#'))
            .filter_map(|line| line.split_whitespace().next())
            .collect();
        assert_eq!(groups, ["last", "pattern"].into_iter().collect());
        assert!(PLAYOUT_GAMMAS.stored() > 1_000);
    }

    #[test]
    fn the_playouts_byte_gammas_stay_within_a_half_step_of_the_fitted_ones() {
        let mut checked = 0;
        for key in (0..PATTERNS).step_by(7) {
            let fitted = PLAYOUT_GAMMAS.gamma(0, canonical::<12>(key));
            let read = DENSE_GAMMAS.pattern(key);
            let error = (read / fitted).ln().abs();
            assert!(
                error <= 0.5 / LEVELS_PER_LOG_UNIT + 1e-4,
                "key {key}: {fitted} read as {read}"
            );
            checked += usize::from(fitted != 1.0);
        }
        assert!(checked > 100, "only {checked} fitted patterns checked");
        assert_eq!(level_of(1.0), LEVEL_OF_ONE as u8);
        assert_eq!(level_of(1e-9), 0);
        assert_eq!(level_of(1e9), 255);
    }
}
