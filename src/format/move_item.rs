//! GGF move items: `MOVE[/EVAL[/TIME]]`, as in GGF move tags and NBoard's `move`
//! command and `===` reply.
//!
//! MOVE is a square in any case, a prefix of `PASS` of two letters or more, `PS`
//! or `--`. EVAL (in discs, from the mover's point of view) may be empty and may
//! use a decimal comma; TIME (seconds) is a number from 0 to a year ([`Seconds`]), possibly in
//! Java's exponent form (`1.0E-4`). The writer gives the move in upper case, the
//! eval with two decimals (as NBoard writes it) and the time in Rust's shortest
//! round-trip form: `F5`, `F5/0.00`, `D6//15.309000000000001`.

use super::seconds::Seconds;
use super::{ErrorKind, ParseError};
use crate::board::{Move, Square};
use std::fmt;
use std::str::FromStr;

/// One move item: the move, and optionally the mover's eval (in discs) and the
/// time it took (in seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove {
    /// The move.
    pub mv: Move,
    /// The eval in discs from the mover's point of view, if given.
    pub eval: Option<f64>,
    /// The time taken in seconds, if given.
    pub time: Option<f64>,
}

impl From<Move> for GgfMove {
    fn from(mv: Move) -> GgfMove {
        GgfMove {
            mv,
            eval: None,
            time: None,
        }
    }
}

/// Reads a move item `MOVE[/EVAL[/TIME]]`: `F5`, `f5`, `F5/1.23`, `F5//3.2`,
/// `F5/1.23/0.5`, `PA`. MOVE is a square in any case, a prefix of `PASS` of two
/// letters or more, `PS` or `--`. EVAL may be empty and may use a decimal comma;
/// TIME is a non-negative number, possibly in Java's exponent form (`1.0E-4`).
pub fn parse_move_item(text: &str) -> Result<GgfMove, ParseError> {
    let parts: Vec<&str> = text.split('/').collect();
    let err = |kind, msg: String| ParseError::new(kind, msg, text, 0, text.len());
    if parts.len() > 3 {
        return Err(err(
            ErrorKind::BadMove,
            format!("'{text}' is not a move item (MOVE[/EVAL[/TIME]]): too many '/'"),
        ));
    }
    let word = parts[0].trim();
    let is_pass = (word.len() >= 2
        && "PASS"
            .get(..word.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(word)))
        || word.eq_ignore_ascii_case("ps")
        || word == "--";
    let mv = if is_pass {
        Move::Pass
    } else {
        Move::Play(word.parse::<Square>().map_err(|_| {
            err(
                ErrorKind::BadMove,
                format!("'{word}' in move item '{text}' is not a square (A1..H8) or a pass"),
            )
        })?)
    };
    let number = |k: usize, what: &str| -> Result<Option<f64>, ParseError> {
        let p = parts.get(k).map_or("", |p| p.trim());
        if p.is_empty() {
            return Ok(None);
        }
        let clean = p.replace(',', ".");
        let ok = clean.bytes().all(|b| b"0123456789.+-eE".contains(&b));
        match clean.parse::<f64>() {
            Ok(x) if ok && x.is_finite() && (k == 1 || Seconds::new(x).is_some()) => Ok(Some(x)),
            _ => Err(err(
                ErrorKind::BadNumber,
                format!("'{p}' in move item '{text}' is not {what}"),
            )),
        }
    };
    Ok(GgfMove {
        mv,
        eval: number(1, "an eval")?,
        time: number(2, "a time in seconds")?,
    })
}

impl FromStr for GgfMove {
    type Err = ParseError;

    /// See [`parse_move_item`].
    fn from_str(text: &str) -> Result<GgfMove, ParseError> {
        parse_move_item(text)
    }
}

impl fmt::Display for GgfMove {
    /// `F5`, `F5/0.00`, `F5//15.309000000000001`, `PA/-1.50/0.5`: the move in upper
    /// case, the eval with two decimals, the time in shortest round-trip form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.mv.upper())?;
        match (self.eval, self.time) {
            (Some(e), Some(t)) => write!(f, "/{e:.2}/{t}"),
            (Some(e), None) => write!(f, "/{e:.2}"),
            (None, Some(t)) => write!(f, "//{t}"),
            (None, None) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_items() {
        let f5 = Move::Play("f5".parse().unwrap());
        let item = |mv, eval, time| GgfMove { mv, eval, time };
        for (text, want) in [
            ("F5", item(f5, None, None)),
            ("f5", item(f5, None, None)),
            ("F5/1.23", item(f5, Some(1.23), None)),
            ("F5//3.2", item(f5, None, Some(3.2))),
            ("F5/1.23/0.5", item(f5, Some(1.23), Some(0.5))),
            ("F5/-1,5/1.0E-4", item(f5, Some(-1.5), Some(0.0001))),
            (
                "D6//15.309000000000001",
                item(
                    Move::Play("d6".parse().unwrap()),
                    None,
                    Some(15.309000000000001),
                ),
            ),
            ("PA", item(Move::Pass, None, None)),
            ("pass/0.00", item(Move::Pass, Some(0.0), None)),
            ("--", item(Move::Pass, None, None)),
            ("Pas", item(Move::Pass, None, None)),
        ] {
            assert_eq!(parse_move_item(text), Ok(want), "{text}");
        }
        assert_eq!(item(f5, Some(0.0), None).to_string(), "F5/0.00");
        assert_eq!(
            item(f5, None, Some(15.309000000000001)).to_string(),
            "F5//15.309000000000001"
        );
        assert_eq!(
            item(Move::Pass, Some(-1.5), Some(1e-4)).to_string(),
            "PA/-1.50/0.0001"
        );
        for (bad, want) in [
            ("", "'' in move item '' is not a square"),
            ("Z9", "'Z9' in move item 'Z9' is not a square"),
            ("P", "'P' in move item"),
            ("F5/x", "'x' in move item 'F5/x' is not an eval"),
            ("F5/1/-2", "'-2' in move item 'F5/1/-2' is not a time"),
            ("F5//inf", "'inf' in move item"),
            ("F5/1/2/3", "too many '/'"),
        ] {
            let e = parse_move_item(bad).unwrap_err();
            assert!(e.to_string().contains(want), "{bad}: {e}");
        }
    }
}
