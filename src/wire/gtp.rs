//! GTP (Go Text Protocol, version 2) as Hex programs speak it: a command
//! is `[id] name args...`; a response is `=[id] result` or `?[id] message`,
//! closed by a blank line. Colours are `b`/`w` (`black`/`white` read too);
//! our `swap` is GTP's `swap-pieces`.

use std::fmt;

use nom::branch::alt;
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{map, not, opt, peek, rest};
use nom::multi::many0;
use nom::sequence::{pair, preceded, terminated};
use nom::IResult;

use super::lex::{whole, word};
use crate::core::Player;

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GtpCommand {
    /// The numeric id a controller may put first, echoed in the response
    /// as it was written.
    pub id: Option<String>,
    pub name: String,
    pub args: Vec<String>,
}

impl GtpCommand {
    /// A command without an id.
    pub fn new(name: &str, args: &[&str]) -> Self {
        GtpCommand {
            id: None,
            name: name.to_owned(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
        }
    }
}

impl fmt::Display for GtpCommand {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if let Some(id) = &self.id {
            write!(f, "{id} ")?;
        }
        f.write_str(&self.name)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

/// A line that holds an id and nothing else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingCommand {
    pub id: Option<String>,
}

/// GTP's preprocessing: control characters dropped, tabs to spaces,
/// comments cut off.
pub fn clean(line: &str) -> String {
    let without_comment = line.split('#').next().unwrap_or("");
    without_comment
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// A whole-line comment (`# interrupt` is HexGui's stop button).
pub fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

/// An id: digits that are a word of their own.
fn id(input: &str) -> IResult<&str, &str> {
    terminated(digit1, peek(not(word)))(input)
}

/// A command's name and arguments.
type Call<'a> = (&'a str, Vec<&'a str>);

fn command(input: &str) -> IResult<&str, (Option<&str>, Option<Call<'_>>)> {
    let (input, id) = opt(terminated(id, space0))(input)?;
    let (input, call) = opt(pair(word, many0(preceded(space1, word))))(input)?;
    Ok((input, (id, call)))
}

/// Reads a command line after [`clean`]ing it: `Ok(None)` for a line with
/// nothing to do (blank, or a comment).
pub fn parse_command(line: &str) -> Result<Option<GtpCommand>, MissingCommand> {
    let cleaned = clean(line);
    if cleaned.is_empty() {
        return Ok(None);
    }
    // Every cleaned, non-empty line parses: a first word is always there.
    let Some((id, call)) = whole(command, &cleaned) else {
        return Err(MissingCommand { id: None });
    };
    let id = id.map(str::to_owned);
    match call {
        Some((name, args)) => Ok(Some(GtpCommand {
            id,
            name: name.to_owned(),
            args: args.into_iter().map(str::to_owned).collect(),
        })),
        None => Err(MissingCommand { id }),
    }
}

/// A response: `Ok` for `=`, `Err` for `?`. Multi-line results keep their
/// line breaks; none of their lines is blank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GtpResponse {
    pub id: Option<String>,
    pub result: Result<String, String>,
}

impl fmt::Display for GtpResponse {
    /// The response up to its closing blank line, less the last line
    /// break (which the line writer adds): `= f6\n` is sent as `= f6`, an
    /// empty line. An empty success prints `= ` (HexGui wants the space).
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let id = self.id.as_deref().unwrap_or("");
        let (mark, body) = match &self.result {
            Ok(body) => ('=', body),
            Err(message) => ('?', message),
        };
        writeln!(f, "{mark}{id} {}", body.trim_end_matches('\n'))
    }
}

fn response(input: &str) -> IResult<&str, GtpResponse> {
    let (input, ok) = alt((map(char('='), |_| true), map(char('?'), |_| false)))(input)?;
    let (input, id) = opt(digit1)(input)?;
    let (input, text) = rest(input)?;
    // The first line is trimmed; later ones are as the engine wrote them.
    let body = match text.split_once('\n') {
        Some((first, more)) => format!("{}\n{more}", first.trim()),
        None => text.trim().to_owned(),
    };
    let result = if ok { Ok(body) } else { Err(body) };
    let id = id.map(str::to_owned);
    Ok((input, GtpResponse { id, result }))
}

impl GtpResponse {
    /// Whether an engine's line opens a response.
    pub fn opens(line: &str) -> bool {
        line.starts_with(['=', '?'])
    }

    /// Reads a response's lines (without the closing blank line) joined by
    /// line breaks.
    pub fn parse(text: &str) -> Option<Self> {
        response(text.trim_end_matches('\n')).ok().map(|(_, r)| r)
    }
}

/// `b`, `black`, `w`, `white` (any case).
pub fn parse_colour(word: &str) -> Option<Player> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Player::P1),
        "w" | "white" => Some(Player::P2),
        _ => None,
    }
}

/// `b` for the first player (Black), `w` for the second.
pub fn colour_name(player: Player) -> &'static str {
    match player {
        Player::P1 => "b",
        Player::P2 => "w",
    }
}

/// Our move in benzene's spelling: `swap` is `swap-pieces`.
pub fn to_gtp_move(mv: &str) -> String {
    if mv == "swap" {
        "swap-pieces".to_owned()
    } else {
        mv.to_owned()
    }
}

/// A cell name reflected in the board's long diagonal (`c4` is `d3`);
/// other words as they are. After a swap, benzene's board is the colour
/// mirror of ours (see `games::hex::colour_mirror`), so the referee sends
/// and reads every later move through this, with the colours exchanged.
pub fn colour_mirrored_cell(mv: &str) -> String {
    crate::core::cell::parse_cell_name(mv)
        .and_then(|(column, row)| crate::core::cell::cell_name(row, column))
        .unwrap_or_else(|| mv.to_owned())
}

/// A GTP move in our notation: lower case, `swap-pieces` as `swap`.
pub fn from_gtp_move(mv: &str) -> String {
    let mv = mv.trim().to_ascii_lowercase();
    if mv == "swap-pieces" || mv == "swap" {
        "swap".to_owned()
    } else {
        mv
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn random_word(rng: &mut StdRng) -> String {
        let length = rng.gen_range(1..8);
        (0..length)
            .map(|_| char::from(b"abcdefgh-_12345678"[rng.gen_range(0..18)]))
            .collect()
    }

    fn random_id(rng: &mut StdRng) -> Option<String> {
        rng.gen_bool(0.5)
            .then(|| rng.gen_range(0..100_000u32).to_string())
    }

    #[test]
    fn commands_round_trip() {
        let mut rng = StdRng::seed_from_u64(26);
        for _ in 0..3000 {
            let name = loop {
                let name = random_word(&mut rng);
                if !name.bytes().all(|b| b.is_ascii_digit()) {
                    break name;
                }
            };
            let command = GtpCommand {
                id: random_id(&mut rng),
                name,
                args: (0..rng.gen_range(0..4))
                    .map(|_| random_word(&mut rng))
                    .collect(),
            };
            let line = command.to_string();
            assert_eq!(parse_command(&line), Ok(Some(command)), "{line}");
        }
    }

    #[test]
    fn responses_round_trip() {
        let mut rng = StdRng::seed_from_u64(62);
        for _ in 0..3000 {
            let lines: Vec<String> = (0..rng.gen_range(1..4))
                .map(|_| {
                    let words: Vec<String> = (0..rng.gen_range(1..4))
                        .map(|_| random_word(&mut rng))
                        .collect();
                    words.join(" ")
                })
                .collect();
            let mut body = lines.join("\n");
            if rng.gen_bool(0.1) {
                body.clear();
            } else if rng.gen_bool(0.1) {
                body.insert(0, '\n');
            }
            let response = GtpResponse {
                id: random_id(&mut rng),
                result: if rng.gen() { Ok(body) } else { Err(body) },
            };
            let text = response.to_string();
            assert_eq!(GtpResponse::parse(&text), Some(response), "{text}");
        }
    }

    #[test]
    fn lines_are_cleaned_and_ids_kept() {
        assert_eq!(parse_command("  # a comment"), Ok(None));
        assert_eq!(
            parse_command("007\tplay b a1 # why"),
            Ok(Some(GtpCommand {
                id: Some("007".into()),
                name: "play".into(),
                args: vec!["b".into(), "a1".into()],
            }))
        );
        assert_eq!(
            parse_command("12"),
            Err(MissingCommand {
                id: Some("12".into())
            })
        );
        assert_eq!(
            parse_command("12abc").map(|c| c.map(|c| c.name)),
            Ok(Some("12abc".into()))
        );
        assert_eq!(
            GtpResponse::parse("=12 f6"),
            Some(GtpResponse {
                id: Some("12".into()),
                result: Ok("f6".into())
            })
        );
        let empty = GtpResponse {
            id: None,
            result: Ok(String::new()),
        };
        assert_eq!(empty.to_string(), "= \n");
    }

    #[test]
    fn the_colour_mirror_reflects_cells_only() {
        assert_eq!(colour_mirrored_cell("c4"), "d3");
        assert_eq!(colour_mirrored_cell("a11"), "k1");
        assert_eq!(colour_mirrored_cell("swap-pieces"), "swap-pieces");
        assert_eq!(colour_mirrored_cell("resign"), "resign");
    }

    #[test]
    fn swap_is_swap_pieces() {
        assert_eq!(to_gtp_move("swap"), "swap-pieces");
        assert_eq!(from_gtp_move("Swap-Pieces"), "swap");
        assert_eq!(from_gtp_move("F6"), "f6");
        assert_eq!(parse_colour("Black"), Some(Player::P1));
        assert_eq!(colour_name(Player::P2), "w");
    }
}
