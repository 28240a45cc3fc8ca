//! Hex under the proof-number search (`core::dfpn`).
//!
//! In proof mode (`Knowledge::prepare_proof`) the knowledge runs H-search
//! at every node, not only at the root as alpha-beta does: a proven
//! edge-to-edge connection settles a node and its whole subtree, and the
//! opponent's semi connections narrow the defence to the cells common to
//! their carriers (must-play). Before that, the inferior-cell analysis
//! (`inferior`) fills in dead and captured cells, which may connect a
//! player's edges outright, H-search runs on the filled position, and the
//! mover's vulnerable and dominated cells are left out. This
//! file holds what the proof search needs beyond that: its counters, the
//! root solver the alpha-beta search calls within a slice of the move's
//! time, and the proof of one opening for `bg-hex solve`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::board::{stone_of, Hex, HexMove, HexRules};
use super::inferior::{pattern_cells, InferiorCells, MovePruning, Pruned};
use super::knowledge::HexKnowledge;
use super::vc::{mustplay, Budget, CellSet, Verdict as VcVerdict};
use crate::core::dfpn::{prove, ProofLimits, ProofTable, Verdict, UNLIMITED};
use crate::core::{Deadline, Game, Knowledge, Player, RootSolution};

/// H-search verdicts kept at most (about 100 bytes each, some 300 with a
/// proof's inferior cells); the cache starts over when full.
pub const VERDICT_CACHE_LIMIT: usize = 1 << 18;
/// The root solver's table, kept from move to move.
const ROOT_TABLE_MEGABYTES: usize = 32;
/// The root solver gives up before it starts on a board with more empty
/// cells than this: a proof there is out of reach within a move's time.
const ROOT_PROOF_MAX_EMPTY: usize = 64;
/// The root solver takes this part of the share the search offers it,
/// leaving the rest to alpha-beta when the proof fails.
const ROOT_PROOF_SHARE: u32 = 2;

/// What a search learned of one position.
#[derive(Clone, Debug)]
pub(super) struct NodeAnalysis {
    pub verdict: VcVerdict,
    /// In a proof search, the mover's inferior cells to leave out.
    pub pruning: Option<Arc<MovePruning>>,
    /// The empty cells the verdict rests on (`mustplay::Judgement`), with
    /// the patterns of the cells the fill-in took: the proof set of a
    /// settled node, and the must-play's justification.
    pub cells: CellSet,
}

impl NodeAnalysis {
    /// H-search alone, as alpha-beta asks it, within `budget`.
    pub fn plain(hex: &Hex, budget: Budget) -> NodeAnalysis {
        let (verdict, cells) = mustplay::judgement(hex, budget);
        NodeAnalysis {
            verdict,
            pruning: None,
            cells,
        }
    }
}

/// The proof search's analysis of a node: dead and captured cells
/// filled in, which may connect a player's edges outright; otherwise
/// H-search on the filled position (of the same value) and the
/// inferior cells the mover need not try. Once anything is filled,
/// proof lengths are bounded by the empty cells, the longest the game
/// can last.
pub(super) fn analyse_node(hex: &Hex, budget: Budget, stats: &mut ProofStats) -> NodeAnalysis {
    let mover = hex.side_to_move_player();
    let inferior = InferiorCells::analyse(hex, mover);
    let empty = hex.empty_cells().count() as u32;
    let (win_bound, loss_bound) = (empty.saturating_sub(1 - empty % 2), empty - empty % 2);
    stats.filled_cells += inferior.fill.len() as u64;
    // A winner's proof may stand on the cells filled with its colour,
    // which hold as long as their rules' cells do; the loser's filled
    // cells may be the loser's anyway.
    let fill_patterns = |winner: Player| {
        let stones = inferior.fill.stones();
        let winners = stones.filter(|&(_, colour)| colour == stone_of(winner));
        pattern_cells(hex.geometry(), winners.map(|(cell, _)| cell), 1)
    };
    if let Some(winner) = inferior.filled_winner() {
        stats.fill_settled += 1;
        let verdict = if winner == mover {
            VcVerdict::Win {
                plies: win_bound.max(1),
                carrier: CellSet::EMPTY,
            }
        } else {
            VcVerdict::Loss {
                plies: loss_bound.max(2),
            }
        };
        return NodeAnalysis {
            verdict,
            pruning: None,
            cells: fill_patterns(winner),
        };
    }
    let (mut verdict, cells) = mustplay::judgement(&inferior.filled, budget);
    if !inferior.fill.is_empty() {
        match &mut verdict {
            VcVerdict::Win { plies, .. } => *plies = (*plies).max(win_bound),
            VcVerdict::Loss { plies } => *plies = (*plies).max(loss_bound),
            _ => {}
        }
    }
    // Only a win is the mover's; a loss and the must-play stand on the
    // opponent's connections.
    let winner = match verdict {
        VcVerdict::Win { .. } => mover,
        _ => mover.other(),
    };
    NodeAnalysis {
        verdict,
        pruning: Some(Arc::new(inferior.pruning())),
        cells: cells.union(&fill_patterns(winner)),
    }
}

/// What H-search did in proof searches: verdicts computed, nodes it
/// settled, and how far must-play narrowed the moves where it applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofStats {
    pub verdicts: u64,
    pub vc_wins: u64,
    pub vc_losses: u64,
    /// Nodes whose moves must-play narrowed, and their moves before and
    /// after.
    pub must_play_nodes: u64,
    pub moves_before: u64,
    pub moves_after: u64,
    /// Nodes the inferior-cell fill-in settled (it joined a player's
    /// edges), cells it filled over all analyses, and moves left out as
    /// vulnerable or dominated.
    pub fill_settled: u64,
    pub filled_cells: u64,
    pub inferior_pruned: u64,
}

impl ProofStats {
    pub(super) fn note_must_play(&mut self, before: u64, after: u64) {
        self.must_play_nodes += 1;
        self.moves_before += before;
        self.moves_after += after;
    }

    pub(super) fn note_inferior(&mut self, pruned: &Pruned) {
        self.inferior_pruned += (pruned.vulnerable + pruned.dominated) as u64;
    }

    /// The counts since `earlier` was taken.
    pub fn since(&self, earlier: &ProofStats) -> ProofStats {
        ProofStats {
            verdicts: self.verdicts - earlier.verdicts,
            vc_wins: self.vc_wins - earlier.vc_wins,
            vc_losses: self.vc_losses - earlier.vc_losses,
            must_play_nodes: self.must_play_nodes - earlier.must_play_nodes,
            moves_before: self.moves_before - earlier.moves_before,
            moves_after: self.moves_after - earlier.moves_after,
            fill_settled: self.fill_settled - earlier.fill_settled,
            filled_cells: self.filled_cells - earlier.filled_cells,
            inferior_pruned: self.inferior_pruned - earlier.inferior_pruned,
        }
    }
}

/// The root solver's table and the player it proves wins for (a table
/// holds one attacker's numbers).
#[derive(Default)]
pub struct RootProver {
    table: Option<(Player, ProofTable)>,
}

impl std::fmt::Debug for RootProver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let attacker = self.table.as_ref().map(|(attacker, _)| attacker);
        f.debug_struct("RootProver")
            .field("attacker", &attacker)
            .finish()
    }
}

impl RootProver {
    /// The table for `attacker`, new unless the last one was for them too.
    fn take_table(&mut self, attacker: Player) -> ProofTable {
        match self.table.take() {
            Some((owner, table)) if owner == attacker => table,
            _ => ProofTable::new(ROOT_TABLE_MEGABYTES),
        }
    }
}

/// `Knowledge::solve_root`: df-pn in proof mode for the side to move,
/// within part of the deadline. Not where the swap is legal (H-search does
/// not model it; the small-board solver answers there) nor on boards too
/// empty to prove in a move's time. The knowledge is left prepared for
/// the search of `hex` again.
pub(super) fn solve_root(
    knowledge: &mut HexKnowledge,
    hex: &mut Hex,
    deadline: &Deadline,
    nodes: &mut u64,
) -> Option<RootSolution<HexMove>> {
    let empty = hex.empty_cells().count();
    if hex.winner().is_some() || hex.swap_is_legal() || empty > ROOT_PROOF_MAX_EMPTY {
        return None;
    }
    let search_deadline = knowledge.deadline.clone();
    let proof_deadline = deadline.within(deadline.remaining()? / ROOT_PROOF_SHARE);
    let attacker = hex.side_to_move();
    let limits = ProofLimits {
        attacker,
        within_plies: UNLIMITED,
        max_nodes: None,
        deadline: proof_deadline,
    };
    let mut table = knowledge.root_prover.take_table(attacker);
    let result = prove(hex, &limits, &mut table, knowledge, &mut |_| {});
    knowledge.root_prover.table = Some((attacker, table));
    knowledge.prepare_search(hex, &search_deadline);
    *nodes += result.nodes;
    let best_move = result.best_move?;
    match result.verdict {
        Verdict::Proven { plies } => Some(RootSolution {
            best_move,
            plies: plies.max(1) as i32,
        }),
        // Without a limit on plies the refutation has no length; the
        // game cannot outlast the empty cells.
        Verdict::Disproven => Some(RootSolution {
            best_move,
            plies: -(empty as i32),
        }),
        Verdict::Open => None,
    }
}

/// The proof of one opening: Black's first stone, White to move, no swap.
#[derive(Clone, Debug)]
pub struct OpeningProof {
    pub cell: usize,
    /// Whether the first player wins; `None` when the search stopped.
    pub first_player_wins: Option<bool>,
    pub nodes: u64,
    /// Moves settled as lost by a sibling's proof set.
    pub set_pruned: u64,
    pub elapsed: Duration,
    pub stats: ProofStats,
}

/// The first stones to prove on an N x N board: all of them, or one of
/// each pair the half turn exchanges (the same colours, the same value).
pub fn opening_cells(size: usize, up_to_symmetry: bool) -> Vec<usize> {
    let cells = size * size;
    (0..cells)
        .filter(|&cell| !up_to_symmetry || cell <= cells - 1 - cell)
        .collect()
}

/// Proves the opening at `cell` on an N x N board, within `time` if given.
/// `table` (for Black, the first player) may be shared by the openings of
/// one board: what one proof settled, another may meet.
pub fn prove_opening(
    size: usize,
    cell: usize,
    time: Option<Duration>,
    table: &mut ProofTable,
    knowledge: &mut HexKnowledge,
) -> OpeningProof {
    let start = Instant::now();
    let rules = HexRules {
        board_size: size,
        swap: false,
    };
    let mut hex = Hex::start_position(&rules);
    hex.make_move(HexMove::cell(cell));
    let limits = ProofLimits {
        attacker: Player::P1,
        within_plies: UNLIMITED,
        max_nodes: None,
        deadline: Deadline::new(
            time.map(|time| start + time),
            std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        ),
    };
    let before = knowledge.proof_stats;
    let result = prove(&mut hex, &limits, table, knowledge, &mut |nodes| {
        log::info!("opening {cell}: {nodes} nodes");
    });
    let first_player_wins = match result.verdict {
        Verdict::Proven { .. } => Some(true),
        Verdict::Disproven => Some(false),
        Verdict::Open => None,
    };
    OpeningProof {
        cell,
        first_player_wins,
        nodes: result.nodes,
        set_pruned: result.set_pruned,
        elapsed: start.elapsed(),
        stats: knowledge.proof_stats.since(&before),
    }
}

/// Published results of the openings without swap, first player's view:
/// row by row from row 1, `W` the first player wins, `l` loses. 6x6 and
/// 7x7 as in Hayward et al., "Solving 7x7 Hex" (2003; 6x6 by Queenbee
/// before it), 8x8 as in Henderson, Arneson and Hayward, "Solving 8x8
/// Hex" (2009); benzene's regression suites list the same maps.
const PUBLISHED: [(usize, &str); 3] = [
    (6, "lllllW lWWWWW WWWWWW WWWWWW WWWWWl Wlllll"),
    (7, "llllllW llWlWWW lWWWWWl WWWWWWW lWWWWWl WWWlWll Wllllll"),
    (
        8,
        "lllllllW llllllWW lWWWWWWl lWWWWWWW WWWWWWWl lWWWWWWl WWllllll Wlllllll",
    ),
];

/// Whether the first player wins with a first stone on `cell` of an
/// N x N board (no swap), as published, for the sizes above.
pub fn published_first_player_wins(size: usize, cell: usize) -> Option<bool> {
    let (_, map) = PUBLISHED.iter().find(|(n, _)| *n == size)?;
    map.chars()
        .filter(|c| !c.is_whitespace())
        .nth(cell)
        .map(|c| c == 'W')
}
