//! What a record says about a game besides its moves: where, when and under
//! which rules it was played. The same in every format.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::core::{Game, OptionKind};

/// What the games of one match (or one session at the board) share in
/// their records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordHeader {
    /// PGN's Event, SGF's `EV`.
    pub event: String,
    /// PGN's Site, SGF's `PC`.
    pub site: String,
    /// Every rule option of the game with its value (`rules_in_full`).
    pub rules: Vec<(String, String)>,
}

impl RecordHeader {
    /// The header of games of `G` played on this machine under the rule
    /// options `given` (`--rule`).
    pub fn new<G: Game>(event: &str, site: Option<&str>, given: &[(String, String)]) -> Self {
        RecordHeader {
            event: event.to_owned(),
            site: site.map_or_else(host_name, str::to_owned),
            rules: rules_in_full::<G>(given),
        }
    }
}

/// The event of a match when `--event` names none.
pub const DEFAULT_EVENT: &str = "bg-referee match";

/// Today's date in UTC, `YYYY-MM-DD`: the records of one match agree on it
/// whatever the machines' time zones. `None` if the clock is before 1970.
pub fn utc_date_today() -> Option<String> {
    let seconds = SystemTime::now().duration_since(UNIX_EPOCH).ok()?.as_secs();
    Some(civil_date(seconds / 86_400))
}

/// The Gregorian date `days` after 1970-01-01.
fn civil_date(days: u64) -> String {
    // Counted in 400-year eras that start on 1 March, so that the leap day
    // is the last day of a year and every month before it has a fixed
    // length.
    let days = days as i64 + 719_468; // 0000-03-01 to 1970-01-01
    let era = days / 146_097;
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = (month_from_march + 2) % 12 + 1;
    let year = era * 400 + year_of_era + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// This machine's name, `?` (PGN's unknown) when it has none to give.
pub fn host_name() -> String {
    nix::unistd::gethostname()
        .ok()
        .and_then(|name| name.into_string().ok())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "?".to_owned())
}

/// The rules a game of `G` is played under, as rule options: every option
/// the game has, under its own spelling, with the value `given` sets (any
/// case of the name; the last setting wins, as in `build_rules`) or else its
/// default. A record that holds them all replays the same even after a
/// default changes. Options the game does not know are kept as given.
pub fn rules_in_full<G: Game>(given: &[(String, String)]) -> Vec<(String, String)> {
    let value_given = |name: &str| {
        given
            .iter()
            .rev()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.trim().to_owned())
    };
    let specs = G::rule_options();
    let mut rules: Vec<(String, String)> = specs
        .iter()
        .filter_map(|spec| {
            let default = match &spec.kind {
                OptionKind::Spin { default, .. } => default.to_string(),
                OptionKind::Check { default } => default.to_string(),
                OptionKind::Combo { default, .. } | OptionKind::Text { default } => default.clone(),
                OptionKind::Button => return None,
            };
            Some((
                spec.name.to_owned(),
                value_given(spec.name).unwrap_or(default),
            ))
        })
        .collect();
    for (name, value) in given {
        if specs
            .iter()
            .any(|spec| spec.name.eq_ignore_ascii_case(name))
        {
            continue;
        }
        match rules.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some(kept) => kept.1 = value.trim().to_owned(),
            None => rules.push((name.clone(), value.trim().to_owned())),
        }
    }
    rules
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::Gomoku;
    use crate::games::hex::Hex;

    #[test]
    fn dates_are_the_calendar_days_after_1970() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(59), "1970-03-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(19_782), "2024-02-29");
        assert_eq!(civil_date(20_453), "2025-12-31");
        let today = utc_date_today().unwrap();
        assert!(today.len() == 10 && today.as_bytes()[4] == b'-', "{today}");
    }

    #[test]
    fn the_rules_in_full_fill_the_defaults_in_the_games_spelling() {
        let given = [("boardsize".to_owned(), "7".to_owned())];
        let hex = rules_in_full::<Hex>(&given);
        let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect()
        };
        assert_eq!(hex, pairs(&[("BoardSize", "7"), ("Swap", "true")]));
        let renju = [("Rule".to_owned(), "renju".to_owned())];
        assert_eq!(
            rules_in_full::<Gomoku>(&renju),
            pairs(&[("BoardSize", "15"), ("Rule", "renju")])
        );
    }
}
