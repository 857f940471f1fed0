//! Match statistics: the Elo difference with its 95 % interval, pentanomial
//! counts over colour-swapped pairs, and the Brightwell Quotient tie-break.
//!
//! # Elo
//!
//! With `n` games, `w` wins, `d` draws and `l` losses for the first entrant, the
//! score is `p = (w + d/2) / n` and the Elo difference is
//! `E(p) = -400 · log10(1/p − 1)`. The 95 % interval is `E(p ± 1.96 · s)`, where
//! `s = sqrt(Σ (xᵢ − p)² / n) / sqrt(n)` is the standard error of the mean of the
//! per-game scores `xᵢ ∈ {0, ½, 1}` (the normal approximation cutechess-cli uses).
//! A score of 0 or 1, or a bound outside (0, 1), has an infinite Elo (−∞ or +∞):
//! with no loss or no win at all the data give no upper or lower bound. When
//! every game has the same extreme result (all won, or all lost) the normal
//! approximation has no spread at all, and the finite end comes from the exact
//! binomial (Clopper–Pearson) bound instead: `n` wins out of `n` put `p` above
//! `0.025^(1/n)` with 95 % confidence (4 wins of 4: above 0.398, −72.1 Elo).
//!
//! # Elo by pairs
//!
//! Games played in colour-swapped pairs from one opening are not independent:
//! a lopsided opening tends to give each side one win. [`pair_elo`] therefore
//! also measures the interval over the pairs, as fastchess and fishtest do: with
//! `m` pairs scoring `yⱼ ∈ {0, ¼, ½, ¾, 1}` (the pair's points over two), the
//! mean `q` and `s = sqrt(Σ (yⱼ − q)² / m) / sqrt(m)`, the interval is
//! `E(q ± 1.96 · s)`. When the openings decide many pairs this interval is the
//! narrower, and the honest one.
//!
//! # Brightwell Quotient
//!
//! The World Othello Championship's tie-break (see [`brightwell`]).

/// 1.96: the two-sided 95 % quantile of the normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// 0.025: each tail of a two-sided 95 % interval, for the exact bound of a
/// score of 0 or 1.
const TAIL_95: f64 = 0.025;

/// The Elo difference that an expected score `p` stands for (−∞ at or below 0,
/// +∞ at or above 1).
pub fn elo_from_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// Wins, draws and losses from one entrant's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// Counts one game by its disc margin for this entrant.
    pub fn add(&mut self, margin: i32) {
        match margin.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// The number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: one per win, a half per draw.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The score fraction `p`, or `None` with no games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// The Elo difference and its 95 % interval (see the module documentation).
    pub fn elo(&self) -> Option<EloEstimate> {
        estimate(&[(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)])
    }
}

/// The Elo difference of the mean of scores `x` counted `k` times each
/// (`(x, k)` pairs), with the 95 % interval `E(mean ± 1.96 · s)`, `s` the
/// standard error of that mean; `None` with nothing counted.
fn estimate(outcomes: &[(f64, u32)]) -> Option<EloEstimate> {
    let n: u32 = outcomes.iter().map(|&(_, k)| k).sum();
    if n == 0 {
        return None;
    }
    let n = f64::from(n);
    let p = outcomes.iter().map(|&(x, k)| x * f64::from(k)).sum::<f64>() / n;
    let variance = outcomes
        .iter()
        .map(|&(x, k)| f64::from(k) * (x - p).powi(2))
        .sum::<f64>()
        / n;
    let margin = Z_95 * (variance / n).sqrt();
    // Every score 1 (or every score 0): no spread, so the exact binomial bound.
    let exact = 1.0 - TAIL_95.powf(1.0 / n);
    let (low, high) = match p {
        1.0 => (1.0 - exact, 1.0),
        0.0 => (0.0, exact),
        _ => (p - margin, p + margin),
    };
    Some(EloEstimate {
        elo: elo_from_score(p),
        low: elo_from_score(low),
        high: elo_from_score(high),
    })
}

/// An Elo difference with its 95 % interval (ends may be infinite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// Counts of colour-swapped pairs by the first entrant's points in the pair:
/// index 0 = 0 points, 1 = ½, 2 = 1, 3 = 1½, 4 = 2.
pub fn pentanomial(pair_points: impl IntoIterator<Item = f64>) -> [u32; 5] {
    let mut counts = [0; 5];
    for p in pair_points {
        counts[((p * 2.0).round() as usize).min(4)] += 1;
    }
    counts
}

/// The Elo difference over colour-swapped pairs and its 95 % interval from
/// the [`pentanomial`] counts (see the module documentation); `None` without
/// pairs.
pub fn pair_elo(counts: [u32; 5]) -> Option<EloEstimate> {
    let outcomes: [(f64, u32); 5] = std::array::from_fn(|i| (i as f64 / 4.0, counts[i]));
    estimate(&outcomes)
}

/// One entrant's tournament as the Brightwell Quotient sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BqRecord {
    /// For each game played against an opponent who did not withdraw: the
    /// entrant's final disc count (empties to the winner) and the opponent.
    pub games: Vec<(u32, usize)>,
    /// Games against opponents who withdrew, plus byes.
    pub withdrawn_or_bye: u32,
    /// The entrant's own points.
    pub points: f64,
}

/// The constant `c` of the Brightwell Quotient: the integer nearest to 64 divided
/// by the number of rounds (halves round up).
pub fn brightwell_constant(rounds: u32) -> f64 {
    (64.0 / f64::from(rounds.max(1))).round()
}

/// The Brightwell Quotient of every entrant, as the World Othello Championship
/// rules compute it:
///
/// 1. Leave out games against opponents who withdrew, and byes.
/// 2. Sum the entrant's disc counts in the remaining games, and add `c` times the
///    sum of the tournament points of the opponents of those games (an opponent
///    met twice counts twice).
/// 3. For each game against an opponent who withdrew, and each bye, add
///    `32 + c × the entrant's own points`.
///
/// `points[i]` is entrant `i`'s tournament total (the opponents' points).
pub fn brightwell(records: &[BqRecord], points: &[f64], rounds: u32) -> Vec<f64> {
    let c = brightwell_constant(rounds);
    records
        .iter()
        .map(|r| {
            let discs: u32 = r.games.iter().map(|g| g.0).sum();
            let opponents: f64 = r.games.iter().map(|g| points[g.1]).sum();
            f64::from(discs) + c * opponents + f64::from(r.withdrawn_or_bye) * (32.0 + c * r.points)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_a_70_percent_score_by_hand() {
        // 60 wins, 20 draws, 20 losses: p = 0.7.
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let e = w.elo().unwrap();
        // -400·log10(1/0.7 − 1) = -400·log10(0.428571…) = 147.19.
        assert!((e.elo - 147.19).abs() < 0.01, "{e:?}");
        // Variance: (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16, s = 0.4/10 = 0.04,
        // p ± 1.96·0.04 = 0.6216 .. 0.7784, so E = -400·log10(0.60875) = 86.22
        // .. -400·log10(0.28469) = 218.25.
        assert!((e.low - 86.22).abs() < 0.05, "{e:?}");
        assert!((e.high - 218.25).abs() < 0.05, "{e:?}");
    }

    #[test]
    fn even_score_is_zero_elo_and_extremes_are_infinite() {
        let even = Wdl {
            wins: 3,
            draws: 2,
            losses: 3,
        };
        let e = even.elo().unwrap();
        assert_eq!(e.elo, 0.0);
        assert!((e.low + e.high).abs() < 1e-9, "symmetric");
        let all = Wdl {
            wins: 4,
            draws: 0,
            losses: 0,
        };
        // All won: infinite, but bounded below by the exact binomial bound
        // 0.025^(1/4) = 0.3976, -400·log10(1/0.3976 - 1) = -72.15 Elo.
        let e = all.elo().unwrap();
        assert_eq!((e.elo, e.high), (f64::INFINITY, f64::INFINITY));
        assert!((e.low + 72.15).abs() < 0.01, "{e:?}");
        let none = Wdl {
            wins: 0,
            draws: 0,
            losses: 4,
        };
        let e = none.elo().unwrap();
        assert_eq!((e.elo, e.low), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        assert!((e.high - 72.15).abs() < 0.01, "{e:?}");
        let one_draw = Wdl {
            wins: 3,
            draws: 1,
            losses: 0,
        };
        let e = one_draw.elo().unwrap();
        assert!(e.low.is_finite() && e.elo.is_finite() && e.high == f64::INFINITY);
        assert_eq!(Wdl::default().elo(), None);
    }

    #[test]
    fn pentanomial_counts_pair_points() {
        assert_eq!(
            pentanomial([0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0]),
            [1, 1, 2, 1, 2]
        );
    }

    #[test]
    fn pair_elo_by_hand() {
        // 10 pairs: 2 at 0, 6 at 1 (split), 2 at 2 points. q = 0.5, variance
        // (2·0.25 + 6·0 + 2·0.25)/10 = 0.1, s = sqrt(0.1/10) = 0.1, so
        // q ± 0.196 = 0.304 .. 0.696: E = ∓143.9.
        let e = pair_elo([2, 0, 6, 0, 2]).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(
            (e.high - 143.9).abs() < 0.05 && (e.low + 143.9).abs() < 0.05,
            "{e:?}"
        );
        // Counted game by game, the same 20 games are 10 wins and 10 losses:
        // s = 0.5/sqrt(20) = 0.112, a wider interval.
        let games = Wdl {
            wins: 10,
            draws: 0,
            losses: 10,
        }
        .elo()
        .unwrap();
        assert!(games.high > e.high);
        // 3/4 of a pair's points at every pair: no spread, a zero-width interval.
        let e = pair_elo([0, 0, 0, 5, 0]).unwrap();
        assert!((e.low - e.elo).abs() < 1e-9 && (e.high - e.elo).abs() < 1e-9);
        assert!((e.elo - 190.85).abs() < 0.01, "{e:?}");
        assert_eq!(pair_elo([0; 5]), None);
    }

    #[test]
    fn brightwell_worked_example() {
        // Four entrants A, B, C, D over 4 rounds (c = 64/4 = 16). D withdrew after
        // losing to A; A had a bye in round 4.
        //   A: beat B 40-24, beat D (disc count ignored), drew C 32-32 → 2.5 points
        //   B: lost to A 24, beat C 36-28, beat D → 2 points
        //   C: drew A 32, lost to B 28 → 0.5 points ...
        let points = [2.5, 2.0, 0.5, 0.0];
        let records = [
            BqRecord {
                games: vec![(40, 1), (32, 2)],
                withdrawn_or_bye: 2,
                points: 2.5,
            },
            BqRecord {
                games: vec![(24, 0), (36, 2)],
                withdrawn_or_bye: 1,
                points: 2.0,
            },
            BqRecord {
                games: vec![(32, 0), (28, 1)],
                withdrawn_or_bye: 0,
                points: 0.5,
            },
        ];
        let bq = brightwell(&records, &points, 4);
        // A: 40 + 32 + 16·(2 + 0.5) + 2·(32 + 16·2.5) = 72 + 40 + 144 = 256.
        // B: 24 + 36 + 16·(2.5 + 0.5) + 1·(32 + 16·2) = 60 + 48 + 64 = 172.
        // C: 32 + 28 + 16·(2.5 + 2) = 60 + 72 = 132.
        assert_eq!(bq, vec![256.0, 172.0, 132.0]);
        // WOC: 13 rounds → 64/13 = 4.92 → 5; 11 rounds → 5.82 → 6.
        assert_eq!(brightwell_constant(13), 5.0);
        assert_eq!(brightwell_constant(11), 6.0);
    }
}
