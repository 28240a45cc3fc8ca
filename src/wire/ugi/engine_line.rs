//! The lines an engine answers with: [`EngineLine`], with [`Info`] and
//! [`OptionDeclaration`].

use std::fmt;

use nom::branch::alt;
use nom::character::complete::space1;
use nom::combinator::{map, opt, rest, value, verify};
use nom::multi::many0;
use nom::sequence::{pair, preceded};
use nom::IResult;

use super::words_until;
use crate::wire::lex::{keyword, number, signed, whole, word};
use crate::wire::score::{score, Score};

/// `lowerbound` or `upperbound` after a score: the true score is at least
/// or at most it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Lower,
    Upper,
}

/// Win, draw and loss chances in permille (`wdl W D L`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// An `info` line: what a search reports. Every field is optional; `pv`
/// and `string` take the rest of the line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub bound: Option<Bound>,
    pub wdl: Option<Wdl>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    /// Milliseconds since the search started.
    pub time: Option<u64>,
    pub hashfull: Option<u32>,
    pub pv: Vec<String>,
    /// `info string ...`: free text.
    pub string: Option<String>,
}

impl Info {
    /// `info string <text>`.
    pub fn text(text: impl Into<String>) -> Self {
        Info {
            string: Some(text.into()),
            ..Info::default()
        }
    }
}

/// One `info` field, applied to the fields read so far.
type InfoSetter<'a> = Box<dyn FnOnce(&mut Info) + 'a>;

fn info_number<'a, T: std::str::FromStr + 'a>(
    name: &'static str,
    slot: fn(&mut Info) -> &mut Option<T>,
) -> impl FnMut(&'a str) -> IResult<&'a str, InfoSetter<'a>> {
    map(
        preceded(pair(keyword(name), space1), number::<T>),
        move |n| -> InfoSetter<'a> { Box::new(move |info| *slot(info) = Some(n)) },
    )
}

fn info_score(input: &str) -> IResult<&str, InfoSetter<'_>> {
    let bound = alt((
        value(Bound::Lower, keyword("lowerbound")),
        value(Bound::Upper, keyword("upperbound")),
    ));
    let (input, _) = pair(keyword("score"), space1)(input)?;
    let (input, (score, bound)) = pair(score, opt(preceded(space1, bound)))(input)?;
    Ok((
        input,
        Box::new(move |info| {
            info.score = Some(score);
            info.bound = bound;
        }),
    ))
}

fn info_wdl(input: &str) -> IResult<&str, InfoSetter<'_>> {
    let (input, _) = keyword("wdl")(input)?;
    let (input, win) = preceded(space1, number)(input)?;
    let (input, draw) = preceded(space1, number)(input)?;
    let (input, loss) = preceded(space1, number)(input)?;
    let wdl = Wdl { win, draw, loss };
    Ok((input, Box::new(move |info| info.wdl = Some(wdl))))
}

fn info_pv(input: &str) -> IResult<&str, InfoSetter<'_>> {
    let (input, _) = keyword("pv")(input)?;
    let (input, moves) = words_until(&["string"])(input)?;
    let pv = moves.into_iter().map(str::to_owned).collect();
    Ok((input, Box::new(move |info| info.pv = pv)))
}

fn info_string(input: &str) -> IResult<&str, InfoSetter<'_>> {
    let (input, text) = preceded(keyword("string"), rest)(input)?;
    let text = text.trim().to_owned();
    Ok((input, Box::new(move |info| info.string = Some(text))))
}

/// A word this reader does not know (`currmove`, `tbhits`, ...): skipped,
/// so that other engines' lines still give what they can.
fn unknown_word(input: &str) -> IResult<&str, InfoSetter<'_>> {
    map(word, |_| -> InfoSetter { Box::new(|_| {}) })(input)
}

fn info_field(input: &str) -> IResult<&str, InfoSetter<'_>> {
    alt((
        info_number("depth", |i| &mut i.depth),
        info_number("seldepth", |i| &mut i.seldepth),
        info_number("multipv", |i| &mut i.multipv),
        info_score,
        info_wdl,
        info_number("nodes", |i| &mut i.nodes),
        info_number("nps", |i| &mut i.nps),
        info_number("time", |i| &mut i.time),
        info_number("hashfull", |i| &mut i.hashfull),
        info_pv,
        info_string,
        unknown_word,
    ))(input)
}

fn info(input: &str) -> IResult<&str, Info> {
    let (input, _) = keyword("info")(input)?;
    let (input, setters) = many0(preceded(space1, info_field))(input)?;
    let mut info = Info::default();
    for set in setters {
        set(&mut info);
    }
    Ok((input, info))
}

impl fmt::Display for Info {
    /// The fields in UCI's usual order, `pv` and `string` last.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("info")?;
        let field = |f: &mut fmt::Formatter, name: &str, n: Option<u64>| match n {
            Some(n) => write!(f, " {name} {n}"),
            None => Ok(()),
        };
        field(f, "depth", self.depth.map(u64::from))?;
        field(f, "seldepth", self.seldepth.map(u64::from))?;
        field(f, "multipv", self.multipv.map(u64::from))?;
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
        }
        match self.bound {
            Some(Bound::Lower) => f.write_str(" lowerbound")?,
            Some(Bound::Upper) => f.write_str(" upperbound")?,
            None => {}
        }
        if let Some(Wdl { win, draw, loss }) = self.wdl {
            write!(f, " wdl {win} {draw} {loss}")?;
        }
        field(f, "nodes", self.nodes)?;
        field(f, "nps", self.nps)?;
        field(f, "time", self.time)?;
        field(f, "hashfull", self.hashfull.map(u64::from))?;
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}

/// An `option name N type T [default D] [min A] [max B] [var V]...` line.
/// The type is kept as a word, so that other engines' declarations are read
/// whatever they hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionDeclaration {
    pub name: String,
    /// `spin`, `check`, `combo`, `string`, `button`.
    pub kind: String,
    /// May be empty: `type string default ` declares an empty text.
    pub default: Option<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// A combo's choices.
    pub vars: Vec<String>,
}

pub(super) const OPTION_KEYWORDS: &[&str] = &["default", "min", "max", "var"];

/// One `default`, `min`, `max` or `var` field of an option declaration.
type OptionSetter<'a> = Box<dyn FnOnce(&mut OptionDeclaration) + 'a>;

fn option_field(input: &str) -> IResult<&str, OptionSetter<'_>> {
    let text = |name: &'static str| preceded(keyword(name), words_until(OPTION_KEYWORDS));
    let bound = |name: &'static str| preceded(pair(keyword(name), space1), signed::<i64>);
    alt((
        map(text("default"), |w| -> OptionSetter {
            Box::new(move |o| o.default = Some(w.join(" ")))
        }),
        map(bound("min"), |n| -> OptionSetter {
            Box::new(move |o| o.min = Some(n))
        }),
        map(bound("max"), |n| -> OptionSetter {
            Box::new(move |o| o.max = Some(n))
        }),
        map(text("var"), |w| -> OptionSetter {
            Box::new(move |o| o.vars.push(w.join(" ")))
        }),
        map(word, |_| -> OptionSetter { Box::new(|_| {}) }),
    ))(input)
}

fn option_declaration(input: &str) -> IResult<&str, OptionDeclaration> {
    let (input, _) = pair(keyword("option"), pair(space1, keyword("name")))(input)?;
    let (input, name) = verify(words_until(&["type"]), |w: &[&str]| !w.is_empty())(input)?;
    let (input, kind) = preceded(pair(space1, keyword("type")), preceded(space1, word))(input)?;
    let (input, setters) = many0(preceded(space1, option_field))(input)?;
    let mut option = OptionDeclaration {
        name: name.join(" "),
        kind: kind.to_owned(),
        ..OptionDeclaration::default()
    };
    for set in setters {
        set(&mut option);
    }
    Ok((input, option))
}

impl fmt::Display for OptionDeclaration {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "option name {} type {}", self.name, self.kind)?;
        if let Some(default) = &self.default {
            write!(f, " default {default}")?;
        }
        if let Some(min) = self.min {
            write!(f, " min {min}")?;
        }
        if let Some(max) = self.max {
            write!(f, " max {max}")?;
        }
        for var in &self.vars {
            write!(f, " var {var}")?;
        }
        Ok(())
    }
}

/// A line from the engine to the GUI (or referee).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    IdName(String),
    IdAuthor(String),
    Option(OptionDeclaration),
    /// `uciok` or `ugiok`.
    HelloOk {
        ugi: bool,
    },
    ReadyOk,
    BestMove {
        mv: String,
        ponder: Option<String>,
    },
    Info(Info),
    /// `response <answer>` to a `query`.
    Response(String),
}

fn trimmed_rest(input: &str) -> IResult<&str, String> {
    map(rest, |text: &str| text.trim().to_owned())(input)
}

fn best_move(input: &str) -> IResult<&str, EngineLine> {
    let (input, mv) = preceded(pair(keyword("bestmove"), space1), word)(input)?;
    let (input, ponder) = opt(preceded(
        pair(space1, pair(keyword("ponder"), space1)),
        word,
    ))(input)?;
    let line = EngineLine::BestMove {
        mv: mv.to_owned(),
        ponder: ponder.map(str::to_owned),
    };
    Ok((input, line))
}

fn engine_line(input: &str) -> IResult<&str, EngineLine> {
    let id = |field: &'static str| {
        preceded(
            pair(keyword("id"), pair(space1, keyword(field))),
            trimmed_rest,
        )
    };
    alt((
        map(id("name"), EngineLine::IdName),
        map(id("author"), EngineLine::IdAuthor),
        map(option_declaration, EngineLine::Option),
        value(EngineLine::HelloOk { ugi: false }, keyword("uciok")),
        value(EngineLine::HelloOk { ugi: true }, keyword("ugiok")),
        value(EngineLine::ReadyOk, keyword("readyok")),
        best_move,
        map(info, EngineLine::Info),
        map(
            preceded(keyword("response"), trimmed_rest),
            EngineLine::Response,
        ),
    ))(input)
}

/// Reads an engine's line; `None` for what is not a protocol line (a board
/// drawing, perft counts, a malformed `bestmove`, ...).
pub fn parse_engine_line(line: &str) -> Option<EngineLine> {
    whole(engine_line, line.trim())
}

impl fmt::Display for EngineLine {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            EngineLine::IdName(name) => write!(f, "id name {name}"),
            EngineLine::IdAuthor(author) => write!(f, "id author {author}"),
            EngineLine::Option(option) => option.fmt(f),
            EngineLine::HelloOk { ugi: true } => f.write_str("ugiok"),
            EngineLine::HelloOk { ugi: false } => f.write_str("uciok"),
            EngineLine::ReadyOk => f.write_str("readyok"),
            EngineLine::BestMove { mv, ponder: None } => write!(f, "bestmove {mv}"),
            EngineLine::BestMove {
                mv,
                ponder: Some(reply),
            } => write!(f, "bestmove {mv} ponder {reply}"),
            EngineLine::Info(info) => info.fmt(f),
            EngineLine::Response(answer) => write!(f, "response {answer}"),
        }
    }
}
