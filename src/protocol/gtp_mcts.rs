//! The Monte Carlo search's tree over GTP, as HexGui draws it (after
//! MoHex's `mohex-values` and `mohex-get-pv`): the candidate moves of the
//! current position with their simulations and win rates, and the
//! principal variation. The statistics come from the engine core
//! (`Engine::tree_report`), the last search's tree at this position:
//! after `genmove` or `hex-mcts-search` here, or after `genmove` and the
//! opponent's reply, as MoHex finds them.

use std::time::Duration;

use crate::core::game::Game;
use crate::engine::{CandidateReport, SearchLimits, TreeReport};
use crate::games::hex::{Hex, HexMove};
use crate::wire::gtp::to_gtp_move;

/// A GTP reply: success or failure text.
type Reply = Result<String, String>;

/// HexGui's menu lines for these commands (`type/label/command`).
pub const ANALYZE_COMMANDS: &str = "string/MCTS Search (10 s)/hex-mcts-search 10s\n\
string/MCTS Search (10000 simulations)/hex-mcts-search 10000\n\
pspairs/MCTS Values/hex-mcts-values\n\
pspairs/MCTS Visits/hex-mcts-visits\n\
var/MCTS PV/hex-mcts-pv %m\n\
string/MCTS Candidates/hex-mcts-candidates";

/// The commands that read the tree, for `list_commands` (with
/// `hex-mcts-search`, which the session runs as it runs `genmove`).
pub const COMMANDS: [&str; 4] = [
    "hex-mcts-values",
    "hex-mcts-visits",
    "hex-mcts-pv",
    "hex-mcts-candidates",
];

/// The longest `hex-mcts-search` and the most simulations it takes.
const MAX_SECONDS: f64 = 3_600.0;
const MAX_SIMULATIONS: u64 = 1_000_000_000;

const USAGE: &str = "usage: hex-mcts-search <seconds>s | <simulations>";

/// `hex-mcts-search <seconds>s | <simulations>`: the limits of the search
/// (`10s`, `2.5s`: time; `10000`: simulations).
pub fn search_limits(args: &[&str]) -> Result<SearchLimits, String> {
    let [word] = args else {
        return Err(USAGE.into());
    };
    let word = word.to_ascii_lowercase();
    if let Some(seconds) = word.strip_suffix('s') {
        let seconds: f64 = seconds
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s <= MAX_SECONDS)
            .ok_or(USAGE)?;
        return Ok(SearchLimits {
            movetime: Some(Duration::from_secs_f64(seconds)),
            ..Default::default()
        });
    }
    let simulations: u64 = word
        .parse()
        .ok()
        .filter(|n| (1..=MAX_SIMULATIONS).contains(n))
        .ok_or(USAGE)?;
    Ok(SearchLimits {
        nodes: Some(simulations),
        ..Default::default()
    })
}

/// Answers one of `COMMANDS` at `position` from `report`.
pub fn answer(
    position: &Hex,
    report: Option<TreeReport<HexMove>>,
    command: &str,
    args: &[&str],
) -> Reply {
    let takes_colour = command == "hex-mcts-pv";
    if args.len() > usize::from(takes_colour) {
        let colour = if takes_colour { " [<color>]" } else { "" };
        return Err(format!("usage: {command}{colour}"));
    }
    if let Some(word) = args.first() {
        crate::wire::gtp::parse_colour(word)
            .ok_or_else(|| format!("invalid color '{}'", word.to_ascii_lowercase()))?;
    }
    let report =
        report.ok_or("no Monte Carlo search of this position: genmove or hex-mcts-search first")?;
    Ok(match command {
        "hex-mcts-values" => cell_pairs(position, &report, value_text),
        "hex-mcts-visits" => cell_pairs(position, &report, |c| c.visits.to_string()),
        "hex-mcts-pv" => moves_text(position, &report.principal_variation),
        _ => candidates_text(position, &report),
    })
}

/// `cell text` pairs (HexGui's `pspairs`) for the candidates that are
/// cells: the swap has no cell to be drawn on.
fn cell_pairs(
    position: &Hex,
    report: &TreeReport<HexMove>,
    text: impl Fn(&CandidateReport<HexMove>) -> String,
) -> String {
    report
        .candidates
        .iter()
        .filter(|c| !c.mv.is_swap())
        .map(|c| format!("{} {}", position.format_move(c.mv), text(c)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What HexGui writes on a cell: the win rate and the simulations,
/// `.563@1.2k` as MoHex writes them (short enough for a cell), or `W5` /
/// `L4` for a result proven in that many plies.
fn value_text(candidate: &CandidateReport<HexMove>) -> String {
    match candidate.proven {
        Some(plies) if plies > 0 => format!("W{plies}"),
        Some(plies) if plies < 0 => format!("L{}", -plies),
        Some(_) => "D".into(),
        None => {
            // Three digits after the point, the point alone before them.
            let thousandths = (candidate.value * 1_000.0).round().clamp(0.0, 1_000.0) as u32;
            let value = match thousandths {
                1_000 => "1.000".to_string(),
                n => format!(".{n:03}"),
            };
            format!("{value}@{}", short_count(candidate.visits))
        }
    }
}

fn short_count(count: u64) -> String {
    match count {
        0..=999 => count.to_string(),
        1_000..=999_999 => format!("{:.1}k", count as f64 / 1_000.0),
        _ => format!("{:.2}m", count as f64 / 1_000_000.0),
    }
}

fn moves_text(position: &Hex, moves: &[HexMove]) -> String {
    moves
        .iter()
        .map(|&mv| to_gtp_move(&position.format_move(mv)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One line for the node, then one per candidate, best first:
/// `d4 visits 1234 value 0.5630 score 44`, with `proven win in 5 plies`
/// where the tree proved it.
pub fn candidates_text(position: &Hex, report: &TreeReport<HexMove>) -> String {
    let mut lines = vec![format!(
        "visits {} pv {}",
        report.visits,
        moves_text(position, &report.principal_variation)
    )];
    for c in &report.candidates {
        let mut line = format!(
            "{} visits {} value {:.4} score {}",
            to_gtp_move(&position.format_move(c.mv)),
            c.visits,
            c.value,
            c.score
        );
        match c.proven {
            Some(plies) if plies > 0 => line.push_str(&format!(" proven win in {plies} plies")),
            Some(plies) if plies < 0 => line.push_str(&format!(" proven loss in {} plies", -plies)),
            Some(_) => line.push_str(" proven draw"),
            None => {}
        }
        lines.push(line);
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(visits: u64, value: f64, proven: Option<i32>) -> CandidateReport<HexMove> {
        CandidateReport {
            mv: HexMove::cell(0),
            visits,
            value,
            proven,
            score: 0,
        }
    }

    #[test]
    fn values_read_as_mohex_writes_them() {
        assert_eq!(value_text(&candidate(1_234, 0.5634, None)), ".563@1.2k");
        assert_eq!(value_text(&candidate(12, 1.0, None)), "1.000@12");
        assert_eq!(value_text(&candidate(2_500_000, 0.05, None)), ".050@2.50m");
        assert_eq!(value_text(&candidate(40, 1.0, Some(5))), "W5");
        assert_eq!(value_text(&candidate(40, 0.0, Some(-4))), "L4");
    }

    #[test]
    fn search_limits_take_seconds_or_simulations() {
        let time = search_limits(&["2.5s"]).expect("seconds");
        assert_eq!(time.movetime, Some(Duration::from_millis(2_500)));
        let count = search_limits(&["10000"]).expect("simulations");
        assert_eq!(count.nodes, Some(10_000));
        for bad in [
            &[][..],
            &["0"],
            &["-3s"],
            &["nans"],
            &["1e99s"],
            &["x"],
            &["1", "2"],
        ] {
            assert!(search_limits(bad).is_err(), "{bad:?}");
        }
    }
}
