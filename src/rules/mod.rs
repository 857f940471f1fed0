//! Rule variants: modern Othello, the historical Reversi of 1880s England, and
//! Anti-Reversi.
//!
//! - **othello**: the standard game ([`crate::board`]): diagonal start, Black
//!   first, no limit on discs.
//! - **reversi**: the board starts empty. The first four moves go, alternately,
//!   on the empty centre squares d4, e4, d5, e5, in any order (so both the
//!   diagonal and the side-by-side starts happen) and turn nothing. From the
//!   fifth move on a move must turn discs, as in Othello. Each player has 32
//!   discs: one who has placed all 32 cannot move, and the other plays on alone;
//!   when neither can move the game ends. Scored as Othello (empties to the
//!   winner). Since the board starts empty and every move places one disc, the
//!   discs left always add up to the empty squares.
//! - **anti**: Othello's start and moves, but the fewer discs win: a side's score
//!   is the opponent's discs minus its own, and empty squares at an early end
//!   count for nobody.
//!
//! [`State`] is a side-relative position with the discs left (the search's
//! view of Reversi); [`Position`] adds the colour to move and the rule set, for
//! the formats, the protocols and the engine. The search sees every rule set through
//! [`rules::Rules`].

pub mod game;
pub mod perft;
mod position;
mod sets;

pub use position::Position;

pub(crate) use sets::with_rules;
pub use sets::{Anti, Othello, Reversi, Rules};

use crate::board::{Board, Color};
use std::fmt;
use std::str::FromStr;

/// The centre squares d4, e4, d5, e5: where historical Reversi's first four
/// discs go.
pub const CENTRE: u64 = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);

/// Discs each player has in historical Reversi.
pub const REVERSI_DISCS: u8 = 32;

/// A rule variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Modern Othello.
    #[default]
    Othello,
    /// Historical Reversi (empty start, free centre placements, 32 discs each).
    Reversi,
    /// Anti-Reversi: the fewer discs win.
    Anti,
}

impl Variant {
    /// Every variant, in the order the protocols list them.
    pub const ALL: [Variant; 3] = [Variant::Othello, Variant::Reversi, Variant::Anti];

    /// The variant's name on the command line and in the protocols.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Othello => "othello",
            Variant::Reversi => "reversi",
            Variant::Anti => "anti",
        }
    }

    /// The game's name in GTP (`set_game`, `list_games`,
    /// `gogui-rules_game_id`).
    pub const fn gtp_name(self) -> &'static str {
        match self {
            Variant::Othello => "Othello",
            Variant::Reversi => "Reversi",
            Variant::Anti => "Anti-Reversi",
        }
    }

    /// The start of a game.
    pub fn start(self) -> Position {
        match self {
            Variant::Reversi => Position {
                board: Board::new(0, 0),
                side: Color::Black,
                variant: self,
                discs_left: [REVERSI_DISCS; 2],
            },
            _ => Position::START.othello_like(self),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a variant (othello, reversi or anti)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s.to_ascii_lowercase().as_str() {
            "othello" => Ok(Variant::Othello),
            "reversi" => Ok(Variant::Reversi),
            "anti" | "anti-reversi" | "antireversi" => Ok(Variant::Anti),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// Splits the optional discs-left suffix off a historical Reversi board string:
/// `<64 squares> <side> <black left> <white left>` gives the board string and
/// `Some([black, white])`; a string without the two trailing numbers comes back
/// whole with `None` (a board string itself never ends in a digit).
pub fn split_discs_left(text: &str) -> (&str, Option<[u8; 2]>) {
    let t = text.trim_end();
    let mut words = t.rsplitn(3, char::is_whitespace);
    let (Some(w), Some(b), Some(rest)) = (words.next(), words.next(), words.next()) else {
        return (text, None);
    };
    match (b.parse::<u8>(), w.parse::<u8>()) {
        (Ok(b), Ok(w)) => (rest.trim_end(), Some([b, w])),
        _ => (text, None),
    }
}

/// Discs left to place where there is no limit (Othello, Anti-Reversi).
pub const UNLIMITED: u8 = u8::MAX;

/// A position under a variant, from the side to move: the discs, and the discs
/// each side has left to place (`[mover, opponent]`, [`UNLIMITED`] outside
/// historical Reversi).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The discs, side-relative.
    pub board: Board,
    /// Discs left to place: the mover's, then the opponent's.
    pub left: [u8; 2],
}

impl State {
    /// Whether historical Reversi's first four (centre, flipless) placements
    /// are still to come (meaningful under Reversi's rules only).
    #[inline]
    pub fn in_opening(&self) -> bool {
        (self.board.player | self.board.opponent).count_ones() < 4
    }

    /// The state after the mover places on `sq` turning `flips`; no legality check.
    #[inline]
    pub fn make(&self, sq: u8, flips: u64) -> State {
        let mover_left = match self.left[0] {
            UNLIMITED => UNLIMITED,
            n => n - 1,
        };
        State {
            board: self.board.make(sq, flips),
            left: [self.left[1], mover_left],
        }
    }

    /// The same discs with the other side to move.
    #[inline]
    pub fn pass(&self) -> State {
        State {
            board: self.board.pass(),
            left: [self.left[1], self.left[0]],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discs_left_suffix() {
        let board = format!("{} X", "-".repeat(64));
        assert_eq!(split_discs_left(&board), (board.as_str(), None));
        let with = format!("{board} 30 31");
        assert_eq!(split_discs_left(&with), (board.as_str(), Some([30, 31])));
        assert_eq!(split_discs_left("x 3"), ("x 3", None));
        assert_eq!(split_discs_left("a b 999"), ("a b 999", None));
        // The counts must add up to the empties.
        let p: Position = board.parse().unwrap();
        assert!(p.reversi(Some([30, 31])).is_none());
        assert!(p.reversi(Some([32, 32])).is_some());
    }
}
