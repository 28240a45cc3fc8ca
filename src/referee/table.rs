//! A tournament's table: each engine's games, wins, draws, losses, points,
//! score and Elo with its 95% interval, sorted by points; the cross table
//! of pair results; as text for stdout and as JSON for tools. Also rebuilt
//! from the records of a tournament played in slices (`bg-referee merge`).

use std::collections::BTreeMap;
use std::time::Duration;

use crate::core::Player;

use super::adjudication::Termination;
use super::play::{Overhead, PonderCount};
use super::record::GameRecord;
use super::schedule::TournamentKind;
use super::stats::{EloEstimate, Trinomial};
use super::summary::{game_ends_line, margin_text, moves_line};

#[derive(Clone, Debug)]
pub struct Table {
    pub kind: TournamentKind,
    pub names: Vec<String>,
    /// `cross[i][j]`: engine i's wins, draws and losses against engine j.
    pub cross: Vec<Vec<Trinomial>>,
    pub terminations: BTreeMap<Termination, u64>,
    pub disagreements: u64,
    pub overhead: Overhead,
    pub wall_time: Duration,
    /// By engine.
    pub ponder: Vec<PonderCount>,
}

/// An engine's Elo: in a gauntlet the first engine is the others' zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EloColumn {
    Reference,
    Estimate(EloEstimate),
    /// A score of 0% or 100%, or no game.
    Undefined,
}

/// One engine's line of the table.
#[derive(Clone, Debug)]
pub struct Row {
    pub engine: usize,
    pub results: Trinomial,
    pub points: f64,
    pub elo: EloColumn,
}

pub fn points(results: &Trinomial) -> f64 {
    results.wins as f64 + 0.5 * results.draws as f64
}

impl Table {
    pub fn new(kind: TournamentKind, names: Vec<String>) -> Self {
        let n = names.len();
        Table {
            kind,
            names,
            cross: vec![vec![Trinomial::default(); n]; n],
            terminations: BTreeMap::new(),
            disagreements: 0,
            overhead: Overhead::default(),
            wall_time: Duration::ZERO,
            ponder: vec![PonderCount::default(); n],
        }
    }

    /// Counts a finished game between `seats` (player 1's engine, player
    /// 2's) for both sides.
    pub fn add_game(&mut self, seats: [usize; 2], record: &GameRecord) {
        let [p1, p2] = seats;
        match record.result.winner {
            None => {
                self.cross[p1][p2].draws += 1;
                self.cross[p2][p1].draws += 1;
            }
            Some(winner) => {
                let (won, lost) = if winner == Player::P1 {
                    (p1, p2)
                } else {
                    (p2, p1)
                };
                self.cross[won][lost].wins += 1;
                self.cross[lost][won].losses += 1;
            }
        }
        *self
            .terminations
            .entry(record.result.termination)
            .or_default() += 1;
        self.disagreements += record.notes.len() as u64;
    }

    /// An engine's results against all its opponents.
    pub fn results(&self, engine: usize) -> Trinomial {
        self.cross[engine]
            .iter()
            .fold(Trinomial::default(), |sum, r| Trinomial {
                wins: sum.wins + r.wins,
                draws: sum.draws + r.draws,
                losses: sum.losses + r.losses,
            })
    }

    pub fn games(&self) -> u64 {
        (0..self.names.len())
            .map(|e| self.results(e).games())
            .sum::<u64>()
            / 2
    }

    /// The engines by points, most first; ties keep the command line's
    /// order.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows: Vec<Row> = (0..self.names.len())
            .map(|engine| {
                let results = self.results(engine);
                Row {
                    engine,
                    results,
                    points: points(&results),
                    elo: self.elo(engine, &results),
                }
            })
            .collect();
        rows.sort_by(|a, b| b.points.total_cmp(&a.points));
        rows
    }

    /// Elo from the engine's score against its opponents: in a round-robin
    /// each meets the same others equally often, so this is its distance to
    /// their average; in a gauntlet the others only meet the first engine.
    fn elo(&self, engine: usize, results: &Trinomial) -> EloColumn {
        if self.kind == TournamentKind::Gauntlet && engine == 0 {
            return EloColumn::Reference;
        }
        let score = results.score();
        match results.elo() {
            Some(e) if score > 0.0 && score < 1.0 => EloColumn::Estimate(e),
            _ => EloColumn::Undefined,
        }
    }
}

fn elo_text(elo: EloColumn) -> String {
    match elo {
        EloColumn::Reference => "0 (reference)".to_owned(),
        // An even score computes to -0.0, which would print as a deficit.
        EloColumn::Estimate(e) if e.elo.abs() < 0.05 => {
            format!("+0.0 +/- {}", margin_text(e.margin))
        }
        EloColumn::Estimate(e) => format!("{:+.1} +/- {}", e.elo, margin_text(e.margin)),
        EloColumn::Undefined => "undefined".to_owned(),
    }
}

/// The table as printed on stdout at the end of a tournament.
pub fn format_table(table: &Table) -> String {
    let rows = table.rows();
    let width = table
        .names
        .iter()
        .map(|n| n.chars().count())
        .chain(["Engine".len()])
        .max()
        .unwrap_or(6);
    let mut out = format!(
        "{} of {} engines: {} games\n",
        match table.kind {
            TournamentKind::RoundRobin => "Round-robin",
            TournamentKind::Gauntlet => "Gauntlet",
        },
        table.names.len(),
        table.games()
    );
    out.push_str(&format!(
        "Rank  {:<width$}  Games     W     D     L  Points   Score  Elo (95%)\n",
        "Engine"
    ));
    for (rank, row) in rows.iter().enumerate() {
        let r = &row.results;
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>5} {:>5} {:>5} {:>5}  {:>6.1}  {:>5.1}%  {}\n",
            rank + 1,
            table.names[row.engine],
            r.games(),
            r.wins,
            r.draws,
            r.losses,
            row.points,
            r.score() * 100.0,
            elo_text(row.elo)
        ));
    }
    out.push_str(&format_cross_table(table, &rows, width));
    out.push_str(&game_ends_line(&table.terminations));
    if table.disagreements > 0 {
        out.push_str(&format!(
            "Result disagreements (engine 'query result' vs referee): {}\n",
            table.disagreements
        ));
    }
    if table.ponder.iter().any(|p| p.searches > 0) {
        let each: Vec<String> = (table.names.iter().zip(&table.ponder))
            .map(|(name, p)| format!("{name} {}/{}", p.hits, p.searches))
            .collect();
        out.push_str(&format!("Ponderhits: {}\n", each.join(", ")));
    }
    out.push_str(&moves_line(&table.overhead, table.wall_time));
    out
}

/// Rows and columns in the table's order; a cell is the row engine's
/// points out of its games against the column engine.
fn format_cross_table(table: &Table, rows: &[Row], name_width: usize) -> String {
    let cell = |row: usize, column: usize| {
        let r = &table.cross[row][column];
        if row == column {
            "-".to_owned()
        } else if r.games() == 0 {
            ".".to_owned()
        } else {
            format!("{:.1}/{}", points(r), r.games())
        }
    };
    let order: Vec<usize> = rows.iter().map(|r| r.engine).collect();
    let column_width = |column: usize| {
        order
            .iter()
            .map(|&row| cell(row, column).len())
            .chain([table.names[column].chars().count()])
            .max()
            .unwrap_or(1)
    };
    let widths: Vec<usize> = order.iter().map(|&c| column_width(c)).collect();
    let mut out = String::from(
        "Cross table (the row's points against the column, of the games between them):\n",
    );
    out.push_str(&format!("{:<name_width$}", ""));
    for (&column, width) in order.iter().zip(&widths) {
        out.push_str(&format!("  {:>width$}", table.names[column]));
    }
    out.push('\n');
    for &row in &order {
        out.push_str(&format!("{:<name_width$}", table.names[row]));
        for (&column, width) in order.iter().zip(&widths) {
            out.push_str(&format!("  {:>width$}", cell(row, column)));
        }
        out.push('\n');
    }
    out
}

/// The progress line of a tournament: games done and the points so far.
pub fn progress_status(table: &Table, done: usize, total: usize) -> String {
    let standings: Vec<String> = table
        .rows()
        .iter()
        .map(|row| format!("{} {:.1}", table.names[row.engine], row.points))
        .collect();
    format!("{done}/{total} {}", standings.join(", "))
}

#[derive(serde::Serialize)]
struct TableJson<'a> {
    tournament: &'static str,
    games: u64,
    /// The gauntlet's first engine, or null: Elo against the opponents.
    elo_reference: Option<&'a str>,
    engines: Vec<EngineJson<'a>>,
    pairs: Vec<PairJson<'a>>,
    /// Named as the records name them (`illegal-move`).
    game_ends: BTreeMap<Termination, u64>,
}

#[derive(serde::Serialize)]
struct EngineJson<'a> {
    rank: usize,
    name: &'a str,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    points: f64,
    score: f64,
    elo: Option<f64>,
    /// Half-width of the 95% interval; null where it has no finite end.
    elo_margin: Option<f64>,
}

/// A pair's results from the first engine's side.
#[derive(serde::Serialize)]
struct PairJson<'a> {
    engines: [&'a str; 2],
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
}

/// The table as one JSON object (`--results FILE`).
pub fn table_json(table: &Table) -> String {
    let engines = table
        .rows()
        .iter()
        .enumerate()
        .map(|(rank, row)| engine_json(table, rank, row))
        .collect();
    let n = table.names.len();
    let pairs = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .filter(|&(a, b)| table.cross[a][b].games() > 0)
        .map(|(a, b)| {
            let r = &table.cross[a][b];
            PairJson {
                engines: [&table.names[a], &table.names[b]],
                games: r.games(),
                wins: r.wins,
                draws: r.draws,
                losses: r.losses,
            }
        })
        .collect();
    let json = TableJson {
        tournament: table.kind.keyword(),
        games: table.games(),
        elo_reference: (table.kind == TournamentKind::Gauntlet)
            .then(|| table.names.first().map(String::as_str))
            .flatten(),
        engines,
        pairs,
        game_ends: Termination::ALL
            .iter()
            .map(|&t| (t, table.terminations.get(&t).copied().unwrap_or(0)))
            .collect(),
    };
    serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"
}

fn engine_json<'a>(table: &'a Table, rank: usize, row: &Row) -> EngineJson<'a> {
    let r = &row.results;
    let (elo, elo_margin) = match row.elo {
        EloColumn::Reference => (Some(0.0), Some(0.0)),
        EloColumn::Estimate(e) => (Some(e.elo), Some(e.margin).filter(|m| *m <= 1000.0)),
        EloColumn::Undefined => (None, None),
    };
    EngineJson {
        rank: rank + 1,
        name: &table.names[row.engine],
        games: r.games(),
        wins: r.wins,
        draws: r.draws,
        losses: r.losses,
        points: row.points,
        score: r.score(),
        elo,
        elo_margin,
    }
}

/// A tournament's table from its games' records (the slices of a run
/// with `--shard`), engines known by their names. It is a gauntlet when
/// one engine played every game, the first engine then; otherwise a
/// round-robin with the engines in the order they first play.
pub fn table_of_games(games: &BTreeMap<usize, GameRecord>) -> Table {
    let mut names: Vec<String> = Vec::new();
    for record in games.values() {
        for player in &record.players {
            if !names.contains(player) {
                names.push(player.clone());
            }
        }
    }
    let in_every_game = names
        .iter()
        .position(|name| games.values().all(|r| r.players.contains(name)));
    let kind = match in_every_game {
        Some(first) if names.len() > 2 => {
            let name = names.remove(first);
            names.insert(0, name);
            TournamentKind::Gauntlet
        }
        _ => TournamentKind::RoundRobin,
    };
    let mut table = Table::new(kind, names);
    for (game, record) in games {
        let index = |name: &String| table.names.iter().position(|n| n == name);
        match (index(&record.players[0]), index(&record.players[1])) {
            (Some(p1), Some(p2)) if p1 != p2 => table.add_game([p1, p2], record),
            _ => log::warn!("game {}: an engine plays itself; not counted", game + 1),
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::adjudication::GameResult;

    fn record(players: [&str; 2], winner: Option<Player>) -> GameRecord {
        GameRecord {
            game: "breakthrough".to_owned(),
            event: String::new(),
            site: String::new(),
            date: None,
            round: 1,
            players: players.map(str::to_owned),
            rules: Vec::new(),
            start_fen: None,
            opening: "startpos".to_owned(),
            board_size: None,
            moves: Vec::new(),
            result: GameResult {
                winner,
                termination: Termination::Rules,
                reason: String::new(),
            },
            notes: Vec::new(),
            swap2: None,
        }
    }

    #[test]
    fn every_game_counts_once_for_each_side() {
        let names = ["a", "b", "c"].map(str::to_owned).to_vec();
        let mut table = Table::new(TournamentKind::RoundRobin, names);
        table.add_game([0, 1], &record(["a", "b"], Some(Player::P1)));
        table.add_game([1, 0], &record(["b", "a"], None));
        table.add_game([2, 0], &record(["c", "a"], Some(Player::P2)));
        assert_eq!(table.games(), 3);
        let rows = table.rows();
        assert_eq!(rows[0].engine, 0);
        assert_eq!(rows[0].points, 2.5);
        let total: f64 = rows.iter().map(|r| r.points).sum();
        assert_eq!(total, 3.0);
        assert_eq!(table.cross[1][0].draws, 1);
        assert_eq!(table.cross[0][2].wins, 1);
        assert_eq!(rows[2].elo, EloColumn::Undefined);
        let text = format_table(&table);
        assert!(text.contains("Cross table"), "{text}");
        let json: serde_json::Value = serde_json::from_str(&table_json(&table)).unwrap();
        assert_eq!(json["games"], 3);
        assert_eq!(json["engines"][0]["points"], 2.5);
        assert_eq!(json["pairs"].as_array().map(Vec::len), Some(2));
    }

    #[test]
    fn records_with_one_engine_in_every_game_are_a_gauntlet() {
        let games: BTreeMap<usize, GameRecord> = [
            record(["b", "a"], Some(Player::P1)),
            record(["a", "c"], None),
            record(["d", "a"], Some(Player::P2)),
        ]
        .into_iter()
        .enumerate()
        .collect();
        let table = table_of_games(&games);
        assert_eq!(table.kind, TournamentKind::Gauntlet);
        assert_eq!(table.names[0], "a");
        assert_eq!(table.rows().len(), 4);
        assert_eq!(table.results(0).games(), 3);
        assert_eq!(table.elo(0, &table.results(0)), EloColumn::Reference);
    }
}
