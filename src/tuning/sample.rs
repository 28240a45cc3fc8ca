//! Positions for tuning, taken from game records: each recorded game is
//! replayed with the rules, its opening plies are skipped, and so is every
//! position where the side to move is in the middle of a forcing sequence
//! (it must answer a threat, or has noisy moves to play), since a static
//! evaluation cannot be right there. Each position kept is labelled with the
//! game's result for the side to move and, where the record has it, the
//! score the engine's search gave the move played there (a deeper view
//! than the static evaluation, which `bg-tune texel --score-weight` can blend
//! into the target).

use std::collections::HashSet;

use crate::core::search::AlphaBetaKnowledge;
use crate::core::{Game, MoveError};
use crate::referee::adjudication::Termination;
use crate::referee::record::GameRecord;
use crate::referee::tournament::build_rules;
use crate::wire::score::Score;

/// A position and the result of its game for the side to move: 1 a win,
/// 0.5 a draw, 0 a loss; and the search's score for the side to move, in
/// centipawns, if the record had one.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledPosition {
    pub fen: String,
    pub result: f64,
    pub score: Option<i32>,
}

/// A mate score as centipawns: far past any evaluation, so that the
/// logistic model reads it as a certain result (and `bg-tune wdl` leaves it
/// out).
pub const MATE_CENTIPAWNS: i32 = 3000;

/// A recorded score as centipawns for the side that moved; a mate counts
/// as `MATE_CENTIPAWNS`.
pub fn score_centipawns(score: Score) -> i32 {
    match score {
        Score::Centipawns(value) => value.clamp(-MATE_CENTIPAWNS, MATE_CENTIPAWNS),
        Score::Mate(moves) if moves > 0 => MATE_CENTIPAWNS,
        Score::Mate(_) => -MATE_CENTIPAWNS,
    }
}

impl LabelledPosition {
    /// One line of a positions file: `FEN | result` or `FEN | result |
    /// score`.
    pub fn to_line(&self) -> String {
        match self.score {
            Some(score) => format!("{} | {} | {score}", self.fen, self.result),
            None => format!("{} | {}", self.fen, self.result),
        }
    }

    pub fn parse_line(line: &str) -> Result<LabelledPosition, String> {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let (fen, result, score) = match fields[..] {
            [fen, result] => (fen, result, None),
            [fen, result, score] => (fen, result, Some(score)),
            _ => return Err(format!("'{line}' is not 'FEN | result [| score]'")),
        };
        let result: f64 = result
            .parse()
            .map_err(|_| format!("'{result}' is not a result"))?;
        if ![0.0, 0.5, 1.0].contains(&result) {
            return Err(format!("result {result} is not 0, 0.5 or 1"));
        }
        let score = score
            .map(|s| {
                s.parse::<i32>()
                    .map_err(|_| format!("'{s}' is not a score in centipawns"))
            })
            .transpose()?;
        Ok(LabelledPosition {
            fen: fen.to_owned(),
            result,
            score,
        })
    }
}

/// What was kept and what was not, for the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SampleCounts {
    pub games: usize,
    /// Games not ended by the rules (or by the move limit): a forfeit says
    /// nothing about the positions before it.
    pub games_skipped: usize,
    pub positions: usize,
    pub opening: usize,
    pub forcing: usize,
    pub repeated: usize,
}

/// Which positions of a game are kept.
#[derive(Clone, Copy, Debug, Default)]
pub struct SampleFilter {
    /// Opening plies skipped in every game.
    pub skip_plies: usize,
    /// Keep positions where the side to move has noisy moves (captures,
    /// say), dropping only those where it must answer a threat: for games
    /// like Breakthrough where pieces are in contact most of the game and
    /// the evaluation's exchange terms are fitted on exactly those.
    pub keep_noisy: bool,
}

/// Positions from `records`: opening plies skipped, forcing positions and
/// repeats dropped, as `filter` says. Each game is replayed under the rules
/// its record gives, `rules` only for records that give none. A record
/// that does not replay (an illegal or unreadable move, rules the game
/// refuses) is an error naming its round.
pub fn sample_positions<G: Game, K: AlphaBetaKnowledge<G>>(
    records: &[GameRecord],
    rules: &G::Rules,
    filter: SampleFilter,
) -> Result<(Vec<LabelledPosition>, SampleCounts), String> {
    let mut knowledge = K::new(&Default::default());
    let mut counts = SampleCounts::default();
    let mut seen = HashSet::new();
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for record in records {
        counts.games += 1;
        if !matches!(
            record.result.termination,
            Termination::Rules | Termination::MaxMoves
        ) {
            counts.games_skipped += 1;
            continue;
        }
        let mut position =
            record_start::<G>(record, rules).map_err(|e| format!("round {}: {e}", record.round))?;
        for (ply, recorded) in record.moves.iter().enumerate() {
            if ply < filter.skip_plies {
                counts.opening += 1;
            } else if forcing(&mut knowledge, &mut position, &mut moves, filter.keep_noisy) {
                counts.forcing += 1;
            } else if !seen.insert(position.hash()) {
                counts.repeated += 1;
            } else {
                let result = match record.result.winner {
                    None => 0.5,
                    Some(winner) if winner == position.side_to_move() => 1.0,
                    Some(_) => 0.0,
                };
                positions.push(LabelledPosition {
                    fen: position.to_fen(),
                    result,
                    score: recorded.score.map(score_centipawns),
                });
            }
            let mv = recorded_move(&position, ply, &recorded.mv)
                .map_err(|e| format!("round {} {e}", record.round))?;
            position.make_move(mv);
        }
    }
    counts.positions = positions.len();
    Ok((positions, counts))
}

/// Where `record`'s game starts: its start position under the rules it
/// names, or under `rules` when it names none.
pub fn record_start<G: Game>(record: &GameRecord, rules: &G::Rules) -> Result<G, String> {
    let recorded_rules = match record.rules.is_empty() {
        true => None,
        false => Some(build_rules::<G>(&record.rules)?),
    };
    let rules = recorded_rules.as_ref().unwrap_or(rules);
    match &record.start_fen {
        Some(fen) => G::from_fen(fen, rules),
        None => Ok(G::start_position(rules)),
    }
}

/// The recorded move `text` of ply index `ply`, legal in `position`, or an
/// error naming the ply.
pub fn recorded_move<G: Game>(position: &G, ply: usize, text: &str) -> Result<G::Move, String> {
    position.parse_legal_move(text).map_err(|e| match e {
        MoveError::Unreadable(e) => format!("ply {}: {e}", ply + 1),
        _ => format!("ply {}: '{text}' is illegal", ply + 1),
    })
}

/// Whether the side to move is in a forcing sequence: it must answer a
/// threat, or (unless `keep_noisy`) it has moves quiescence would search.
/// A position whose result the knowledge proves is dropped too: the search
/// never asks the evaluation there.
fn forcing<G: Game, K: AlphaBetaKnowledge<G>>(
    knowledge: &mut K,
    position: &mut G,
    moves: &mut Vec<G::Move>,
    keep_noisy: bool,
) -> bool {
    if position.outcome().is_some()
        || knowledge.must_respond(position)
        || knowledge.forced_result(position).is_some()
    {
        return true;
    }
    if keep_noisy {
        return false;
    }
    knowledge.noisy_moves(position, moves);
    !moves.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back() {
        let mut position = LabelledPosition {
            fen: "8/8/8/8/8/8/PPPPPPPP/pppppppp w 0 1".to_owned(),
            result: 0.5,
            score: None,
        };
        assert_eq!(
            LabelledPosition::parse_line(&position.to_line()),
            Ok(position.clone())
        );
        position.score = Some(-35);
        assert!(position.to_line().ends_with("| 0.5 | -35"));
        assert_eq!(
            LabelledPosition::parse_line(&position.to_line()),
            Ok(position)
        );
        assert!(LabelledPosition::parse_line("no result here").is_err());
        assert!(LabelledPosition::parse_line("fen | 0.7").is_err());
        assert!(LabelledPosition::parse_line("fen | x").is_err());
        assert!(LabelledPosition::parse_line("fen | 1 | 2.5").is_err());
        assert!(LabelledPosition::parse_line("fen | 1 | 2 | 3").is_err());
    }

    #[test]
    fn recorded_scores_become_centipawns() {
        assert_eq!(score_centipawns(Score::Centipawns(-35)), -35);
        assert_eq!(score_centipawns(Score::Mate(3)), MATE_CENTIPAWNS);
        assert_eq!(score_centipawns(Score::Mate(-2)), -MATE_CENTIPAWNS);
        assert_eq!(score_centipawns(Score::Centipawns(99999)), MATE_CENTIPAWNS);
    }
}
