//! Queenbee's two-distance evaluation.
//!
//! The two-distance of an empty cell to an edge is 1 next to the edge (or to
//! a friendly group touching it), otherwise one more than the second-smallest
//! two-distance among its neighbours: the opponent can always cut the best
//! route, so only the second-best counts. Friendly groups are transparent
//! (every liberty of a group neighbours every other), enemy stones block.
//! A player's potential is the least sum of both edge distances over the
//! empty cells; the cells that reach it are the player's mobility.
//!
//! The score is Black's lead in potential and in mobility (clamped), each
//! weighted, signed for the side to move, plus a tempo; the weights are
//! data (`weights.txt`) so that the tuner can fit them to the features.

use once_cell::sync::Lazy;

use super::board::{Hex, BLACK, WHITE};
use super::geometry::{BOTTOM, LEFT, RIGHT, TOP};
use super::waves::Waves;
use crate::core::weights::WeightTable;
use crate::core::{EvalTerm, Player, Score};

/// The weights as data (`weights.txt`, compiled in): a tuning run rewrites
/// the file, not this code.
pub static WEIGHT_TABLE: Lazy<WeightTable> = Lazy::new(|| {
    // The file is part of the source; a test reads it, so a broken one
    // never gets past the test suite.
    WeightTable::parse(include_str!("weights.txt")).unwrap_or_else(|e| panic!("weights.txt: {e}"))
});

static WEIGHTS: Lazy<Weights> =
    Lazy::new(|| Weights::from_table(&WEIGHT_TABLE).unwrap_or_else(|e| panic!("weights.txt: {e}")));

/// How many weights, and features, the evaluation has.
pub const FEATURES: usize = 4;

/// The weights' names, in table (and feature) order.
pub const WEIGHT_NAMES: [&str; FEATURES] = ["potential", "mobility", "mobility_cap", "tempo"];

/// The weights, one field per entry of `WEIGHT_NAMES`.
#[derive(Debug, PartialEq, Eq)]
struct Weights {
    potential: Score,
    mobility: Score,
    mobility_cap: Score,
    tempo: Score,
}

/// Whether the evaluation would load `table`.
pub fn check_table(table: &WeightTable) -> Result<(), String> {
    Weights::from_table(table).map(|_| ())
}

impl Weights {
    /// The table must list exactly the evaluation's weights, in order, and
    /// the clamp on mobility needs a bound that is not negative.
    fn from_table(table: &WeightTable) -> Result<Weights, String> {
        table.require_names(&WEIGHT_NAMES)?;
        let [potential, mobility, mobility_cap, tempo] = WEIGHT_NAMES.map(|name| table.get(name));
        let weights = Weights {
            potential: potential?,
            mobility: mobility?,
            mobility_cap: mobility_cap?,
            tempo: tempo?,
        };
        if weights.mobility_cap < 0 {
            return Err(format!("mobility_cap {} is negative", weights.mobility_cap));
        }
        Ok(weights)
    }
}

/// Two-distance of an unreachable cell; also caps potentials.
pub const FAR: u16 = 200;

/// Scratch space and results of one evaluation, kept between calls so that
/// evaluating allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct TwoDistance {
    /// Distances to TOP, BOTTOM (Black) and LEFT, RIGHT (White).
    pub dist: [Vec<u16>; 4],
    waves: Waves,
    /// Per colour (0 Black, 1 White): potential and mobility.
    pub potential: [u16; 2],
    pub mobility: [u16; 2],
    /// Hash of the position these results belong to.
    pub key: Option<u64>,
}

impl TwoDistance {
    /// Computes all four distance maps, potentials and mobilities.
    pub fn compute(&mut self, hex: &Hex) {
        let cells = hex.geometry().cells();
        for d in self.dist.iter_mut() {
            d.resize(cells, FAR);
        }
        self.waves.prepare(hex);
        for (colour, stone, edges) in [(0, BLACK, [TOP, BOTTOM]), (1, WHITE, [LEFT, RIGHT])] {
            self.waves.collect_groups(hex, stone);
            let [first, second] = edges;
            self.waves
                .distances(hex, stone, first, &mut self.dist[2 * colour]);
            self.waves
                .distances(hex, stone, second, &mut self.dist[2 * colour + 1]);
            let (d1, d2) = (&self.dist[2 * colour], &self.dist[2 * colour + 1]);
            let mut best = FAR;
            let mut mobility = 0;
            for cell in self.waves.empty_cells() {
                let p = (d1[cell] + d2[cell]).min(FAR);
                if p < best {
                    best = p;
                    mobility = 1;
                } else if p == best {
                    mobility += 1;
                }
            }
            self.potential[colour] = best;
            self.mobility[colour] = mobility;
        }
        self.key = Some(hex.hash_key());
    }

    /// Potential of an empty cell for a colour (0 Black, 1 White).
    pub fn cell_potential(&self, colour: usize, cell: usize) -> u16 {
        (self.dist[2 * colour][cell] + self.dist[2 * colour + 1][cell]).min(FAR)
    }
}

/// Black's lead in potential, in steps. A potential is capped a little
/// above the longest real route so that a side without any two-distance
/// route scores as badly lost, not beyond all measure.
fn potential_lead(td: &TwoDistance, size: usize) -> i32 {
    let cap = 2 * size as i32 + 4;
    (td.potential[1] as i32).min(cap) - (td.potential[0] as i32).min(cap)
}

/// Black's lead in mobility, in cells.
fn mobility_lead(td: &TwoDistance) -> i32 {
    td.mobility[0] as i32 - td.mobility[1] as i32
}

fn black_terms_with(td: &TwoDistance, size: usize, w: &Weights) -> (i32, i32) {
    let potential = potential_lead(td, size) * w.potential;
    let mobility = (mobility_lead(td) * w.mobility).clamp(-w.mobility_cap, w.mobility_cap);
    (potential, mobility)
}

/// Black's evaluation terms: (potential term, mobility term).
pub fn black_terms(td: &TwoDistance, size: usize) -> (i32, i32) {
    black_terms_with(td, size, &WEIGHTS)
}

/// +1 for Black to move, -1 for White: the evaluation is Black's terms
/// signed for the side to move.
fn sign(to_move: Player) -> i32 {
    if to_move == Player::P1 {
        1
    } else {
        -1
    }
}

/// Score for the side to move.
pub fn score(td: &TwoDistance, size: usize, to_move: Player) -> Score {
    let w = &*WEIGHTS;
    let (potential, mobility) = black_terms_with(td, size, w);
    sign(to_move) * (potential + mobility) + w.tempo
}

/// The features of the position `td` was computed for, from the side to
/// move's view, one per weight: `score` is their sum weighted by the table,
/// exactly. The clamp on mobility makes the evaluation piecewise linear, so
/// the compiled-in weights choose the piece: a lead the clamp leaves alone
/// counts in cells under `mobility`, a clamped one as its sign under
/// `mobility_cap`.
pub fn features_of(td: &TwoDistance, size: usize, to_move: Player) -> [i32; FEATURES] {
    let w = &*WEIGHTS;
    let lead = mobility_lead(td);
    let (mobility, capped) = if (lead * w.mobility).abs() <= w.mobility_cap {
        (lead, 0)
    } else {
        (0, (lead * w.mobility).signum())
    };
    let sign = sign(to_move);
    [
        sign * potential_lead(td, size),
        sign * mobility,
        sign * capped,
        1,
    ]
}

/// The features of `hex` (see `features_of`), with scratch of its own.
pub fn features(hex: &Hex) -> [i32; FEATURES] {
    let mut td = TwoDistance::default();
    td.compute(hex);
    features_of(&td, hex.size(), hex.side_to_move_player())
}

/// The terms the `eval` command shows, each Black's and White's share of
/// the score (the tempo to the side to move).
pub fn eval_terms(td: &TwoDistance, size: usize, to_move: Player) -> Vec<EvalTerm> {
    let (potential, mobility) = black_terms(td, size);
    let tempo = |p: Player| if p == to_move { WEIGHTS.tempo } else { 0 };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weight_file_lists_every_weight_in_order() {
        assert_eq!(WEIGHT_TABLE.names(), WEIGHT_NAMES);
        assert_eq!(
            *WEIGHTS,
            Weights {
                potential: 100,
                mobility: 4,
                mobility_cap: 60,
                tempo: 30,
            }
        );
    }

    #[test]
    fn a_table_out_of_order_or_with_a_negative_cap_is_refused() {
        let swapped = WeightTable::parse("mobility 4\npotential 100\nmobility_cap 60\ntempo 30\n")
            .expect("well formed");
        assert!(Weights::from_table(&swapped).is_err());
        let negative = WEIGHT_TABLE
            .with_values(&[100, 4, -1, 30])
            .expect("four values");
        let error = Weights::from_table(&negative).unwrap_err();
        assert!(error.contains("mobility_cap"), "{error}");
    }
}
