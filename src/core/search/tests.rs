//! The search's own behaviour on a game made to show it.

use crate::core::control::{mate_distance_in_moves, SearchControl, SearchResult, SearchSignals};
use crate::core::game::{Game, Outcome, Player, Score, MATE_BOUND};
use crate::core::knowledge::{Knowledge, PlainKnowledge};
use crate::core::params::SearchParams;
use crate::core::search::AlphaBetaKnowledge;
use crate::core::search::{search, SearchTables};

const ENTER: u16 = 1;
const STAY: u16 = 2;
const STEP: u16 = 0;

/// The first player either stays out (a draw) or enters a corridor where
/// every move is forced and that ends in its win `length` plies from the
/// start.
#[derive(Clone, Debug)]
struct Corridor {
    /// Plies played: 0 at the start.
    plies: u32,
    stayed: bool,
    length: u32,
}

impl Game for Corridor {
    type Move = u16;
    /// The corridor's length.
    type Rules = u32;
    const NAME: &'static str = "corridor";

    fn start_position(length: &u32) -> Self {
        Corridor {
            plies: 0,
            stayed: false,
            length: *length,
        }
    }
    fn from_fen(_: &str, rules: &u32) -> Result<Self, String> {
        Ok(Corridor::start_position(rules))
    }
    fn to_fen(&self) -> String {
        format!("{} {}", self.plies, self.stayed)
    }
    fn side_to_move(&self) -> Player {
        if self.plies.is_multiple_of(2) {
            Player::P1
        } else {
            Player::P2
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.stayed {
            Some(Outcome::Draw)
        } else {
            (self.plies == self.length).then_some(Outcome::Win(Player::P1))
        }
    }
    fn hash(&self) -> u64 {
        u64::from(self.plies) * 2 + u64::from(self.stayed)
    }
    fn generate_moves(&self, moves: &mut Vec<u16>) {
        moves.clear();
        if self.outcome().is_none() {
            match self.plies {
                0 => moves.extend([ENTER, STAY]),
                _ => moves.push(STEP),
            }
        }
    }
    fn make_move(&mut self, mv: u16) {
        self.plies += 1;
        self.stayed = mv == STAY;
    }
    fn unmake_move(&mut self, _: u16) {
        self.plies -= 1;
        self.stayed = false;
    }
    fn format_move(&self, mv: u16) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u16, String> {
        text.parse().map_err(|_| "not a number".into())
    }
}

/// One single-threaded search of `start` to `depth` with `params`.
fn search_to_depth<G: Game, K: AlphaBetaKnowledge<G>>(
    start: G,
    knowledge: K,
    depth: u32,
    params: SearchParams,
) -> SearchResult<G::Move> {
    let mut tables = SearchTables::<G>::new(1);
    let control = SearchControl {
        max_depth: depth,
        params,
        ..Default::default()
    };
    search(
        start,
        &mut [knowledge],
        &mut tables,
        &SearchSignals::default(),
        control,
        &[],
        &mut |_| {},
    )
}

/// The root's best move and its score in moves to a win, if a win.
fn search_corridor(
    length: u32,
    depth: u32,
    single_reply_extension: i32,
) -> (Option<u16>, Option<i32>) {
    search_corridor_in_tenths(length, depth, (single_reply_extension, 0))
}

/// As `search_corridor`, with the extension in whole plies and tenths.
fn search_corridor_in_tenths(
    length: u32,
    depth: u32,
    (single_reply_extension, single_reply_tenths): (i32, i32),
) -> (Option<u16>, Option<i32>) {
    let params = SearchParams {
        single_reply_extension,
        single_reply_tenths,
        ..SearchParams::default()
    };
    let start = Corridor::start_position(&length);
    let result = search_to_depth(start, PlainKnowledge::default(), depth, params);
    (result.best_move, mate_distance_in_moves(result.score))
}

#[test]
fn forced_replies_cost_no_depth_with_the_single_reply_extension() {
    // Depth 2 reaches only the corridor's second ply without the
    // extension; with it, the forced plies after the entrance are free
    // and the win on the fifth ply is seen.
    assert_eq!(search_corridor(5, 2, 0).1, None);
    assert_eq!(search_corridor(5, 2, 1), (Some(ENTER), Some(3)));
    assert_eq!(search_corridor(5, 5, 0), (Some(ENTER), Some(3)));
}

#[test]
fn forced_replies_earn_tenths_of_a_ply_spent_a_ply_at_a_time() {
    // Half a ply a forced reply: the five forced plies after the entrance
    // earn two whole plies, so depth 4 reaches the sixth ply as depth 6
    // does without the extension, and no further.
    let seen = search_corridor_in_tenths(6, 6, (0, 0));
    assert_eq!(seen.0, Some(ENTER));
    assert!(seen.1.is_some());
    assert_eq!(search_corridor_in_tenths(6, 4, (0, 0)).1, None);
    assert_eq!(search_corridor_in_tenths(6, 4, (0, 5)), seen);
    assert_eq!(search_corridor_in_tenths(7, 4, (0, 5)).1, None);
}

#[test]
fn the_extension_stops_at_twice_the_iterations_depth() {
    // At depth d the nodes before ply 2d are extended, and the depth left
    // there reaches d - 1 plies further: ply 5 at depth 2, ply 8 at 3.
    assert_eq!(search_corridor(6, 2, 1).1, None);
    assert_eq!(search_corridor(8, 3, 1), (Some(ENTER), Some(4)));
    assert_eq!(search_corridor(9, 3, 1).1, None);
}

const SAFE: u16 = 3;
const DIVE: u16 = 4;
const FINISH: u16 = 5;

/// The first player stays safe (a draw) or dives: after the opponent's
/// forced reply, its position looks hopeless to the evaluation, yet its
/// one move there wins at once.
#[derive(Clone, Debug, Default)]
struct Trap {
    line: Vec<u16>,
}

impl Game for Trap {
    type Move = u16;
    type Rules = ();
    const NAME: &'static str = "trap";

    fn start_position(_: &()) -> Self {
        Trap::default()
    }
    fn from_fen(_: &str, _: &()) -> Result<Self, String> {
        Ok(Trap::default())
    }
    fn to_fen(&self) -> String {
        format!("{:?}", self.line)
    }
    fn side_to_move(&self) -> Player {
        [Player::P1, Player::P2][self.line.len() % 2]
    }
    fn outcome(&self) -> Option<Outcome> {
        match self.line.last() {
            Some(&SAFE) => Some(Outcome::Draw),
            Some(&FINISH) => Some(Outcome::Win(Player::P1)),
            _ => None,
        }
    }
    fn hash(&self) -> u64 {
        self.line
            .iter()
            .fold(7, |key, &mv| key * 31 + u64::from(mv))
    }
    fn generate_moves(&self, moves: &mut Vec<u16>) {
        moves.clear();
        if self.outcome().is_none() {
            match self.line.len() {
                0 => moves.extend([SAFE, DIVE]),
                1 => moves.push(STEP),
                _ => moves.push(FINISH),
            }
        }
    }
    fn make_move(&mut self, mv: u16) {
        self.line.push(mv);
    }
    fn unmake_move(&mut self, _: u16) {
        self.line.pop();
    }
    fn format_move(&self, mv: u16) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u16, String> {
        text.parse().map_err(|_| "not a number".into())
    }
}

/// Sees the dive's end position as lost by far for the side to move.
struct TrapEvaluation;

impl Knowledge<Trap> for TrapEvaluation {
    type Settings = ();
    fn new(_: &()) -> Self {
        TrapEvaluation
    }
    fn evaluate(&mut self, position: &Trap) -> Score {
        if position.line == [DIVE, STEP] {
            -5_000
        } else {
            0
        }
    }
}

impl AlphaBetaKnowledge<Trap> for TrapEvaluation {}

fn search_trap(depth: u32, params: SearchParams) -> (Option<u16>, Score) {
    let result = search_to_depth(Trap::default(), TrapEvaluation, depth, params);
    (result.best_move, result.score)
}

#[test]
fn razoring_settles_a_hopeless_looking_node_by_quiescence() {
    // The dive is searched second, with a null window: with razoring to
    // depth 1, its end position (depth 1 left, 5,000 below alpha) takes
    // quiescence's score and the dive fails low; without, or with a margin
    // wider than the shortfall, the win behind it is seen.
    let razoring = |max_depth, margin| SearchParams {
        razor_max_depth: max_depth,
        razor_margin: margin,
        ..SearchParams::default()
    };
    let (best, score) = search_trap(3, SearchParams::default());
    assert_eq!(best, Some(DIVE));
    assert!(score >= MATE_BOUND, "{score}");
    assert_eq!(search_trap(3, razoring(1, 100)), (Some(SAFE), 0));
    assert_eq!(search_trap(3, razoring(1, 6_000)).0, Some(DIVE));
    assert_eq!(search_trap(3, razoring(0, 100)).0, Some(DIVE));
}

#[test]
fn quiescence_reading_the_table_finds_what_it_finds_without() {
    // The dive's win and the razored node's fail-low alike: the bounds
    // quiescence leaves in the table and reads back change no result.
    let with_table = |params: SearchParams| SearchParams {
        quiescence_table: 1,
        ..params
    };
    let razoring = SearchParams {
        razor_max_depth: 1,
        razor_margin: 100,
        ..SearchParams::default()
    };
    for depth in 1..=4 {
        for params in [SearchParams::default(), razoring] {
            assert_eq!(
                search_trap(depth, with_table(params)),
                search_trap(depth, params),
                "depth {depth}"
            );
        }
    }
}

const RESIGN: u16 = 6;

/// The corridor again, where each side may also resign (and lose at once)
/// instead of stepping on: no reply is forced any more, but each step is
/// the only move that holds, the case of the singular extension.
#[derive(Clone, Debug)]
struct Gauntlet {
    corridor: Corridor,
    resigned: bool,
}

impl Game for Gauntlet {
    type Move = u16;
    type Rules = u32;
    const NAME: &'static str = "gauntlet";

    fn start_position(length: &u32) -> Self {
        Gauntlet {
            corridor: Corridor::start_position(length),
            resigned: false,
        }
    }
    fn from_fen(_: &str, rules: &u32) -> Result<Self, String> {
        Ok(Gauntlet::start_position(rules))
    }
    fn to_fen(&self) -> String {
        format!("{} {}", self.corridor.to_fen(), self.resigned)
    }
    fn side_to_move(&self) -> Player {
        self.corridor.side_to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.resigned {
            // The side to move is the one that did not resign.
            return Some(Outcome::Win(self.side_to_move()));
        }
        self.corridor.outcome()
    }
    fn hash(&self) -> u64 {
        self.corridor.hash() * 2 + u64::from(self.resigned)
    }
    fn generate_moves(&self, moves: &mut Vec<u16>) {
        self.corridor.generate_moves(moves);
        if self.outcome().is_none() && self.corridor.plies > 0 {
            moves.push(RESIGN);
        }
    }
    fn make_move(&mut self, mv: u16) {
        if mv == RESIGN {
            self.corridor.plies += 1;
            self.resigned = true;
        } else {
            self.corridor.make_move(mv);
        }
    }
    fn unmake_move(&mut self, mv: u16) {
        self.corridor.unmake_move(mv);
        self.resigned = false;
    }
    fn format_move(&self, mv: u16) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u16, String> {
        text.parse().map_err(|_| "not a number".into())
    }
}

/// The length of the principal variation a search of the gauntlet to
/// `depth` finds.
fn gauntlet_line(depth: u32, singular_min_depth: i32) -> usize {
    let params = SearchParams {
        singular_min_depth,
        ..SearchParams::default()
    };
    let start = Gauntlet::start_position(&20);
    let result = search_to_depth(start, PlainKnowledge::default(), depth, params);
    result.pv.len()
}

#[test]
fn the_only_move_that_holds_is_searched_deeper_with_the_singular_extension() {
    // Without the extension the line ends at the search's depth. With it,
    // a step the table holds to be the only move that does not lose costs
    // no depth, and the line runs on.
    assert_eq!(gauntlet_line(3, 0), 3);
    assert_eq!(gauntlet_line(5, 0), 5);
    assert!(gauntlet_line(3, 2) > 3);
    assert!(gauntlet_line(5, 2) > 5);
    // Switched on only from depth 4: a search to depth 3 is as before.
    assert_eq!(gauntlet_line(3, 4), 3);
}

/// A long game of two moves a ply where every line is as good as another:
/// no move is singular, and every table move scores what the others do.
#[derive(Clone, Debug, Default)]
struct Meadow {
    line: Vec<u16>,
}

impl Game for Meadow {
    type Move = u16;
    type Rules = ();
    const NAME: &'static str = "meadow";

    fn start_position(_: &()) -> Self {
        Meadow::default()
    }
    fn from_fen(_: &str, _: &()) -> Result<Self, String> {
        Ok(Meadow::default())
    }
    fn to_fen(&self) -> String {
        format!("{:?}", self.line)
    }
    fn side_to_move(&self) -> Player {
        [Player::P1, Player::P2][self.line.len() % 2]
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.line.len() == 40).then_some(Outcome::Draw)
    }
    fn hash(&self) -> u64 {
        self.line.iter().fold(7, |key, &mv| {
            key.wrapping_mul(31).wrapping_add(u64::from(mv) + 1)
        })
    }
    fn generate_moves(&self, moves: &mut Vec<u16>) {
        moves.clear();
        if self.outcome().is_none() {
            moves.extend([0, 1]);
        }
    }
    fn make_move(&mut self, mv: u16) {
        self.line.push(mv);
    }
    fn unmake_move(&mut self, _: u16) {
        self.line.pop();
    }
    fn format_move(&self, mv: u16) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u16, String> {
        text.parse().map_err(|_| "not a number".into())
    }
}

#[test]
fn a_table_move_that_is_not_alone_in_holding_is_searched_shallower_with_the_negative_extension() {
    let meadow = |singular_negative| {
        let params = SearchParams {
            singular_min_depth: 2,
            singular_negative,
            ..SearchParams::default()
        };
        search_to_depth(Meadow::default(), PlainKnowledge::default(), 8, params)
    };
    let (full, shallower) = (meadow(0), meadow(1));
    // The same value, for fewer nodes: where the table's move beats beta
    // and another move would hold too, the table's move is searched a ply
    // less deep.
    assert_eq!((full.score, shallower.score), (0, 0));
    assert!(
        shallower.nodes < full.nodes,
        "{} {}",
        shallower.nodes,
        full.nodes
    );
}

/// Sees the opponent far ahead just after the dive, and nothing elsewhere:
/// the dive's reply, searched with a null window after staying out (a
/// cut node), looks far above beta.
struct BaitEvaluation;

impl Knowledge<Trap> for BaitEvaluation {
    type Settings = ();
    fn new(_: &()) -> Self {
        BaitEvaluation
    }
    fn evaluate(&mut self, position: &Trap) -> Score {
        if position.line == [DIVE] {
            1_000
        } else {
            0
        }
    }
}

impl AlphaBetaKnowledge<Trap> for BaitEvaluation {}

fn search_bait(depth: u32, fail_high_margin: i32) -> (Option<u16>, Score) {
    let params = SearchParams {
        fail_high_margin,
        ..SearchParams::default()
    };
    let result = search_to_depth(Trap::default(), BaitEvaluation, depth, params);
    (result.best_move, result.score)
}

#[test]
fn a_cut_node_far_above_beta_searches_its_quiet_moves_a_ply_shallower() {
    // The dive's reply looks 1,000 above beta: with a margin of 10 a ply
    // its one move is searched a ply shallower, and the win on the third
    // ply takes depth 4 to see instead of 3. A margin the evaluation does
    // not clear (600 a ply at depth 2) changes nothing.
    let (best, score) = search_bait(3, 0);
    assert_eq!(best, Some(DIVE));
    assert!(score >= MATE_BOUND, "{score}");
    assert_eq!(search_bait(3, 10), (Some(SAFE), 0));
    assert_eq!(search_bait(4, 10).0, Some(DIVE));
    assert_eq!(search_bait(3, 600).0, Some(DIVE));
}
