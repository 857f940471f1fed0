//! Positions up to the 8 symmetries of the board: the book stores each
//! position once, in its canonical orientation, with its moves' squares turned
//! the same way.

use crate::board::bitboard::symmetry;
use crate::board::{Board, Square};

/// A position's key in the book: the side-to-move-relative discs (mover's,
/// then the opponent's) in the orientation whose pair is smallest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// The mover's discs.
    pub player: u64,
    /// The opponent's discs.
    pub opponent: u64,
}

impl Key {
    /// The board these discs make, the mover's first.
    pub const fn board(self) -> Board {
        Board::new(self.player, self.opponent)
    }
}

/// A board in its canonical orientation, and the symmetry that turned it so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Oriented {
    /// The canonical discs.
    pub key: Key,
    /// The symmetry (0..8, see [`symmetry`]) from the board to the key.
    pub turn: u8,
}

/// The canonical orientation of `board`.
pub fn canonical(board: &Board) -> Oriented {
    let mut best = Oriented {
        key: Key {
            player: board.player,
            opponent: board.opponent,
        },
        turn: 0,
    };
    for s in 1..8 {
        let key = Key {
            player: symmetry(board.player, s),
            opponent: symmetry(board.opponent, s),
        };
        if key < best.key {
            best = Oriented { key, turn: s };
        }
    }
    best
}

/// A bitboard with no symmetry, to find inverses by.
const ASYMMETRIC: u64 = 0x0000_0000_0000_0106;

/// The symmetry that undoes symmetry `s`.
pub fn inverse(s: u8) -> u8 {
    (0..8)
        .find(|&t| symmetry(symmetry(ASYMMETRIC, s), t) == ASYMMETRIC)
        .expect("every symmetry of the square has an inverse")
}

/// `sq` turned by symmetry `s`.
pub fn turn_square(sq: Square, s: u8) -> Square {
    let bit = symmetry(sq.bit(), s);
    Square::new(bit.trailing_zeros() as u8).expect("a symmetry maps a square to a square")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_orientation_of_a_board_has_one_key() {
        let b = Board::new(0x0000_0010_1800_0000, 0x0000_0008_0400_2000);
        let c = canonical(&b);
        for s in 0..8 {
            let turned = Board::new(symmetry(b.player, s), symmetry(b.opponent, s));
            assert_eq!(canonical(&turned).key, c.key, "symmetry {s}");
        }
        assert_eq!(
            Board::new(symmetry(b.player, c.turn), symmetry(b.opponent, c.turn)),
            c.key.board()
        );
    }

    #[test]
    fn inverses_undo_and_squares_turn_back() {
        for s in 0..8 {
            let t = inverse(s);
            for i in 0..64 {
                let sq = Square::new(i).unwrap();
                assert_eq!(turn_square(turn_square(sq, s), t), sq, "symmetry {s}");
            }
        }
    }
}
