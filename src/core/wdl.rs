//! Win, draw and loss chances from a search score (`UCI_ShowWDL`): a
//! logistic model of the game's results, fitted per game by `bg-tune wdl` on
//! self-play records (each game's `wdl.txt`).
//!
//! The side to move wins with chance `1 / (1 + exp((m - s) / k))` and loses
//! with `1 / (1 + exp((m + s) / k))`; what is left is the chance of a draw.
//! `k` is the score that makes a win e times likelier than a loss (in a game
//! without draws); `m`, the draw margin, is 0 in a game without draws, and
//! then a draw's chance is 0.

use super::game::{Score, MATE_BOUND};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub scale: f64,
    pub draw_margin: f64,
}

/// Chances per mille, from the side to move's view; they sum to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

impl WdlModel {
    /// For a knowledge not yet fitted: a pawn-sized unit of 100.
    pub const GENERIC: WdlModel = WdlModel {
        scale: 100.0,
        draw_margin: 0.0,
    };

    /// Reads `scale K` and `draw_margin M` lines (`#` comments).
    pub fn parse(text: &str) -> Result<WdlModel, String> {
        let mut scale = None;
        let mut draw_margin = 0.0;
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!("expected 'name value': '{line}'"));
            };
            let value: f64 = value
                .parse()
                .map_err(|_| format!("bad number for {name}: '{value}'"))?;
            match name {
                "scale" if value > 0.0 => scale = Some(value),
                "draw_margin" if value >= 0.0 => draw_margin = value,
                _ => return Err(format!("unknown or out-of-range '{line}'")),
            }
        }
        let scale = scale.ok_or("no scale")?;
        Ok(WdlModel { scale, draw_margin })
    }

    /// A model compiled into the binary: a bad one is a build defect,
    /// caught by every game's test of its model.
    pub fn embedded(text: &str) -> WdlModel {
        WdlModel::parse(text).unwrap_or_else(|e| panic!("wdl.txt: {e}"))
    }

    /// The chances (0 to 1) of a win and of a loss at `score`.
    pub fn chances(&self, score: f64) -> (f64, f64) {
        let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
        (
            logistic((score - self.draw_margin) / self.scale),
            logistic((-score - self.draw_margin) / self.scale),
        )
    }

    pub fn wdl(&self, score: Score) -> Wdl {
        if score >= MATE_BOUND {
            return Wdl {
                win: 1000,
                draw: 0,
                loss: 0,
            };
        }
        if score <= -MATE_BOUND {
            return Wdl {
                win: 0,
                draw: 0,
                loss: 1000,
            };
        }
        let (win, loss) = self.chances(f64::from(score));
        let win = (win * 1000.0).round() as u32;
        let loss = ((loss * 1000.0).round() as u32).min(1000 - win);
        let draw = if self.draw_margin > 0.0 {
            1000 - win - loss
        } else {
            0
        };
        Wdl {
            win,
            draw,
            loss: 1000 - win - draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::MATE;

    #[test]
    fn a_game_without_draws_splits_its_chances_between_win_and_loss() {
        let model = WdlModel {
            scale: 80.0,
            draw_margin: 0.0,
        };
        assert_eq!(
            model.wdl(0),
            Wdl {
                win: 500,
                draw: 0,
                loss: 500
            }
        );
        // 80 units: e to 1, 731 per mille.
        assert_eq!(model.wdl(80).win, 731);
        assert_eq!(model.wdl(-80).loss, 731);
        for score in (-2000..2000).step_by(37) {
            let wdl = model.wdl(score);
            assert_eq!(wdl.draw, 0);
            assert_eq!(wdl.win + wdl.loss, 1000);
        }
    }

    #[test]
    fn a_draw_margin_leaves_room_for_draws_and_proofs_are_certain() {
        let model = WdlModel {
            scale: 50.0,
            draw_margin: 100.0,
        };
        let even = model.wdl(0);
        assert_eq!(even.win, even.loss);
        assert!(even.draw > 700, "{even:?}");
        assert!(model.wdl(300).win > model.wdl(200).win);
        let won = model.wdl(MATE - 9);
        assert_eq!((won.win, won.draw, won.loss), (1000, 0, 0));
        let lost = model.wdl(-(MATE - 4));
        assert_eq!((lost.win, lost.draw, lost.loss), (0, 0, 1000));
    }

    #[test]
    fn a_model_file_reads_back() {
        let model = WdlModel::parse("# fitted\nscale 75.5\ndraw_margin 12\n").expect("valid");
        assert_eq!(
            model,
            WdlModel {
                scale: 75.5,
                draw_margin: 12.0
            }
        );
        assert!(WdlModel::parse("draw_margin 3\n").is_err());
        assert!(WdlModel::parse("scale -2\n").is_err());
        assert!(WdlModel::parse("scale 2 3\n").is_err());
        assert!(WdlModel::parse("slope 2\n").is_err());
    }
}
