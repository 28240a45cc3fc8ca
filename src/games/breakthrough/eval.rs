//! Breakthrough knowledge: the static evaluation and the results that can be
//! proven without search (a win next move, an unstoppable runner).

use once_cell::sync::Lazy;

use super::board::{attacks, goal_rank, last_step_rank, Bitboard, Board, FILE_A, FILE_H};
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

/// The weights, one field per term; the table lists them in the order of
/// `FEATURES` (piece, advance by rank, home guard by file, defended,
/// phalanx, hanging, tempo).
struct Weights {
    piece: Score,
    advance: [Score; 8],
    home_guard: [Score; 8],
    defended: Score,
    phalanx: Score,
    hanging: Score,
    tempo: Score,
}

/// How many weights, and features, the evaluation has.
pub const FEATURES: usize = 21;

/// The weights' names, in table (and feature) order.
pub fn weight_names() -> Vec<String> {
    let mut names = vec!["piece".to_owned()];
    names.extend((0..8).map(|rank| format!("advance_rank_{rank}")));
    names.extend((b'a'..=b'h').map(|file| format!("home_guard_file_{}", file as char)));
    names.extend(["defended", "phalanx", "hanging", "tempo"].map(str::to_owned));
    names
}

/// Whether the evaluation would load `table`.
pub fn check_table(table: &WeightTable) -> Result<(), String> {
    Weights::from_table(table).map(|_| ())
}

impl Weights {
    /// The table must list exactly the evaluation's weights, in order.
    fn from_table(table: &WeightTable) -> Result<Weights, String> {
        table.require_names(&weight_names())?;
        let v = table.values();
        Ok(Weights {
            piece: v[0],
            advance: std::array::from_fn(|rank| v[1 + rank]),
            home_guard: std::array::from_fn(|file| v[9 + file]),
            defended: v[17],
            phalanx: v[18],
            hanging: v[19],
            tempo: v[20],
        })
    }
}

/// For each side and square, the squares in front of a piece there from
/// which an enemy piece could still intercept it. A runner walking straight
/// ahead closes the gap by two ranks per full move while an enemy piece
/// drifts one file per move, so an enemy `d` ranks ahead matters only within
/// `d / 2 + 1` files (that bound already allows the enemy the first move).
/// A piece with nothing at all in its cone walks straight to the goal and
/// nobody can catch or block it.
static CONES: Lazy<[[Bitboard; 64]; 2]> = Lazy::new(|| {
    let mut cones = [[0; 64]; 2];
    #[allow(clippy::needless_range_loop)] // both sides' tables are filled per square
    for square in 0..64usize {
        let (file, rank) = ((square % 8) as i32, (square / 8) as i32);
        for other in 0..64usize {
            let (f, r) = ((other % 8) as i32, (other / 8) as i32);
            if r > rank && (f - file).abs() <= (r - rank) / 2 + 1 {
                cones[0][square] |= 1u64 << other;
            }
            if r < rank && (f - file).abs() <= (rank - r) / 2 + 1 {
                cones[1][square] |= 1u64 << other;
            }
        }
    }
    cones
});

/// Rank of `square` counted from `side`'s home rank (0..=7).
fn relative_rank(side: Player, square: u32) -> usize {
    match side {
        Player::P1 => (square / 8) as usize,
        Player::P2 => 7 - (square / 8) as usize,
    }
}

/// Moves the fastest piece of `side` needs to reach the goal, ignoring
/// everything in its way: a lower bound on how soon `side` can win.
fn fastest_possible(board: &Board, side: Player) -> u32 {
    let pieces = board.pieces[side.index()];
    let front = match side {
        Player::P1 => 63 - pieces.leading_zeros(),
        Player::P2 => pieces.trailing_zeros(),
    };
    7 - relative_rank(side, front) as u32
}

/// Moves the fastest unstoppable runner of `side` needs, if it has one.
fn unstoppable_runner(board: &Board, side: Player) -> Option<u32> {
    let occupied = board.occupied();
    let mut rest = board.pieces[side.index()];
    let mut best: Option<u32> = None;
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        if CONES[side.index()][square as usize] & occupied == 0 {
            let distance = 7 - relative_rank(side, square) as u32;
            best = Some(best.map_or(distance, |b| b.min(distance)));
        }
    }
    best
}

/// Pieces of the opponent one step from their goal, which the side to move
/// must capture at once.
pub fn intruders(board: &Board) -> Bitboard {
    board.enemy() & last_step_rank(board.side.other())
}

/// See `Game::forced_result`: plies to a win (positive) or loss (negative)
/// that hold whatever either side plays.
pub fn forced_result(board: &Board) -> Option<i32> {
    let us = board.side;
    let them = us.other();
    if board.own() & last_step_rank(us) != 0 {
        return Some(1);
    }
    let intruders = intruders(board);
    if intruders != 0 {
        let capturable = intruders & attacks(us, board.own());
        if intruders.count_ones() > 1 || capturable == 0 {
            return Some(-2);
        }
        return None;
    }
    if let Some(moves) = unstoppable_runner(board, us) {
        if moves <= fastest_possible(board, them) {
            return Some(2 * moves as i32 - 1);
        }
    }
    if let Some(moves) = unstoppable_runner(board, them) {
        if moves < fastest_possible(board, us) {
            return Some(-2 * moves as i32);
        }
    }
    None
}

/// What one side's evaluation counts, one entry per weight (see
/// `weight_names`): the evaluation is their weighted sum.
fn side_features(board: &Board, side: Player) -> [i32; FEATURES] {
    let mut features = [0; FEATURES];
    let own = board.pieces[side.index()];
    let enemy = board.pieces[side.other().index()];
    features[0] = own.count_ones() as i32;
    let mut rest = own;
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        features[1 + relative_rank(side, square)] += 1;
    }
    let mut guards = own & goal_rank(side.other());
    while guards != 0 {
        let square = guards.trailing_zeros();
        guards &= guards - 1;
        features[9 + (square % 8) as usize] += 1;
    }
    let defended = own & attacks(side, own);
    let phalanx = own & (((own & !FILE_A) >> 1) | ((own & !FILE_H) << 1));
    features[17] = defended.count_ones() as i32;
    features[18] = phalanx.count_ones() as i32;
    if board.side != side {
        let attacked = own & attacks(side.other(), enemy) & !defended;
        features[19] = -i32::from(attacked != 0);
    } else {
        features[20] = 1;
    }
    features
}

/// The evaluation's terms for one side, indexed like `TERM_NAMES`: the
/// weighted sum of `side_features`, computed directly because it runs at
/// every node.
fn side_terms(board: &Board, side: Player, w: &Weights) -> [Score; 5] {
    let own = board.pieces[side.index()];
    let enemy = board.pieces[side.other().index()];
    let mut advance = 0;
    let mut rest = own;
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        advance += w.advance[relative_rank(side, square)];
    }
    let mut home_guard = 0;
    let mut guards = own & goal_rank(side.other());
    while guards != 0 {
        let square = guards.trailing_zeros();
        guards &= guards - 1;
        home_guard += w.home_guard[(square % 8) as usize];
    }
    let defended = own & attacks(side, own);
    let phalanx = own & (((own & !FILE_A) >> 1) | ((own & !FILE_H) << 1));
    let structure =
        w.defended * defended.count_ones() as Score + w.phalanx * phalanx.count_ones() as Score;
    let safety = if board.side != side {
        let attacked = own & attacks(side.other(), enemy) & !defended;
        -w.hanging * Score::from(attacked != 0)
    } else {
        w.tempo
    };
    [
        w.piece * own.count_ones() as Score,
        advance,
        home_guard,
        structure,
        safety,
    ]
}

/// The features of `board` from the side to move's view (its own minus
/// the opponent's): `evaluate` is their sum weighted by the table.
pub fn features(board: &Board) -> [i32; FEATURES] {
    let ours = side_features(board, board.side);
    let theirs = side_features(board, board.side.other());
    std::array::from_fn(|i| ours[i] - theirs[i])
}

const TERM_NAMES: [&str; 5] = [
    "material",
    "advancement",
    "home guard",
    "structure",
    "safety/tempo",
];

pub fn evaluate(board: &Board) -> Score {
    let weights = &*WEIGHTS;
    let ours: Score = side_terms(board, board.side, weights).iter().sum();
    let theirs: Score = side_terms(board, board.side.other(), weights).iter().sum();
    ours - theirs
}

pub fn eval_terms(board: &Board) -> Vec<EvalTerm> {
    let white = side_terms(board, Player::P1, &WEIGHTS);
    let black = side_terms(board, Player::P2, &WEIGHTS);
    TERM_NAMES
        .iter()
        .enumerate()
        .map(|(i, name)| EvalTerm {
            name: name.to_string(),
            p1: white[i],
            p2: black[i],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::notation::parse_fen;

    fn board(fen: &str) -> Board {
        parse_fen(fen).expect("test FEN is valid")
    }

    #[test]
    fn a_piece_on_the_seventh_rank_wins_next_move() {
        let b = board("pppp4/P7/8/8/8/8/8/8 w 0 1");
        assert_eq!(forced_result(&b), Some(1));
    }

    #[test]
    fn two_intruders_cannot_both_be_captured() {
        // Black pieces on a2 and h2; White to move cannot take both.
        let b = board("pppp4/8/8/8/8/8/p6p/1PPPPPP1 w 0 1");
        assert_eq!(forced_result(&b), Some(-2));
    }

    #[test]
    fn a_capturable_intruder_is_not_a_loss() {
        // Black on b2 is attacked by White's a1 and c1.
        let b = board("pppp4/8/8/8/8/8/1p6/P1P5 w 0 1");
        assert_eq!(forced_result(&b), None);
    }

    #[test]
    fn an_unstoppable_runner_wins_the_race() {
        // White's e5 has an empty cone; Black's pieces are far from White's home.
        let b = board("pp6/8/8/4P3/8/8/8/8 w 0 1");
        assert_eq!(forced_result(&b), Some(5));
    }

    #[test]
    fn a_runner_with_a_stopper_in_its_cone_is_not_proven() {
        let b = board("8/8/3p4/4P3/8/8/8/8 w 0 1");
        assert_eq!(forced_result(&b), None);
    }

    #[test]
    fn the_weight_file_lists_every_weight_in_order() {
        assert_eq!(WEIGHT_TABLE.names(), weight_names().as_slice());
        assert_eq!(WEIGHTS.piece, 100);
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
        for _ in 0..200 {
            let mut board = Board::start();
            while board.outcome().is_none() {
                let weighted: Score = WEIGHT_TABLE
                    .values()
                    .iter()
                    .zip(features(&board))
                    .map(|(w, f)| w * f)
                    .sum();
                assert_eq!(weighted, evaluate(&board));
                checked += 1;
                board.generate_moves(&mut moves);
                board.make_move(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    #[test]
    fn the_start_position_is_balanced() {
        let start = Board::start();
        assert_eq!(
            side_terms(&start, Player::P1, &WEIGHTS)[..4],
            side_terms(&start, Player::P2, &WEIGHTS)[..4]
        );
    }
}
