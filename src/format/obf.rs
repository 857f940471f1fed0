//! OBF, the line format of the FFO endgame test sets.
//!
//! One position per line: a board string (see [`super::position`]), `;`, then
//! any number of `MOVE:SCORE;` items, best first, each score the exact final disc
//! difference for the side to move:
//! `--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;`.
//!
//! On input whitespace may surround every item, the `;` after the side and after
//! the last item may be left out, a move is any square or pass spelling (`PA:`),
//! and a score is an integer from -64 to 64 with an optional sign. Each move must
//! be legal in the position. In a file, blank lines and lines whose first
//! non-blank character is `%` are skipped. The writer (`Display`) gives
//! `<board> X;` followed by ` G8:+18;` items with upper-case moves and signed
//! scores (`+0` for a draw).

use super::position::parse_board_prefix;
use super::{ErrorKind, ParseError, char_at, skip_ws};
use crate::board::Move;
use crate::rules::Position;
use std::fmt;
use std::str::FromStr;

/// One OBF line: a position and its scored moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObfEntry {
    /// The position to solve.
    pub position: Position,
    /// Moves with their exact final disc difference for the side to move, in the
    /// file's order (best first).
    pub scores: Vec<(Move, i32)>,
}

/// Reads one OBF line (no comment or blank line: see [`parse_obf`]).
pub fn parse_obf_line(line: &str) -> Result<ObfEntry, ParseError> {
    let (position, mut i) = parse_board_prefix(line)?;
    let mut scores = Vec::new();
    i = skip_ws(line, i);
    match char_at(line, i) {
        None => return Ok(ObfEntry { position, scores }),
        Some(';') => i += 1,
        Some(c) => {
            return Err(ParseError::new(
                ErrorKind::Unexpected,
                format!("expected ';' after the side to move, found '{c}'"),
                line,
                i,
                i + c.len_utf8(),
            ));
        }
    }
    loop {
        i = skip_ws(line, i);
        if i >= line.len() {
            return Ok(ObfEntry { position, scores });
        }
        // The move, up to ':'.
        let end = token_end(line, i);
        let text = &line[i..end];
        let mv: Move = text.parse().map_err(|_| {
            ParseError::new(
                ErrorKind::BadMove,
                format!("'{text}' is not a move (a1..h8 or PA)"),
                line,
                i,
                end,
            )
        })?;
        // Edax lists a pass among the moves of a side that has moves, scored
        // -127 (its "no score"): not a move to score, so it is read and skipped.
        let edax_pass = mv == Move::Pass && position.moves() != 0;
        if !edax_pass && let Err(e) = position.play(mv) {
            return Err(ParseError::new(
                ErrorKind::IllegalMove,
                format!("scored move '{text}' is illegal in this position: {e}"),
                line,
                i,
                end,
            ));
        }
        i = expect(line, skip_ws(line, end), ':', text)?;
        // The score, up to ';'.
        let s0 = skip_ws(line, i);
        let s1 = token_end(line, s0);
        let score_text = &line[s0..s1];
        let score = score_text
            .parse::<i32>()
            .ok()
            .filter(|s| edax_pass || (-64..=64).contains(s))
            .ok_or_else(|| {
                ParseError::new(
                    ErrorKind::BadNumber,
                    format!(
                        "'{score_text}' is not a score (an integer from -64 to +64) for {text}"
                    ),
                    line,
                    s0,
                    s1,
                )
            })?;
        if !edax_pass {
            scores.push((mv, score));
        }
        i = skip_ws(line, s1);
        if i < line.len() {
            i = expect(line, i, ';', score_text)?;
        }
    }
}

/// The end of the token at `i`: the first whitespace, `:` or `;`.
fn token_end(line: &str, i: usize) -> usize {
    line[i..]
        .find(|c: char| c.is_whitespace() || c == ':' || c == ';')
        .map_or(line.len(), |n| i + n)
}

/// Checks that `want` stands at `i` (after `after`) and returns the offset past it.
fn expect(line: &str, i: usize, want: char, after: &str) -> Result<usize, ParseError> {
    match char_at(line, i) {
        Some(c) if c == want => Ok(i + 1),
        Some(c) => Err(ParseError::new(
            ErrorKind::Unexpected,
            format!("expected '{want}' after '{after}', found '{c}'"),
            line,
            i,
            i + c.len_utf8(),
        )),
        None => Err(ParseError::at_end(
            ErrorKind::Truncated,
            format!("expected '{want}' after '{after}', found the end of the line"),
            line,
        )),
    }
}

/// Reads an OBF file: every entry with its 1-based line number. Blank lines and
/// `%` comment lines are skipped; an error carries its line number, and its offset
/// counts from the start of that line.
pub fn parse_obf(text: &str) -> Result<Vec<(usize, ObfEntry)>, ParseError> {
    let mut out = Vec::new();
    for (n, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('%') {
            continue;
        }
        let entry = parse_obf_line(line).map_err(|e| e.at_line(n + 1))?;
        out.push((n + 1, entry));
    }
    Ok(out)
}

impl FromStr for ObfEntry {
    type Err = ParseError;

    /// See [`parse_obf_line`].
    fn from_str(line: &str) -> Result<ObfEntry, ParseError> {
        parse_obf_line(line)
    }
}

impl fmt::Display for ObfEntry {
    /// `<board string>;` then ` MOVE:±SCORE;` for each scored move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", self.position)?;
        for (mv, score) in &self.scores {
            write!(f, " {}:{score:+};", mv.upper())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";
    const FFO2: &str = "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0; A3:-6; G7:-8; A7:-12; H7:-14; B7:-14; H2:-24;";

    #[test]
    fn ffo_lines_round_trip() {
        for line in [FFO1, FFO2] {
            let e = parse_obf_line(line).unwrap();
            assert_eq!(e.position.side, Color::Black);
            assert_eq!(e.to_string(), line);
            assert_eq!(e.to_string().parse::<ObfEntry>(), Ok(e));
        }
        let e = parse_obf_line(FFO1).unwrap();
        assert_eq!(e.scores.len(), 8);
        assert_eq!(e.scores[0], ("g8".parse().unwrap(), 18));
        assert_eq!(parse_obf_line(FFO2).unwrap().scores[1].1, 0);
    }

    #[test]
    fn lenient_spacing_and_optional_semicolons() {
        let board = &FFO1[..66];
        let a = parse_obf_line(&format!("{board};g8: 18 ;h1:+12")).unwrap();
        assert_eq!(
            a.scores,
            vec![("g8".parse().unwrap(), 18), ("h1".parse().unwrap(), 12)]
        );
        assert!(parse_obf_line(board).unwrap().scores.is_empty());
        assert!(
            parse_obf_line(&format!("{board};  "))
                .unwrap()
                .scores
                .is_empty()
        );
    }

    #[test]
    fn pass_is_accepted_when_forced() {
        let pos = format!("XO{} O", "-".repeat(62));
        let e = parse_obf_line(&format!("{pos}; PA:-3;")).unwrap();
        assert_eq!(e.scores, vec![(Move::Pass, -3)]);
        assert_eq!(e.to_string(), format!("{pos}; PA:-3;"));
    }

    #[test]
    fn file_skips_comments_and_numbers_lines() {
        let text = format!("% FFO\n\n{FFO1}\r\n   \n  % more\n{FFO2}\n");
        let entries = parse_obf(&text).unwrap();
        assert_eq!(
            entries.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
            vec![3, 6]
        );
        let bad = format!("{FFO1}\n% c\n{}", FFO2.replace("A7:", "A7;"));
        let e = parse_obf(&bad).unwrap_err();
        assert_eq!(e.line, Some(3));
        assert!(e.to_string().contains("at line 3, column"), "{e}");
    }

    #[test]
    fn errors_name_the_text() {
        let board = &FFO1[..66];
        let cases = [
            (
                format!("{board} G8:+18;"),
                "expected ';' after the side to move, found 'G'",
            ),
            (format!("{board}; Z9:+18;"), "'Z9' is not a move"),
            (format!("{board}; A1:+18;"), "scored move 'A1' is illegal"),
            (format!("{board}; G8:+99;"), "'+99' is not a score"),
            (format!("{board}; G8:;"), "'' is not a score"),
            (
                format!("{board}; G8 +18;"),
                "expected ':' after 'G8', found '+'",
            ),
            (
                format!("{board}; G8"),
                "expected ':' after 'G8', found the end",
            ),
            (
                format!("{board}; G8:+18 H1:+12;"),
                "expected ';' after '+18', found 'H'",
            ),
            (format!("{board}; G8:+1é;"), "'+1é' is not a score"),
        ];
        for (line, want) in cases {
            let e = parse_obf_line(&line).unwrap_err();
            assert!(e.to_string().contains(want), "{line}: {e}");
        }
    }

    #[test]
    fn an_edax_pass_entry_beside_moves_is_skipped() {
        let board = &FFO1[..66];
        let e = parse_obf_line(&format!("{board}; G8:+18; --:-127; H1:+12;")).unwrap();
        let squares: Vec<String> = e.scores.iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(squares, ["g8", "h1"]);
        assert_eq!(e.scores[1].1, 12);
        let e = parse_obf_line(&format!("{board}; PA:-127")).unwrap();
        assert!(e.scores.is_empty());
        // Still a number, and the other moves' scores still in range.
        let e = parse_obf_line(&format!("{board}; --:x;")).unwrap_err();
        assert!(e.to_string().contains("'x' is not a score"), "{e}");
        assert!(parse_obf_line(&format!("{board}; --:-127; G8:-127;")).is_err());
    }
}
