//! Bitboard helpers: masks, a square iterator and the eight board symmetries.
//!
//! A bitboard is a plain `u64`. Bit `i` is the square in column `i % 8` (a–h, left
//! to right) and row `i / 8` (1–8, top to bottom), so bit 0 is a1 (top-left),
//! bit 7 is h1 and bit 63 is h8. This is also the order of the 64-square board
//! string used by Edax, the FFO files and GGF's `BO` tag.

/// Every square except column a.
pub const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square except column h.
pub const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The four corners a1, h1, a8, h8.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The bit of square index `sq` (0..64).
#[inline(always)]
pub const fn bit(sq: u8) -> u64 {
    1u64 << sq
}

/// Iterates over the set bits of a bitboard as square indices, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = u8;

    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

/// Mirror top to bottom (row 1 ↔ row 8).
#[inline]
pub const fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// Mirror left to right (column a ↔ column h).
#[inline]
pub const fn mirror_horizontal(b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let b = ((b >> 1) & K1) | ((b & K1) << 1);
    let b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

/// Mirror in the a1–h8 diagonal (column ↔ row).
#[inline]
pub const fn transpose(b: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let t = K4 & (b ^ (b << 28));
    let b = b ^ t ^ (t >> 28);
    let t = K2 & (b ^ (b << 14));
    let b = b ^ t ^ (t >> 14);
    let t = K1 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// Applies symmetry number `s` (0..8) of the square to a bitboard; 0 is the identity.
/// Bit 0 mirrors left/right, bit 1 top/bottom, bit 2 transposes first.
#[inline]
pub const fn symmetry(b: u64, s: u8) -> u64 {
    let b = if s & 4 != 0 { transpose(b) } else { b };
    let b = if s & 2 != 0 { flip_vertical(b) } else { b };
    if s & 1 != 0 { mirror_horizontal(b) } else { b }
}

/// Renders a bitboard as an 8×8 grid of `X` and `.`, a1 at the top left (for debugging).
pub fn grid(b: u64) -> String {
    let mut s = String::with_capacity(8 * 9);
    for row in 0..8 {
        for col in 0..8 {
            s.push(if b >> (row * 8 + col) & 1 != 0 {
                'X'
            } else {
                '.'
            });
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_move_a1_to_each_corner() {
        assert_eq!(mirror_horizontal(bit(0)), bit(7));
        assert_eq!(flip_vertical(bit(0)), bit(56));
        assert_eq!(transpose(bit(1)), bit(8));
        assert_eq!(transpose(bit(7)), bit(56));
        let mut seen: Vec<u64> = (0..8).map(|s| symmetry(bit(1), s)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 8, "b1 has eight distinct images");
    }

    #[test]
    fn squares_iterates_low_to_high() {
        let v: Vec<u8> = Squares(0x8000_0000_0000_0005).collect();
        assert_eq!(v, vec![0, 2, 63]);
        assert_eq!(Squares(0xff).len(), 8);
    }
}
