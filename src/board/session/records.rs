//! Saving a session's game as a record and loading one into it.

use crate::core::{Player, Presentation};
use crate::referee::adjudication::{GameResult, Termination};
use crate::referee::record::{
    self, host_name, rules_in_full, utc_date_today, GameRecord, RecordFormat,
};
use crate::referee::tournament::build_rules;

use super::super::messages::PlayerSpec;
use super::seat::{make_engine, Seat};
use super::Session;

impl<G: Presentation> Session<G> {
    /// The start position's FEN where the board size alone does not give
    /// it (a Jogo do Cavalo board seed, a variant's first mover), so that a
    /// record read elsewhere starts from the same position.
    fn record_start_fen(&self) -> Option<String> {
        if self.start_fen.is_some() {
            return self.start_fen.clone();
        }
        let sized: Vec<(String, String)> = self
            .rule_options
            .iter()
            .filter(|(name, _)| name.eq_ignore_ascii_case("boardsize"))
            .cloned()
            .collect();
        let plain = build_rules::<G>(&sized).ok()?;
        let fen = self.start.to_fen();
        (G::start_position(&plain).to_fen() != fen).then_some(fen)
    }

    pub(super) fn record(&self) -> GameRecord {
        let start_fen = self.record_start_fen();
        GameRecord {
            game: G::NAME.to_owned(),
            event: "bg-board game".to_owned(),
            site: host_name(),
            date: utc_date_today(),
            round: 1,
            players: [self.seats[0].name(), self.seats[1].name()],
            rules: rules_in_full::<G>(&self.rule_options),
            opening: if start_fen.is_some() {
                "fen".to_owned()
            } else {
                "startpos".to_owned()
            },
            start_fen,
            board_size: self.board_size,
            moves: self.moves.clone(),
            result: self.result.clone().unwrap_or_else(GameResult::unfinished),
            notes: Vec::new(),
            swap2: None,
        }
    }

    /// Replaces the game by a record's (its first game), each move checked;
    /// the rules are the record's where it names them, else this game's.
    pub(super) fn load(&mut self, text: &str) -> Result<(), String> {
        let record = read_record(text)?;
        if record.game != G::NAME {
            return Err(format!(
                "the record is of {}, this game is {}",
                record.game,
                G::NAME
            ));
        }
        let mut rule_options = record_rules(&record).unwrap_or_else(|| self.rule_options.clone());
        if let Some(size) = record.board_size {
            let has_size = G::rule_options()
                .iter()
                .any(|o| o.name.eq_ignore_ascii_case("boardsize"));
            if has_size {
                rule_options.retain(|(name, _)| !name.eq_ignore_ascii_case("boardsize"));
                rule_options.push(("BoardSize".to_owned(), size.to_string()));
            }
        }
        let rules = build_rules::<G>(&rule_options)?;
        let start = match &record.start_fen {
            Some(fen) => G::from_fen(fen, &rules)?,
            None => G::start_position(&rules),
        };
        let mut loaded = Session::<G> {
            rule_options: rule_options.clone(),
            board_size: crate::referee::cli::board_size::<G>(&rule_options),
            start_fen: record.start_fen.clone(),
            position: start.clone(),
            start,
            played: Vec::new(),
            moves: Vec::new(),
            seats: [
                Seat {
                    player: PlayerSpec::Human,
                    engine: None,
                    fault: None,
                },
                Seat {
                    player: PlayerSpec::Human,
                    engine: None,
                    fault: None,
                },
            ],
            hint_engine: None,
            result: None,
            paused: true,
            step: false,
            delay: self.delay,
            engines_stale: true,
        };
        for (index, m) in record.moves.iter().enumerate() {
            loaded
                .play_text(&m.mv)
                .map_err(|why| format!("move {} of the record: {why}", index + 1))?;
            if let Some(last) = loaded.moves.last_mut() {
                let text = last.mv.clone();
                *last = m.clone();
                last.mv = text;
            }
        }
        // Records saved before `Unfinished` existed said it in the reason.
        let unfinished = record.result.termination == Termination::Unfinished
            || record.result.reason == "unfinished";
        if loaded.result.is_none() && !unfinished {
            // A game the record says ended otherwise than by the rules
            // (resignation, time) stays ended.
            if record.result.termination != Termination::Rules {
                loaded.result = Some(record.result.clone());
            }
        }
        // The seats keep their players, with engines told the new rules.
        for (index, seat) in self.seats.iter().enumerate() {
            let side = if index == 0 { Player::P1 } else { Player::P2 };
            loaded.seats[index] = Seat {
                engine: make_engine(G::NAME, &seat.player, side, &rule_options)?,
                player: seat.player.clone(),
                fault: None,
            };
        }
        // Against an engine the game goes on at once; two engines wait for
        // resume or step.
        loaded.paused = !loaded
            .seats
            .iter()
            .any(|s| matches!(s.player, PlayerSpec::Human));
        *self = loaded;
        Ok(())
    }
}

/// The first game of a record in any of the referee's formats.
pub fn read_record(text: &str) -> Result<GameRecord, String> {
    let format = if text.trim_start().starts_with('(') {
        RecordFormat::Sgf
    } else if text.trim_start().starts_with('{') {
        RecordFormat::Json
    } else {
        RecordFormat::Text
    };
    record::parse(format, text)?
        .into_iter()
        .next()
        .ok_or_else(|| "the record holds no game".to_owned())
}

/// The note by which the board's records kept their rule options before
/// records had a field for them: `board rules: BoardSize=5 Swap=false`.
const RULES_NOTE: &str = "board rules:";

/// The rule options a record keeps, if it keeps them.
pub fn record_rules(record: &GameRecord) -> Option<Vec<(String, String)>> {
    if !record.rules.is_empty() {
        return Some(record.rules.clone());
    }
    let note = record
        .notes
        .iter()
        .find_map(|note| note.strip_prefix(RULES_NOTE))?;
    Some(
        note.split_whitespace()
            .filter_map(|pair| pair.split_once('='))
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect(),
    )
}
