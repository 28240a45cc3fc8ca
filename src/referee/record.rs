//! Game records: SGF for Hex (as HexGui reads it: `GM[11]`, cells like `f6`,
//! `swap-pieces`) and Gomoku (`GM[4]`, two-letter SGF points); for the other
//! games a PGN-like text; for any game, on request (a `.jsonl` file), one
//! JSON object a line, which tools read without a parser of their own. All
//! carry moves, times, engine scores and why the game ended, and all read
//! back.

use crate::core::Player;

use super::adjudication::{GameResult, Termination};
use crate::core::cell::{cell_name, parse_cell_name};

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MoveRecord {
    #[serde(rename = "move")]
    pub mv: String,
    /// Part of the opening, not chosen by an engine.
    pub book: bool,
    pub millis: u64,
    pub score: Option<String>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    pub game: String,
    pub round: usize,
    /// Names of player 1 and player 2.
    pub players: [String; 2],
    pub start_fen: Option<String>,
    pub opening: String,
    pub board_size: Option<u32>,
    pub moves: Vec<MoveRecord>,
    pub result: GameResult,
    /// Engines whose `query result` disagreed with the referee.
    pub notes: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    Sgf,
    Text,
    /// One JSON object a game, a line each (JSON Lines).
    Json,
}

impl RecordFormat {
    /// The format a game's players know (what the referee writes by default).
    pub fn for_game(game: &str) -> Self {
        match game {
            "hex" | "gomoku" => RecordFormat::Sgf,
            _ => RecordFormat::Text,
        }
    }

    /// The format a records file's name asks for: `.jsonl` or `.json` for
    /// JSON lines, otherwise the game's own.
    pub fn for_path(path: &str, game: &str) -> Self {
        let extension = std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("jsonl" | "json") => RecordFormat::Json,
            _ => RecordFormat::for_game(game),
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::Sgf => "sgf",
            RecordFormat::Text => "txt",
            RecordFormat::Json => "jsonl",
        }
    }
}

fn move_comment(m: &MoveRecord) -> String {
    if m.book {
        return "book".to_owned();
    }
    let mut parts = vec![format!("{}ms", m.millis)];
    if let Some(score) = &m.score {
        parts.push(score.clone());
    }
    if let Some(depth) = m.depth {
        parts.push(format!("d{depth}"));
    }
    if let Some(nodes) = m.nodes {
        parts.push(format!("n{nodes}"));
    }
    parts.join(" ")
}

fn parse_comment(comment: &str, m: &mut MoveRecord) {
    if comment == "book" {
        m.book = true;
        return;
    }
    let words: Vec<&str> = comment.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if let Some(ms) = w.strip_suffix("ms").and_then(|v| v.parse().ok()) {
            m.millis = ms;
        } else if (w == "cp" || w == "mate") && i + 1 < words.len() {
            m.score = Some(format!("{w} {}", words[i + 1]));
            i += 1;
        } else if let Some(d) = w.strip_prefix('d').and_then(|v| v.parse().ok()) {
            m.depth = Some(d);
        } else if let Some(n) = w.strip_prefix('n').and_then(|v| v.parse().ok()) {
            m.nodes = Some(n);
        }
        i += 1;
    }
}

// ---- PGN-like text --------------------------------------------------------

fn tag_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

pub fn to_text(record: &GameRecord) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", tag_escape(value)));
    };
    tag("Game", &record.game);
    tag("Round", &record.round.to_string());
    tag("P1", &record.players[0]);
    tag("P2", &record.players[1]);
    if let Some(fen) = &record.start_fen {
        tag("FEN", fen);
    }
    if let Some(size) = record.board_size {
        tag("BoardSize", &size.to_string());
    }
    tag("Opening", &record.opening);
    tag("Result", record.result.score_text());
    tag("Termination", record.result.termination.keyword());
    tag("Reason", &record.result.reason);
    for note in &record.notes {
        tag("Note", note);
    }
    out.push('\n');
    let mut line = String::new();
    for (ply, m) in record.moves.iter().enumerate() {
        if ply % 2 == 0 {
            line.push_str(&format!("{}. ", ply / 2 + 1));
        }
        line.push_str(&format!("{} {{{}}} ", m.mv, move_comment(m)));
        if line.len() > 72 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
    }
    line.push_str(record.result.score_text());
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Reads every game of a PGN-like file.
pub fn parse_text(text: &str) -> Result<Vec<GameRecord>, String> {
    let mut games = Vec::new();
    let mut lines = text.lines().peekable();
    while lines.peek().is_some() {
        let mut tags = Vec::new();
        while let Some(line) = lines.peek() {
            let line = line.trim();
            if line.is_empty() && tags.is_empty() {
                lines.next();
                continue;
            }
            if !line.starts_with('[') {
                break;
            }
            let inner = line.trim_start_matches('[').trim_end_matches(']');
            let (name, value) = inner
                .split_once(' ')
                .ok_or_else(|| format!("bad tag line '{line}'"))?;
            let value = value
                .trim()
                .trim_matches('"')
                .replace("\\\"", "\"")
                .replace("\\\\", "\\");
            tags.push((name.to_owned(), value));
            lines.next();
        }
        if tags.is_empty() {
            break;
        }
        let mut movetext = String::new();
        for line in lines.by_ref() {
            if line.trim().is_empty() {
                if movetext.is_empty() {
                    continue;
                }
                break;
            }
            movetext.push_str(line);
            movetext.push(' ');
        }
        games.push(text_game(&tags, &movetext)?);
    }
    Ok(games)
}

fn text_game(tags: &[(String, String)], movetext: &str) -> Result<GameRecord, String> {
    let get = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let mut moves = Vec::new();
    let mut rest = movetext;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        if let Some(after) = rest.strip_prefix('{') {
            let end = after.find('}').ok_or("unclosed comment")?;
            if let Some(last) = moves.last_mut() {
                parse_comment(&after[..end], last);
            }
            rest = &after[end + 1..];
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        let is_number =
            word.ends_with('.') && word[..word.len() - 1].bytes().all(|b| b.is_ascii_digit());
        if is_number || ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
            continue;
        }
        moves.push(MoveRecord {
            mv: word.to_owned(),
            ..MoveRecord::default()
        });
    }
    let result = result_from(
        &get("Result").unwrap_or_default(),
        &get("Termination").unwrap_or_default(),
        get("Reason").unwrap_or_default(),
    )?;
    Ok(GameRecord {
        game: get("Game").unwrap_or_default(),
        round: get("Round").and_then(|r| r.parse().ok()).unwrap_or(0),
        players: [get("P1").unwrap_or_default(), get("P2").unwrap_or_default()],
        start_fen: get("FEN"),
        opening: get("Opening").unwrap_or_default(),
        board_size: get("BoardSize").and_then(|s| s.parse().ok()),
        moves,
        result,
        notes: tags
            .iter()
            .filter(|(n, _)| n == "Note")
            .map(|(_, v)| v.clone())
            .collect(),
    })
}

fn result_from(score: &str, termination: &str, reason: String) -> Result<GameResult, String> {
    let winner = match score {
        "1-0" => Some(Player::P1),
        "0-1" => Some(Player::P2),
        "1/2-1/2" => None,
        other => return Err(format!("unknown result '{other}'")),
    };
    let termination = Termination::from_keyword(termination)
        .ok_or_else(|| format!("unknown termination '{termination}'"))?;
    Ok(GameResult {
        winner,
        termination,
        reason,
    })
}

// ---- SGF ------------------------------------------------------------------

fn sgf_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Our cell to an SGF point: Hex keeps our cell names (HexGui's form);
/// Gomoku uses two letters, column then row counted from the top.
fn sgf_point(game: &str, size: u32, mv: &str) -> String {
    if game == "hex" {
        // HexGui's SGF spells moves as GTP does.
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

fn from_sgf_point(game: &str, size: u32, point: &str) -> String {
    if game == "hex" {
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

pub fn to_sgf(record: &GameRecord) -> String {
    let (game_number, default_size) = if record.game == "hex" {
        (11, 11)
    } else {
        (4, 15)
    };
    let size = record.board_size.unwrap_or(default_size);
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
            sgf_point(&record.game, size, &m.mv),
            sgf_escape(&move_comment(m))
        ));
    }
    out.push_str(")\n");
    out
}

/// Properties of each node of each game tree of an SGF collection (only the
/// main line; variations are not written by the referee).
/// The properties of one SGF node, in order.
type SgfNode = Vec<(String, String)>;

fn sgf_nodes(text: &str) -> Result<Vec<Vec<SgfNode>>, String> {
    let mut games = Vec::new();
    let mut chars = text.chars().peekable();
    let mut current: Option<Vec<SgfNode>> = None;
    let mut key = String::new();
    while let Some(c) = chars.next() {
        match c {
            '(' if current.is_none() => current = Some(Vec::new()),
            ')' => {
                if let Some(game) = current.take() {
                    games.push(game);
                }
            }
            ';' => current
                .as_mut()
                .ok_or("node outside a game")?
                .push(Vec::new()),
            '[' => {
                let mut value = String::new();
                loop {
                    match chars.next() {
                        Some('\\') => value.extend(chars.next()),
                        Some(']') => break,
                        Some(c) => value.push(c),
                        None => return Err("unclosed property value".to_owned()),
                    }
                }
                let node = current
                    .as_mut()
                    .and_then(|g| g.last_mut())
                    .ok_or("property outside a node")?;
                let name = if key.is_empty() {
                    node.last().map(|(k, _)| k.clone()).unwrap_or_default()
                } else {
                    std::mem::take(&mut key)
                };
                node.push((name, value));
            }
            c if c.is_ascii_uppercase() => key.push(c),
            _ => {}
        }
    }
    Ok(games)
}

pub fn parse_sgf(text: &str) -> Result<Vec<GameRecord>, String> {
    let mut records = Vec::new();
    for nodes in sgf_nodes(text)? {
        let root = nodes.first().ok_or("empty game tree")?;
        let get = |name: &str| root.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        let game = if get("GM").as_deref() == Some("11") {
            "hex"
        } else {
            "gomoku"
        };
        let size: u32 = get("SZ").and_then(|s| s.parse().ok()).unwrap_or(15);
        let score = match get("RE").as_deref() {
            Some("B+") => "1-0",
            Some("W+") => "0-1",
            _ => "1/2-1/2",
        };
        let result = result_from(
            score,
            &get("TE").unwrap_or_default(),
            get("GC").unwrap_or_default(),
        )?;
        let mut moves = Vec::new();
        for node in &nodes[1..] {
            let Some((_, point)) = node.iter().find(|(k, _)| k == "B" || k == "W") else {
                continue;
            };
            let mut m = MoveRecord {
                mv: from_sgf_point(game, size, point),
                ..MoveRecord::default()
            };
            if let Some((_, comment)) = node.iter().find(|(k, _)| k == "C") {
                parse_comment(comment, &mut m);
            }
            moves.push(m);
        }
        records.push(GameRecord {
            game: game.to_owned(),
            round: get("RO").and_then(|r| r.parse().ok()).unwrap_or(0),
            players: [get("PB").unwrap_or_default(), get("PW").unwrap_or_default()],
            start_fen: get("FN"),
            opening: get("GN").unwrap_or_default(),
            board_size: Some(size),
            moves,
            result,
            notes: root
                .iter()
                .filter(|(k, _)| k == "NT")
                .map(|(_, v)| v.clone())
                .collect(),
        });
    }
    Ok(records)
}

/// One game as one line of JSON, newline included.
pub fn to_json_line(record: &GameRecord) -> String {
    // A record holds strings, numbers and plain enums only: serialising it
    // cannot fail, and the fallback below is never reached.
    let mut line = serde_json::to_string(record).unwrap_or_default();
    line.push('\n');
    line
}

/// Every game of a JSON-lines file; blank lines are skipped, and a bad line
/// is an error that names it.
pub fn parse_json_lines(text: &str) -> Result<Vec<GameRecord>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            serde_json::from_str(line).map_err(|e| format!("record line {}: {e}", index + 1))
        })
        .collect()
}

pub fn render(record: &GameRecord, format: RecordFormat) -> String {
    match format {
        RecordFormat::Sgf => to_sgf(record),
        RecordFormat::Text => to_text(record),
        RecordFormat::Json => to_json_line(record),
    }
}

pub fn parse(format: RecordFormat, text: &str) -> Result<Vec<GameRecord>, String> {
    match format {
        RecordFormat::Sgf => parse_sgf(text),
        RecordFormat::Text => parse_text(text),
        RecordFormat::Json => parse_json_lines(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(game: &str, moves: &[&str]) -> GameRecord {
        GameRecord {
            game: game.to_owned(),
            round: 7,
            players: ["alpha \"one\"]".to_owned(), "beta".to_owned()],
            start_fen: None,
            opening: "random:2".to_owned(),
            board_size: Some(if game == "hex" { 11 } else { 15 }),
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, mv)| MoveRecord {
                    mv: (*mv).to_owned(),
                    book: i == 0,
                    millis: if i == 0 { 0 } else { 10 + i as u64 },
                    score: (i > 0).then(|| format!("cp {}", -(i as i32))),
                    depth: (i > 0).then_some(3),
                    nodes: (i > 0).then_some(1000 + i as u64),
                })
                .collect(),
            result: GameResult::forfeit(Player::P2, Termination::IllegalMove, "illegal move 'z9'"),
            notes: vec!["beta said p1win]".to_owned()],
        }
    }

    #[test]
    fn text_records_read_back_exactly() {
        let moves: Vec<String> = (0..40)
            .map(|i| format!("a{}b{}", i % 8 + 1, i % 7 + 1))
            .collect();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let mut first = sample("breakthrough", &refs);
        first.start_fen = Some("8/8/8/8/8/8/PPPPPPPP/pppppppp w 0 1".to_owned());
        let second = sample("breakthrough", &["a2a3"]);
        let text = to_text(&first) + &to_text(&second);
        assert_eq!(parse_text(&text).unwrap(), vec![first, second]);
    }

    #[test]
    fn sgf_records_read_back_for_hex_and_gomoku() {
        for (game, moves) in [
            ("hex", ["a1", "swap", "k11"]),
            ("gomoku", ["h8", "a15", "o1"]),
        ] {
            let record = sample(game, &moves);
            let sgf = to_sgf(&record);
            assert_eq!(parse_sgf(&sgf).unwrap(), vec![record], "{sgf}");
        }
        let gomoku = to_sgf(&sample("gomoku", &["h8", "a15", "o1"]));
        assert!(gomoku.contains(";B[hh]") && gomoku.contains(";W[aa]") && gomoku.contains("[oo]"));
        assert!(to_sgf(&sample("hex", &["a1", "swap"])).contains(";W[swap-pieces]"));
    }

    #[test]
    fn json_records_read_back_for_every_game_one_line_each() {
        let records = [
            sample("breakthrough", &["a2a3", "h7h6"]),
            sample("hex", &["a1", "swap", "k11"]),
            sample("gomoku", &["h8", "a15"]),
            sample("cavalo", &["a1", "j10"]),
        ];
        let text: String = records.iter().map(to_json_line).collect();
        assert_eq!(text.lines().count(), records.len());
        assert_eq!(parse_json_lines(&text).unwrap(), records);
        let line = text.lines().next().unwrap();
        for words in [
            r#""move":"a2a3""#,
            r#""winner":"p1""#,
            r#""termination":"illegal-move""#,
        ] {
            assert!(line.contains(words), "{line}");
        }
    }

    #[test]
    fn a_bad_json_line_is_named() {
        let good = to_json_line(&sample("breakthrough", &["a2a3"]));
        let error = parse_json_lines(&format!("{good}\n{{\"game\": 3}}\n")).unwrap_err();
        assert!(error.starts_with("record line 3:"), "{error}");
    }

    #[test]
    fn the_file_name_chooses_the_format() {
        for (path, game, format) in [
            ("games.jsonl", "hex", RecordFormat::Json),
            ("games.JSON", "cavalo", RecordFormat::Json),
            ("games.sgf", "hex", RecordFormat::Sgf),
            ("games.txt", "breakthrough", RecordFormat::Text),
        ] {
            assert_eq!(RecordFormat::for_path(path, game), format, "{path}");
        }
    }
}
