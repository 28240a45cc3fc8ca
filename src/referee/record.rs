//! Game records: SGF for Hex (as HexGui reads it: `GM[11]`, cells like `f6`,
//! `swap-pieces`) and Gomoku (`GM[4]`, two-letter SGF points); for the other
//! games a PGN-like text; for any game, on request (a `.jsonl` file), one
//! JSON object a line, which tools read without a parser of their own. All
//! carry moves, times, engine scores and why the game ended, and all read
//! back.

use crate::core::{Player, Presentation, RecordStyle, SgfPoints};
use crate::registry::{GameEntry, GameList, GameVisitor, ProjectGames};

mod sgf;

pub use sgf::{parse_sgf, to_sgf};

use super::adjudication::{GameResult, Termination};

use crate::wire::score::Score;

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MoveRecord {
    #[serde(rename = "move")]
    pub mv: String,
    /// Part of the opening, not chosen by an engine.
    pub book: bool,
    pub millis: u64,
    pub score: Option<Score>,
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

/// What the records need of a game, taken from its type.
#[derive(Clone, Copy, Debug)]
struct GameTraits {
    name: &'static str,
    style: RecordStyle,
    default_size: Option<u32>,
}

impl GameTraits {
    fn of<G: Presentation>() -> Self {
        GameTraits {
            name: G::NAME,
            style: G::RECORD_STYLE,
            default_size: super::cli::board_size::<G>(&[]),
        }
    }

    /// The project's games: records name their game (text, JSON) or number
    /// it (SGF `GM`), and are read without a type at hand.
    fn all() -> Vec<GameTraits> {
        ProjectGames::each(TraitsOf)
    }

    /// A game not among ours gets text records and no default size.
    fn named(game: &str) -> Self {
        let unknown = GameTraits {
            name: "",
            style: RecordStyle::Text,
            default_size: None,
        };
        Self::all()
            .into_iter()
            .find(|known| known.name == game)
            .unwrap_or(unknown)
    }

    fn sgf(self) -> Option<(u32, SgfPoints)> {
        match self.style {
            RecordStyle::Sgf {
                game_number,
                points,
            } => Some((game_number, points)),
            RecordStyle::Text => None,
        }
    }
}

#[derive(Clone, Copy)]
struct TraitsOf;

impl GameVisitor for TraitsOf {
    type Output = GameTraits;
    fn visit<E: GameEntry>(self) -> GameTraits {
        GameTraits::of::<E::Rules>()
    }
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
        match GameTraits::named(game).style {
            RecordStyle::Sgf { .. } => RecordFormat::Sgf,
            RecordStyle::Text => RecordFormat::Text,
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
        parts.push(score.to_string());
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
            // A score this project would not write is left out, not fatal.
            m.score = format!("{w} {}", words[i + 1]).parse().ok();
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
        // A game with no SGF form is written as text.
        RecordFormat::Sgf => to_sgf(record).unwrap_or_else(|| to_text(record)),
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
                    score: (i > 0).then(|| Score::Centipawns(-(i as i32))),
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
            let sgf = render(&record, RecordFormat::Sgf);
            assert_eq!(parse_sgf(&sgf).unwrap(), vec![record], "{sgf}");
        }
        let gomoku = render(&sample("gomoku", &["h8", "a15", "o1"]), RecordFormat::Sgf);
        assert!(gomoku.contains(";B[hh]") && gomoku.contains(";W[aa]") && gomoku.contains("[oo]"));
        let hex = render(&sample("hex", &["a1", "swap"]), RecordFormat::Sgf);
        assert!(hex.starts_with("(;FF[4]GM[11]SZ[11]") && hex.contains(";W[swap-pieces]"));
        assert!(gomoku.starts_with("(;FF[4]GM[4]SZ[15]"), "{gomoku}");
        let breakthrough = sample("breakthrough", &["a2a3"]);
        assert_eq!(to_sgf(&breakthrough), None);
        assert_eq!(
            render(&breakthrough, RecordFormat::Sgf),
            to_text(&breakthrough)
        );
        assert!(parse_sgf("(;FF[4]GM[1]SZ[19];B[aa])").is_err());
    }

    #[test]
    fn sgf_of_other_tools_loads_its_main_line() {
        // As HexGui saves a game: its own root properties, a comment, a
        // variation after the fourth move.
        let hexgui = "(;FF[4]CA[UTF-8]AP[HexGui:0.9.GIT]GM[11]SZ[11]PB[Alice]PW[Bob]\n\
                      ;B[a1];W[swap-pieces]C[swapped\\] here];B[f6]\n\
                      ;W[e7](;B[d8];W[k11])(;B[c9]))";
        let records = parse_sgf(hexgui).unwrap();
        assert_eq!(records.len(), 1);
        let hex = &records[0];
        assert_eq!((hex.game.as_str(), hex.board_size), ("hex", Some(11)));
        assert_eq!(hex.players, ["Alice", "Bob"]);
        let moves: Vec<&str> = hex.moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(moves, ["a1", "swap", "f6", "e7", "d8", "k11"]);
        let gomoku = "(;GM[4]FF[4]SZ[15]RE[W+R]EV[renju cup];B[hh]N[centre];W[ih]LB[hh:A];B[gg])";
        let game = &parse_sgf(gomoku).unwrap()[0];
        let moves: Vec<&str> = game.moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(
            (game.game.as_str(), moves),
            ("gomoku", vec!["h8", "i8", "g9"])
        );
        assert_eq!(game.result.winner, Some(Player::P2));
        assert_eq!(game.result.termination, Termination::Resignation);
        assert_eq!(hex.result.termination, Termination::Rules);
        let setup = parse_sgf("(;GM[4]FF[4]SZ[15]AB[hh][ii];W[jj])").unwrap_err();
        assert!(setup.contains("AB"), "{setup}");
        assert!(parse_sgf("(;GM[11]SZ[11];B[a1]").is_err());
        assert!(parse_sgf("").is_err());
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
