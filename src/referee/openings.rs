//! Where games start: lines of a file (moves, a FEN, or Piskvork's `x,y`
//! offsets from the centre), random openings of N plies from a seed, or the
//! start position. Every opening is checked with the rules before use.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::core::{Game, MoveError};

use crate::core::cell::cell_name;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `None` is the start position.
    pub fen: Option<String>,
    /// Canonical move texts played from it.
    pub moves: Vec<String>,
    /// Where it came from, for records.
    pub label: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    StartPosition,
    File(String),
    Random {
        plies: u32,
        seed: u64,
    },
    /// A board per pair from `BoardSeed` seed, seed + 1, ... (Jogo do
    /// Cavalo), given to the engines as a FEN.
    RandomBoards {
        seed: u64,
    },
}

impl OpeningSource {
    /// `random:N`, `random:N:SEED`, `boards`, `boards:SEED`, or a file path.
    pub fn parse(text: &str, seed: u64) -> Result<Self, String> {
        if text == "boards" {
            return Ok(OpeningSource::RandomBoards { seed });
        }
        if let Some(seed) = text.strip_prefix("boards:") {
            let seed = seed.parse().map_err(|_| format!("bad seed in '{text}'"))?;
            return Ok(OpeningSource::RandomBoards { seed });
        }
        if let Some(spec) = text.strip_prefix("random:") {
            let (plies, seed) = match spec.split_once(':') {
                Some((plies, seed)) => (
                    plies,
                    seed.parse().map_err(|_| format!("bad seed in '{text}'"))?,
                ),
                None => (spec, seed),
            };
            let plies = plies
                .parse()
                .map_err(|_| format!("bad ply count in '{text}'"))?;
            Ok(OpeningSource::Random { plies, seed })
        } else {
            Ok(OpeningSource::File(text.to_owned()))
        }
    }
}

/// Plays `moves` (any accepted notation) from `fen` and returns their
/// canonical texts, or what is wrong.
pub fn validate<G: Game>(
    rules: &G::Rules,
    fen: Option<&str>,
    moves: &[String],
) -> Result<(G, Vec<String>), String> {
    let mut position = match fen {
        Some(fen) => G::from_fen(fen, rules)?,
        None => G::start_position(rules),
    };
    let mut canonical = Vec::new();
    for text in moves {
        let mv = match position.parse_legal_move(text) {
            Ok(mv) => mv,
            Err(MoveError::Unreadable(why)) => return Err(why),
            Err(_) => {
                return Err(format!(
                    "illegal move '{text}' after {} moves",
                    canonical.len()
                ))
            }
        };
        canonical.push(position.format_move(mv));
        position.make_move(mv);
    }
    Ok((position, canonical))
}

/// Piskvork's opening lines: `dx,dy, dx,dy, ...` from the board centre.
fn piskvork_moves(line: &str, board_size: u32) -> Option<Vec<String>> {
    let numbers: Vec<i64> = line
        .split(',')
        .map(|n| n.trim().parse().ok())
        .collect::<Option<_>>()?;
    if !numbers.len().is_multiple_of(2) || numbers.is_empty() {
        return None;
    }
    let centre = i64::from(board_size / 2);
    numbers
        .chunks(2)
        .map(|pair| {
            let (column, row) = (centre + pair[0], centre + pair[1]);
            let inside = 0..i64::from(board_size);
            if !inside.contains(&column) || !inside.contains(&row) {
                return None;
            }
            cell_name(column as usize, row as usize)
        })
        .collect()
}

/// Reads an opening file. A line is a FEN if it has a `/` (optionally
/// followed by `moves ...`), Piskvork offsets if it is numbers and commas,
/// else moves separated by spaces. `#` starts a comment.
pub fn load_file<G: Game>(
    path: &str,
    rules: &G::Rules,
    board_size: Option<u32>,
) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let where_ = format!("{path}:{}", number + 1);
        let (fen, moves) = if line.contains('/') {
            match line.split_once(" moves ") {
                Some((fen, moves)) => (
                    Some(fen.trim()),
                    moves.split_whitespace().map(str::to_owned).collect(),
                ),
                None => (Some(line), Vec::new()),
            }
        } else if let Some(moves) = piskvork_moves(line, board_size.unwrap_or(15)) {
            (None, moves)
        } else {
            (
                None,
                line.split_whitespace()
                    .map(str::to_owned)
                    .collect::<Vec<_>>(),
            )
        };
        let (_, canonical) =
            validate::<G>(rules, fen, &moves).map_err(|e| format!("{where_}: {e}"))?;
        openings.push(Opening {
            fen: fen.map(str::to_owned),
            moves: canonical,
            label: where_,
        });
    }
    if openings.is_empty() {
        return Err(format!("no openings in '{path}'"));
    }
    Ok(openings)
}

/// `count` random openings of `plies` plies, reproducible from `seed`, none
/// of which ends the game.
pub fn random_openings<G: Game>(
    rules: &G::Rules,
    plies: u32,
    seed: u64,
    count: usize,
) -> Result<Vec<Opening>, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut openings = Vec::with_capacity(count);
    let mut legal = Vec::new();
    let mut attempts = 0;
    while openings.len() < count {
        attempts += 1;
        if attempts > count * 100 + 1000 {
            return Err(format!(
                "cannot find openings of {plies} plies that do not end the game"
            ));
        }
        let mut position = G::start_position(rules);
        let mut moves = Vec::new();
        for _ in 0..plies {
            position.generate_moves(&mut legal);
            let Some(&mv) = legal.choose(&mut rng) else {
                break;
            };
            moves.push(position.format_move(mv));
            position.make_move(mv);
            if position.outcome().is_some() {
                break;
            }
        }
        if position.outcome().is_none() && moves.len() == plies as usize {
            openings.push(Opening {
                fen: None,
                moves,
                label: format!("random:{plies}:{seed}#{}", openings.len() + 1),
            });
        }
    }
    Ok(openings)
}

/// The start position of each pair's board, from the `BoardSeed` rule.
fn random_boards<G: Game>(
    rules: &G::Rules,
    seed: u64,
    pairs: std::ops::Range<usize>,
) -> Result<Vec<Opening>, String> {
    pairs
        .map(|pair| {
            let board_seed = seed.wrapping_add(pair as u64) % (u64::from(u32::MAX) + 1);
            let mut pair_rules = rules.clone();
            G::set_rule_option(&mut pair_rules, "BoardSeed", &board_seed.to_string())
                .map_err(|e| format!("random boards need a BoardSeed rule: {e}"))?;
            let fen = G::start_position(&pair_rules).to_fen();
            // The FEN must stand on its own under the match's rules.
            validate::<G>(rules, Some(&fen), &[])?;
            Ok(Opening {
                fen: Some(fen),
                moves: Vec::new(),
                label: format!("BoardSeed {board_seed}"),
            })
        })
        .collect()
}

/// One opening per game pair for pairs `first_pair..first_pair + pairs` of
/// the source's sequence, cycling through a file's openings; a later slice
/// of the sequence gives other openings (a tuner plays one slice per step).
pub fn openings_for_pairs<G: Game>(
    source: &OpeningSource,
    rules: &G::Rules,
    board_size: Option<u32>,
    first_pair: usize,
    pairs: usize,
) -> Result<Vec<Opening>, String> {
    let pool = match source {
        OpeningSource::StartPosition => vec![Opening {
            fen: None,
            moves: Vec::new(),
            label: "startpos".to_owned(),
        }],
        OpeningSource::File(path) => load_file::<G>(path, rules, board_size)?,
        OpeningSource::Random { plies, seed } => {
            random_openings::<G>(rules, *plies, *seed, (first_pair + pairs).max(1))?
        }
        OpeningSource::RandomBoards { seed } => {
            return random_boards::<G>(rules, *seed, first_pair..first_pair + pairs)
        }
    };
    Ok((first_pair..first_pair + pairs)
        .map(|i| pool[i % pool.len()].clone())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piskvork_offsets_are_cells_around_the_centre() {
        assert_eq!(
            piskvork_moves("0,0, 1,0, 1,3", 15).unwrap(),
            ["h8", "i8", "i11"]
        );
        assert_eq!(piskvork_moves("-7,-7", 15).unwrap(), ["a1"]);
        assert_eq!(piskvork_moves("8,0", 15), None);
        assert_eq!(piskvork_moves("h8 h9", 15), None);
        assert_eq!(piskvork_moves("1,2,3", 15), None);
    }

    #[test]
    fn random_specs_parse_with_and_without_a_seed() {
        assert_eq!(
            OpeningSource::parse("random:4", 9).unwrap(),
            OpeningSource::Random { plies: 4, seed: 9 }
        );
        assert_eq!(
            OpeningSource::parse("random:4:77", 9).unwrap(),
            OpeningSource::Random { plies: 4, seed: 77 }
        );
        assert!(OpeningSource::parse("random:x", 9).is_err());
    }

    #[test]
    fn a_later_slice_of_random_openings_continues_the_sequence() {
        use crate::games::breakthrough::Breakthrough;
        let source = OpeningSource::Random { plies: 3, seed: 5 };
        let rules = Default::default();
        let all = openings_for_pairs::<Breakthrough>(&source, &rules, None, 0, 6).unwrap();
        let tail = openings_for_pairs::<Breakthrough>(&source, &rules, None, 4, 2).unwrap();
        assert_eq!(tail, all[4..]);
        assert_ne!(all[0], all[1]);
    }
}
