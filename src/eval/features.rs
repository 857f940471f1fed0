//! Feature extraction: a handful of bit-parallel counts, each taken as the side to
//! move's value minus the opponent's.
//!
//! Every feature but the two totals is *antisymmetric*: swapping the sides
//! ([`Board::pass`]) negates it exactly. Every mask is invariant under the eight
//! symmetries of the board, so a mirrored or rotated position has the same
//! features. Nothing here allocates or branches on the position; the whole
//! extraction is two move generations, a few dozen shifts and some population
//! counts.

use super::weights::WIPEOUT_DISCS;
use crate::board::Board;
use crate::board::bitboard::{CORNERS, NOT_A, NOT_H};
use crate::board::movegen::{Dispatch, Kernel};

/// The X-squares b2, g2, b7 and g7, diagonally inside the corners.
pub const X_SQUARES: u64 = (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54);

/// The C-squares a2, b1, g1, h2, a7, b8, g8 and h7, on an edge beside a corner.
pub const C_SQUARES: u64 =
    (1 << 1) | (1 << 8) | (1 << 6) | (1 << 15) | (1 << 48) | (1 << 57) | (1 << 55) | (1 << 62);

/// Rows 1 and 8.
const TOP_BOTTOM: u64 = 0xff00_0000_0000_00ff;
/// Columns a and h.
const LEFT_RIGHT: u64 = 0x8181_8181_8181_8181;
/// The four edges, one mask each: row 1, row 8, column a, column h.
const EDGES: [u64; 4] = [
    0xff,
    0xff << 56,
    0x0101_0101_0101_0101,
    0x8080_8080_8080_8080,
];

/// The features of one position; every count is the side to move's minus the
/// opponent's, except [`Features::total_mobility`] and [`Features::empties`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Features {
    /// Legal moves: the mover's count minus the count the opponent would have.
    pub mobility: i32,
    /// Both sides' legal moves together (for the ratio form of mobility; symmetric).
    pub total_mobility: i32,
    /// Legal moves onto a corner, mover minus opponent.
    pub corner_moves: i32,
    /// Potential mobility: empty squares next to an opponent disc, minus empty squares
    /// next to a mover's disc.
    pub potential_mobility: i32,
    /// Corners held.
    pub corners: i32,
    /// X-squares held while the corner diagonally beside them is empty.
    pub x_squares: i32,
    /// C-squares held while the corner beside them is empty.
    pub c_squares: i32,
    /// Edge discs that can never be turned: runs from an owned corner along an
    /// edge, and every disc of a completely filled edge.
    pub stable_edges: i32,
    /// Discs short of [`WIPEOUT_DISCS`], mover minus opponent: the risk of being
    /// wiped out.
    pub wipeout: i32,
    /// Discs.
    pub discs: i32,
    /// Empty squares (the game phase).
    pub empties: u32,
}

impl Features {
    /// Extracts the features of `board` (which must be legal: no overlap).
    #[inline(always)]
    pub fn of(board: &Board) -> Features {
        Features::with(Dispatch, board)
    }

    /// [`Features::of`] with the move generator `k`, for hot code compiled for
    /// one kernel.
    #[inline(always)]
    pub fn with<K: Kernel>(k: K, board: &Board) -> Features {
        let (p, o) = (board.player, board.opponent);
        let empty = board.empty();
        let mp = k.moves(p, o);
        let mo = k.moves(o, p);
        let (np, no) = (mp.count_ones() as i32, mo.count_ones() as i32);

        let x_live = x_squares_of(empty & CORNERS);
        let c_live = c_squares_of(empty & CORNERS);
        let full = full_edges(!empty);

        Features {
            mobility: np - no,
            total_mobility: np + no,
            corner_moves: diff(mp & CORNERS, mo & CORNERS),
            potential_mobility: diff(neighbours(o) & empty, neighbours(p) & empty),
            corners: diff(p & CORNERS, o & CORNERS),
            x_squares: diff(p & x_live, o & x_live),
            c_squares: diff(p & c_live, o & c_live),
            stable_edges: diff(stable_edges(p, full), stable_edges(o, full)),
            wipeout: shortfall(p) - shortfall(o),
            discs: diff(p, o),
            empties: empty.count_ones(),
        }
    }
}

/// `popcount(a) - popcount(b)`.
#[inline(always)]
fn diff(a: u64, b: u64) -> i32 {
    a.count_ones() as i32 - b.count_ones() as i32
}

/// How many discs `b` has fewer than [`WIPEOUT_DISCS`] (zero if it has as many).
#[inline(always)]
pub(crate) fn shortfall(b: u64) -> i32 {
    WIPEOUT_DISCS.saturating_sub(b.count_ones()) as i32
}

/// The X-square diagonally inside each corner of `corners`.
#[inline(always)]
pub const fn x_squares_of(corners: u64) -> u64 {
    ((corners & 1) << 9)
        | ((corners & (1 << 7)) << 7)
        | ((corners & (1 << 56)) >> 7)
        | ((corners & (1 << 63)) >> 9)
}

/// The two C-squares beside each corner of `corners`.
#[inline(always)]
pub const fn c_squares_of(corners: u64) -> u64 {
    let c = corners & CORNERS;
    ((c << 1) & NOT_A) | ((c >> 1) & NOT_H) | ((c << 8) | (c >> 8))
}

/// Squares adjacent (in the eight directions) to a disc of `b`, `b` itself included
/// where adjacent to another disc of `b`.
#[inline(always)]
pub const fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// The squares of the edges whose eight squares are all occupied in `occupied`.
#[inline(always)]
fn full_edges(occupied: u64) -> u64 {
    EDGES.iter().fold(0, |full, &e| {
        full | (e & ((occupied & e == e) as u64).wrapping_neg())
    })
}

/// Occluded fill: the discs of `seed` grown through the squares of `pro` by
/// repeated shifts of `s` (towards higher bits if `UP`), in three doubling steps,
/// enough for a run of seven squares.
#[inline(always)]
fn fill<const UP: bool>(seed: u64, mut pro: u64, s: u32) -> u64 {
    let sh = |x: u64, k: u32| if UP { x << k } else { x >> k };
    let mut g = seed;
    g |= pro & sh(g, s);
    pro &= sh(pro, s);
    g |= pro & sh(g, 2 * s);
    pro &= sh(pro, 2 * s);
    g | (pro & sh(g, 4 * s))
}

/// The discs of `p` on the edges that can never be turned: the runs of `p`
/// starting at a corner `p` holds and running along an edge, and `p`'s discs on
/// the `full` edges. An edge disc can only be turned along its edge (it ends its
/// column and both its diagonals), so both kinds are stable.
#[inline(always)]
pub fn stable_edges(p: u64, full: u64) -> u64 {
    let corners = p & CORNERS;
    let horizontal = p & TOP_BOTTOM;
    let vertical = p & LEFT_RIGHT;
    // The masks keep a horizontal run from wrapping into the next row.
    let east = fill::<true>(corners & !NOT_A, horizontal & NOT_A, 1);
    let west = fill::<false>(corners & !NOT_H, horizontal & NOT_H, 1);
    let south = fill::<true>(corners, vertical, 8);
    let north = fill::<false>(corners, vertical, 8);
    east | west | south | north | (p & full)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitboard::symmetry;

    #[test]
    fn square_masks_are_symmetric() {
        for s in 0..8 {
            assert_eq!(symmetry(X_SQUARES, s), X_SQUARES);
            assert_eq!(symmetry(C_SQUARES, s), C_SQUARES);
            assert_eq!(
                symmetry(TOP_BOTTOM | LEFT_RIGHT, s),
                TOP_BOTTOM | LEFT_RIGHT
            );
        }
        assert_eq!(x_squares_of(CORNERS), X_SQUARES);
        assert_eq!(c_squares_of(CORNERS), C_SQUARES);
        assert_eq!(c_squares_of(1), (1 << 1) | (1 << 8));
    }

    #[test]
    fn neighbours_of_a_corner_and_an_edge() {
        assert_eq!(neighbours(1), (1 << 1) | (1 << 8) | (1 << 9));
        // h1 does not leak into column a of row 2.
        assert_eq!(neighbours(1 << 7), (1 << 6) | (1 << 14) | (1 << 15));
    }

    #[test]
    fn stable_edge_runs_stop_at_a_gap_or_a_foreign_disc() {
        // Row 1: a1 b1 c1 owned, d1 empty, e1 owned (not stable); column a: a1..a3.
        let p = 0b1_0111 | (1 << 8) | (1 << 16);
        assert_eq!(stable_edges(p, 0), 0b111 | (1 << 8) | (1 << 16));
        // Without the corner nothing is stable, unless the edge is full.
        assert_eq!(stable_edges(p & !1, 0), 0);
        assert_eq!(stable_edges(0x0f, full_edges(0xff)), 0x0f);
        // h8 runs west along row 8 and north along column h, without wrapping.
        let q = (1 << 63) | (1 << 62) | (1 << 55) | (1 << 47) | (1 << 48);
        assert_eq!(stable_edges(q, 0), q & !(1 << 48));
    }
}
