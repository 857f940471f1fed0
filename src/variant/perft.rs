//! Perft under any variant: the same counting rule as [`crate::perft`] (a pass
//! is a ply; a finished game reached early is one leaf), over [`State`].

use super::{State, Variant};
use crate::board::bitboard::Squares;
use rayon::prelude::*;

/// Counts the leaves `depth` plies below `state` on the calling thread.
pub fn perft(variant: Variant, state: State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = state.moves(variant);
    if moves == 0 {
        let passed = state.pass();
        if passed.moves(variant) == 0 {
            return 1;
        }
        return perft(variant, passed, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    Squares(moves)
        .map(|sq| perft(variant, state.make(sq, state.flips(variant, sq)), depth - 1))
        .sum()
}

/// [`perft`] with the root's moves shared over rayon's pool.
pub fn perft_parallel(variant: Variant, state: State, depth: u32) -> u64 {
    let moves = state.moves(variant);
    if depth < 3 || moves == 0 {
        return perft(variant, state, depth);
    }
    Squares(moves)
        .collect::<Vec<u8>>()
        .into_par_iter()
        .map(|sq| perft(variant, state.make(sq, state.flips(variant, sq)), depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn othello_and_anti_count_as_othello() {
        let want = [1, 4, 12, 56, 244, 1396, 8200, 55092];
        for v in [Variant::Othello, Variant::Anti] {
            let s = v.start().state();
            for (d, &n) in want.iter().enumerate() {
                assert_eq!(perft(v, s, d as u32), n, "{v} depth {d}");
            }
        }
    }

    #[test]
    fn reversi_opening_is_every_order_of_the_centre() {
        let s = Variant::Reversi.start().state();
        // 4 squares, then 3, 2, 1: 24 orders of the four placements.
        assert_eq!(perft(Variant::Reversi, s, 1), 4);
        assert_eq!(perft(Variant::Reversi, s, 2), 12);
        assert_eq!(perft(Variant::Reversi, s, 3), 24);
        assert_eq!(perft(Variant::Reversi, s, 4), 24);
        assert_eq!(
            perft_parallel(Variant::Reversi, s, 7),
            perft(Variant::Reversi, s, 7)
        );
    }
}
