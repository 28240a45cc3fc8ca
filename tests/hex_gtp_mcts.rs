//! Hex's GTP front-end for HexGui's Monte Carlo analysis (`hex-mcts-*`)
//! and its clock (`time_settings`, `time_left`): the statistics come from
//! the real tree, bad input is refused and changes nothing.

use assert_cmd::Command;
use std::collections::{HashMap, HashSet};
use std::time::Duration;

mod common;

/// The replies of one GTP session, without their `= `/`? ` kept apart.
fn replies(input: &str) -> Vec<String> {
    let output = Command::cargo_bin("bg-hex")
        .expect("hex binary")
        .arg("--gtp")
        .write_stdin(input)
        .timeout(Duration::from_secs(120))
        .output()
        .expect("run hex");
    assert!(output.status.success(), "{:?}", output.status);
    let text = String::from_utf8(output.stdout).expect("utf-8");
    text.split("\n\n")
        .filter(|r| !r.is_empty())
        .map(str::to_owned)
        .collect()
}

fn success(reply: &str) -> &str {
    reply
        .strip_prefix("= ")
        .or_else(|| reply.strip_prefix("="))
        .unwrap_or_else(|| panic!("not a success: {reply}"))
}

/// `cell text` pairs of a `pspairs` reply.
fn pairs(reply: &str) -> Vec<(String, String)> {
    let words: Vec<&str> = success(reply).split_whitespace().collect();
    assert!(words.len().is_multiple_of(2), "{reply}");
    words
        .chunks(2)
        .map(|pair| (pair[0].to_owned(), pair[1].to_owned()))
        .collect()
}

/// The candidates of `hex-mcts-candidates`: the node's visits, the PV and
/// each candidate's move and visits, best first.
fn candidates(reply: &str) -> (u64, Vec<String>, Vec<(String, u64)>) {
    let mut lines = success(reply).lines();
    let head: Vec<&str> = lines
        .next()
        .expect("head line")
        .split_whitespace()
        .collect();
    assert_eq!((head[0], head[2]), ("visits", "pv"), "{reply}");
    let visits = head[1].parse().expect("node visits");
    let pv = head[3..].iter().map(|s| s.to_string()).collect();
    let moves = lines
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(words[1], "visits", "{line}");
            (words[0].to_owned(), words[2].parse().expect("visits"))
        })
        .collect();
    (visits, pv, moves)
}

/// Checks one report against the legal moves of its position.
fn check_report(reply: &str, visits_reply: &str, legal: &HashSet<String>) -> Vec<String> {
    let (node_visits, pv, moves) = candidates(reply);
    assert!(!moves.is_empty(), "{reply}");
    let sum: u64 = moves.iter().map(|m| m.1).sum();
    assert!(sum <= node_visits, "children {sum} > node {node_visits}");
    assert!(sum > 0, "{reply}");
    assert_eq!(pv.first(), Some(&moves[0].0), "the PV starts with the best");
    for (mv, _) in &moves {
        assert!(legal.contains(mv), "{mv} is no legal move: {reply}");
    }
    let distinct: HashSet<&String> = pv.iter().collect();
    assert_eq!(distinct.len(), pv.len(), "a cell twice in the PV: {pv:?}");
    for mv in &pv {
        assert!(legal.contains(mv), "{mv} of the PV is no empty cell");
    }
    let by_move: HashMap<String, u64> = moves.into_iter().collect();
    for (cell, visits) in pairs(visits_reply) {
        assert_eq!(by_move.get(&cell), visits.parse().ok().as_ref(), "{cell}");
    }
    pv
}

fn legal(reply: &str) -> HashSet<String> {
    success(reply)
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

/// After `hex-mcts-search` the candidates, visits, values and PV are the
/// tree's at this position; after `genmove` the tree's node one ply down.
#[test]
fn gtp_mcts_analysis_reads_the_searched_tree() {
    let r = replies(
        "boardsize 9\nhex-setoption Swap false\nplay b e5\nhex-mcts-values\n\
         hex-legal\nhex-mcts-search 3000\nhex-mcts-candidates\nhex-mcts-visits\n\
         hex-mcts-values\nhex-mcts-pv w\nhex-fen\ngenmove w\nhex-legal\n\
         hex-mcts-candidates\nhex-mcts-visits\nhexgui-analyze_commands\n",
    );
    assert_eq!(r[..3], ["= "; 3]);
    assert!(r[3].starts_with("? no Monte Carlo search"), "{}", r[3]);
    let before = legal(&r[4]);
    assert_eq!(r[5], r[6], "the search answers with its candidates");
    let (visits, _, _) = candidates(&r[6]);
    assert!(visits >= 3_000, "{}", r[6]);
    let pv = check_report(&r[6], &r[7], &before);
    let values = pairs(&r[8]);
    assert_eq!(values.len(), pairs(&r[7]).len());
    for (cell, text) in &values {
        let ok = text.starts_with('.') || text.starts_with("1.000") || text.starts_with(['W', 'L']);
        assert!(ok && before.contains(cell), "{cell} {text}");
    }
    assert_eq!(success(&r[9]).split_whitespace().collect::<Vec<_>>(), pv);
    assert_eq!(
        r[10], "= 9/9/9/9/4x4/9/9/9/9 w",
        "the analysis leaves the position alone"
    );
    let played = success(&r[11]).to_owned();
    assert!(before.contains(&played), "{played}");
    let after = legal(&r[12]);
    assert!(!after.contains(&played));
    check_report(&r[13], &r[14], &after);
    for line in [
        "pspairs/MCTS Values/hex-mcts-values",
        "pspairs/MCTS Visits/hex-mcts-visits",
        "var/MCTS PV/hex-mcts-pv %m",
        "string/MCTS Search (10 s)/hex-mcts-search 10s",
    ] {
        assert!(r[15].contains(line), "{}", r[15]);
    }
}

#[test]
fn gtp_mcts_commands_refuse_bad_arguments() {
    let r = replies(
        "boardsize 7\nhex-mcts-search\nhex-mcts-search 0\nhex-mcts-search -2s\n\
         hex-mcts-search xs\nhex-mcts-search 1 2\nhex-mcts-search 500\n\
         hex-mcts-pv purple\nhex-mcts-pv b w\nhex-mcts-values b\nhex-mcts-pv\n\
         boardsize 5\nhex-mcts-visits\nhex-fen\n",
    );
    assert_eq!(r[0], "= ");
    for reply in &r[1..6] {
        assert!(reply.starts_with("? usage: hex-mcts-search"), "{reply}");
    }
    success(&r[6]);
    for reply in &r[7..10] {
        assert!(reply.starts_with("? "), "{reply}");
    }
    assert!(!success(&r[10]).is_empty(), "the PV is still there");
    assert_eq!(r[11], "= ");
    assert!(r[12].starts_with("? no Monte Carlo search"), "{}", r[12]);
    assert_eq!(r[13], "= 5/5/5/5/5 b");
}

/// `# interrupt` ends a long analysis search as it ends `genmove`.
#[test]
fn gtp_interrupt_ends_a_long_mcts_search() {
    let mut hex = common::Engine::start_with_args("hex", &["--gtp"]);
    hex.send("boardsize 11");
    hex.send("hex-mcts-search 3600s");
    // `boardsize`'s reply and the blank line after it.
    hex.read_until(str::is_empty);
    std::thread::sleep(Duration::from_millis(300));
    hex.send("# interrupt");
    hex.send("hex-mcts-visits");
    let visits = hex.read_until(|line| line.starts_with("= visits "));
    assert_eq!(visits.len(), 1, "no other reply comes first: {visits:?}");
    hex.send("quit");
    let (status, _) = hex.finish_with_status();
    assert!(status.success(), "{status:?}");
}

/// GTP 2's `time_settings`: absolute time, byo-yomi, no limit; bad
/// arguments are errors. The moves are checked legal, not timed.
#[test]
fn gtp_time_settings_are_taken_and_bad_ones_refused() {
    let r = replies(
        "boardsize 7\nhex-setoption Swap false\nknown_command time_settings\ntime_settings 0 1 0\n\
         time_settings 10 x 0\ntime_settings 1 2\ntime_settings -1 0 0\n\
         time_settings 1 0 1.5\ntime_settings 0 0.05 1\ngenmove b\n\
         time_settings 30 0 0\ntime_left w 0.2 0\ngenmove w\n\
         time_settings 60 0.1 5\ntime_left b 0.3 2\ngenmove b\ntime_left b x\n",
    );
    let r = &r[1..];
    assert_eq!(r[0], "= ");
    assert_eq!(r[1], "= true");
    assert_eq!(r[2], "= ");
    for reply in &r[3..7] {
        assert!(reply.starts_with("? usage: time_settings"), "{reply}");
    }
    assert_eq!(r[7], "= ");
    // Three moves on distinct cells (no swap): every genmove answered.
    let cells: Vec<&str> = [&r[8], &r[11], &r[14]]
        .iter()
        .map(|reply| success(reply))
        .collect();
    assert_eq!(cells.iter().collect::<HashSet<_>>().len(), 3, "{cells:?}");
    assert_eq!((r[9].as_str(), r[10].as_str()), ("= ", "= "));
    assert_eq!((r[12].as_str(), r[13].as_str()), ("= ", "= "));
    assert!(r[15].starts_with("? usage: time_left"), "{}", r[15]);
}
