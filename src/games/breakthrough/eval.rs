//! Breakthrough knowledge: the static evaluation and the results that can be
//! proven without search (a win next move, an unstoppable runner).

use once_cell::sync::Lazy;

use super::board::{attacks, goal_rank, last_step_rank, Bitboard, Board, FILE_A, FILE_H};
use crate::core::{EvalTerm, Player, Score};

const PIECE: Score = 100;
/// By rank counted from the piece's own home rank. Rank 7 pieces of the side
/// not to move are a threat the opponent must answer at once; the search
/// sees that, so the table stays modest there.
const ADVANCE: [Score; 8] = [0, 0, 6, 14, 28, 52, 90, 0];
/// A piece still on the home rank guards the squares in front of it; the
/// inner files matter most.
const HOME_GUARD: [Score; 8] = [4, 12, 12, 8, 8, 12, 12, 4];
const DEFENDED: Score = 4;
const PHALANX: Score = 3;
/// A piece the opponent attacks and nothing defends, with the opponent to move.
const HANGING: Score = 40;
const TEMPO: Score = 8;

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

/// The evaluation's terms for one side, indexed like `TERM_NAMES`.
fn side_terms(board: &Board, side: Player) -> [Score; 5] {
    let own = board.pieces[side.index()];
    let enemy = board.pieces[side.other().index()];
    let mut advance = 0;
    let mut rest = own;
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        advance += ADVANCE[relative_rank(side, square)];
    }
    let home_rank = goal_rank(side.other());
    let mut home_guard = 0;
    let mut guards = own & home_rank;
    while guards != 0 {
        let square = guards.trailing_zeros();
        guards &= guards - 1;
        home_guard += HOME_GUARD[(square % 8) as usize];
    }
    let defended = own & attacks(side, own);
    let phalanx = own & (((own & !FILE_A) >> 1) | ((own & !FILE_H) << 1));
    let structure =
        DEFENDED * defended.count_ones() as Score + PHALANX * phalanx.count_ones() as Score;
    let hanging = if board.side != side {
        let attacked = own & attacks(side.other(), enemy) & !defended;
        -HANGING * (attacked != 0) as Score
    } else {
        TEMPO
    };
    [
        PIECE * own.count_ones() as Score,
        advance,
        home_guard,
        structure,
        hanging,
    ]
}

const TERM_NAMES: [&str; 5] = [
    "material",
    "advancement",
    "home guard",
    "structure",
    "safety/tempo",
];

pub fn evaluate(board: &Board) -> Score {
    let ours: Score = side_terms(board, board.side).iter().sum();
    let theirs: Score = side_terms(board, board.side.other()).iter().sum();
    ours - theirs
}

pub fn eval_terms(board: &Board) -> Vec<EvalTerm> {
    let white = side_terms(board, Player::P1);
    let black = side_terms(board, Player::P2);
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
    fn the_start_position_is_balanced() {
        let start = Board::start();
        assert_eq!(
            side_terms(&start, Player::P1)[..4],
            side_terms(&start, Player::P2)[..4]
        );
    }
}
