//! The Swap2 opening between two engines that speak it (Gomocup's
//! `SWAP2BOARD`, protocol/GOMOKU.md): the proposer puts down three stones
//! (black, white, black); the other engine takes Black (`SWAP`), stays
//! White with a fourth stone, or adds a fourth and a fifth and leaves the
//! choice to the proposer, who takes Black (`SWAP`) or plays the sixth
//! stone as White. The referee asks, checks every answer with the rules
//! (the right number of stones, each legal), and writes down who chose
//! what; then the game goes on from those stones with the colours chosen.

use crate::core::{Game, Player};

use super::adjudication::{GameResult, Termination};
use super::client::Swap2Answer;

/// How a game opened by Swap2 got its stones and colours.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Swap2Record {
    /// The engine that placed the first three stones.
    pub proposer: String,
    /// Each answer, in turn.
    pub steps: Vec<Swap2Step>,
    /// The stones of the opening, in the order placed (Black first): the
    /// game's first moves.
    pub stones: Vec<String>,
    /// The engine that ended up Black (player 1); empty when the opening
    /// did not end.
    pub black: String,
    /// The proposer ended up White: player 1 is the engine asked second.
    pub proposer_white: bool,
}

/// One answer of the exchange.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Swap2Step {
    pub engine: String,
    /// `propose` (the first three stones), `swap` (takes Black), `stay`
    /// (takes White and plays its stone), `add` (the fourth and fifth
    /// stones; the other engine chooses).
    pub choice: String,
    pub stones: Vec<String>,
    pub millis: u64,
}

/// The exchange's record, and the game's result if an engine failed in it
/// (it loses: the proposer as player 1, the other as player 2, since no
/// colour is settled before the answer that settles it).
pub struct Swap2Outcome {
    pub record: Swap2Record,
    pub result: Option<GameResult>,
}

/// Asks engine 0 (the proposer) or 1 a Swap2 question on the stones so
/// far; a fault is the game's result already.
pub type Ask<'a> = dyn FnMut(usize, &[String]) -> Result<Swap2Answer, GameResult> + 'a;

/// The seat an engine holds while the colours are open.
fn seat(engine: usize) -> Player {
    if engine == 0 {
        Player::P1
    } else {
        Player::P2
    }
}

/// Runs the exchange between engines named `names` (the proposer first).
pub fn run<G: Game>(rules: &G::Rules, names: &[String; 2], ask: &mut Ask) -> Swap2Outcome {
    let mut exchange = Exchange {
        position: G::start_position(rules),
        names,
        record: Swap2Record {
            proposer: names[0].clone(),
            ..Swap2Record::default()
        },
    };
    let result = exchange.play(ask).err();
    if result.is_none() {
        let black = usize::from(exchange.record.proposer_white);
        exchange.record.black = names[black].clone();
    }
    Swap2Outcome {
        record: exchange.record,
        result,
    }
}

struct Exchange<'a, G: Game> {
    position: G,
    names: &'a [String; 2],
    record: Swap2Record,
}

impl<G: Game> Exchange<'_, G> {
    fn play(&mut self, ask: &mut Ask) -> Result<(), GameResult> {
        let proposal = self.stones(ask, 0, &[3])?;
        self.step(0, "propose", proposal)?;
        match self.stones(ask, 1, &[0, 1, 2])? {
            (stones, millis) if stones.len() == 1 => {
                self.step(1, "stay", (stones, millis))?;
                // The other engine keeps White: the proposer is Black.
            }
            (stones, millis) if stones.len() == 2 => {
                self.step(1, "add", (stones, millis))?;
                match self.stones(ask, 0, &[0, 1])? {
                    (stones, millis) if stones.is_empty() => {
                        self.step(0, "swap", (stones, millis))?;
                    }
                    answer => {
                        self.step(0, "stay", answer)?;
                        self.record.proposer_white = true;
                    }
                }
            }
            answer => {
                self.step(1, "swap", answer)?;
                self.record.proposer_white = true;
            }
        }
        Ok(())
    }

    /// Asks `engine` and checks the answer has one of `counts` stones
    /// (`SWAP` counting as 0).
    fn stones(
        &mut self,
        ask: &mut Ask,
        engine: usize,
        counts: &[usize],
    ) -> Result<(Vec<String>, u64), GameResult> {
        let answer = ask(engine, &self.record.stones)?;
        let millis = answer.elapsed.as_millis() as u64;
        let stones = answer.stones.unwrap_or_default();
        if !counts.contains(&stones.len()) {
            let given = if stones.is_empty() {
                "SWAP".to_owned()
            } else {
                format!("{} stones ({})", stones.len(), stones.join(" "))
            };
            return Err(GameResult::forfeit(
                seat(engine),
                Termination::ProtocolError,
                &format!(
                    "Swap2: {} answered {given} to {} stones",
                    self.names[engine],
                    self.record.stones.len()
                ),
            ));
        }
        Ok((stones, millis))
    }

    /// Plays an answer's stones, each checked legal, and writes it down;
    /// the step's record keeps the time of the answer.
    fn step(
        &mut self,
        engine: usize,
        choice: &str,
        (stones, millis): (Vec<String>, u64),
    ) -> Result<(), GameResult> {
        let mut canonical = Vec::new();
        for text in &stones {
            let mv = self.position.parse_legal_move(text).map_err(|_| {
                GameResult::forfeit(
                    seat(engine),
                    Termination::IllegalMove,
                    &format!(
                        "Swap2: {} placed an illegal stone '{text}'",
                        self.names[engine]
                    ),
                )
            })?;
            canonical.push(self.position.format_move(mv));
            self.position.make_move(mv);
        }
        self.record.stones.extend(canonical.iter().cloned());
        self.record.steps.push(Swap2Step {
            engine: self.names[engine].clone(),
            choice: choice.to_owned(),
            stones: canonical,
            millis,
        });
        Ok(())
    }
}

/// The time an answer took, for the move records: the step's, on its
/// first stone.
pub fn stone_millis(record: &Swap2Record) -> Vec<u64> {
    record
        .steps
        .iter()
        .flat_map(|step| (0..step.stones.len()).map(move |i| if i == 0 { step.millis } else { 0 }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::Gomoku;
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn names() -> [String; 2] {
        ["A".to_owned(), "B".to_owned()]
    }

    /// Runs the exchange with scripted answers, `None` for SWAP.
    fn scripted(answers: &[Option<&str>]) -> Swap2Outcome {
        let mut answers = answers.iter();
        let mut ask = |_: usize, _: &[String]| {
            let answer = answers.next().expect("a scripted answer");
            Ok(Swap2Answer {
                stones: answer.map(|a| a.split(' ').map(str::to_owned).collect()),
                elapsed: ms(5),
            })
        };
        run::<Gomoku>(&Default::default(), &names(), &mut ask)
    }

    #[test]
    fn each_path_settles_the_colours() {
        let swap = scripted(&[Some("h8 i9 g9"), None]);
        assert!(swap.result.is_none());
        assert_eq!(
            (swap.record.black.as_str(), swap.record.proposer_white),
            ("B", true)
        );
        let stay = scripted(&[Some("h8 i9 g9"), Some("h9")]);
        assert_eq!(
            (stay.record.black.as_str(), stay.record.proposer_white),
            ("A", false)
        );
        assert_eq!(stay.record.stones, ["h8", "i9", "g9", "h9"]);
        let add_swap = scripted(&[Some("h8 i9 g9"), Some("h9 h10"), None]);
        assert_eq!(add_swap.record.black, "A");
        let add_stay = scripted(&[Some("h8 i9 g9"), Some("h9 h10"), Some("j9")]);
        assert_eq!(add_stay.record.black, "B");
        let choices: Vec<&str> = add_stay
            .record
            .steps
            .iter()
            .map(|s| s.choice.as_str())
            .collect();
        assert_eq!(choices, ["propose", "add", "stay"]);
        assert_eq!(stone_millis(&add_stay.record), [5, 0, 0, 5, 0, 5]);
    }

    #[test]
    fn bad_answers_lose_for_the_engine_that_gave_them() {
        let short = scripted(&[Some("h8 i9")]);
        let result = short.result.expect("a forfeit");
        assert_eq!(
            (result.winner, result.termination),
            (Some(Player::P2), Termination::ProtocolError)
        );
        let taken = scripted(&[Some("h8 i9 g9"), Some("h8")]);
        let result = taken.result.expect("a forfeit");
        assert_eq!(
            (result.winner, result.termination),
            (Some(Player::P1), Termination::IllegalMove)
        );
        assert!(
            result.reason.contains("B placed an illegal stone 'h8'"),
            "{}",
            result.reason
        );
        let swap_first = scripted(&[None]);
        assert!(swap_first
            .result
            .expect("a forfeit")
            .reason
            .contains("SWAP to 0 stones"));
        assert!(taken.record.black.is_empty());
    }
}
