//! Self-play games as compact binary data for training an evaluation: each
//! game is its start, its moves as move codes and, for every searched move,
//! the search's score for the side to move; the positions are replayed from
//! them, so a position costs five bytes instead of a FEN's dozens.
//!
//! A file is a header (format version, game, rules in full) and then one
//! block a game, each prefixed by its length: a block cut short by a
//! stopped run is recognised and dropped when the file is read, so a run
//! resumes after its last whole game.
//!
//! Layout, little-endian: `BGDATA` `version:u8` `game:str` `rules:str`, then
//! per game `length:u32` `index:u32` `start_fen:str` `moves:u16` and per
//! move `code:u24` `score:i16`, then `result:u8`; `str` is `length:u16` and
//! UTF-8 bytes.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::Path;

use crate::core::game::{Game, MoveCode, Outcome, Player};

const MAGIC: &[u8; 6] = b"BGDATA";
pub const VERSION: u8 = 1;
/// A move played from the opening, not searched.
pub const NO_SCORE: i16 = i16::MIN;
/// A proven win in `n` moves is stored as `MATE_SCORE - n`, a loss as its
/// negation; evaluations are clamped below `MATE_SCORE - MAX_MATE_MOVES`.
pub const MATE_SCORE: i16 = 30_000;
pub const MAX_MATE_MOVES: i16 = 1_000;

/// What every game of a file shares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataHeader {
    pub game: String,
    /// The rules in full, as `rules_in_full` gives them.
    pub rules: Vec<(String, String)>,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataGame {
    /// Its number in the run, which chose its opening.
    pub index: u32,
    /// `None`: the game's start position.
    pub start_fen: Option<String>,
    /// Move codes (`MoveCode::to_code`) with the search's score for the
    /// side to move, `NO_SCORE` for the opening's moves.
    pub moves: Vec<(u32, i16)>,
    /// `None` is a draw (or a game stopped at the ply limit).
    pub winner: Option<Player>,
}

/// A search score as stored: centipawns clamped, or a mate distance.
pub fn stored_score(centipawns: i32, mate_in_moves: Option<i32>) -> i16 {
    let ceiling = i32::from(MATE_SCORE - MAX_MATE_MOVES) - 1;
    match mate_in_moves {
        Some(moves) => {
            let distance = moves.unsigned_abs().min(MAX_MATE_MOVES as u32) as i16;
            if moves > 0 {
                MATE_SCORE - distance
            } else {
                -(MATE_SCORE - distance)
            }
        }
        None => centipawns.clamp(-ceiling, ceiling) as i16,
    }
}

/// A stored score's mate distance in moves (negative when mated), if it is
/// one.
pub fn mate_of(score: i16) -> Option<i32> {
    let limit = MATE_SCORE - MAX_MATE_MOVES;
    match score {
        NO_SCORE => None,
        s if s >= limit => Some(i32::from(MATE_SCORE - s)),
        s if s <= -limit => Some(-i32::from(MATE_SCORE + s)),
        _ => None,
    }
}

pub fn header_bytes(header: &DataHeader) -> Result<Vec<u8>, String> {
    let mut out = MAGIC.to_vec();
    out.push(VERSION);
    put_str(&mut out, &header.game)?;
    let rules: Vec<String> = header
        .rules
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    put_str(&mut out, &rules.join(";"))?;
    Ok(out)
}

pub fn game_bytes(game: &DataGame) -> Result<Vec<u8>, String> {
    let mut body = game.index.to_le_bytes().to_vec();
    put_str(&mut body, game.start_fen.as_deref().unwrap_or(""))?;
    let count = u16::try_from(game.moves.len()).map_err(|_| "a game of over 65,535 moves")?;
    body.extend(count.to_le_bytes());
    for &(code, score) in &game.moves {
        if code >= 1 << 24 {
            return Err(format!("move code {code} does not fit 24 bits"));
        }
        body.extend(&code.to_le_bytes()[..3]);
        body.extend(score.to_le_bytes());
    }
    body.push(match game.winner {
        Some(Player::P1) => 0,
        Some(Player::P2) => 1,
        None => 2,
    });
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend(body);
    Ok(out)
}

fn put_str(out: &mut Vec<u8>, text: &str) -> Result<(), String> {
    let length = u16::try_from(text.len()).map_err(|_| format!("'{text:.40}...' is too long"))?;
    out.extend(length.to_le_bytes());
    out.extend(text.as_bytes());
    Ok(())
}

/// A file read whole: its header, its whole games, and the length in bytes
/// of the whole part (a torn last block lies beyond it).
#[derive(Debug)]
pub struct DataFile {
    pub header: DataHeader,
    pub games: Vec<DataGame>,
    pub whole_bytes: u64,
    pub torn_bytes: u64,
}

/// Whether `path` starts as a data file does (the tools that also read
/// JSON-lines records tell the two apart by it).
pub fn is_data_file(path: &Path) -> bool {
    let mut start = [0u8; MAGIC.len()];
    File::open(path)
        .and_then(|mut file| file.read_exact(&mut start))
        .is_ok_and(|()| &start == MAGIC)
}

pub fn read_file(path: &Path) -> Result<DataFile, String> {
    let name = path.display();
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|file| BufReader::new(file).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read '{name}': {e}"))?;
    parse(&bytes).map_err(|e| format!("'{name}': {e}"))
}

/// A file of `G`'s games with the rules they were played under; a file of
/// another game is refused.
pub fn read_games_of<G: Game>(path: &Path) -> Result<(DataFile, G::Rules), String> {
    let data = read_file(path)?;
    if !data.header.game.eq_ignore_ascii_case(G::NAME) {
        return Err(format!(
            "'{}' holds {} games, not {}",
            path.display(),
            data.header.game,
            G::NAME
        ));
    }
    let rules = crate::referee::tournament::build_rules::<G>(&data.header.rules)?;
    Ok((data, rules))
}

pub fn parse(bytes: &[u8]) -> Result<DataFile, String> {
    let mut reader = Reader { bytes, at: 0 };
    if reader.take(MAGIC.len())? != MAGIC {
        return Err("not a self-play data file (no BGDATA header)".into());
    }
    let version = reader.take(1)?[0];
    if version != VERSION {
        return Err(format!(
            "format version {version}; this build reads {VERSION}"
        ));
    }
    let game = reader.string()?;
    let rules = parse_rules(&reader.string()?)?;
    let header = DataHeader { game, rules };
    let mut games = Vec::new();
    let mut whole = reader.at;
    while reader.at < bytes.len() {
        let Ok(length) = reader.u32() else { break };
        let Ok(block) = reader.take(length as usize) else {
            break;
        };
        let game =
            parse_game(block).map_err(|e| format!("game {} of the file: {e}", games.len() + 1))?;
        games.push(game);
        whole = reader.at;
    }
    Ok(DataFile {
        header,
        games,
        whole_bytes: whole as u64,
        torn_bytes: (bytes.len() - whole) as u64,
    })
}

fn parse_rules(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split(';')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            pair.split_once('=')
                .map(|(n, v)| (n.to_owned(), v.to_owned()))
                .ok_or_else(|| format!("rule '{pair}' is not NAME=VALUE"))
        })
        .collect()
}

fn parse_game(block: &[u8]) -> Result<DataGame, String> {
    let mut reader = Reader {
        bytes: block,
        at: 0,
    };
    let index = reader.u32()?;
    let fen = reader.string()?;
    let count = reader.u16()?;
    let mut moves = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let code = reader.take(3)?;
        let code = u32::from_le_bytes([code[0], code[1], code[2], 0]);
        let score = reader.take(2)?;
        moves.push((code, i16::from_le_bytes([score[0], score[1]])));
    }
    let winner = match reader.take(1)?[0] {
        0 => Some(Player::P1),
        1 => Some(Player::P2),
        2 => None,
        other => return Err(format!("result byte {other} is none of 0, 1, 2")),
    };
    if reader.at != block.len() {
        return Err(format!("{} bytes left over", block.len() - reader.at));
    }
    Ok(DataGame {
        index,
        start_fen: (!fen.is_empty()).then_some(fen),
        moves,
        winner,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize) -> Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(count)
            .filter(|&end| end <= self.bytes.len());
        let end = end.ok_or("the data ends in the middle of a field")?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn string(&mut self) -> Result<String, String> {
        let length = self.u16()? as usize;
        String::from_utf8(self.take(length)?.to_vec())
            .map_err(|_| "a text field is not UTF-8".into())
    }
}

/// One position of a game, as the trainer sees it.
pub struct DataPosition<'a, G: Game> {
    pub position: &'a G,
    /// The move played from it.
    pub played: G::Move,
    /// The search's score for the side to move, `NO_SCORE` in the opening.
    pub score: i16,
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
}

/// Replays `game` under `rules`, calling `visit` with every position before
/// a move (and its score); a move code that is no legal move there is an
/// error, so corrupt data never reaches a trainer.
pub fn replay<G: Game>(
    game: &DataGame,
    rules: &G::Rules,
    mut visit: impl FnMut(DataPosition<'_, G>),
) -> Result<G, String> {
    let mut position = match &game.start_fen {
        Some(fen) => G::from_fen(fen, rules).map_err(|e| format!("game {}: {e}", game.index))?,
        None => G::start_position(rules),
    };
    let mut legal = Vec::new();
    for (ply, &(code, score)) in game.moves.iter().enumerate() {
        position.generate_moves(&mut legal);
        let Some(&mv) = legal.iter().find(|mv| mv.to_code() == code) else {
            return Err(format!(
                "game {} ply {}: move code {code} is not legal",
                game.index,
                ply + 1
            ));
        };
        let result = match (game.winner, position.outcome()) {
            (_, Some(_)) => return Err(format!("game {} goes on after its end", game.index)),
            (None, None) => 0.5,
            (Some(winner), None) => f32::from(u8::from(winner == position.side_to_move())),
        };
        visit(DataPosition {
            position: &position,
            played: mv,
            score,
            result,
        });
        position.make_move(mv);
    }
    let ended_so = match position.outcome() {
        Some(Outcome::Win(winner)) => game.winner == Some(winner),
        Some(Outcome::Draw) | None => game.winner.is_none(),
    };
    if !ended_so {
        return Err(format!(
            "game {}: its result is not what its moves give",
            game.index
        ));
    }
    Ok(position)
}

/// Appends bytes to a file and flushes them at once: a run stopped between
/// two games loses nothing but the game it was playing.
pub fn append(file: &mut File, bytes: &[u8]) -> Result<(), String> {
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .map_err(|e| format!("cannot write the data: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_keep_their_mates_apart_from_evaluations() {
        assert_eq!(stored_score(123, None), 123);
        assert_eq!(
            stored_score(-99_999, None),
            -(MATE_SCORE - MAX_MATE_MOVES - 1)
        );
        assert_eq!(mate_of(stored_score(99_999, None)), None);
        for moves in [1, 7, -3, -1, 999] {
            assert_eq!(mate_of(stored_score(0, Some(moves))), Some(moves));
        }
        assert_eq!(mate_of(NO_SCORE), None);
    }

    #[test]
    fn a_file_reads_back_as_written_and_a_torn_end_is_measured() {
        let header = DataHeader {
            game: "toy".into(),
            rules: vec![("Stones".into(), "7".into()), ("Take".into(), "1-2".into())],
        };
        let games = [
            DataGame {
                index: 3,
                start_fen: None,
                moves: vec![(5, NO_SCORE), ((1 << 24) - 1, -40), (0, 29_999)],
                winner: Some(Player::P2),
            },
            DataGame {
                index: 0,
                start_fen: Some("7 p1".into()),
                moves: Vec::new(),
                winner: None,
            },
        ];
        let mut bytes = header_bytes(&header).unwrap();
        for game in &games {
            bytes.extend(game_bytes(game).unwrap());
        }
        let whole = bytes.len();
        let data = parse(&bytes).unwrap();
        assert_eq!((data.header, data.games.as_slice()), (header, &games[..]));
        assert_eq!((data.whole_bytes, data.torn_bytes), (whole as u64, 0));
        bytes.extend(&game_bytes(&games[0]).unwrap()[..9]);
        let torn = parse(&bytes).unwrap();
        assert_eq!(torn.games.len(), 2);
        assert_eq!((torn.whole_bytes, torn.torn_bytes), (whole as u64, 9));
        let too_big = DataGame {
            moves: vec![(1 << 24, 0)],
            ..games[1].clone()
        };
        assert!(game_bytes(&too_big).is_err());
        assert!(parse(b"BGDATA\x02").unwrap_err().contains("version 2"));
        assert!(parse(b"BGDA").is_err());
    }
}
