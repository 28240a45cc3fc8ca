//! Fits a game's win/draw/loss model (`core::wdl`) to game results: the
//! scale `k` and the draw margin `m` that make the observed wins, draws and
//! losses likeliest, given the search's score at each position.
//!
//! The model is an ordered logit with symmetric thresholds: with `a = 1/k`
//! and `b = m/k`, a win has chance `sigmoid(a s - b)` and a loss
//! `sigmoid(-a s - b)`. Its negative log-likelihood is convex in `(a, b)`,
//! so a golden-section search on `b` (the draw margin in units of the
//! scale), each step with a golden-section search on `ln k`, finds the one
//! minimum. In a game without draws `b` stays 0.

use std::fmt::Write as _;

use crate::core::wdl::WdlModel;

use super::sample::{LabelledPosition, MATE_CENTIPAWNS};

/// A position as the fit sees it: the search's score for the side to move
/// and the game's result for it (1 a win, 0.5 a draw, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoredResult {
    pub score: f64,
    pub result: f64,
}

/// What was read, and what was left out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WdlData {
    pub samples: Vec<ScoredResult>,
    /// Positions without a search score (book moves, records without
    /// scores).
    pub unscored: usize,
    /// Positions whose score was a proof (mate) or clamped to one.
    pub mates: usize,
}

impl WdlData {
    /// Takes the positions with a score short of a mate.
    pub fn add(&mut self, position: &LabelledPosition) {
        match position.score {
            None => self.unscored += 1,
            Some(score) if score.abs() >= MATE_CENTIPAWNS => self.mates += 1,
            Some(score) => self.samples.push(ScoredResult {
                score: f64::from(score),
                result: position.result,
            }),
        }
    }

    /// Wins, draws and losses, in that order.
    pub fn counts(&self) -> (usize, usize, usize) {
        let count = |r: f64| self.samples.iter().filter(|s| s.result == r).count();
        (count(1.0), count(0.5), count(0.0))
    }
}

/// No outcome is given less chance than this in the loss: a model without
/// draws (m = 0) scored on data with draws gets a large but finite loss.
const CHANCE_FLOOR: f64 = 1e-9;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The model's chance of what happened, floored.
fn chance_of(model: &WdlModel, sample: &ScoredResult) -> f64 {
    let (win, loss) = model.chances(sample.score);
    let chance = if sample.result == 1.0 {
        win
    } else if sample.result == 0.0 {
        loss
    } else {
        // 1 - win - loss, written so that it does not cancel when both
        // are near one half.
        let (k, m, s) = (model.scale, model.draw_margin, sample.score);
        sigmoid((m - s) / k) - sigmoid((-s - m) / k)
    };
    chance.max(CHANCE_FLOOR)
}

/// Mean negative log-likelihood (natural log) of the outcomes.
pub fn log_loss(samples: &[ScoredResult], model: &WdlModel) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples.iter().map(|s| -chance_of(model, s).ln()).sum();
    total / samples.len() as f64
}

/// The loss of a forecast that ignores the score: each outcome's share in
/// the data as its chance everywhere (the entropy of the outcomes).
pub fn base_rate_loss(samples: &[ScoredResult]) -> f64 {
    let n = samples.len() as f64;
    let share = |r: f64| samples.iter().filter(|s| s.result == r).count() as f64 / n;
    [share(1.0), share(0.5), share(0.0)]
        .into_iter()
        .filter(|&p| p > 0.0)
        .map(|p| -p * p.ln())
        .sum()
}

/// The golden-section minimum of a unimodal `f` on `[low, high]`.
fn golden_section(mut low: f64, mut high: f64, iterations: usize, f: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = high - ratio * (high - low);
    let mut b = low + ratio * (high - low);
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..iterations {
        if fa < fb {
            high = b;
            b = a;
            fb = fa;
            a = high - ratio * (high - low);
            fa = f(a);
        } else {
            low = a;
            a = b;
            fa = fb;
            b = low + ratio * (high - low);
            fb = f(b);
        }
    }
    (low + high) / 2.0
}

/// Where the scale is searched: from 1 score unit to a million.
pub const SCALE_RANGE: (f64, f64) = (1.0, 1e6);
/// Where the draw margin is searched, in units of the scale: 12 leaves a
/// draw chance of 99.999% at an even score.
const DRAW_MARGIN_IN_SCALES: f64 = 12.0;

/// The scale that fits best with the draw margin at `margin_in_scales`
/// times the scale.
fn best_scale(samples: &[ScoredResult], margin_in_scales: f64) -> f64 {
    let model = |log_k: f64| WdlModel {
        scale: log_k.exp(),
        draw_margin: margin_in_scales * log_k.exp(),
    };
    let (low, high) = (SCALE_RANGE.0.ln(), SCALE_RANGE.1.ln());
    golden_section(low, high, 50, |log_k| log_loss(samples, &model(log_k))).exp()
}

/// The maximum-likelihood model: the scale alone (draw margin 0) unless
/// `with_draws`.
pub fn fit_wdl(samples: &[ScoredResult], with_draws: bool) -> WdlModel {
    let margin_in_scales = if with_draws {
        golden_section(0.0, DRAW_MARGIN_IN_SCALES, 50, |b| {
            let scale = best_scale(samples, b);
            log_loss(
                samples,
                &WdlModel {
                    scale,
                    draw_margin: b * scale,
                },
            )
        })
    } else {
        0.0
    };
    let scale = best_scale(samples, margin_in_scales);
    WdlModel {
        scale,
        draw_margin: margin_in_scales * scale,
    }
}

/// A round step for the calibration buckets near half the scale: 1, 2 or 5
/// times a power of ten.
fn bucket_step(scale: f64) -> f64 {
    let target = (scale / 2.0).max(1.0);
    let power = 10f64.powf(target.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .min_by(|x, y| (x - target).abs().total_cmp(&(y - target).abs()))
        .unwrap_or(power)
}

/// Positions grouped by score (steps of about half the scale, the outer
/// buckets open): how many, and the win (and draw) share the model
/// predicts against the share observed.
pub fn calibration_table(samples: &[ScoredResult], model: &WdlModel) -> String {
    const SIDE: i64 = 4;
    let step = bucket_step(model.scale);
    let show_draws = model.draw_margin > 0.0 || samples.iter().any(|s| s.result == 0.5);
    // (count, predicted win, observed win, predicted draw, observed draw)
    let mut buckets = vec![(0usize, 0.0, 0.0, 0.0, 0.0); (2 * SIDE + 2) as usize];
    for sample in samples {
        let index = ((sample.score / step).floor() as i64).clamp(-SIDE - 1, SIDE) + SIDE + 1;
        let bucket = &mut buckets[index as usize];
        let (win, loss) = model.chances(sample.score);
        bucket.0 += 1;
        bucket.1 += win;
        bucket.2 += f64::from(u8::from(sample.result == 1.0));
        bucket.3 += (1.0 - win - loss).max(0.0);
        bucket.4 += f64::from(u8::from(sample.result == 0.5));
    }
    let mut table = String::from("  score          positions  win predicted  win observed");
    if show_draws {
        table.push_str("  draw predicted  draw observed");
    }
    table.push('\n');
    for (index, bucket) in buckets.iter().enumerate() {
        let (count, win, won, draw, drawn) = *bucket;
        if count == 0 {
            continue;
        }
        let lower = (index as i64 - SIDE - 1) as f64 * step;
        let range = match index as i64 {
            0 => format!("below {}", lower + step),
            i if i == 2 * SIDE + 1 => format!("{lower} and up"),
            _ => format!("{lower} to {}", lower + step),
        };
        let n = count as f64;
        let _ = write!(
            table,
            "  {range:<14} {count:>9}  {:>13.3}  {:>12.3}",
            win / n,
            won / n
        );
        if show_draws {
            let _ = write!(table, "  {:>14.3}  {:>13.3}", draw / n, drawn / n);
        }
        table.push('\n');
    }
    table
}

/// A `wdl.txt` for the fitted model: the header of the games' files, how it
/// was fitted (`notes`, one a comment line), then the two numbers, rounded
/// to a tenth.
pub fn model_file(model: &WdlModel, notes: &[String]) -> String {
    let mut text = String::from(
        "# Win, draw and loss chances from a search score (UCI_ShowWDL; core/wdl.rs):\n\
         # scale: the score that makes a win e times likelier than a loss;\n\
         # draw_margin: 0 where the game has no draws.\n",
    );
    for note in notes {
        for line in note.lines() {
            let _ = writeln!(text, "# {line}");
        }
    }
    let _ = writeln!(text, "scale {:.1}", model.scale.max(0.1));
    let _ = writeln!(text, "draw_margin {:.1}", model.draw_margin.max(0.0));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Scores spread over a few scales either side of 0, each result drawn
    /// from `truth`.
    fn synthetic(truth: &WdlModel, count: usize, seed: u64) -> Vec<ScoredResult> {
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..count)
            .map(|_| {
                let score = rng.gen_range(-4.0..4.0) * truth.scale;
                let (win, loss) = truth.chances(score);
                let u: f64 = rng.gen();
                let result = if u < win {
                    1.0
                } else if u < win + loss {
                    0.0
                } else {
                    0.5
                };
                ScoredResult { score, result }
            })
            .collect()
    }

    fn close(found: f64, expected: f64, tolerance: f64) -> bool {
        (found / expected - 1.0).abs() < tolerance
    }

    #[test]
    fn the_fit_recovers_scale_and_draw_margin() {
        let truth = WdlModel {
            scale: 80.0,
            draw_margin: 60.0,
        };
        let samples = synthetic(&truth, 30_000, 17);
        let fitted = fit_wdl(&samples, true);
        assert!(close(fitted.scale, 80.0, 0.03), "{fitted:?}");
        assert!(close(fitted.draw_margin, 60.0, 0.03), "{fitted:?}");
        assert!(log_loss(&samples, &fitted) <= log_loss(&samples, &truth));
        assert!(log_loss(&samples, &fitted) < base_rate_loss(&samples));
    }

    #[test]
    fn without_draws_only_the_scale_is_fitted() {
        let truth = WdlModel {
            scale: 120.0,
            draw_margin: 0.0,
        };
        let samples = synthetic(&truth, 40_000, 3);
        assert!(samples.iter().all(|s| s.result != 0.5));
        let fitted = fit_wdl(&samples, false);
        assert_eq!(fitted.draw_margin, 0.0);
        assert!(close(fitted.scale, 120.0, 0.03), "{fitted:?}");
        // Asked for a margin anyway, data without draws gives (nearly) none.
        let with_draws = fit_wdl(&samples, true);
        assert!(with_draws.draw_margin < 1.0, "{with_draws:?}");
        assert!(
            close(with_draws.scale, fitted.scale, 0.01),
            "{with_draws:?}"
        );
    }

    #[test]
    fn a_model_without_draws_pays_for_a_draw_but_finitely() {
        let samples = [
            ScoredResult {
                score: 0.0,
                result: 0.5,
            },
            ScoredResult {
                score: 0.0,
                result: 1.0,
            },
        ];
        let loss = log_loss(&samples, &WdlModel::GENERIC);
        assert!(loss.is_finite() && loss > 5.0, "{loss}");
        assert!((base_rate_loss(&samples) - 2f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn unscored_and_mate_positions_are_left_out() {
        let mut data = WdlData::default();
        let line = |tail: &str| LabelledPosition::parse_line(&format!("x w 0 1 | {tail}"));
        for tail in [
            "1 | 30",
            "0 | -3000",
            "0.5 | 3000",
            "1",
            "0 | -2999",
            "0.5 | 0",
        ] {
            data.add(&line(tail).expect("a valid line"));
        }
        assert_eq!((data.unscored, data.mates, data.samples.len()), (1, 2, 3));
        assert_eq!(data.counts(), (1, 1, 1));
    }

    #[test]
    fn the_table_and_the_file_read_back() {
        let truth = WdlModel {
            scale: 75.5,
            draw_margin: 0.0,
        };
        let samples = synthetic(&truth, 5_000, 8);
        let table = calibration_table(&samples, &truth);
        assert!(
            table.contains("below -200") && table.contains("200 and up"),
            "{table}"
        );
        assert!(!table.contains("draw"), "{table}");
        let total: usize = table
            .lines()
            .skip(1)
            .filter_map(|line| line.split_whitespace().rev().nth(2)?.parse::<usize>().ok())
            .sum();
        assert_eq!(total, samples.len(), "{table}");
        let text = model_file(
            &WdlModel {
                scale: 83.26,
                draw_margin: 12.04,
            },
            &["fitted by bg-tune wdl\n400 games".to_owned()],
        );
        assert!(
            text.contains("# fitted by bg-tune wdl\n# 400 games\n"),
            "{text}"
        );
        assert_eq!(
            WdlModel::parse(&text),
            Ok(WdlModel {
                scale: 83.3,
                draw_margin: 12.0
            })
        );
    }
}
