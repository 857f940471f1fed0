//! The board string of Edax and the FFO files: 64 squares then the side to move.
//!
//! Squares come in the order a1 b1 … h1 a2 … h8 (top row first). On input black is
//! any of `X x * b`, white any of `O o w 0`, an empty square any of `- . _ e`, and
//! whitespace is skipped anywhere; after the 64 squares comes the side to move,
//! any black or white letter. Any other character is an error naming it and the
//! square it stood for. [`parse_board_prefix`] stops after the side letter (for
//! formats such as OBF that continue the line); `FromStr` for [`Position`] allows
//! only whitespace after it.
//!
//! On output ([`write_board_string`] and `Display` for [`Position`]) the squares
//! are 64 characters from `X O -`, then a space and `X` or `O`:
//! `---------------------------OX------XO--------------------------- X`.

use super::{ErrorKind, ParseError, char_at, skip_ws};
use crate::board::{Color, Square};
use crate::rules::Position;
use std::fmt;
use std::str::FromStr;

/// What one board character stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    /// A black disc, or Black as the side to move.
    Black,
    /// A white disc, or White as the side to move.
    White,
    /// An empty square.
    Empty,
}

/// The board-string alphabet: `X x * b`, `O o w 0`, `- . _ e`.
pub(crate) fn board_string_cell(c: char) -> Option<Cell> {
    match c {
        'X' | 'x' | '*' | 'b' => Some(Cell::Black),
        'O' | 'o' | 'w' | '0' => Some(Cell::White),
        '-' | '.' | '_' | 'e' => Some(Cell::Empty),
        _ => None,
    }
}

/// Reads 64 squares from `text` starting at byte `start` (whitespace skipped),
/// classifying each character with `cell`. Returns Black's and White's discs and
/// the offset just after the last square. `what` names the format in errors.
pub(crate) fn scan_squares(
    text: &str,
    start: usize,
    cell: fn(char) -> Option<Cell>,
    what: &str,
) -> Result<(u64, u64, usize), ParseError> {
    let (mut black, mut white) = (0u64, 0u64);
    let mut i = start;
    for n in 0..64u8 {
        i = skip_ws(text, i);
        let Some(c) = char_at(text, i) else {
            return Err(ParseError::at_end(
                ErrorKind::Truncated,
                format!("{what} has only {n} squares, 64 are needed"),
                text,
            ));
        };
        let sq = Square::new(n).map_or(0, |s| s.bit());
        match cell(c) {
            Some(Cell::Black) => black |= sq,
            Some(Cell::White) => white |= sq,
            Some(Cell::Empty) => {}
            None => {
                let name = Square::new(n).map(|s| s.to_string()).unwrap_or_default();
                return Err(ParseError::new(
                    ErrorKind::Unexpected,
                    format!("unexpected character '{c}' for square {name} of the {what}"),
                    text,
                    i,
                    i + c.len_utf8(),
                ));
            }
        }
        i += c.len_utf8();
    }
    Ok((black, white, i))
}

/// Reads the side to move at `start` (after optional whitespace) with the
/// alphabet `cell`; returns it and the offset just after it.
pub(crate) fn scan_side(
    text: &str,
    start: usize,
    cell: fn(char) -> Option<Cell>,
    what: &str,
) -> Result<(Color, usize), ParseError> {
    let i = skip_ws(text, start);
    let Some(c) = char_at(text, i) else {
        return Err(ParseError::at_end(
            ErrorKind::Truncated,
            format!("{what} has no side to move after its 64 squares"),
            text,
        ));
    };
    let side = match cell(c) {
        Some(Cell::Black) => Color::Black,
        Some(Cell::White) => Color::White,
        _ => {
            return Err(ParseError::new(
                ErrorKind::Unexpected,
                format!("'{c}' is not a side to move in the {what} (a black or white letter)"),
                text,
                i,
                i + c.len_utf8(),
            ));
        }
    };
    Ok((side, i + c.len_utf8()))
}

/// Reads a board string at the start of `text`: 64 squares and the side to move.
/// Returns the position and the number of bytes read, up to and including the
/// side letter; whatever follows is left to the caller.
pub fn parse_board_prefix(text: &str) -> Result<(Position, usize), ParseError> {
    const WHAT: &str = "board string";
    let (black, white, i) = scan_squares(text, 0, board_string_cell, WHAT)?;
    let (side, end) = scan_side(text, i, board_string_cell, WHAT)?;
    // Disjoint by construction: each square sets at most one of the two.
    let pos = Position::from_colors(black, white & !black, side).unwrap_or_default();
    Ok((pos, end))
}

impl FromStr for Position {
    type Err = ParseError;

    /// A board string with nothing but whitespace after the side to move.
    fn from_str(text: &str) -> Result<Position, ParseError> {
        let (pos, end) = parse_board_prefix(text)?;
        let rest = skip_ws(text, end);
        if rest < text.len() {
            return Err(ParseError::new(
                ErrorKind::TrailingText,
                "unexpected text after the side to move of the board string",
                text,
                rest,
                text.len(),
            ));
        }
        Ok(pos)
    }
}

/// The 64 squares of `pos`, a1 to h8, with the given letters.
pub(crate) fn squares_with(pos: &Position, black: char, white: char, empty: char) -> String {
    let (b, w) = (pos.black(), pos.white());
    (0..64)
        .map(|i| {
            if b >> i & 1 != 0 {
                black
            } else if w >> i & 1 != 0 {
                white
            } else {
                empty
            }
        })
        .collect()
}

/// The board string of `pos`: 64 characters of `X O -`, a space, `X` or `O`.
pub fn write_board_string(pos: &Position) -> String {
    format!("{} {}", squares_with(pos, 'X', 'O', '-'), pos.side.letter())
}

impl fmt::Display for Position {
    /// Writes the board string (see [`write_board_string`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_board_string(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn start_round_trips() {
        let p: Position = START.parse().unwrap();
        assert_eq!(p, Position::START);
        assert_eq!(p.to_string(), START);
        assert_eq!(write_board_string(&p), START);
    }

    #[test]
    fn lenient_alphabet_and_whitespace() {
        let spaced =
            "........ ........ ........ ...wb... ...bw... ........ ........ ........\n b\n";
        assert_eq!(spaced.parse::<Position>(), Ok(Position::START));
        let white = START.replace(" X", "0");
        let p: Position = white.parse().unwrap();
        assert_eq!(p.side, Color::White);
        assert_eq!(p.black(), Position::START.black());
        let e = format!("{}eeeee o", &START[..59]);
        assert_eq!(e.parse::<Position>().unwrap().side, Color::White);
    }

    #[test]
    fn prefix_stops_after_side() {
        let line = format!("{START}; G8:+18;");
        let (p, n) = parse_board_prefix(&line).unwrap();
        assert_eq!(p, Position::START);
        assert_eq!(&line[n..], "; G8:+18;");
    }

    #[test]
    fn errors_name_the_character_and_place() {
        let bad = START.replacen('-', "?", 1);
        let e = bad.parse::<Position>().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unexpected);
        assert_eq!(e.offset, 0);
        assert!(e.to_string().contains("'?' for square a1"), "{e}");

        let e = START[..40].parse::<Position>().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Truncated);
        assert!(e.message.contains("only 40 squares"), "{e}");

        let e = START[..64].parse::<Position>().unwrap_err();
        assert!(e.message.contains("no side to move"), "{e}");

        let e = format!("{} -", &START[..64])
            .parse::<Position>()
            .unwrap_err();
        assert!(e.to_string().contains("'-' is not a side to move"), "{e}");

        let e = format!("{START} X").parse::<Position>().unwrap_err();
        assert_eq!(
            (e.kind, e.offset, e.excerpt.as_str()),
            (ErrorKind::TrailingText, 67, "X")
        );

        let e = "é".repeat(70).parse::<Position>().unwrap_err();
        assert!(e.to_string().contains("'é' for square a1"), "{e}");
        assert!("".parse::<Position>().is_err());
    }
}
