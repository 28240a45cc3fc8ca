//! Positions for tuning, taken from game records: each recorded game is
//! replayed with the rules, its opening plies are skipped, and so is every
//! position where the side to move is in the middle of a forcing sequence
//! (it must answer a threat, or has noisy moves to play), since a static
//! evaluation cannot be right there. Each position kept is labelled with the
//! game's result for the side to move.

use std::collections::HashSet;

use crate::core::{Game, Knowledge};
use crate::referee::adjudication::Termination;
use crate::referee::record::GameRecord;

/// A position and the result of its game for the side to move: 1 a win,
/// 0.5 a draw, 0 a loss.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledPosition {
    pub fen: String,
    pub result: f64,
}

impl LabelledPosition {
    /// One line of a positions file: `FEN | result`.
    pub fn to_line(&self) -> String {
        format!("{} | {}", self.fen, self.result)
    }

    pub fn parse_line(line: &str) -> Result<LabelledPosition, String> {
        let (fen, result) = line
            .rsplit_once('|')
            .ok_or_else(|| format!("'{line}' is not 'FEN | result'"))?;
        let result: f64 = result
            .trim()
            .parse()
            .map_err(|_| format!("'{}' is not a result", result.trim()))?;
        if ![0.0, 0.5, 1.0].contains(&result) {
            return Err(format!("result {result} is not 0, 0.5 or 1"));
        }
        Ok(LabelledPosition {
            fen: fen.trim().to_owned(),
            result,
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

/// Positions from `records`: `skip_plies` opening plies skipped, forcing
/// positions and repeats dropped. A record that does not replay (an
/// illegal or unreadable move) is an error naming its round.
pub fn sample_positions<G: Game, K: Knowledge<G>>(
    records: &[GameRecord],
    rules: &G::Rules,
    skip_plies: usize,
) -> Result<(Vec<LabelledPosition>, SampleCounts), String> {
    let mut knowledge = K::default();
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
        let mut position = match &record.start_fen {
            Some(fen) => G::from_fen(fen, rules),
            None => Ok(G::start_position(rules)),
        }
        .map_err(|e| format!("round {}: {e}", record.round))?;
        for (ply, recorded) in record.moves.iter().enumerate() {
            if ply < skip_plies {
                counts.opening += 1;
            } else if forcing(&mut knowledge, &position, &mut moves) {
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
                });
            }
            let mv = position
                .parse_move(&recorded.mv)
                .map_err(|e| format!("round {} ply {}: {e}", record.round, ply + 1))?;
            position.generate_moves(&mut moves);
            if !moves.contains(&mv) {
                return Err(format!(
                    "round {} ply {}: '{}' is illegal",
                    record.round,
                    ply + 1,
                    recorded.mv
                ));
            }
            position.make_move(mv);
        }
    }
    counts.positions = positions.len();
    Ok((positions, counts))
}

/// Whether the side to move is in a forcing sequence: it must answer a
/// threat, or it has moves quiescence would search.
fn forcing<G: Game, K: Knowledge<G>>(
    knowledge: &mut K,
    position: &G,
    moves: &mut Vec<G::Move>,
) -> bool {
    if position.outcome().is_some() || knowledge.must_respond(position) {
        return true;
    }
    knowledge.noisy_moves(position, moves);
    !moves.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back() {
        let position = LabelledPosition {
            fen: "8/8/8/8/8/8/PPPPPPPP/pppppppp w 0 1".to_owned(),
            result: 0.5,
        };
        assert_eq!(
            LabelledPosition::parse_line(&position.to_line()),
            Ok(position)
        );
        assert!(LabelledPosition::parse_line("no result here").is_err());
        assert!(LabelledPosition::parse_line("fen | 0.7").is_err());
        assert!(LabelledPosition::parse_line("fen | x").is_err());
    }
}
