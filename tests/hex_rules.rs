//! Hex rules: perft against an independent brute-force enumerator, win
//! detection on tricky shapes, the pie rule, FEN round trips.

use boardgames::core::perft::perft;
use boardgames::core::{Game, Outcome, Player};
use boardgames::games::hex::{Hex, HexMove, HexRules};
use rand::{rngs::StdRng, Rng, SeedableRng};

/// A deliberately naive model of Hex: a grid of chars, a flood fill for the
/// winner, the pie rule written from the words.
#[derive(Clone)]
struct Naive {
    n: usize,
    grid: Vec<Vec<char>>, // grid[row][col]
    black_to_move: bool,
    swap_rule: bool,
    moves_played: usize,
}

impl Naive {
    fn new(n: usize, swap_rule: bool) -> Naive {
        Naive {
            n,
            grid: vec![vec!['.'; n]; n],
            black_to_move: true,
            swap_rule,
            moves_played: 0,
        }
    }

    fn connected(&self, colour: char) -> bool {
        let n = self.n as i32;
        let mut seen = vec![vec![false; self.n]; self.n];
        let mut stack = Vec::new();
        for i in 0..self.n {
            let (c, r) = if colour == 'x' { (i, 0) } else { (0, i) };
            if self.grid[r][c] == colour {
                seen[r][c] = true;
                stack.push((c as i32, r as i32));
            }
        }
        while let Some((c, r)) = stack.pop() {
            if (colour == 'x' && r == n - 1) || (colour == 'o' && c == n - 1) {
                return true;
            }
            for (dc, dr) in [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)] {
                let (nc, nr) = (c + dc, r + dr);
                if nc < 0 || nr < 0 || nc >= n || nr >= n {
                    continue;
                }
                let (ucol, urow) = (nc as usize, nr as usize);
                if !seen[urow][ucol] && self.grid[urow][ucol] == colour {
                    seen[urow][ucol] = true;
                    stack.push((nc, nr));
                }
            }
        }
        false
    }

    fn over(&self) -> bool {
        self.connected('x') || self.connected('o')
    }

    /// Successor positions, the swap included where legal.
    fn children(&self) -> Vec<Naive> {
        let mut out = Vec::new();
        let stone = if self.black_to_move { 'x' } else { 'o' };
        for r in 0..self.n {
            for c in 0..self.n {
                if self.grid[r][c] == '.' {
                    let mut next = self.clone();
                    next.grid[r][c] = stone;
                    next.black_to_move = !self.black_to_move;
                    next.moves_played += 1;
                    out.push(next);
                }
            }
        }
        if self.swap_rule && self.moves_played == 1 {
            let mut next = Naive::new(self.n, self.swap_rule);
            for r in 0..self.n {
                for c in 0..self.n {
                    if self.grid[r][c] == 'x' {
                        next.grid[c][r] = 'o';
                    }
                }
            }
            next.black_to_move = true;
            next.moves_played = 2;
            out.push(next);
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over() {
            return 0;
        }
        self.children()
            .iter()
            .map(|child| {
                if child.over() {
                    1
                } else {
                    child.perft(depth - 1)
                }
            })
            .sum()
    }
}

fn rules(n: usize, swap: bool) -> HexRules {
    HexRules {
        board_size: n,
        swap,
    }
}

#[test]
fn perft_matches_brute_force_on_small_boards() {
    for (n, max_depth) in [(1, 2), (2, 5), (3, 6), (4, 4)] {
        for swap in [false, true] {
            for depth in 1..=max_depth {
                let mut hex = Hex::start_position(&rules(n, swap));
                let expected = Naive::new(n, swap).perft(depth);
                assert_eq!(
                    perft(&mut hex, depth),
                    expected,
                    "{n}x{n} swap={swap} depth {depth}"
                );
            }
        }
    }
}

#[test]
fn perft_matches_openspiel_counts() {
    // pyspiel.load_game('hex', {'board_size': 3, 'swap': ...}), counting a
    // terminal child as one leaf.
    let cases: [(usize, bool, &[u64]); 3] = [
        (2, true, &[4, 16, 36, 48, 48]),
        (3, false, &[9, 72, 504, 3024, 15120]),
        (3, true, &[9, 81, 576, 3528, 18144]),
    ];
    for (n, swap, counts) in cases {
        for (i, &count) in counts.iter().enumerate() {
            let mut hex = Hex::start_position(&rules(n, swap));
            assert_eq!(perft(&mut hex, i as u32 + 1), count, "{n}x{n} swap={swap}");
        }
    }
}

fn play(hex: &mut Hex, moves: &[&str]) {
    let mut legal = Vec::new();
    for text in moves {
        let mv = hex.parse_move(text).expect("cell name");
        hex.generate_moves(&mut legal);
        assert!(legal.contains(&mv), "{text} should be legal");
        hex.make_move(mv);
    }
}

#[test]
fn black_joins_rows_and_white_joins_columns() {
    let mut hex = Hex::start_position(&rules(3, false));
    // Black a1 a2 a3 joins row 1 to row 3 along column a.
    play(&mut hex, &["a1", "b1", "a2", "b2"]);
    assert_eq!(hex.outcome(), None);
    play(&mut hex, &["a3"]);
    assert_eq!(hex.outcome(), Some(Outcome::Win(Player::P1)));

    // White a1 b1 c1 joins column a to column c along row 1.
    let mut hex = Hex::start_position(&rules(3, false));
    play(&mut hex, &["a2", "a1", "a3", "b1", "c3", "c1"]);
    assert_eq!(hex.outcome(), Some(Outcome::Win(Player::P2)));
}

#[test]
fn cells_that_only_touch_at_a_corner_are_not_connected() {
    // b1 and a2 are neighbours ((c-1, r+1)); a1 and b2 are not.
    let mut hex = Hex::from_fen("xo1/1x1/3 b", &rules(3, false)).expect("fen");
    play(&mut hex, &["c3"]);
    // x at a1, b2, c3: a1-b2 do not touch, so no chain reaches row 1.
    assert_eq!(hex.outcome(), None);
    play(&mut hex, &["c1", "b3"]);
    // b1 is White; a1 alone on row 1 is cut; b2 reaches row 1 only via c1
    // (White) or b1 (White): still no win.
    assert_eq!(hex.outcome(), None);
    let mut hex = Hex::from_fen("3/3/3 b", &rules(3, false)).expect("fen");
    play(&mut hex, &["c1", "a1", "b2", "a2", "a3"]);
    // Black c1-b2 ((c-1, r+1)) and b2-a3 ((c-1, r+1)): a diagonal chain wins.
    assert_eq!(hex.outcome(), Some(Outcome::Win(Player::P1)));
}

#[test]
fn a_long_snake_wins_only_with_its_last_stone() {
    // On 7x7 a Black chain winds right, back left and right again, using
    // every neighbour direction, and only its last stone reaches row 7.
    let n = 7;
    let path = [
        "a1", "a2", "b2", "c2", "d2", "e2", "f2", "f3", "e4", "d4", "c4", "b4", "b5", "c5", "d5",
        "e5", "f5", "g5", "g6", "f7",
    ];
    let mut hex = Hex::start_position(&rules(n, false));
    let mut legal = Vec::new();
    let white_cells: Vec<&str> = vec![
        "g1", "g2", "g3", "a3", "b3", "c3", "d3", "e3", "a4", "a5", "a6", "b6", "c6", "d6", "e6",
        "f6", "g4", "f4", "a7", "b7",
    ];
    for (i, cell) in path.iter().enumerate() {
        assert_eq!(hex.outcome(), None, "no winner before {cell}");
        let mv = hex.parse_move(cell).expect("cell");
        hex.generate_moves(&mut legal);
        assert!(legal.contains(&mv));
        hex.make_move(mv);
        if i + 1 < path.len() {
            assert_eq!(hex.outcome(), None, "{cell} must not win yet");
            let reply = hex.parse_move(white_cells[i]).expect("cell");
            hex.make_move(reply);
            assert_eq!(hex.outcome(), None, "White must not win");
        }
    }
    assert_eq!(hex.outcome(), Some(Outcome::Win(Player::P1)));
    // Undoing the last stone takes the win back.
    let last = hex.parse_move("f7").expect("cell");
    hex.unmake_move(last);
    assert_eq!(hex.outcome(), None);
}

#[test]
/// The win detection against a flood fill over random games of every size
/// up to 13 (make/unmake, keys and FENs: tests/game_contract.rs).
fn random_games_agree_with_flood_fill() {
    let mut rng = StdRng::seed_from_u64(7);
    for game in 0..200 {
        let n = 1 + game % 13;
        let swap = game % 2 == 0;
        let mut hex = Hex::start_position(&rules(n, swap));
        let mut naive = Naive::new(n, swap);
        let mut legal = Vec::new();
        while hex.outcome().is_none() {
            hex.generate_moves(&mut legal);
            let mv = legal[rng.gen_range(0..legal.len())];
            let children = naive.children();
            naive = if mv.is_swap() {
                children.last().expect("swap child").clone()
            } else {
                let (c, r) = (mv.0 as usize % n, mv.0 as usize / n);
                children
                    .into_iter()
                    .find(|child| child.grid[r][c] != '.' && naive.grid[r][c] == '.')
                    .expect("child")
            };
            hex.make_move(mv);
            let fen = hex.to_fen();
            let expected = if naive.connected('x') {
                Some(Outcome::Win(Player::P1))
            } else if naive.connected('o') {
                Some(Outcome::Win(Player::P2))
            } else {
                None
            };
            assert_eq!(hex.outcome(), expected, "after {fen}");
        }
    }
}

#[test]
fn swap_mirrors_the_first_stone_and_black_moves_next() {
    let mut hex = Hex::start_position(&rules(11, true));
    let start_hash = hex.hash();
    play(&mut hex, &["c1"]);
    let mut legal = Vec::new();
    hex.generate_moves(&mut legal);
    assert!(legal.contains(&HexMove::SWAP));
    assert_eq!(legal.len(), 121);
    play(&mut hex, &["swap"]);
    // c1 = (column c, row 1) becomes a White stone on a3 (column a, row 3).
    assert_eq!(hex.to_fen(), "11/11/o10/11/11/11/11/11/11/11/11 b");
    assert_eq!(hex.side_to_move(), Player::P1);
    assert_eq!(hex.ply(), 2);
    hex.generate_moves(&mut legal);
    assert!(!legal.contains(&HexMove::SWAP));
    assert_eq!(legal.len(), 120);
    hex.unmake_move(HexMove::SWAP);
    assert_eq!(hex.to_fen(), "2x8/11/11/11/11/11/11/11/11/11/11 w");
    let c1 = hex.parse_move("c1").expect("cell");
    hex.unmake_move(c1);
    assert_eq!(hex.hash(), start_hash);

    // Without the pie rule, or later than the second move, no swap.
    let mut hex = Hex::start_position(&rules(11, false));
    play(&mut hex, &["c1"]);
    hex.generate_moves(&mut legal);
    assert!(!legal.contains(&HexMove::SWAP));
    let mut hex = Hex::start_position(&rules(5, true));
    play(&mut hex, &["c1", "c2"]);
    hex.generate_moves(&mut legal);
    assert!(!legal.contains(&HexMove::SWAP));
}

#[test]
fn swap_of_a_stone_on_the_diagonal_keeps_its_cell() {
    let mut hex = Hex::start_position(&rules(5, true));
    play(&mut hex, &["c3", "swap"]);
    assert_eq!(hex.to_fen(), "5/5/2o2/5/5 b");
}

#[test]
fn fen_round_trips_and_rejects_bad_input() {
    let r = rules(11, true);
    for fen in [
        "11/11/11/11/11/11/11/11/11/11/11 b",
        "x10/1o9/11/11/11/5x5/11/11/11/11/10o w",
        "1 b",
        "x w",
        "25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/24x b",
    ] {
        let hex = Hex::from_fen(fen, &r).expect(fen);
        assert_eq!(hex.to_fen(), fen);
    }
    // `x`/`o` also name the side to move.
    let hex = Hex::from_fen("3/1x1/3 o", &r).expect("fen");
    assert_eq!(hex.to_fen(), "3/1x1/3 w");
    for bad in [
        "",
        "3/3/3",
        "3/3/3 q",
        "3/3/2 b",
        "3/3/4 b",
        "3/3/3/3 b",
        "3/3/1z1 b",
        "0/3/3 b",
        "3/3/3 b extra",
        "26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26 b",
    ] {
        assert!(
            Hex::from_fen(bad, &r).is_err(),
            "{bad:?} should be rejected"
        );
    }
}

#[test]
fn cell_names_parse_and_print() {
    let hex = Hex::start_position(&rules(11, true));
    assert_eq!(hex.format_move(hex.parse_move("a1").expect("a1")), "a1");
    assert_eq!(hex.format_move(hex.parse_move("K11").expect("K11")), "k11");
    assert_eq!(hex.parse_move("swap"), Ok(HexMove::SWAP));
    for bad in ["l1", "a12", "a0", "", "11", "aa1", "a1x", "a-1"] {
        assert!(hex.parse_move(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn rule_options_parse() {
    let mut r = HexRules::default();
    assert_eq!(r, rules(11, true));
    Hex::set_rule_option(&mut r, "boardsize", "19").expect("size");
    Hex::set_rule_option(&mut r, "SWAP", "false").expect("swap");
    assert_eq!(r, rules(19, false));
    for (name, value) in [
        ("BoardSize", "0"),
        ("BoardSize", "26"),
        ("BoardSize", "x"),
        ("Swap", "maybe"),
        ("Colour", "1"),
    ] {
        assert!(Hex::set_rule_option(&mut r, name, value).is_err());
    }
    assert_eq!(r, rules(19, false));
}

#[test]
fn symmetric_positions_share_their_key() {
    let r = rules(5, true);
    let key = |fen: &str| Hex::from_fen(fen, &r).expect(fen).hash();
    // Half turn: b1 and d5.
    assert_eq!(key("1x3/5/5/5/5 w"), key("5/5/5/5/3x1 w"));
    // The swap: Black b1 with White to move mirrors White a2 with Black to
    // move (diagonal reflection, colours and turn exchanged), but only the
    // first may still swap, so their values differ and so must their keys
    // (a central stone: swapping wins, the position after the swap loses).
    let mut hex = Hex::start_position(&r);
    play(&mut hex, &["b1"]);
    let before = hex.hash();
    play(&mut hex, &["swap"]);
    assert_ne!(hex.hash(), before);
    // Without the pie rule the mirror images are equal and share the key.
    let plain = rules(5, false);
    let plain_key = |fen: &str| Hex::from_fen(fen, &plain).expect(fen).hash();
    assert_eq!(plain_key("1x3/5/5/5/5 w"), plain_key("5/o4/5/5/5 b"));
    // Different positions, different keys.
    assert_ne!(key("1x3/5/5/5/5 w"), key("1x3/5/5/5/5 b"));
    assert_ne!(key("1x3/5/5/5/5 w"), key("2x2/5/5/5/5 w"));
    assert_ne!(key("1x3/5/5/5/5 w"), key("1o3/5/5/5/5 w"));
}
