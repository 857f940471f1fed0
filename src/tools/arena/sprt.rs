//! The sequential probability ratio test of a two-entrant match, as engine
//! testers run it with cutechess-cli and fishtest: play until the games show
//! that the first entrant's Elo advantage is `elo0` (H0) rather than `elo1`
//! (H1), or the other way round, at error rates `alpha` and `beta`.
//!
//! The log-likelihood ratio is the generalised SPRT's normal approximation
//! over the per-game scores (logistic Elo): with `N` games of mean score `s`
//! and variance `v` (of the scores 1, ½, 0 about `s`), and `mᵢ` the score
//! that `eloᵢ` stands for, `LLR = N · (m₁ − m₀) · (2s − m₀ − m₁) / (2v)`.
//! The test stops at `LLR ≤ ln(β / (1 − α))` (H0 accepted) or
//! `LLR ≥ ln((1 − β) / α)` (H1 accepted). With no spread in the scores yet
//! (every game alike) that approximation has nothing to divide by, and the
//! ratio is the exact one of a win's chance being `m₁` rather than `m₀`:
//! `N · ln(m₁ / m₀)` after `N` wins, `N · ln((1 − m₁) / (1 − m₀))` after `N`
//! losses, and 0 after draws alone (which tell the two apart no more than
//! nothing).

use super::stats::Wdl;
use std::fmt;
use std::str::FromStr;

/// The hypotheses and error rates of a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo advantage of H0.
    pub elo0: f64,
    /// The Elo advantage of H1 (above `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the games decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H0 accepted: the advantage is `elo0` (or less).
    H0,
    /// H1 accepted: the advantage is `elo1` (or more).
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0 => "H0",
            Verdict::H1 => "H1",
        })
    }
}

impl FromStr for Sprt {
    type Err = String;

    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05` (commas or spaces between;
    /// alpha and beta default to 0.05).
    fn from_str(s: &str) -> Result<Sprt, String> {
        let mut t = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for item in s.split([',', ' ']).filter(|i| !i.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("'{item}' is not NAME=VALUE"))?;
            let v: f64 = v
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("'{item}': not a number"))?;
            match k.trim() {
                "elo0" => t.elo0 = v,
                "elo1" => t.elo1 = v,
                "alpha" => t.alpha = v,
                "beta" => t.beta = v,
                other => return Err(format!("'{other}' is none of elo0, elo1, alpha, beta")),
            }
        }
        if t.elo0.is_nan() || t.elo1.is_nan() {
            return Err("elo0 and elo1 are both needed (elo0=0,elo1=5)".into());
        }
        if t.elo0 >= t.elo1 || t.elo0.abs() >= 1000.0 || t.elo1.abs() >= 1000.0 {
            return Err("elo0 must be below elo1, both within ±1000".into());
        }
        for (name, p) in [("alpha", t.alpha), ("beta", t.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("{name} must be above 0 and below 0.5"));
            }
        }
        Ok(t)
    }
}

/// The expected score of an Elo advantage.
fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `wdl` (see the module
    /// documentation).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let n = f64::from(wdl.games());
        if n == 0.0 {
            return 0.0;
        }
        let s = wdl.points() / n;
        let v = (f64::from(wdl.wins) * (1.0 - s).powi(2)
            + f64::from(wdl.draws) * (0.5 - s).powi(2)
            + f64::from(wdl.losses) * s.powi(2))
            / n;
        let (m0, m1) = (score_of(self.elo0), score_of(self.elo1));
        if v <= 0.0 {
            return match (wdl.wins, wdl.losses) {
                (0, 0) => 0.0,
                (_, 0) => n * (m1 / m0).ln(),
                _ => n * ((1.0 - m1) / (1.0 - m0)).ln(),
            };
        }
        n * (m1 - m0) * (2.0 * s - m0 - m1) / (2.0 * v)
    }

    /// The verdict at `llr`, if it crossed a bound.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (low, high) = self.bounds();
        if llr <= low {
            Some(Verdict::H0)
        } else if llr >= high {
            Some(Verdict::H1)
        } else {
            None
        }
    }

    /// `SPRT elo0 0 elo1 5 (alpha 0.05, beta 0.05): LLR 1.23 (-2.94 .. 2.94)`
    /// and the verdict, if any.
    pub fn describe(&self, wdl: &Wdl) -> String {
        let llr = self.llr(wdl);
        let (low, high) = self.bounds();
        let verdict = match self.verdict(llr) {
            Some(v) => format!(", {v} accepted"),
            None => String::new(),
        };
        format!(
            "SPRT elo0 {} elo1 {} (alpha {}, beta {}): LLR {llr:.2} ({low:.2} .. {high:.2}){verdict}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn settings_parse_with_defaults_and_are_checked() {
        let t: Sprt = "elo0=0,elo1=5".parse().unwrap();
        assert_eq!((t.elo0, t.elo1, t.alpha, t.beta), (0.0, 5.0, 0.05, 0.05));
        let t: Sprt = "elo0=-2 elo1=3 alpha=0.1 beta=0.2".parse().unwrap();
        assert_eq!((t.elo0, t.elo1, t.alpha, t.beta), (-2.0, 3.0, 0.1, 0.2));
        for bad in [
            "",
            "elo0=0",
            "elo0=5,elo1=0",
            "elo0=0,elo1=5,alpha=0",
            "elo0=0,elo1=5,beta=0.7",
            "elo0=0,elo1=x",
            "elo0=0,elo1=5,gamma=1",
            "elo0=0,elo1=inf",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }

    #[test]
    fn bounds_and_ratios_are_the_published_ones() {
        let t: Sprt = "elo0=0,elo1=5,alpha=0.05,beta=0.05".parse().unwrap();
        let (low, high) = t.bounds();
        assert!((low + 2.944).abs() < 1e-3 && (high - 2.944).abs() < 1e-3);
        // By hand: 600/200/400 gives s = 0.5833…, v = 0.2014, m0 = 0.5,
        // m1 = 0.50720; LLR = 1200 · 0.00720 · (1.16667 − 1.00720) / 0.40278.
        let llr = t.llr(&wdl(600, 200, 400));
        let (m0, m1) = (0.5, score_of(5.0));
        let s = 1400.0 / 2400.0;
        let v = (600.0 * (1.0 - s) * (1.0 - s) + 200.0 * (0.5 - s) * (0.5 - s) + 400.0 * s * s)
            / 1200.0;
        let expect = 1200.0 * (m1 - m0) * (2.0 * s - m0 - m1) / (2.0 * v);
        assert!(
            (llr - expect).abs() < 1e-9 && (llr - 3.42).abs() < 0.01,
            "{llr}"
        );
        assert_eq!(t.verdict(llr), Some(Verdict::H1));
        // An even match leans to H0, and long enough accepts it.
        assert!(t.llr(&wdl(40, 20, 40)) < 0.0);
        assert_eq!(
            t.verdict(t.llr(&wdl(12_000, 6_000, 12_000))),
            Some(Verdict::H0)
        );
        assert_eq!(t.verdict(t.llr(&wdl(10, 5, 10))), None);
        // No spread yet: the exact ratio of wins (or losses) alone; draws
        // alone and no games decide nothing.
        let all_won = t.llr(&wdl(4, 0, 0));
        assert!((all_won - 4.0 * (score_of(5.0) / 0.5).ln()).abs() < 1e-12);
        assert!(all_won > 0.0 && t.llr(&wdl(0, 0, 4)) < 0.0);
        assert_eq!(t.llr(&wdl(0, 7, 0)), 0.0);
        assert_eq!(t.llr(&wdl(0, 0, 0)), 0.0);
        let wide: Sprt = "elo0=0,elo1=100".parse().unwrap();
        assert_eq!(wide.verdict(wide.llr(&wdl(20, 0, 0))), Some(Verdict::H1));
        assert!(t.describe(&wdl(600, 200, 400)).ends_with("H1 accepted"));
    }
}
