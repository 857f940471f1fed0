//! The learned evaluation: pattern weights fitted to self-play positions, with
//! mobility and potential mobility as explicit terms.
//!
//! The value of a position with `e` empties is the sum of
//! - the weight of each pattern view's configuration ([`pattern`]; 46 views
//!   for the classic pattern set, 58 for the extended one);
//! - `mobility[m]` for the mover's `m` legal moves minus `mobility[m']` for the
//!   opponent's `m'`, and the same for potential mobility (empty squares next to
//!   the other side's discs): the headline terms of a mobility-first evaluation;
//! - below [`DISC_FREE_EMPTIES`](super::weights::DISC_FREE_EMPTIES) empties only,
//!   a weight times the disc difference;
//! - in Othello (and historical Reversi), a fixed [`wipeout_guard`] against a side
//!   left with almost no discs, which the fitted tables have too few examples of,
//!   and a fixed [`odd_empties_bonus`] for the side to move at an odd number of
//!   empties, which the tables, interpolated between anchors, cannot see; in
//!   Anti-Reversi, its own fixed [`anti_parity_bonus`] (for the mover at even
//!   empties).
//!
//! Weights are fitted at [`ANCHORS`] anchor phases, every [`ANCHOR_STEP`] empties,
//! and interpolated linearly in between, so neighbouring phases agree; the
//! engine expands them to one table per empties count when it first evaluates.
//! The disc weight is zero at every anchor from
//! [`DISC_FREE_EMPTIES`](super::weights::DISC_FREE_EMPTIES) on, so with 20 or more
//! empties the disc difference counts for nothing.
//!
//! Two weights files ship in the binary: Othello's ([`embedded`], which
//! historical Reversi shares) and Anti-Reversi's ([`embedded_anti`]), fitted to
//! Anti-Reversi self-play with that variant's margins as labels; the function
//! and its contract are the same for both.
//!
//! Every pattern is read at all its symmetric places with shared weights, so the
//! evaluation is invariant under the eight symmetries, whatever the weights. A
//! weights file is of one of two [`Form`]s: colour-tied, where every term is
//! antisymmetric by construction (a table difference, or a pattern weight tied
//! to its colour swap's negation), so the same discs with the colours swapped
//! evaluate to the exact negative; or side-to-move, where the mover's and the
//! opponent's configurations and counts have weights of their own, so the
//! evaluation knows whose move it is. Both read the same views and tables at
//! the same cost.

use super::EVAL_MAX;
use super::features::shortfall;
use super::pattern;
use crate::board::Board;
use crate::board::bitboard::{flip_vertical, mirror_horizontal, transpose};
use crate::board::movegen::Kernel;
use crate::knowledge::layout::{
    ANCHOR_STEP, ANCHORS, Form, Layout, MOBILITY_BUCKETS, POTENTIAL_BUCKETS, PatternSet, anchor_of,
    pow3,
};
use crate::knowledge::{mlw, weights};
use crate::rules::Variant;
use std::sync::OnceLock;

/// The eight mirror images of a bitboard, numbered as [`crate::board::bitboard::symmetry`].
#[inline(always)]
pub fn images(b: u64) -> [u64; 8] {
    let t = transpose(b);
    let (m, mt) = (mirror_horizontal(b), mirror_horizontal(t));
    [
        b,
        m,
        flip_vertical(b),
        flip_vertical(m),
        t,
        mt,
        flip_vertical(t),
        flip_vertical(mt),
    ]
}

/// The counts behind the non-pattern terms, mover's and opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Legal moves of the mover and of the opponent, capped to the table.
    pub mobility: [u8; 2],
    /// Empty squares next to the other side's discs, mover and opponent, capped.
    pub potential: [u8; 2],
    /// The mover's discs minus the opponent's.
    pub discs: i8,
}

impl Counts {
    /// The counts of `board`, with move generator `k`.
    #[inline(always)]
    pub fn with<K: Kernel>(k: K, board: &Board) -> Counts {
        let (p, o) = (board.player, board.opponent);
        let empty = board.empty();
        let cap = |n: u32, buckets: usize| n.min(buckets as u32 - 1) as u8;
        Counts {
            mobility: [
                cap(k.moves(p, o).count_ones(), MOBILITY_BUCKETS),
                cap(k.moves(o, p).count_ones(), MOBILITY_BUCKETS),
            ],
            potential: [
                cap(
                    (super::features::neighbours(o) & empty).count_ones(),
                    POTENTIAL_BUCKETS,
                ),
                cap(
                    (super::features::neighbours(p) & empty).count_ones(),
                    POTENTIAL_BUCKETS,
                ),
            ],
            discs: (p.count_ones() as i32 - o.count_ones() as i32) as i8,
        }
    }
}

/// Calls `f(pattern, configuration)` for each view of `layout` on `board`, in
/// the layout's order, with the bit extraction `pext`.
#[inline(always)]
pub fn for_each_view(
    layout: &Layout,
    pext: impl Fn(u64, u64) -> u64 + Copy,
    board: &Board,
    mut f: impl FnMut(usize, usize),
) {
    let (ps, os) = (images(board.player), images(board.opponent));
    for (i, (&mask, views)) in layout.masks.iter().zip(&layout.views).enumerate() {
        for &s in views {
            f(
                i,
                pattern::index_with(pext, ps[s as usize], os[s as usize], mask),
            );
        }
    }
}

/// The weights at one empties count, expanded to every configuration.
#[derive(Debug)]
struct Phase {
    /// Per pattern, every configuration's weight, the patterns one after another.
    patterns: Box<[i16]>,
    /// Per mobility count, the mover's and the opponent's (signed as added).
    mobility: [[i16; MOBILITY_BUCKETS]; 2],
    /// Per potential-mobility count, the mover's and the opponent's.
    potential: [[i16; POTENTIAL_BUCKETS]; 2],
    /// Per disc of disc difference.
    disc: i16,
}

/// One view as the evaluation reads it: the base squares, the symmetry, and
/// where its pattern's weights start in [`Phase::patterns`].
#[derive(Clone, Copy, Debug)]
struct View {
    mask: u64,
    symmetry: usize,
    start: usize,
}

/// The expanded tables of a weights file, one [`Phase`] per empties count 0..=60,
/// each expanded when first needed (about a millisecond; all 61 together would
/// cost a tenth of a second before the first move).
#[derive(Debug)]
pub struct Tables {
    /// The layout of the weights: their pattern set and form.
    layout: &'static Layout,
    /// The views, in the layout's order.
    views: Vec<View>,
    /// Offset of each pattern's configurations in [`Phase::patterns`].
    starts: Vec<usize>,
    /// The anchors' weights (centi-discs), as in the file.
    anchors: Vec<Vec<i16>>,
    phases: Vec<OnceLock<Phase>>,
}

/// `(a·(step − r) + b·r) / step`, rounded half away from zero (so that negating
/// `a` and `b` negates the result exactly).
fn blend(a: i32, b: i32, r: u32) -> i16 {
    let step = ANCHOR_STEP as i32;
    let num = a * (step - r as i32) + b * r as i32;
    let q = (num.abs() + step / 2) / step;
    (q * num.signum()).clamp(-i16::MAX as i32, i16::MAX as i32) as i16
}

impl Tables {
    /// Expands anchor weights (`ANCHORS` rows of the length of the layout of
    /// `set` in `form`, centi-discs).
    pub fn expand(anchors: &[Vec<i16>], set: PatternSet, form: Form) -> Tables {
        let layout = Layout::of(set, form);
        let mut starts = Vec::new();
        let mut total = 0;
        for d in set.patterns() {
            starts.push(total);
            total += pow3(d.squares.len());
        }
        let views = layout
            .masks
            .iter()
            .zip(&layout.views)
            .zip(&starts)
            .flat_map(|((&mask, syms), &start)| {
                syms.iter().map(move |&s| View {
                    mask,
                    symmetry: s as usize,
                    start,
                })
            })
            .collect();
        Tables {
            layout,
            views,
            starts,
            anchors: anchors.to_vec(),
            phases: (0..=(ANCHORS as u32 - 1) * ANCHOR_STEP)
                .map(|_| OnceLock::new())
                .collect(),
        }
    }

    /// The weights at `empties` (at most 60), expanded on first use.
    fn phase(&self, empties: usize) -> &Phase {
        self.phases[empties].get_or_init(|| self.expand_phase(empties as u32))
    }

    /// Interpolates the anchors' weights at `e` empties and expands them to every
    /// configuration.
    fn expand_phase(&self, e: u32) -> Phase {
        let layout = self.layout;
        let anchors = &self.anchors;
        let (k, r) = anchor_of(e);
        let hi = (k + 1).min(ANCHORS - 1);
        let at = |j: usize| blend(i32::from(anchors[k][j]), i32::from(anchors[hi][j]), r);
        let total = self.starts.last().copied().unwrap_or(0)
            + layout.canons.last().map_or(0, |c| c.slot.len());
        let mut patterns = vec![0i16; total].into_boxed_slice();
        for (i, canon) in layout.canons.iter().enumerate() {
            let table = &mut patterns[self.starts[i]..self.starts[i] + canon.slot.len()];
            for (c, w) in table.iter_mut().enumerate() {
                *w = layout.config_weight(i, c, at);
            }
        }
        Phase {
            patterns,
            mobility: std::array::from_fn(|who| {
                std::array::from_fn(|m| layout.count_weight(layout.mobility, who, m, at))
            }),
            potential: std::array::from_fn(|who| {
                std::array::from_fn(|m| layout.count_weight(layout.potential, who, m, at))
            }),
            disc: at(layout.disc),
        }
    }

    /// The evaluation of `board` (centi-discs for the side to move, within
    /// ±[`EVAL_MAX`]) with move generator `k` and bit extraction `pext`.
    #[inline(always)]
    pub fn evaluate_with<K: Kernel>(
        &self,
        k: K,
        pext: impl Fn(u64, u64) -> u64 + Copy,
        board: &Board,
    ) -> i32 {
        let e = board.empties().min(self.phases.len() as u32 - 1);
        let ph = self.phase(e as usize);
        let (ps, os) = (images(board.player), images(board.opponent));
        let mut sum = 0i32;
        for v in &self.views {
            let c = pattern::index_with(pext, ps[v.symmetry], os[v.symmetry], v.mask);
            sum += i32::from(ph.patterns[v.start + c]);
        }
        let n = Counts::with(k, board);
        sum += i32::from(ph.mobility[0][n.mobility[0] as usize])
            + i32::from(ph.mobility[1][n.mobility[1] as usize])
            + i32::from(ph.potential[0][n.potential[0] as usize])
            + i32::from(ph.potential[1][n.potential[1] as usize])
            + i32::from(ph.disc) * i32::from(n.discs);
        sum.clamp(-EVAL_MAX, EVAL_MAX)
    }
}

/// Colour-tied `anchors` of pattern set `set` rewritten in its side-to-move layout: every
/// configuration and count gets the weight it had through its tie (the
/// opponent's tables the negated mover's), so the tables evaluate exactly as
/// before; a start for a side-to-move fit (`mollett train --form side-to-move
/// --prior` with a colour-tied file).
pub fn untie(set: PatternSet, anchors: &[Vec<i16>]) -> Vec<Vec<i16>> {
    let (from, to) = (
        Layout::of(set, Form::ColourTied),
        Layout::of(set, Form::SideToMove),
    );
    anchors
        .iter()
        .map(|a| {
            let w = |j: usize| a[j];
            let mut out = vec![0i16; to.len];
            for i in 0..set.patterns().len() {
                for c in 0..to.canons[i].slot.len() {
                    if let Some((j, _)) = to.canons[i].param(c) {
                        out[to.offsets[i] + j] = from.config_weight(i, c, w);
                    }
                }
            }
            for ((src, dst), size) in [
                ((from.mobility, to.mobility), MOBILITY_BUCKETS),
                ((from.potential, to.potential), POTENTIAL_BUCKETS),
            ] {
                for who in 0..2 {
                    for m in 0..size {
                        out[dst[who] + m] = from.count_weight(src, who, m, w);
                    }
                }
            }
            out[to.disc] = a[from.disc];
            out
        })
        .collect()
}

/// `anchors` of pattern set `from` rewritten for the larger set `to` in the same
/// `form`: each pattern keeps its weights, the patterns `from` lacks weigh
/// nothing and the counts and disc weight stay, so the tables evaluate exactly
/// as before; a start for a fit of the larger set (`mollett train --patterns
/// extended --prior` with a classic file). `None` when `to` lacks a pattern of
/// `from`.
pub fn carry_over(
    from: PatternSet,
    to: PatternSet,
    form: Form,
    anchors: &[Vec<i16>],
) -> Option<Vec<Vec<i16>>> {
    if !to.holds(from) {
        return None;
    }
    let (a, b) = (Layout::of(from, form), Layout::of(to, form));
    let place = |d| to.patterns().iter().position(|e| e == d);
    Some(
        anchors
            .iter()
            .map(|w| {
                let mut out = vec![0i16; b.len];
                for (i, d) in from.patterns().iter().enumerate() {
                    let j = place(d).expect("`to` holds every pattern of `from`");
                    let n = a.canons[i].params;
                    out[b.offsets[j]..b.offsets[j] + n]
                        .copy_from_slice(&w[a.offsets[i]..a.offsets[i] + n]);
                }
                // The count tables and the disc weight follow the patterns, in order.
                let (counts_a, counts_b) = (a.mobility[0], b.mobility[0]);
                out[counts_b..].copy_from_slice(&w[counts_a..]);
                out
            })
            .collect(),
    )
}

/// Checks and expands the weights in use for `rules`.
///
/// # Panics
/// If the file is corrupt, of other rules, or does not match this build's
/// layout; the engine checks both files at start-up
/// ([`crate::knowledge::check_embedded`]) so that a bad build fails at once
/// instead of in a search.
fn load(bytes: &[u8], rules: Variant) -> Tables {
    let file = mlw::parse_for(bytes, rules).unwrap_or_else(|e| panic!("{e}"));
    Tables::expand(&file.anchors, file.patterns, file.form)
}

/// The Othello weights in use (historical Reversi shares them): the embedded
/// file, or the one given at run time ([`crate::knowledge::use_files`],
/// `--eval-file`), checked and expanded on first use; see [`load`] for the panic.
pub fn embedded() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| load(weights(Variant::Othello), Variant::Othello))
}

/// The Anti-Reversi weights in use (embedded, or given at run time), checked
/// and expanded on first use; see [`load`] for the panic.
pub fn embedded_anti() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| load(weights(Variant::Anti), Variant::Anti))
}

/// Centi-discs per disc a side has fewer than
/// [`WIPEOUT_DISCS`](super::weights::WIPEOUT_DISCS) (the hand-written
/// evaluation's threshold, measured there: 4 left a third of its wipe-outs),
/// mover minus opponent, added to the learned Othello evaluation: self-play data holds
/// almost no positions near a wipe-out, so the fitted tables cannot see one
/// coming past the horizon. Without it the disc counter wiped out the round-5
/// weights at depth 4 with 31 empties left (seed experiment, game 17) and won
/// 3 of 400 level-4 games from random openings; with it, none.
pub const WIPEOUT_GUARD: i32 = 300;
/// Empties at or below which [`WIPEOUT_GUARD`] applies: in the first ten moves
/// a side with under six discs is the normal course of a game (one disc after
/// the first move), and guarding there cost the round-4 weights a seed
/// experiment game (lost by wipe-out at 36 empties); from here on it won all.
pub const WIPEOUT_GUARD_EMPTIES: u32 = 50;

/// [`WIPEOUT_GUARD`] for `board`: zero unless a side has fewer than
/// [`WIPEOUT_DISCS`](super::weights::WIPEOUT_DISCS) discs with at most
/// [`WIPEOUT_GUARD_EMPTIES`] empty squares; antisymmetric and symmetric like the
/// rest.
#[inline(always)]
pub fn wipeout_guard(board: &Board) -> i32 {
    if board.empties() > WIPEOUT_GUARD_EMPTIES {
        return 0;
    }
    WIPEOUT_GUARD * (shortfall(board.opponent) - shortfall(board.player))
}

/// Centi-discs added for the side to move when the number of empty squares is
/// odd and above [`ODD_EMPTIES_EXACT_LABELS`]: the correction the fitted tables
/// need for the labels they were fitted to, and for the search they serve.
///
/// Those labels are depth-10 searches, and a search of even depth is pessimistic
/// for the side to move (its last ply is the opponent's choice among noisy leaf
/// values), so the tables learnt that pessimism; and since they are interpolated
/// between anchors four empties apart, they cannot tell an odd number of empties
/// (the mover would have the last move) from an even one. Measured on the exact
/// 28-empty set (`benches/data/accuracy-28.obf`, Black to move at even empties)
/// without it: searches whose leaves have even empties (levels 2, 8 and 10)
/// scored within 0.4 discs of the exact scores on average, those whose leaves
/// have odd empties (levels 1 and 9) 4.2 discs too high, the leaf mover's value
/// too low. Along strong games (`mollett accuracy --games
/// benches/data/consistency-tuning-games.txt`, 12 games apart from the set the
/// README reports on) a position's score plus its child's
/// (0 along best moves) was −3.9 discs at level 8 and +4.9 at level 9 without
/// it, and 300, 350 and 400 here (none below) gave −1.3/+2.3, −1.0/+2.0 and
/// −0.6/+1.6 (issue 41).
pub const ODD_EMPTIES_BONUS: i32 = 400;
/// [`ODD_EMPTIES_BONUS`] at or below [`ODD_EMPTIES_EXACT_LABELS`] empties, where
/// the tables were fitted to exact solves and only the search's own pessimism
/// is left: on the tuning games above (with 400 above), 0, 200 and 400 here left the
/// positions at 16 to 23 empties, whose level-8 searches end here, at −1.3 to
/// −1.6, +0.5 to +0.7 and +2.5 to +2.7 discs of consistency.
pub const ODD_EMPTIES_BONUS_EXACT: i32 = 200;
/// Empties at or below which the smaller [`ODD_EMPTIES_BONUS_EXACT`] applies:
/// the training positions there are labelled by exact solves (`datagen
/// --exact-empties 16`).
pub const ODD_EMPTIES_EXACT_LABELS: u32 = 16;

/// The odd-empties bonus of `board` ([`ODD_EMPTIES_BONUS`],
/// [`ODD_EMPTIES_BONUS_EXACT`]): symmetric under the eight symmetries, and the
/// same whichever side is to move (it is for the mover).
#[inline(always)]
pub fn odd_empties_bonus(board: &Board) -> i32 {
    match board.empties() {
        e if e % 2 == 0 => 0,
        e if e > ODD_EMPTIES_EXACT_LABELS => ODD_EMPTIES_BONUS,
        _ => ODD_EMPTIES_BONUS_EXACT,
    }
}

/// The learned Othello evaluation of `board` (see the module documentation),
/// with the [`wipeout_guard`] and the [`odd_empties_bonus`]; Anti-Reversi, won
/// by losing every disc, has neither (it has [`anti_parity_bonus`]).
#[inline]
pub fn evaluate_learned(board: &Board) -> i32 {
    (evaluate_tables(embedded(), board) + wipeout_guard(board) + odd_empties_bonus(board))
        .clamp(-EVAL_MAX, EVAL_MAX)
}

/// Centi-discs added for the side to move in Anti-Reversi when the number of
/// empty squares is even and above [`ANTI_EXACT_LABELS`]: Anti-Reversi's
/// counterpart of [`ODD_EMPTIES_BONUS`], at the other parity (there the last
/// move in a region is a liability, not an asset).
///
/// Measured without it (issue 41; `benches/data/anti-accuracy-20.obf` and `-21`,
/// 30 positions each, every move solved): searches whose leaves have even
/// empties scored 3.9 to 5.4 discs too low for the mover at 20 empties and those
/// of 21-empty positions whose leaves are even 2.6 to 3.4 too high (the leaf
/// mover's value too low again); leaves at odd empties were 2.8 discs too high
/// for their mover at 20 and 0.7 too low at 21. Along strong games
/// (`mollett accuracy --variant anti --games
/// benches/data/anti-consistency-tuning-games.txt`) a position's score plus its
/// child's was −1.75 discs at level 8 and +2.16 at level 9: the tables are
/// pessimistic for the mover by about 2 discs over the two parities, as the
/// depth-10 labels they were fitted to are. This bonus and
/// [`ANTI_ODD_EMPTIES_BONUS`] (the sum makes up the 2 discs, the difference
/// the parity) brought those to +0.08 and +0.31, where 200 at odd empties
/// alone, as in Othello, evened the sums (−0.01, +0.38) but worsened the
/// test sets by 1 to 2 discs at the levels that end on odd empties.
pub const ANTI_EVEN_EMPTIES_BONUS: i32 = 300;
/// Centi-discs added for the side to move in Anti-Reversi when the number of
/// empty squares is odd and above [`ANTI_EXACT_LABELS`]: a small malus (see
/// [`ANTI_EVEN_EMPTIES_BONUS`]).
pub const ANTI_ODD_EMPTIES_BONUS: i32 = -100;
/// Empties at or below which Anti-Reversi's parity terms are halved: its
/// training positions there are labelled by exact solves (`datagen --variant
/// anti --exact-empties 14`), so only the search's own pessimism is left, as
/// with [`ODD_EMPTIES_BONUS_EXACT`].
pub const ANTI_EXACT_LABELS: u32 = 14;

/// The Anti-Reversi parity terms of `board` ([`ANTI_EVEN_EMPTIES_BONUS`],
/// [`ANTI_ODD_EMPTIES_BONUS`], halved at or below [`ANTI_EXACT_LABELS`]):
/// symmetric under the eight symmetries, and the same whichever side is to move.
#[inline(always)]
pub fn anti_parity_bonus(board: &Board) -> i32 {
    let e = board.empties();
    let bonus = if e % 2 == 0 {
        ANTI_EVEN_EMPTIES_BONUS
    } else {
        ANTI_ODD_EMPTIES_BONUS
    };
    if e > ANTI_EXACT_LABELS {
        bonus
    } else {
        bonus / 2
    }
}

/// The learned Anti-Reversi evaluation of `board`: the same function with the
/// weights fitted to Anti-Reversi games (centi-discs of Anti-Reversi margin for
/// the side to move), with [`anti_parity_bonus`] in place of Othello's
/// odd-empties bonus.
#[inline]
pub fn evaluate_learned_anti(board: &Board) -> i32 {
    (evaluate_tables(embedded_anti(), board) + anti_parity_bonus(board)).clamp(-EVAL_MAX, EVAL_MAX)
}

/// The evaluation of `board` by `tables`.
///
/// On x86-64 CPUs with AVX2 and BMI2 it runs a copy compiled for them (hardware
/// bit extraction and the AVX2 move generator).
#[inline]
pub fn evaluate_tables(tables: &Tables, board: &Board) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::board::movegen::has_fast_kernel() {
        // SAFETY: the CPU supports every feature `evaluate_fast` is compiled for.
        return unsafe { evaluate_fast(tables, board) };
    }
    tables.evaluate_with(
        crate::board::movegen::Portable,
        pattern::pext_portable,
        board,
    )
}

/// [`evaluate_tables`] compiled for AVX2 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn evaluate_fast(tables: &Tables, board: &Board) -> i32 {
    // SAFETY: this function is entered only after `has_fast_kernel` said yes.
    let k = unsafe { crate::board::movegen::Avx2::assume() };
    // BMI2 is enabled here, and the closure inherits it.
    let pext = |x, m| std::arch::x86_64::_pext_u64(x, m);
    tables.evaluate_with(k, pext, board)
}

#[cfg(test)]
mod tests;
