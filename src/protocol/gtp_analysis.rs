//! The GTP analysis commands that show virtual connections on HexGui's
//! board: carriers between two cells, edge-to-edge connections, the
//! must-play cells and the dead cells. Cell lists answer as HexGui's
//! `plist` type (cell names separated by spaces), the rest as text.

use crate::core::game::{Game, Player};
use crate::games::hex::analysis::is_dead;
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
plist/Inferior (Dead) Cells/inferior-cells";

/// The commands of this file, for `list_commands`.
pub const COMMANDS: [&str; 6] = [
    "vc-between-cells-full",
    "vc-between-cells-semi",
    "vc-edge",
    "vc-must-play",
    "vc-verdict",
    "inferior-cells",
];

/// Answers one of `COMMANDS` about `position`.
pub fn answer(position: &Hex, command: &str, args: &[&str]) -> Reply {
    match command {
        "vc-between-cells-full" => between_cells(position, args, true),
        "vc-between-cells-semi" => between_cells(position, args, false),
        "vc-edge" => edge_to_edge(position, args),
        "vc-must-play" => must_play(position, args),
        "vc-verdict" => verdict(position, args),
        "inferior-cells" => Ok(cell_list(
            position,
            position
                .empty_cells()
                .filter(|&cell| is_dead(position, cell)),
        )),
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
