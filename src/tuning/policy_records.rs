//! The referee's game records (`bg-referee --records FILE.jsonl`) as a
//! move policy's training positions: self-play at real time controls and
//! sparring games, whose searches run far longer than `datagen`'s and
//! whose moves may be another program's. Each game is replayed under the
//! rules its record names; every move an engine chose is a competition,
//! except two kinds that say nothing of the policy: the opening's (`book`),
//! and moves after the mover's search reported a proof (a mate score), when
//! any move that keeps the proven result will do.

use std::path::PathBuf;

use super::policy_fit::{Collected, CompetitionMaker, Split};
use super::sample::{record_start, recorded_move};
use crate::core::game::Game;
use crate::core::policy::MoveFeatures;
use crate::referee::record::{parse_json_lines, GameRecord};
use crate::wire::score::Score;

/// Adds the games of `paths` to `collected`, split by `split` (the games
/// numbered over all the files).
pub(super) fn collect_records<G: Game, F: MoveFeatures<G>>(
    paths: &[PathBuf],
    split: &Split,
    maker: &mut CompetitionMaker<G, F>,
    collected: &mut Collected,
) -> Result<(), String> {
    let mut index = 0u32;
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        let records = parse_json_lines(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for record in &records {
            let placed = split.place(index, collected);
            index += 1;
            let Some(target) = placed else {
                continue;
            };
            replay_record::<G>(record, |position, played| {
                maker.add(target, position, played)
            })
            .map_err(|e| format!("{} round {}: {e}", path.display(), record.round))?;
        }
    }
    Ok(())
}

/// Calls `visit` with each position an engine chose a move in, before a
/// proof, and that move. A record whose game is not `G`, or that does not
/// replay, is an error; one that names no rules is played under the
/// standard ones.
fn replay_record<G: Game>(
    record: &GameRecord,
    mut visit: impl FnMut(&G, G::Move),
) -> Result<(), String> {
    if !record.game.eq_ignore_ascii_case(G::NAME) {
        return Err(format!("a game of {}, not {}", record.game, G::NAME));
    }
    let mut position = record_start::<G>(record, &G::Rules::default())?;
    let mut proven = [false; 2];
    for (ply, recorded) in record.moves.iter().enumerate() {
        let mover = usize::from(ply % 2 == 1);
        proven[mover] |= matches!(recorded.score, Some(Score::Mate(_)));
        let mv = recorded_move(&position, ply, &recorded.mv)?;
        if !recorded.book && !proven[mover] {
            visit(&position, mv);
        }
        position.make_move(mv);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hex::policy::HexPolicy;
    use crate::games::hex::Hex;
    use crate::referee::record::MoveRecord;

    fn hex_record(moves: &[(&str, bool, Option<Score>)]) -> GameRecord {
        GameRecord {
            game: "hex".into(),
            rules: vec![
                ("BoardSize".into(), "5".into()),
                ("Swap".into(), "false".into()),
            ],
            moves: moves
                .iter()
                .map(|&(mv, book, score)| MoveRecord {
                    mv: mv.into(),
                    book,
                    score,
                    ..MoveRecord::default()
                })
                .collect(),
            ..GameRecord::default()
        }
    }

    #[test]
    fn book_moves_and_moves_after_a_proof_are_left_out() {
        let record = hex_record(&[
            ("a1", true, None),
            ("b2", false, Some(Score::Centipawns(10))),
            ("c3", false, Some(Score::Mate(3))),
            ("d4", false, None),
            ("e5", false, None),
            ("a2", false, Some(Score::Centipawns(-40))),
        ]);
        let mut seen = Vec::new();
        replay_record::<Hex>(&record, |position, mv| seen.push(position.format_move(mv)))
            .expect("the record replays");
        // b2 and d4 by the second player; c3 proved the first player's
        // win, so e5 is left out as c3 is; a2 by the second player stays.
        assert_eq!(seen, ["b2", "d4", "a2"]);
    }

    #[test]
    fn a_bad_record_is_an_error_naming_the_ply() {
        let record = hex_record(&[("a1", true, None), ("a1", false, None)]);
        let error = replay_record::<Hex>(&record, |_, _| ()).expect_err("a1 twice");
        assert!(error.contains("ply 2"), "{error}");
        let mut other = hex_record(&[]);
        other.game = "gomoku".into();
        assert!(replay_record::<Hex>(&other, |_, _| ()).is_err());
    }

    #[test]
    fn records_become_competitions_and_every_tenth_game_is_held_back() {
        let dir = std::env::temp_dir().join(format!("policy-records-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("games.jsonl");
        let game = hex_record(&[("c3", true, None), ("b2", false, None), ("d2", false, None)]);
        let lines: String = (0..20)
            .map(|_| crate::referee::record::to_json_line(&game))
            .collect();
        std::fs::write(&path, lines).expect("records written");
        let mut maker = CompetitionMaker::<Hex, HexPolicy>::new().expect("Hex's groups fit");
        let mut read = |training_games| {
            let split = Split {
                held_every: 10,
                training_games,
            };
            let mut collected = Collected::default();
            collect_records(
                std::slice::from_ref(&path),
                &split,
                &mut maker,
                &mut collected,
            )
            .expect("records read");
            collected
        };
        let all = read(None);
        assert_eq!(all.games, 20);
        assert_eq!(all.training.len(), 18 * 2);
        assert_eq!(all.held_back.len(), 2 * 2);
        // Fewer training games leave the held-back ones as they were.
        let few = read(Some(5));
        assert_eq!((few.games, few.training_games), (7, 5));
        assert_eq!(few.training.len(), 5 * 2);
        assert_eq!(few.held_back.len(), 2 * 2);
        std::fs::remove_dir_all(&dir).ok();
    }
}
