//! The one coloured position: the discs, the colour to move, the rule set and
//! the discs each side has left to place. The formats, the protocols, the game
//! record and the engine all hold this; the search sees it through
//! [`Position::view`] (a side-relative [`Board`] or
//! [`State`]).
//!
//! As text (see `format::position`): a board string, for historical Reversi
//! optionally followed by the discs Black and White have left
//! ([`split_discs_left`](super::split_discs_left)).

use super::sets::with_rules;
use super::{CENTRE, REVERSI_DISCS, Rules, State, UNLIMITED, Variant};
use crate::board::bitboard::Squares;
use crate::board::movegen::Dispatch;
use crate::board::{Board, Color, IllegalMove, Move, Square};

/// A position under a rule set with the colour to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The discs, relative to `side`.
    pub board: Board,
    /// Who is to move.
    pub side: Color,
    /// The rules.
    pub variant: Variant,
    /// Discs left to place, Black's then White's ([`UNLIMITED`] outside
    /// historical Reversi).
    pub discs_left: [u8; 2],
}

impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}

impl Position {
    /// The Othello start, Black to move.
    pub const START: Position = Position::new(Board::START, Color::Black);

    /// `board` with `side` to move under Othello's rules.
    pub const fn new(board: Board, side: Color) -> Position {
        Position {
            board,
            side,
            variant: Variant::Othello,
            discs_left: [UNLIMITED; 2],
        }
    }

    /// An Othello position from Black's and White's discs; `None` if they overlap.
    pub fn from_colors(black: u64, white: u64, side: Color) -> Option<Position> {
        if black & white != 0 {
            return None;
        }
        let board = match side {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        Some(Position::new(board, side))
    }

    /// Black's discs.
    pub fn black(&self) -> u64 {
        match self.side {
            Color::Black => self.board.player,
            Color::White => self.board.opponent,
        }
    }

    /// White's discs.
    pub fn white(&self) -> u64 {
        match self.side {
            Color::Black => self.board.opponent,
            Color::White => self.board.player,
        }
    }

    /// These discs and side to move under `variant`, with the discs each side has
    /// left (Black's, White's), which only historical Reversi has (without them,
    /// no pass is assumed so far: see [`Position::reversi`]); `None` when the
    /// position is not one of that variant.
    pub fn under(self, variant: Variant, discs_left: Option<[u8; 2]>) -> Option<Position> {
        match variant {
            Variant::Reversi => self.reversi(discs_left),
            _ if discs_left.is_some() => None,
            v => Some(self.othello_like(v)),
        }
    }

    /// These discs and side to move under Othello-like rules (no disc limit).
    pub fn othello_like(self, variant: Variant) -> Position {
        Position {
            variant,
            discs_left: [UNLIMITED; 2],
            ..self
        }
    }

    /// These discs under historical Reversi, with the discs left to place
    /// (Black's, White's). Without `discs_left`, no pass is assumed so far: Black
    /// has placed the larger half of the discs on the board. `None` when the
    /// counts do not add up to the empties, exceed 32, or the centre is not filled
    /// after the opening.
    pub fn reversi(self, discs_left: Option<[u8; 2]>) -> Option<Position> {
        let empties = self.board.empties() as u8;
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
            && (self.board.empties() > 60 || (self.black() | self.white()) & CENTRE == CENTRE);
        valid.then_some(Position {
            variant: Variant::Reversi,
            discs_left: left,
            ..self
        })
    }

    /// The side-relative state.
    pub fn state(&self) -> State {
        let [black, white] = self.discs_left;
        let left = match self.side {
            Color::Black => [black, white],
            Color::White => [white, black],
        };
        State {
            board: self.board,
            left,
        }
    }

    /// The search's view of this position under the rules `R` (which must be
    /// its own): a side-relative [`Board`] or [`State`].
    pub fn view<R: Rules>(&self) -> R::Pos {
        R::from_state(self.state())
    }

    /// The position of `state` (side-relative) with `side` to move: the
    /// inverse of [`state`](Self::state).
    fn from_state(variant: Variant, side: Color, state: State) -> Position {
        let [mover, other] = state.left;
        Position {
            board: state.board,
            side,
            variant,
            discs_left: match side {
                Color::Black => [mover, other],
                Color::White => [other, mover],
            },
        }
    }

    /// The moves of the side to move as a list, squares in index order, `[Pass]`
    /// when it must pass, empty when the game is over.
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
        with_rules!(self.variant, R => game_over::<R>(&self.view::<R>()))
    }

    /// The legal moves of the side to move as a bitboard.
    pub fn moves(&self) -> u64 {
        with_rules!(self.variant, R => R::moves(Dispatch, &self.view::<R>()))
    }

    /// Whether the side to move has no move but the opponent has one.
    pub fn must_pass(&self) -> bool {
        self.moves() == 0 && !self.is_game_over()
    }

    /// The position after `mv`, or why it is illegal (any move in a finished
    /// game is [`IllegalMove::GameOver`]; a pass only when the side to move has
    /// no move).
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        with_rules!(self.variant, R => self.play_under::<R>(mv))
    }

    /// [`play`](Self::play) under the rules `R` (this position's).
    fn play_under<R: Rules>(&self, mv: Move) -> Result<Position, IllegalMove> {
        let p = self.view::<R>();
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
        Ok(Position::from_state(
            self.variant,
            self.side.opposite(),
            R::state(&next),
        ))
    }

    /// The final score of a finished game for the side to move.
    pub fn final_score(&self) -> i32 {
        with_rules!(self.variant, R => R::final_score(&self.view::<R>()))
    }

    /// The final score from Black's point of view.
    pub fn final_score_black(&self) -> i32 {
        let s = self.final_score();
        match self.side {
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

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn othello_moves_errors_and_the_end() {
        let p = Position::START;
        assert_eq!(p.legal_moves().len(), 4);
        let after = p.play(mv("f5")).unwrap();
        assert_eq!(after.side, Color::White);
        assert_eq!(
            (after.black().count_ones(), after.white().count_ones()),
            (4, 1)
        );
        assert_eq!(
            p.play(mv("d4")),
            Err(IllegalMove::Occupied(mv("d4").square().unwrap()))
        );
        assert_eq!(
            p.play(mv("a1")),
            Err(IllegalMove::NoFlips(mv("a1").square().unwrap()))
        );
        assert_eq!(p.play(Move::Pass), Err(IllegalMove::PassWithMoves));
        let over = Position::from_colors(1, 0, Color::White).unwrap();
        assert!(over.legal_moves().is_empty());
        assert_eq!(over.play(Move::Pass), Err(IllegalMove::GameOver));
        assert_eq!(over.final_score_black(), 64);
    }

    #[test]
    fn the_same_discs_under_each_rule_set() {
        let p = Position::START;
        assert_eq!(p.under(Variant::Anti, None).unwrap().variant, Variant::Anti);
        assert_eq!(p.under(Variant::Othello, Some([30, 30])), None);
        let r = p.under(Variant::Reversi, None).unwrap();
        assert_eq!(r.discs_left, [30, 30]);
        assert_eq!(r.state().left, [30, 30]);
        let after = r.play(mv("f5")).unwrap();
        assert_eq!((after.discs_left, after.side), ([29, 30], Color::White));
        assert_eq!(after.state().left, [30, 29]);
    }
}
