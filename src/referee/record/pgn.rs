//! PGN records for the games without an SGF form (Breakthrough, Jogo do
//! Cavalo). The Seven Tag Roster comes first and in its order, so that
//! rating tools (Ordo, BayesElo) and PGN readers take the files; then the
//! tags the referee needs to read a game back and replay it. Moves are the
//! game's own notation, each followed by its comment (time, score, depth).
//! Files written before the roster (`Game`, `P1`, `P2` tags) still read.

use crate::core::{Game, Player};
use crate::referee::adjudication::{GameResult, Termination};
use crate::referee::tournament::build_rules;
use crate::registry::{GameEntry, GameList, GameVisitor, ProjectGames};

use super::{move_comment, parse_comment, GameRecord, MoveRecord};

/// PGN keeps lines under 80 characters.
const LINE_WIDTH: usize = 79;

pub fn to_text(record: &GameRecord) -> String {
    let mut out = String::new();
    for (name, value) in tags(record) {
        out.push_str(&format!("[{name} \"{}\"]\n", tag_escape(&value)));
    }
    out.push('\n');
    out.push_str(&movetext(record));
    out.push_str("\n\n");
    out
}

fn tag_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// PGN's `?` for what is not known.
fn or_unknown(text: &str) -> String {
    if text.is_empty() {
        "?".to_owned()
    } else {
        text.to_owned()
    }
}

fn tags(record: &GameRecord) -> Vec<(String, String)> {
    let date = record
        .date
        .as_deref()
        .map_or("????.??.??".to_owned(), |date| date.replace('-', "."));
    let round = if record.round == 0 {
        "?".to_owned()
    } else {
        record.round.to_string()
    };
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", or_unknown(&record.event)),
        ("Site", or_unknown(&record.site)),
        ("Date", date),
        ("Round", round),
        ("White", or_unknown(&record.players[0])),
        ("Black", or_unknown(&record.players[1])),
        ("Result", record.result.score_text().to_owned()),
        ("Variant", record.game.clone()),
    ];
    if let Some(fen) = &record.start_fen {
        tags.push(("SetUp", "1".to_owned()));
        tags.push(("FEN", fen.clone()));
    }
    if !record.rules.is_empty() {
        let rules: Vec<String> = record
            .rules
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        tags.push(("Rules", rules.join(" ")));
    }
    if let Some(size) = record.board_size {
        tags.push(("BoardSize", size.to_string()));
    }
    tags.push(("Opening", record.opening.clone()));
    tags.push(("PlyCount", record.moves.len().to_string()));
    tags.push(("Termination", termination_name(record.result.termination)));
    tags.push(("Reason", record.result.reason.clone()));
    let mut tags: Vec<(String, String)> =
        tags.into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
    for (index, note) in record.notes.iter().enumerate() {
        // A tag name appears once in a game: the notes are numbered.
        tags.push((format!("Note{}", index + 1), note.clone()));
    }
    tags
}

/// PGN's own words where one fits (`normal`, `adjudication`,
/// `unterminated`, `time forfeit`), else the referee's keyword, as
/// cutechess-cli does for its own endings.
fn termination_name(termination: Termination) -> String {
    match termination {
        Termination::Rules => "normal".to_owned(),
        Termination::MaxMoves => "adjudication".to_owned(),
        Termination::Unfinished => "unterminated".to_owned(),
        other => other.keyword().to_owned(),
    }
}

fn termination_from(name: &str) -> Option<Termination> {
    match name.to_ascii_lowercase().as_str() {
        "normal" => Some(Termination::Rules),
        "adjudication" => Some(Termination::MaxMoves),
        "unterminated" => Some(Termination::Unfinished),
        "rules infraction" => Some(Termination::IllegalMove),
        keyword => Termination::from_keyword(keyword),
    }
}

/// A move as a PGN symbol, which may hold letters, digits and `_+#=:-`
/// only: Jogo do Cavalo's `e5/c3` is written `e5:c3`.
fn pgn_symbol(mv: &str) -> String {
    mv.replace('/', ":")
}

fn from_pgn_symbol(symbol: &str) -> String {
    symbol.replace(':', "/")
}

/// Numbered moves, each with its comment; a black move after a comment
/// gets its own number (`1... h7h6`), as PGN's export format has it. The
/// number goes up after Black's move, and before White's second in a row.
fn movetext(record: &GameRecord) -> String {
    let movers = movers(record);
    let mut words = Vec::new();
    let mut number = 1;
    let mut previous = None;
    for (m, &mover) in record.moves.iter().zip(&movers) {
        if mover == Player::P1 {
            if previous == Some(Player::P1) {
                number += 1;
            }
            words.push(format!("{number}."));
        } else {
            words.push(format!("{number}..."));
        }
        words.push(pgn_symbol(&m.mv));
        words.push(format!("{{{}}}", move_comment(m)));
        if mover == Player::P2 {
            number += 1;
        }
        previous = Some(mover);
    }
    words.push(record.result.score_text().to_owned());
    let mut text = String::new();
    let mut line_length = 0;
    for word in words {
        if line_length > 0 && line_length + 1 + word.len() > LINE_WIDTH {
            text.push('\n');
            line_length = 0;
        } else if line_length > 0 {
            text.push(' ');
            line_length += 1;
        }
        text.push_str(&word);
        line_length += word.len();
    }
    text
}

/// Who played each move (player 1 is White), from the game replayed under
/// its rules: turns need not alternate (Jogo do Cavalo's placements and its
/// `FirstMover` rule). Past what replays, turns alternate.
fn movers(record: &GameRecord) -> Vec<Player> {
    let mut movers = ProjectGames::visit(&record.game, Movers(record)).unwrap_or_default();
    while movers.len() < record.moves.len() {
        let next = movers
            .last()
            .map_or(Player::P1, |last: &Player| last.other());
        movers.push(next);
    }
    movers
}

struct Movers<'a>(&'a GameRecord);

impl GameVisitor for Movers<'_> {
    type Output = Vec<Player>;
    fn visit<E: GameEntry>(self) -> Vec<Player> {
        let Ok(rules) = build_rules::<E::Rules>(&self.0.rules) else {
            return Vec::new();
        };
        let start = match &self.0.start_fen {
            Some(fen) => E::Rules::from_fen(fen, &rules),
            None => Ok(E::Rules::start_position(&rules)),
        };
        let Ok(mut position) = start else {
            return Vec::new();
        };
        let mut movers = vec![position.side_to_move()];
        for m in &self.0.moves {
            let Ok(mv) = position.parse_legal_move(&m.mv) else {
                break;
            };
            position.make_move(mv);
            movers.push(position.side_to_move());
        }
        // The side to move after the last move played none.
        movers.truncate(self.0.moves.len());
        movers
    }
}

/// Reads every game of a PGN file (tags, then movetext up to a blank line).
pub fn parse_text(text: &str) -> Result<Vec<GameRecord>, String> {
    let mut games = Vec::new();
    let mut lines = text.lines().map(str::trim).peekable();
    loop {
        while lines.peek().is_some_and(|line| line.is_empty()) {
            lines.next();
        }
        let mut tags = Vec::new();
        while let Some(line) = lines.next_if(|line| line.starts_with('[')) {
            tags.push(tag_line(line)?);
        }
        if tags.is_empty() {
            return match lines.peek() {
                None => Ok(games),
                Some(line) => Err(format!(
                    "PGN game {}: no tags before '{line}'",
                    games.len() + 1
                )),
            };
        }
        while lines.peek().is_some_and(|line| line.is_empty()) {
            lines.next();
        }
        let mut movetext = String::new();
        while let Some(line) = lines.next_if(|line| !line.is_empty() && !line.starts_with('[')) {
            movetext.push_str(line);
            movetext.push('\n');
        }
        let game =
            pgn_game(&tags, &movetext).map_err(|e| format!("PGN game {}: {e}", games.len() + 1))?;
        games.push(game);
    }
}

/// `[Name "value"]`, the value's `\"` and `\\` undone.
fn tag_line(line: &str) -> Result<(String, String), String> {
    let bad = || format!("bad tag line '{line}'");
    let inner = line.strip_prefix('[').ok_or_else(bad)?;
    let (name, rest) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
    let mut chars = rest.trim_start().strip_prefix('"').ok_or_else(bad)?.chars();
    let mut value = String::new();
    loop {
        match chars.next().ok_or_else(bad)? {
            '\\' => value.push(chars.next().ok_or_else(bad)?),
            '"' => break,
            c => value.push(c),
        }
    }
    if chars.as_str().trim() != "]" {
        return Err(bad());
    }
    Ok((name.to_owned(), value))
}

fn pgn_game(tags: &[(String, String)], movetext: &str) -> Result<GameRecord, String> {
    let get = |names: &[&str]| {
        names
            .iter()
            .find_map(|name| tags.iter().find(|(n, _)| n == name))
            .map(|(_, v)| v.clone())
    };
    let known = |value: Option<String>| value.filter(|v| v != "?").unwrap_or_default();
    let result = result_from(
        &get(&["Result"]).unwrap_or_default(),
        get(&["Termination"]),
        get(&["Reason"]).unwrap_or_default(),
    )?;
    Ok(GameRecord {
        game: get(&["Variant", "Game"]).unwrap_or_default(),
        event: known(get(&["Event"])),
        site: known(get(&["Site"])),
        date: get(&["Date"]).and_then(|date| iso_date(&date)),
        round: get(&["Round"]).and_then(|r| r.parse().ok()).unwrap_or(0),
        players: [known(get(&["White", "P1"])), known(get(&["Black", "P2"]))],
        rules: match get(&["Rules"]) {
            Some(rules) => rules_from(&rules)?,
            None => Vec::new(),
        },
        start_fen: get(&["FEN"]),
        opening: get(&["Opening"]).unwrap_or_default(),
        board_size: get(&["BoardSize"]).and_then(|s| s.parse().ok()),
        moves: moves_of(movetext)?,
        result,
        notes: tags
            .iter()
            .filter(|(name, _)| is_note(name))
            .map(|(_, v)| v.clone())
            .collect(),
        // Swap2 is Gomoku's, whose records are SGF.
        swap2: None,
    })
}

/// `Note` (older records) or `Note1`, `Note2`, ...
fn is_note(name: &str) -> bool {
    name.strip_prefix("Note")
        .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
}

/// PGN's `2024.05.01` as `2024-05-01`; a date with unknown parts is none.
fn iso_date(pgn: &str) -> Option<String> {
    let parts: Vec<&str> = pgn.split('.').collect();
    let digits = |part: &&str| part.bytes().all(|b| b.is_ascii_digit());
    (parts.len() == 3 && parts.iter().all(digits) && pgn.len() == 10).then(|| parts.join("-"))
}

fn rules_from(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split_whitespace()
        .map(|pair| {
            pair.split_once('=')
                .map(|(name, value)| (name.to_owned(), value.to_owned()))
                .ok_or_else(|| format!("rule '{pair}' in the Rules tag is not NAME=VALUE"))
        })
        .collect()
}

/// The result from the `Result` tag and, if given, `Termination`; without
/// one a decided game ended by the rules.
fn result_from(
    score: &str,
    termination: Option<String>,
    reason: String,
) -> Result<GameResult, String> {
    let winner = match score {
        "1-0" => Some(Player::P1),
        "0-1" => Some(Player::P2),
        "1/2-1/2" | "*" => None,
        other => return Err(format!("unknown result '{other}'")),
    };
    let termination = match termination {
        Some(name) => {
            termination_from(&name).ok_or_else(|| format!("unknown termination '{name}'"))?
        }
        None if score == "*" => Termination::Unfinished,
        None => Termination::Rules,
    };
    Ok(GameResult {
        winner,
        termination,
        reason,
    })
}

/// The main line's moves with their comments; move numbers, NAGs,
/// variations, `;` comments and the result token are passed over.
fn moves_of(movetext: &str) -> Result<Vec<MoveRecord>, String> {
    let mut moves: Vec<MoveRecord> = Vec::new();
    let mut variation_depth = 0usize;
    let mut rest = movetext;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        rest = match c {
            '{' => {
                let end = after.find('}').ok_or("unclosed comment")?;
                if let (Some(last), 0) = (moves.last_mut(), variation_depth) {
                    parse_comment(&after[..end], last);
                }
                &after[end + 1..]
            }
            ';' => after.find('\n').map_or("", |end| &after[end..]),
            '(' => {
                variation_depth += 1;
                after
            }
            ')' => {
                variation_depth = variation_depth.checked_sub(1).ok_or("unopened variation")?;
                after
            }
            c if c.is_whitespace() => after,
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "{}();".contains(c))
                    .unwrap_or(rest.len());
                if let (Some(mv), 0) = (move_of(&rest[..end]), variation_depth) {
                    moves.push(MoveRecord {
                        mv,
                        ..MoveRecord::default()
                    });
                }
                &rest[end..]
            }
        };
    }
    Ok(moves)
}

/// The move a token holds, with a move number before it (`12.a2a3`) taken
/// off; `None` for numbers, NAGs and results.
fn move_of(token: &str) -> Option<String> {
    if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) || token.starts_with('$') {
        return None;
    }
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after_digits = &token[digits..];
    let symbol = if digits > 0 && after_digits.starts_with('.') {
        after_digits.trim_start_matches('.')
    } else if digits == token.len() {
        ""
    } else {
        token
    };
    (!symbol.is_empty()).then(|| from_pgn_symbol(symbol))
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    #[test]
    fn the_seven_tag_roster_comes_first_and_in_order() {
        let text = to_text(&sample("breakthrough", &["a2a3", "h7h6", "b2b3"]));
        let names: Vec<&str> = text
            .lines()
            .take_while(|line| line.starts_with('['))
            .filter_map(|line| line[1..].split(' ').next())
            .collect();
        let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
        assert_eq!(names[..7], roster, "{text}");
        assert!(
            text.contains("[Date \"2026.11.27\"]\n[Round \"7\"]"),
            "{text}"
        );
        assert!(text.contains("[Rules \"Rows=8 Columns=8\"]"), "{text}");
        assert!(text.contains("[Note1 \"beta said p1win]\"]\n[Note2 \"second\"]"));
        assert!(text.contains("[Termination \"illegal move\"]"), "{text}");
        let movetext = text.split("\n\n").nth(1).unwrap();
        assert!(
            movetext.starts_with("1. a2a3 {book} 1... h7h6 {11ms cp -1 d3 n1001} 2. b2b3"),
            "{movetext}"
        );
        assert_eq!(
            movetext.split_whitespace().last(),
            Some("1-0"),
            "{movetext}"
        );
        assert!(movetext.lines().all(|line| line.len() < 80), "{movetext}");
    }

    #[test]
    fn pgn_records_read_back_exactly() {
        let moves: Vec<String> = (0..40)
            .map(|i| format!("a{}b{}", i % 8 + 1, i % 7 + 1))
            .collect();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let mut first = sample("breakthrough", &refs);
        first.start_fen = Some("8/8/8/8/8/8/PPPPPPPP/pppppppp w 0 1".to_owned());
        let mut second = sample("cavalo", &["e5/c3", "j10", "pass"]);
        second.result = GameResult::unfinished();
        second.date = None;
        second.round = 0;
        let text = to_text(&first) + &to_text(&second);
        assert!(text.contains("[SetUp \"1\"]\n[FEN "), "{text}");
        assert!(text.contains(" e5:c3 {book}"), "{text}");
        assert!(text.contains("[Date \"????.??.??\"]"), "{text}");
        assert!(
            text.contains("[Result \"*\"]") && text.contains("} *\n"),
            "{text}"
        );
        assert_eq!(parse_text(&text).unwrap(), vec![first, second]);
    }

    #[test]
    fn move_numbers_follow_who_moved_not_the_ply_count() {
        use crate::games::cavalo::{Cavalo, Rules};
        // With Black moving first, Black places its knight and then moves
        // again: two black moves in a row.
        let rules = Rules {
            first_mover: Player::P2,
            ..Rules::default()
        };
        let mut position = Cavalo::start_position(&rules);
        let mut texts = Vec::new();
        let mut legal = Vec::new();
        for _ in 0..4 {
            position.generate_moves(&mut legal);
            texts.push(position.format_move(legal[0]));
            position.make_move(legal[0]);
        }
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut record = sample("cavalo", &refs);
        record.rules = vec![("FirstMover".to_owned(), "black".to_owned())];
        let text = to_text(&record);
        let movetext = text.split("\n\n").nth(1).unwrap().replace('\n', " ");
        let numbers: Vec<&str> = movetext
            .split_whitespace()
            .filter(|word| word.ends_with('.'))
            .collect();
        assert_eq!(numbers, ["1.", "1...", "2...", "3."], "{movetext}");
        assert_eq!(parse_text(&text).unwrap(), vec![record]);
    }

    #[test]
    fn records_written_before_the_roster_still_read() {
        let old = "[Game \"breakthrough\"]\n[Round \"3\"]\n[P1 \"a\"]\n[P2 \"b\"]\n\
                   [Opening \"startpos\"]\n[Result \"1-0\"]\n[Termination \"rules\"]\n\
                   [Reason \"p1 wins by the rules\"]\n[Note \"n\"]\n\n\
                   1. a2a3 {12ms cp 35 d7 n40210} h7h6 {book} 2. b2b3 {3ms} 1-0\n\n";
        let game = &parse_text(old).unwrap()[0];
        assert_eq!((game.game.as_str(), game.round), ("breakthrough", 3));
        assert_eq!(game.players, ["a", "b"]);
        assert_eq!(game.notes, ["n"]);
        assert_eq!(
            (game.result.winner, game.result.termination),
            (Some(Player::P1), Termination::Rules)
        );
        let moves: Vec<&str> = game.moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(moves, ["a2a3", "h7h6", "b2b3"]);
        assert_eq!((game.moves[0].millis, game.moves[0].depth), (12, Some(7)));
        assert!(game.rules.is_empty() && game.date.is_none());
    }

    #[test]
    fn pgn_of_other_tools_reads_its_main_line() {
        let pgn = "[Event \"?\"]\n[White \"x\"]\n[Black \"y\"]\n[Result \"0-1\"]\n\
                   [Variant \"breakthrough\"]\n\n\
                   1.a2a3 $1 (1. b2b3 c7c6) 1...h7h6 ; a remark\n2. b2b3 0-1\n";
        let game = &parse_text(pgn).unwrap()[0];
        let moves: Vec<&str> = game.moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(moves, ["a2a3", "h7h6", "b2b3"]);
        assert_eq!(game.event, "");
        assert_eq!(game.result.termination, Termination::Rules);
    }

    #[test]
    fn malformed_pgn_is_refused_with_the_reason() {
        for (text, reason) in [
            (
                "[Result \"1-0\"]\n\n1. a2a3 {never closed\n",
                "unclosed comment",
            ),
            ("[Result \"2-0\"]\n\n1. a2a3 2-0\n", "unknown result"),
            ("[Result \"1-0\"\n\n1. a2a3\n", "bad tag line"),
            ("[Result \"1-0]\n", "bad tag line"),
            ("1. a2a3 1-0\n", "no tags"),
            (
                "[Result \"1-0\"]\n[Termination \"bored\"]\n\n1-0\n",
                "unknown termination",
            ),
            ("[Result \"1-0\"]\n[Rules \"Rows\"]\n\n1-0\n", "NAME=VALUE"),
            ("[Result \"1-0\"]\n\n1. a2a3 ) 1-0\n", "unopened variation"),
        ] {
            let error = parse_text(text).unwrap_err();
            assert!(error.contains(reason), "{text:?}: {error}");
        }
    }
}
