//! The geometry both move generators share: the masks that stop a run from
//! wrapping round the board's edge, and each square's eight rays. The portable
//! kernels ([`movegen`](super::movegen)) and the AVX2 ones read them from here.

use super::bitboard::{NOT_A, NOT_H};

/// Opponent discs that can lie inside a horizontal run (columns b–g).
pub(super) const INNER_COLUMNS: u64 = NOT_A & NOT_H;
/// Opponent discs that can lie inside a diagonal run (columns b–g, rows 2–7).
pub(super) const INNER_RING: u64 = INNER_COLUMNS & 0x00ff_ffff_ffff_ff00;

/// Column, row steps of the eight directions; the first four run towards higher bits.
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),   // east
    (-1, 1),  // south-west
    (0, 1),   // south
    (1, 1),   // south-east
    (-1, 0),  // west
    (1, -1),  // north-east
    (0, -1),  // north
    (-1, -1), // north-west
];

/// The squares strictly beyond `sq` in each direction, up to the edge.
const fn ray(sq: usize, dir: usize) -> u64 {
    let (dc, dr) = DIRECTIONS[dir];
    let mut c = (sq % 8) as i32 + dc;
    let mut r = (sq / 8) as i32 + dr;
    let mut m = 0u64;
    while c >= 0 && c < 8 && r >= 0 && r < 8 {
        m |= 1u64 << (r * 8 + c);
        c += dc;
        r += dr;
    }
    m
}

/// `RAYS[sq][d]`: the ray from `sq` in direction `d` (see [`DIRECTIONS`]).
pub(super) static RAYS: [[u64; 8]; 64] = {
    let mut t = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            t[sq][d] = ray(sq, d);
            d += 1;
        }
        sq += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_have_expected_lengths() {
        // a1 (0): east 7, south 7, south-east 7, nothing westwards or northwards.
        assert_eq!(RAYS[0][0].count_ones(), 7);
        assert_eq!(RAYS[0][2].count_ones(), 7);
        assert_eq!(RAYS[0][3].count_ones(), 7);
        assert_eq!(
            RAYS[0][1] | RAYS[0][4] | RAYS[0][5] | RAYS[0][6] | RAYS[0][7],
            0
        );
        // d4 (27): north-west ray is c3, b2, a1.
        assert_eq!(RAYS[27][7], (1 << 18) | (1 << 9) | 1);
    }
}
