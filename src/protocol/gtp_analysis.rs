//! The GTP analysis commands that show virtual connections on HexGui's
//! board: carriers between two cells, edge-to-edge connections, the
//! must-play cells and the inferior cells (dead, captured, vulnerable,
//! dominated). Cell lists answer as HexGui's `plist` type (cell names
//! separated by spaces), the rest as text.

use crate::core::game::{Game, Player};
use crate::games::hex::inferior::InferiorCells;
use crate::games::hex::vc::{mustplay, Budget, CellSet, Connections, Verdict};
use crate::games::hex::{Hex, HexMove};

/// A GTP reply: success or failure text.
type Reply = Result<String, String>;

/// HexGui's menu lines for these commands (`type/label/command`): `%c` is
/// the colour chosen in HexGui, `%m` the colour to move, `%P` two cells
/// clicked on the board.
pub const ANALYZE_COMMANDS: &str = "plist/VC Between Cells Full/vc-between-cells-full %c %P\n\
plist/VC Between Cells Semi/vc-between-cells-semi %c %P\n\
string/VC Edge To Edge/vc-edge %c\n\
plist/VC Must-Play/vc-must-play %m\n\
string/VC Verdict/vc-verdict %m\n\
plist/Inferior Cells/inferior-cells %m\n\
plist/Inferior Dead/inferior-dead\n\
plist/Inferior Captured/inferior-captured %c\n\
plist/Inferior Vulnerable/inferior-vulnerable %m\n\
plist/Inferior Dominated/inferior-dominated %m\n\
string/Inferior Report/inferior-report %m";

/// The commands of this file, for `list_commands`.
pub const COMMANDS: [&str; 11] = [
    "vc-between-cells-full",
    "vc-between-cells-semi",
    "vc-edge",
    "vc-must-play",
    "vc-verdict",
    "inferior-cells",
    "inferior-dead",
    "inferior-captured",
    "inferior-vulnerable",
    "inferior-dominated",
    "inferior-report",
];

/// Answers one of `COMMANDS` about `position`.
pub fn answer(position: &Hex, command: &str, args: &[&str]) -> Reply {
    match command {
        "vc-between-cells-full" => between_cells(position, args, true),
        "vc-between-cells-semi" => between_cells(position, args, false),
        "vc-edge" => edge_to_edge(position, args),
        "vc-must-play" => must_play(position, args),
        "vc-verdict" => verdict(position, args),
        "inferior-cells"
        | "inferior-dead"
        | "inferior-captured"
        | "inferior-vulnerable"
        | "inferior-dominated" => inferior_cells(position, command, args),
        "inferior-report" => inferior_report(position, args),
        _ => Err("unknown command".into()),
    }
}

fn parse_colour(word: Option<&str>) -> Result<Player, String> {
    match word.map(str::to_ascii_lowercase).as_deref() {
        Some("b" | "black") => Ok(Player::P1),
        Some("w" | "white") => Ok(Player::P2),
        Some(other) => Err(format!("invalid color '{other}'")),
        None => Err("missing color".into()),
    }
}

fn parse_cell(position: &Hex, word: Option<&&str>) -> Result<usize, String> {
    let word = word.ok_or("missing cell")?;
    match position.parse_move(word) {
        Ok(mv) if !mv.is_swap() => Ok(mv.0 as usize),
        _ => Err(format!("invalid cell '{word}'")),
    }
}

fn cell_list(position: &Hex, cells: impl Iterator<Item = usize>) -> String {
    cells
        .map(|cell| position.format_move(HexMove::cell(cell)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `vc-between-cells-full|semi <colour> <cell> <cell>`: the smallest
/// carrier of a full (semi) connection between the colour's groups or
/// empty cells there; empty when there is none.
fn between_cells(position: &Hex, args: &[&str], full: bool) -> Reply {
    let usage = "usage: vc-between-cells-full|semi <color> <cell> <cell>";
    if args.len() != 3 {
        return Err(usage.into());
    }
    let colour = parse_colour(args.first().copied())?;
    let (from, to) = (
        parse_cell(position, args.get(1))?,
        parse_cell(position, args.get(2))?,
    );
    let vc = Connections::compute(position, colour, Budget::FULL);
    let node = |cell: usize| {
        vc.node_at(cell).ok_or_else(|| {
            let name = position.format_move(HexMove::cell(cell));
            format!("{name} holds a stone of the other color")
        })
    };
    let (a, b) = (node(from)?, node(to)?);
    let carriers = vc
        .between(a, b)
        .map(|pair| if full { &pair.full } else { &pair.semi });
    let smallest = carriers.and_then(|list| list.iter().min_by_key(|c| c.len()));
    Ok(smallest.map_or(String::new(), |carrier| cell_list(position, carrier.iter())))
}

/// `vc-edge <colour>`: every full and semi connection between the
/// colour's edges, one line each.
fn edge_to_edge(position: &Hex, args: &[&str]) -> Reply {
    if args.len() != 1 {
        return Err("usage: vc-edge <color>".into());
    }
    let colour = parse_colour(args.first().copied())?;
    let vc = Connections::compute(position, colour, Budget::FULL);
    let mut lines = Vec::new();
    for (kind, carriers) in [
        ("full", vc.edge_to_edge_full()),
        ("semi", vc.edge_to_edge_semi()),
    ] {
        for carrier in carriers {
            lines.push(format!("{kind} {}", cell_list(position, carrier.iter())));
        }
    }
    if lines.is_empty() {
        lines.push("none".into());
    }
    Ok(lines.join("\n"))
}

/// The position with `colour` to move (the verdict is for the mover).
fn with_mover(position: &Hex, args: &[&str], usage: &str) -> Result<Hex, String> {
    if args.len() != 1 {
        return Err(usage.into());
    }
    let colour = parse_colour(args.first().copied())?;
    let mut position = position.clone();
    position.set_side_to_move(colour);
    Ok(position)
}

/// `vc-must-play <colour>`: the cells outside which every move of the
/// colour loses: the must-play set, none when the game is lost, every
/// empty cell when H-search restricts nothing.
fn must_play(position: &Hex, args: &[&str]) -> Reply {
    let position = with_mover(position, args, "usage: vc-must-play <color>")?;
    let cells: CellSet = match mustplay::verdict(&position, Budget::FULL) {
        Verdict::MustPlay(cells) => cells,
        Verdict::Loss { .. } => CellSet::EMPTY,
        Verdict::Win { .. } | Verdict::Open => position.empty_cells().collect(),
    };
    Ok(cell_list(&position, cells.iter()))
}

/// `vc-verdict <colour>`: what H-search proves for the colour to move.
fn verdict(position: &Hex, args: &[&str]) -> Reply {
    let position = with_mover(position, args, "usage: vc-verdict <color>")?;
    Ok(match mustplay::verdict(&position, Budget::FULL) {
        Verdict::Win { plies, carrier } => format!(
            "win within {plies} plies, carrier {}",
            cell_list(&position, carrier.iter())
        ),
        Verdict::Loss { plies } => format!("loss within {plies} plies"),
        Verdict::MustPlay(cells) => format!("must play {}", cell_list(&position, cells.iter())),
        Verdict::Open => "open".into(),
    })
}

/// The inferior-cell analysis for the colour named in `args` (the side to
/// move if none), as if it were to move.
fn inferior_for(
    position: &Hex,
    args: &[&str],
    usage: &str,
) -> Result<(Hex, InferiorCells), String> {
    let colour = match args {
        [] => position.side_to_move_player(),
        [word] => parse_colour(Some(word))?,
        _ => return Err(usage.into()),
    };
    let mut position = position.clone();
    position.set_side_to_move(colour);
    let inferior = InferiorCells::analyse(&position, colour);
    Ok((position, inferior))
}

/// `inferior-cells [colour]`: every inferior cell for the colour (dead,
/// captured by either colour, vulnerable, dominated); `inferior-dead`,
/// `inferior-captured [colour]` (the cells that colour captured),
/// `inferior-vulnerable [colour]`, `inferior-dominated [colour]`: one kind.
fn inferior_cells(position: &Hex, command: &str, args: &[&str]) -> Reply {
    let usage = format!("usage: {command} [<color>]");
    let (position, inferior) = inferior_for(position, args, &usage)?;
    let mut cells: Vec<usize> = match command {
        "inferior-dead" => inferior.dead().collect(),
        "inferior-captured" => inferior.captured_by(inferior.mover).to_vec(),
        "inferior-vulnerable" => inferior.vulnerable.iter().map(|&(c, _)| c).collect(),
        "inferior-dominated" => inferior.dominated.iter().map(|&(c, _)| c).collect(),
        _ => inferior
            .fill
            .stones()
            .map(|(c, _)| c)
            .chain(inferior.vulnerable.iter().map(|&(c, _)| c))
            .chain(inferior.dominated.iter().map(|&(c, _)| c))
            .collect(),
    };
    cells.sort_unstable();
    cells.dedup();
    Ok(cell_list(&position, cells.into_iter()))
}

/// `inferior-report [colour]`: each kind on its own line, vulnerable cells
/// with their killer (`c3>c4`) and dominated ones with a dominator, and
/// the winner when the fill-in joins a colour's edges.
fn inferior_report(position: &Hex, args: &[&str]) -> Reply {
    let (position, inferior) = inferior_for(position, args, "usage: inferior-report [<color>]")?;
    let name = |cell: usize| position.format_move(HexMove::cell(cell));
    let pairs = |pairs: &[(usize, usize)]| {
        let names: Vec<String> = pairs
            .iter()
            .map(|&(cell, by)| format!("{}>{}", name(cell), name(by)))
            .collect();
        names.join(" ")
    };
    let mut lines = vec![
        format!("dead {}", cell_list(&position, inferior.dead())),
        format!(
            "captured-black {}",
            cell_list(&position, inferior.captured_by(Player::P1).iter().copied())
        ),
        format!(
            "captured-white {}",
            cell_list(&position, inferior.captured_by(Player::P2).iter().copied())
        ),
        format!("vulnerable {}", pairs(&inferior.vulnerable)),
        format!("dominated {}", pairs(&inferior.dominated)),
    ];
    if let Some(winner) = inferior.filled_winner() {
        let colour = if winner == Player::P1 {
            "black"
        } else {
            "white"
        };
        lines.push(format!("fill-in wins for {colour}"));
    }
    Ok(lines
        .iter()
        .map(|line| line.trim_end().to_owned())
        .collect::<Vec<_>>()
        .join("\n"))
}
