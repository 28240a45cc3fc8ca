//! The commands a GUI or the referee sends: [`Command`], with `go`'s
//! [`GoParams`].

use std::fmt;

use nom::branch::alt;
use nom::character::complete::space1;
use nom::combinator::{map, opt, rest, value, verify};
use nom::multi::many0;
use nom::sequence::{pair, preceded};
use nom::IResult;

use super::words_until;
use crate::wire::lex::{keyword, number, whole, word};

/// The parameters of `go`, before the engine turns them into search limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub perft: Option<u32>,
    /// `go perft N strict`: count only positions exactly N plies deep.
    pub strict: bool,
    /// `go mate N`: prove a forced win within N moves.
    pub mate: Option<u32>,
    /// Milliseconds left and increment for player 1 and player 2 (`wtime` is
    /// player 1 in a game whose first player is White, else `btime` is).
    pub p1time: Option<u64>,
    pub p2time: Option<u64>,
    pub p1inc: Option<u64>,
    pub p2inc: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    /// `go ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `go searchmoves m1 m2 ...`: only these root moves.
    pub searchmoves: Vec<String>,
}

/// A line from the GUI (or referee) to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci` or `ugi`; the flag remembers which, for the matching `...ok`.
    Hello {
        ugi: bool,
    },
    IsReady,
    /// `ucinewgame` or `uginewgame`.
    NewGame {
        ugi: bool,
    },
    /// An empty value is a button press: `setoption name X`.
    SetOption {
        name: String,
        value: String,
    },
    /// `fen` is `None` for `startpos`.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    /// The opponent played the move the engine is pondering on.
    PonderHit,
    Quit,
    /// `query <what>`, `what` in lower case.
    Query(String),
    /// `d`: draw the board.
    Display,
    Eval,
    Bench(Option<u32>),
    /// Blank line: nothing to do.
    Empty,
}

/// Parses one command line. The error is a message for
/// `info string error: ...`.
pub fn parse_command(line: &str) -> Result<Command, String> {
    let line = line.trim();
    let Some(first) = line.split_whitespace().next() else {
        return Ok(Command::Empty);
    };
    let keyword = first.to_ascii_lowercase();
    let parser = match keyword.as_str() {
        "uci" | "ugi" | "isready" | "ucinewgame" | "uginewgame" | "stop" | "ponderhit" | "quit"
        | "d" | "eval" => simple_command,
        "setoption" => setoption,
        "position" => position,
        "go" => go,
        "query" => query,
        "bench" => bench,
        _ => return Err(format!("unknown command '{keyword}'")),
    };
    whole(parser, line).ok_or_else(|| format!("malformed command '{line}'"))
}

impl std::str::FromStr for Command {
    type Err = String;

    fn from_str(line: &str) -> Result<Self, String> {
        parse_command(line)
    }
}

fn simple_command(input: &str) -> IResult<&str, Command> {
    let named = |name: &'static str, command: Command| value(command, keyword(name));
    alt((
        named("uci", Command::Hello { ugi: false }),
        named("ugi", Command::Hello { ugi: true }),
        named("isready", Command::IsReady),
        named("ucinewgame", Command::NewGame { ugi: false }),
        named("uginewgame", Command::NewGame { ugi: true }),
        named("stop", Command::Stop),
        named("ponderhit", Command::PonderHit),
        named("quit", Command::Quit),
        named("d", Command::Display),
        named("eval", Command::Eval),
    ))(input)
}

/// `setoption name <words...> [value <words...>]`; names may hold spaces.
fn setoption(input: &str) -> IResult<&str, Command> {
    let (input, _) = keyword("setoption")(input)?;
    let (input, _) = preceded(space1, keyword("name"))(input)?;
    let (input, name) = verify(words_until(&["value"]), |w: &[&str]| !w.is_empty())(input)?;
    let (input, value) = opt(preceded(pair(space1, keyword("value")), rest))(input)?;
    let command = Command::SetOption {
        name: name.join(" "),
        value: value.unwrap_or_default().trim().to_owned(),
    };
    Ok((input, command))
}

/// `position (startpos | fen <fen...>) [moves m1 m2 ...]`.
fn position(input: &str) -> IResult<&str, Command> {
    let (input, _) = keyword("position")(input)?;
    let fen_words = verify(words_until(&["moves"]), |w: &[&str]| !w.is_empty());
    let (input, fen) = preceded(
        space1,
        alt((
            value(None, keyword("startpos")),
            map(preceded(keyword("fen"), fen_words), |w| Some(w.join(" "))),
        )),
    )(input)?;
    let (input, moves) = opt(preceded(
        pair(space1, keyword("moves")),
        many0(preceded(space1, word)),
    ))(input)?;
    let moves = moves.unwrap_or_default().into_iter().map(str::to_owned);
    let command = Command::Position {
        fen,
        moves: moves.collect(),
    };
    Ok((input, command))
}

/// The words `go` knows: where a `searchmoves` list ends.
pub(super) const GO_KEYWORDS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "movestogo",
    "perft",
    "strict",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
];

/// One `go` parameter, applied to the parameters read so far.
type GoSetter = Box<dyn FnOnce(&mut GoParams)>;

/// `name N`, setting the field `slot` chooses.
fn go_number<'a, T: std::str::FromStr + 'static>(
    name: &'static str,
    slot: fn(&mut GoParams) -> &mut Option<T>,
) -> impl FnMut(&'a str) -> IResult<&'a str, GoSetter> {
    map(
        preceded(pair(keyword(name), space1), number::<T>),
        move |n| -> GoSetter { Box::new(move |p| *slot(p) = Some(n)) },
    )
}

/// `searchmoves` and at least one move, up to the next keyword.
fn search_moves(input: &str) -> IResult<&str, GoSetter> {
    let (input, _) = keyword("searchmoves")(input)?;
    let (input, moves) = verify(words_until(GO_KEYWORDS), |w: &[&str]| !w.is_empty())(input)?;
    let moves: Vec<String> = moves.into_iter().map(str::to_owned).collect();
    Ok((input, Box::new(move |p| p.searchmoves.extend(moves))))
}

fn go_token(input: &str) -> IResult<&str, GoSetter> {
    let flag = |name: &'static str, slot: fn(&mut GoParams) -> &mut bool| {
        map(keyword(name), move |_| -> GoSetter {
            Box::new(move |p| *slot(p) = true)
        })
    };
    alt((
        go_number("depth", |p| &mut p.depth),
        go_number("nodes", |p| &mut p.nodes),
        go_number("movetime", |p| &mut p.movetime),
        go_number("movestogo", |p| &mut p.movestogo),
        go_number("perft", |p| &mut p.perft),
        go_number("mate", |p| &mut p.mate),
        flag("infinite", |p| &mut p.infinite),
        flag("strict", |p| &mut p.strict),
        flag("ponder", |p| &mut p.ponder),
        search_moves,
        alt((
            go_number("wtime", |p| &mut p.wtime),
            go_number("btime", |p| &mut p.btime),
            go_number("winc", |p| &mut p.winc),
            go_number("binc", |p| &mut p.binc),
            go_number("p1time", |p| &mut p.p1time),
            go_number("p2time", |p| &mut p.p2time),
            go_number("p1inc", |p| &mut p.p1inc),
            go_number("p2inc", |p| &mut p.p2inc),
        )),
    ))(input)
}

fn go(input: &str) -> IResult<&str, Command> {
    let (input, _) = keyword("go")(input)?;
    let (input, setters) = many0(preceded(space1, go_token))(input)?;
    let mut params = GoParams::default();
    for set in setters {
        set(&mut params);
    }
    Ok((input, Command::Go(params)))
}

fn query(input: &str) -> IResult<&str, Command> {
    let (input, _) = pair(keyword("query"), space1)(input)?;
    map(rest, |what: &str| {
        Command::Query(what.trim().to_ascii_lowercase())
    })(input)
}

fn bench(input: &str) -> IResult<&str, Command> {
    let (input, _) = keyword("bench")(input)?;
    map(opt(preceded(space1, number)), Command::Bench)(input)
}

impl fmt::Display for GoParams {
    /// `go` and the parameters, in the order the referee has always sent
    /// them.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("movetime", self.movetime),
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("p1time", self.p1time),
            ("p2time", self.p2time),
            ("winc", self.winc),
            ("binc", self.binc),
            ("p1inc", self.p1inc),
            ("p2inc", self.p2inc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("mate", self.mate.map(u64::from)),
            ("perft", self.perft.map(u64::from)),
        ];
        for (name, n) in numbers {
            if let Some(n) = n {
                write!(f, " {name} {n}")?;
            }
        }
        if self.strict {
            f.write_str(" strict")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let dialect = |ugi: bool| if ugi { "ugi" } else { "uci" };
        match self {
            Command::Hello { ugi } => f.write_str(dialect(*ugi)),
            Command::IsReady => f.write_str("isready"),
            Command::NewGame { ugi } => write!(f, "{}newgame", dialect(*ugi)),
            Command::SetOption { name, value } if value.is_empty() => {
                write!(f, "setoption name {name}")
            }
            Command::SetOption { name, value } => write!(f, "setoption name {name} value {value}"),
            Command::Position { fen, moves } => {
                match fen {
                    Some(fen) => write!(f, "position fen {fen}")?,
                    None => f.write_str("position startpos")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(params) => params.fmt(f),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Query(what) => write!(f, "query {what}"),
            Command::Display => f.write_str("d"),
            Command::Eval => f.write_str("eval"),
            Command::Bench(None) => f.write_str("bench"),
            Command::Bench(Some(depth)) => write!(f, "bench {depth}"),
            Command::Empty => Ok(()),
        }
    }
}
