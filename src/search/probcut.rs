//! Multi-ProbCut: a shallow search predicts whether a deep one will fail high
//! or low, and the node is cut when the prediction is sure enough.
//!
//! For a null-window node at depth `d` over `alpha`, with `β = alpha + 1`, the
//! search at the shallow depth `d′` ([`shallow_depth`]) is linked to the deep
//! one by a regression fitted on Mollett's own searches (`mollett probcut`):
//! `deep ≈ a · shallow + b`, with residual standard deviation `σ`, per depth and
//! phase (empties). At selectivity `t` standard deviations ([`Selectivity`]):
//! - if the shallow search proves `a · shallow + b − t σ ≥ β`, the node fails
//!   high (it returns `β`);
//! - if it proves `a · shallow + b + t σ ≤ alpha`, the node fails low.
//!
//! Each check is one null-window search at `d′` over the bound that the
//! regression turns the window into. A result found this way is only as sure
//! as its selectivity: the table records it, and a search at a higher
//! selectivity does not take it (see `midgame::usable`).
//!
//! The regressions are fitted with the weights of one rule set and shipped
//! beside them as a `.mpc` file (its format: [`crate::knowledge::mpc`]); the
//! search expands one into a table by depth and empties ([`ProbCut`]).
//!
//! A node whose depth reaches the end of the game (a selective endgame pass,
//! see `Root::solve`) takes the row of its depth like any other: the deep
//! search is then the exact score.

use crate::knowledge::mpc::{self, Pair, ProbCutFile, Regression, shallow_depth};
use crate::knowledge::{regressions, weights};
use crate::rules::Variant;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// The shallowest node that tries a cut: below, the shallow search would be
/// the static evaluation, whose error is too wide to cut anything at useful
/// confidence, and the subtree too small to be worth it.
pub const PROBCUT_MIN_DEPTH: u32 = 3;

/// Rows are looked up for depths up to this; deeper nodes do not exist.
const MAX_DEPTH: u32 = 60;

/// A confidence level of the selective search, named by its percentage as in
/// Edax (73 %, 87 %, 95 %, 98 %, 99 %, 100 %); 100 % searches every move to
/// its full depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Selectivity(u8);

/// The selectivities, least sure first, with the number of standard deviations
/// each demands of a cut. The names are Edax's; the widths are those of the
/// normal distribution's two-sided intervals of about that coverage.
const LEVELS: [(u8, f64); 6] = [
    (73, 1.1),
    (87, 1.5),
    (95, 2.0),
    (98, 2.6),
    (99, 3.3),
    (100, f64::INFINITY),
];

impl Selectivity {
    /// Full width: no cut.
    pub const FULL: Selectivity = Selectivity(100);
    /// The least sure: 73 %, a cut at 1.1 standard deviations.
    pub const LEAST: Selectivity = Selectivity(73);
    /// 95 %, a cut at 2.0 standard deviations.
    pub const SURE: Selectivity = Selectivity(95);

    /// Every selectivity, least sure first.
    pub fn all() -> impl Iterator<Item = Selectivity> {
        LEVELS.iter().map(|&(p, _)| Selectivity(p))
    }

    /// The percentage (what the table records).
    pub const fn percent(self) -> u8 {
        self.0
    }

    /// Whether every move is searched to full depth.
    pub const fn is_full(self) -> bool {
        self.0 >= 100
    }

    /// The standard deviations a cut needs; infinite at full width.
    pub fn sigmas(self) -> f64 {
        LEVELS
            .iter()
            .find(|&&(p, _)| p == self.0)
            .map_or(f64::INFINITY, |&(_, t)| t)
    }
}

impl Default for Selectivity {
    /// Full width.
    fn default() -> Selectivity {
        Selectivity::FULL
    }
}

impl fmt::Display for Selectivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", self.0)
    }
}

impl FromStr for Selectivity {
    type Err = String;

    /// `73`, `73%`, …, `100`.
    fn from_str(s: &str) -> Result<Selectivity, String> {
        let t = s.trim();
        let n = t.strip_suffix('%').unwrap_or(t);
        Selectivity::all()
            .find(|sel| n.parse::<u8>() == Ok(sel.0))
            .ok_or_else(|| format!("'{s}' is not a selectivity (73, 87, 95, 98, 99 or 100)"))
    }
}

/// The cut a regression makes (its fields: [`crate::knowledge::mpc`]).
impl Regression {
    /// The shallow bounds for a null window over `alpha` at `sigmas` standard
    /// deviations: a shallow score at least `.0` predicts a fail high, one at
    /// most `.1` a fail low.
    #[inline]
    pub fn bounds(&self, alpha: i32, sigmas: f64) -> (i32, i32) {
        let beta = f64::from(alpha + 1);
        let margin = sigmas * self.sigma;
        let high = ((beta + margin - self.b) / self.a).ceil();
        let low = ((f64::from(alpha) - margin - self.b) / self.a).floor();
        let clamp = |v: f64| v.clamp(-1.0e6, 1.0e6) as i32;
        (clamp(high), clamp(low))
    }
}

/// The regressions ready for the search: one per depth and empties.
#[derive(Clone, Debug)]
pub struct ProbCut {
    /// `table[depth * 61 + empties]`.
    table: Vec<Option<Regression>>,
}

impl ProbCut {
    /// Expands a file into the per-depth, per-empties table.
    pub fn new(file: &ProbCutFile) -> ProbCut {
        let n = (MAX_DEPTH + 1) as usize;
        let mut table = vec![None; n * n];
        let deepest = file.pairs.iter().map(|p| p.depth).max().unwrap_or(0);
        for depth in PROBCUT_MIN_DEPTH..=MAX_DEPTH {
            // The rows for this depth, or beyond the deepest, for the deepest
            // depth of the same parity.
            let source = if depth <= deepest {
                depth
            } else if deepest % 2 == depth % 2 {
                deepest
            } else {
                deepest.saturating_sub(1)
            };
            let rows: Vec<&Pair> = file.pairs.iter().filter(|p| p.depth == source).collect();
            if rows.is_empty() {
                continue;
            }
            for empties in depth..=MAX_DEPTH {
                // The phase holding these empties, else the nearest one.
                let distance = |p: &&&Pair| {
                    if empties < p.empties_lo {
                        p.empties_lo - empties
                    } else {
                        empties.saturating_sub(p.empties_hi)
                    }
                };
                let Some(row) = rows.iter().min_by_key(distance) else {
                    continue;
                };
                let mut fit = row.fit;
                fit.shallow = shallow_depth(depth);
                if depth > source {
                    let [s0, s1, s2] = file.extend;
                    let sigma = s0 + s1 * f64::from(empties) + s2 * f64::from(depth);
                    fit.sigma = sigma.max(row.fit.sigma);
                }
                table[depth as usize * n + empties as usize] = Some(fit);
            }
        }
        ProbCut { table }
    }

    /// The regression for a node at `depth` with `empties` empty squares, if
    /// the node may try a cut.
    #[inline]
    pub fn get(&self, depth: u32, empties: u32) -> Option<&Regression> {
        let n = (MAX_DEPTH + 1) as usize;
        if depth > MAX_DEPTH || empties > MAX_DEPTH {
            return None;
        }
        self.table[depth as usize * n + empties as usize].as_ref()
    }

    /// Parses the regression file `text` and checks that it was fitted with
    /// the weights file `weights` (its bytes).
    pub fn for_weights(text: &str, weights: &[u8]) -> Result<ProbCut, String> {
        mpc::parse_for(text, weights).map(|file| ProbCut::new(&file))
    }
}

/// The shipped regressions for the weights of `rules` (for historical
/// Reversi, Othello's), parsed once; `Err` if the embedded file is damaged or
/// was fitted with other weights than the embedded ones of those rules (the
/// start-up check, [`crate::knowledge::check_embedded`], refuses both first).
pub fn embedded(rules: Variant) -> Result<&'static ProbCut, String> {
    static OTHELLO: OnceLock<Result<ProbCut, String>> = OnceLock::new();
    static ANTI: OnceLock<Result<ProbCut, String>> = OnceLock::new();
    let rules = rules.weights_variant();
    let cell = match rules {
        Variant::Anti => &ANTI,
        _ => &OTHELLO,
    };
    cell.get_or_init(|| {
        ProbCut::for_weights(regressions(rules), weights(rules))
            .map_err(|e| format!("{} {e}", rules.name()))
    })
    .as_ref()
    .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::mpc::sample;

    #[test]
    fn rows_cover_every_depth_by_parity_and_nearest_phase() {
        let cut = ProbCut::new(&sample());
        assert!(cut.get(2, 30).is_none(), "below the least depth");
        assert!(cut.get(2, 2).is_none(), "below the least depth, at the end");
        let end = cut
            .get(30, 30)
            .expect("a selective search to the end has rows");
        assert_eq!((end.shallow, end.b), (14, -5.0));
        let r = cut.get(3, 50).unwrap();
        assert_eq!((r.shallow, r.b), (1, 10.0));
        let deep_odd = cut.get(9, 30).unwrap();
        assert_eq!((deep_odd.shallow, deep_odd.b), (5, 10.0));
        assert_eq!(deep_odd.sigma, 100.0 + 30.0 + 270.0);
        let deep_even = cut.get(8, 30).unwrap();
        assert_eq!((deep_even.shallow, deep_even.a), (4, 0.9));
    }

    #[test]
    fn bounds_turn_the_window_into_shallow_scores() {
        let r = Regression {
            shallow: 2,
            a: 1.0,
            b: 0.0,
            sigma: 100.0,
        };
        // β = 1; a fail high needs shallow ≥ 1 + 2σ = 201, a fail low
        // shallow ≤ 0 − 200.
        assert_eq!(r.bounds(0, 2.0), (201, -200));
        let half = Regression { a: 0.5, ..r };
        assert_eq!(half.bounds(0, 1.0), (202, -200));
    }

    #[test]
    fn selectivities_parse_and_order() {
        assert_eq!("73".parse::<Selectivity>(), Ok(Selectivity::LEAST));
        assert_eq!("100%".parse::<Selectivity>(), Ok(Selectivity::FULL));
        assert!("80".parse::<Selectivity>().is_err());
        let all: Vec<_> = Selectivity::all().collect();
        assert!(
            all.windows(2)
                .all(|w| w[0] < w[1] && w[0].sigmas() < w[1].sigmas())
        );
        assert!(Selectivity::FULL.is_full() && Selectivity::FULL.sigmas().is_infinite());
        assert_eq!(Selectivity::LEAST.to_string(), "73%");
    }

    #[test]
    fn shallow_depths_keep_parity_and_halve() {
        for d in PROBCUT_MIN_DEPTH..=60 {
            let s = shallow_depth(d);
            assert_eq!(s % 2, d % 2, "{d}");
            assert!(s < d && s >= 1, "{d}");
        }
        assert_eq!(shallow_depth(21), 11);
    }
}
