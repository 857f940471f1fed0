//! The last four empties of the exact solver, hand-unrolled: parity order, no
//! move mask, no table, passes as a second turn of a loop (so that everything
//! inlines into the solver's node function), and a table-driven count for the
//! very last move.
//!
//! The code serves every rule set that moves as Othello does; the const
//! parameter `ANTI` picks Anti-Reversi's count (the fewer discs win, empties
//! count for nobody) over Othello's (empties to the winner). Both are compiled
//! apart, so Othello's copy is what it was before Anti-Reversi shared it.

use super::INF_DISCS;
use crate::board::Board;
use crate::board::bitboard::Squares;
use crate::board::lastflip::count_last_flips;
use crate::board::movegen::Kernel;

/// The four 4×4 quadrants, for parity ordering.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The squares to try first by quadrant parity: those of the quadrants with an
/// odd number of empties when `odd_first`, else the others (beside the
/// empties, the mask may hold occupied squares).
#[inline(always)]
pub(super) fn parity_first(empty: u64, odd_first: bool) -> u64 {
    let odd = odd_quadrants(empty);
    if odd_first { odd } else { !odd }
}

/// Squares in quadrants holding an odd number of empties: playing there first
/// tends to leave the last move in each region to the mover (Edax, Zebra).
///
/// Branch-free: folding rows 0–3 onto row 0 (and 4–7 onto row 4), then columns
/// a–d onto a (and e–h onto e), leaves each quadrant's parity at bits 0, 4, 32
/// and 36; one multiplication spreads each bit over its quadrant (the four
/// copies of the quadrant mask do not overlap, so nothing carries).
#[inline(always)]
pub(super) fn odd_quadrants(empty: u64) -> u64 {
    let rows = empty ^ (empty >> 8);
    let rows = rows ^ (rows >> 16);
    let cols = rows ^ (rows >> 1);
    let cols = cols ^ (cols >> 2);
    (cols & 0x0000_0011_0000_0011).wrapping_mul(QUADRANTS[0])
}

/// The null-window value over `alpha` of a position with `empties` (at most 4)
/// empty squares, under Othello's count or (with `ANTI`) Anti-Reversi's,
/// counting the nodes in `nodes`; with four, squares in quadrants of odd
/// parity first when `odd_first`, else those of even parity (the rules'
/// [`SolverOrder::odd_first`](crate::search::params::SolverOrder::odd_first),
/// a constant once inlined).
#[inline(always)]
pub(crate) fn solve<K: Kernel, const ANTI: bool>(
    k: K,
    nodes: &mut u64,
    board: &Board,
    alpha: i32,
    empties: u32,
    odd_first: bool,
) -> i32 {
    let (p, o) = (board.player, board.opponent);
    let empty = !(p | o);
    match empties {
        0 => {
            *nodes += 1;
            final_score::<ANTI>(p, o)
        }
        1 => solve_1::<ANTI>(nodes, p, o, empty.trailing_zeros() as u8),
        2 => {
            let a = empty.trailing_zeros() as u8;
            solve_2::<K, ANTI>(k, nodes, p, o, alpha, a, (63 - empty.leading_zeros()) as u8)
        }
        3 => {
            let mut e = [0u8; 3];
            for (i, sq) in Squares(empty).enumerate() {
                e[i] = sq;
            }
            solve_3::<K, ANTI>(k, nodes, p, o, alpha, e)
        }
        _ => solve_4::<K, ANTI>(k, nodes, p, o, alpha, odd_first),
    }
}

/// One empty square `sq` left: the final score for the side to move.
#[inline(always)]
fn solve_1<const ANTI: bool>(nodes: &mut u64, p: u64, o: u64, sq: u8) -> i32 {
    *nodes += 1;
    // A full board scores the same under both counts, but for the sign.
    let sign = if ANTI { -1 } else { 1 };
    let n = count_last_flips(sq, p);
    if n != 0 {
        // The board fills up: the mover has its discs, the flips and the new one.
        return sign * (2 * (p.count_ones() + n) as i32 + 2 - 64);
    }
    let n = count_last_flips(sq, o);
    if n != 0 {
        return sign * (64 - 2 * (o.count_ones() + n) as i32 - 2);
    }
    let d = 2 * p.count_ones() as i32 - 63;
    if ANTI {
        // Nobody can take the last square, and it counts for nobody.
        -d
    } else {
        // Nobody can take the last square: it goes to the winner (63 discs, no draw).
        d + d.signum()
    }
}

/// The final score of a finished game for the side to move: Othello's
/// (empties to the winner) or Anti-Reversi's (the opponent's discs less the
/// mover's).
#[inline(always)]
fn final_score<const ANTI: bool>(p: u64, o: u64) -> i32 {
    if ANTI {
        o.count_ones() as i32 - p.count_ones() as i32
    } else {
        Board::new(p, o).final_score()
    }
}

/// Null-window search of the last two empties `a`, `b` (score > `alpha`?).
#[inline(always)]
fn solve_2<K: Kernel, const ANTI: bool>(
    k: K,
    s: &mut u64,
    p: u64,
    o: u64,
    alpha: i32,
    a: u8,
    b: u8,
) -> i32 {
    *s += 1;
    let mut best = -INF_DISCS;
    for (sq, rest) in [(a, b), (b, a)] {
        let f = k.flips(sq, p, o);
        if f != 0 {
            let v = -solve_1::<ANTI>(s, o ^ f, p | f | 1 << sq, rest);
            if v > best {
                best = v;
                if v > alpha {
                    return v;
                }
            }
        }
    }
    if best > -INF_DISCS {
        return best;
    }
    // The mover passes; the opponent plays if it can.
    for (sq, rest) in [(a, b), (b, a)] {
        let f = k.flips(sq, o, p);
        if f != 0 {
            let v = solve_1::<ANTI>(s, p ^ f, o | f | 1 << sq, rest);
            if v < best || best == -INF_DISCS {
                best = v;
                if v <= alpha {
                    return v;
                }
            }
        }
    }
    if best > -INF_DISCS {
        best
    } else {
        final_score::<ANTI>(p, o)
    }
}

/// Tries the move to `$sq` for `solve_3` and `solve_4`: when it flips anything,
/// binds the child position to `$cp`, `$co` and scores it with `$child`, and
/// leaves `$block` on a cut-off. Written out per move rather than looped over an
/// array of squares, so the squares stay in registers: a loop over packed byte
/// tuples made the compiler store them byte by byte and reload them wider, a
/// store-forwarding stall on every node.
macro_rules! try_move {
    ($k:ident, $p:ident, $o:ident, $alpha:ident, $best:ident, $block:lifetime, $sq:expr,
     |$cp:ident, $co:ident| $child:expr) => {{
        let sq = $sq;
        let f = $k.flips(sq, $p, $o);
        if f != 0 {
            let ($cp, $co) = ($o ^ f, $p | f | 1 << sq);
            let v = -$child;
            if v > $best {
                $best = v;
                if v > $alpha {
                    break $block;
                }
            }
        }
    }};
}

/// Null-window search of the last three empties, in the given order. A pass is a
/// second turn of the loop, not a recursive call, so the function inlines.
#[inline(always)]
fn solve_3<K: Kernel, const ANTI: bool>(
    k: K,
    s: &mut u64,
    mut p: u64,
    mut o: u64,
    mut alpha: i32,
    [e0, e1, e2]: [u8; 3],
) -> i32 {
    *s += 1;
    let mut sign = 1;
    for _ in 0..2 {
        let mut best = -INF_DISCS;
        let beta = -alpha - 1;
        'moves: {
            try_move!(k, p, o, alpha, best, 'moves, e0, |cp, co| solve_2::<K, ANTI>(k, s, cp, co, beta, e1, e2));
            try_move!(k, p, o, alpha, best, 'moves, e1, |cp, co| solve_2::<K, ANTI>(k, s, cp, co, beta, e0, e2));
            try_move!(k, p, o, alpha, best, 'moves, e2, |cp, co| solve_2::<K, ANTI>(k, s, cp, co, beta, e0, e1));
        }
        if best > -INF_DISCS {
            return sign * best;
        }
        (p, o, alpha, sign) = (o, p, -alpha - 1, -sign);
    }
    // Neither side can move; two swaps restored the mover's view.
    sign * final_score::<ANTI>(p, o)
}

/// Null-window search of the last four empties, squares of the preferred
/// quadrant parity (`odd_first`, see [`solve`]) first.
#[inline(always)]
fn solve_4<K: Kernel, const ANTI: bool>(
    k: K,
    s: &mut u64,
    mut p: u64,
    mut o: u64,
    mut alpha: i32,
    odd_first: bool,
) -> i32 {
    *s += 1;
    let empty = !(p | o);
    let first = parity_first(empty, odd_first);
    let mut e = [0u8; 4];
    for (n, sq) in Squares(empty & first)
        .chain(Squares(empty & !first))
        .enumerate()
    {
        e[n] = sq;
    }
    let mut sign = 1;
    for _ in 0..2 {
        let mut best = -INF_DISCS;
        let beta = -alpha - 1;
        let [e0, e1, e2, e3] = e;
        'moves: {
            try_move!(k, p, o, alpha, best, 'moves, e0, |cp, co| solve_3::<K, ANTI>(k, s, cp, co, beta, [e1, e2, e3]));
            try_move!(k, p, o, alpha, best, 'moves, e1, |cp, co| solve_3::<K, ANTI>(k, s, cp, co, beta, [e0, e2, e3]));
            try_move!(k, p, o, alpha, best, 'moves, e2, |cp, co| solve_3::<K, ANTI>(k, s, cp, co, beta, [e0, e1, e3]));
            try_move!(k, p, o, alpha, best, 'moves, e3, |cp, co| solve_3::<K, ANTI>(k, s, cp, co, beta, [e0, e1, e2]));
        }
        if best > -INF_DISCS {
            return sign * best;
        }
        (p, o, alpha, sign) = (o, p, -alpha - 1, -sign);
    }
    sign * final_score::<ANTI>(p, o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::Portable;
    use crate::rng::Rng;
    use crate::test_positions::random_positions;

    /// Plain negamax to the end: Othello's count or Anti-Reversi's.
    fn minimax(b: &Board, anti: bool) -> i32 {
        let moves = b.moves();
        if moves == 0 {
            let passed = b.pass();
            if passed.moves() == 0 {
                return if anti {
                    -b.disc_difference()
                } else {
                    b.final_score()
                };
            }
            return -minimax(&passed, anti);
        }
        Squares(moves)
            .map(|sq| -minimax(&b.make(sq, b.flips(sq)), anti))
            .max()
            .unwrap()
    }

    /// The fail-soft null-window answer against the exact value, at every
    /// alpha, with either parity tried first.
    fn check<const ANTI: bool>(b: &Board) -> usize {
        let want = minimax(b, ANTI);
        for alpha in -64..64 {
            for odd_first in [true, false] {
                let mut nodes = 0;
                let v = solve::<_, ANTI>(Portable, &mut nodes, b, alpha, b.empties(), odd_first);
                let what = format!("{b:?} alpha {alpha} anti {ANTI} odd first {odd_first}");
                assert_eq!(v > alpha, want > alpha, "{what}");
                assert!(if v > alpha { want >= v } else { want <= v }, "{what}");
            }
        }
        usize::from(want == 0)
    }

    #[test]
    fn last_empties_match_minimax_under_both_counts() {
        let mut draws = [0; 2];
        for b in random_positions(400)
            .into_iter()
            .filter(|b| b.empties() <= 4)
        {
            draws[0] += check::<false>(&b);
            draws[1] += check::<true>(&b);
        }
        assert!(draws[0] > 0 && draws[1] > 0, "{draws:?}");
    }

    #[test]
    fn odd_quadrants_matches_counting_each_quadrant() {
        let mut rng = Rng::new(5);
        for i in 0..100_000 {
            // Sparse and dense masks alike.
            let empty = match i % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                _ => rng.next_u64() | rng.next_u64(),
            };
            let counted = QUADRANTS
                .iter()
                .filter(|&&q| (empty & q).count_ones() % 2 == 1)
                .fold(0, |m, &q| m | q);
            assert_eq!(odd_quadrants(empty), counted, "{empty:#x}");
        }
    }
}
