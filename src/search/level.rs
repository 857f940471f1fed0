//! Levels: a numeric level 1–60 in the spirit of Edax's table, and three named
//! levels for people.
//!
//! | level | midgame depth | selectivity | exact solve at empties ≤ | win/loss/draw at empties ≤ | evaluation |
//! |---|---|---|---|---|---|
//! | 1–10 | level | 100 % | 2 × level | exact + 2 | learned |
//! | 11–59 | level | 73 % | 20 + (level − 10) × 2 / 5 | exact + 2 | learned |
//! | 60 | 60 | 100 % | 60 (always exact) | 60 | learned |
//! | easy | 2 | 100 % | 4 | 4 | disc count |
//! | medium | 6 | 100 % | 12 | 14 | learned |
//! | hard | 12 | 73 % | 20 | 24 | learned |
//!
//! Level 21, Edax's default, thus solves exactly at 24 empties, as Edax does,
//! and searches the midgame 21 plies deep with Multi-ProbCut at 73 %
//! ([`SELECTIVE_FROM_LEVEL`]).
//!
//! Every level but 60 proves the win/loss/draw outcome two empties before its
//! exact solve ([`WLD_AHEAD`]): from 17 to 19 empties a depth-8 search still
//! threw won games away, where a win/loss/draw proof costs a few milliseconds
//! (measured against NTest at depth 8, which proves from 17: see the README).

use super::{Limits, Selectivity};
use crate::eval::EvalKind;
use std::fmt;
use std::str::FromStr;

/// From this level up the midgame search is selective (Multi-ProbCut at
/// [`Selectivity::LEAST`], 73 %), as in Edax: at lower levels a full-width
/// search answers in well under a second anyway, and a level there is a plain
/// depth, comparable with other engines' nominal depths.
pub const SELECTIVE_FROM_LEVEL: u32 = 11;

/// Empties before its exact solve at which a level (1–59) proves the
/// win/loss/draw outcome instead of searching the midgame: with it, level 8
/// scored 53.2 % against NTest at depth 8 over 1800 games, against 50.2 %
/// with the proof at the exact threshold (as levels 1–10 had it), and 52.1 %
/// against 49.6 % over 800 more, side by side; its moves took no longer.
pub const WLD_AHEAD: u32 = 2;

/// A playing strength: search limits plus the evaluation to play with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The name as given (`"21"`, `"easy"`).
    pub name: LevelName,
    /// Depth and solve thresholds.
    pub limits: Limits,
    /// The leaf evaluation.
    pub eval: EvalKind,
}

/// How a level was named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelName {
    /// A numeric level, 1..=60.
    Number(u32),
    /// Shallow, playing the disc count.
    Easy,
    /// Deeper, mobility-first.
    Medium,
    /// Deeper still, with a wide exact window.
    Hard,
}

impl Level {
    /// The numeric level `n` (clamped to 1..=60).
    pub fn number(n: u32) -> Level {
        let n = n.clamp(1, 60);
        let selectivity = if (SELECTIVE_FROM_LEVEL..60).contains(&n) {
            Selectivity::LEAST
        } else {
            Selectivity::FULL
        };
        let exact = match n {
            1..=10 => 2 * n,
            60 => 60,
            _ => 20 + (n - 10) * 2 / 5,
        };
        let wld = if n == 60 { 60 } else { exact + WLD_AHEAD };
        Level {
            name: LevelName::Number(n),
            limits: Limits {
                depth: n,
                exact_empties: exact,
                wld_empties: wld,
                selectivity,
            },
            eval: EvalKind::Learned,
        }
    }

    /// A named level.
    pub fn named(name: LevelName) -> Level {
        let (depth, exact, wld, selectivity, eval) = match name {
            LevelName::Number(n) => return Level::number(n),
            LevelName::Easy => (2, 4, 4, Selectivity::FULL, EvalKind::Discs),
            LevelName::Medium => (6, 12, 14, Selectivity::FULL, EvalKind::Learned),
            LevelName::Hard => (12, 20, 24, Selectivity::LEAST, EvalKind::Learned),
        };
        Level {
            name,
            limits: Limits {
                depth,
                exact_empties: exact,
                wld_empties: wld,
                selectivity,
            },
            eval,
        }
    }
}

impl Default for Level {
    /// Level 21, Edax's default.
    fn default() -> Level {
        Level::number(21)
    }
}

/// Why a level did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLevel(pub String);

impl fmt::Display for BadLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a level (1..60, easy, medium or hard)",
            self.0
        )
    }
}

impl std::error::Error for BadLevel {}

impl FromStr for Level {
    type Err = BadLevel;

    fn from_str(s: &str) -> Result<Level, BadLevel> {
        let t = s.trim().to_ascii_lowercase();
        let name = match t.as_str() {
            "easy" => LevelName::Easy,
            "medium" => LevelName::Medium,
            "hard" => LevelName::Hard,
            _ => match t.parse::<u32>() {
                Ok(n @ 1..=60) => LevelName::Number(n),
                _ => return Err(BadLevel(s.to_string())),
            },
        };
        Ok(Level::named(name))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name {
            LevelName::Number(n) => write!(f, "{n}"),
            LevelName::Easy => f.write_str("easy"),
            LevelName::Medium => f.write_str("medium"),
            LevelName::Hard => f.write_str("hard"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_documented_rules() {
        let bands = |n| {
            let l = Level::number(n).limits;
            (l.depth, l.exact_empties, l.wld_empties)
        };
        assert_eq!(bands(1), (1, 2, 4));
        assert_eq!(bands(5), (5, 10, 12));
        assert_eq!(bands(8), (8, 16, 18));
        assert_eq!(bands(10), (10, 20, 22));
        assert_eq!(bands(11), (11, 20, 22));
        assert_eq!(bands(21), (21, 24, 26));
        assert_eq!(bands(60), (60, 60, 60));
        // `medium` is level 6 under another name.
        assert_eq!(
            Level::named(LevelName::Medium).limits,
            Level::number(6).limits
        );
        let sel = |n| Level::number(n).limits.selectivity;
        assert_eq!(
            (sel(10), sel(11), sel(59), sel(60)),
            (
                Selectivity::FULL,
                Selectivity::LEAST,
                Selectivity::LEAST,
                Selectivity::FULL
            )
        );
        assert_eq!("easy".parse::<Level>().unwrap().eval, EvalKind::Discs);
        assert_eq!("HARD".parse::<Level>().unwrap().limits.depth, 12);
        for bad in ["0", "61", "-3", "", "expert"] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
        for s in ["1", "21", "60", "easy", "medium", "hard"] {
            assert_eq!(s.parse::<Level>().unwrap().to_string(), s);
        }
    }
}
