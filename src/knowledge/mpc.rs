//! The `.mpc` file of Multi-ProbCut regressions: how a shallow search predicts
//! a deep one, fitted on Mollett's own searches (`mollett probcut`) with the
//! weights of one rule set, and tied to those weights by their checksum. The
//! search reads it as a table (`crate::search::probcut`).
//!
//! The regressions live in a small text file beside the weights
//! (`weights/othello.mpc`, which historical Reversi shares, and
//! `weights/anti.mpc` for Anti-Reversi's own weights), embedded in the binary
//! ([`super::embedded_regressions`]):
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
//! A `pair` row is: depth, shallow depth ([`shallow_depth`]), first and last
//! empties of the phase, `a`, `b` (centi-discs), `σ` (centi-discs), samples:
//! `deep ≈ a · shallow + b` with residual standard deviation `σ`. Depths
//! beyond the deepest row use the deepest row of the same parity for `a` and
//! `b`, and `σ = s0 + s1 · empties + s2 · depth` from the `extend` row (never
//! below that row's own `σ`). The `weights` line is the FNV-1a 64 ([`fnv1a`])
//! of the weights file the searches were made with; the checksum is FNV-1a 64
//! of every byte before its line.

use super::fnv1a;

/// The first line of a regression file.
pub const MAGIC: &str = "MOLLMPC 1";

/// The depth of the shallow search that predicts a search at `depth`: about
/// half as deep, of the same parity (an Othello evaluation swings between odd
/// and even depths, so a shallow search of the other parity predicts worse):
/// 3→1, 4→2, 5→3, 6→2, 8→4, 12→6, 21→11.
pub const fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + depth % 2
}

/// One regression: the shallow depth and `deep ≈ a · shallow + b ± σ` (the
/// search turns it into a cut, `crate::search::probcut`).
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

/// Parses the regression file `text` and checks that it was fitted with the
/// weights file `weights` (its bytes).
pub fn parse_for(text: &str, weights: &[u8]) -> Result<ProbCutFile, String> {
    let file = ProbCutFile::parse(text)?;
    let sum = fnv1a(weights);
    if file.weights != sum {
        return Err(format!(
            "regression file: fitted with weights {:016x}, but the weights in use are {sum:016x}",
            file.weights
        ));
    }
    Ok(file)
}

/// A small regression file for tests.
#[cfg(test)]
pub(crate) fn sample() -> ProbCutFile {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
