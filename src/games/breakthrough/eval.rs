//! Breakthrough's static evaluation: features counted for each side (its
//! own minus the opponent's), weighted by `weights.txt`. The features are
//! what decides the game: material, where each piece stands (by rank and
//! file), who wins the exchanges on each square, safe moves left (the
//! zugzwang of blocked endgames), and lanes a runner could use.

use once_cell::sync::{Lazy, OnceCell};

use super::board::{Bitboard, Board, Geometry};
use super::tactics::cone;
use crate::core::weights::WeightTable;
use crate::core::{EvalTerm, Player, Score};

/// The weights as data (`weights.txt`, compiled in): a tuning run rewrites
/// the file, not this code.
pub static WEIGHT_TABLE: Lazy<WeightTable> = Lazy::new(|| {
    // The file is part of the source; a test reads it, so a broken one
    // never gets past the test suite.
    WeightTable::parse(include_str!("weights.txt"))
        .and_then(|table| check_table(&table).map(|()| table))
        .unwrap_or_else(|e| panic!("weights.txt: {e}"))
});

/// Files folded onto the left half (a with h, b with g, ...): the game is
/// the same seen in a mirror.
const FOLDED_FILES: usize = 4;
/// Ranks a piece stands on while the game goes on (the goal rank ends it).
const LIVE_RANKS: usize = 7;
const SQUARE_FEATURES: usize = LIVE_RANKS * FOLDED_FILES;
/// The game's phase runs from `PHASE_SCALE` (every piece on the board) to
/// 0: a piece's square is valued between its early and its late value by
/// the phase, so the home rank can matter early and the race late.
pub const PHASE_SCALE: i32 = 32;

/// The features after material and the piece-square ones, in table order.
const OTHER_NAMES: [&str; 12] = [
    "defended",
    "phalanx",
    "hanging",
    "outnumbered",
    "tempo",
    "safe_rank_3",
    "safe_rank_4",
    "safe_rank_5",
    "safe_steps",
    "control_own_half",
    "control_far_half",
    "open_lane",
];
const OTHER_FEATURES: usize = OTHER_NAMES.len();
const SQUARE_START: usize = 1;
const LATE_SQUARE_START: usize = SQUARE_START + SQUARE_FEATURES;
const OTHER_START: usize = LATE_SQUARE_START + SQUARE_FEATURES;

/// How many weights, and features, the evaluation has.
pub const FEATURES: usize = OTHER_START + OTHER_FEATURES;

// Indices into the other features.
const DEFENDED: usize = 0;
const PHALANX: usize = 1;
const HANGING: usize = 2;
const OUTNUMBERED: usize = 3;
const TEMPO: usize = 4;
const SAFE_RANK_3: usize = 5;
const SAFE_STEPS: usize = 8;
const CONTROL_OWN_HALF: usize = 9;
const CONTROL_FAR_HALF: usize = 10;
const OPEN_LANE: usize = 11;

/// The weights' names, in table (and feature) order.
pub fn weight_names() -> Vec<String> {
    let mut names = vec!["piece".to_owned()];
    for phase in ["", "late_"] {
        for rank in 0..LIVE_RANKS {
            for files in ["ah", "bg", "cf", "de"] {
                names.push(format!("{phase}square_rank_{rank}_{files}"));
            }
        }
    }
    names.extend(OTHER_NAMES.map(str::to_owned));
    names
}

/// The weights as the evaluation reads them, for one board shape: a
/// piece's value on each square for each side (material plus its square)
/// early and late, which feature each square counts for, the masks of the
/// rank features, and the other weights.
struct EvalTables {
    square_early: [[Score; 64]; 2],
    square_late: [[Score; 64]; 2],
    square_feature: [[u8; 64]; 2],
    /// The pieces on the board at the start.
    start_pieces: i32,
    /// Per side, the squares of feature ranks 3, 4 and 5.
    safe_ranks: [[Bitboard; 3]; 2],
    /// Per side, the ranks nearer its home than the enemy's.
    own_half: [Bitboard; 2],
    other: [Score; OTHER_FEATURES],
}

impl EvalTables {
    fn new(geometry: &Geometry, v: &[Score]) -> EvalTables {
        let sides = [Player::P1, Player::P2];
        let square_feature =
            sides.map(|side| std::array::from_fn(|s| square_index(geometry, side, s as u32) as u8));
        let square_value = |start: usize| {
            std::array::from_fn(|side: usize| {
                std::array::from_fn(|s| v[0] + v[start + square_feature[side][s] as usize])
            })
        };
        let ranks_where = |side: Player, keep: &dyn Fn(usize) -> bool| {
            (0..geometry.rows() as usize)
                .filter(|&rank| keep(rank))
                .fold(0, |mask, rank| {
                    mask | geometry.relative_rank_mask(side, rank)
                })
        };
        let rows = geometry.rows() as usize;
        EvalTables {
            square_early: square_value(SQUARE_START),
            square_late: square_value(LATE_SQUARE_START),
            square_feature,
            start_pieces: 4 * i32::from(geometry.columns()),
            safe_ranks: sides.map(|side| {
                std::array::from_fn(|i| {
                    ranks_where(side, &|rank| feature_rank(rows, rank) == 3 + i)
                })
            }),
            own_half: sides.map(|side| ranks_where(side, &|rank| 2 * rank < rows)),
            other: std::array::from_fn(|i| v[OTHER_START + i]),
        }
    }

    /// The tables for `geometry`, built once per board shape on first use.
    fn get(geometry: &Geometry) -> &'static EvalTables {
        static TABLES: Lazy<Vec<OnceCell<EvalTables>>> =
            Lazy::new(|| (0..81).map(|_| OnceCell::new()).collect());
        let slot = 9 * geometry.rows() as usize + geometry.columns() as usize;
        TABLES[slot].get_or_init(|| EvalTables::new(geometry, WEIGHT_TABLE.values()))
    }
}

/// Whether the evaluation would load `table`: it must list exactly the
/// evaluation's weights, in order.
pub fn check_table(table: &WeightTable) -> Result<(), String> {
    table.require_names(&weight_names())
}

/// The rank a piece's square features count it on: its distance from home
/// in its own half, its distance from the goal near the goal (the last
/// three ranks before the goal are 4, 5 and 6 on every board). On 8x8 it
/// is the rank itself.
fn feature_rank(rows: usize, rank: usize) -> usize {
    let to_goal = rows - 1 - rank;
    if to_goal <= 3 {
        (7 - to_goal).min(LIVE_RANKS - 1)
    } else {
        rank.min(3)
    }
}

/// Which piece-square feature a piece of `side` on `square` counts for. A
/// piece on the goal rank has ended the game; it counts as one step short.
fn square_index(geometry: &Geometry, side: Player, square: u32) -> usize {
    if !geometry.contains(square) {
        return 0; // never occupied
    }
    let columns = geometry.columns() as usize;
    let file = (square % 8) as usize;
    let rank = geometry.relative_rank(side, square);
    let folded = file.min(columns - 1 - file).min(FOLDED_FILES - 1);
    feature_rank(geometry.rows() as usize, rank) * FOLDED_FILES + folded
}

/// The squares one side attacks at least once, and twice.
#[derive(Clone, Copy)]
struct AttackMap {
    once: Bitboard,
    twice: Bitboard,
}

impl AttackMap {
    fn of(geometry: &Geometry, side: Player, bits: Bitboard) -> AttackMap {
        let (left, right) = geometry.attacks_by_direction(side, bits);
        AttackMap {
            once: left | right,
            twice: left & right,
        }
    }

    /// Squares this side attacks more often than `other` does: a piece of
    /// the other side there is lost in the exchange.
    fn outnumbers(&self, other: &AttackMap) -> Bitboard {
        (self.once & !other.once) | (self.twice & !other.twice)
    }
}

/// The features other than material and squares for `side`, given both
/// sides' attack maps (indexed by player).
fn other_features(
    board: &Board,
    side: Player,
    maps: &[AttackMap; 2],
    tables: &EvalTables,
) -> [i32; OTHER_FEATURES] {
    let geometry = board.geometry();
    let own = board.pieces[side.index()];
    let enemy = board.pieces[side.other().index()];
    let (ours, theirs) = (&maps[side.index()], &maps[side.other().index()]);
    let lost_here = theirs.outnumbers(ours);
    let mut f = [0; OTHER_FEATURES];
    f[DEFENDED] = (own & ours.once).count_ones() as i32;
    f[PHALANX] = geometry.side_by_side(own).count_ones() as i32;
    if board.side == side {
        f[TEMPO] = 1;
    } else {
        // The side to move takes first: what it attacks is at stake now.
        f[HANGING] = -i32::from(own & theirs.once & !ours.once != 0);
        f[OUTNUMBERED] = -((own & lost_here).count_ones() as i32);
    }
    let safe = own & !lost_here;
    for (i, ranks) in tables.safe_ranks[side.index()].iter().enumerate() {
        f[SAFE_RANK_3 + i] = (safe & ranks).count_ones() as i32;
    }
    let free = !(own | enemy);
    f[SAFE_STEPS] = (geometry.steps_ahead(side, own) & free & !lost_here).count_ones() as i32;
    let held = ours.outnumbers(theirs);
    let own_half = tables.own_half[side.index()];
    f[CONTROL_OWN_HALF] = (held & own_half).count_ones() as i32;
    f[CONTROL_FAR_HALF] = (held & !own_half).count_ones() as i32;
    let mut advanced = own & !own_half;
    while advanced != 0 {
        let square = advanced.trailing_zeros();
        advanced &= advanced - 1;
        f[OPEN_LANE] += i32::from(cone(side, square) & enemy == 0);
    }
    f
}

fn attack_maps(board: &Board) -> [AttackMap; 2] {
    let geometry = board.geometry();
    [
        AttackMap::of(geometry, Player::P1, board.pieces[0]),
        AttackMap::of(geometry, Player::P2, board.pieces[1]),
    ]
}

/// How far the game is from its end: `PHASE_SCALE` with every piece on
/// the board, 0 with none.
fn phase(board: &Board, tables: &EvalTables) -> i32 {
    let pieces = board.occupied().count_ones() as i32;
    (pieces * PHASE_SCALE / tables.start_pieces).min(PHASE_SCALE)
}

/// One side's features, one entry per weight (see `weight_names`), in
/// units of 1/`PHASE_SCALE`: a piece counts `phase` on its early square
/// and `PHASE_SCALE - phase` on its late one.
fn side_features(
    board: &Board,
    side: Player,
    maps: &[AttackMap; 2],
    tables: &EvalTables,
    phase: i32,
) -> [i32; FEATURES] {
    let mut features = [0; FEATURES];
    let mut rest = board.pieces[side.index()];
    features[0] = PHASE_SCALE * rest.count_ones() as i32;
    while rest != 0 {
        let square = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let index = tables.square_feature[side.index()][square] as usize;
        features[SQUARE_START + index] += phase;
        features[LATE_SQUARE_START + index] += PHASE_SCALE - phase;
    }
    let other = other_features(board, side, maps, tables);
    for (feature, count) in features[OTHER_START..].iter_mut().zip(other) {
        *feature = PHASE_SCALE * count;
    }
    features
}

/// The features of `board` from the side to move's view (its own minus
/// the opponent's), in units of 1/`PHASE_SCALE`: `evaluate` is their sum
/// weighted by the table, divided by `PHASE_SCALE` (to within one unit,
/// as each side's square values are rounded down).
pub fn features(board: &Board) -> [i32; FEATURES] {
    let tables = EvalTables::get(board.geometry());
    let maps = attack_maps(board);
    let phase = phase(board, tables);
    let ours = side_features(board, board.side, &maps, tables, phase);
    let theirs = side_features(board, board.side.other(), &maps, tables, phase);
    std::array::from_fn(|i| ours[i] - theirs[i])
}

/// Material with the squares (read from the per-square tables, as this
/// runs at every node, and blended by the phase), and each other feature
/// times its weight.
fn side_terms(
    board: &Board,
    side: Player,
    maps: &[AttackMap; 2],
    tables: &EvalTables,
    phase: i32,
) -> (Score, [Score; OTHER_FEATURES]) {
    let (mut early, mut late) = (0, 0);
    let mut rest = board.pieces[side.index()];
    while rest != 0 {
        let square = rest.trailing_zeros() as usize;
        early += tables.square_early[side.index()][square];
        late += tables.square_late[side.index()][square];
        rest &= rest - 1;
    }
    let squares = (early * phase + late * (PHASE_SCALE - phase)) / PHASE_SCALE;
    let other = other_features(board, side, maps, tables);
    (squares, std::array::from_fn(|i| tables.other[i] * other[i]))
}

pub fn evaluate(board: &Board) -> Score {
    let tables = EvalTables::get(board.geometry());
    let maps = attack_maps(board);
    let phase = phase(board, tables);
    let side_total = |side| {
        let (squares, other) = side_terms(board, side, &maps, tables, phase);
        squares + other.iter().sum::<Score>()
    };
    side_total(board.side) - side_total(board.side.other())
}

/// Every term for both sides: material with the piece-square values, then
/// each other feature by its weight's name.
pub fn eval_terms(board: &Board) -> Vec<EvalTerm> {
    let tables = EvalTables::get(board.geometry());
    let maps = attack_maps(board);
    let phase = phase(board, tables);
    let (white_squares, white) = side_terms(board, Player::P1, &maps, tables, phase);
    let (black_squares, black) = side_terms(board, Player::P2, &maps, tables, phase);
    let mut terms = vec![EvalTerm {
        name: "material and squares".to_owned(),
        p1: white_squares,
        p2: black_squares,
    }];
    terms.extend(OTHER_NAMES.iter().enumerate().map(|(i, name)| EvalTerm {
        name: name.replace('_', " "),
        p1: white[i],
        p2: black[i],
    }));
    terms
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::notation::parse_fen;

    fn board(fen: &str) -> Board {
        parse_fen(fen, Geometry::STANDARD).expect("test FEN is valid")
    }

    fn side(fen: &str, side: Player) -> [i32; OTHER_FEATURES] {
        let b = board(fen);
        other_features(&b, side, &attack_maps(&b), EvalTables::get(b.geometry()))
    }

    #[test]
    fn the_weight_file_lists_every_weight_in_order() {
        assert_eq!(WEIGHT_TABLE.names(), weight_names().as_slice());
        assert_eq!(WEIGHT_TABLE.get("piece"), Ok(100));
    }

    #[test]
    fn mirrored_files_share_a_square_feature() {
        use Player::{P1, P2};
        // a1 and h1 for White, a8 and h8 for Black: each side's home corners.
        let index = |side, square| square_index(&Geometry::STANDARD, side, square);
        assert_eq!(index(P1, 0), index(P1, 7));
        assert_eq!(index(P1, 0), index(P2, 56));
        assert_eq!(index(P2, 59), index(P2, 60));
        assert_ne!(index(P1, 0), index(P1, 8));
        // On five columns c is the middle; a and e share a feature.
        let narrow = Geometry::checked(6, 5).expect("valid");
        let index = |side, square| square_index(&narrow, side, square);
        assert_eq!(index(P1, 0), index(P1, 4));
        assert_ne!(index(P1, 2), index(P1, 1));
    }

    #[test]
    fn the_ranks_before_the_goal_count_alike_on_every_board() {
        // 8 rows: a rank is itself.
        assert!((0..7).all(|rank| feature_rank(8, rank) == rank));
        // 5 rows: home, then the three ranks before the goal.
        let five: Vec<usize> = (0..4).map(|rank| feature_rank(5, rank)).collect();
        assert_eq!(five, [0, 4, 5, 6]);
    }

    #[test]
    fn a_piece_outnumbered_by_attackers_is_counted_for_the_side_not_to_move() {
        // White's d4 is attacked by c5 and e5 and defended by c3 only; Black
        // to move.
        let white = side("8/8/8/2p1p3/3P4/2P5/8/8 b 0 1", Player::P1);
        assert_eq!(white[OUTNUMBERED], -1);
        assert_eq!(white[HANGING], 0, "defended once");
        // Two defenders: not outnumbered.
        let white = side("8/8/8/2p1p3/3P4/2P1P3/8/8 b 0 1", Player::P1);
        assert_eq!(white[OUTNUMBERED], 0);
        // The side to move is never counted: it takes first.
        let white = side("8/8/8/2p1p3/3P4/2P5/8/8 w 0 1", Player::P1);
        assert_eq!((white[OUTNUMBERED], white[TEMPO]), (0, 1));
    }

    #[test]
    fn safe_steps_avoid_squares_the_enemy_wins() {
        // White a2 alone: a3 and b3 are free; Black's b4 wins a3.
        let white = side("8/8/8/8/1p6/8/P7/8 w 0 1", Player::P1);
        assert_eq!(white[SAFE_STEPS], 1);
        let white = side("8/8/8/8/8/8/P7/8 w 0 1", Player::P1);
        assert_eq!(white[SAFE_STEPS], 2);
    }

    #[test]
    fn an_advanced_piece_with_no_enemy_in_its_cone_has_an_open_lane() {
        let white = side("p7/8/8/4P3/8/8/8/8 w 0 1", Player::P1);
        assert_eq!(white[OPEN_LANE], 1);
        let white = side("8/8/3p4/4P3/8/8/8/8 w 0 1", Player::P1);
        assert_eq!(white[OPEN_LANE], 0);
        // A piece still in its own half is not counted.
        let white = side("p7/8/8/8/4P3/8/8/8 w 0 1", Player::P1);
        assert_eq!(white[OPEN_LANE], 0);
    }

    #[test]
    fn control_counts_squares_held_in_each_half() {
        // White b2 alone attacks a3 and c3, both in its own half.
        let white = side("8/8/8/8/8/8/1P6/8 w 0 1", Player::P1);
        assert_eq!((white[CONTROL_OWN_HALF], white[CONTROL_FAR_HALF]), (2, 0));
        // Black's d4 contests c3 (b2 against d4: one each, nobody holds it).
        let white = side("8/8/8/8/3p4/8/1P6/8 w 0 1", Player::P1);
        assert_eq!(white[CONTROL_OWN_HALF], 1);
    }

    /// The tuner fits weights to features alone: the features weighted by
    /// the table must be the evaluation, in every position.
    #[test]
    fn the_weighted_features_are_the_evaluation() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(21);
        let mut moves = Vec::new();
        let mut checked = 0;
        let small = [(6, 5), (5, 5), (4, 2)].map(|(r, c)| Geometry::checked(r, c).expect("valid"));
        let geometries: Vec<Geometry> = std::iter::repeat_n(Geometry::STANDARD, 200)
            .chain(small.iter().flat_map(|&g| std::iter::repeat_n(g, 50)))
            .collect();
        for geometry in geometries {
            let mut board = Board::start(geometry);
            while board.outcome().is_none() {
                let weighted: Score = WEIGHT_TABLE
                    .values()
                    .iter()
                    .zip(features(&board))
                    .map(|(w, f)| w * f)
                    .sum();
                let scaled = PHASE_SCALE * evaluate(&board);
                assert!(
                    (weighted - scaled).abs() < 2 * PHASE_SCALE,
                    "{weighted} {scaled}"
                );
                let terms: Score = eval_terms(&board).iter().map(|t| t.p1 - t.p2).sum();
                let white_view = if board.side == Player::P1 { 1 } else { -1 };
                assert_eq!(terms * white_view, evaluate(&board));
                checked += 1;
                board.generate_moves(&mut moves);
                board.make_move(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    #[test]
    fn the_start_position_is_balanced_but_for_the_tempo() {
        let start = Board::start(Geometry::STANDARD);
        let f = features(&start);
        assert!(
            f.iter()
                .enumerate()
                .all(|(i, &x)| x == 0 || i == OTHER_START + TEMPO),
            "{f:?}"
        );
    }
}
