//! Parsing of UCI/UGI command lines into [`Command`]s.

use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_till1};
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, map, map_res, opt, rest, value};
use nom::multi::{many0, separated_list0};
use nom::sequence::{preceded, terminated};
use nom::IResult;

/// The parameters of `go`, before they are turned into search limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub perft: Option<u32>,
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci` or `ugi`; the flag remembers which, for the matching `...ok`.
    Hello {
        ugi: bool,
    },
    IsReady,
    NewGame,
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
    Query(String),
    Display,
    Eval,
    Bench(Option<u32>),
    /// Blank line: nothing to do.
    Empty,
}

/// Parses one line. The error is a message for `info string error: ...`.
pub fn parse_command(line: &str) -> Result<Command, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(Command::Empty);
    }
    let keyword = line
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let parsed = match keyword.as_str() {
        "uci" | "ugi" | "isready" | "ucinewgame" | "uginewgame" | "stop" | "ponderhit" | "quit"
        | "d" | "eval" => all_consuming(simple_command)(line).map(|(_, c)| c),
        "setoption" => all_consuming(setoption)(line).map(|(_, c)| c),
        "position" => all_consuming(position)(line).map(|(_, c)| c),
        "go" => all_consuming(go)(line).map(|(_, c)| c),
        "query" => all_consuming(query)(line).map(|(_, c)| c),
        "bench" => all_consuming(bench)(line).map(|(_, c)| c),
        _ => return Err(format!("unknown command '{keyword}'")),
    };
    parsed.map_err(|_| format!("malformed command '{line}'"))
}

fn word(input: &str) -> IResult<&str, &str> {
    take_till1(|c: char| c.is_whitespace())(input)
}

fn number<T: std::str::FromStr>(input: &str) -> IResult<&str, T> {
    map_res(digit1, str::parse)(input)
}

fn simple_command(input: &str) -> IResult<&str, Command> {
    // Each keyword must be the whole line: "uci" must not take "ucinewgame".
    let keyword = |name: &'static str, command: Command| {
        value(
            command,
            all_consuming(terminated(tag_no_case(name), space0)),
        )
    };
    alt((
        keyword("uci", Command::Hello { ugi: false }),
        keyword("ugi", Command::Hello { ugi: true }),
        keyword("isready", Command::IsReady),
        keyword("ucinewgame", Command::NewGame),
        keyword("uginewgame", Command::NewGame),
        keyword("stop", Command::Stop),
        keyword("ponderhit", Command::PonderHit),
        keyword("quit", Command::Quit),
        keyword("d", Command::Display),
        keyword("eval", Command::Eval),
    ))(input)
}

/// `setoption name <words...> [value <words...>]`; names may hold spaces.
fn setoption(input: &str) -> IResult<&str, Command> {
    let (input, _) = tag_no_case("setoption")(input)?;
    let (input, _) = preceded(space1, tag_no_case("name"))(input)?;
    let (input, _) = space1(input)?;
    let (name, value) = match find_word(input, "value") {
        Some(at) => (input[..at].trim(), input[at + "value".len()..].trim()),
        None => (input.trim(), ""),
    };
    if name.is_empty() {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Alpha,
        )));
    }
    Ok((
        "",
        Command::SetOption {
            name: name.to_string(),
            value: value.to_string(),
        },
    ))
}

/// Byte offset of `needle` as a whole whitespace-separated word in `haystack`.
fn find_word(haystack: &str, needle: &str) -> Option<usize> {
    let mut offset = 0;
    for token in haystack.split_inclusive(char::is_whitespace) {
        if token.trim().eq_ignore_ascii_case(needle) {
            return Some(offset);
        }
        offset += token.len();
    }
    None
}

/// `position (startpos | fen <fen...>) [moves m1 m2 ...]`.
fn position(input: &str) -> IResult<&str, Command> {
    let (input, _) = terminated(tag_no_case("position"), space1)(input)?;
    let (body, kind) = alt((tag_no_case("startpos"), tag_no_case("fen")))(input)?;
    let (fen_part, moves_part) = match find_word(body, "moves") {
        Some(at) => (&body[..at], Some(&body[at + "moves".len()..])),
        None => (body, None),
    };
    let fen = if kind.eq_ignore_ascii_case("fen") {
        let fen = fen_part.trim();
        if fen.is_empty() {
            return Err(nom::Err::Error(nom::error::Error::new(
                body,
                nom::error::ErrorKind::Alpha,
            )));
        }
        Some(fen.to_string())
    } else {
        if !fen_part.trim().is_empty() {
            return Err(nom::Err::Error(nom::error::Error::new(
                body,
                nom::error::ErrorKind::Alpha,
            )));
        }
        None
    };
    let moves = match moves_part {
        Some(list) => {
            let (_, moves) = all_consuming(preceded(
                space0,
                terminated(separated_list0(space1, word), space0),
            ))(list)?;
            moves.into_iter().map(str::to_string).collect()
        }
        None => Vec::new(),
    };
    Ok(("", Command::Position { fen, moves }))
}

#[derive(Clone)]
enum GoToken {
    Depth(u32),
    Nodes(u64),
    MoveTime(u64),
    Infinite,
    Perft(u32),
    Mate(u32),
    Time(&'static str, u64),
    MovesToGo(u32),
    Ponder,
    SearchMoves(Vec<String>),
}

/// The words `go` knows: where a `searchmoves` list ends.
const GO_KEYWORDS: [&str; 17] = [
    "depth",
    "nodes",
    "movetime",
    "movestogo",
    "perft",
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

fn move_word(input: &str) -> IResult<&str, &str> {
    let (rest, text) = word(input)?;
    if GO_KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(text)) {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Tag,
        )));
    }
    Ok((rest, text))
}

/// `searchmoves` and at least one move, up to the next keyword.
fn search_moves(input: &str) -> IResult<&str, GoToken> {
    let (input, _) = tag_no_case("searchmoves")(input)?;
    let (input, first) = preceded(space1, move_word)(input)?;
    let (input, more) = many0(preceded(space1, move_word))(input)?;
    let moves = std::iter::once(first)
        .chain(more)
        .map(str::to_string)
        .collect();
    Ok((input, GoToken::SearchMoves(moves)))
}

fn go_token(input: &str) -> IResult<&str, GoToken> {
    let timed = |name: &'static str| {
        map(
            preceded(terminated(tag_no_case(name), space1), number::<u64>),
            move |n| GoToken::Time(name, n),
        )
    };
    preceded(
        space1,
        alt((
            map(
                preceded(terminated(tag_no_case("depth"), space1), number),
                GoToken::Depth,
            ),
            map(
                preceded(terminated(tag_no_case("nodes"), space1), number),
                GoToken::Nodes,
            ),
            map(
                preceded(terminated(tag_no_case("movetime"), space1), number),
                GoToken::MoveTime,
            ),
            map(
                preceded(terminated(tag_no_case("movestogo"), space1), number),
                GoToken::MovesToGo,
            ),
            map(
                preceded(terminated(tag_no_case("perft"), space1), number),
                GoToken::Perft,
            ),
            map(
                preceded(terminated(tag_no_case("mate"), space1), number),
                GoToken::Mate,
            ),
            value(GoToken::Infinite, tag_no_case("infinite")),
            value(GoToken::Ponder, tag_no_case("ponder")),
            search_moves,
            alt((timed("wtime"), timed("btime"), timed("winc"), timed("binc"))),
            alt((
                timed("p1time"),
                timed("p2time"),
                timed("p1inc"),
                timed("p2inc"),
            )),
        )),
    )(input)
}

fn go(input: &str) -> IResult<&str, Command> {
    let (input, _) = tag_no_case("go")(input)?;
    let (input, tokens) = terminated(many0(go_token), space0)(input)?;
    let mut params = GoParams::default();
    for token in tokens {
        match token {
            GoToken::Depth(n) => params.depth = Some(n),
            GoToken::Nodes(n) => params.nodes = Some(n),
            GoToken::MoveTime(n) => params.movetime = Some(n),
            GoToken::Infinite => params.infinite = true,
            GoToken::Perft(n) => params.perft = Some(n),
            GoToken::Mate(n) => params.mate = Some(n),
            GoToken::MovesToGo(n) => params.movestogo = Some(n),
            GoToken::Ponder => params.ponder = true,
            GoToken::SearchMoves(moves) => params.searchmoves.extend(moves),
            GoToken::Time(name, n) => {
                let slot = match name {
                    "wtime" => &mut params.wtime,
                    "btime" => &mut params.btime,
                    "winc" => &mut params.winc,
                    "binc" => &mut params.binc,
                    "p1time" => &mut params.p1time,
                    "p2time" => &mut params.p2time,
                    "p1inc" => &mut params.p1inc,
                    _ => &mut params.p2inc,
                };
                *slot = Some(n);
            }
        }
    }
    Ok((input, Command::Go(params)))
}

fn query(input: &str) -> IResult<&str, Command> {
    let (input, _) = terminated(tag_no_case("query"), space1)(input)?;
    map(rest, |what: &str| {
        Command::Query(what.trim().to_ascii_lowercase())
    })(input)
}

fn bench(input: &str) -> IResult<&str, Command> {
    let (input, _) = tag_no_case("bench")(input)?;
    let (input, depth) = terminated(opt(preceded(space1, number)), space0)(input)?;
    Ok((input, Command::Bench(depth)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_position_with_fen_and_moves() {
        let command = parse_command("position fen 8/8 w 0 1 moves a2a3 b7b6").expect("valid");
        assert_eq!(
            command,
            Command::Position {
                fen: Some("8/8 w 0 1".into()),
                moves: vec!["a2a3".into(), "b7b6".into()]
            }
        );
    }

    #[test]
    fn parses_startpos_without_moves() {
        assert_eq!(
            parse_command("position startpos"),
            Ok(Command::Position {
                fen: None,
                moves: vec![]
            })
        );
        assert_eq!(
            parse_command("position startpos moves"),
            Ok(Command::Position {
                fen: None,
                moves: vec![]
            })
        );
    }

    #[test]
    fn rejects_malformed_position() {
        assert!(parse_command("position").is_err());
        assert!(parse_command("position fen").is_err());
        assert!(parse_command("position startpos e2e4").is_err());
        assert!(parse_command("position middle").is_err());
    }

    #[test]
    fn parses_go_parameters() {
        let Ok(Command::Go(params)) =
            parse_command("go wtime 1000 btime 2000 winc 10 movestogo 5 depth 7")
        else {
            panic!("go should parse");
        };
        assert_eq!(
            (
                params.wtime,
                params.btime,
                params.winc,
                params.movestogo,
                params.depth
            ),
            (Some(1000), Some(2000), Some(10), Some(5), Some(7))
        );
        let Ok(Command::Go(params)) = parse_command("go p1time 500 p2time 400 p1inc 5 p2inc 6")
        else {
            panic!("ugi go should parse");
        };
        assert_eq!(
            (params.p1time, params.p2time, params.p1inc, params.p2inc),
            (Some(500), Some(400), Some(5), Some(6))
        );
        let Ok(Command::Go(params)) =
            parse_command("go searchmoves a2a3 b2b3 ponder movetime 50 searchmoves c2c3")
        else {
            panic!("searchmoves and ponder should parse");
        };
        assert_eq!(params.searchmoves, ["a2a3", "b2b3", "c2c3"]);
        assert!(params.ponder);
        assert_eq!(params.movetime, Some(50));
        assert!(parse_command("go searchmoves").is_err());
        assert!(parse_command("go searchmoves depth 3").is_err());
        assert_eq!(parse_command("ponderhit"), Ok(Command::PonderHit));
        assert!(parse_command("ponderhit now").is_err());
        assert!(parse_command("go depth").is_err());
        assert!(parse_command("go depth -3").is_err());
        assert!(parse_command("go sideways 3").is_err());
    }

    #[test]
    fn parses_setoption_with_spaces_in_name() {
        assert_eq!(
            parse_command("setoption name Move Overhead value 30"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: "30".into()
            })
        );
        assert!(parse_command("setoption value 3").is_err());
    }

    #[test]
    fn keywords_must_stand_alone() {
        assert!(parse_command("ucix").is_err());
        assert!(parse_command("isready now").is_err());
        assert_eq!(parse_command("ugi"), Ok(Command::Hello { ugi: true }));
        assert_eq!(parse_command("ucinewgame"), Ok(Command::NewGame));
        assert_eq!(parse_command("uginewgame"), Ok(Command::NewGame));
        assert_eq!(parse_command("  "), Ok(Command::Empty));
    }
}
