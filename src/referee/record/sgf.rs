//! SGF records for the games that have an SGF form (Hex as HexGui reads
//! it, Gomoku with Go's points). Written by hand; read through
//! `sgf-parse`, so that records of other tools (HexGui, Gomoku programs)
//! load too: their variations, comments and extra properties are passed
//! over and only the main line is read.

use sgf_parse::unknown_game::Prop;
use sgf_parse::{GameTree, SgfNode};

use super::{move_comment, parse_comment, result_from, GameRecord, GameTraits, MoveRecord};
use crate::core::cell::{cell_name, parse_cell_name};
use crate::core::{Player, SgfPoints};

fn sgf_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Our cell to an SGF point.
fn sgf_point(points: SgfPoints, size: u32, mv: &str) -> String {
    if points == SgfPoints::GtpCells {
        return crate::wire::gtp::to_gtp_move(mv);
    }
    match parse_cell_name(mv) {
        Some((column, row)) if row < size as usize => {
            let letter = |i: usize| char::from_u32('a' as u32 + i as u32).unwrap_or('?');
            format!("{}{}", letter(column), letter(size as usize - 1 - row))
        }
        _ => mv.to_owned(),
    }
}

fn from_sgf_point(points: SgfPoints, size: u32, point: &str) -> String {
    if points == SgfPoints::GtpCells {
        return if point == "swap-pieces" {
            "swap".to_owned()
        } else {
            point.to_owned()
        };
    }
    let bytes = point.as_bytes();
    if bytes.len() == 2 && bytes.iter().all(u8::is_ascii_lowercase) {
        let column = u32::from(bytes[0] - b'a');
        let from_top = u32::from(bytes[1] - b'a');
        if from_top < size {
            if let Some(cell) = cell_name(column as usize, (size - 1 - from_top) as usize) {
                return cell;
            }
        }
    }
    point.to_owned()
}

/// `None` for a game without an SGF form.
pub fn to_sgf(record: &GameRecord) -> Option<String> {
    let traits = GameTraits::named(&record.game);
    let (game_number, points) = traits.sgf()?;
    let size = record.board_size.or(traits.default_size)?;
    let re = match record.result.winner {
        Some(Player::P1) => "B+".to_owned(),
        Some(Player::P2) => "W+".to_owned(),
        None => "0".to_owned(),
    };
    let mut out = format!(
        "(;FF[4]GM[{game_number}]SZ[{size}]AP[boardgames referee]PB[{}]PW[{}]RE[{re}]RO[{}]",
        sgf_escape(&record.players[0]),
        sgf_escape(&record.players[1]),
        record.round
    );
    out.push_str(&format!(
        "GN[{}]GC[{}]TE[{}]",
        sgf_escape(&record.opening),
        sgf_escape(&record.result.reason),
        record.result.termination.keyword()
    ));
    if let Some(fen) = &record.start_fen {
        out.push_str(&format!("FN[{}]", sgf_escape(fen)));
    }
    for note in &record.notes {
        out.push_str(&format!("NT[{}]", sgf_escape(note)));
    }
    for (ply, m) in record.moves.iter().enumerate() {
        let colour = if ply % 2 == 0 { 'B' } else { 'W' };
        out.push_str(&format!(
            "\n;{colour}[{}]C[{}]",
            sgf_point(points, size, &m.mv),
            sgf_escape(&move_comment(m))
        ));
    }
    out.push_str(")\n");
    Some(out)
}

pub fn parse_sgf(text: &str) -> Result<Vec<GameRecord>, String> {
    let trees = sgf_parse::parse(text).map_err(|e| format!("not an SGF record: {e}"))?;
    if trees.is_empty() {
        return Err("the SGF record holds no game".to_owned());
    }
    trees
        .into_iter()
        .map(|tree| match tree {
            GameTree::Unknown(root) => game_record(&root),
            GameTree::GoGame(_) => Err(
                "an SGF record of Go (GM[1] or no GM) is none of this project's games".to_owned(),
            ),
        })
        .collect()
}

fn game_record(root: &SgfNode<Prop>) -> Result<GameRecord, String> {
    let (game, points) = game_of(root)?;
    let size = match root.get_property("SZ") {
        Some(Prop::SZ((columns, rows))) if columns == rows => u32::from(*columns),
        Some(_) => return Err("the SGF board size SZ is not one square size".to_owned()),
        None => game.default_size.ok_or("the SGF record has no SZ")?,
    };
    let re = text_of(root, "RE").unwrap_or_default();
    let score = match re.get(..2) {
        Some("B+") => "1-0",
        Some("W+") => "0-1",
        _ => "1/2-1/2",
    };
    let termination = text_of(root, "TE").unwrap_or_else(|| termination_in(&re).to_owned());
    let result = result_from(score, &termination, text_of(root, "GC").unwrap_or_default())?;
    let moves = root
        .main_variation()
        .map(|node| node_move(node, points, size))
        .filter_map(Result::transpose)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(GameRecord {
        game: game.name.to_owned(),
        round: text_of(root, "RO")
            .and_then(|round| round.parse().ok())
            .unwrap_or(0),
        players: [
            text_of(root, "PB").unwrap_or_default(),
            text_of(root, "PW").unwrap_or_default(),
        ],
        start_fen: text_of(root, "FN"),
        opening: text_of(root, "GN").unwrap_or_default(),
        board_size: Some(size),
        moves,
        result,
        notes: root
            .properties()
            .filter_map(|prop| match prop {
                Prop::Unknown(name, values) if name == "NT" => values.first().cloned(),
                _ => None,
            })
            .collect(),
    })
}

/// How a game ended, for records of other tools, which say it only in
/// `RE` (`B+R` resignation, `W+T` time): the referee's own keywords.
fn termination_in(re: &str) -> &'static str {
    match re.get(2..).map(str::to_ascii_lowercase).as_deref() {
        Some("r" | "resign") => "resignation",
        Some("t" | "time") => "time forfeit",
        _ => "rules",
    }
}

/// The game whose SGF number `GM` the record gives.
fn game_of(root: &SgfNode<Prop>) -> Result<(GameTraits, SgfPoints), String> {
    let Some(Prop::GM(number)) = root.get_property("GM") else {
        return Err("the SGF record has no readable GM".to_owned());
    };
    GameTraits::all()
        .into_iter()
        .find_map(|known| {
            let (game_number, points) = known.sgf()?;
            (i64::from(game_number) == *number).then_some((known, points))
        })
        .ok_or_else(|| format!("SGF game GM[{number}] is none of this project's games"))
}

/// The move of a node, if it has one; setup stones have no meaning in a
/// record of moves, so they are refused rather than dropped.
fn node_move(
    node: &SgfNode<Prop>,
    points: SgfPoints,
    size: u32,
) -> Result<Option<MoveRecord>, String> {
    if let Some(setup) = ["AB", "AW", "AE"]
        .into_iter()
        .find(|name| node.get_property(name).is_some())
    {
        return Err(format!("SGF setup stones ({setup}) are not supported"));
    }
    let point = match node.get_move() {
        Some(Prop::B(point) | Prop::W(point)) => point,
        _ => return Ok(None),
    };
    let mut record = MoveRecord {
        mv: from_sgf_point(points, size, point),
        ..MoveRecord::default()
    };
    if let Some(Prop::C(comment)) = node.get_property("C") {
        parse_comment(&comment.text, &mut record);
    }
    Ok(Some(record))
}

/// A property's text as written (escapes already undone by the parser),
/// whether `sgf-parse` knows the property (`PB`, `GC`, ...), finds its value
/// invalid (`TE`, SGF's tesuji mark, holds our termination) or not.
fn text_of(node: &SgfNode<Prop>, name: &str) -> Option<String> {
    let text = match node.get_property(name)? {
        Prop::PB(text)
        | Prop::PW(text)
        | Prop::RE(text)
        | Prop::RO(text)
        | Prop::GN(text)
        | Prop::EV(text) => text.text.clone(),
        Prop::GC(text) | Prop::C(text) => text.text.clone(),
        Prop::Unknown(_, values) | Prop::Invalid(_, values) => values.first()?.clone(),
        _ => return None,
    };
    Some(text)
}
