use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn random_point(rng: &mut StdRng) -> Point {
    Point {
        x: rng.gen_range(0..40),
        y: rng.gen_range(0..40),
    }
}

fn random_text(rng: &mut StdRng) -> String {
    let words: Vec<String> = (0..rng.gen_range(1..5))
        .map(|_| {
            (0..rng.gen_range(1..7))
                .map(|_| char::from(b"abcxyz019_:=-"[rng.gen_range(0..13)]))
                .collect()
        })
        .collect();
    words.join(" ")
}

fn random_command(rng: &mut StdRng) -> PbrainCommand {
    match rng.gen_range(0..12) {
        11 => PbrainCommand::Swap2Board,
        0 => PbrainCommand::Start(rng.gen_range(0..30)),
        1 => PbrainCommand::RectStart {
            width: rng.gen_range(0..30),
            height: rng.gen_range(0..30),
        },
        2 => PbrainCommand::Restart,
        3 => PbrainCommand::Begin,
        4 => PbrainCommand::Turn(random_point(rng)),
        5 => PbrainCommand::Board,
        6 => PbrainCommand::Takeback(random_point(rng)),
        7 => PbrainCommand::Info {
            key: random_text(rng).replace(' ', "_"),
            value: random_text(rng),
        },
        8 => PbrainCommand::End,
        9 => PbrainCommand::About,
        _ => PbrainCommand::Stop,
    }
}

fn random_reply(rng: &mut StdRng) -> PbrainReply {
    match rng.gen_range(0..10) {
        8 => PbrainReply::Swap,
        9 => PbrainReply::Moves(
            (0..rng.gen_range(2..4))
                .map(|_| random_point(rng))
                .collect(),
        ),
        0 => PbrainReply::Ok,
        1 => PbrainReply::Move(random_point(rng)),
        2 => PbrainReply::Suggest(random_point(rng)),
        3 => PbrainReply::Message(random_text(rng)),
        4 => PbrainReply::Debug(random_text(rng)),
        5 => PbrainReply::Error(random_text(rng)),
        6 => PbrainReply::Unknown(random_text(rng)),
        _ => PbrainReply::About(
            (0..rng.gen_range(1..5))
                .map(|_| {
                    (
                        random_text(rng).replace([' ', '=', ','], "k"),
                        random_text(rng),
                    )
                })
                .collect(),
        ),
    }
}

#[test]
fn commands_round_trip() {
    let mut rng = StdRng::seed_from_u64(26);
    for _ in 0..3000 {
        let command = random_command(&mut rng);
        let line = command.to_string();
        assert_eq!(parse_command(&line), Ok(command), "{line}");
    }
}

#[test]
fn board_lines_round_trip() {
    let mut rng = StdRng::seed_from_u64(27);
    for _ in 0..1000 {
        let line = match rng.gen_range(0..4) {
            0 => BoardLine::Done,
            1 => BoardLine::Stone(random_point(&mut rng), Stone::Own),
            2 => BoardLine::Stone(random_point(&mut rng), Stone::Opponent),
            _ => BoardLine::Stone(random_point(&mut rng), Stone::Shared),
        };
        assert_eq!(parse_board_line(&line.to_string()), Ok(line));
    }
    assert!(parse_board_line("7,7,4").is_err());
    assert!(parse_board_line("7,7").is_err());
    assert_eq!(
        parse_board_line(" 7, 8 ,2"),
        Ok(BoardLine::Stone(Point { x: 7, y: 8 }, Stone::Opponent))
    );
}

#[test]
fn swap2_lines_read_points_and_done() {
    assert_eq!(
        parse_swap2_line(" 7, 8 "),
        Ok(Swap2Line::Stone(Point { x: 7, y: 8 }, None))
    );
    let owned = Swap2Line::Stone(Point { x: 7, y: 8 }, Some(Stone::Opponent));
    assert_eq!(parse_swap2_line("7,8,2"), Ok(owned));
    assert_eq!(owned.to_string(), "7,8,2");
    assert_eq!(parse_swap2_line("done"), Ok(Swap2Line::Done));
    for bad in ["7,7,4", "7", "x,y", "-1,2", "SWAP", "7,7,1,1"] {
        let error = parse_swap2_line(bad).unwrap_err();
        assert!(error.contains("x,y or x,y,1|2 expected"), "{bad}: {error}");
    }
    assert_eq!(
        parse_reply("7,7  8,7 9,9"),
        Some(PbrainReply::Moves(vec![
            Point { x: 7, y: 7 },
            Point { x: 8, y: 7 },
            Point { x: 9, y: 9 }
        ]))
    );
    assert_eq!(parse_reply("swap"), Some(PbrainReply::Swap));
    assert_eq!(parse_command("SWAP2BOARD"), Ok(PbrainCommand::Swap2Board));
}

#[test]
fn replies_round_trip() {
    let mut rng = StdRng::seed_from_u64(62);
    for _ in 0..3000 {
        let reply = random_reply(&mut rng);
        let line = reply.to_string();
        assert_eq!(parse_reply(&line), Some(reply), "{line}");
    }
    let about = parse_reply(r#"name="pbrain-x", version="1.0", author="A B", country="-""#);
    assert_eq!(
        about.as_ref().and_then(|a| a.about_name()),
        Some("pbrain-x")
    );
    assert_eq!(parse_reply("7;7"), None);
}

#[test]
fn malformed_commands_say_why() {
    let malformed = |why: &str| Err(CommandError::Malformed(why.to_owned()));
    assert_eq!(parse_command("TURN 7"), malformed("'7' is not x,y"));
    assert_eq!(parse_command("TURN"), malformed("TURN needs x,y"));
    assert_eq!(parse_command("TURN -1,3"), malformed("'-1,3' is not x,y"));
    assert_eq!(
        parse_command("START"),
        malformed("START needs a board size")
    );
    assert_eq!(
        parse_command("INFO"),
        malformed("INFO needs a key and a value")
    );
    assert_eq!(
        parse_command("INFO rule"),
        malformed("INFO needs a key and a value")
    );
    assert_eq!(
        parse_command("FOO 1"),
        Err(CommandError::Unknown("FOO".to_owned()))
    );
    assert_eq!(parse_command("turn 3, 4"), malformed("'3,' is not x,y"));
    assert_eq!(parse_command("begin"), Ok(PbrainCommand::Begin));
}
