//! The core's modules import each other without a cycle: every search
//! (`search`, `mcts`, `dfpn`) builds on `knowledge` and `control`, never the
//! other way round, and no search reaches into another. Read from the
//! source's `use` lines, as a reader of the code would follow them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const CORE: &str = "src/core";

/// Every `.rs` file under `dir`, but the test files.
fn source_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let entries = fs::read_dir(dir).expect("src/core is readable");
    for entry in entries.map(|e| e.expect("a directory entry")) {
        let path = entry.path();
        if path.is_dir() {
            files.extend(source_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            files.push(path);
        }
    }
    files
}

/// The core module a file belongs to (`search` for `src/core/search/x.rs`),
/// and whether `super::` in it names the core itself.
fn module_of(path: &Path) -> (String, bool) {
    let relative = path.strip_prefix(CORE).expect("a file of the core");
    let parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    let top_level_file = parts.len() == 1 || parts.get(1).is_some_and(|p| p == "mod");
    (parts[0].clone(), top_level_file)
}

/// The full paths a `use` tree names: `a::{b, c::{d}}` gives `a::b`, `a::c::d`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').expect("balanced braces")];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| expand(&format!("{prefix}{}", p.trim())))
        .collect()
}

/// The other core modules `path`'s code imports (test modules left out).
fn imports(path: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(path).expect("a readable source file");
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let (module, super_is_core) = module_of(path);
    let mut found = BTreeSet::new();
    for statement in code.split(';') {
        let statement = statement.split_whitespace().collect::<Vec<_>>().join(" ");
        let Some(tree) = statement
            .strip_prefix("pub use ")
            .or_else(|| statement.strip_prefix("use "))
        else {
            continue;
        };
        for full in expand(tree) {
            let full = full.replace(' ', "");
            let target = if let Some(rest) = full.strip_prefix("crate::core::") {
                rest
            } else if let Some(rest) = full.strip_prefix("super::").filter(|_| super_is_core) {
                rest
            } else {
                continue;
            };
            let name = target.split("::").next().unwrap_or("").to_string();
            if !name.is_empty() && name != module && name != "self" {
                found.insert(name);
            }
        }
    }
    found
}

fn core_graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in source_files(Path::new(CORE)) {
        let (module, _) = module_of(&file);
        graph.entry(module).or_default().extend(imports(&file));
    }
    graph
}

/// A cycle through `start`, if there is one, as the modules along it.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in graph.get(&node).into_iter().flatten() {
            if next == start {
                return Some([path.clone(), vec![next.clone()]].concat());
            }
            if seen.insert(next.clone()) {
                stack.push((next.clone(), [path.clone(), vec![next.clone()]].concat()));
            }
        }
    }
    None
}

#[test]
fn the_core_modules_import_each_other_without_a_cycle() {
    let graph = core_graph();
    for module in ["knowledge", "control", "search", "mcts", "dfpn"] {
        assert!(graph.contains_key(module), "{module} is read");
    }
    for module in graph.keys() {
        if let Some(cycle) = cycle_from(&graph, module) {
            panic!("import cycle: {}", cycle.join(" -> "));
        }
    }
    // Each search builds on the shared seam and on no other search.
    let searches = ["search", "mcts", "dfpn"];
    for search in searches {
        let uses = &graph[search];
        assert!(uses.contains("knowledge"), "{search} uses {uses:?}");
        for other in searches.iter().filter(|s| **s != search) {
            assert!(!uses.contains(*other), "{search} imports {other}");
        }
    }
    assert!(!graph["knowledge"]
        .iter()
        .any(|m| searches.contains(&m.as_str())));
}

#[test]
fn the_reader_sees_an_import_cycle_where_there_is_one() {
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        cycle_from(&graph, "a"),
        Some(vec!["a".to_string(), "b".to_string(), "a".to_string()])
    );
    let tree = "super::{dfpn::ProofCells, game::{Game, Player}}";
    assert_eq!(
        expand(tree),
        [
            "super::dfpn::ProofCells",
            "super::game::Game",
            "super::game::Player"
        ]
    );
}
