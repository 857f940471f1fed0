//! Notation and file formats: pure parsers with typed errors, each with a writer
//! that is its inverse.
//!
//! - [`position`]: the 64-square board string of Edax and the FFO files
//!   (`FromStr` and `Display` for [`Position`](crate::Position));
//! - [`transcript`]: move sequences such as `f5d6c3d3c4`, read into a
//!   [`Game`](crate::rules::game::Game) with forced passes inserted;
//! - [`obf`]: the OBF lines of the FFO endgame test sets, a position and its
//!   scored moves;
//! - [`ggf`]: GGF game records as NBoard sends and writes them;
//! - [`move_item`]: GGF and NBoard move items (`F5/1.23/0.5`);
//! - [`clock`]: the GGF clocks (`15:00`, `5:00/2`);
//! - [`game_type`]: the GGF game types of the `TY` tag (`8`, `8r4`, `8a`);
//! - [`seconds`]: the bounded time value every clock and time flag is read into.
//!
//! Every parser returns a [`ParseError`] on bad input and never panics, whatever
//! the bytes; every writer's output parses back to the same value (GGF evals are
//! written with two decimals, as NBoard writes them, so only evals that have at
//! most two decimals survive a round trip exactly).

pub mod clock;
pub mod game_type;
pub mod ggf;
pub mod move_item;
pub mod obf;
pub mod position;
pub mod seconds;
pub mod transcript;

use std::fmt;

pub use clock::{Clock, parse_clock};
pub use ggf::{GgfGame, parse_first_ggf, parse_ggf, parse_ggf_records};
pub use move_item::{GgfMove, parse_move_item};
pub use obf::{ObfEntry, parse_obf, parse_obf_line};
pub use position::{parse_board_prefix, write_board_string};
pub use seconds::{Seconds, SecondsError};
pub use transcript::{parse_transcript, write_transcript};

/// What kind of mistake a [`ParseError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A character or token that has no meaning where it stands.
    Unexpected,
    /// The input ended before the item was complete (including an unclosed `[`).
    Truncated,
    /// Text left over after a complete item.
    TrailingText,
    /// A token that is neither a square nor a spelling of a pass.
    BadMove,
    /// A well-formed move that the rules forbid in its position.
    IllegalMove,
    /// A number (score, eval, time) that does not parse or is out of range.
    BadNumber,
    /// A malformed clock.
    BadClock,
    /// A required item is absent, such as a GGF record's `BO` tag.
    Missing,
    /// Well-formed, but not 8×8 Othello (another board size or game type).
    Unsupported,
}

/// Why a text did not parse: what went wrong, where, and the text at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The category of the mistake.
    pub kind: ErrorKind,
    /// A sentence saying what is wrong, naming the offending item.
    pub message: String,
    /// Byte offset of the offending text: from the start of the input, or, when
    /// [`line`](ParseError::line) is set, from the start of that line.
    pub offset: usize,
    /// The offending text (at most about 32 characters; for an input that ended
    /// too early, the last few characters before the end).
    pub excerpt: String,
    /// The 1-based line number, for parsers of multi-line files.
    pub line: Option<usize>,
}

/// Longest excerpt kept, in characters.
const EXCERPT_CHARS: usize = 32;

impl ParseError {
    /// An error about `input[start..end]` (clamped to the input and widened to
    /// character boundaries, so any offsets are safe).
    pub fn new(
        kind: ErrorKind,
        message: impl Into<String>,
        input: &str,
        start: usize,
        end: usize,
    ) -> ParseError {
        let start = floor_boundary(input, start.min(input.len()));
        let end = ceil_boundary(input, end.clamp(start, input.len()));
        let mut excerpt: String = input[start..end].chars().take(EXCERPT_CHARS).collect();
        if excerpt.len() < end - start {
            excerpt.push_str("...");
        }
        ParseError {
            kind,
            message: message.into(),
            offset: start,
            excerpt,
            line: None,
        }
    }

    /// An error for an input that ended too early: the offset is the input's
    /// length and the excerpt its last few characters.
    pub fn at_end(kind: ErrorKind, message: impl Into<String>, input: &str) -> ParseError {
        let tail = input.char_indices().rev().nth(15).map_or(0, |(i, _)| i);
        let mut e = ParseError::new(kind, message, input, tail, input.len());
        e.offset = input.len();
        e
    }

    /// The same error, located on line `line` (1-based) of a file.
    pub fn at_line(mut self, line: usize) -> ParseError {
        self.line = Some(line);
        self
    }

    /// The same error with its offset moved by `by` bytes, for an error found in
    /// a piece of a larger input that starts `by` bytes in.
    pub fn shifted(mut self, by: usize) -> ParseError {
        self.offset += by;
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        match self.line {
            Some(line) => write!(f, " at line {line}, column {}: '", self.offset + 1)?,
            None => write!(f, " at column {}: '", self.offset + 1)?,
        }
        for c in self.excerpt.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        f.write_str("'")
    }
}

impl std::error::Error for ParseError {}

/// The largest character boundary of `s` at or below `i` (`i` <= `s.len()`).
fn floor_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest character boundary of `s` at or above `i` (`i` <= `s.len()`).
fn ceil_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The character at byte `i` of `s` (a boundary), if any.
pub(crate) fn char_at(s: &str, i: usize) -> Option<char> {
    s.get(i..).and_then(|r| r.chars().next())
}

/// `i` moved past any whitespace in `s`.
pub(crate) fn skip_ws(s: &str, mut i: usize) -> usize {
    while let Some(c) = char_at(s, i).filter(|c| c.is_whitespace()) {
        i += c.len_utf8();
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_clamped_to_characters() {
        let s = "aé€z";
        let e = ParseError::new(ErrorKind::Unexpected, "bad", s, 2, 3);
        assert_eq!(e.excerpt, "é");
        assert_eq!(e.offset, 1);
        let e = ParseError::new(ErrorKind::Unexpected, "bad", s, 99, 200);
        assert_eq!((e.offset, e.excerpt.as_str()), (s.len(), ""));
        let long = "x".repeat(100);
        let e = ParseError::new(ErrorKind::Unexpected, "bad", &long, 0, 100);
        assert_eq!(e.excerpt, format!("{}...", "x".repeat(32)));
    }

    #[test]
    fn display_names_column_line_and_text() {
        let e = ParseError::new(ErrorKind::BadMove, "'z9' is not a move", "f5z9", 2, 4);
        assert_eq!(e.to_string(), "'z9' is not a move at column 3: 'z9'");
        let e = e.at_line(7);
        assert_eq!(
            e.to_string(),
            "'z9' is not a move at line 7, column 3: 'z9'"
        );
        let e = ParseError::at_end(ErrorKind::Truncated, "too short", "ab\ncd");
        assert_eq!(e.offset, 5);
        assert!(e.to_string().ends_with(": 'ab\\ncd'"), "{e}");
    }
}
