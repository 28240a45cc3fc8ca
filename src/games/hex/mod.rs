//! Hex on an N x N rhombus (1 <= N <= 25) with the optional pie rule.
//!
//! Black (player 1) joins row 1 to row N, White joins column a to the last
//! column. Files: `geometry` (neighbours, edges, Zobrist keys), `board`
//! (position, union-find win detection), `notation` (cells, FEN, picture),
//! `eval` (two-distance), `analysis` (exact local facts for the search).

pub mod analysis;
pub mod board;
pub mod chain;
pub mod eval;
pub mod geometry;
pub mod notation;
pub mod opening;
pub mod solver;

pub use board::{Hex, HexMove, HexRules};

use crate::core::legacy::{InPositionKnowledge, MirrorKnowledge};
use crate::core::Presentation;

/// The knowledge the search uses in this game.
pub type HexKnowledge = MirrorKnowledge<Hex>;

use crate::core::{EvalTerm, Game, OptionKind, OptionSpec, Outcome, Player, Score};
use analysis::{bridge_replies, is_dead, winning_cells};
use chain::find_chain;
use eval::TwoDistance;
use geometry::MAX_SIZE;

/// Move-ordering hints. Positive hints make a move "tactical" to the search
/// (tried early, never reduced): the reply that saves an intruded bridge and
/// the swap. Every other cell is a quiet move whose hint is minus its slack,
/// how far it lies off both players' best routes (two-distance), weighted to
/// outrank the history heuristic.
const HINT_BRIDGE: i32 = 500_000;
const HINT_SWAP: i32 = 400_000;
const HINT_SLACK_STEP: i32 = 4_000;

fn parse_bool(value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Ok(true),
        "false" | "0" | "off" | "no" => Ok(false),
        other => Err(format!("'{other}' is not true or false")),
    }
}

impl Hex {
    fn two_distance_fresh(&mut self) -> &TwoDistance {
        if self.two_distance.key != Some(self.hash_key()) {
            let mut td = std::mem::take(&mut self.two_distance);
            td.compute(self);
            self.two_distance = td;
        }
        &self.two_distance
    }

    /// The carrier cells of a chain the opponent could complete with its
    /// next move (one half connection at most), sorted; any other move of
    /// ours leaves that chain standing, and loses.
    fn opponent_threat(&mut self) -> Option<Vec<usize>> {
        if self.swap_is_legal() {
            return None;
        }
        let opponent = self.side_to_move_player().other();
        let mut scratch = std::mem::take(&mut self.chain_scratch);
        let threat = find_chain(self, opponent, true, &mut scratch).map(|_| {
            scratch
                .carriers
                .iter()
                .map(|&c| c as usize)
                .collect::<Vec<_>>()
        });
        self.chain_scratch = scratch;
        threat.map(|mut cells| {
            cells.sort_unstable();
            cells
        })
    }

    /// Cells the side to move should consider before anything else: a win,
    /// or the one cell that stops the opponent's win.
    fn forced_cells(&self, out: &mut Vec<usize>) -> bool {
        let me = self.side_to_move_player();
        winning_cells(self, me, 1, out);
        if !out.is_empty() {
            return true;
        }
        winning_cells(self, me.other(), 1, out);
        !out.is_empty()
    }
}

impl Game for Hex {
    type Move = HexMove;
    type Rules = HexRules;

    const NAME: &'static str = "hex";

    fn rule_options() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: "BoardSize",
                kind: OptionKind::Spin {
                    default: 11,
                    min: 1,
                    max: MAX_SIZE as i64,
                },
            },
            OptionSpec {
                name: "Swap",
                kind: OptionKind::Check { default: true },
            },
        ]
    }

    fn set_rule_option(rules: &mut HexRules, name: &str, value: &str) -> Result<(), String> {
        match name.to_ascii_lowercase().as_str() {
            "boardsize" => {
                let size: usize = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("BoardSize '{value}' is not a number"))?;
                notation::check_size(size)?;
                rules.board_size = size;
                Ok(())
            }
            "swap" => {
                rules.swap = parse_bool(value)?;
                Ok(())
            }
            _ => Err(format!("unknown option '{name}'")),
        }
    }

    fn start_position(rules: &HexRules) -> Self {
        Hex::empty(rules)
    }

    fn from_fen(fen: &str, rules: &HexRules) -> Result<Self, String> {
        notation::from_fen(fen, rules)
    }

    fn to_fen(&self) -> String {
        notation::to_fen(self)
    }

    fn side_to_move(&self) -> Player {
        self.side_to_move_player()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(Outcome::Win)
    }

    fn hash(&self) -> u64 {
        // The symmetric key maps a swap-legal position onto the position
        // after the swap, whose value differs (the swap is one more choice),
        // so the two must not share an entry.
        if self.swap_is_legal() {
            self.canonical_key() ^ SWAP_LEGAL_KEY
        } else {
            self.canonical_key()
        }
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn generate_moves(&self, moves: &mut Vec<HexMove>) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        moves.extend(self.empty_cells().map(HexMove::cell));
        if self.swap_is_legal() {
            moves.push(HexMove::SWAP);
        }
    }

    fn count_moves(&self) -> u64 {
        if self.winner().is_some() {
            return 0;
        }
        let empty = self.geo.cells() as u64 - self.stones_on_board() as u64;
        empty + u64::from(self.swap_is_legal())
    }

    fn player_colour(player: Player) -> &'static str {
        match player {
            Player::P1 => "black",
            Player::P2 => "white",
        }
    }

    fn make_move(&mut self, mv: HexMove) {
        self.apply(mv);
    }

    fn unmake_move(&mut self, mv: HexMove) {
        self.revert(mv);
    }

    fn format_move(&self, mv: HexMove) -> String {
        notation::format_move(self.size(), mv)
    }

    fn parse_move(&self, text: &str) -> Result<HexMove, String> {
        notation::parse_move(self.size(), text)
    }
}

impl InPositionKnowledge for Hex {
    fn generate_search_moves(&mut self, moves: &mut Vec<HexMove>) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        // At a solved swap decision only the proven winning move needs a
        // search (e.g. at the root, where `forced_result` is not asked).
        if self.swap_is_legal() && self.size() <= solver::SOLVE_MAX_SIZE {
            if let Some(best) = solver::solve(self).and_then(|proof| proof.best) {
                moves.push(best);
                return;
            }
        }
        self.unsolved_search_moves(moves);
    }

    fn generate_noisy(&mut self, moves: &mut Vec<HexMove>) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        let mut replies = Vec::new();
        bridge_replies(self, &mut replies);
        moves.extend(replies.into_iter().map(HexMove::cell));
    }

    /// The opponent threatens to win on the spot: standing pat would ignore
    /// it, and the one block is all there is to search.
    fn must_respond(&mut self) -> bool {
        if self.winner().is_some() {
            return false;
        }
        let mut cells = Vec::new();
        winning_cells(self, self.side_to_move_player().other(), 1, &mut cells);
        !cells.is_empty()
    }

    fn move_order_hint(&self, mv: HexMove) -> i32 {
        if mv.is_swap() {
            return HINT_SWAP;
        }
        let cell = mv.0 as usize;
        if self.bridge_replies_key == Some(self.hash_key()) && self.bridge_replies.contains(&cell) {
            return HINT_BRIDGE;
        }
        let td = &self.two_distance;
        if td.key != Some(self.hash_key()) {
            return 0;
        }
        let slack = (td.cell_potential(0, cell) as i32 - td.potential[0] as i32)
            + (td.cell_potential(1, cell) as i32 - td.potential[1] as i32);
        -slack.min(50) * HINT_SLACK_STEP
    }

    fn move_index(&self, mv: HexMove) -> usize {
        if mv.is_swap() {
            self.geo.cells()
        } else {
            mv.0 as usize
        }
    }

    fn move_index_bound(&self) -> usize {
        self.geo.cells() + 1
    }

    fn evaluate(&mut self) -> Score {
        let to_move = self.side_to_move_player();
        let size = self.size();
        let td = self.two_distance_fresh();
        eval::score(td, size, to_move)
    }

    fn eval_terms(&mut self) -> Vec<EvalTerm> {
        let to_move = self.side_to_move_player();
        let td = self.two_distance_fresh().clone();
        let (potential, mobility) = eval::black_terms(&td, self.size());
        let tempo = |p: Player| if p == to_move { eval::TEMPO } else { 0 };
        vec![
            EvalTerm {
                name: format!(
                    "potential (two-distance {} / {})",
                    td.potential[0], td.potential[1]
                ),
                p1: potential.max(0),
                p2: (-potential).max(0),
            },
            EvalTerm {
                name: format!(
                    "mobility ({} / {} best cells)",
                    td.mobility[0], td.mobility[1]
                ),
                p1: mobility.max(0),
                p2: (-mobility).max(0),
            },
            EvalTerm {
                name: "tempo".to_string(),
                p1: tempo(Player::P1),
                p2: tempo(Player::P2),
            },
        ]
    }

    fn prepare_search(&mut self, deadline: &crate::core::Deadline) {
        self.deadline = deadline.clone();
    }

    fn forced_result(&mut self) -> Option<i32> {
        let quick = self.quick_result();
        if quick.is_some() {
            return quick;
        }
        // On small boards the swap decision is solved outright: the shared
        // search cannot prove every first move lost in reasonable time. The
        // positions inside those proofs are then known to the search too.
        if self.size() > solver::SOLVE_MAX_SIZE {
            return None;
        }
        let proof = if self.swap_is_legal() {
            solver::solve(self)
        } else {
            solver::cached(self)
        };
        proof.map(|proof| {
            let plies = proof.plies as i32;
            if proof.win {
                plies
            } else {
                -plies
            }
        })
    }
}

impl Presentation for Hex {
    fn render(&self) -> String {
        notation::render(self)
    }

    fn bench_positions() -> Vec<&'static str> {
        BENCH_POSITIONS.to_vec()
    }
}

impl Hex {
    /// The engine's search moves without the small-board solver: a win on
    /// the spot, the block of one, the carrier of a threatened chain, or
    /// every live cell, and the ordering data for them.
    pub(crate) fn unsolved_search_moves(&mut self, moves: &mut Vec<HexMove>) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        let mut forced = Vec::new();
        if let Some(policy) = opening::policy_moves(self) {
            moves.extend(policy);
            return;
        }
        if self.forced_cells(&mut forced) {
            // Either we win on the spot, or every move but this one lets the
            // opponent win on the spot.
            moves.push(HexMove::cell(forced[0]));
        } else if let Some(carriers) = self.opponent_threat() {
            // The opponent, moving next, would complete a proven chain:
            // only a stone in its carrier can stop it.
            moves.extend(carriers.into_iter().map(HexMove::cell));
        } else {
            moves.extend(
                self.empty_cells()
                    .filter(|&cell| !is_dead(self, cell))
                    .map(HexMove::cell),
            );
            if moves.is_empty() {
                moves.extend(self.empty_cells().map(HexMove::cell));
            }
        }
        if self.swap_is_legal() {
            moves.push(HexMove::SWAP);
        }
        if moves.len() > 1 {
            self.two_distance_fresh();
            let mut replies = std::mem::take(&mut self.bridge_replies);
            bridge_replies(self, &mut replies);
            self.bridge_replies = replies;
            self.bridge_replies_key = Some(self.hash_key());
        }
    }

    /// Results proven without search: a win on the spot, a double threat,
    /// or a chain of virtual connections (see `chain`).
    pub(crate) fn quick_result(&mut self) -> Option<i32> {
        if self.winner().is_some() {
            return None;
        }
        let me = self.side_to_move_player();
        let mut cells = Vec::new();
        winning_cells(self, me, 1, &mut cells);
        if !cells.is_empty() {
            return Some(1);
        }
        if self.swap_is_legal() {
            return None;
        }
        winning_cells(self, me.other(), 2, &mut cells);
        if cells.len() >= 2 {
            return Some(-2);
        }
        // A chain of virtual connections holds whoever moves first: its
        // owner fills one link per move, answering any intrusion in the same
        // link. The side to move may also complete one half connection.
        let mut scratch = std::mem::take(&mut self.chain_scratch);
        let mine = find_chain(self, me, true, &mut scratch);
        let theirs = match mine {
            Some(_) => None,
            None => find_chain(self, me.other(), false, &mut scratch),
        };
        self.chain_scratch = scratch;
        if let Some(chain) = mine {
            return Some(2 * chain.moves as i32 - 1);
        }
        theirs.map(|chain| -2 * chain.moves as i32)
    }
}

/// Mixed into the key of a position where `swap` is legal (any fixed
/// random-looking constant serves).
const SWAP_LEGAL_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// Openings and middle games on 11x11 for `bench` (taken from games
/// against OpenSpiel's MCTS bot).
const BENCH_POSITIONS: [&str; 7] = [
    "11/11/11/11/11/11/11/11/11/11/11 b",
    "11/11/11/11/6o4/5x5/4o6/3x7/11/11/11 b",
    "11/6x4/11/9o1/11/11/6o4/11/11/1x9/xo9 b",
    "11/x5x4/11/11/11/11/6o4/x3x6/2ooo6/1ox8/11 b",
    "11/o10/11/4x6/3o7/2ox7/2ox1o5/2x8/11/1x1o5x1/11 b",
    "8o1o/9x1/11/8x2/2o2o5/7x3/11/11/9x1/11/11 b",
    "7xo2/1x4xo1o1/5xo4/4oo5/11/11/11/11/2o6x1/2x5x2/11 b",
];
