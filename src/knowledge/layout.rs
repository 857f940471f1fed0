//! Where each weight of a learned-evaluation weights file lies: the
//! [`PatternSet`]s, their views and canonical parameters, the anchor phases, the
//! count tables' sizes, the two [`Form`]s a file can tie its weights in, and the
//! [`Layout`] of one anchor's parameters (its signature names the set and the
//! form in the file).
//!
//! A pattern is a set of squares; its *configuration* on a board is the base-3
//! number whose digit `i` is the content of its `i`-th square (0 empty, 1 the side
//! to move's, 2 the opponent's), squares taken in increasing order a1..h8. Each
//! pattern is written once, at one place on the board (its *base*, always next to
//! a1 or on the a1–h8 diagonal), and read at every place one of the eight
//! symmetries of the board takes it to: a *view* is a symmetry `s` such that the
//! base squares of the board mirrored by `s` are the instance. Views are the
//! symmetries that give distinct instances (46 over the 11 patterns of the
//! classic Logistello/Edax set, 58 over the extended set's 14); the evaluation finds a view's configuration
//! with two bit extractions (`crate::eval::pattern`).
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
use std::sync::OnceLock;

/// Empties at or above which the disc difference counts for nothing (the
/// project's rule): the learned weights' disc weight is zero at every anchor
/// from here on (it is in the layout's signature), and the hand-written
/// evaluation's endgame ramp starts here.
pub const DISC_FREE_EMPTIES: u32 = 20;

/// A pattern: a name and its base squares (indices 0..64, a1 = 0, h1 = 7, increasing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternDef {
    /// A short name, for reports.
    pub name: &'static str,
    /// The base squares, increasing.
    pub squares: &'static [u8],
}

/// The most views (pattern instances under the board's symmetries) of any
/// [`PatternSet`]: the sum of each pattern's distinct images, checked by a test.
/// Sizes the trainer's rows.
pub const MAX_VIEWS: usize = 58;

/// Every pattern of the [`PatternSet`]s: the first [`CLASSIC_PATTERNS`] are the
/// classic set (Logistello's and Edax's): edges with their X-squares, the 2×5
/// and 3×3 corner blocks, the second to fourth rows and the diagonals of 4 to 8
/// squares, 46 views. The extended set adds three 10-square corner patterns that
/// read how a corner's region hangs together across lines (the kind Egaroucid's
/// larger sets add): the triangle a1–d1–a4, the edge's corners with the C-to-F
/// squares of the first two rows, and the a1–d4 diagonal with its two
/// neighbouring diagonals; 58 views.
const PATTERN_DEFS: [PatternDef; 14] = [
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
    PatternDef {
        name: "triangle",
        squares: &[0, 1, 2, 3, 8, 9, 10, 16, 17, 24],
    },
    PatternDef {
        name: "edge+block",
        squares: &[0, 2, 3, 4, 5, 7, 10, 11, 12, 13],
    },
    PatternDef {
        name: "cross",
        squares: &[0, 1, 8, 9, 10, 17, 18, 19, 26, 27],
    },
];

/// How many of [`PATTERN_DEFS`] the classic set has.
const CLASSIC_PATTERNS: usize = 11;

/// The patterns a weights file is fitted over (named in its layout signature,
/// so a file is read with the set it was made for).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternSet {
    /// The 11 classic patterns, 46 views.
    Classic,
    /// The classic patterns and three more corner patterns, 58 views.
    Extended,
}

impl PatternSet {
    /// Every set, in the order their signatures are tried.
    pub const ALL: [PatternSet; 2] = [PatternSet::Classic, PatternSet::Extended];

    /// The set's patterns.
    pub fn patterns(self) -> &'static [PatternDef] {
        match self {
            PatternSet::Classic => &PATTERN_DEFS[..CLASSIC_PATTERNS],
            PatternSet::Extended => &PATTERN_DEFS,
        }
    }

    /// Whether this set has every pattern of `other` (so weights of `other`
    /// carry over to it).
    pub fn holds(self, other: PatternSet) -> bool {
        other.patterns().iter().all(|d| self.patterns().contains(d))
    }

    /// The name `mollett train --patterns` takes.
    pub fn name(self) -> &'static str {
        match self {
            PatternSet::Classic => "classic",
            PatternSet::Extended => "extended",
        }
    }

    /// The set named `s`.
    pub fn parse(s: &str) -> Result<PatternSet, String> {
        PatternSet::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown pattern set '{s}' (expected classic or extended)"))
    }
}

/// The most squares in a pattern.
pub const MAX_CELLS: usize = 10;

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
/// own (the side-to-move form of [`Form`]), and only the
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

/// Empties between two anchor phases: 4 gives 16 anchors over 0..=60 (finer
/// phases have too few positions each to fit the largest patterns).
pub const ANCHOR_STEP: u32 = 4;
/// Anchor phases: empties 0, 4, ..., 60.
pub const ANCHORS: usize = 16;
/// Mobility counts told apart (more moves count as this many minus one; 33 is
/// the most legal moves known in a real position).
pub const MOBILITY_BUCKETS: usize = 36;
/// Potential-mobility counts told apart (more count as this many minus one).
pub const POTENTIAL_BUCKETS: usize = 48;

/// How a weights file ties its weights, named in its layout signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// Blind to whose move it is: a pattern configuration and its colour swap
    /// have opposite weights, and the mover's and the opponent's counts read one
    /// table, added and subtracted; so swapping the discs' colours with the same
    /// side to move negates the score (`eval(b.pass()) == -eval(b)`).
    ColourTied,
    /// The side to move is part of the position: a configuration and its colour
    /// swap, and the mover's and the opponent's mobility and potential mobility,
    /// have weights of their own (as NTest's and Edax's tables do), so the
    /// evaluation can price having the move. Swapping the colours *and* the side
    /// to move (the colour-swapped position) still gives the same score for the
    /// side to move, i.e. the negated score for Black.
    SideToMove,
}

impl Form {
    /// Both forms, in the order their signatures are tried.
    pub const ALL: [Form; 2] = [Form::ColourTied, Form::SideToMove];

    /// Whether weights of this form can be the prior of a fit in `fit`: the
    /// same form as they are, or colour-tied weights untied
    /// (`crate::eval::learned::untie`; side-to-move weights have no
    /// colour-tied equivalent).
    pub fn can_start(self, fit: Form) -> bool {
        self == fit || self == Form::ColourTied
    }

    /// The name `mollett train --form` takes.
    pub fn name(self) -> &'static str {
        match self {
            Form::ColourTied => "colour-tied",
            Form::SideToMove => "side-to-move",
        }
    }

    /// The form named `s`.
    pub fn parse(s: &str) -> Result<Form, String> {
        Form::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown form '{s}' (expected colour-tied or side-to-move)"))
    }
}

/// Where each part of an anchor's weights lies in its parameter vector.
#[derive(Debug)]
pub struct Layout {
    /// The pattern set the layout is of.
    pub set: PatternSet,
    /// The form the layout is of.
    pub form: Form,
    /// Per pattern: its base squares as a bitboard.
    pub masks: Vec<u64>,
    /// Per pattern: the symmetries of its views.
    pub views: Vec<Vec<u8>>,
    /// Per pattern: its canonical parameters.
    pub canons: Vec<Canon>,
    /// Per pattern: the offset of its first parameter.
    pub offsets: Vec<usize>,
    /// The offsets of the mover's and the opponent's mobility tables (the same
    /// table in the colour-tied form).
    pub mobility: [usize; 2],
    /// The offsets of the mover's and the opponent's potential-mobility tables.
    pub potential: [usize; 2],
    /// The offset of the disc weight.
    pub disc: usize,
    /// Parameters per anchor.
    pub len: usize,
}

impl Layout {
    /// The layout of pattern set `set` in `form` (computed once per pair).
    pub fn of(set: PatternSet, form: Form) -> &'static Layout {
        static LAYOUTS: [[OnceLock<Layout>; 2]; 2] = [
            [OnceLock::new(), OnceLock::new()],
            [OnceLock::new(), OnceLock::new()],
        ];
        LAYOUTS[set as usize][form as usize].get_or_init(|| {
            let tied = form == Form::ColourTied;
            let defs = set.patterns();
            let canons: Vec<Canon> = defs.iter().map(|d| canon(d, tied)).collect();
            let mut offsets = Vec::new();
            let mut len = 0;
            for c in &canons {
                offsets.push(len);
                len += c.params;
            }
            let tables = |len: &mut usize, size: usize| {
                let mover = *len;
                *len += size;
                let opponent = if tied { mover } else { *len };
                if !tied {
                    *len += size;
                }
                [mover, opponent]
            };
            let mobility = tables(&mut len, MOBILITY_BUCKETS);
            let potential = tables(&mut len, POTENTIAL_BUCKETS);
            let disc = len;
            Layout {
                set,
                form,
                masks: defs.iter().map(mask_of).collect(),
                views: defs.iter().map(|d| views(mask_of(d))).collect(),
                canons,
                offsets,
                mobility,
                potential,
                disc,
                len: disc + 1,
            }
        })
    }

    /// The sign of the opponent's count entries: −1 where its table is the
    /// mover's, subtracted (colour-tied), +1 where it is a table of its own.
    pub fn opponent_sign(&self) -> f32 {
        match self.form {
            Form::ColourTied => -1.0,
            Form::SideToMove => 1.0,
        }
    }

    /// The weight of configuration `c` of pattern `i`, given each parameter's
    /// weight `w(j)` (`j` counted within the anchor): its parameter's, signed.
    #[inline]
    pub fn config_weight(&self, i: usize, c: usize, w: impl Fn(usize) -> i16) -> i16 {
        match self.canons[i].param(c) {
            None => 0,
            Some((j, sign)) => {
                let v = w(self.offsets[i] + j);
                if sign > 0.0 { v } else { -v }
            }
        }
    }

    /// The weight of count `m` of `who` (0 the mover, 1 the opponent) in the
    /// count tables at `offsets` ([`Layout::mobility`] or [`Layout::potential`]),
    /// given each parameter's weight `w(j)`, signed as the evaluation adds it.
    #[inline]
    pub fn count_weight(
        &self,
        offsets: [usize; 2],
        who: usize,
        m: usize,
        w: impl Fn(usize) -> i16,
    ) -> i16 {
        let v = w(offsets[who] + m);
        if who == 1 && self.opponent_sign() < 0.0 {
            -v
        } else {
            v
        }
    }

    /// How many views the layout reads (at most [`MAX_VIEWS`]).
    pub fn view_count(&self) -> usize {
        self.views.iter().map(Vec::len).sum()
    }

    /// A name for the layout of `set` in `form`, written in and checked against
    /// a weights file: the patterns' squares, the anchors, the table sizes and
    /// the form (the classic colour-tied name is the one files had before forms
    /// and sets existed).
    pub fn signature(set: PatternSet, form: Form) -> String {
        let pats: Vec<String> = set
            .patterns()
            .iter()
            .map(|d| {
                let sq: Vec<String> = d.squares.iter().map(u8::to_string).collect();
                format!("{}:{}", d.name, sq.join(","))
            })
            .collect();
        format!(
            "patterns {}; anchors {ANCHORS} step {ANCHOR_STEP}; mobility {MOBILITY_BUCKETS}; \
             potential {POTENTIAL_BUCKETS}; disc-free from {DISC_FREE_EMPTIES}{}",
            pats.join(" "),
            match form {
                Form::ColourTied => "",
                Form::SideToMove => "; side to move",
            }
        )
    }
}

/// The anchor at or below `empties` and the weight (0..=[`ANCHOR_STEP`]) of the
/// anchor above it.
#[inline(always)]
pub fn anchor_of(empties: u32) -> (usize, u32) {
    let e = empties.min(((ANCHORS - 1) as u32) * ANCHOR_STEP);
    ((e / ANCHOR_STEP) as usize, e % ANCHOR_STEP)
}

/// Whether an anchor has a disc weight (it is zero from [`DISC_FREE_EMPTIES`] on).
pub const fn anchor_counts_discs(anchor: usize) -> bool {
    (anchor as u32) * ANCHOR_STEP < DISC_FREE_EMPTIES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_set_has_its_views_of_distinct_instances() {
        let counts = |set: PatternSet| -> Vec<usize> {
            set.patterns()
                .iter()
                .map(|d| views(mask_of(d)).len())
                .collect()
        };
        let classic = counts(PatternSet::Classic);
        assert_eq!(classic, [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
        assert_eq!(classic.iter().sum::<usize>(), 46);
        let extended = counts(PatternSet::Extended);
        assert_eq!(extended[..11], classic[..]);
        assert_eq!(extended[11..], [4, 4, 4]);
        assert_eq!(extended.iter().sum::<usize>(), MAX_VIEWS);
        for set in PatternSet::ALL {
            for d in set.patterns() {
                assert!(d.squares.windows(2).all(|w| w[0] < w[1]), "{}", d.name);
                assert!(d.squares.len() <= MAX_CELLS);
            }
            assert!(Layout::of(set, Form::SideToMove).view_count() <= MAX_VIEWS);
            assert_eq!(PatternSet::parse(set.name()), Ok(set));
        }
        assert!(PatternSet::parse("wide").is_err());
    }

    #[test]
    fn the_classic_signature_is_the_one_the_shipped_files_carry() {
        // Files made before pattern sets existed name this layout; it must not change.
        let sig = Layout::signature(PatternSet::Classic, Form::ColourTied);
        assert!(sig.starts_with("patterns edge+2x:0,1,2,3,4,5,6,7,9,14 corner2x5:"));
        assert!(sig.ends_with(
            "diag4:4,13,22,31; anchors 16 step 4; mobility 36; potential 48; disc-free from 20"
        ));
        let mut all = Vec::new();
        for set in PatternSet::ALL {
            for form in Form::ALL {
                all.push(Layout::signature(set, form));
            }
        }
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 4);
    }

    #[test]
    fn canonical_parameters_tie_mirrors_and_negate_swaps() {
        // A row of 8: reversal is its only symmetry. (3^8 - 3^4) / 4 pairs of
        // configurations up to reversal and swap, plus the reversal-symmetric ones
        // (3^4 - 1) / 2: configurations c with swap(c) == reverse(c) get no weight.
        let row = canon(&PATTERN_DEFS[3], true);
        assert_eq!(row.slot[0], 0);
        let one = row.slot[1]; // mover on a2
        assert!(one > 0);
        assert_eq!(row.slot[2], -one); // opponent on a2
        assert_eq!(row.slot[pow3(7)], one); // mover on h2 (the mirror)
        assert_eq!(row.slot[1 + 2 * pow3(7)], 0); // mover a2, opponent h2
        // The 2x5 block has no symmetry of its own: only swaps pair up.
        let block = canon(&PATTERN_DEFS[1], true);
        assert_eq!(block.params, (pow3(10) - 1) / 2);
    }

    #[test]
    fn untied_parameters_share_only_mirrors() {
        // Without the colour tie the row has (3^8 + 3^4) / 2 configurations up to
        // reversal, each with a weight of its own and a positive sign.
        let row = canon(&PATTERN_DEFS[3], false);
        assert_eq!(row.params, (pow3(8) + pow3(4)) / 2);
        assert!(row.slot.iter().all(|&v| v > 0));
        assert_ne!(row.slot[1], row.slot[2]); // mover or opponent on a2
        assert_eq!(row.slot[1], row.slot[pow3(7)]); // the mirror
        assert_eq!(canon(&PATTERN_DEFS[1], false).params, pow3(10));
    }
}
