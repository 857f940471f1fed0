//! Legal moves and flips on a side-relative bitboard pair.
//!
//! Both functions are branch-free and table-light, written for the portable
//! x86-64/aarch64 baseline. `moves` is a parallel-prefix fill along the eight
//! directions (Kogge–Stone style, two doubling steps); `flips` walks the eight rays
//! from the played square with the carry trick on the rays that run towards
//! higher bits and a leading-zero count on those that run towards lower bits.

#[cfg(target_arch = "x86_64")]
use super::avx2;
use super::rays::{INNER_COLUMNS, INNER_RING, RAYS};

/// Squares reachable from `p` by one step towards higher bits through a run of
/// `o` (already masked against wrap-around), then one more step: the fill
/// used by [`moves`], for one direction of shift `s`.
#[inline(always)]
fn fill_up(p: u64, o: u64, s: u32) -> u64 {
    let mut f = o & (p << s);
    f |= o & (f << s);
    let pre = o & (o << s);
    f |= pre & (f << (2 * s));
    f |= pre & (f << (2 * s));
    f << s
}

/// The mirror of [`fill_up`] towards lower bits.
#[inline(always)]
fn fill_down(p: u64, o: u64, s: u32) -> u64 {
    let mut f = o & (p >> s);
    f |= o & (f >> s);
    let pre = o & (o >> s);
    f |= pre & (f >> (2 * s));
    f |= pre & (f >> (2 * s));
    f >> s
}

/// The legal moves of the player `p` against the opponent `o`: every empty square
/// from which at least one straight run of opponent discs ends in a player disc.
#[inline(always)]
pub fn moves(p: u64, o: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU was just seen to support AVX2.
        return checked_moves(p, o, unsafe { avx2::moves(p, o) });
    }
    checked_moves(p, o, moves_portable(p, o))
}

/// `m`, the moves of `p` against `o`, after the debug-build checks that the
/// sides are disjoint and no move lands on an occupied square.
#[inline(always)]
fn checked_moves(p: u64, o: u64, m: u64) -> u64 {
    debug_assert_eq!(p & o, 0, "overlapping sides {p:#x} {o:#x}");
    debug_assert_eq!(m & (p | o), 0, "moves on occupied squares");
    m
}

/// The move generator as a value, so that hot code generic over it calls one
/// implementation directly, with no run-time feature check per call.
pub trait Kernel: Copy {
    /// [`moves`].
    fn moves(self, p: u64, o: u64) -> u64;
    /// [`flips`].
    fn flips(self, sq: u8, p: u64, o: u64) -> u64;
}

/// The portable kernel: plain 64-bit arithmetic on any CPU.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl Kernel for Portable {
    #[inline(always)]
    fn moves(self, p: u64, o: u64) -> u64 {
        checked_moves(p, o, moves_portable(p, o))
    }
    #[inline(always)]
    fn flips(self, sq: u8, p: u64, o: u64) -> u64 {
        flips_portable(sq, p, o)
    }
}

/// The kernel that checks the CPU on every call (the dispatching [`moves`] and
/// [`flips`]): for code that is not compiled twice.
#[derive(Clone, Copy, Debug)]
pub struct Dispatch;

impl Kernel for Dispatch {
    #[inline(always)]
    fn moves(self, p: u64, o: u64) -> u64 {
        moves(p, o)
    }
    #[inline(always)]
    fn flips(self, sq: u8, p: u64, o: u64) -> u64 {
        flips(sq, p, o)
    }
}

/// The AVX2 kernel. A value exists only where the CPU has the features (see
/// [`Avx2::detect`]), which is what makes its safe methods sound.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx2 {
    _proof: (),
}

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The kernel, if this CPU has the features of the fast kernels.
    pub fn detect() -> Option<Avx2> {
        has_fast_kernel().then_some(Avx2 { _proof: () })
    }

    /// The kernel without a check.
    ///
    /// # Safety
    /// The CPU must have the features of [`has_fast_kernel`]; calling this from a
    /// function compiled for them and entered only after that check is sound.
    #[inline(always)]
    pub unsafe fn assume() -> Avx2 {
        Avx2 { _proof: () }
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernel for Avx2 {
    #[inline(always)]
    fn moves(self, p: u64, o: u64) -> u64 {
        // SAFETY: an `Avx2` value proves the CPU has AVX2 (see `Avx2::assume`).
        checked_moves(p, o, unsafe { avx2::moves(p, o) })
    }
    #[inline(always)]
    fn flips(self, sq: u8, p: u64, o: u64) -> u64 {
        // SAFETY: as above.
        unsafe { avx2::flips(sq, p, o) }
    }
}

/// Whether this CPU has the features of the fast kernels (AVX2, BMI1/2, LZCNT,
/// POPCNT); hot recursive functions keep a copy compiled for them.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn has_fast_kernel() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt")
}

/// [`moves`] in plain 64-bit arithmetic.
#[inline]
pub fn moves_portable(p: u64, o: u64) -> u64 {
    let oh = o & INNER_COLUMNS;
    let od = o & INNER_RING;
    let m = fill_up(p, oh, 1)
        | fill_down(p, oh, 1)
        | fill_up(p, o, 8)
        | fill_down(p, o, 8)
        | fill_up(p, od, 7)
        | fill_down(p, od, 7)
        | fill_up(p, od, 9)
        | fill_down(p, od, 9);
    m & !(p | o)
}

/// Run of `o` along a ray towards higher bits, closed by a `p` disc.
#[inline(always)]
fn flips_up(p: u64, o: u64, ray: u64) -> u64 {
    // Every bit below the ray's first square and every bit off the ray is set, so
    // adding one carries through them and through the opponent run, stopping at
    // the first ray square that is not the opponent's.
    let outflank = (o | !ray).wrapping_add(1) & ray & p;
    outflank.wrapping_sub((outflank != 0) as u64) & ray
}

/// Run of `o` along a ray towards lower bits, closed by a `p` disc.
#[inline(always)]
fn flips_down(p: u64, o: u64, ray: u64) -> u64 {
    // The nearest non-opponent square on the ray is the highest set bit of
    // `ray & !o`; `| 1` keeps the count defined, and `& ray` drops that stand-in.
    let stop = (ray & !o) | 1;
    let outflank = (0x8000_0000_0000_0000u64 >> stop.leading_zeros()) & ray & p;
    (outflank << 1).wrapping_neg() & ray
}

/// The opponent discs turned when the player `p` plays on the empty square `sq`
/// against `o`. Zero means `sq` is not a legal move there.
#[inline(always)]
pub fn flips(sq: u8, p: u64, o: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU was just seen to support AVX2.
        return unsafe { avx2::flips(sq, p, o) };
    }
    flips_portable(sq, p, o)
}

/// [`flips`] in plain 64-bit arithmetic.
#[inline]
pub fn flips_portable(sq: u8, p: u64, o: u64) -> u64 {
    let r = &RAYS[sq as usize];
    flips_up(p, o, r[0])
        | flips_up(p, o, r[1])
        | flips_up(p, o, r[2])
        | flips_up(p, o, r[3])
        | flips_down(p, o, r[4])
        | flips_down(p, o, r[5])
        | flips_down(p, o, r[6])
        | flips_down(p, o, r[7])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_moves() {
        // Black to move: player = black (e4, d5), opponent = white (d4, e5).
        let p = (1u64 << 28) | (1 << 35);
        let o = (1u64 << 27) | (1 << 36);
        // d3 = 19, c4 = 26, f5 = 37, e6 = 44.
        assert_eq!(moves(p, o), (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44));
        assert_eq!(flips(37, p, o), 1 << 36);
        assert_eq!(flips(0, p, o), 0);
    }
}
