//! Breakthrough notation: moves as `a2a3` (`b4xc5` accepted), positions in
//! Fairy-Stockfish's FEN form, `pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1`
//! (on a smaller board, one rank per row and one square per column:
//! `ppppp/ppppp/5/PPPPP/PPPPP w 0 1` on 5x5).

use super::board::{Board, Geometry, Move};
use crate::core::cell::parse_cell_name;
use crate::core::game::Player;
use crate::core::notation::fen_row;

pub fn square_name(square: u8) -> String {
    format!("{}{}", (b'a' + square % 8) as char, square / 8 + 1)
}

fn parse_square(text: &str, geometry: &Geometry) -> Result<u8, String> {
    // Only the plain form (`a1`..`h8`, lower case, no leading zero).
    let square = parse_cell_name(text)
        .filter(|&(file, rank)| file < 8 && rank < 8)
        .map(|(file, rank)| (rank * 8 + file) as u8)
        .filter(|&square| square_name(square) == text);
    match square {
        Some(square) if geometry.contains(u32::from(square)) => Ok(square),
        _ => Err(format!(
            "'{text}' is not a square a1..{}",
            square_name(8 * (geometry.rows() - 1) + geometry.columns() - 1)
        )),
    }
}

pub fn format_move(mv: Move) -> String {
    format!("{}{}", square_name(mv.from), square_name(mv.to))
}

/// Parses `a2a3` or `b4xc5`; whether it captures is read from the board.
pub fn parse_move(board: &Board, text: &str) -> Result<Move, String> {
    let text = text.trim().to_ascii_lowercase();
    let (from, to) = match text.len() {
        4 => (&text[0..2], &text[2..4]),
        5 if &text[2..3] == "x" || &text[2..3] == "-" => (&text[0..2], &text[3..5]),
        _ => return Err(format!("'{text}' is not a move like a2a3")),
    };
    let geometry = board.geometry();
    let (from, to) = (parse_square(from, geometry)?, parse_square(to, geometry)?);
    Ok(Move {
        from,
        to,
        capture: board.enemy() & (1u64 << to) != 0,
    })
}

/// Parses a FEN: one rank per row from the last down, `P` White and `p`
/// Black, then the side to move (`w`/`b`); the move counters after it are
/// optional. The ranks must fit `geometry`.
pub fn parse_fen(fen: &str, geometry: Geometry) -> Result<Board, String> {
    let (rows, columns) = (u32::from(geometry.rows()), u32::from(geometry.columns()));
    let mut fields = fen.split_whitespace();
    let placement = fields.next().ok_or("empty FEN")?;
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != rows as usize {
        return Err(format!("{} ranks instead of {rows}", ranks.len()));
    }
    let mut pieces = [0u64; 2];
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = rows - 1 - row as u32;
        let mut file = 0u32;
        for c in rank_text.chars() {
            match c {
                '1'..='8' => file += c as u32 - '0' as u32,
                'P' | 'p' => {
                    if file >= columns {
                        return Err(format!("rank {} has more than {columns} squares", rank + 1));
                    }
                    pieces[(c == 'p') as usize] |= 1u64 << (rank * 8 + file);
                    file += 1;
                }
                other => return Err(format!("unexpected '{other}' in rank {}", rank + 1)),
            }
        }
        if file != columns {
            return Err(format!(
                "rank {} has {file} squares instead of {columns}",
                rank + 1
            ));
        }
    }
    let side = match fields.next() {
        Some("w") | Some("W") => Player::P1,
        Some("b") | Some("B") => Player::P2,
        Some(other) => return Err(format!("side to move '{other}' is not w or b")),
        None => return Err("missing side to move".into()),
    };
    // Fairy-Stockfish may write "-" placeholders before the counters.
    let numbers: Vec<&str> = fields.filter(|f| *f != "-").collect();
    let fullmove = match numbers.as_slice() {
        [] => 1,
        [_halfmove] => 1,
        [_halfmove, fullmove] => fullmove
            .parse::<u32>()
            .map_err(|_| format!("bad move number '{fullmove}'"))?
            .max(1),
        _ => return Err("too many fields after the side to move".into()),
    };
    if let [halfmove, ..] = numbers.as_slice() {
        halfmove
            .parse::<u32>()
            .map_err(|_| format!("bad halfmove counter '{halfmove}'"))?;
    }
    let white_won = pieces[0] & geometry.goal_rank(Player::P1) != 0 || pieces[1] == 0;
    let black_won = pieces[1] & geometry.goal_rank(Player::P2) != 0 || pieces[0] == 0;
    if white_won && black_won {
        return Err("both sides have already won".into());
    }
    let ply = 2 * (fullmove - 1) + (side == Player::P2) as u32;
    Ok(Board::from_pieces(pieces, side, ply, geometry))
}

pub fn to_fen(board: &Board) -> String {
    let geometry = board.geometry();
    let piece = |rank, file| {
        let bit = 1u64 << (rank * 8 + file);
        if board.pieces[0] & bit != 0 {
            Some('P')
        } else if board.pieces[1] & bit != 0 {
            Some('p')
        } else {
            None
        }
    };
    let ranks: Vec<String> = (0..geometry.rows())
        .rev()
        .map(|rank| fen_row((0..geometry.columns()).map(|file| piece(rank, file))))
        .collect();
    let side = if board.side == Player::P1 { "w" } else { "b" };
    format!("{} {side} 0 {}", ranks.join("/"), board.ply / 2 + 1)
}

/// The board as text: the last rank at the top, `P` White, `p` Black, `.`
/// empty.
pub fn render(board: &Board) -> String {
    let geometry = board.geometry();
    let mut out = String::new();
    for rank in (0..geometry.rows()).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..geometry.columns() {
            let bit = 1u64 << (rank * 8 + file);
            let c = if board.pieces[0] & bit != 0 {
                'P'
            } else if board.pieces[1] & bit != 0 {
                'p'
            } else {
                '.'
            };
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str("  ");
    for file in 0..geometry.columns() {
        out.push(' ');
        out.push((b'a' + file) as char);
    }
    out.push('\n');
    out
}

/// Why `mv` (read by `parse_move`) is not legal on `board`, for a person.
pub fn illegal_reason(board: &Board, mv: Move) -> String {
    let (from, to) = (square_name(mv.from), square_name(mv.to));
    let at = |square: u8, set: u64| set & (1u64 << square) != 0;
    if !at(mv.from, board.own()) {
        return if at(mv.from, board.enemy()) {
            format!("{from} holds an opponent's piece: move one of your own")
        } else {
            format!("{from} is empty: move one of your own pieces")
        };
    }
    let forward: i32 = if board.side == Player::P1 { 1 } else { -1 };
    let ranks_ahead = (i32::from(mv.to / 8) - i32::from(mv.from / 8)) * forward;
    let files_aside = (i32::from(mv.to % 8) - i32::from(mv.from % 8)).abs();
    if ranks_ahead != 1 || files_aside > 1 {
        return format!("{from}{to}: a piece moves one step forward or diagonally forward");
    }
    if at(mv.to, board.own()) {
        return format!("{to} holds one of your own pieces");
    }
    if files_aside == 0 && at(mv.to, board.enemy()) {
        return format!("{from}{to}: a piece captures only diagonally, and {to} is taken");
    }
    format!("{from}{to} is not a legal move here")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_round_trips() {
        let start = "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1";
        let board = parse_fen(start, Geometry::STANDARD).expect("start FEN parses");
        assert_eq!(board, Board::start(Geometry::STANDARD));
        assert_eq!(to_fen(&board), start);
    }

    #[test]
    fn a_small_board_reads_and_writes_its_own_shape() {
        let geometry = Geometry::checked(6, 5).expect("valid");
        let start = "ppppp/ppppp/5/5/PPPPP/PPPPP w 0 1";
        let board = parse_fen(start, geometry).expect("start FEN parses");
        assert_eq!(board, Board::start(geometry));
        assert_eq!(to_fen(&board), start);
        assert!(
            render(&board).ends_with("   a b c d e\n"),
            "{}",
            render(&board)
        );
        assert!(parse_fen(start, Geometry::STANDARD).is_err());
        assert!(parse_fen("pppppp/ppppp/5/5/PPPPP/PPPPP w 0 1", geometry).is_err());
        assert!(parse_move(&board, "e2e3").is_ok());
        assert!(
            parse_move(&board, "f2f3").is_err(),
            "no f-file on five columns"
        );
        assert!(
            parse_move(&board, "a6a7").is_err(),
            "no seventh rank on six rows"
        );
    }

    #[test]
    fn middle_game_fen_round_trips() {
        let fen = "1ppp2pp/p2p1p2/3P4/1p4P1/8/2P1P3/PP3PPP/1PPPPP1P b 0 12";
        let board = parse_fen(fen, Geometry::STANDARD).expect("valid");
        assert_eq!(to_fen(&board), fen);
    }

    #[test]
    fn accepts_placeholders_and_missing_counters() {
        assert!(parse_fen(
            "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1",
            Geometry::STANDARD
        )
        .is_ok());
        assert!(parse_fen(
            "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP b",
            Geometry::STANDARD
        )
        .is_ok());
    }

    #[test]
    fn rejects_malformed_fens() {
        for bad in [
            "",
            "pppppppp/pppppppp/8/8/8/8/PPPPPPPP w 0 1",
            "pppppppp/pppppppp/9/8/8/8/PPPPPPPP/PPPPPPPP w 0 1",
            "ppppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1",
            "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPK w 0 1",
            "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP x 0 1",
            "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w zero 1",
            "P7/8/8/8/8/8/8/p7 w 0 1",
        ] {
            assert!(
                parse_fen(bad, Geometry::STANDARD).is_err(),
                "accepted {bad:?}"
            );
        }
    }

    #[test]
    fn moves_round_trip_and_capture_is_read_from_the_board() {
        let board = parse_fen("8/8/8/2p5/1P6/8/8/8 w 0 1", Geometry::STANDARD).expect("valid");
        let mv = parse_move(&board, "b4xc5").expect("valid");
        assert!(mv.capture);
        assert_eq!(format_move(mv), "b4c5");
        assert!(!parse_move(&board, "b4b5").expect("valid").capture);
        assert!(parse_move(&board, "b4").is_err());
        assert!(parse_move(&board, "z9a1").is_err());
    }
}
