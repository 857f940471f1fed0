//! Perft: counting the leaves of the game tree to a fixed depth, under any rule
//! set ([`Rules`]).
//!
//! The rule (also in PROTOCOL.md): a pass is a ply, and a finished game reached
//! before the depth counts as one leaf. With it Othello's start position gives
//! the published counts 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288,
//! 24571284, 212258800, 1939886636 for depths 1 to 12.
//!
//! Rule sets with Othello's moves ([`Rules::OTHELLO_MOVES`]) count with
//! Othello's specialised perft: the last ply is counted in bulk (the population
//! count of the move mask), with one copy per instruction set, and the parallel
//! count splits the tree a few plies below the root over rayon's pool. The
//! other rule sets count through the [`Rules`] operations.

use super::Position;
use super::sets::{Rules, with_rules};
use crate::board::Board;
use crate::board::bitboard::Squares;
use crate::board::movegen::Dispatch;
use rayon::prelude::*;

/// Counts the leaves `depth` plies below `pos` under its variant's rules,
/// sharing the root's moves over rayon's pool.
pub fn perft_position(pos: &Position, depth: u32) -> u64 {
    with_rules!(pos.variant, R => perft_parallel::<R>(pos.view::<R>(), depth))
}

/// Counts the leaves `depth` plies below `p` under the rules `R`, on the
/// calling thread.
pub fn perft<R: Rules>(p: R::Pos, depth: u32) -> u64 {
    if R::OTHELLO_MOVES {
        return board_perft(*R::board(&p), depth);
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
        return board_perft_parallel(*R::board(&p), depth);
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

/// Leaves at one ply: the moves, or one for a pass or a finished game.
#[inline(always)]
fn leaves_at_one(b: &Board) -> u64 {
    (b.moves().count_ones() as u64).max(1)
}

/// Counts the leaves `depth` plies below `board` under Othello's moves, on
/// the calling thread.
fn board_perft(board: Board, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if crate::board::movegen::has_fast_kernel() {
        // SAFETY: the CPU supports every feature `perft_fast` is compiled for.
        return unsafe { perft_fast(board, depth) };
    }
    perft_plain(board, depth)
}

fn perft_plain(board: Board, depth: u32) -> u64 {
    perft_body(board, depth, perft_plain, leaves_at_two)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn perft_fast(board: Board, depth: u32) -> u64 {
    let two = |b: &Board| {
        let m = b.moves();
        if m == 0 {
            return leaves_at_one(&b.pass());
        }
        crate::board::avx2::count_children_moves(b.player, b.opponent, m)
    };
    perft_body(board, depth, |b, d| perft_fast(b, d), two)
}

/// Leaves two plies below `board`, counted without a recursive call.
#[inline(always)]
fn leaves_at_two(board: &Board) -> u64 {
    let moves = board.moves();
    if moves == 0 {
        // A pass, then the last ply; or a finished game, one leaf.
        return leaves_at_one(&board.pass());
    }
    let mut n = 0;
    for sq in Squares(moves) {
        n += leaves_at_one(&board.make(sq, board.flips(sq)));
    }
    n
}

/// The perft recursion, inlined into one copy per instruction set; `recurse` is
/// that copy itself. The last three plies are unrolled (no call per node).
#[inline(always)]
fn perft_body(
    board: Board,
    depth: u32,
    recurse: impl Fn(Board, u32) -> u64,
    two: impl Fn(&Board) -> u64,
) -> u64 {
    match depth {
        0 => 1,
        1 => leaves_at_one(&board),
        2 => two(&board),
        _ => {
            let moves = board.moves();
            if moves == 0 {
                let passed = board.pass();
                if passed.moves() == 0 {
                    return 1;
                }
                return recurse(passed, depth - 1);
            }
            // Plain loops: an iterator adaptor's closure may be left out of line,
            // and then compiled without this copy's instruction set.
            let mut n = 0;
            for sq in Squares(moves) {
                let child = board.make(sq, board.flips(sq));
                n += if depth == 3 {
                    two(&child)
                } else {
                    recurse(child, depth - 1)
                };
            }
            n
        }
    }
}

/// How many plies below the root the tree is cut into rayon jobs; at this depth
/// the start position has 244 subtrees, enough to balance a few dozen cores.
const SPLIT_PLIES: u32 = 4;

/// Pushes the positions `plies` below `board` into `out`; a finished game met
/// on the way adds its one leaf to `leaves` instead.
fn expand(board: Board, plies: u32, out: &mut Vec<Board>, leaves: &mut u64) {
    if plies == 0 {
        out.push(board);
        return;
    }
    let moves = board.moves();
    if moves == 0 {
        let passed = board.pass();
        if passed.moves() == 0 {
            *leaves += 1;
        } else {
            expand(passed, plies - 1, out, leaves);
        }
        return;
    }
    for sq in Squares(moves) {
        expand(board.make(sq, board.flips(sq)), plies - 1, out, leaves);
    }
}

/// [`board_perft`] using the current rayon pool.
fn board_perft_parallel(board: Board, depth: u32) -> u64 {
    if depth <= SPLIT_PLIES + 1 {
        return board_perft(board, depth);
    }
    let mut jobs = Vec::new();
    let mut leaves = 0;
    expand(board, SPLIT_PLIES, &mut jobs, &mut leaves);
    leaves
        + jobs
            .par_iter()
            .map(|b| board_perft(*b, depth - SPLIT_PLIES))
            .sum::<u64>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Othello, Reversi, Variant};

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

    #[test]
    fn shallow_start_counts() {
        let want = [1, 4, 12, 56, 244, 1396, 8200];
        for (d, &n) in want.iter().enumerate() {
            assert_eq!(perft::<Othello>(Board::START, d as u32), n, "depth {d}");
        }
        assert_eq!(perft_parallel::<Othello>(Board::START, 7), 55092);
    }

    #[test]
    fn finished_game_is_one_leaf() {
        // A full board: no moves for anyone, one leaf at any depth.
        let full = Board::new(u64::MAX, 0);
        assert_eq!(perft::<Othello>(full, 5), 1);
    }
}
