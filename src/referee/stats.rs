//! Match statistics: Elo difference with a 95% interval, likelihood of
//! superiority, pentanomial counts over game pairs, and the sequential
//! probability ratio test (the normal approximation of the generalised
//! SPRT, on game scores or on pair scores where openings repeat).

/// 97.5% quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Pair scores of the first engine over the two games of an opening:
/// index k counts pairs in which it scored k half-points (0 = lost both,
/// 4 = won both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

/// Elo difference implied by a score fraction.
pub fn elo_from_score(score: f64) -> f64 {
    let score = score.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / score - 1.0).log10()
}

pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and variance of a distribution given as (value, count) pairs.
fn mean_variance(outcomes: &[(f64, u64)]) -> Option<(f64, f64, f64)> {
    let n: u64 = outcomes.iter().map(|(_, c)| c).sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = outcomes.iter().map(|(v, c)| v * *c as f64).sum::<f64>() / n;
    let variance = outcomes
        .iter()
        .map(|(v, c)| (v - mean).powi(2) * *c as f64)
        .sum::<f64>()
        / n;
    Some((mean, variance, n))
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    /// Half-width of the 95% interval (from the score interval, so slightly
    /// asymmetric in truth; the larger side is shown).
    pub margin: f64,
}

fn estimate(outcomes: &[(f64, u64)]) -> Option<EloEstimate> {
    let (mean, variance, n) = mean_variance(outcomes)?;
    let spread = Z_95 * (variance / n).sqrt();
    let elo = elo_from_score(mean);
    let low = elo_from_score(mean - spread);
    let high = elo_from_score(mean + spread);
    Some(EloEstimate {
        elo,
        margin: (high - elo).max(elo - low),
    })
}

impl Trinomial {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    fn outcomes(&self) -> [(f64, u64); 3] {
        [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)]
    }

    pub fn elo(&self) -> Option<EloEstimate> {
        estimate(&self.outcomes())
    }

    /// Likelihood of superiority: the probability that the first engine is
    /// the stronger, from wins and losses alone.
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return None;
        }
        let z = (self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt();
        Some(0.5 * (1.0 + erf(z)))
    }
}

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    fn outcomes(&self) -> [(f64, u64); 5] {
        let mut outcomes = [(0.0, 0); 5];
        for (k, count) in self.0.iter().enumerate() {
            outcomes[k] = (k as f64 / 4.0, *count);
        }
        outcomes
    }

    pub fn elo(&self) -> Option<EloEstimate> {
        estimate(&self.outcomes())
    }

    /// Adds a pair from the first engine's two game scores (1, 0.5 or 0).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round() as usize;
        self.0[half_points.min(4)] += 1;
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    AcceptH0,
    AcceptH1,
    Continue,
}

impl SprtConfig {
    pub fn parse(words: &[String]) -> Result<Self, String> {
        let mut config = SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("SPRT setting '{word}' is not key=value"))?;
            let value: f64 = value
                .parse()
                .map_err(|_| format!("bad number in '{word}'"))?;
            match key {
                "elo0" => config.elo0 = value,
                "elo1" => config.elo1 = value,
                "alpha" => config.alpha = value,
                "beta" => config.beta = value,
                _ => return Err(format!("unknown SPRT setting '{key}'")),
            }
        }
        let probability = 0.0..0.5;
        if config.elo1 <= config.elo0
            || !probability.contains(&config.alpha)
            || !probability.contains(&config.beta)
            || config.alpha <= 0.0
            || config.beta <= 0.0
        {
            return Err("SPRT needs elo0 < elo1 and 0 < alpha, beta < 0.5".to_owned());
        }
        Ok(config)
    }

    /// (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Log-likelihood ratio of H1 (elo1) against H0 (elo0), normal approximation:
/// n (s1 - s0) (2 mean - s0 - s1) / (2 variance), over the outcomes with one
/// imagined game (or pair) of each kind added. Without them, a short run
/// whose results happen to be nearly alike (each engine winning its first
/// player's game of every opening, as in fifteen pairs of a Gomoku match)
/// has a variance near zero and a ratio past either bound: a decision on
/// thirty games. Over hundreds of games the imagined ones weigh nothing.
fn llr(outcomes: &[(f64, u64)], config: &SprtConfig) -> f64 {
    let with_prior: Vec<(f64, u64)> = outcomes.iter().map(|&(v, c)| (v, c + 1)).collect();
    let Some((mean, variance, n)) = mean_variance(&with_prior) else {
        return 0.0;
    };
    if variance <= 0.0 {
        return 0.0;
    }
    let s0 = score_from_elo(config.elo0);
    let s1 = score_from_elo(config.elo1);
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
}

pub fn llr_trinomial(results: &Trinomial, config: &SprtConfig) -> f64 {
    llr(&results.outcomes(), config)
}

pub fn llr_pentanomial(pairs: &Pentanomial, config: &SprtConfig) -> f64 {
    llr(&pairs.outcomes(), config)
}

/// The error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_and_score_are_inverse_and_match_known_points() {
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_98, 1e-9));
        assert!(close(elo_from_score(0.5), 0.0, 1e-9));
        assert!(close(score_from_elo(-190.848_501_887_864_98), 0.25, 1e-12));
    }

    #[test]
    fn trinomial_elo_interval_and_los_match_hand_computation() {
        // 60 wins, 20 draws, 20 losses: score 0.7; per-game variance
        // (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16; standard error 0.04.
        let results = Trinomial {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let estimate = results.elo().unwrap();
        // 400 log10(7/3) = 147.1907.
        assert!(close(estimate.elo, 147.1907, 1e-3), "{estimate:?}");
        // Ends: scores 0.7 -/+ 1.96*0.04 = 0.621601 / 0.778399, i.e. 86.23
        // and 218.25 Elo; the wider side (+71.06) is the margin shown.
        assert!(
            close(estimate.margin, 218.2518 - 147.1907, 1e-3),
            "{estimate:?}"
        );
        // LOS: z = 40 / sqrt(160) = 3.1623, 0.5 (1 + erf(z)) = 0.99999...
        let los = results.los().unwrap();
        assert!(close(los, 0.5 * (1.0 + erf(40.0 / 160f64.sqrt())), 1e-12));
        // 3 wins, 1 loss: z = 2 / sqrt(4) = 1 standard deviation, Phi(1) = 0.841345.
        let los = Trinomial {
            wins: 3,
            draws: 0,
            losses: 1,
        }
        .los()
        .unwrap();
        assert!(close(los, 0.841_344_746, 1e-6), "{los}");
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
    }

    #[test]
    fn sprt_bounds_and_llr_match_hand_computation() {
        let config = SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = config.bounds();
        assert!(close(lower, -2.944_438_979, 1e-9) && close(upper, 2.944_438_979, 1e-9));
        // 60/20/20 and one imagined game of each result, 61/21/21: s0 = 0.5,
        // s1 = 0.514387, mean 71.5/103, variance 66.25/103 - mean², n 103:
        // 103 * 0.014387 * (1.388350 - 1.014387) / 0.322651 = 1.71755.
        let s1 = score_from_elo(10.0);
        let mean = 71.5 / 103.0;
        let variance = 66.25 / 103.0 - mean * mean;
        let expected = 103.0 * (s1 - 0.5) * (2.0 * mean - 0.5 - s1) / (2.0 * variance);
        let results = Trinomial {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let value = llr_trinomial(&results, &config);
        assert!(
            close(value, expected, 1e-9) && close(value, 1.71755, 1e-4),
            "{value}"
        );
        assert_eq!(config.decide(value), SprtDecision::Continue);
        assert_eq!(config.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(config.decide(-3.0), SprtDecision::AcceptH0);
    }

    #[test]
    fn pentanomial_counts_pairs_and_feeds_the_llr() {
        let mut pairs = Pentanomial::default();
        pairs.add_pair(1.0, 1.0);
        pairs.add_pair(1.0, 0.0);
        pairs.add_pair(0.5, 0.0);
        pairs.add_pair(0.5, 1.0);
        assert_eq!(pairs.0, [0, 1, 1, 1, 1]);
        // Pair scores 1, 0.5, 0.25, 0.75: mean 0.625, variance 0.078125.
        let config = SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // With one imagined pair of each kind, counts [1, 2, 2, 2, 2]: mean
        // 5/9, variance 3.75/9 - mean² = 35/324.
        let s1 = score_from_elo(10.0);
        let (mean, variance) = (5.0 / 9.0, 35.0 / 324.0);
        let expected = 9.0 * (s1 - 0.5) * (2.0 * mean - 0.5 - s1) / (2.0 * variance);
        assert!(close(llr_pentanomial(&pairs, &config), expected, 1e-12));
        assert!(close(pairs.elo().unwrap().elo, elo_from_score(0.625), 1e-9));
    }

    #[test]
    fn fifteen_alike_pairs_decide_nothing_and_hundreds_of_games_still_do() {
        let config = SprtConfig {
            elo0: 0.0,
            elo1: 15.0,
            alpha: 0.05,
            beta: 0.1,
        };
        // Each engine won its first player's game of fourteen openings; a
        // variance near zero alone would put the ratio below -2.25.
        let alike = Pentanomial([0, 1, 14, 0, 0]);
        let value = llr_pentanomial(&alike, &config);
        assert_eq!(config.decide(value), SprtDecision::Continue, "{value}");
        // 600 pairs at +30 Elo (the twenty-third session's 300, doubled).
        let ahead = Pentanomial([72, 18, 362, 30, 118]);
        let value = llr_pentanomial(&ahead, &config);
        assert_eq!(config.decide(value), SprtDecision::AcceptH1, "{value}");
        let behind = Pentanomial([118, 30, 362, 18, 72]);
        let value = llr_pentanomial(&behind, &config);
        assert_eq!(config.decide(value), SprtDecision::AcceptH0, "{value}");
    }

    #[test]
    fn sprt_settings_are_checked() {
        let words = |t: &str| t.split(' ').map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(
            SprtConfig::parse(&words("elo0=0 elo1=5 alpha=0.1 beta=0.1"))
                .unwrap()
                .elo1,
            5.0
        );
        assert!(SprtConfig::parse(&words("elo0=5 elo1=0")).is_err());
        assert!(SprtConfig::parse(&words("alpha=0.7")).is_err());
        assert!(SprtConfig::parse(&words("gamma=1")).is_err());
    }
}
