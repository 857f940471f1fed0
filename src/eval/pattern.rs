//! The patterns of the learned evaluation and their indices.
//!
//! A pattern is a set of squares; its *configuration* on a board is the base-3
//! number whose digit `i` is the content of its `i`-th square (0 empty, 1 the side
//! to move's, 2 the opponent's), squares taken in increasing order a1..h8. Each
//! pattern is written once, at one place on the board (its *base*, always next to
//! a1 or on the a1–h8 diagonal), and read at every place one of the eight
//! symmetries of the board takes it to: a *view* is a symmetry `s` such that the
//! base squares of the board mirrored by `s` are the instance. Views are the
//! symmetries that give distinct instances (46 over the 11 patterns, as in the
//! classic Logistello/Edax set), so the index of a view is two bit extractions
//! of a mirrored board and two table look-ups.
//!
//! Weights are shared by every instance of a pattern. Two configurations that a
//! symmetry of the pattern itself maps onto each other (a row read backwards, the
//! 3×3 corner mirrored in its diagonal) share one weight, and a configuration
//! with the colours swapped has the negated weight (in the colour-tied form; in
//! the side-to-move form it has a weight of its own): the [`Canon`] of a pattern
//! maps each configuration to its shared parameter and sign. So the evaluation is
//! invariant under the eight symmetries by construction, and in the colour-tied
//! form exactly antisymmetric, whatever the weights.

use crate::board::bitboard::symmetry;

/// A pattern: a name and its base squares (indices 0..64, a1 = 0, h1 = 7, increasing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternDef {
    /// A short name, for reports.
    pub name: &'static str,
    /// The base squares, increasing.
    pub squares: &'static [u8],
}

/// How many views (pattern instances under the board's symmetries) [`PATTERNS`]
/// has: the sum of each pattern's distinct images, checked by a test. Sizes the
/// trainer's rows.
pub const VIEW_COUNT: usize = 46;

/// The pattern set: edges with their X-squares, the 2×5 and 3×3 corner blocks,
/// the second to fourth rows and the diagonals of 4 to 8 squares.
pub const PATTERNS: [PatternDef; 11] = [
    PatternDef {
        name: "edge+2x",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    },
    PatternDef {
        name: "corner2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    PatternDef {
        name: "corner3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    PatternDef {
        name: "row2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    PatternDef {
        name: "row3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    PatternDef {
        name: "row4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    PatternDef {
        name: "diag8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    PatternDef {
        name: "diag7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
    },
    PatternDef {
        name: "diag6",
        squares: &[2, 11, 20, 29, 38, 47],
    },
    PatternDef {
        name: "diag5",
        squares: &[3, 12, 21, 30, 39],
    },
    PatternDef {
        name: "diag4",
        squares: &[4, 13, 22, 31],
    },
];

/// The most squares in a pattern.
pub const MAX_CELLS: usize = 10;

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

/// `3^n`.
pub const fn pow3(n: usize) -> usize {
    let mut v = 1;
    let mut i = 0;
    while i < n {
        v *= 3;
        i += 1;
    }
    v
}

/// The squares of `mask` as `symmetry(_, s)` finds them: the instance that view
/// `s` of a pattern with base `mask` reads.
pub fn instance(mask: u64, s: u8) -> u64 {
    (0..64u8)
        .filter(|&q| symmetry(1 << q, s) & mask != 0)
        .fold(0, |m, q| m | 1 << q)
}

/// The symmetries that read distinct instances of the pattern with base `mask`
/// (the first symmetry, by number, for each instance).
pub fn views(mask: u64) -> Vec<u8> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for s in 0..8u8 {
        let inst = instance(mask, s);
        if !seen.contains(&inst) {
            seen.push(inst);
            out.push(s);
        }
    }
    out
}

/// How each configuration of a pattern maps to a shared parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canon {
    /// Per configuration: 0 if its weight is zero (it is its own colour swap up to
    /// a symmetry of the pattern), else ±(parameter + 1), negative when the
    /// weight is the parameter's negation.
    pub slot: Vec<i32>,
    /// How many parameters the pattern has.
    pub params: usize,
}

impl Canon {
    /// The parameter and sign of configuration `c`, or `None` for a zero weight.
    #[inline]
    pub fn param(&self, c: usize) -> Option<(usize, f32)> {
        match self.slot[c] {
            0 => None,
            v if v > 0 => Some((v as usize - 1, 1.0)),
            v => Some(((-v) as usize - 1, -1.0)),
        }
    }
}

/// The permutations of a pattern's cells that its own symmetries make: `p[i]`
/// is the cell that cell `i` of the view reads on the unmirrored board.
fn self_symmetries(def: &PatternDef) -> Vec<Vec<usize>> {
    let mask = mask_of(def);
    let mut perms = Vec::new();
    for s in 0..8u8 {
        if instance(mask, s) != mask {
            continue;
        }
        // Cell i of view s is base square def.squares[i] of the mirrored board:
        // the unmirrored square q with symmetry(1 << q, s) == 1 << squares[i].
        let perm: Vec<usize> = def
            .squares
            .iter()
            .map(|&sq| {
                let q = (0..64u8)
                    .find(|&q| symmetry(1 << q, s) == 1 << sq)
                    .expect("a symmetry is a permutation of the squares");
                def.squares
                    .iter()
                    .position(|&t| t == q)
                    .expect("the instance is the base")
            })
            .collect();
        if !perms.contains(&perm) {
            perms.push(perm);
        }
    }
    perms
}

/// The base squares of `def` as a bitboard.
pub fn mask_of(def: &PatternDef) -> u64 {
    def.squares.iter().fold(0, |m, &s| m | 1 << s)
}

/// The canonical parameters of a pattern (see the module documentation); with
/// `colour_tied` false a configuration and its colour swap keep weights of their
/// own (the side-to-move form of [`crate::eval::learned::Form`]), and only the
/// pattern's own symmetries share weights.
pub fn canon(def: &PatternDef, colour_tied: bool) -> Canon {
    let n = def.squares.len();
    let size = pow3(n);
    let perms = self_symmetries(def);
    let digits = |mut c: usize| {
        let mut d = [0u8; MAX_CELLS];
        for slot in d.iter_mut().take(n) {
            *slot = (c % 3) as u8;
            c /= 3;
        }
        d
    };
    let number = |d: &[u8; MAX_CELLS]| d[..n].iter().rev().fold(0usize, |v, &x| v * 3 + x as usize);
    let mut slot = vec![0i32; size];
    let mut params = 0usize;
    for c in 0..size {
        let d = digits(c);
        // The configurations equal to c (plus) and to its colour swap (minus).
        let (mut rep, mut plus, mut minus) = (usize::MAX, [usize::MAX; 8], [usize::MAX; 8]);
        for (k, p) in perms.iter().enumerate() {
            let mut e = [0u8; MAX_CELLS];
            for i in 0..n {
                e[i] = d[p[i]];
            }
            plus[k] = number(&e);
            rep = rep.min(plus[k]);
            if colour_tied {
                minus[k] = number(&e.map(|x| [0, 2, 1][x as usize]));
                rep = rep.min(minus[k]);
            }
        }
        let (in_plus, in_minus) = (plus.contains(&rep), minus.contains(&rep));
        slot[c] = if in_plus && in_minus {
            0
        } else if rep == c {
            params += 1;
            params as i32
        } else if in_plus {
            slot[rep]
        } else {
            -slot[rep]
        };
    }
    Canon { slot, params }
}

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
    fn the_set_has_view_count_views_of_distinct_instances() {
        let counts: Vec<usize> = PATTERNS.iter().map(|d| views(mask_of(d)).len()).collect();
        assert_eq!(counts, [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
        assert_eq!(counts.iter().sum::<usize>(), VIEW_COUNT);
        for d in &PATTERNS {
            assert!(d.squares.windows(2).all(|w| w[0] < w[1]), "{}", d.name);
            assert!(d.squares.len() <= MAX_CELLS);
        }
    }

    #[test]
    fn ternary_table_and_portable_extraction() {
        assert_eq!(BIN_TO_TERNARY[0b101], 1 + 9);
        assert_eq!(pext_portable(0b1011_0100, 0b1111_0000), 0b1011);
        assert_eq!(pext_portable(u64::MAX, 1 << 63 | 1), 0b11);
        // Mover on a1, opponent on c1: digits 1, 0, 2.
        assert_eq!(index_with(pext_portable, 1, 4, 0b111), 1 + 2 * 9);
    }

    #[test]
    fn canonical_parameters_tie_mirrors_and_negate_swaps() {
        // A row of 8: reversal is its only symmetry. (3^8 - 3^4) / 4 pairs of
        // configurations up to reversal and swap, plus the reversal-symmetric ones
        // (3^4 - 1) / 2: configurations c with swap(c) == reverse(c) get no weight.
        let row = canon(&PATTERNS[3], true);
        assert_eq!(row.slot[0], 0);
        let one = row.slot[1]; // mover on a2
        assert!(one > 0);
        assert_eq!(row.slot[2], -one); // opponent on a2
        assert_eq!(row.slot[pow3(7)], one); // mover on h2 (the mirror)
        assert_eq!(row.slot[1 + 2 * pow3(7)], 0); // mover a2, opponent h2
        // The 2x5 block has no symmetry of its own: only swaps pair up.
        let block = canon(&PATTERNS[1], true);
        assert_eq!(block.params, (pow3(10) - 1) / 2);
    }

    #[test]
    fn untied_parameters_share_only_mirrors() {
        // Without the colour tie the row has (3^8 + 3^4) / 2 configurations up to
        // reversal, each with a weight of its own and a positive sign.
        let row = canon(&PATTERNS[3], false);
        assert_eq!(row.params, (pow3(8) + pow3(4)) / 2);
        assert!(row.slot.iter().all(|&v| v > 0));
        assert_ne!(row.slot[1], row.slot[2]); // mover or opponent on a2
        assert_eq!(row.slot[1], row.slot[pow3(7)]); // the mirror
        assert_eq!(canon(&PATTERNS[1], false).params, pow3(10));
    }
}
