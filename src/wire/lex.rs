//! The small `nom` pieces every wire format is built from.

use nom::bytes::complete::{tag_no_case, take_till1};
use nom::character::complete::{char, digit1, space0};
use nom::combinator::{all_consuming, map_res, not, opt, peek, recognize};
use nom::sequence::{pair, terminated};
use nom::IResult;

/// One whitespace-free word.
pub fn word(input: &str) -> IResult<&str, &str> {
    take_till1(char::is_whitespace)(input)
}

/// An unsigned decimal number.
pub fn number<T: std::str::FromStr>(input: &str) -> IResult<&str, T> {
    map_res(digit1, str::parse)(input)
}

/// A decimal number with an optional minus sign.
pub fn signed<T: std::str::FromStr>(input: &str) -> IResult<&str, T> {
    map_res(recognize(pair(opt(char('-')), digit1)), str::parse)(input)
}

/// `name` as a whole word, any case: `go` does not match the start of
/// `gomoku`.
pub fn keyword<'a>(name: &'static str) -> impl FnMut(&'a str) -> IResult<&'a str, &'a str> {
    terminated(tag_no_case(name), peek(not(word)))
}

/// Runs `parser` over the whole of `input` (trailing blanks allowed).
pub fn whole<'a, T>(
    parser: impl FnMut(&'a str) -> IResult<&'a str, T>,
    input: &'a str,
) -> Option<T> {
    all_consuming(terminated(parser, space0))(input)
        .ok()
        .map(|(_, value)| value)
}
