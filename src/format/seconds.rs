//! Time values: [`Seconds`], a bounded, non-negative number of seconds that
//! every time value Mollett reads (GGF clocks, GTP `time_settings` and
//! `time_left`, the match runner's `--move-time` and `--hang-timeout`) is parsed
//! into once, so that no later arithmetic or conversion to a [`Duration`] can
//! overflow or panic.
//!
//! The range is 0 to [`Seconds::MAX_SECS`] (one year, 31 536 000 s): far beyond
//! any game clock, and small enough that a deadline `now + 3 × value` always
//! fits in an [`std::time::Instant`]. Text outside the range, negative, not a
//! number, infinite or NaN is refused ([`Seconds::parse`]); values computed from
//! bounded ones (a clock minus the time used) are brought back into range with
//! [`Seconds::saturating`], which the callers document where they use it.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time of 0 to [`Seconds::MAX_SECS`] seconds (finite, never negative).
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Seconds(f64);

/// Why a time value was refused: the text, and what it should have been.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecondsError(pub String);

impl fmt::Display for SecondsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SecondsError {}

impl Seconds {
    /// The largest time value: one year of seconds.
    pub const MAX_SECS: f64 = 31_536_000.0;
    /// No time.
    pub const ZERO: Seconds = Seconds(0.0);
    /// The largest time value.
    pub const MAX: Seconds = Seconds(Seconds::MAX_SECS);

    /// `secs` if it is a number in range, else `None`.
    pub fn new(secs: f64) -> Option<Seconds> {
        (0.0..=Seconds::MAX_SECS)
            .contains(&secs)
            .then_some(Seconds(secs + 0.0))
    }

    /// `secs` brought into range: below 0 (and NaN) is 0, above the maximum is
    /// the maximum.
    pub fn saturating(secs: f64) -> Seconds {
        if secs.is_nan() {
            Seconds::ZERO
        } else {
            Seconds(secs.clamp(0.0, Seconds::MAX_SECS) + 0.0)
        }
    }

    /// Reads a plain decimal number of seconds (`30`, `1.5`, `2e3`); anything
    /// else, and values out of range, are refused with a message naming `text`.
    pub fn parse(text: &str) -> Result<Seconds, SecondsError> {
        let t = text.trim();
        let plain = !t.is_empty()
            && t.bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
        match t.parse::<f64>() {
            Ok(x) if plain => Seconds::new(x).ok_or_else(|| out_of_range(text)),
            _ => Err(out_of_range(text)),
        }
    }

    /// The value in seconds.
    pub fn get(self) -> f64 {
        self.0
    }

    /// The value as a [`Duration`] (never panics: the range fits).
    pub fn duration(self) -> Duration {
        Duration::from_secs_f64(self.0)
    }

    /// Whether the value is 0.
    pub fn is_zero(self) -> bool {
        self.0 == 0.0
    }
}

/// The refusal of `text` as a time value.
fn out_of_range(text: &str) -> SecondsError {
    SecondsError(format!(
        "'{text}' is not a time in seconds (0 to {})",
        Seconds::MAX_SECS
    ))
}

impl FromStr for Seconds {
    type Err = SecondsError;

    /// See [`Seconds::parse`].
    fn from_str(text: &str) -> Result<Seconds, SecondsError> {
        Seconds::parse(text)
    }
}

impl fmt::Display for Seconds {
    /// The shortest decimal that reads back exactly (`30`, `1.5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_numbers_in_range() {
        assert_eq!("30".parse(), Ok(Seconds(30.0)));
        assert_eq!(" 1.5 ".parse(), Ok(Seconds(1.5)));
        assert_eq!("2e3".parse(), Ok(Seconds(2000.0)));
        assert_eq!("0".parse(), Ok(Seconds::ZERO));
        assert_eq!("31536000".parse(), Ok(Seconds::MAX));
        for bad in [
            "",
            "-1",
            "-0.5",
            "31536000.5",
            "1e20",
            "1e300",
            "inf",
            "NaN",
            "infinity",
            "1s",
            "0x10",
            "1,5",
        ] {
            let e = bad.parse::<Seconds>().unwrap_err();
            assert!(e.0.contains(&format!("'{bad}' is not a time")), "{e}");
        }
    }

    #[test]
    fn saturates_and_converts_without_panicking() {
        assert_eq!(Seconds::saturating(-3.0), Seconds::ZERO);
        assert_eq!(Seconds::saturating(f64::NAN), Seconds::ZERO);
        assert_eq!(Seconds::saturating(f64::INFINITY), Seconds::MAX);
        assert_eq!(Seconds::saturating(1e300), Seconds::MAX);
        assert_eq!(Seconds::MAX.duration(), Duration::from_secs(31_536_000));
        assert_eq!(Seconds::new(-0.0).map(|s| s.to_string()), Some("0".into()));
        assert_eq!(Seconds::new(f64::NAN), None);
        // A deadline of three times the largest value fits.
        let _ = std::time::Instant::now() + Seconds::MAX.duration() * 3;
    }
}
