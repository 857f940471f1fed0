//! The indices of the learned evaluation's patterns on a board.
//!
//! The patterns themselves, their views and their canonical parameters are the
//! layout of the weights file ([`crate::knowledge::layout`]); here a view's
//! *configuration* on a board is found: the base-3 number whose digit `i` is
//! the content of its `i`-th square (0 empty, 1 the side to move's, 2 the
//! opponent's), squares taken in increasing order a1..h8, read with two bit
//! extractions of a mirrored board and two table look-ups.

use crate::knowledge::layout::MAX_CELLS;

/// `BIN_TO_TERNARY[b]`: the base-3 number with the binary digits of `b` (for
/// `b` < 2^[`MAX_CELLS`]).
pub static BIN_TO_TERNARY: [u16; 1 << MAX_CELLS] = {
    let mut t = [0u16; 1 << MAX_CELLS];
    let mut b = 0;
    while b < t.len() {
        let (mut v, mut p, mut i) = (0u32, 1u32, 0);
        while i < MAX_CELLS {
            if b >> i & 1 != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

/// The index of the base configuration of a pattern with base `mask` on the
/// board (`p` the mover's discs, `o` the opponent's), given a bit extraction
/// (`pext`) that gathers the bits of `mask` in order.
#[inline(always)]
pub fn index_with(pext: impl Fn(u64, u64) -> u64, p: u64, o: u64, mask: u64) -> usize {
    BIN_TO_TERNARY[pext(p, mask) as usize] as usize
        + 2 * BIN_TO_TERNARY[pext(o, mask) as usize] as usize
}

/// Bit extraction in plain code (for CPUs without BMI2): the bits of `x` under
/// `mask`, packed from bit 0 in increasing order.
#[inline(always)]
pub fn pext_portable(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask ^= low;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ternary_table_and_portable_extraction() {
        assert_eq!(BIN_TO_TERNARY[0b101], 1 + 9);
        assert_eq!(pext_portable(0b1011_0100, 0b1111_0000), 0b1011);
        assert_eq!(pext_portable(u64::MAX, 1 << 63 | 1), 0b11);
        // Mover on a1, opponent on c1: digits 1, 0, 2.
        assert_eq!(index_with(pext_portable, 1, 4, 0b111), 1 + 2 * 9);
    }
}
