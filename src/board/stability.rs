//! Stable discs: discs that no sequence of moves can ever turn.
//!
//! A disc cannot turn along one of the four axes (row, column, two diagonals) when
//! the line along that axis is full (no move can land on it), or when one of its
//! two neighbours on that axis is the board's edge or a stable disc of its own
//! colour (a run through it could never be bounded on that side). A disc protected
//! on all four axes is stable. Starting from none, the set grows from the corners
//! and full lines to a fixed point. This finds every disc stable for these reasons,
//! a safe under-estimate of the true set, used for the solver's stability cut-off.

use super::bitboard::{NOT_A, NOT_H};

/// The border squares (rows 1 and 8, columns a and h).
const EDGE: u64 = 0xff81_8181_8181_81ff;
/// Columns a and h.
const SIDE_COLUMNS: u64 = 0x8181_8181_8181_8181;
/// Rows 1 and 8.
const TOP_BOTTOM: u64 = 0xff00_0000_0000_00ff;

/// The 15 diagonals running a1→h8 (shift 9) and the 15 running h1→a8 (shift 7).
const fn diagonals(anti: bool) -> [u64; 15] {
    let mut out = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        let k = if anti { c + r } else { c + 7 - r };
        out[k] |= 1u64 << sq;
        sq += 1;
    }
    out
}

static DIAGONALS: [u64; 15] = diagonals(false);
static ANTI_DIAGONALS: [u64; 15] = diagonals(true);

/// Squares lying on a full row, column, diagonal and anti-diagonal, as four masks.
fn full_lines(occupied: u64) -> [u64; 4] {
    let mut rows = 0;
    for r in 0..8 {
        if (occupied >> (8 * r)) & 0xff == 0xff {
            rows |= 0xff << (8 * r);
        }
    }
    let mut t = occupied;
    t &= t >> 32;
    t &= t >> 16;
    t &= t >> 8;
    let cols = (t & 0xff) * 0x0101_0101_0101_0101;
    let mut diag = 0;
    for d in DIAGONALS {
        if occupied & d == d {
            diag |= d;
        }
    }
    let mut anti = 0;
    for d in ANTI_DIAGONALS {
        if occupied & d == d {
            anti |= d;
        }
    }
    [rows, cols, diag, anti]
}

/// The stable discs of `player` against `opponent`.
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    let [rows, cols, diag, anti] = full_lines(player | opponent);
    // Protection that does not depend on other stable discs.
    let h0 = rows | SIDE_COLUMNS;
    let v0 = cols | TOP_BOTTOM;
    let d0 = diag | EDGE;
    let a0 = anti | EDGE;
    let mut stable = 0u64;
    loop {
        let h = h0 | ((stable << 1) & NOT_A) | ((stable >> 1) & NOT_H);
        let v = v0 | (stable << 8) | (stable >> 8);
        let d = d0 | ((stable << 9) & NOT_A) | ((stable >> 9) & NOT_H);
        let a = a0 | ((stable << 7) & NOT_H) | ((stable >> 7) & NOT_A);
        let next = player & h & v & d & a;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rng::Rng;

    #[test]
    fn corners_and_their_edges_are_stable() {
        // Player a1, b1, c1 along the top edge; opponent d1: a1..c1 stable, d1 not.
        let p = 0b0111;
        let o = 0b1000;
        assert_eq!(stable_discs(p, o), 0b0111);
        assert_eq!(stable_discs(o, p), 0);
        // A lone centre disc is never stable.
        assert_eq!(stable_discs(1 << 27, 1 << 28), 0);
    }

    #[test]
    fn full_board_is_all_stable() {
        let p = 0x0f0f_0f0f_0f0f_0f0f;
        assert_eq!(stable_discs(p, !p), p);
    }

    /// Soundness: along random games, a disc once found stable never turns.
    #[test]
    fn stable_discs_never_turn() {
        let mut rng = Rng::new(5);
        for _ in 0..300 {
            let mut b = Board::START;
            // Black's and White's stable discs so far, tracked by colour.
            let (mut black_stable, mut white_stable) = (0u64, 0u64);
            let mut black_to_move = true;
            loop {
                let (bl, wh) = if black_to_move {
                    (b.player, b.opponent)
                } else {
                    (b.opponent, b.player)
                };
                assert_eq!(
                    bl & black_stable,
                    black_stable,
                    "a stable black disc turned"
                );
                assert_eq!(
                    wh & white_stable,
                    white_stable,
                    "a stable white disc turned"
                );
                black_stable |= stable_discs(bl, wh);
                white_stable |= stable_discs(wh, bl);
                let m = b.moves();
                if m == 0 {
                    if b.pass().moves() == 0 {
                        break;
                    }
                    b = b.pass();
                } else {
                    let sq = rng.pick_bit(m);
                    b = b.make(sq, b.flips(sq));
                }
                black_to_move = !black_to_move;
            }
        }
    }
}
