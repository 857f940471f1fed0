//! The one score unit. Every evaluation and search score is an `i32` in
//! centi-discs ([`DISC`] = 100 per disc of final margin) for the side to move;
//! an exact or win/loss/draw result is a whole number of discs in that unit.
//! Whole discs (a final margin, a solver bound, a training label) and float
//! discs (what the protocols print) only cross into it through the named
//! conversions here, never through a bare `* DISC` or `/ DISC`.

/// One disc of final margin, in the score unit (centi-discs).
pub const DISC: i32 = 100;

/// The largest final margin, 64 discs, in the score unit.
pub const MAX_MARGIN: i32 = 64 * DISC;

/// The largest magnitude an evaluation returns: just under 63 discs.
pub const EVAL_MAX: i32 = 63 * DISC - 1;

/// A margin of whole `discs` as a score.
#[inline(always)]
pub const fn from_discs(discs: i32) -> i32 {
    discs * DISC
}

/// A score as whole discs, rounded toward zero (exact for exact scores).
#[inline(always)]
pub const fn whole_discs(score: i32) -> i32 {
    score / DISC
}

/// The largest whole-disc margin at or below `score`.
#[inline(always)]
pub const fn floor_discs(score: i32) -> i32 {
    score.div_euclid(DISC)
}

/// The smallest whole-disc margin at or above `score`.
#[inline(always)]
pub const fn ceil_discs(score: i32) -> i32 {
    (score + DISC - 1).div_euclid(DISC)
}

/// A score as (float) discs.
pub fn to_discs(score: i32) -> f64 {
    f64::from(score) / f64::from(DISC)
}

/// A score as whole discs, rounded to the nearest (halves away from zero).
pub fn rounded_discs(score: i32) -> i32 {
    to_discs(score).round() as i32
}

/// (Float) discs as a score, unrounded.
pub fn from_float_discs(discs: f64) -> f64 {
    discs * f64::from(DISC)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_as_named() {
        assert_eq!(from_discs(-3), -300);
        assert_eq!(whole_discs(-250), -2);
        assert_eq!(floor_discs(-250), -3);
        assert_eq!(ceil_discs(-250), -2);
        assert_eq!(floor_discs(250), 2);
        assert_eq!(ceil_discs(250), 3);
        assert_eq!(ceil_discs(300), 3);
        assert_eq!(rounded_discs(250), 3);
        assert_eq!(rounded_discs(-250), -3);
        assert_eq!(rounded_discs(249), 2);
        assert_eq!(to_discs(-125), -1.25);
        assert_eq!(from_float_discs(1.5), 150.0);
    }
}
