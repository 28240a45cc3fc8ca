//! A search score as UCI prints it: `cp N` (centipawns, or the game's own
//! unit, for the side to move) or `mate N` (moves to a forced win, negative
//! when the side to move is the one mated).

use std::fmt;
use std::str::FromStr;

use nom::branch::alt;
use nom::character::complete::space1;
use nom::combinator::map;
use nom::sequence::preceded;
use nom::IResult;

use super::lex::{keyword, signed, whole};
use crate::core::control::mate_distance_in_moves;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    Mate(i32),
}

impl Score {
    /// The wire form of a search score: mate scores become moves to mate.
    pub fn from_search(score: crate::core::Score) -> Self {
        match mate_distance_in_moves(score) {
            Some(moves) => Score::Mate(moves),
            None => Score::Centipawns(score),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Score::Centipawns(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

/// `cp N` or `mate N`.
pub fn score(input: &str) -> IResult<&str, Score> {
    alt((
        map(
            preceded(keyword("cp"), preceded(space1, signed)),
            Score::Centipawns,
        ),
        map(
            preceded(keyword("mate"), preceded(space1, signed)),
            Score::Mate,
        ),
    ))(input)
}

/// Records keep a score in its wire form (`"cp 35"`), as a string.
impl serde::Serialize for Score {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Score {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl FromStr for Score {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        whole(score, text.trim()).ok_or_else(|| format!("'{text}' is not 'cp N' or 'mate N'"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn scores_round_trip() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(26);
        for _ in 0..1000 {
            let value = rng.gen_range(-100_000..100_000);
            let score = if rng.gen_bool(0.5) {
                Score::Centipawns(value)
            } else {
                Score::Mate(value)
            };
            assert_eq!(score.to_string().parse(), Ok(score));
        }
        assert!("cp".parse::<Score>().is_err());
        assert!("cpx 3".parse::<Score>().is_err());
        assert_eq!("mate -2".parse(), Ok(Score::Mate(-2)));
        let json = serde_json::to_string(&Score::Centipawns(-35)).unwrap();
        assert_eq!(json, r#""cp -35""#);
        assert_eq!(
            serde_json::from_str::<Score>(&json).unwrap(),
            Score::Centipawns(-35)
        );
        assert!(serde_json::from_str::<Score>(r#""cp x""#).is_err());
    }

    #[test]
    fn mate_scores_become_moves() {
        use crate::core::game::MATE;
        assert_eq!(Score::from_search(MATE - 5), Score::Mate(3));
        assert_eq!(Score::from_search(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(Score::from_search(-35), Score::Centipawns(-35));
    }
}
