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
//! view of Reversi); [`VariantPosition`] adds the colour to move, for the
//! formats and protocols. The search sees every rule set through
//! [`rules::Rules`].

pub mod game;
pub mod perft;
mod sets;

pub(crate) use sets::with_rules;
pub use sets::{Anti, Othello, Reversi, Rules};

use crate::board::bitboard::Squares;
use crate::board::movegen::Dispatch;
use crate::board::{Board, Color, IllegalMove, Move, Position, Square};
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
    pub fn start(self) -> VariantPosition {
        match self {
            Variant::Reversi => VariantPosition {
                variant: self,
                position: Position {
                    board: Board::new(0, 0),
                    side: Color::Black,
                },
                discs_left: [REVERSI_DISCS; 2],
            },
            _ => VariantPosition::othello_like(self, Position::START),
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

/// A position under a variant with the colour to move: what the formats and the
/// protocols hold.
///
/// As text (for Reversi): a board string, optionally followed by the discs
/// Black and White have left ([`split_discs_left`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VariantPosition {
    /// The rules.
    pub variant: Variant,
    /// The discs and the side to move.
    pub position: Position,
    /// Discs left to place, Black's then White's ([`UNLIMITED`] outside Reversi).
    pub discs_left: [u8; 2],
}

impl From<Position> for VariantPosition {
    /// `position` under Othello's rules.
    fn from(position: Position) -> VariantPosition {
        VariantPosition::othello_like(Variant::Othello, position)
    }
}

impl VariantPosition {
    /// `position` under `variant`, with the discs each side has left (Black's,
    /// White's), which only historical Reversi has (without them, no pass is
    /// assumed so far: see [`VariantPosition::reversi`]); `None` when the
    /// position is not one of that variant.
    pub fn under(
        variant: Variant,
        position: Position,
        discs_left: Option<[u8; 2]>,
    ) -> Option<VariantPosition> {
        match variant {
            Variant::Reversi => VariantPosition::reversi(position, discs_left),
            _ if discs_left.is_some() => None,
            v => Some(VariantPosition::othello_like(v, position)),
        }
    }

    /// `position` under Othello-like rules (no disc limit).
    pub fn othello_like(variant: Variant, position: Position) -> VariantPosition {
        VariantPosition {
            variant,
            position,
            discs_left: [UNLIMITED; 2],
        }
    }

    /// A Reversi position from its discs and the discs left to place (Black's,
    /// White's). Without `discs_left`, no pass is assumed so far: Black has placed
    /// the larger half of the discs on the board. `None` when the counts do not
    /// add up to the empties, exceed 32, or the centre is not filled after the
    /// opening.
    pub fn reversi(position: Position, discs_left: Option<[u8; 2]>) -> Option<VariantPosition> {
        let empties = position.board.empties() as u8;
        let left = discs_left.unwrap_or_else(|| {
            // Without passes Black has placed ceil(n/2) and White floor(n/2).
            let placed = 64 - empties;
            [
                REVERSI_DISCS - placed.div_ceil(2),
                REVERSI_DISCS - placed / 2,
            ]
        });
        let valid = left.iter().all(|&n| n <= REVERSI_DISCS)
            && u32::from(left[0]) + u32::from(left[1]) == u32::from(empties)
            && (position.board.empties() > 60
                || (position.black() | position.white()) & CENTRE == CENTRE);
        valid.then_some(VariantPosition {
            variant: Variant::Reversi,
            position,
            discs_left: left,
        })
    }

    /// The side-relative state.
    pub fn state(&self) -> State {
        let [black, white] = self.discs_left;
        let left = match self.position.side {
            Color::Black => [black, white],
            Color::White => [white, black],
        };
        State {
            board: self.position.board,
            left,
        }
    }

    /// The position of `state` (side-relative) with `side` to move: the
    /// inverse of [`state`](Self::state).
    fn from_state(variant: Variant, side: Color, state: State) -> VariantPosition {
        let [mover, other] = state.left;
        VariantPosition {
            variant,
            position: Position {
                board: state.board,
                side,
            },
            discs_left: match side {
                Color::Black => [mover, other],
                Color::White => [other, mover],
            },
        }
    }

    /// The moves of the side to move as a list, `[Pass]` when it must pass,
    /// empty when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let m = self.moves();
        if m != 0 {
            Squares(m).filter_map(Square::new).map(Move::Play).collect()
        } else if self.is_game_over() {
            Vec::new()
        } else {
            vec![Move::Pass]
        }
    }

    /// Whether neither side can move.
    pub fn is_game_over(&self) -> bool {
        with_rules!(self.variant, R => game_over::<R>(&R::position(self)))
    }

    /// The legal moves of the side to move as a bitboard.
    pub fn moves(&self) -> u64 {
        with_rules!(self.variant, R => R::moves(Dispatch, &R::position(self)))
    }

    /// Whether the side to move has no move but the opponent has one.
    pub fn must_pass(&self) -> bool {
        self.moves() == 0 && !self.is_game_over()
    }

    /// The position after `mv`, or why it is illegal (any move in a finished
    /// game is [`IllegalMove::GameOver`]).
    pub fn play(&self, mv: Move) -> Result<VariantPosition, IllegalMove> {
        with_rules!(self.variant, R => self.play_under::<R>(mv))
    }

    /// [`play`](Self::play) under the rules `R` (this position's).
    fn play_under<R: Rules>(&self, mv: Move) -> Result<VariantPosition, IllegalMove> {
        let p = R::position(self);
        if game_over::<R>(&p) {
            return Err(IllegalMove::GameOver);
        }
        let moves = R::moves(Dispatch, &p);
        let next = match mv {
            Move::Pass if moves != 0 => return Err(IllegalMove::PassWithMoves),
            Move::Pass => R::pass(&p),
            Move::Play(sq) if moves & sq.bit() != 0 => {
                R::make(&p, sq.index(), R::flips(Dispatch, &p, sq.index()))
            }
            Move::Play(sq) if R::board(&p).empty() & sq.bit() == 0 => {
                return Err(IllegalMove::Occupied(sq));
            }
            Move::Play(sq) => return Err(R::refusal(&p, sq)),
        };
        let side = self.position.side.opposite();
        Ok(VariantPosition::from_state(
            self.variant,
            side,
            R::state(&next),
        ))
    }

    /// The final score of a finished game for the side to move.
    pub fn final_score(&self) -> i32 {
        with_rules!(self.variant, R => R::final_score(&R::position(self)))
    }

    /// The final score from Black's point of view.
    pub fn final_score_black(&self) -> i32 {
        let s = self.final_score();
        match self.position.side {
            Color::Black => s,
            Color::White => -s,
        }
    }
}

/// Whether neither side can move in `p` under the rules `R`.
fn game_over<R: Rules>(p: &R::Pos) -> bool {
    R::moves(Dispatch, p) == 0 && R::moves(Dispatch, &R::pass(p)) == 0
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
        assert!(VariantPosition::reversi(p, Some([30, 31])).is_none());
        assert!(VariantPosition::reversi(p, Some([32, 32])).is_some());
    }
}
