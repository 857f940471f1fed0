//! Squares and moves in `a1`..`h8` notation.
//!
//! Columns a–h run left to right and rows 1–8 top to bottom, so a1 is the top-left
//! corner and index `row * 8 + column` (a1 = 0, h1 = 7, h8 = 63). On input a pass is
//! any of `pa`, `pass`, `ps` or `--` in any case; [`Move`]'s `Display` writes squares
//! in lower case and a pass as `PA`, and [`Move::upper`] gives the GGF/NBoard form.

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares, as an index `row * 8 + column` (0..64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with index `i`, or `None` when `i` is 64 or more.
    pub const fn new(i: u8) -> Option<Square> {
        if i < 64 { Some(Square(i)) } else { None }
    }

    /// The square in column `col` (0 = a) and row `row` (0 = row 1).
    pub const fn at(col: u8, row: u8) -> Option<Square> {
        if col < 8 && row < 8 {
            Some(Square(row * 8 + col))
        } else {
            None
        }
    }

    /// The index, 0..64.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The column, 0 (a) to 7 (h).
    pub const fn col(self) -> u8 {
        self.0 % 8
    }

    /// The row, 0 (row 1, top) to 7 (row 8, bottom).
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The square's bit in a bitboard.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }
}

/// Why a square or move did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSquare(pub String);

impl fmt::Display for BadSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a square (a1..h8) or a pass", self.0)
    }
}

impl std::error::Error for BadSquare {}

impl FromStr for Square {
    type Err = BadSquare;

    fn from_str(s: &str) -> Result<Square, BadSquare> {
        let b = s.as_bytes();
        if b.len() == 2 {
            let col = b[0].to_ascii_lowercase().wrapping_sub(b'a');
            let row = b[1].wrapping_sub(b'1');
            if let Some(sq) = Square::at(col, row) {
                return Ok(sq);
            }
        }
        Err(BadSquare(s.to_string()))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = (b'a' + self.col()) as char;
        let row = (b'1' + self.row()) as char;
        write!(f, "{col}{row}")
    }
}

/// A move: a square, or a pass (allowed only when the side to move has no square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A disc placed on this square.
    Play(Square),
    /// The side to move has no legal square and is skipped.
    Pass,
}

impl Move {
    /// Whether `s` is one of the accepted spellings of a pass.
    pub fn is_pass_word(s: &str) -> bool {
        ["pa", "pass", "ps", "--"]
            .iter()
            .any(|w| s.eq_ignore_ascii_case(w))
    }

    /// The move in upper case, as GGF and NBoard write it: `F5`, `PA`.
    pub fn upper(self) -> String {
        self.to_string().to_ascii_uppercase()
    }

    /// The move in lower case, a pass as `pass`: as the console, GTP and the
    /// one-shot tools write it (`f5`, `pass`).
    pub fn lower(self) -> String {
        match self {
            Move::Play(sq) => sq.to_string(),
            Move::Pass => "pass".to_string(),
        }
    }

    /// The square, or `None` for a pass.
    pub fn square(self) -> Option<Square> {
        match self {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        }
    }
}

impl FromStr for Move {
    type Err = BadSquare;

    fn from_str(s: &str) -> Result<Move, BadSquare> {
        if Move::is_pass_word(s) {
            Ok(Move::Pass)
        } else {
            s.parse().map(Move::Play)
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => sq.fmt(f),
            Move::Pass => f.write_str("PA"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_round_trips() {
        for i in 0..64 {
            let sq = Square::new(i).unwrap();
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.to_string().to_uppercase().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("h1".parse::<Square>().unwrap().index(), 7);
        assert_eq!("F5".parse::<Square>().unwrap().index(), 37);
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
    }

    #[test]
    fn passes_and_errors() {
        for w in ["pa", "PA", "pass", "PASS", "ps", "--"] {
            assert_eq!(w.parse::<Move>(), Ok(Move::Pass), "{w}");
        }
        assert_eq!(Move::Pass.to_string(), "PA");
        assert_eq!("f5".parse::<Move>().unwrap().upper(), "F5");
        for bad in ["", "i1", "a9", "a0", "f", "f55", "ä1", "p"] {
            let e = bad.parse::<Move>().unwrap_err();
            assert!(e.to_string().contains(bad), "{e}");
        }
    }
}
