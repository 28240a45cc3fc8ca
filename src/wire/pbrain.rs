//! The Gomocup (pbrain) protocol of Piskvork and its successors: the
//! manager's upper-case commands ([`PbrainCommand`], and the lines of a
//! `BOARD` block, [`BoardLine`], and of a `SWAP2BOARD` block,
//! [`Swap2Line`]), the brain's answers ([`PbrainReply`]), and `x,y`
//! points, 0-based with x the column (`0,0` is our a1).

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::take_till;
use nom::character::complete::{char, space0, space1};
use nom::combinator::{map, opt, rest, value};
use nom::multi::separated_list1;
use nom::sequence::{delimited, pair, preceded, separated_pair, terminated};
use nom::IResult;

use super::lex::{keyword, number, whole, word};

/// A board point: column `x` and row `y`, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Point {
    pub x: usize,
    pub y: usize,
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// A comma between blanks.
fn comma(input: &str) -> IResult<&str, char> {
    delimited(space0, char(','), space0)(input)
}

fn point(input: &str) -> IResult<&str, Point> {
    map(separated_pair(number, comma, number), |(x, y)| Point {
        x,
        y,
    })(input)
}

impl std::str::FromStr for Point {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        whole(point, text.trim()).ok_or_else(|| format!("'{text}' is not x,y"))
    }
}

/// A line from the manager, outside a `BOARD` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PbrainCommand {
    Start(usize),
    RectStart {
        width: usize,
        height: usize,
    },
    Restart,
    Begin,
    Turn(Point),
    /// Opens a block of [`BoardLine`]s.
    Board,
    /// Opens a block of [`Swap2Line`]s: the Swap2 opening's question.
    Swap2Board,
    Takeback(Point),
    Info {
        key: String,
        value: String,
    },
    End,
    About,
    /// `STOP` (or Yixin's `YXSTOP`): answer now.
    Stop,
}

/// What cannot be read as a command: the text of an `ERROR` or `UNKNOWN`
/// answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// `UNKNOWN command '<word>'`.
    Unknown(String),
    /// `ERROR <why>`.
    Malformed(String),
}

/// The words that open a Gomocup session (`STOP` only interrupts one).
pub const COMMANDS: [&str; 11] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "SWAP2BOARD",
    "TAKEBACK",
    "INFO",
    "END",
    "ABOUT",
];

/// `<name> x,y`, with the errors the engine has always given.
fn with_point(name: &str, argument: Option<&str>) -> Result<Point, CommandError> {
    let text = argument.ok_or_else(|| CommandError::Malformed(format!("{name} needs x,y")))?;
    text.parse().map_err(CommandError::Malformed)
}

/// Reads a command line (command words in any case; arguments a command
/// does not take are ignored).
pub fn parse_command(line: &str) -> Result<PbrainCommand, CommandError> {
    let mut words = line.split_whitespace();
    let command = words.next().unwrap_or_default();
    let argument = words.next();
    let malformed = |why: &str| Err(CommandError::Malformed(why.to_owned()));
    match command.to_ascii_uppercase().as_str() {
        "START" => match argument.and_then(|size| whole(number, size)) {
            Some(size) => Ok(PbrainCommand::Start(size)),
            None => malformed("START needs a board size"),
        },
        "RECTSTART" => match argument.and_then(|d| whole(separated_pair(number, comma, number), d))
        {
            Some((width, height)) => Ok(PbrainCommand::RectStart { width, height }),
            None => malformed("rectangular boards are not supported"),
        },
        "RESTART" => Ok(PbrainCommand::Restart),
        "BEGIN" => Ok(PbrainCommand::Begin),
        "TURN" => with_point("TURN", argument).map(PbrainCommand::Turn),
        "BOARD" => Ok(PbrainCommand::Board),
        "SWAP2BOARD" => Ok(PbrainCommand::Swap2Board),
        "TAKEBACK" => with_point("TAKEBACK", argument).map(PbrainCommand::Takeback),
        "INFO" => match whole(info, line.trim()) {
            Some(command) => Ok(command),
            None => malformed("INFO needs a key and a value"),
        },
        "END" => Ok(PbrainCommand::End),
        "ABOUT" => Ok(PbrainCommand::About),
        "STOP" | "YXSTOP" => Ok(PbrainCommand::Stop),
        _ => Err(CommandError::Unknown(command.to_owned())),
    }
}

/// `INFO <key> <value...>`.
fn info(input: &str) -> IResult<&str, PbrainCommand> {
    let (input, _) = keyword("INFO")(input)?;
    let (input, key) = preceded(space1, word)(input)?;
    let (input, value) = preceded(space1, rest)(input)?;
    let value = value.trim().to_owned();
    if value.is_empty() {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Space,
        )));
    }
    let key = key.to_owned();
    Ok((input, PbrainCommand::Info { key, value }))
}

impl fmt::Display for PbrainCommand {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PbrainCommand::Start(size) => write!(f, "START {size}"),
            PbrainCommand::RectStart { width, height } => write!(f, "RECTSTART {width},{height}"),
            PbrainCommand::Restart => f.write_str("RESTART"),
            PbrainCommand::Begin => f.write_str("BEGIN"),
            PbrainCommand::Turn(point) => write!(f, "TURN {point}"),
            PbrainCommand::Board => f.write_str("BOARD"),
            PbrainCommand::Swap2Board => f.write_str("SWAP2BOARD"),
            PbrainCommand::Takeback(point) => write!(f, "TAKEBACK {point}"),
            PbrainCommand::Info { key, value } => write!(f, "INFO {key} {value}"),
            PbrainCommand::End => f.write_str("END"),
            PbrainCommand::About => f.write_str("ABOUT"),
            PbrainCommand::Stop => f.write_str("STOP"),
        }
    }
}

/// Whose stone a `BOARD` line puts down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    /// `1`: the brain's own.
    Own,
    /// `2`: the opponent's.
    Opponent,
    /// `3`: a stone of a continuous game (Renju's opening), anyone's.
    Shared,
}

/// A line inside a `BOARD` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardLine {
    Stone(Point, Stone),
    Done,
}

fn stone(input: &str) -> IResult<&str, Stone> {
    alt((
        value(Stone::Own, char('1')),
        value(Stone::Opponent, char('2')),
        value(Stone::Shared, char('3')),
    ))(input)
}

fn board_line(input: &str) -> IResult<&str, BoardLine> {
    alt((
        value(BoardLine::Done, keyword("DONE")),
        map(separated_pair(point, comma, stone), |(p, s)| {
            BoardLine::Stone(p, s)
        }),
    ))(input)
}

/// Reads a line of a `BOARD` block; the error is an `ERROR` text.
pub fn parse_board_line(line: &str) -> Result<BoardLine, String> {
    let line = line.trim();
    whole(board_line, line).ok_or_else(|| format!("bad BOARD line '{line}' (x,y,1|2 expected)"))
}

impl fmt::Display for BoardLine {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BoardLine::Done => f.write_str("DONE"),
            BoardLine::Stone(point, stone) => {
                let who = match stone {
                    Stone::Own => 1,
                    Stone::Opponent => 2,
                    Stone::Shared => 3,
                };
                write!(f, "{point},{who}")
            }
        }
    }
}

/// A line inside a `SWAP2BOARD` block: the stones so far, in the order
/// they were placed (black, white, black, ...). Gomocup's protocol page
/// writes them `x,y`; Rapfi reads them as `BOARD` lines, `x,y,1|2` from the
/// asked brain's side, and refuses them without an owner. Both are read;
/// the owner, where given, is kept so that it can be checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Line {
    Stone(Point, Option<Stone>),
    Done,
}

/// Reads a line of a `SWAP2BOARD` block; the error is an `ERROR` text.
pub fn parse_swap2_line(line: &str) -> Result<Swap2Line, String> {
    let line = line.trim();
    let owned = map(separated_pair(point, comma, stone), |(p, s)| {
        Swap2Line::Stone(p, Some(s))
    });
    let swap2_line = alt((
        value(Swap2Line::Done, keyword("DONE")),
        owned,
        map(point, |p| Swap2Line::Stone(p, None)),
    ));
    whole(swap2_line, line)
        .ok_or_else(|| format!("bad SWAP2BOARD line '{line}' (x,y or x,y,1|2 expected)"))
}

impl fmt::Display for Swap2Line {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Swap2Line::Done => f.write_str("DONE"),
            Swap2Line::Stone(point, None) => point.fmt(f),
            Swap2Line::Stone(point, Some(stone)) => BoardLine::Stone(*point, *stone).fmt(f),
        }
    }
}

/// A line from the brain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PbrainReply {
    Ok,
    Move(Point),
    /// Two or three points on one line: a Swap2 answer (the first three
    /// stones, or the fourth and fifth).
    Moves(Vec<Point>),
    /// `SWAP`: the Swap2 answer that takes Black.
    Swap,
    Suggest(Point),
    Message(String),
    Debug(String),
    Error(String),
    Unknown(String),
    /// The answer to `ABOUT`: `name="x", version="y", ...`.
    About(Vec<(String, String)>),
}

impl PbrainReply {
    /// The `name` an `ABOUT` answer gives.
    pub fn about_name(&self) -> Option<&str> {
        match self {
            PbrainReply::About(fields) => fields
                .iter()
                .find(|(key, _)| key == "name")
                .map(|(_, value)| value.as_str()),
            _ => None,
        }
    }
}

/// `key="value"`.
fn about_field(input: &str) -> IResult<&str, (String, String)> {
    let key = take_till(|c: char| c == '=' || c == ',' || c.is_whitespace());
    let quoted = delimited(char('"'), take_till(|c| c == '"'), char('"'));
    map(
        separated_pair(key, char('='), quoted),
        |(k, v): (&str, &str)| (k.to_owned(), v.to_owned()),
    )(input)
}

fn reply(input: &str) -> IResult<&str, PbrainReply> {
    let text = |name: &'static str| {
        preceded(
            keyword(name),
            map(opt(preceded(space1, rest)), |t: Option<&str>| {
                t.unwrap_or_default().trim().to_owned()
            }),
        )
    };
    alt((
        value(PbrainReply::Ok, keyword("OK")),
        map(text("MESSAGE"), PbrainReply::Message),
        map(text("DEBUG"), PbrainReply::Debug),
        map(text("ERROR"), PbrainReply::Error),
        map(text("UNKNOWN"), PbrainReply::Unknown),
        map(
            preceded(pair(keyword("SUGGEST"), space1), point),
            PbrainReply::Suggest,
        ),
        value(PbrainReply::Swap, keyword("SWAP")),
        map(separated_list1(space1, point), |mut points| {
            if points.len() == 1 {
                PbrainReply::Move(points.remove(0))
            } else {
                PbrainReply::Moves(points)
            }
        }),
        map(
            separated_list1(terminated(char(','), space0), about_field),
            PbrainReply::About,
        ),
    ))(input)
}

/// Reads a brain's line; `None` when it is none of the answers.
pub fn parse_reply(line: &str) -> Option<PbrainReply> {
    whole(reply, line.trim())
}

impl fmt::Display for PbrainReply {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PbrainReply::Ok => f.write_str("OK"),
            PbrainReply::Move(point) => point.fmt(f),
            PbrainReply::Moves(points) => {
                let points: Vec<String> = points.iter().map(Point::to_string).collect();
                f.write_str(&points.join(" "))
            }
            PbrainReply::Swap => f.write_str("SWAP"),
            PbrainReply::Suggest(point) => write!(f, "SUGGEST {point}"),
            PbrainReply::Message(text) => write!(f, "MESSAGE {text}"),
            PbrainReply::Debug(text) => write!(f, "DEBUG {text}"),
            PbrainReply::Error(text) => write!(f, "ERROR {text}"),
            PbrainReply::Unknown(text) => write!(f, "UNKNOWN {text}"),
            PbrainReply::About(fields) => {
                let fields: Vec<String> = fields
                    .iter()
                    .map(|(key, value)| format!("{key}=\"{value}\""))
                    .collect();
                f.write_str(&fields.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests;
