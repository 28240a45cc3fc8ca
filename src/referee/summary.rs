//! A match's tally: results from the first engine's side, by colour and by
//! game pair, game ends, the SPRT's state; the progress line while games
//! finish, the final summary, and the same summary rebuilt from the records
//! of a match played in slices (`bg-referee merge`).

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use crate::core::Player;

use super::adjudication::Termination;
use super::play::{Overhead, PonderCount};
use super::record::{parse_json_lines, GameRecord};
use super::stats::{
    llr_pentanomial, llr_trinomial, Pentanomial, SprtConfig, SprtDecision, Trinomial,
};

#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub names: [String; 2],
    /// From the first engine's side.
    pub results: Trinomial,
    /// The first engine's results as player 1 and as player 2.
    pub by_colour: [Trinomial; 2],
    pub pentanomial: Pentanomial,
    pub terminations: BTreeMap<Termination, u64>,
    pub sprt: Option<(f64, SprtDecision)>,
    pub overhead: Overhead,
    pub disagreements: u64,
    pub wall_time: Duration,
    /// By engine: ponder searches and ponderhits.
    pub ponder: [PonderCount; 2],
    /// First engine's score in games whose pair is not yet complete, by pair.
    unpaired: HashMap<usize, f64>,
}

impl MatchSummary {
    pub(super) fn named(names: [String; 2]) -> Self {
        MatchSummary {
            names,
            ..MatchSummary::default()
        }
    }

    /// Counts one finished game (numbered from 0; the first engine is player
    /// 1 in even games) and updates the SPRT state.
    pub(super) fn add_game(&mut self, game: usize, record: &GameRecord, sprt: Option<&SprtConfig>) {
        let score = first_engine_score(game, record);
        let tally = |t: &mut Trinomial| match score {
            s if s > 0.75 => t.wins += 1,
            s if s < 0.25 => t.losses += 1,
            _ => t.draws += 1,
        };
        tally(&mut self.results);
        tally(&mut self.by_colour[(game % 2) ^ usize::from(turned(record))]);
        if let Some(other) = self.unpaired.remove(&(game / 2)) {
            self.pentanomial.add_pair(other, score);
        } else {
            self.unpaired.insert(game / 2, score);
        }
        *self
            .terminations
            .entry(record.result.termination)
            .or_default() += 1;
        self.disagreements += record.notes.len() as u64;
        if let Some(sprt) = sprt {
            let llr = if self.pentanomial.pairs() > 0 {
                llr_pentanomial(&self.pentanomial, sprt)
            } else {
                llr_trinomial(&self.results, sprt)
            };
            self.sprt = Some((llr, sprt.decide(llr)));
        }
    }
}

/// Whether a Swap2 opening turned the seats: the engine scheduled as
/// player 1 (the proposer) played White.
fn turned(record: &GameRecord) -> bool {
    record.swap2.as_ref().is_some_and(|s| s.proposer_white)
}

/// The first engine's score in a finished game: it is player 1 in even
/// games, unless a Swap2 opening turned the seats.
fn first_engine_score(game: usize, record: &GameRecord) -> f64 {
    let first_is = if game.is_multiple_of(2) != turned(record) {
        Player::P1
    } else {
        Player::P2
    };
    match record.result.winner {
        None => 0.5,
        Some(winner) if winner == first_is => 1.0,
        Some(_) => 0.0,
    }
}

const PROGRESS_BAR: anstyle::Style = anstyle::AnsiColor::Green.on_default();

/// On a terminal one line rewritten in place, padded with spaces to the
/// widest line so far (an erase code would be stripped with the colour
/// under `NO_COLOR`); elsewhere a line every tenth of the match.
pub(super) fn progress(
    summary: &MatchSummary,
    done: usize,
    total: usize,
    interactive: bool,
    widest_line: &mut usize,
) {
    let r = &summary.results;
    let defined = r.score() > 0.0 && r.score() < 1.0;
    let elo = r
        .elo()
        .filter(|_| defined)
        .map(|e| format!("Elo {:+.1} +/- {}", e.elo, margin_text(e.margin)))
        .unwrap_or_default();
    let status = format!(
        "{done}/{total} {} {}-{}-{} [{:.3}] {elo}",
        summary.names[0],
        r.wins,
        r.losses,
        r.draws,
        r.score()
    );
    progress_line(&status, done, total, interactive, widest_line);
}

/// Shows `status` as `progress` describes, for a match or a tournament.
pub(super) fn progress_line(
    status: &str,
    done: usize,
    total: usize,
    interactive: bool,
    widest_line: &mut usize,
) {
    if interactive {
        let width = 30;
        let filled = (done * width / total.max(1)).min(width);
        let bar = format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled));
        let length = bar.len() + 1 + status.chars().count();
        *widest_line = length.max(*widest_line);
        let padding = " ".repeat(*widest_line - length);
        anstream::eprint!("\r{PROGRESS_BAR}{bar}{PROGRESS_BAR:#} {status}{padding}");
    } else if done == total || done.is_multiple_of((total / 10).max(1)) {
        eprintln!("{status}");
    }
}

/// An interval that reaches a 0% or 100% score has no finite Elo end.
pub(super) fn margin_text(margin: f64) -> String {
    if margin > 1000.0 {
        "inf".to_owned()
    } else {
        format!("{margin:.1}")
    }
}

/// The final summary, as printed on stdout.
pub fn format_summary(summary: &MatchSummary, sprt: Option<&SprtConfig>) -> String {
    let [a, b] = &summary.names;
    let r = &summary.results;
    let mut out = String::new();
    out.push_str(&format!(
        "Score of {a} vs {b}: {} - {} - {} [{:.3}] {}\n",
        r.wins,
        r.losses,
        r.draws,
        r.score(),
        r.games()
    ));
    for (index, colour) in ["p1", "p2"].iter().enumerate() {
        let c = &summary.by_colour[index];
        out.push_str(&format!(
            "{a} as {colour}: {} - {} - {} [{:.3}] {}\n",
            c.wins,
            c.losses,
            c.draws,
            c.score(),
            c.games()
        ));
    }
    match r.elo() {
        Some(e) if r.wins + r.losses > 0 && r.score() > 0.0 && r.score() < 1.0 => out.push_str(
            &format!("Elo difference: {:+.1} +/- {:.1} (95%)", e.elo, e.margin),
        ),
        _ => out.push_str("Elo difference: undefined (score 0% or 100%, or no decisive game)"),
    }
    if let Some(los) = r.los() {
        out.push_str(&format!(", LOS: {:.1} %", los * 100.0));
    }
    out.push('\n');
    let p = &summary.pentanomial;
    if p.pairs() > 0 {
        out.push_str(&format!(
            "Pentanomial [0, 0.5, 1, 1.5, 2]: {:?} ({} pairs)",
            p.0,
            p.pairs()
        ));
        if let Some(e) = p
            .elo()
            .filter(|_| p.0[0] + p.0[1] + p.0[2] + p.0[3] > 0 && p.0[1..].iter().sum::<u64>() > 0)
        {
            out.push_str(&format!(
                ", Elo {:+.1} +/- {}",
                e.elo,
                margin_text(e.margin)
            ));
        }
        out.push('\n');
    }
    if let (Some((llr, decision)), Some(config)) = (summary.sprt, sprt) {
        let (lower, upper) = config.bounds();
        let verdict = match decision {
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::Continue => "no decision",
        };
        out.push_str(&format!(
            "SPRT (elo0 {}, elo1 {}): LLR {llr:.2} ({lower:.2}, {upper:.2}) {verdict}\n",
            config.elo0, config.elo1
        ));
    }
    out.push_str(&game_ends_line(&summary.terminations));
    if summary.disagreements > 0 {
        out.push_str(&format!(
            "Result disagreements (engine 'query result' vs referee): {}\n",
            summary.disagreements
        ));
    }
    if summary.ponder.iter().any(|p| p.searches > 0) {
        let [pa, pb] = summary.ponder;
        out.push_str(&format!(
            "Ponderhits: {a} {}/{}, {b} {}/{}\n",
            pa.hits, pa.searches, pb.hits, pb.searches
        ));
    }
    out.push_str(&moves_line(&summary.overhead, summary.wall_time));
    out
}

/// How many games ended each way, every way named.
pub(super) fn game_ends_line(terminations: &BTreeMap<Termination, u64>) -> String {
    let kinds: Vec<String> = Termination::ALL
        .iter()
        .map(|t| {
            format!(
                "{} {}",
                t.keyword(),
                terminations.get(t).copied().unwrap_or(0)
            )
        })
        .collect();
    format!("Game ends: {}\n", kinds.join(", "))
}

/// Moves and times; nothing for a merge, whose records hold no timings.
pub(super) fn moves_line(o: &Overhead, wall_time: Duration) -> String {
    if o.moves == 0 {
        return String::new();
    }
    format!(
        "Moves: {}, engine time {:.3} ms/move, referee overhead {:.3} ms/move, wall {:.1} s\n",
        o.moves,
        o.engine_time.as_secs_f64() * 1000.0 / o.moves as f64,
        o.referee_time.as_secs_f64() * 1000.0 / o.moves as f64,
        wall_time.as_secs_f64()
    )
}

/// `bg-referee merge`: the summary of a match from its slices' JSON-line
/// records (`--shard K/N ... --records F`), as one run of the whole match
/// would give it: scores, by colour, Elo, pentanomial, game ends and, with
/// `sprt`, its state once every game is counted. Engine and referee times
/// and ponder counts are not in the records and are left out. A game found
/// twice, or played under other rules than the rest, is an error.
pub fn merge_records(paths: &[String], sprt: Option<&SprtConfig>) -> Result<MatchSummary, String> {
    Ok(summary_of_games(&read_slices(paths)?, sprt))
}

/// The games of a run's slices by game number (from 0); a game found twice
/// is an error.
pub fn read_slices(paths: &[String]) -> Result<BTreeMap<usize, GameRecord>, String> {
    let mut games: BTreeMap<usize, GameRecord> = BTreeMap::new();
    for path in paths {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        for record in parse_json_lines(&text).map_err(|e| format!("{path}: {e}"))? {
            // Games under other rules are another match, whatever their
            // numbers say.
            let other_rules = games
                .values()
                .next()
                .filter(|first| first.rules != record.rules);
            if let Some(first) = other_rules {
                return Err(format!(
                    "{path}: game {} was played under other rules than game {}",
                    record.round, first.round
                ));
            }
            let game = record
                .round
                .checked_sub(1)
                .ok_or_else(|| format!("{path}: a record has no game number"))?;
            if games.insert(game, record).is_some() {
                return Err(format!("{path}: game {} is in two records", game + 1));
            }
        }
    }
    Ok(games)
}

/// A match's summary from its games, as `merge_records` gives it.
pub fn summary_of_games(
    games: &BTreeMap<usize, GameRecord>,
    sprt: Option<&SprtConfig>,
) -> MatchSummary {
    let mut summary = MatchSummary::default();
    for (&game, record) in games {
        let first_index = (game % 2) ^ usize::from(turned(record));
        for (name, index) in summary.names.iter_mut().zip([first_index, 1 - first_index]) {
            if name.is_empty() {
                name.clone_from(&record.players[index]);
            }
        }
        summary.add_game(game, record, sprt);
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Outcome;
    use crate::referee::adjudication::GameResult;
    use crate::referee::swap2::Swap2Record;

    #[test]
    fn a_swap2_game_counts_for_the_engine_that_played_each_colour() {
        let mut record = GameRecord {
            result: GameResult::by_rules(Outcome::Win(Player::P1)),
            ..GameRecord::default()
        };
        assert_eq!(first_engine_score(0, &record), 1.0);
        // The proposer (the first engine in game 0) took White and lost.
        record.swap2 = Some(Swap2Record {
            proposer_white: true,
            ..Swap2Record::default()
        });
        assert_eq!(first_engine_score(0, &record), 0.0);
        assert_eq!(first_engine_score(1, &record), 1.0);
        let mut summary = MatchSummary::default();
        summary.add_game(0, &record, None);
        assert_eq!(summary.by_colour[1].losses, 1, "a loss as player 2");
    }
}
