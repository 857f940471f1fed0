//! Perft under any rule set: the same counting rule as [`crate::perft`] (a pass
//! is a ply; a finished game reached early is one leaf), over [`Rules`]. Rule
//! sets with Othello's moves count with Othello's specialised perft.

use super::VariantPosition;
use super::rules::{Rules, with_rules};
use crate::board::bitboard::Squares;
use crate::board::movegen::Dispatch;
use rayon::prelude::*;

/// Counts the leaves `depth` plies below `pos` under its variant's rules,
/// sharing the root's moves over rayon's pool.
pub fn perft_position(pos: &VariantPosition, depth: u32) -> u64 {
    with_rules!(pos.variant, R => perft_parallel::<R>(R::position(pos), depth))
}

/// Counts the leaves `depth` plies below `p` under the rules `R`, on the
/// calling thread.
pub fn perft<R: Rules>(p: R::Pos, depth: u32) -> u64 {
    if R::OTHELLO_MOVES {
        return crate::perft::perft(*R::board(&p), depth);
    }
    if depth == 0 {
        return 1;
    }
    let moves = R::moves(Dispatch, &p);
    if moves == 0 {
        let passed = R::pass(&p);
        if R::moves(Dispatch, &passed) == 0 {
            return 1;
        }
        return perft::<R>(passed, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    Squares(moves)
        .map(|sq| perft::<R>(R::make(&p, sq, R::flips(Dispatch, &p, sq)), depth - 1))
        .sum()
}

/// [`perft`] with the root's moves shared over rayon's pool.
pub fn perft_parallel<R: Rules>(p: R::Pos, depth: u32) -> u64 {
    if R::OTHELLO_MOVES {
        return crate::perft::perft_parallel(*R::board(&p), depth);
    }
    let moves = R::moves(Dispatch, &p);
    if depth < 3 || moves == 0 {
        return perft::<R>(p, depth);
    }
    Squares(moves)
        .collect::<Vec<u8>>()
        .into_par_iter()
        .map(|sq| perft::<R>(R::make(&p, sq, R::flips(Dispatch, &p, sq)), depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;
    use crate::variant::rules::Reversi;

    #[test]
    fn othello_and_anti_count_as_othello() {
        let want = [1, 4, 12, 56, 244, 1396, 8200, 55092];
        for v in [Variant::Othello, Variant::Anti] {
            for (d, &n) in want.iter().enumerate() {
                assert_eq!(perft_position(&v.start(), d as u32), n, "{v} depth {d}");
            }
        }
    }

    #[test]
    fn reversi_opening_is_every_order_of_the_centre() {
        let s = Variant::Reversi.start().state();
        // 4 squares, then 3, 2, 1: 24 orders of the four placements.
        assert_eq!(perft::<Reversi>(s, 1), 4);
        assert_eq!(perft::<Reversi>(s, 2), 12);
        assert_eq!(perft::<Reversi>(s, 3), 24);
        assert_eq!(perft::<Reversi>(s, 4), 24);
        assert_eq!(
            perft_position(&Variant::Reversi.start(), 7),
            perft::<Reversi>(s, 7)
        );
    }
}
