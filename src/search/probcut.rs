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
//! The regressions live in a small text file beside the weights
//! (`weights/othello.mpc`, which historical Reversi shares, and
//! `weights/anti.mpc` for Anti-Reversi's own weights), embedded in the binary
//! and tied to the weights it was fitted with by their checksum:
//!
//! ```text
//! MOLLMPC 1
//! weights 5c1f0e2a9b3d4c71
//! note mollett probcut ...
//! pair 8 4 20 25 0.9812 12.40 210.5 180
//! extend 120.0 1.5 9.0
//! checksum 0123456789abcdef
//! ```
//!
//! A `pair` row is: depth, shallow depth, first and last empties of the phase,
//! `a`, `b` (centi-discs), `σ` (centi-discs), samples. Depths beyond the
//! deepest row use the deepest row of the same parity for `a` and `b`, and
//! `σ = s0 + s1 · empties + s2 · depth` from the `extend` row (never below that
//! row's own `σ`). The checksum is FNV-1a 64 of every byte before its line.
//!
//! A node whose depth reaches the end of the game (a selective endgame pass,
//! see `Root::solve`) takes the row of its depth like any other: the deep
//! search is then the exact score.

use crate::eval::wfile::{self, RulesTag, fnv1a};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// The Othello regressions the engine ships, fitted with the embedded weights
/// (see the README for how).
pub const EMBEDDED: &str = include_str!("../../weights/othello.mpc");

/// The Anti-Reversi regressions the engine ships, fitted with the embedded
/// Anti-Reversi weights (see the README for how).
pub const EMBEDDED_ANTI: &str = include_str!("../../weights/anti.mpc");

/// The first line of a regression file.
pub const MAGIC: &str = "MOLLMPC 1";

/// The shallowest node that tries a cut: below, the shallow search would be
/// the static evaluation, whose error is too wide to cut anything at useful
/// confidence, and the subtree too small to be worth it.
pub const PROBCUT_MIN_DEPTH: u32 = 3;

/// Rows are looked up for depths up to this; deeper nodes do not exist.
const MAX_DEPTH: u32 = 60;

/// The depth of the shallow search that predicts a search at `depth`: about
/// half as deep, of the same parity (an Othello evaluation swings between odd
/// and even depths, so a shallow search of the other parity predicts worse):
/// 3→1, 4→2, 5→3, 6→2, 8→4, 12→6, 21→11.
pub const fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + depth % 2
}

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

/// One regression: the shallow depth and `deep ≈ a · shallow + b ± σ`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Regression {
    /// Depth of the shallow search.
    pub shallow: u32,
    /// Slope.
    pub a: f64,
    /// Intercept, centi-discs.
    pub b: f64,
    /// Residual standard deviation, centi-discs.
    pub sigma: f64,
}

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

/// One `pair` row of the file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    /// Depth of the deep search.
    pub depth: u32,
    /// First empties of the phase.
    pub empties_lo: u32,
    /// Last empties of the phase.
    pub empties_hi: u32,
    /// The fit.
    pub fit: Regression,
    /// Positions it was fitted on.
    pub samples: u32,
}

/// A parsed regression file.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbCutFile {
    /// FNV-1a 64 of the weights file the searches were made with.
    pub weights: u64,
    /// How the file was made.
    pub note: String,
    /// The rows, by depth then phase.
    pub pairs: Vec<Pair>,
    /// `σ = s0 + s1 · empties + s2 · depth` beyond the deepest row.
    pub extend: [f64; 3],
}

impl ProbCutFile {
    /// The file's text, checksum included.
    pub fn write(&self) -> String {
        let mut s = format!("{MAGIC}\nweights {:016x}\n", self.weights);
        s += &format!("note {}\n", self.note.replace('\n', " "));
        for p in &self.pairs {
            s += &format!(
                "pair {} {} {} {} {:.4} {:.2} {:.2} {}\n",
                p.depth,
                p.fit.shallow,
                p.empties_lo,
                p.empties_hi,
                p.fit.a,
                p.fit.b,
                p.fit.sigma,
                p.samples
            );
        }
        let [s0, s1, s2] = self.extend;
        s += &format!("extend {s0:.3} {s1:.3} {s2:.3}\n");
        let sum = fnv1a(s.as_bytes());
        s + &format!("checksum {sum:016x}\n")
    }

    /// Parses and checks a file's text.
    pub fn parse(text: &str) -> Result<ProbCutFile, String> {
        let body_end = text
            .rfind("checksum ")
            .ok_or("regression file: no checksum line")?;
        let (body, last) = text.split_at(body_end);
        let stored = last
            .trim()
            .strip_prefix("checksum ")
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .ok_or("regression file: bad checksum line")?;
        if fnv1a(body.as_bytes()) != stored {
            return Err("regression file: checksum mismatch (damaged file)".into());
        }
        let mut lines = body.lines();
        if lines.next() != Some(MAGIC) {
            return Err(format!("regression file: not a '{MAGIC}' file"));
        }
        let mut file = ProbCutFile {
            weights: 0,
            note: String::new(),
            pairs: Vec::new(),
            extend: [0.0; 3],
        };
        let mut extend = None;
        for (i, line) in lines.enumerate() {
            let bad = || format!("regression file: bad line {}: '{line}'", i + 2);
            let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
            let nums = || -> Result<Vec<f64>, String> {
                rest.split_whitespace()
                    .map(|t| t.parse::<f64>().map_err(|_| bad()))
                    .collect()
            };
            match word {
                "weights" => file.weights = u64::from_str_radix(rest, 16).map_err(|_| bad())?,
                "note" => file.note = rest.to_string(),
                "pair" => {
                    let v = nums()?;
                    let [d, sh, lo, hi, a, b, sigma, n] = v[..] else {
                        return Err(bad());
                    };
                    let whole = |x: f64| x >= 0.0 && x.fract() == 0.0 && x <= 64.0;
                    let (depth, shallow) = (d as u32, sh as u32);
                    if !(whole(d) && whole(sh) && whole(lo) && whole(hi))
                        || shallow != shallow_depth(depth)
                        || lo > hi
                        || !(a > 0.0 && sigma > 0.0 && b.is_finite() && n >= 0.0)
                    {
                        return Err(bad());
                    }
                    file.pairs.push(Pair {
                        depth,
                        empties_lo: lo as u32,
                        empties_hi: hi as u32,
                        fit: Regression {
                            shallow,
                            a,
                            b,
                            sigma,
                        },
                        samples: n as u32,
                    });
                }
                "extend" => {
                    let v = nums()?;
                    let [s0, s1, s2] = v[..] else {
                        return Err(bad());
                    };
                    extend = Some([s0, s1, s2]);
                }
                _ => return Err(bad()),
            }
        }
        file.extend = extend.ok_or("regression file: no 'extend' line")?;
        if file.pairs.is_empty() {
            return Err("regression file: no 'pair' line".into());
        }
        Ok(file)
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
        let file = ProbCutFile::parse(text)?;
        let sum = fnv1a(weights);
        if file.weights != sum {
            return Err(format!(
                "regression file: fitted with weights {:016x}, but the embedded weights are {sum:016x}",
                file.weights
            ));
        }
        Ok(ProbCut::new(&file))
    }
}

/// The embedded weights file of `rules`, the one its regressions belong to.
pub fn embedded_weights(rules: RulesTag) -> &'static [u8] {
    match rules {
        RulesTag::Othello => wfile::EMBEDDED,
        RulesTag::Anti => wfile::EMBEDDED_ANTI,
    }
}

/// The embedded regression file of `rules`, as shipped (unparsed).
pub fn embedded_text(rules: RulesTag) -> &'static str {
    match rules {
        RulesTag::Othello => EMBEDDED,
        RulesTag::Anti => EMBEDDED_ANTI,
    }
}

/// The shipped regressions for the weights of `rules`, parsed once; `Err` if
/// the embedded file is damaged or was fitted with other weights than the
/// embedded ones of those rules.
pub fn embedded(rules: RulesTag) -> Result<&'static ProbCut, String> {
    static OTHELLO: OnceLock<Result<ProbCut, String>> = OnceLock::new();
    static ANTI: OnceLock<Result<ProbCut, String>> = OnceLock::new();
    let cell = match rules {
        RulesTag::Othello => &OTHELLO,
        RulesTag::Anti => &ANTI,
    };
    cell.get_or_init(|| {
        ProbCut::for_weights(embedded_text(rules), embedded_weights(rules))
            .map_err(|e| format!("{} {e}", rules.name()))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// Checks every shipped regression file (at start-up, before any search).
pub fn check_embedded() -> Result<(), String> {
    for rules in [RulesTag::Othello, RulesTag::Anti] {
        embedded(rules)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ProbCutFile {
        ProbCutFile {
            weights: 0x1234,
            note: "test".into(),
            pairs: vec![
                Pair {
                    depth: 3,
                    empties_lo: 20,
                    empties_hi: 39,
                    fit: Regression {
                        shallow: 1,
                        a: 1.0,
                        b: 10.0,
                        sigma: 200.0,
                    },
                    samples: 100,
                },
                Pair {
                    depth: 4,
                    empties_lo: 20,
                    empties_hi: 39,
                    fit: Regression {
                        shallow: 2,
                        a: 0.9,
                        b: -5.0,
                        sigma: 250.0,
                    },
                    samples: 100,
                },
            ],
            extend: [100.0, 1.0, 30.0],
        }
    }

    #[test]
    fn a_file_round_trips_and_damage_is_refused() {
        let f = sample();
        let text = f.write();
        let back = ProbCutFile::parse(&text).unwrap();
        assert_eq!(back, f);
        let damaged = text.replace("pair 3 1", "pair 3 2");
        assert!(
            ProbCutFile::parse(&damaged)
                .unwrap_err()
                .contains("checksum")
        );
        assert!(ProbCutFile::parse(&text[..text.len() / 2]).is_err());
        assert!(ProbCutFile::parse("").is_err());
    }

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
