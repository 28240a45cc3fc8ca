//! Moves (`e5`, `e5/h2`, `pass`), the position string and the board picture.

use super::board::{bit, cell_name, parse_cell, CELLS, NO_CELL, SIDE};
use super::position::{Cavalo, Move};
use super::rules::Rules;
use crate::core::Player;

pub fn format_move(mv: Move) -> String {
    if mv.is_pass() {
        "pass".to_string()
    } else if mv.removes == NO_CELL {
        cell_name(mv.to)
    } else {
        format!("{}/{}", cell_name(mv.to), cell_name(mv.removes))
    }
}

/// Parses a move in the context of `position`: plain `e5` on a double means
/// the default choice (the highest other double still on the board).
pub fn parse_move(position: &Cavalo, text: &str) -> Result<Move, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::PASS);
    }
    let (to_text, removes_text) = match text.split_once('/') {
        Some((to, removes)) => (to, Some(removes)),
        None => (text, None),
    };
    let to = parse_cell(to_text)?;
    let removes = match removes_text {
        None => position.default_double_choice(to),
        Some(removes_text) => {
            let removes = parse_cell(removes_text)?;
            if position.double_choices(to) & bit(removes) == 0 {
                return Err(format!(
                    "{removes_text} is not another double on the board that landing on {to_text} can remove"
                ));
            }
            removes
        }
    };
    Ok(Move { to, removes })
}

/// Why `mv` (read by `parse_move`) is not legal in `position`, for a person.
pub fn illegal_reason(position: &Cavalo, mv: Move) -> String {
    let side = position.side_to_move();
    let destinations = position.destinations(side);
    if mv.is_pass() {
        return "a pass is allowed only when your knight has no move".to_owned();
    }
    let name = cell_name(mv.to);
    let landing = bit(mv.to);
    if position.present_cells() & landing == 0 {
        return format!("cell {name} is removed");
    }
    if position.denied_to(side) & landing != 0 {
        return format!("{name} is attacked by the other knight");
    }
    match position.knight(side) {
        Some(from) if destinations & landing == 0 => {
            format!("{name} is not a knight's move from {}", cell_name(from))
        }
        None if position.in_placement() && destinations & landing == 0 => {
            let home = if side == Player::P1 { 1 } else { 10 };
            if destinations.count_ones() == 1 {
                format!("the knight starts on the highest cell of row {home}")
            } else {
                format!("the knight starts on row {home}")
            }
        }
        _ => format!("{} is not a legal move here", format_move(mv)),
    }
}

/// Position string: the ten rows, row 1 first, `/` between rows and `,`
/// between cells (a value, or `x` for a removed or taken cell); White's and
/// Black's knight cells (`-` before placement); White's and Black's scores;
/// the side to move (`w`/`b`); placements made so far (0, 1 or 2).
pub fn to_fen(position: &Cavalo) -> String {
    let rows: Vec<String> = (0..SIDE)
        .map(|row| {
            (0..SIDE)
                .map(|col| match position.value((row * SIDE + col) as u8) {
                    Some(v) => v.to_string(),
                    None => "x".to_string(),
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let knight = |player| position.knight(player).map_or("-".to_string(), cell_name);
    let scores = position.scores();
    format!(
        "{} {} {} {} {} {} {}",
        rows.join("/"),
        knight(Player::P1),
        knight(Player::P2),
        scores[0],
        scores[1],
        if position.side_to_move() == Player::P1 {
            "w"
        } else {
            "b"
        },
        position.placements_done()
    )
}

/// The board as the page draws it (`Presentation::board_cells`), row 1
/// first: `W`, `B` for the knights, a value, or `x` for a removed cell.
pub fn board_cells(position: &Cavalo) -> Vec<Vec<String>> {
    let knight_at = |cell: u8| {
        [(Player::P1, "W"), (Player::P2, "B")]
            .into_iter()
            .find(|&(player, _)| position.knight(player) == Some(cell))
            .map(|(_, letter)| letter.to_string())
    };
    (0..SIDE)
        .map(|row| {
            (0..SIDE)
                .map(|col| {
                    let cell = (row * SIDE + col) as u8;
                    knight_at(cell).unwrap_or_else(|| match position.value(cell) {
                        Some(v) => v.to_string(),
                        None => "x".to_string(),
                    })
                })
                .collect()
        })
        .collect()
}

/// The largest score a player can have: every value 0..99 taken.
const MAX_SCORE: i32 = 4950;

pub fn from_fen(fen: &str, rules: &Rules) -> Result<Cavalo, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() != 7 {
        return Err(format!(
            "expected 7 fields (rows, white knight, black knight, white score, black score, side, placements), found {}",
            fields.len()
        ));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != SIDE {
        return Err(format!("expected 10 rows, found {}", rows.len()));
    }
    let mut values = [None; CELLS];
    let mut seen = [false; CELLS];
    for (row, row_text) in rows.iter().enumerate() {
        let cells: Vec<&str> = row_text.split(',').collect();
        if cells.len() != SIDE {
            return Err(format!(
                "row {} has {} cells, expected 10",
                row + 1,
                cells.len()
            ));
        }
        for (col, token) in cells.iter().enumerate() {
            let cell = row * SIDE + col;
            if token.eq_ignore_ascii_case("x") {
                continue;
            }
            let value: u8 = match token.parse() {
                Ok(v) if v < 100 && token.len() <= 2 => v,
                _ => {
                    return Err(format!(
                        "cell {}: '{token}' is neither a value 0-99 nor x",
                        cell_name(cell as u8)
                    ))
                }
            };
            if std::mem::replace(&mut seen[value as usize], true) {
                return Err(format!("value {value} appears twice"));
            }
            values[cell] = Some(value);
        }
    }
    let parse_knight = |text: &str, who: &str| -> Result<u8, String> {
        if text == "-" {
            return Ok(NO_CELL);
        }
        let cell = parse_cell(text).map_err(|e| format!("{who} knight: {e}"))?;
        if values[cell as usize].is_some() {
            return Err(format!(
                "{who} knight on {text}, but that cell still holds a value (mark it x)"
            ));
        }
        Ok(cell)
    };
    let knights = [
        parse_knight(fields[1], "white")?,
        parse_knight(fields[2], "black")?,
    ];
    if knights[0] != NO_CELL && knights[0] == knights[1] {
        return Err("both knights on the same cell".into());
    }
    let parse_score = |text: &str, who: &str| -> Result<i32, String> {
        match text.parse::<i32>() {
            Ok(s) if (0..=MAX_SCORE).contains(&s) => Ok(s),
            _ => Err(format!(
                "{who} score '{text}' is not a number from 0 to 4950"
            )),
        }
    };
    let scores = [
        parse_score(fields[3], "white")?,
        parse_score(fields[4], "black")?,
    ];
    let side = match fields[5] {
        "w" => Player::P1,
        "b" => Player::P2,
        other => return Err(format!("side to move '{other}' is neither w nor b")),
    };
    let placements_done = match fields[6] {
        "0" if side == Player::P1 && knights == [NO_CELL; 2] => 0,
        "1" if side == Player::P2 && knights[1] == NO_CELL => 1,
        "2" => 2,
        "0" | "1" => {
            return Err(format!(
                "placements {} do not fit the knights and side to move (0: no knights, White to place; 1: Black to place)",
                fields[6]
            ))
        }
        other => return Err(format!("placements '{other}' is not 0, 1 or 2")),
    };
    Ok(Cavalo::from_parts(
        rules.clone(),
        values,
        knights,
        scores,
        side,
        placements_done,
    ))
}

/// The board as the seed's program showed it: row 1 at the top, a value or
/// `NIL` in each cell, `W`/`B` for the knights; then both scores.
pub fn render(position: &Cavalo) -> String {
    let mut out = String::from("      ");
    for col in 0..SIDE {
        out.push_str(&format!("{:<5}", (b'a' + col as u8) as char));
    }
    out.push('\n');
    for row in 0..SIDE {
        out.push_str(&format!("{:>3}   ", row + 1));
        for col in 0..SIDE {
            let cell = (row * SIDE + col) as u8;
            let text = if position.knight(Player::P1) == Some(cell) {
                "W".to_string()
            } else if position.knight(Player::P2) == Some(cell) {
                "B".to_string()
            } else {
                match position.value(cell) {
                    Some(v) => v.to_string(),
                    None => "NIL".to_string(),
                }
            };
            out.push_str(&format!("{text:<5}"));
        }
        out.push('\n');
    }
    let scores = position.scores();
    out.push_str(&format!(
        "\nScore: White {}  Black {}\n",
        scores[0], scores[1]
    ));
    out
}
