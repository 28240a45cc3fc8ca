//! Which engines meet on which openings, and the game numbers they get: a
//! two-engine match, a round-robin (every pair) and a gauntlet (the first
//! engine against each of the others) are one schedule of units, a unit
//! being one pair of engines on one opening, played with colours swapped.

/// How the engines of a tournament meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentKind {
    RoundRobin,
    Gauntlet,
}

impl TournamentKind {
    pub fn parse(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "round-robin" | "roundrobin" => Ok(TournamentKind::RoundRobin),
            "gauntlet" => Ok(TournamentKind::Gauntlet),
            other => Err(format!(
                "unknown tournament '{other}': round-robin or gauntlet"
            )),
        }
    }

    /// The word `--tournament` takes, also the JSON table's.
    pub fn keyword(self) -> &'static str {
        match self {
            TournamentKind::RoundRobin => "round-robin",
            TournamentKind::Gauntlet => "gauntlet",
        }
    }

    /// The pairs of engine indices that meet, the lower index first.
    pub fn engine_pairs(self, engines: usize) -> Vec<[usize; 2]> {
        match self {
            TournamentKind::RoundRobin => (0..engines)
                .flat_map(|a| (a + 1..engines).map(move |b| [a, b]))
                .collect(),
            TournamentKind::Gauntlet => (1..engines).map(|b| [0, b]).collect(),
        }
    }
}

/// One pair of engines on one opening: `engines[0]` is player 1 in the
/// first game, `engines[1]` in the second (if the pair has one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub engines: [usize; 2],
    /// Index into the schedule's openings.
    pub opening: usize,
    /// Game numbers from 0; the record's round is one more.
    pub games: Vec<usize>,
}

/// Every unit of a schedule in which each pair of engines plays
/// `games_per_pair` games. Units go opening by opening, every pair on each
/// before the next, so the table stays balanced while games finish (and if
/// the run is cut short); games are numbered in that order, so a pair of
/// engines alone numbers them as a two-engine match always has.
pub fn units(engine_pairs: &[[usize; 2]], games_per_pair: usize) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut next_game = 0;
    for opening in 0..games_per_pair.div_ceil(2) {
        let count = (games_per_pair - 2 * opening).min(2);
        for &engines in engine_pairs {
            units.push(Unit {
                engines,
                opening,
                games: (next_game..next_game + count).collect(),
            });
            next_game += count;
        }
    }
    units
}

/// Names that would make two engines one row of the table: those given by
/// `name=`, or else the command. Returns the first clash found.
pub fn duplicate_name(names: &[String]) -> Option<(usize, usize)> {
    names.iter().enumerate().find_map(|(later, name)| {
        names[..later]
            .iter()
            .position(|earlier| earlier == name)
            .map(|earlier| (earlier, later))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_meets_every_pair_and_gauntlet_only_the_first() {
        let rr = TournamentKind::RoundRobin.engine_pairs(4);
        assert_eq!(rr, [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]);
        let gauntlet = TournamentKind::Gauntlet.engine_pairs(4);
        assert_eq!(gauntlet, [[0, 1], [0, 2], [0, 3]]);
        assert!(TournamentKind::Gauntlet.engine_pairs(1).is_empty());
        assert_eq!(
            TournamentKind::parse("Round-Robin"),
            Ok(TournamentKind::RoundRobin)
        );
        assert!(TournamentKind::parse("swiss").is_err());
    }

    #[test]
    fn units_number_games_once_and_share_openings_between_pairs() {
        let pairs = TournamentKind::RoundRobin.engine_pairs(3);
        let all = units(&pairs, 3);
        let games: Vec<usize> = all.iter().flat_map(|u| u.games.clone()).collect();
        assert_eq!(games, (0..9).collect::<Vec<_>>());
        // Two openings: the second has one game a pair, as an odd match.
        assert_eq!(all.len(), 6);
        assert!(all[..3]
            .iter()
            .all(|u| u.opening == 0 && u.games.len() == 2));
        assert!(all[3..]
            .iter()
            .all(|u| u.opening == 1 && u.games.len() == 1));
        assert_eq!(all[4].engines, [0, 2]);
    }

    #[test]
    fn one_pair_numbers_games_as_a_match() {
        for unit in units(&[[0, 1]], 7) {
            let first = 2 * unit.opening;
            let expected: Vec<usize> = (first..(first + 2).min(7)).collect();
            assert_eq!(unit.games, expected);
        }
    }

    #[test]
    fn a_duplicate_name_is_found() {
        let names = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(duplicate_name(&names(&["a", "b", "c"])), None);
        assert_eq!(duplicate_name(&names(&["a", "b", "a"])), Some((0, 2)));
    }
}
