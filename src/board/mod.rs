//! The board and the rules of Othello.
//!
//! [`Board`] is the engine's view: two bitboards relative to the side to move,
//! `Copy`, 16 bytes, with copy-make moves whose flips are computed once as a mask.
//! `rules::Position` adds the colour to move and the rule set. Rules implemented
//! here:
//! - a move places a disc on an empty square and turns every straight run of
//!   opponent discs bounded by the new disc and a disc of the mover's, in all eight
//!   directions; nothing else turns (flips never cascade);
//! - a placement that turns nothing is not a move;
//! - a side with no move passes, and only then; the game ends when neither side can
//!   move;
//! - the final score is the disc difference with the empty squares given to the
//!   winner (the world-championship rule); a draw scores 0.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
pub mod bitboard;
pub mod lastflip;
pub mod movegen;
mod rays;
pub mod square;
pub mod stability;

use std::fmt;

pub use square::{BadSquare, Move, Square};

/// The most legal moves a position can have, for fixed-size move lists. Reachable
/// games stay far below it, but a position set up by hand (`setboard`, a GGF
/// `BO`) can offer a move on nearly every empty square; a list sized by the
/// squares can never overflow.
pub const MAX_MOVES: usize = 64;

/// A position seen from the side to move: `player` holds the mover's discs,
/// `opponent` the other side's. The two never overlap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the side not to move.
    pub opponent: u64,
}

const _: () = assert!(std::mem::size_of::<Board>() == 16);

impl Board {
    /// The Othello start, seen from Black (who moves first): d5 and e4 are the
    /// mover's, d4 and e5 the opponent's.
    pub const START: Board = Board {
        player: (1 << 28) | (1 << 35),
        opponent: (1 << 27) | (1 << 36),
    };

    /// A board from the mover's and the opponent's discs.
    pub const fn new(player: u64, opponent: u64) -> Board {
        Board { player, opponent }
    }

    /// The legal moves of the side to move as a bitboard.
    #[inline]
    pub fn moves(&self) -> u64 {
        movegen::moves(self.player, self.opponent)
    }

    /// The discs turned by playing `sq`; zero if `sq` is not a legal move.
    #[inline]
    pub fn flips(&self, sq: u8) -> u64 {
        movegen::flips(sq, self.player, self.opponent)
    }

    /// The position after the mover places on `sq` turning `flips` (as given by
    /// [`Board::flips`]), seen from the new side to move. No legality check.
    #[inline(always)]
    pub fn make(&self, sq: u8, flips: u64) -> Board {
        let next = Board {
            player: self.opponent ^ flips,
            opponent: self.player | flips | (1 << sq),
        };
        debug_assert!(
            self.is_move(sq, flips),
            "bad move {sq} {flips:#x} on {self:?}"
        );
        debug_assert_eq!(
            next.player.count_ones() + next.opponent.count_ones(),
            self.player.count_ones() + self.opponent.count_ones() + 1,
            "disc conservation"
        );
        debug_assert_eq!(next.player & next.opponent, 0);
        next
    }

    /// Debug-build check of a move given to [`Board::make`]: `sq` is empty and
    /// `flips` is a non-empty set of opponent discs.
    fn is_move(&self, sq: u8, flips: u64) -> bool {
        let empty = sq < 64 && (self.player | self.opponent) & (1 << sq) == 0;
        empty && flips != 0 && flips & !self.opponent == 0
    }

    /// The position after playing `sq`, or `None` if it is not a legal move.
    #[inline]
    pub fn play(&self, sq: Square) -> Option<Board> {
        if (self.player | self.opponent) & sq.bit() != 0 {
            return None;
        }
        let f = self.flips(sq.index());
        (f != 0).then(|| self.make(sq.index(), f))
    }

    /// The same discs with the other side to move (a pass).
    #[inline(always)]
    pub fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Whether the side to move has no move but the opponent has one.
    pub fn must_pass(&self) -> bool {
        self.moves() == 0 && self.pass().moves() != 0
    }

    /// Whether neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.pass().moves() == 0
    }

    /// The empty squares.
    #[inline]
    pub fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// How many squares are empty.
    #[inline]
    pub fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// The mover's discs minus the opponent's, empties not counted.
    #[inline]
    pub fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// The final score for the side to move of a finished game: the disc
    /// difference with every empty square given to the winner; a draw is 0.
    #[inline]
    pub fn final_score(&self) -> i32 {
        let d = self.disc_difference();
        let e = self.empties() as i32;
        match d.signum() {
            1 => d + e,
            -1 => d - e,
            _ => 0,
        }
    }

    /// A strong 64-bit hash of the position (both bitboards, side-relative), for the
    /// transposition table. Two rounds of the murmur3 finaliser, one per word.
    #[inline]
    pub fn hash(&self) -> u64 {
        fmix64(self.player ^ fmix64(self.opponent ^ 0x9e37_79b9_7f4a_7c15))
    }
}

/// The murmur3 64-bit finaliser: a bijection with full avalanche.
#[inline(always)]
const fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

/// A side: Black (Dark) moves first in Othello.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Dark, written `X` or `*`.
    Black,
    /// Light, written `O`.
    White,
}

impl Color {
    /// The other side.
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The board-string letter: `X` or `O`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The square already holds a disc.
    Occupied(Square),
    /// A disc there would turn nothing.
    NoFlips(Square),
    /// A pass was asked for while the side to move has a legal move.
    PassWithMoves,
    /// Neither side can move any more.
    GameOver,
    /// Historical Reversi: the first four discs go on the empty centre squares.
    OffCentre(Square),
    /// Historical Reversi: the side to move has placed all its discs.
    NoDiscsLeft,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::Occupied(sq) => write!(f, "illegal move {sq}: the square is taken"),
            IllegalMove::NoFlips(sq) => write!(f, "illegal move {sq}: it flips nothing"),
            IllegalMove::PassWithMoves => f.write_str("illegal pass: a legal move exists"),
            IllegalMove::GameOver => f.write_str("illegal move: the game is over"),
            IllegalMove::OffCentre(sq) => write!(
                f,
                "illegal move {sq}: the first four discs go on d4, e4, d5 and e5"
            ),
            IllegalMove::NoDiscsLeft => f.write_str("illegal move: no discs left to place"),
        }
    }
}

impl std::error::Error for IllegalMove {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_has_four_moves_and_f5_flips_e5() {
        let b = Board::START;
        assert_eq!(b.moves().count_ones(), 4);
        let f5: Square = "f5".parse().unwrap();
        let after = b.play(f5).unwrap();
        assert_eq!(after.opponent.count_ones(), 4);
        assert_eq!(after.player.count_ones(), 1);
        assert!(b.play("a1".parse().unwrap()).is_none());
    }

    #[test]
    fn hash_differs_by_side() {
        let b = Board::START;
        assert_ne!(b.hash(), b.pass().hash());
    }
}
