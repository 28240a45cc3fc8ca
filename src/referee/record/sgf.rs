//! SGF records for the games that have an SGF form (Hex as HexGui reads
//! it, Gomoku with Go's points). Written by hand; read through
//! `sgf-parse`, so that records of other tools (HexGui, Gomoku programs)
//! load too: their variations, comments and extra properties are passed
//! over and only the main line is read. The root holds SGF's game-info
//! properties (`EV`, `PC`, `DT`, `RO`, `PB`, `PW`, `RE`, `RU`), our own
//! (`GN` opening, `GC` reason, `TE` termination, `FN` start FEN, `NT`
//! notes) and `XR`, our private property with every rule option.

use sgf_parse::unknown_game::Prop;
use sgf_parse::{GameTree, SgfNode};

use super::{move_comment, parse_comment, GameRecord, GameTraits, MoveRecord};
use crate::core::cell::{cell_name, parse_cell_name};
use crate::core::{Player, SgfPoints};
use crate::referee::adjudication::{GameResult, Termination};

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

/// Whether the record is a Hex game with a swap, which HexGui's SGF writes
/// in benzene's frame.
fn swapped_hex(points: SgfPoints, record: &GameRecord) -> bool {
    points == SgfPoints::GtpCells && record.moves.get(1).is_some_and(|m| m.mv == "swap")
}

/// A swapped Hex game between our frame and HexGui's, either way (it is
/// its own inverse). HexGui keeps Black's stone after `swap-pieces` and the
/// players exchange colours (see `games::hex::colour_mirror`): each later
/// cell is reflected in the long diagonal, and the players and the winner
/// are named by the colour they hold after the swap.
fn exchange_frames(record: &mut GameRecord) {
    for m in record.moves.iter_mut().skip(2) {
        m.mv = crate::wire::gtp::colour_mirrored_cell(&m.mv);
    }
    record.players.swap(0, 1);
    record.result.winner = record.result.winner.map(Player::other);
}

/// `None` for a game without an SGF form.
pub fn to_sgf(record: &GameRecord) -> Option<String> {
    let traits = GameTraits::named(&record.game);
    let (game_number, points) = traits.sgf()?;
    let swapped = swapped_hex(points, record);
    let benzene;
    let record = if swapped {
        let mut exchanged = record.clone();
        exchange_frames(&mut exchanged);
        benzene = exchanged;
        &benzene
    } else {
        record
    };
    let size = record.board_size.or(traits.default_size)?;
    let mut out = format!(
        "(;FF[4]CA[UTF-8]GM[{game_number}]SZ[{size}]AP[{}:{}]",
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_VERSION")
    );
    let mut property = |name: &str, value: &str| {
        out.push_str(&format!("{name}[{}]", sgf_escape(value)));
    };
    for (name, value) in [("EV", &record.event), ("PC", &record.site)] {
        if !value.is_empty() {
            property(name, value);
        }
    }
    if let Some(date) = &record.date {
        property("DT", date);
    }
    property("RO", &record.round.to_string());
    property("PB", &record.players[0]);
    property("PW", &record.players[1]);
    property("RE", &result_value(&record.result));
    if let Some(rule) = rule_name(&record.rules) {
        property("RU", &rule);
    }
    property("GN", &record.opening);
    property("GC", &record.result.reason);
    property("TE", record.result.termination.keyword());
    if let Some(fen) = &record.start_fen {
        property("FN", fen);
    }
    for note in &record.notes {
        property("NT", note);
    }
    if let Some(swap2) = &record.swap2 {
        // Our own property: SGF has none for an opening's exchange. Plain
        // strings only, so serialising cannot fail.
        property("XS", &serde_json::to_string(swap2).unwrap_or_default());
    }
    if !record.rules.is_empty() {
        // Our own property, one value a rule option: SGF has none for them.
        out.push_str("XR");
        for (name, value) in &record.rules {
            out.push_str(&format!("[{}]", sgf_escape(&format!("{name}={value}"))));
        }
    }
    for (ply, m) in record.moves.iter().enumerate() {
        // After `swap-pieces` White moves next in HexGui's frame.
        let black = (ply % 2 == 0) != (swapped && ply > 1);
        let colour = if black { 'B' } else { 'W' };
        out.push_str(&format!(
            "\n;{colour}[{}]C[{}]",
            sgf_point(points, size, &m.mv),
            sgf_escape(&move_comment(m))
        ));
    }
    out.push_str(")\n");
    Some(out)
}

/// `RE` as SGF spells it: the winner's colour (player 1 is Black) and how
/// (`R` resignation, `T` time, `F` forfeit; nothing for a win by the rules),
/// `0` a draw, `Void` a game not played to its end.
fn result_value(result: &GameResult) -> String {
    let colour = match (result.winner, result.termination) {
        (_, Termination::Unfinished) => return "Void".to_owned(),
        (None, _) => return "0".to_owned(),
        (Some(Player::P1), _) => "B",
        (Some(Player::P2), _) => "W",
    };
    let how = match result.termination {
        Termination::Resignation => "R",
        Termination::TimeForfeit => "T",
        Termination::IllegalMove
        | Termination::Crash
        | Termination::Stall
        | Termination::ProtocolError => "F",
        Termination::Rules | Termination::MaxMoves | Termination::Unfinished => "",
    };
    format!("{colour}+{how}")
}

/// `RU`: the rule's usual name where the game has a named variant (Gomoku's
/// `Freestyle`, `Standard` for exactly five, `Renju`; Hex's `Swap` or `No
/// swap`). The full rules are in `XR`.
fn rule_name(rules: &[(String, String)]) -> Option<String> {
    let value = |name: &str| {
        rules
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.to_ascii_lowercase())
    };
    if let Some(rule) = value("Rule") {
        let mut letters = rule.chars();
        let first = letters.next()?.to_ascii_uppercase();
        return Some(std::iter::once(first).chain(letters).collect());
    }
    match value("Swap")?.as_str() {
        "true" | "on" | "1" => Some("Swap".to_owned()),
        _ => Some("No swap".to_owned()),
    }
}

/// The rule options `RU` names, for records of other tools without `XR`.
fn rules_of_name(rule: &str) -> Vec<(String, String)> {
    let option = |name: &str, value: &str| vec![(name.to_owned(), value.to_owned())];
    match rule.to_ascii_lowercase().as_str() {
        named @ ("freestyle" | "standard" | "renju") => option("Rule", named),
        "swap" => option("Swap", "true"),
        "no swap" => option("Swap", "false"),
        _ => Vec::new(),
    }
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
    let moves = root
        .main_variation()
        .map(|node| node_move(node, points, size))
        .filter_map(Result::transpose)
        .collect::<Result<Vec<_>, _>>()?;
    let mut record = GameRecord {
        game: game.name.to_owned(),
        event: text_of(root, "EV").unwrap_or_default(),
        site: text_of(root, "PC").unwrap_or_default(),
        date: text_of(root, "DT").and_then(|date| first_date(&date)),
        round: text_of(root, "RO")
            .and_then(|round| round.parse().ok())
            .unwrap_or(0),
        players: [
            text_of(root, "PB").unwrap_or_default(),
            text_of(root, "PW").unwrap_or_default(),
        ],
        rules: rules_of(root)?,
        start_fen: text_of(root, "FN"),
        opening: text_of(root, "GN").unwrap_or_default(),
        board_size: Some(size),
        moves,
        result: result_of(root)?,
        notes: values_of(root, "NT"),
        swap2: swap2_of(root)?,
    };
    if swapped_hex(points, &record) {
        exchange_frames(&mut record);
    }
    Ok(record)
}

/// The first date of `DT` (which may list several days, `2024-05-01,02`),
/// if it is a full `YYYY-MM-DD`.
fn first_date(dt: &str) -> Option<String> {
    let date = dt.get(..10)?;
    let shape_ok = date.bytes().enumerate().all(|(i, b)| {
        if i == 4 || i == 7 {
            b == b'-'
        } else {
            b.is_ascii_digit()
        }
    });
    (shape_ok && dt[10..].chars().next().is_none_or(|c| c == ',')).then(|| date.to_owned())
}

/// The rules from our `XR`, else what other tools' `RU` names.
/// `XS`, the Swap2 exchange as JSON, if the game opened so.
fn swap2_of(root: &SgfNode<Prop>) -> Result<Option<crate::referee::swap2::Swap2Record>, String> {
    match values_of(root, "XS").first() {
        Some(json) => serde_json::from_str(json)
            .map(Some)
            .map_err(|e| format!("XS is not a Swap2 record: {e}")),
        None => Ok(None),
    }
}

fn rules_of(root: &SgfNode<Prop>) -> Result<Vec<(String, String)>, String> {
    let listed = values_of(root, "XR");
    if listed.is_empty() {
        return Ok(text_of(root, "RU").map_or_else(Vec::new, |rule| rules_of_name(&rule)));
    }
    listed
        .iter()
        .map(|pair| {
            pair.split_once('=')
                .map(|(name, value)| (name.to_owned(), value.to_owned()))
                .ok_or_else(|| format!("rule '{pair}' in XR is not NAME=VALUE"))
        })
        .collect()
}

/// The result from `RE`, with our `TE` and `GC` where the record has them.
fn result_of(root: &SgfNode<Prop>) -> Result<GameResult, String> {
    let re = text_of(root, "RE").unwrap_or_default();
    let winner = match re.get(..2) {
        Some("B+") => Some(Player::P1),
        Some("W+") => Some(Player::P2),
        _ => None,
    };
    let termination = match text_of(root, "TE") {
        Some(keyword) => Termination::from_keyword(&keyword)
            .ok_or_else(|| format!("unknown termination '{keyword}'"))?,
        None => termination_in(&re),
    };
    Ok(GameResult {
        winner,
        termination,
        reason: text_of(root, "GC").unwrap_or_default(),
    })
}

/// How a game ended, for records of other tools, which say it only in
/// `RE` (`B+R` resignation, `W+T` time, `B+F` forfeit, `Void` or `?` not
/// finished).
fn termination_in(re: &str) -> Termination {
    if matches!(re, "" | "?" | "Void" | "void") {
        return Termination::Unfinished;
    }
    match re.get(2..).map(str::to_ascii_lowercase).as_deref() {
        Some("r" | "resign") => Termination::Resignation,
        Some("t" | "time") => Termination::TimeForfeit,
        Some("f" | "forfeit") => Termination::IllegalMove,
        _ => Termination::Rules,
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

/// Every value of every occurrence of a property we write ourselves.
fn values_of(node: &SgfNode<Prop>, name: &str) -> Vec<String> {
    node.properties()
        .filter_map(|prop| match prop {
            Prop::Unknown(n, values) if n == name => Some(values.clone()),
            _ => None,
        })
        .flatten()
        .collect()
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
        | Prop::EV(text)
        | Prop::PC(text)
        | Prop::DT(text)
        | Prop::RU(text) => text.text.clone(),
        Prop::GC(text) | Prop::C(text) => text.text.clone(),
        Prop::Unknown(_, values) | Prop::Invalid(_, values) => values.first()?.clone(),
        _ => return None,
    };
    Some(text)
}
