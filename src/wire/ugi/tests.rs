use super::command::GO_KEYWORDS;
use super::engine_line::OPTION_KEYWORDS;
use super::*;
use crate::wire::Score;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A random lower-case word that is none of `keywords`.
fn random_word(rng: &mut StdRng, keywords: &[&str]) -> String {
    loop {
        let length = rng.gen_range(1..7);
        let word: String = (0..length)
            .map(|_| char::from(b"abcdefgh12345678-/_"[rng.gen_range(0..19)]))
            .collect();
        if !keywords.iter().any(|k| k.eq_ignore_ascii_case(&word)) {
            return word;
        }
    }
}

fn random_words(rng: &mut StdRng, keywords: &[&str], at_least: usize) -> Vec<String> {
    let count = rng.gen_range(at_least..at_least + 4);
    (0..count).map(|_| random_word(rng, keywords)).collect()
}

fn maybe<T>(rng: &mut StdRng, make: impl FnOnce(&mut StdRng) -> T) -> Option<T> {
    if rng.gen_bool(0.5) {
        Some(make(rng))
    } else {
        None
    }
}

fn random_go(rng: &mut StdRng) -> GoParams {
    let number = |rng: &mut StdRng| maybe(rng, |r| r.gen_range(0..1_000_000u64));
    GoParams {
        depth: maybe(rng, |r| r.gen_range(0..100)),
        nodes: number(rng),
        movetime: number(rng),
        infinite: rng.gen_bool(0.3),
        strict: rng.gen_bool(0.3),
        perft: maybe(rng, |r| r.gen_range(0..10)),
        mate: maybe(rng, |r| r.gen_range(0..10)),
        p1time: number(rng),
        p2time: number(rng),
        p1inc: number(rng),
        p2inc: number(rng),
        wtime: number(rng),
        btime: number(rng),
        winc: number(rng),
        binc: number(rng),
        movestogo: maybe(rng, |r| r.gen_range(0..60)),
        ponder: rng.gen_bool(0.3),
        searchmoves: if rng.gen_bool(0.3) {
            random_words(rng, GO_KEYWORDS, 1)
        } else {
            Vec::new()
        },
    }
}

fn random_command(rng: &mut StdRng) -> Command {
    match rng.gen_range(0..14) {
        0 => Command::Hello { ugi: rng.gen() },
        1 => Command::IsReady,
        2 => Command::NewGame { ugi: rng.gen() },
        3 => Command::SetOption {
            name: random_words(rng, &["value"], 1).join(" "),
            value: random_words(rng, &[], 0).join(" "),
        },
        4 => Command::Position {
            fen: maybe(rng, |r| random_words(r, &["moves"], 1).join(" ")),
            moves: random_words(rng, &[], 0),
        },
        5 => Command::Go(random_go(rng)),
        6 => Command::Stop,
        7 => Command::PonderHit,
        8 => Command::Quit,
        9 => Command::Query(random_word(rng, &[])),
        10 => Command::Display,
        11 => Command::Eval,
        12 => Command::Bench(maybe(rng, |r| r.gen_range(1..30))),
        _ => Command::Empty,
    }
}

fn random_info(rng: &mut StdRng) -> Info {
    let small = |rng: &mut StdRng| maybe(rng, |r| r.gen_range(0..1000u32));
    let big = |rng: &mut StdRng| maybe(rng, |r| r.gen::<u64>());
    let score = maybe(rng, |r| {
        let n = r.gen_range(-30_000..30_000);
        if r.gen() {
            Score::Centipawns(n)
        } else {
            Score::Mate(n / 100)
        }
    });
    Info {
        depth: small(rng),
        seldepth: small(rng),
        multipv: small(rng),
        score,
        bound: score
            .and_then(|_| maybe(rng, |r| if r.gen() { Bound::Lower } else { Bound::Upper })),
        wdl: maybe(rng, |r| Wdl {
            win: r.gen_range(0..1001),
            draw: r.gen_range(0..1001),
            loss: r.gen_range(0..1001),
        }),
        nodes: big(rng),
        nps: big(rng),
        time: big(rng),
        hashfull: small(rng),
        pv: if rng.gen() {
            random_words(rng, &["string"], 1)
        } else {
            Vec::new()
        },
        string: maybe(rng, |r| random_words(r, &[], 1).join(" ")),
    }
}

fn random_option(rng: &mut StdRng) -> OptionDeclaration {
    OptionDeclaration {
        name: random_words(rng, &["type"], 1).join(" "),
        kind: random_word(rng, &[]),
        default: maybe(rng, |r| random_words(r, OPTION_KEYWORDS, 0).join(" ")),
        min: maybe(rng, |r| r.gen()),
        max: maybe(rng, |r| r.gen()),
        vars: random_words(rng, OPTION_KEYWORDS, 0),
    }
}

fn random_engine_line(rng: &mut StdRng) -> EngineLine {
    match rng.gen_range(0..8) {
        0 => EngineLine::IdName(random_words(rng, &[], 1).join(" ")),
        1 => EngineLine::IdAuthor(random_words(rng, &[], 1).join(" ")),
        2 => EngineLine::Option(random_option(rng)),
        3 => EngineLine::HelloOk { ugi: rng.gen() },
        4 => EngineLine::ReadyOk,
        5 => EngineLine::BestMove {
            mv: random_word(rng, &[]),
            ponder: maybe(rng, |r| random_word(r, &[])),
        },
        6 => EngineLine::Info(random_info(rng)),
        _ => EngineLine::Response(random_word(rng, &[])),
    }
}

#[test]
fn commands_round_trip() {
    let mut rng = StdRng::seed_from_u64(26);
    for _ in 0..5000 {
        let command = random_command(&mut rng);
        let line = command.to_string();
        assert_eq!(parse_command(&line), Ok(command), "{line}");
    }
}

#[test]
fn engine_lines_round_trip() {
    let mut rng = StdRng::seed_from_u64(62);
    for _ in 0..5000 {
        let line = random_engine_line(&mut rng);
        let text = line.to_string();
        assert_eq!(parse_engine_line(&text), Some(line), "{text}");
    }
}

#[test]
fn parses_position_with_fen_and_moves() {
    let command = parse_command("position fen 8/8 w 0 1 moves a2a3 b7b6").expect("valid");
    assert_eq!(
        command,
        Command::Position {
            fen: Some("8/8 w 0 1".into()),
            moves: vec!["a2a3".into(), "b7b6".into()]
        }
    );
}

#[test]
fn parses_startpos_without_moves() {
    for line in [
        "position startpos",
        "position startpos moves",
        "POSITION StartPos ",
    ] {
        assert_eq!(
            parse_command(line),
            Ok(Command::Position {
                fen: None,
                moves: vec![]
            }),
            "{line}"
        );
    }
}

#[test]
fn rejects_malformed_position() {
    for line in [
        "position",
        "position fen",
        "position fen moves a1",
        "position startpos e2e4",
        "position middle",
        "position startposx",
    ] {
        assert!(parse_command(line).is_err(), "{line}");
    }
}

#[test]
fn parses_go_parameters() {
    let Ok(Command::Go(params)) =
        parse_command("go wtime 1000 btime 2000 winc 10 movestogo 5 depth 7")
    else {
        panic!("go should parse");
    };
    assert_eq!(
        (
            params.wtime,
            params.btime,
            params.winc,
            params.movestogo,
            params.depth
        ),
        (Some(1000), Some(2000), Some(10), Some(5), Some(7))
    );
    let Ok(Command::Go(params)) = parse_command("go p1time 500 p2time 400 p1inc 5 p2inc 6") else {
        panic!("ugi go should parse");
    };
    assert_eq!(
        (params.p1time, params.p2time, params.p1inc, params.p2inc),
        (Some(500), Some(400), Some(5), Some(6))
    );
    let Ok(Command::Go(params)) =
        parse_command("go searchmoves a2a3 b2b3 ponder movetime 50 searchmoves c2c3")
    else {
        panic!("searchmoves and ponder should parse");
    };
    assert_eq!(params.searchmoves, ["a2a3", "b2b3", "c2c3"]);
    assert!(params.ponder);
    assert_eq!(params.movetime, Some(50));
    for bad in [
        "go searchmoves",
        "go searchmoves depth 3",
        "ponderhit now",
        "go depth",
        "go depth -3",
        "go sideways 3",
        "go depth 3x",
        "gox",
    ] {
        assert!(parse_command(bad).is_err(), "{bad}");
    }
    assert_eq!(parse_command("ponderhit"), Ok(Command::PonderHit));
}

#[test]
fn parses_setoption_with_spaces_in_name() {
    assert_eq!(
        parse_command("setoption name Move Overhead value 30"),
        Ok(Command::SetOption {
            name: "Move Overhead".into(),
            value: "30".into()
        })
    );
    assert_eq!(
        parse_command("setoption name Clear Hash"),
        Ok(Command::SetOption {
            name: "Clear Hash".into(),
            value: String::new()
        })
    );
    assert!(parse_command("setoption value 3").is_err());
    assert!(parse_command("setoption name value 3").is_err());
}

#[test]
fn keywords_must_stand_alone() {
    assert!(parse_command("ucix").is_err());
    assert!(parse_command("isready now").is_err());
    assert_eq!(parse_command("ugi"), Ok(Command::Hello { ugi: true }));
    assert_eq!(
        parse_command("ucinewgame"),
        Ok(Command::NewGame { ugi: false })
    );
    assert_eq!(
        parse_command("uginewgame"),
        Ok(Command::NewGame { ugi: true })
    );
    assert_eq!(parse_command("  "), Ok(Command::Empty));
    assert_eq!(
        parse_command("frobnicate 3"),
        Err("unknown command 'frobnicate'".into())
    );
}

#[test]
fn other_engines_info_lines_give_what_they_can() {
    let Some(EngineLine::Info(info)) = parse_engine_line(
        "info depth 7 seldepth 9 currmove e2e4 currmovenumber 1 score cp -35 upperbound nodes 12345 nps 1 tbhits 0 pv a2a3 depth",
    ) else {
        panic!("an info line");
    };
    assert_eq!(info.depth, Some(7));
    assert_eq!(info.nodes, Some(12345));
    assert_eq!(info.score, Some(Score::Centipawns(-35)));
    assert_eq!(info.bound, Some(Bound::Upper));
    assert_eq!(info.pv, ["a2a3", "depth"]);
    let Some(EngineLine::Info(info)) = parse_engine_line("info string error: illegal move 'zz'")
    else {
        panic!("an info string");
    };
    assert_eq!(info.string.as_deref(), Some("error: illegal move 'zz'"));
    assert_eq!(parse_engine_line("bestmove"), None);
    assert_eq!(parse_engine_line("Nodes searched: 20"), None);
}

#[test]
fn option_declarations_read_name_type_and_range() {
    let Some(EngineLine::Option(spin)) =
        parse_engine_line("option name Move Overhead type spin default 30 min 0 max 5000")
    else {
        panic!("an option");
    };
    assert_eq!(spin.name, "Move Overhead");
    assert_eq!(spin.kind, "spin");
    assert_eq!(spin.default.as_deref(), Some("30"));
    assert_eq!((spin.min, spin.max), (Some(0), Some(5000)));
    let text = "option name Rule type combo default freestyle var freestyle var renju";
    let Some(EngineLine::Option(combo)) = parse_engine_line(text) else {
        panic!("a combo");
    };
    assert_eq!(combo.vars, ["freestyle", "renju"]);
    assert_eq!(combo.to_string(), text);
    let empty = "option name Book type string default ";
    let Some(EngineLine::Option(string)) = parse_engine_line(empty) else {
        panic!("a string option");
    };
    assert_eq!(string.default.as_deref(), Some(""));
    assert_eq!(string.to_string(), empty);
    assert_eq!(parse_engine_line("option name Broken"), None);
}
