//! The training-data line format: one labelled position per line.
//!
//! ```text
//! ---------------------------OX------XO--------------------------- X 4 game 17
//! ```
//!
//! Five fields separated by single spaces: the 64 squares a1..h8 (`X` Black, `O`
//! White, `-` empty), the side to move (`X` or `O`), the label (the disc
//! difference for the side to move, in whole discs, empties to the winner), how
//! the label was found ([`LabelKind`]: an exact solve, the game's final result,
//! or a midgame search's score) and the number of the game the position comes
//! from (game numbers are global over every shard, so shards concatenate).
//!
//! A position of an Anti-Reversi game has a sixth field, `anti`, and its label is
//! the Anti-Reversi margin for the side to move: the opponent's discs minus its
//! own at the end (empties count for nobody). Othello lines have no sixth field,
//! so that the two kinds can never be mistaken for one another.
//!
//! ```text
//! ---------------------------OX------XO--------------------------- X -2 exact 9 anti
//! ```

use crate::board::Board;
use crate::format::{parse_board_prefix, write_board_string};
use crate::rules::Position;
use crate::rules::Variant;
use std::fmt;

/// How a position's label was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelKind {
    /// An exact solve: the position's true minimax value.
    Exact,
    /// The final result of the self-play game the position was played in (its
    /// last part solved exactly, the moves before it by a midgame search).
    Game,
    /// The score of a midgame search of the position itself (`mollett relabel`),
    /// rounded to whole discs.
    Search,
}

impl LabelKind {
    /// The word written in the file.
    pub const fn name(self) -> &'static str {
        match self {
            LabelKind::Exact => "exact",
            LabelKind::Game => "game",
            LabelKind::Search => "search",
        }
    }
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position, with the side to move.
    pub position: Position,
    /// The disc difference for the side to move (see [`LabelKind`]).
    pub label: i32,
    /// How the label was found.
    pub kind: LabelKind,
    /// The game it comes from.
    pub game: u64,
}

impl Sample {
    /// The board from the side to move.
    pub fn board(&self) -> Board {
        self.position.board
    }
}

impl fmt::Display for Sample {
    /// The sample as an Othello line (no rules field).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}",
            write_board_string(&self.position),
            self.label,
            self.kind.name(),
            self.game
        )
    }
}

/// One line of the format: a sample and the rules its game was played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// The labelled position.
    pub sample: Sample,
    /// The rules the game was played and scored under: Othello or Anti-Reversi; historical Reversi, which shares Othello's
    /// weights ([`Variant::weights_variant`]), counts as Othello.
    pub rules: Variant,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.sample)?;
        match self.rules {
            Variant::Othello | Variant::Reversi => Ok(()),
            Variant::Anti => f.write_str(" anti"),
        }
    }
}

/// Reads one line of the format; the message says what is wrong.
pub fn parse_line(line: &str) -> Result<Line, String> {
    let (position, used) = parse_board_prefix(line).map_err(|e| e.to_string())?;
    let mut fields = line[used..].split_ascii_whitespace();
    let mut next = |what: &str| {
        fields
            .next()
            .ok_or_else(|| format!("the {what} is missing"))
    };
    let label_text = next("label")?;
    let label: i32 = label_text
        .parse()
        .ok()
        .filter(|v: &i32| v.abs() <= 64)
        .ok_or_else(|| format!("'{label_text}' is not a disc difference (-64..=64)"))?;
    let kind = match next("label kind")? {
        "exact" => LabelKind::Exact,
        "game" => LabelKind::Game,
        "search" => LabelKind::Search,
        other => {
            return Err(format!(
                "'{other}' is not a label kind (exact, game or search)"
            ));
        }
    };
    let game_text = next("game number")?;
    let game = game_text
        .parse()
        .map_err(|_| format!("'{game_text}' is not a game number"))?;
    let rules = match fields.next() {
        None => Variant::Othello,
        Some("anti") => Variant::Anti,
        Some(extra) => {
            return Err(format!(
                "unexpected '{extra}' after the game number (only 'anti' may follow)"
            ));
        }
    };
    if let Some(extra) = fields.next() {
        return Err(format!("unexpected '{extra}' after the rules"));
    }
    Ok(Line {
        sample: Sample {
            position,
            label,
            kind,
            game,
        },
        rules,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_round_trips() {
        let s = Sample {
            position: Position::START,
            label: -4,
            kind: LabelKind::Exact,
            game: 123,
        };
        let line = Line {
            sample: s,
            rules: Variant::Othello,
        };
        let text = line.to_string();
        assert_eq!(
            text,
            "---------------------------OX------XO--------------------------- X -4 exact 123"
        );
        assert_eq!(text, s.to_string());
        assert_eq!(parse_line(&text), Ok(line));
        let anti = Line {
            rules: Variant::Anti,
            ..line
        };
        let text = anti.to_string();
        assert!(text.ends_with(" -4 exact 123 anti"), "{text}");
        assert_eq!(parse_line(&text), Ok(anti));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let board = "---------------------------OX------XO--------------------------- X";
        assert!(parse_line(&format!("{board} 99 game 1")).is_err());
        assert!(parse_line(&format!("{board} 2 guess 1")).is_err());
        assert!(parse_line(&format!("{board} 2 game")).is_err());
        assert!(parse_line(&format!("{board} 2 game 1 x")).is_err());
        assert!(parse_line(&format!("{board} 2 game 1 anti x")).is_err());
        assert!(parse_line(&format!("{board} 2 game 1 othello")).is_err());
        assert!(parse_line("X 2 game 1").is_err());
    }
}
