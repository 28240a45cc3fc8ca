//! What the Hex engine knows beyond the rules: dead cells, bridge replies,
//! proven results, the opening policy, the evaluation's symmetry.

mod common;

use common::hex::brute_force_wins;

use boardgames::core::search::AlphaBetaKnowledge;
use boardgames::core::{Game, Knowledge, Player};
use boardgames::games::hex::analysis::{bridge_replies, immediate_wins, is_dead, winning_cells};
use boardgames::games::hex::{opening, proving, Hex, HexKnowledge, HexMove, HexRules};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

fn position(fen: &str) -> Hex {
    Hex::from_fen(fen, &HexRules::default()).expect(fen)
}

fn cell(hex: &Hex, name: &str) -> usize {
    hex.parse_move(name).expect(name).0 as usize
}

fn names(hex: &Hex, moves: &[HexMove]) -> Vec<String> {
    moves.iter().map(|&m| hex.format_move(m)).collect()
}

#[test]
fn a_cell_with_four_neighbours_of_one_colour_is_dead() {
    let mut knowledge = HexKnowledge::default();
    // c3 on 5x5: neighbours c2 d2 d3 c4 b4 b3; Black on c2, d2, d3, c4.
    let hex = position("5/2xx1/3x1/2x2/5 w");
    assert!(is_dead(&hex, cell(&hex, "c3")));
    // Three of one colour are not enough.
    let hex = position("5/2xx1/3x1/5/5 w");
    assert!(!is_dead(&hex, cell(&hex, "c3")));
    // On the top edge the two missing neighbours count as Black's edge:
    // c1's ring is top, top, d1, c2, b2, b1; Black on d1 and c2.
    let hex = position("3x1/2x2/5/5/5 w");
    assert!(is_dead(&hex, cell(&hex, "c1")));
    // Mixed colours never make a run.
    let hex = position("5/2xo1/3x1/2x2/5 w");
    assert!(!is_dead(&hex, cell(&hex, "c3")));
    // Dead cells are left out of the search moves, not out of the rules.
    let hex = position("5/2xx1/3x1/2x2/o4 w");
    let mut search = Vec::new();
    knowledge.search_moves(&hex, &mut search);
    let mut legal = Vec::new();
    hex.generate_moves(&mut legal);
    let c3 = hex.parse_move("c3").expect("c3");
    assert!(legal.contains(&c3));
    assert!(!search.contains(&c3));
}

#[test]
fn an_intruded_bridge_is_answered_in_its_other_carrier() {
    let mut knowledge = HexKnowledge::default();
    // Black c3-d4 is a bridge carried by d3 and c4; White takes d3.
    let mut hex = position("5/5/2x2/3x1/5 w");
    hex.make_move(hex.parse_move("d3").expect("d3"));
    let mut replies = Vec::new();
    bridge_replies(&hex, &mut replies);
    assert_eq!(replies, vec![cell(&hex, "c4")]);
    // The reply is the first quiet candidate and the quiescence move.
    let c4 = hex.parse_move("c4").expect("c4");
    let mut moves = Vec::new();
    knowledge.search_moves(&hex, &mut moves);
    let best = moves
        .iter()
        .copied()
        .max_by_key(|&m| knowledge.move_order_hint(&hex, m))
        .expect("moves");
    assert_eq!(best, c4);
    knowledge.noisy_moves(&hex, &mut moves);
    assert_eq!(moves, vec![c4]);
    // A bridge to the edge: Black b2 with a1? no: b2 reaches row 1 through
    // b1 and c1; White takes c1, Black must answer b1.
    let mut hex = position("5/1x3/5/5/5 w");
    hex.make_move(hex.parse_move("c1").expect("c1"));
    bridge_replies(&hex, &mut replies);
    assert_eq!(replies, vec![cell(&hex, "b1")]);
}

#[test]
fn immediate_wins_and_double_threats_are_proven() {
    let mut knowledge = HexKnowledge::default();
    // Black a1-a2-a3-a4 on 5x5, Black to move: a5 or b4 wins at once.
    let mut hex = position("xo3/xo3/xo3/xo3/5 b");
    let mut cells = Vec::new();
    winning_cells(&hex, Player::P1, 10, &mut cells);
    let mut won: Vec<String> = cells
        .iter()
        .map(|&c| hex.format_move(HexMove::cell(c)))
        .collect();
    won.sort();
    assert_eq!(won, vec!["a5"]);
    assert_eq!(knowledge.forced_result(&mut hex), Some(1));
    let mut moves = Vec::new();
    knowledge.search_moves(&hex, &mut moves);
    assert_eq!(names(&hex, &moves), vec!["a5"]);

    // With White to move, the one threat must be blocked: nothing else is
    // searched, and nothing is proven yet.
    let mut hex = position("xo3/xo3/xo3/xo3/5 w");
    assert_eq!(knowledge.forced_result(&mut hex), None);
    assert!(knowledge.must_respond(&hex));
    knowledge.search_moves(&hex, &mut moves);
    assert_eq!(names(&hex, &moves), vec!["a5"]);

    // Black c1-c4 threatens both b5 and c5: White to move is lost.
    let quiet = position("o1x2/o1x2/o1x2/o1x2/5 b");
    assert!(!knowledge.must_respond(&quiet));
    let mut hex = position("o1x2/o1x2/o1x2/o1x2/5 w");
    let mut threats = Vec::new();
    winning_cells(&hex, Player::P1, 10, &mut threats);
    assert_eq!(threats.len(), 2);
    assert_eq!(knowledge.forced_result(&mut hex), Some(-2));
}

/// The cells where `player` wins at once, found by playing every empty cell
/// (for the player not to move, in the same position with the turn passed).
fn winning_by_playing(hex: &Hex, player: Player) -> Vec<usize> {
    let fen = hex.to_fen();
    let turn = if player == Player::P1 { "b" } else { "w" };
    let board = fen.split(' ').next().expect("a board");
    let Ok(mover) = Hex::from_fen(&format!("{board} {turn}"), &HexRules::default()) else {
        return Vec::new();
    };
    let mut moves = Vec::new();
    mover.generate_moves(&mut moves);
    let mut cells: Vec<usize> = moves
        .into_iter()
        .filter(|mv| !mv.is_swap())
        .filter(|&mv| {
            let mut after = mover.clone();
            after.make_move(mv);
            after.outcome().is_some()
        })
        .map(|mv| mv.0 as usize)
        .collect();
    cells.sort_unstable();
    cells
}

/// `winning_cells` and `immediate_wins` find exactly the cells that win
/// when played, first in cell order, on random games of every size from 1
/// to 13.
#[test]
fn winning_cells_are_the_cells_that_win_when_played() {
    let mut rng = StdRng::seed_from_u64(17);
    let (mut cells, mut legal) = (Vec::new(), Vec::new());
    let mut double_threats = 0;
    for size in 1..=13 {
        let rules = HexRules {
            board_size: size,
            swap: false,
        };
        for _ in 0..20 {
            let mut hex = Hex::start_position(&rules);
            while hex.outcome().is_none() {
                let me = hex.side_to_move_player();
                let wins = immediate_wins(&hex);
                for (player, first) in [(me, &wins.mine), (me.other(), &wins.theirs[0])] {
                    let expected = winning_by_playing(&hex, player);
                    winning_cells(&hex, player, usize::MAX, &mut cells);
                    assert_eq!(cells, expected, "{} for {player:?}", hex.to_fen());
                    assert_eq!(*first, expected.first().copied());
                }
                winning_cells(&hex, me.other(), 2, &mut cells);
                assert_eq!(wins.theirs, [cells.first().copied(), cells.get(1).copied()]);
                double_threats += usize::from(wins.theirs[1].is_some());
                hex.generate_moves(&mut legal);
                let mv = *legal.choose(&mut rng).expect("a game not over has moves");
                hex.make_move(mv);
            }
        }
    }
    assert!(double_threats > 0, "double threats met");
}

#[test]
fn a_chain_of_bridges_is_a_proven_win_for_either_side_to_move() {
    let mut knowledge = HexKnowledge::default();
    // Black b2, c3, d4 on 5x5: edge bridge (b1, c1), bridges (c2, b3) and
    // (d3, c4), edge bridge (c5, d5): four bridges to fill.
    let mut hex = position("o4/1x3/2x2/3x1/4o w");
    assert_eq!(knowledge.forced_result(&mut hex), Some(-8));
    let mut hex = position("o4/1x3/2x2/3x1/o3o b");
    assert_eq!(knowledge.forced_result(&mut hex), Some(7));
    // d5 taken: the edge bridge of d4 is down to c5, a half connection.
    // Black to move fills it and keeps the rest: still a win in 7 plies.
    let mut hex = position("o4/1x3/2x2/3x1/3oo b");
    assert_eq!(knowledge.forced_result(&mut hex), Some(7));
    // With White to move, the half connection is White's to cut: no proof,
    // but only a stone in the chain's carrier is worth searching.
    let mut hex = position("o4/1x3/2x2/3x1/3oo w");
    assert_eq!(knowledge.forced_result(&mut hex), None);
    let mut moves = Vec::new();
    knowledge.search_moves(&hex, &mut moves);
    let mut cells = names(&hex, &moves);
    cells.sort();
    assert_eq!(cells, vec!["b1", "b3", "c1", "c2", "c4", "c5", "d3"]);
    // Two broken links are more than one move can mend.
    let mut hex = position("o4/1x3/1ox2/3x1/3oo b");
    assert_eq!(knowledge.forced_result(&mut hex), None);
}

#[test]
fn groups_with_two_common_liberties_are_connected() {
    let mut knowledge = HexKnowledge::default();
    // White a2-b2 and c3-d3-e3 on 5x5 share c2 and b3: Black to move is
    // lost, White has one link to fill.
    let mut hex = position("5/oo3/2ooo/5/x3x b");
    assert_eq!(knowledge.forced_result(&mut hex), Some(-2));
    // White a2-b2 and d2-e2 share only c2: a half connection, which only
    // the side to move can use.
    let mut hex = position("5/oo1oo/5/5/x3x b");
    assert_eq!(knowledge.forced_result(&mut hex), None);
}

#[test]
fn opening_policy_with_the_pie_rule() {
    let mut knowledge = HexKnowledge::default();
    let mut hex = Hex::start_position(&HexRules::default());
    let mut moves = Vec::new();
    knowledge.search_moves(&hex, &mut moves);
    let mut first = names(&hex, &moves);
    first.sort();
    assert_eq!(first, vec!["a3", "a4", "k8", "k9"]);
    // The first stones Black opens with are ones White would not swap.
    for (col, row) in [(0, 2), (0, 3), (10, 7), (10, 8)] {
        let cell = hex.geometry().cell(col, row);
        assert!(!opening::swap_first_stone(&hex, cell), "{col} {row}");
    }
    // A central first move is swapped, a corner one is not.
    hex.make_move(hex.parse_move("f6").expect("f6"));
    knowledge.search_moves(&hex, &mut moves);
    assert_eq!(moves, vec![HexMove::SWAP]);
    let mut hex = Hex::start_position(&HexRules::default());
    hex.make_move(hex.parse_move("a1").expect("a1"));
    knowledge.search_moves(&hex, &mut moves);
    assert!(!moves.contains(&HexMove::SWAP));
    assert_eq!(moves.len(), 120);
    // Small boards are left to the search.
    let hex = Hex::start_position(&HexRules {
        board_size: 5,
        swap: true,
    });
    knowledge.search_moves(&hex, &mut moves);
    assert_eq!(moves.len(), 25);
}

/// The swap decision each size's map or table gives, row by row.
fn swap_map(size: usize) -> Vec<bool> {
    let mut knowledge = HexKnowledge::default();
    let start = Hex::start_position(&HexRules {
        board_size: size,
        swap: true,
    });
    let mut moves = Vec::new();
    (0..size * size)
        .map(|cell| {
            let mut hex = start.clone();
            hex.make_move(HexMove::cell(cell));
            knowledge.search_moves(&hex, &mut moves);
            moves == vec![HexMove::SWAP]
        })
        .collect()
}

#[test]
fn the_swap_follows_the_published_maps_and_the_self_play_tables() {
    for size in [6, 7, 8] {
        let published: Vec<bool> = (0..size * size)
            .map(|cell| proving::published_first_player_wins(size, cell).expect("published"))
            .collect();
        assert_eq!(swap_map(size), published, "{size}x{size}");
    }
    let tables = opening::parse_swap_tables(include_str!("../src/games/hex/swap-table.txt"))
        .expect("the shipped tables parse");
    let sizes: Vec<usize> = tables.iter().map(|(size, _)| *size).collect();
    assert_eq!(sizes, (9..=19).collect::<Vec<_>>());
    for (size, table) in &tables {
        assert_eq!(&swap_map(*size), table, "{size}x{size}");
        // The half turn maps a position onto an equivalent one.
        let n = size * size;
        assert!(
            (0..n).all(|cell| table[cell] == table[n - 1 - cell]),
            "{size}x{size}"
        );
    }
    // Beyond the tables: border stones are kept, the others swapped.
    let map = swap_map(21);
    assert!(!map[0] && !map[20] && !map[21 * 10]);
    assert!(map[22] && map[21 * 10 + 10]);
}

#[test]
fn swap_tables_that_do_not_fit_are_refused() {
    let good = "# comment\nsize 2\nWl\nlW\n";
    assert_eq!(
        opening::parse_swap_tables(good),
        Ok(vec![(2, vec![true, false, false, true])])
    );
    for bad in [
        "Wl\n",
        "size two\n",
        "size 2\nWl\n",
        "size 2\nWl\nlWl\n",
        "size 2\nWl\nlx\n",
        "size 2\nWl\nlW\nWW\n",
    ] {
        assert!(opening::parse_swap_tables(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn evaluation_is_symmetric_under_the_swap_mirror() {
    let mut knowledge = HexKnowledge::default();
    // A position and its mirror with colours exchanged and the other side
    // to move score the same for the side to move.
    let black = position("11/11/11/11/3x7/11/11/11/11/11/11 w");
    let white = position("11/11/11/4o6/11/11/11/11/11/11/11 b");
    assert_eq!(knowledge.evaluate(&black), knowledge.evaluate(&white));
    let start = Hex::start_position(&HexRules::default());
    let empty_score = knowledge.evaluate(&start);
    // One stone in the middle favours its owner.
    let centre = position("11/11/11/11/11/5x5/11/11/11/11/11 w");
    assert!(knowledge.evaluate(&centre) < empty_score);
}

#[test]
fn small_board_solver_agrees_with_brute_force_after_every_first_move() {
    use boardgames::games::hex::solver::solve;
    for size in [2, 3, 4] {
        for swap in [true, false] {
            let rules = HexRules {
                board_size: size,
                swap,
            };
            let start = Hex::start_position(&rules);
            let mut memo = std::collections::HashMap::new();
            let mut firsts = Vec::new();
            start.generate_moves(&mut firsts);
            for first in firsts {
                let mut hex = start.clone();
                hex.make_move(first);
                let expected = brute_force_wins(&mut hex.clone(), &mut memo);
                let proof =
                    solve(&mut HexKnowledge::default(), &hex).expect("small boards are solved");
                assert_eq!(
                    proof.win,
                    expected,
                    "size {size} swap {swap} after {}",
                    start.format_move(first)
                );
                if swap {
                    // The pie rule makes every first stone a loss.
                    assert!(proof.win, "size {size}: White wins after {first:?}");
                }
            }
        }
    }
}
