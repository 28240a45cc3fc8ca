//! Game records: SGF for Hex (as HexGui reads it: `GM[11]`, cells like `f6`,
//! `swap-pieces`) and Gomoku (`GM[4]`, two-letter SGF points); PGN for the
//! other games; for any game, on request (a `.jsonl` file), one JSON object
//! a line, which tools read without a parser of their own. All carry the
//! event, site, date and rules, moves, times, engine scores and why the game
//! ended, and all read back.

use crate::core::{Presentation, RecordStyle, SgfPoints};
use crate::registry::{GameEntry, GameList, GameVisitor, ProjectGames};

mod header;
mod pgn;
mod sgf;

pub use header::{host_name, rules_in_full, utc_date_today, RecordHeader, DEFAULT_EVENT};
pub use pgn::{parse_text, to_text};
pub use sgf::{parse_sgf, to_sgf};

use super::adjudication::GameResult;
pub use super::swap2::{Swap2Record, Swap2Step};

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

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    pub game: String,
    /// The match (or session) the game belongs to; `""` unknown. Fields
    /// marked `default` are absent from older records.
    #[serde(default)]
    pub event: String,
    /// Where it was played (the host's name); `""` unknown.
    #[serde(default)]
    pub site: String,
    /// The day it was played, UTC, `YYYY-MM-DD`.
    #[serde(default)]
    pub date: Option<String>,
    pub round: usize,
    /// Names of player 1 and player 2.
    pub players: [String; 2],
    /// The rule options it was played under, in order: every option of the
    /// game as `rules_in_full` gives them. Empty when the record does not
    /// say (older records, other tools').
    #[serde(default, with = "rules_object")]
    pub rules: Vec<(String, String)>,
    pub start_fen: Option<String>,
    pub opening: String,
    pub board_size: Option<u32>,
    pub moves: Vec<MoveRecord>,
    pub result: GameResult,
    /// Engines whose `query result` disagreed with the referee.
    pub notes: Vec<String>,
    /// How a game opened by Swap2 got its first stones and colours;
    /// absent from other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap2: Option<Swap2Record>,
}

/// Rule options as a JSON object, `{"BoardSize":"7","Swap":"true"}`, in
/// their order: what a tool reading the JSON expects of named settings.
mod rules_object {
    use serde::de::{MapAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(rules: &[(String, String)], out: S) -> Result<S::Ok, S::Error> {
        let mut map = out.serialize_map(Some(rules.len()))?;
        for (name, value) in rules {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        input: D,
    ) -> Result<Vec<(String, String)>, D::Error> {
        input.deserialize_map(Pairs)
    }

    struct Pairs;

    impl<'de> Visitor<'de> for Pairs {
        type Value = Vec<(String, String)>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object of rule options and their values as strings")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut pairs = Vec::new();
            while let Some(pair) = map.next_entry()? {
                pairs.push(pair);
            }
            Ok(pairs)
        }
    }
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
            RecordFormat::Text => "pgn",
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
    use crate::core::Player;
    use crate::referee::adjudication::Termination;

    /// A record of `game` with every field set, awkward characters in its
    /// texts.
    pub(super) fn sample(game: &str, moves: &[&str]) -> GameRecord {
        let rules: &[(&str, &str)] = match game {
            "hex" => &[("BoardSize", "11"), ("Swap", "true")],
            "gomoku" => &[("BoardSize", "15"), ("Rule", "renju")],
            "breakthrough" => &[("Rows", "8"), ("Columns", "8")],
            _ => &[],
        };
        GameRecord {
            game: game.to_owned(),
            event: "cup \"one\" [final]".to_owned(),
            site: "host\\one".to_owned(),
            date: Some("2026-11-27".to_owned()),
            round: 7,
            players: ["alpha \"one\"]".to_owned(), "beta".to_owned()],
            rules: rules
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
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
            notes: vec!["beta said p1win]".to_owned(), "second".to_owned()],
            swap2: None,
        }
    }

    #[test]
    fn sgf_records_read_back_for_hex_and_gomoku() {
        for (game, moves) in [
            ("hex", ["a1", "swap", "k2"]),
            ("gomoku", ["h8", "a15", "o1"]),
        ] {
            let record = sample(game, &moves);
            let sgf = render(&record, RecordFormat::Sgf);
            assert_eq!(parse_sgf(&sgf).unwrap(), vec![record], "{sgf}");
        }
        let gomoku = render(&sample("gomoku", &["h8", "a15", "o1"]), RecordFormat::Sgf);
        assert!(gomoku.contains(";B[hh]") && gomoku.contains(";W[aa]") && gomoku.contains("[oo]"));
        let hex = render(&sample("hex", &["a1", "swap"]), RecordFormat::Sgf);
        assert!(hex.starts_with("(;FF[4]CA[UTF-8]GM[11]SZ[11]") && hex.contains(";W[swap-pieces]"));
        // HexGui's frame after the swap: White moves next, cells mirrored,
        // the players named by the colour they then hold.
        let swapped = render(
            &sample("hex", &["c2", "swap", "d3", "e1"]),
            RecordFormat::Sgf,
        );
        assert!(
            swapped.contains(";B[c2]") && swapped.contains(";W[swap-pieces]"),
            "{swapped}"
        );
        assert!(
            swapped.contains(";W[c4]") && swapped.contains(";B[a5]"),
            "{swapped}"
        );
        assert!(
            swapped.contains("PB[beta]") && swapped.contains("PW[alpha"),
            "{swapped}"
        );
        assert!(
            gomoku.starts_with("(;FF[4]CA[UTF-8]GM[4]SZ[15]"),
            "{gomoku}"
        );
        let breakthrough = sample("breakthrough", &["a2a3"]);
        assert_eq!(to_sgf(&breakthrough), None);
        assert_eq!(
            render(&breakthrough, RecordFormat::Sgf),
            to_text(&breakthrough)
        );
        assert!(parse_sgf("(;FF[4]GM[1]SZ[19];B[aa])").is_err());
    }

    #[test]
    fn sgf_roots_carry_the_game_info_and_the_rules() {
        let record = sample("gomoku", &["h8", "i9"]);
        let sgf = to_sgf(&record).unwrap();
        let root = sgf.lines().next().unwrap();
        for property in [
            "EV[cup \"one\" [final\\]]",
            "PC[host\\\\one]",
            "DT[2026-11-27]",
            "RO[7]",
            "PB[alpha \"one\"\\]]",
            "PW[beta]",
            "RE[B+F]",
            "RU[Renju]",
            "XR[BoardSize=15][Rule=renju]",
            concat!("AP[boardgames:", env!("CARGO_PKG_VERSION"), "]"),
        ] {
            assert!(root.contains(property), "{property} missing: {root}");
        }
        let hex = to_sgf(&sample("hex", &["a1"])).unwrap();
        assert!(hex.contains("RU[Swap]"), "{hex}");
        for (termination, winner, re) in [
            (Termination::Resignation, Some(Player::P1), "RE[B+R]"),
            (Termination::TimeForfeit, Some(Player::P2), "RE[W+T]"),
            (Termination::Rules, Some(Player::P1), "RE[B+]"),
            (Termination::MaxMoves, None, "RE[0]"),
            (Termination::Unfinished, None, "RE[Void]"),
        ] {
            let mut ended = record.clone();
            ended.result = GameResult {
                winner,
                termination,
                reason: "why".to_owned(),
            };
            let sgf = to_sgf(&ended).unwrap();
            assert!(sgf.contains(re), "{re}: {sgf}");
            assert_eq!(parse_sgf(&sgf).unwrap(), vec![ended]);
        }
        assert!(parse_sgf("(;GM[4]SZ[15]XR[Rule];B[hh])").is_err());
    }

    #[test]
    fn sgf_of_other_tools_loads_its_main_line() {
        // As HexGui saves a game: its own root properties, a comment, a
        // variation after the fourth move. After `swap-pieces` HexGui keeps
        // Black's stone and White moves next: Alice, who holds Black after
        // the swap, swapped; Bob moved first, and his moves come back
        // through the mirror.
        let hexgui = "(;FF[4]CA[UTF-8]AP[HexGui:0.9.GIT]GM[11]SZ[11]PB[Alice]PW[Bob]\n\
                      ;B[a1];W[swap-pieces]C[swapped\\] here];W[f6]\n\
                      ;B[e7](;W[d8];B[k11])(;W[c9]))";
        let records = parse_sgf(hexgui).unwrap();
        assert_eq!(records.len(), 1);
        let hex = &records[0];
        assert_eq!((hex.game.as_str(), hex.board_size), ("hex", Some(11)));
        assert_eq!(hex.players, ["Bob", "Alice"]);
        let moves: Vec<&str> = hex.moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(moves, ["a1", "swap", "f6", "g5", "h4", "k11"]);
        let gomoku = "(;GM[4]FF[4]SZ[15]RE[W+R]EV[renju cup]RU[renju]DT[2024-05-01,02]\
                      ;B[hh]N[centre];W[ih]LB[hh:A];B[gg])";
        let game = &parse_sgf(gomoku).unwrap()[0];
        let moves: Vec<&str> = game.moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(
            (game.game.as_str(), moves),
            ("gomoku", vec!["h8", "i8", "g9"])
        );
        assert_eq!(game.result.winner, Some(Player::P2));
        assert_eq!(game.result.termination, Termination::Resignation);
        assert_eq!(game.rules, [("Rule".to_owned(), "renju".to_owned())]);
        assert_eq!(
            (game.event.as_str(), game.date.as_deref()),
            ("renju cup", Some("2024-05-01"))
        );
        // Without RE the game's end is not known.
        assert_eq!(hex.result.termination, Termination::Unfinished);
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
