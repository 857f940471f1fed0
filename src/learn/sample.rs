//! The training-data line format: one labelled position per line.
//!
//! ```text
//! ---------------------------OX------XO--------------------------- X 4 game 17
//! ```
//!
//! Five fields separated by single spaces: the 64 squares a1..h8 (`X` Black, `O`
//! White, `-` empty), the side to move (`X` or `O`), the label (the final disc
//! difference for the side to move, in whole discs, empties to the winner), how
//! the label was found ([`LabelKind`]) and the number of the game the position
//! comes from (game numbers are global over every shard, so shards concatenate).

use crate::board::{Board, Position};
use crate::format::{parse_board_prefix, write_board_string};
use std::fmt;

/// How a position's label was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelKind {
    /// An exact solve: the position's true minimax value.
    Exact,
    /// The final result of the self-play game the position was played in (its
    /// last part solved exactly, the moves before it by a midgame search).
    Game,
}

impl LabelKind {
    /// The word written in the file.
    pub const fn name(self) -> &'static str {
        match self {
            LabelKind::Exact => "exact",
            LabelKind::Game => "game",
        }
    }
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position, with the side to move.
    pub position: Position,
    /// The final disc difference for the side to move.
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

/// Reads one line of the format; the message says what is wrong.
pub fn parse_sample(line: &str) -> Result<Sample, String> {
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
        other => return Err(format!("'{other}' is not a label kind (exact or game)")),
    };
    let game_text = next("game number")?;
    let game = game_text
        .parse()
        .map_err(|_| format!("'{game_text}' is not a game number"))?;
    if let Some(extra) = fields.next() {
        return Err(format!("unexpected '{extra}' after the game number"));
    }
    Ok(Sample {
        position,
        label,
        kind,
        game,
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
        let line = s.to_string();
        assert_eq!(
            line,
            "---------------------------OX------XO--------------------------- X -4 exact 123"
        );
        assert_eq!(parse_sample(&line), Ok(s));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let board = "---------------------------OX------XO--------------------------- X";
        assert!(parse_sample(&format!("{board} 99 game 1")).is_err());
        assert!(parse_sample(&format!("{board} 2 guess 1")).is_err());
        assert!(parse_sample(&format!("{board} 2 game")).is_err());
        assert!(parse_sample(&format!("{board} 2 game 1 x")).is_err());
        assert!(parse_sample("X 2 game 1").is_err());
    }
}
