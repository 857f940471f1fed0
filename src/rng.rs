//! A small seeded pseudo-random generator (SplitMix64).
//!
//! Mollett never seeds from the clock or the OS: every random choice (tie-breaks
//! between equal moves, random openings, test games) comes from an explicit seed,
//! so a run replays identically on any machine.

/// SplitMix64: 64 bits of state, passes BigCrush, one multiply-xorshift per draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`; equal seeds give equal sequences.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0), by multiply-shift (bias below 2^-32 for small `n`).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A uniformly chosen set bit of `mask` (non-zero), as a square index.
    pub fn pick_bit(&mut self, mask: u64) -> u8 {
        debug_assert!(mask != 0);
        let mut m = mask;
        for _ in 0..self.below(mask.count_ones() as u64) {
            m &= m - 1;
        }
        m.trailing_zeros() as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let a: Vec<u64> = (0..4)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..4)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let c: Vec<u64> = (0..4)
            .scan(Rng::new(8), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn pick_bit_stays_in_mask() {
        let mut r = Rng::new(1);
        let mask = 0x8100_0000_0010_0042u64;
        let mut seen = 0u64;
        for _ in 0..200 {
            let b = r.pick_bit(mask);
            assert!(mask >> b & 1 == 1);
            seen |= 1 << b;
        }
        assert_eq!(seen, mask, "every bit is reachable");
    }
}
