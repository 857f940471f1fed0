//! Move ordering: the table's move, then fastest-first (the fewest replies for the
//! opponent), with corners and the squares next to empty corners adjusted; or,
//! where the subtrees are large, by a key the caller computes from each child
//! (the midgame's evaluation).

use super::RuleSearch;
use super::params::{
    MIDGAME_EVAL_ORDER_MIN_DEPTH, MIDGAME_EVAL_ORDER_REPLY_WEIGHT, ORDER_CORNER_BONUS,
    ORDER_MOBILITY_WEIGHT, ORDER_X_SQUARE_PENALTY,
};
use super::stack::Stack;
use crate::board::MAX_MOVES;
use crate::board::bitboard::{CORNERS, Squares};
use crate::board::movegen::{Dispatch, Kernel};
use crate::eval::EvalKind;
use crate::rules::Rules;

/// b2, g2, b7, g7: the squares diagonal to a corner.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The X-squares whose corner is still empty.
#[inline(always)]
fn open_x_squares(empty: u64) -> u64 {
    let c = empty & CORNERS;
    // a1→b2 (+9), h1→g2 (+7), a8→b7 (-7), h8→g7 (-9).
    X_SQUARES
        & (((c & 1) << 9) | ((c & 0x80) << 7) | ((c >> 7) & (1 << 49)) | ((c >> 9) & (1 << 54)))
}

/// Up to [`MAX_MOVES`] moves with their flips, in the order to try them.
pub struct MoveList {
    moves: Stack<(u8, u64), MAX_MOVES>,
    /// Each move's key, higher first.
    keys: Stack<i32, MAX_MOVES>,
}

impl MoveList {
    fn new() -> Self {
        MoveList {
            moves: Stack::new(),
            keys: Stack::new(),
        }
    }

    /// The moves as `(square, flips)`, best first.
    #[inline(always)]
    pub fn as_slice(&self) -> &[(u8, u64)] {
        self.moves.as_slice()
    }

    /// Inserts the move to `sq` flipping `flips` by its `key` (higher first,
    /// earlier first among equals): an insertion sort, as lists are short
    /// (about 10 moves).
    #[inline(always)]
    fn insert(&mut self, sq: u8, flips: u64, key: i32) {
        self.keys.push(key);
        self.moves.push((sq, flips));
        let (keys, moves) = (self.keys.as_mut_slice(), self.moves.as_mut_slice());
        let mut i = moves.len() - 1;
        while i > 0 && keys[i - 1] < key {
            keys[i] = keys[i - 1];
            moves[i] = moves[i - 1];
            i -= 1;
        }
        keys[i] = key;
        moves[i] = (sq, flips);
    }
}

/// Orders the legal `moves` of `pos` under the rules `R`: `tt_move` first;
/// then, from `depth` 2 up, by the opponent's reply count (fewer first), corners
/// first and open X-squares last; at depth 1, by the static square adjustments
/// only.
#[inline(always)]
pub fn order_moves<R: Rules>(pos: &R::Pos, moves: u64, tt_move: u8, depth: u32) -> MoveList {
    order_moves_with::<Dispatch, R>(Dispatch, pos, moves, tt_move, depth)
}

/// [`order_moves`] with the move generator `k`.
#[inline(always)]
pub fn order_moves_with<K: Kernel, R: Rules>(
    k: K,
    pos: &R::Pos,
    moves: u64,
    tt_move: u8,
    depth: u32,
) -> MoveList {
    let mut list = MoveList::new();
    let open_x = open_x_squares(R::board(pos).empty());
    for sq in Squares(moves) {
        let f = R::flips(k, pos, sq);
        let bit = 1u64 << sq;
        let mut key = 0;
        if sq == tt_move {
            key = i32::MAX;
        } else {
            if depth >= 2 {
                let child = R::make(pos, sq, f);
                let replies = R::moves(k, &child);
                key -= ORDER_MOBILITY_WEIGHT
                    * (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
            }
            if bit & CORNERS != 0 {
                key += ORDER_CORNER_BONUS;
            }
            if bit & open_x != 0 {
                key -= ORDER_X_SQUARE_PENALTY;
            }
        }
        list.insert(sq, f, key);
    }
    list
}

/// Orders the legal `moves` of `pos` under the rules `R`: `tt_move` first,
/// then the others by `key(child, replies)` (higher first), where `child` is
/// the position after the move and `replies` the opponent's legal moves there.
#[inline(always)]
pub fn order_moves_by<K: Kernel, R: Rules>(
    k: K,
    pos: &R::Pos,
    moves: u64,
    tt_move: u8,
    mut key: impl FnMut(&R::Pos, u64) -> i32,
) -> MoveList {
    let mut list = MoveList::new();
    for sq in Squares(moves) {
        let f = R::flips(k, pos, sq);
        let k_sq = if sq == tt_move {
            i32::MAX
        } else {
            let child = R::make(pos, sq, f);
            key(&child, R::moves(k, &child))
        };
        list.insert(sq, f, k_sq);
    }
    list
}

/// The midgame's order for the legal `moves` of `pos`, a node `depth` plies
/// from the horizon: the table's move `tt_move` first; then, from
/// [`MIDGAME_EVAL_ORDER_MIN_DEPTH`] up, by the evaluation `eval` of the
/// position after each (each evaluation counted in `nodes`), fastest-first as
/// a tie-break; below it fastest-first alone ([`order_moves_with`]).
#[inline(always)]
pub fn order_midgame<K: Kernel, R: RuleSearch>(
    k: K,
    (eval, nodes): (EvalKind, &mut u64),
    pos: &R::Pos,
    (moves, tt_move): (u64, u8),
    depth: u32,
) -> MoveList {
    if depth < MIDGAME_EVAL_ORDER_MIN_DEPTH {
        return order_moves_with::<K, R>(k, pos, moves, tt_move, depth);
    }
    order_moves_by::<K, R>(k, pos, moves, tt_move, |child, replies| {
        *nodes += 1;
        -R::evaluate(eval, child) - MIDGAME_EVAL_ORDER_REPLY_WEIGHT * replies.count_ones() as i32
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rules::Othello;

    #[test]
    fn open_x_squares_follow_their_corners() {
        assert_eq!(open_x_squares(!0), X_SQUARES);
        assert_eq!(open_x_squares(!1), X_SQUARES & !(1 << 9));
        assert_eq!(open_x_squares(!(1u64 << 63)), X_SQUARES & !(1 << 54));
        assert_eq!(open_x_squares(!(1u64 << 56)), X_SQUARES & !(1 << 49));
        assert_eq!(open_x_squares(!(1u64 << 7)), X_SQUARES & !(1 << 14));
    }

    #[test]
    fn table_move_comes_first() {
        let b = Board::START;
        for sq in Squares(b.moves()) {
            let l = order_moves::<Othello>(&b, b.moves(), sq, 4);
            assert_eq!(l.as_slice()[0].0, sq);
            assert_eq!(l.as_slice().len(), 4);
        }
    }

    #[test]
    fn keyed_order_puts_the_table_move_first_then_higher_keys() {
        let b = Board::START;
        // Key: the square played (the child's one newly filled square).
        let mut keyed = 0;
        let l =
            order_moves_by::<Dispatch, Othello>(Dispatch, &b, b.moves(), 37, |child, replies| {
                keyed += 1;
                assert_eq!(replies, child.moves());
                (b.empty() & !child.empty()).trailing_zeros() as i32
            });
        assert_eq!(keyed, 3, "the table move needs no key");
        let squares: Vec<u8> = l.as_slice().iter().map(|m| m.0).collect();
        assert_eq!(squares, [37, 44, 26, 19]);
        for &(sq, f) in l.as_slice() {
            assert_eq!(f, b.flips(sq));
        }
    }
}
