//! The Swap2 opening through the Gomocup protocol, as Piskvork's
//! successors (GomocupJudge, c-gomoku-cli) send it to `pbrain-bg-gomoku`:
//! a whole manager session (START, the INFO lines, SWAP2BOARD with 0, 3
//! and 5 stones, then the game going on with TURN and BOARD), the colour
//! taken in lopsided positions, and bad blocks refused with the state kept.

mod common;

use std::path::Path;

use common::Engine;

const SIZE: usize = 15;

fn brain() -> Engine {
    let program = env!("CARGO_BIN_EXE_pbrain-bg-gomoku");
    Engine::start_program(Path::new(program), &["--seed", "7"])
}

/// The lines a manager sends before a game: START, then the INFO lines.
fn start(engine: &mut Engine) {
    assert_eq!(engine.ask(&format!("START {SIZE}"), "OK"), ["OK"]);
    for line in [
        "INFO timeout_turn 300",
        "INFO timeout_match 60000",
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO rule 1",
        "INFO folder /tmp",
    ] {
        engine.send(line);
    }
}

fn point(text: &str) -> (usize, usize) {
    let (x, y) = text.split_once(',').expect("a point is x,y");
    let x: usize = x.trim().parse().expect("x is a number");
    let y: usize = y.trim().parse().expect("y is a number");
    assert!(x < SIZE && y < SIZE, "{x},{y} is off the board");
    (x, y)
}

/// What the brain answered, MESSAGE lines skipped: a Swap2 answer is
/// `SWAP` or points on one line.
enum Answer {
    Swap,
    Points(Vec<(usize, usize)>),
}

/// Sends a SWAP2BOARD block of `stones` (with `INFO time_left` before it,
/// as managers do) and reads the answer, which must come with a MESSAGE
/// explaining it.
fn swap2(engine: &mut Engine, stones: &[(usize, usize)]) -> Answer {
    swap2_as(engine, stones, None)
}

/// The same, each stone with its owner as Rapfi reads them (and our
/// referee sends them) when `asked_is_black` is given.
fn swap2_as(
    engine: &mut Engine,
    stones: &[(usize, usize)],
    asked_is_black: Option<bool>,
) -> Answer {
    engine.send("INFO time_left 59000");
    engine.send("SWAP2BOARD");
    for (index, (x, y)) in stones.iter().enumerate() {
        match asked_is_black {
            None => engine.send(&format!("{x},{y}")),
            Some(asked_is_black) => {
                let own = if (index % 2 == 0) == asked_is_black {
                    1
                } else {
                    2
                };
                engine.send(&format!("{x},{y},{own}"));
            }
        }
    }
    engine.send("DONE");
    let lines = engine.read_until(|l| !l.starts_with("MESSAGE"));
    assert!(
        lines.iter().any(|l| l.starts_with("MESSAGE swap2: ")),
        "no explanation: {lines:?}"
    );
    let last = lines.last().expect("an answer");
    if last == "SWAP" {
        return Answer::Swap;
    }
    Answer::Points(last.split_whitespace().map(point).collect())
}

/// Checks `new` stones are distinct and on empty cells, and adds them.
fn place(board: &mut Vec<(usize, usize)>, new: &[(usize, usize)]) {
    for &stone in new {
        assert!(!board.contains(&stone), "{stone:?} is taken: {board:?}");
        board.push(stone);
    }
}

/// The brain's move after TURN or BOARD.
fn next_move(engine: &mut Engine) -> (usize, usize) {
    let lines = engine.read_until(|l| !l.starts_with("MESSAGE"));
    point(lines.last().expect("a move"))
}

/// An empty cell away from the centre, for the scripted opponent.
fn far_cell(board: &[(usize, usize)]) -> (usize, usize) {
    (0..SIZE * SIZE)
        .map(|i| (i % SIZE, i / SIZE))
        .find(|cell| !board.contains(cell))
        .expect("an empty cell")
}

/// TAKEBACK of each stone from the last: every one is OK only if the
/// brain's game is exactly `board`, in this order.
fn take_back_all(engine: &mut Engine, board: &[(usize, usize)]) {
    for (x, y) in board.iter().rev() {
        assert_eq!(engine.ask(&format!("TAKEBACK {x},{y}"), "OK"), ["OK"]);
    }
}

/// Our brain opens: three stones, the opponent adds two, the brain
/// chooses its colour, and the game goes on with TURN; the brain's game is
/// then exactly the stones played, in order.
#[test]
fn a_manager_session_opens_with_swap2_and_plays_on() {
    let mut engine = brain();
    start(&mut engine);
    let mut board = Vec::new();
    let Answer::Points(opening) = swap2(&mut engine, &[]) else {
        panic!("SWAP to an empty board");
    };
    assert_eq!(opening.len(), 3, "{opening:?}");
    place(&mut board, &opening);
    // The opponent puts two more stones: white's fourth, black's fifth.
    let four = far_cell(&board);
    place(&mut board, &[four]);
    let five = far_cell(&board);
    place(&mut board, &[five]);
    match swap2(&mut engine, &board) {
        // Black: the opponent plays White's sixth stone as a TURN.
        Answer::Swap => {
            let six = far_cell(&board);
            place(&mut board, &[six]);
            engine.send(&format!("TURN {},{}", six.0, six.1));
        }
        // White, the sixth stone: the opponent plays Black's seventh.
        Answer::Points(six) => {
            assert_eq!(six.len(), 1, "{six:?}");
            place(&mut board, &six);
            let seven = far_cell(&board);
            place(&mut board, &[seven]);
            engine.send(&format!("TURN {},{}", seven.0, seven.1));
        }
    }
    let reply = next_move(&mut engine);
    place(&mut board, &[reply]);
    take_back_all(&mut engine, &board);
    engine.send("END");
    engine.finish();
}

/// The brain answers three stones: whatever it chooses is well formed and
/// legal, and the game goes on from it with BOARD, as the Gomocup manager
/// sends it to the side to move after the opening.
#[test]
fn a_manager_session_answers_three_stones_and_resumes_by_board() {
    let mut engine = brain();
    start(&mut engine);
    let mut board = vec![(7, 7), (8, 7), (9, 9)];
    let answer = swap2(&mut engine, &board);
    let we_are_black = match answer {
        Answer::Swap => true,
        Answer::Points(stones) => {
            assert!((1..=2).contains(&stones.len()), "{stones:?}");
            place(&mut board, &stones);
            // Two stones leave White to move and the choice to the opener,
            // who takes White here: the brain is Black.
            stones.len() == 2
        }
    };
    // The opponent moves, then the manager sends the whole board.
    let theirs = far_cell(&board);
    place(&mut board, &[theirs]);
    engine.send("RESTART");
    engine.read_until(|l| l == "OK");
    engine.send("BOARD");
    for (index, (x, y)) in board.iter().enumerate() {
        let black = index % 2 == 0;
        let own = if black == we_are_black { 1 } else { 2 };
        engine.send(&format!("{x},{y},{own}"));
    }
    engine.send("DONE");
    let reply = next_move(&mut engine);
    place(&mut board, &[reply]);
    engine.send("END");
    engine.finish();
}

/// In lopsided positions the brain takes the better colour: Black when
/// Black's stones stand together and White's is in a corner, White (with a
/// stone) when White holds the centre and Black's stones are in corners.
#[test]
fn the_better_colour_is_taken() {
    let mut engine = brain();
    start(&mut engine);
    let black_ahead = [(7, 7), (0, 0), (8, 8)];
    assert!(matches!(swap2(&mut engine, &black_ahead), Answer::Swap));
    // The same block with owners, from the asked second player's side.
    let owned = swap2_as(&mut engine, &black_ahead, Some(false));
    assert!(matches!(owned, Answer::Swap));
    let white_ahead = [(0, 0), (7, 7), (14, 14)];
    let Answer::Points(four) = swap2(&mut engine, &white_ahead) else {
        panic!("took Black with White ahead");
    };
    assert_eq!(four.len(), 1);
    assert!(!white_ahead.contains(&four[0]));
    let black_ahead = [(7, 7), (0, 0), (8, 8), (14, 0), (9, 9)];
    assert!(matches!(swap2(&mut engine, &black_ahead), Answer::Swap));
    let white_ahead = [(0, 0), (7, 7), (14, 14), (8, 8), (0, 14)];
    let Answer::Points(six) = swap2(&mut engine, &white_ahead) else {
        panic!("took Black with White ahead");
    };
    assert_eq!(six.len(), 1);
    assert!(!white_ahead.contains(&six[0]));
    engine.send("END");
    engine.finish();
}

/// A bad block gets one ERROR line and changes nothing: the game before it
/// goes on (TURN answered, TAKEBACK of the last move accepted).
#[test]
fn bad_swap2_blocks_are_refused_and_the_state_kept() {
    let mut engine = brain();
    start(&mut engine);
    engine.send("BEGIN");
    let first = next_move(&mut engine);
    let bad_blocks: [(&[&str], &str); 8] = [
        (&["7,7", "8,8"], "0, 3 or 5 stones"),
        (&["7,7", "8,8", "9,9", "10,10"], "0, 3 or 5 stones"),
        (&["7,7", "7,7", "9,9"], "occupied"),
        (&["7,7", "8,8", "15,3"], "off the 15x15 board"),
        (&["7,7", "8,8,1", "9,9"], "owners must too"),
        (&["7,7,1", "8,8,1", "9,9,1"], "owners must too"),
        (&["7,7,2", "8,8,1", "9,9,4"], "bad SWAP2BOARD line"),
        (&["7,7", "x", "9,9"], "bad SWAP2BOARD line"),
    ];
    for (lines, why) in bad_blocks {
        engine.send("SWAP2BOARD");
        for line in lines {
            engine.send(line);
        }
        let answer = engine.ask("DONE", "ERROR");
        assert_eq!(answer.len(), 1, "{lines:?}: {answer:?}");
        assert!(answer[0].contains(why), "{lines:?}: {answer:?}");
    }
    // The game is still the one move: a TURN is answered beside it, and
    // both moves are the last two of the brain's game.
    let mut board = vec![first];
    let theirs = far_cell(&board);
    place(&mut board, &[theirs]);
    engine.send(&format!("TURN {},{}", theirs.0, theirs.1));
    let reply = next_move(&mut engine);
    place(&mut board, &[reply]);
    take_back_all(&mut engine, &board);
    // Nothing else was said: the next answer is the next command's.
    assert_eq!(engine.ask("ABOUT", "name="), [engine_about()]);
    engine.send("END");
    engine.finish();
}

fn engine_about() -> String {
    format!(
        "name=\"gomoku\", version=\"{}\", author=\"the boardgames team\", country=\"-\", www=\"-\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// INFO rule takes every rule the brain plays and refuses the others with
/// an ERROR, the rule kept.
#[test]
fn info_rule_takes_the_rules_played_and_refuses_caro() {
    let mut engine = brain();
    start(&mut engine);
    for bits in ["0", "1", "4", "5", "2", "3"] {
        engine.send(&format!("INFO rule {bits}"));
    }
    let answer = engine.ask("INFO rule 8", "ERROR");
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(answer[0].contains("rule 8 is not supported"), "{answer:?}");
    // Rule 3 (exactly five, continuous) was the last accepted.
    assert!(answer[0].ends_with("the rule stays standard"), "{answer:?}");
    engine.send("END");
    engine.finish();
}
