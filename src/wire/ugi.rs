//! UCI and UGI (protocol/PROTOCOL.md): the commands a GUI or the referee
//! sends ([`Command`], with `go`'s [`GoParams`]) and the lines an engine
//! answers with ([`EngineLine`], with [`Info`] and [`OptionDeclaration`]).
//! Each has a `nom` reader and a `Display` writer; the round-trip tests
//! are in `ugi/tests.rs`.

mod command;
mod engine_line;
#[cfg(test)]
mod tests;

pub use command::{parse_command, Command, GoParams};
pub use engine_line::{parse_engine_line, Bound, EngineLine, Info, OptionDeclaration, Wdl};

use nom::character::complete::space1;
use nom::combinator::verify;
use nom::multi::many0;
use nom::sequence::preceded;
use nom::IResult;

use super::lex::word;

/// Words up to (not including) any of `stops`, each after blanks.
fn words_until<'a>(
    stops: &'static [&'static str],
) -> impl FnMut(&'a str) -> IResult<&'a str, Vec<&'a str>> {
    many0(preceded(
        space1,
        verify(word, move |w: &str| {
            !stops.iter().any(|stop| stop.eq_ignore_ascii_case(w))
        }),
    ))
}
