//! GGF clocks (`TI`, `TB`, `TW`): `[[h:]m:]s[/increment[/grace]]`.
//!
//! Each of the three parts is a duration `[[h:]m:]s` whose fields are decimal
//! numbers (`15:00`, `1:00:00`, `90`, `0:30.5`). A missing or empty increment is
//! 0 and a missing or empty grace period is 120 s, as in NBoard. The writer gives
//! the main time as `m:ss` or `h:mm:ss` (plain seconds when not a whole number),
//! then `/increment` if it is not 0 or the grace is not 120 s, then `/grace` if
//! it is not 120 s: `5:00`, `1:00:00`, `5:00/2`, `5:00/0/30`. Each part is a
//! [`Seconds`] value: one over a year (31 536 000 s) is refused.

use super::seconds::Seconds;
use super::{ErrorKind, ParseError};
use std::fmt;
use std::str::FromStr;

/// A game clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Main thinking time.
    pub main: Seconds,
    /// Time added after each move.
    pub increment: Seconds,
    /// Extra time allowed once the main time is spent.
    pub grace: Seconds,
}

impl Clock {
    /// NBoard's grace period when a clock gives none: 120 s.
    pub const DEFAULT_GRACE: f64 = 120.0;

    /// A clock of `main` seconds (brought into range, see
    /// [`Seconds::saturating`]) with no increment and the default grace.
    pub fn new(main: f64) -> Clock {
        Clock {
            main: Seconds::saturating(main),
            increment: Seconds::ZERO,
            grace: Seconds::saturating(Clock::DEFAULT_GRACE),
        }
    }
}

/// Reads a clock; errors name the whole clock text.
pub fn parse_clock(text: &str) -> Result<Clock, ParseError> {
    let bad = |why: &str| {
        ParseError::new(
            ErrorKind::BadClock,
            format!("'{text}' is not a clock ([[h:]m:]s[/increment[/grace]]): {why}"),
            text,
            0,
            text.len(),
        )
    };
    let parts: Vec<&str> = text.trim().split('/').collect();
    if parts.len() > 3 {
        return Err(bad("more than three '/' parts"));
    }
    let part = |k: usize, default: f64, what: &str| -> Result<Seconds, ParseError> {
        match parts.get(k).map(|p| p.trim()) {
            None | Some("") => Ok(Seconds::saturating(default)),
            Some(p) => match duration(p) {
                None => Err(bad(&format!("bad {what} '{p}'"))),
                Some(t) => Seconds::new(t).ok_or_else(|| {
                    bad(&format!(
                        "{what} '{p}' is over {} s (one year)",
                        Seconds::MAX_SECS
                    ))
                }),
            },
        }
    };
    if parts[0].trim().is_empty() {
        return Err(bad("no main time"));
    }
    Ok(Clock {
        main: part(0, 0.0, "main time")?,
        increment: part(1, 0.0, "increment")?,
        grace: part(2, Clock::DEFAULT_GRACE, "grace period")?,
    })
}

/// `[[h:]m:]s` in seconds, each field a non-negative decimal number.
fn duration(text: &str) -> Option<f64> {
    let fields: Vec<&str> = text.split(':').collect();
    if fields.len() > 3 {
        return None;
    }
    let mut total = 0.0;
    for f in fields {
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return None;
        }
        total = total * 60.0 + f.parse::<f64>().ok()?;
    }
    total.is_finite().then_some(total)
}

/// A duration as `h:mm:ss`, `m:ss` (always when `colon`), or plain seconds.
fn write_duration(f: &mut fmt::Formatter<'_>, t: Seconds, colon: bool) -> fmt::Result {
    let t = t.get();
    if t.fract() != 0.0 || !(0.0..1e15).contains(&t) {
        return write!(f, "{t}");
    }
    let n = t as u64;
    let (h, m, s) = (n / 3600, n / 60 % 60, n % 60);
    if h > 0 {
        write!(f, "{h}:{m:02}:{s:02}")
    } else if m > 0 || colon {
        write!(f, "{m}:{s:02}")
    } else {
        write!(f, "{s}")
    }
}

impl FromStr for Clock {
    type Err = ParseError;

    /// See [`parse_clock`].
    fn from_str(text: &str) -> Result<Clock, ParseError> {
        parse_clock(text)
    }
}

impl fmt::Display for Clock {
    /// The compact form: `5:00`, `1:00:00`, `5:00/2`, `5:00/0/30`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_duration(f, self.main, true)?;
        let grace = self.grace.get() != Clock::DEFAULT_GRACE;
        if !self.increment.is_zero() || grace {
            f.write_str("/")?;
            write_duration(f, self.increment, false)?;
        }
        if grace {
            f.write_str("/")?;
            write_duration(f, self.grace, false)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(main: f64, increment: f64, grace: f64) -> Clock {
        let s = |x| Seconds::new(x).unwrap();
        Clock {
            main: s(main),
            increment: s(increment),
            grace: s(grace),
        }
    }

    #[test]
    fn reads_nboard_clocks() {
        assert_eq!("15:00".parse(), Ok(Clock::new(900.0)));
        assert_eq!("1:00:00".parse(), Ok(Clock::new(3600.0)));
        assert_eq!("5:00/2".parse(), Ok(clock(300.0, 2.0, 120.0)));
        assert_eq!("5:00/2/1:00".parse(), Ok(clock(300.0, 2.0, 60.0)));
        assert_eq!("5:00//30".parse(), Ok(clock(300.0, 0.0, 30.0)));
        assert_eq!(" 90 ".parse(), Ok(Clock::new(90.0)));
        assert_eq!("0:30.5".parse(), Ok(Clock::new(30.5)));
    }

    #[test]
    fn writes_compactly_and_round_trips() {
        for (c, s) in [
            (Clock::new(300.0), "5:00"),
            (Clock::new(3600.0), "1:00:00"),
            (Clock::new(3725.0), "1:02:05"),
            (Clock::new(30.0), "0:30"),
            (Clock::new(30.5), "30.5"),
            (clock(300.0, 2.0, 120.0), "5:00/2"),
            (clock(300.0, 90.0, 120.0), "5:00/1:30"),
            (clock(300.0, 0.0, 30.0), "5:00/0/30"),
            (clock(0.0, 0.25, 0.0), "0:00/0.25/0"),
        ] {
            assert_eq!(c.to_string(), s);
            assert_eq!(s.parse(), Ok(c), "{s}");
        }
    }

    #[test]
    fn rejects_malformed_clocks() {
        for bad in [
            "",
            "/2",
            "5:00/2/3/4",
            "1:2:3:4",
            "5:x0",
            "5::00",
            "inf",
            "-5:00",
            "1e3",
            "5:00/é",
            "99999999999999999999999",
            "8761:00:00",
            "5:00/31536001",
        ] {
            let e = bad.parse::<Clock>().unwrap_err();
            assert_eq!(e.kind, ErrorKind::BadClock);
            assert!(
                e.to_string().contains(&format!("'{bad}' is not a clock")),
                "{e}"
            );
        }
    }
}
