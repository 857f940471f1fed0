//! AVX2 kernels for x86-64, chosen at run time by the dispatching functions in
//! [`movegen`](super::movegen) when the CPU has the features.
//!
//! Every function here is a safe `#[target_feature]` function: callable without
//! `unsafe` from code compiled for the same features, and through `unsafe` (after a
//! feature check) from anywhere else.
use super::rays::{INNER_COLUMNS, INNER_RING, RAYS};
use std::arch::x86_64::*;

/// [`moves`](super::movegen::moves) with the four direction pairs in the lanes of one AVX2
/// register: shifts 1 (row), 8 (column), 9 and 7 (diagonals).
#[target_feature(enable = "avx2")]
#[inline]
pub fn moves(p: u64, o: u64) -> u64 {
    let s1 = _mm256_set_epi64x(7, 9, 8, 1);
    let s2 = _mm256_set_epi64x(14, 18, 16, 2);
    let mask = _mm256_set_epi64x(
        INNER_RING as i64,
        INNER_RING as i64,
        -1,
        INNER_COLUMNS as i64,
    );
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_and_si256(_mm256_set1_epi64x(o as i64), mask);
    let mut fl = _mm256_and_si256(oo, _mm256_sllv_epi64(pp, s1));
    let mut fr = _mm256_and_si256(oo, _mm256_srlv_epi64(pp, s1));
    fl = _mm256_or_si256(fl, _mm256_and_si256(oo, _mm256_sllv_epi64(fl, s1)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(oo, _mm256_srlv_epi64(fr, s1)));
    let prel = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, s1));
    let prer = _mm256_srlv_epi64(prel, s1);
    fl = _mm256_or_si256(fl, _mm256_and_si256(prel, _mm256_sllv_epi64(fl, s2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(prer, _mm256_srlv_epi64(fr, s2)));
    fl = _mm256_or_si256(fl, _mm256_and_si256(prel, _mm256_sllv_epi64(fl, s2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(prer, _mm256_srlv_epi64(fr, s2)));
    let mm = _mm256_or_si256(_mm256_sllv_epi64(fl, s1), _mm256_srlv_epi64(fr, s1));
    let m = _mm_or_si128(_mm256_castsi256_si128(mm), _mm256_extracti128_si256(mm, 1));
    let m = _mm_or_si128(m, _mm_unpackhi_epi64(m, m));
    (_mm_cvtsi128_si64(m) as u64) & !(p | o)
}

/// [`flips`](super::movegen::flips) by a parallel-prefix fill from the played square along the
/// four direction pairs, one pair per lane.
#[target_feature(enable = "avx2")]
#[inline]
pub fn flips(sq: u8, p: u64, o: u64) -> u64 {
    let s1 = _mm256_set_epi64x(7, 9, 8, 1);
    let s2 = _mm256_set_epi64x(14, 18, 16, 2);
    let mask = _mm256_set_epi64x(
        INNER_RING as i64,
        INNER_RING as i64,
        -1,
        INNER_COLUMNS as i64,
    );
    let zero = _mm256_setzero_si256();
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_and_si256(_mm256_set1_epi64x(o as i64), mask);
    let x = _mm256_set1_epi64x(1i64 << sq);
    // Rays towards higher bits: the carry of `(o | !ray) + 1` stops on the
    // first ray square that is not the opponent's.
    let r = &RAYS[sq as usize];
    let ray = _mm256_set_epi64x(r[1] as i64, r[3] as i64, r[2] as i64, r[0] as i64);
    let ones = _mm256_set1_epi64x(1);
    let o_full = _mm256_set1_epi64x(o as i64);
    let carry = _mm256_add_epi64(
        _mm256_or_si256(o_full, _mm256_andnot_si256(ray, _mm256_set1_epi64x(-1))),
        ones,
    );
    let outl = _mm256_and_si256(_mm256_and_si256(carry, ray), pp);
    let fl = _mm256_andnot_si256(
        _mm256_cmpeq_epi64(outl, zero),
        _mm256_and_si256(_mm256_sub_epi64(outl, ones), ray),
    );
    // Rays towards lower bits: a parallel-prefix fill.
    let prer = _mm256_and_si256(oo, _mm256_srlv_epi64(oo, s1));
    let mut fr = _mm256_and_si256(oo, _mm256_srlv_epi64(x, s1));
    fr = _mm256_or_si256(fr, _mm256_and_si256(oo, _mm256_srlv_epi64(fr, s1)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(prer, _mm256_srlv_epi64(fr, s2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(prer, _mm256_srlv_epi64(fr, s2)));
    // A run counts only if the square just past it holds a player disc.
    let endr = _mm256_and_si256(pp, _mm256_srlv_epi64(fr, s1));
    fr = _mm256_andnot_si256(_mm256_cmpeq_epi64(endr, zero), fr);
    let f = _mm256_or_si256(fl, fr);
    let f = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256(f, 1));
    let f = _mm_or_si128(f, _mm_unpackhi_epi64(f, f));
    _mm_cvtsi128_si64(f) as u64
}

/// The runs of `o` (already masked against wrap-around) that start one step
/// towards higher bits from the discs of `x`: the parallel-prefix fill shared by
/// [`moves4`] and [`flips4`], for one direction of shift `S` (`S2` = 2·`S`).
#[target_feature(enable = "avx2")]
#[inline]
fn runs_up4<const S: i32, const S2: i32>(x: __m256i, o: __m256i) -> __m256i {
    let mut f = _mm256_and_si256(o, _mm256_slli_epi64::<S>(x));
    f = _mm256_or_si256(f, _mm256_and_si256(o, _mm256_slli_epi64::<S>(f)));
    let pre = _mm256_and_si256(o, _mm256_slli_epi64::<S>(o));
    f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_slli_epi64::<S2>(f)));
    _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_slli_epi64::<S2>(f)))
}

/// [`runs_up4`] towards lower bits.
#[target_feature(enable = "avx2")]
#[inline]
fn runs_down4<const S: i32, const S2: i32>(x: __m256i, o: __m256i) -> __m256i {
    let mut f = _mm256_and_si256(o, _mm256_srli_epi64::<S>(x));
    f = _mm256_or_si256(f, _mm256_and_si256(o, _mm256_srli_epi64::<S>(f)));
    let pre = _mm256_and_si256(o, _mm256_srli_epi64::<S>(o));
    f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srli_epi64::<S2>(f)));
    _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srli_epi64::<S2>(f)))
}

/// One direction of [`moves4`] towards higher bits: the squares just past the
/// opponent runs that start next to a player disc.
#[target_feature(enable = "avx2")]
#[inline]
fn fill_up4<const S: i32, const S2: i32>(p: __m256i, o: __m256i) -> __m256i {
    _mm256_slli_epi64::<S>(runs_up4::<S, S2>(p, o))
}

/// One direction of [`moves4`] towards lower bits.
#[target_feature(enable = "avx2")]
#[inline]
fn fill_down4<const S: i32, const S2: i32>(p: __m256i, o: __m256i) -> __m256i {
    _mm256_srli_epi64::<S>(runs_down4::<S, S2>(p, o))
}

/// The legal moves of four boards at once, one `(player, opponent)` pair per lane.
#[target_feature(enable = "avx2")]
#[inline]
pub fn moves4(p: __m256i, o: __m256i) -> __m256i {
    let oh = _mm256_and_si256(o, _mm256_set1_epi64x(INNER_COLUMNS as i64));
    let od = _mm256_and_si256(o, _mm256_set1_epi64x(INNER_RING as i64));
    let m = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_or_si256(fill_up4::<1, 2>(p, oh), fill_down4::<1, 2>(p, oh)),
            _mm256_or_si256(fill_up4::<8, 16>(p, o), fill_down4::<8, 16>(p, o)),
        ),
        _mm256_or_si256(
            _mm256_or_si256(fill_up4::<7, 14>(p, od), fill_down4::<7, 14>(p, od)),
            _mm256_or_si256(fill_up4::<9, 18>(p, od), fill_down4::<9, 18>(p, od)),
        ),
    );
    _mm256_andnot_si256(_mm256_or_si256(p, o), m)
}

/// One direction of [`flips4`] towards higher bits: the opponent run from each
/// lane's square `x`, kept only where a player disc closes it.
#[target_feature(enable = "avx2")]
#[inline]
fn run_up4<const S: i32, const S2: i32>(x: __m256i, p: __m256i, o: __m256i) -> __m256i {
    let f = runs_up4::<S, S2>(x, o);
    let end = _mm256_and_si256(p, _mm256_slli_epi64::<S>(f));
    _mm256_andnot_si256(_mm256_cmpeq_epi64(end, _mm256_setzero_si256()), f)
}

/// One direction of [`flips4`] towards lower bits.
#[target_feature(enable = "avx2")]
#[inline]
fn run_down4<const S: i32, const S2: i32>(x: __m256i, p: __m256i, o: __m256i) -> __m256i {
    let f = runs_down4::<S, S2>(x, o);
    let end = _mm256_and_si256(p, _mm256_srli_epi64::<S>(f));
    _mm256_andnot_si256(_mm256_cmpeq_epi64(end, _mm256_setzero_si256()), f)
}

/// The flips of four moves at once: lane `i` holds the bit of a square in `x`
/// (or zero, giving zero) and the board `(p, o)` it is played on.
#[target_feature(enable = "avx2")]
#[inline]
pub fn flips4(x: __m256i, p: __m256i, o: __m256i) -> __m256i {
    let oh = _mm256_and_si256(o, _mm256_set1_epi64x(INNER_COLUMNS as i64));
    let od = _mm256_and_si256(o, _mm256_set1_epi64x(INNER_RING as i64));
    _mm256_or_si256(
        _mm256_or_si256(
            _mm256_or_si256(run_up4::<1, 2>(x, p, oh), run_down4::<1, 2>(x, p, oh)),
            _mm256_or_si256(run_up4::<8, 16>(x, p, o), run_down4::<8, 16>(x, p, o)),
        ),
        _mm256_or_si256(
            _mm256_or_si256(run_up4::<7, 14>(x, p, od), run_down4::<7, 14>(x, p, od)),
            _mm256_or_si256(run_up4::<9, 18>(x, p, od), run_down4::<9, 18>(x, p, od)),
        ),
    )
}

/// Perft's last two plies below `(p, o)` with the move mask `moves` (non-zero):
/// for each child, its move count, or one for a pass or a finished game. Four
/// children are made and counted per step, one per lane.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
pub fn count_children_moves(p: u64, o: u64, mut moves: u64) -> u64 {
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    let mut total = 0;
    while moves != 0 {
        let mut sq = [0u64; 4];
        let mut lanes = 0;
        while lanes < 4 && moves != 0 {
            sq[lanes] = moves & moves.wrapping_neg();
            moves &= moves - 1;
            lanes += 1;
        }
        let x = _mm256_set_epi64x(sq[3] as i64, sq[2] as i64, sq[1] as i64, sq[0] as i64);
        let f = flips4(x, pp, oo);
        let child_p = _mm256_xor_si256(oo, f);
        let child_o = _mm256_or_si256(_mm256_or_si256(pp, f), x);
        let m = moves4(child_p, child_o);
        let mut out = [0u64; 4];
        // SAFETY: `out` is 32 writable bytes; the unaligned store has no alignment need.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), m) };
        for &lane in &out[..lanes] {
            total += (lane.count_ones() as u64).max(1);
        }
    }
    total
}
