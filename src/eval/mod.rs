//! Static evaluation of midgame positions.
//!
//! # Score unit
//!
//! Scores are integers in **centi-discs**: [`DISC`] (100) is one disc of final
//! margin. They are always seen from the side to move: positive means the side to
//! move is ahead. An evaluation stays within ±[`EVAL_MAX`] (62.99 discs), strictly
//! inside ±63 discs, so a heuristic score never looks like a proven result of 63
//! or 64 discs; [`to_discs`] converts to the float discs of the protocols.
//!
//! # Evaluations
//!
//! - [`EvalKind::Discs`]: the plain disc difference (the greedy baseline).
//! - [`EvalKind::Learned`] (the default): patterns fitted to self-play, with
//!   mobility and potential mobility as headline terms and no disc term while 20
//!   or more squares are empty; see [`learned`]. Anti-Reversi has weights of its
//!   own, fitted to Anti-Reversi games (`rules::Anti`).
//! - [`EvalKind::Mobility`]: the hand-written mobility-first evaluation. While 20 or more squares
//!   are empty the disc difference counts for nothing; what counts is mobility (own
//!   legal moves minus the opponent's, damped when both sides have many), corner
//!   moves, potential mobility (empties next to the other side's discs), corners,
//!   stable edge discs, the X- and C-squares held *while the corner beside them is
//!   empty* (next to an owned corner they are no liability), and a penalty for
//!   being down to a handful of discs (wipe-out risk). Below 20 empties the disc
//!   weight rises, slowly at first (as the cube of the progress), to one disc per
//!   disc at the last placement, while every other weight fades to zero. The
//!   weights and their reasons are in [`weights`]; the features in [`features`].
//!   Parity is left out: it would break its exact antisymmetry below, and the
//!   endgame search sees it better.
//!
//! All three are invariant under the eight symmetries of the board. The discs and
//! the hand-written evaluations, and the learned one with colour-tied weights, are
//! antisymmetric: `evaluate(b.pass()) == -evaluate(b)`. The shipped learned
//! weights (both rule sets) are of the side-to-move form
//! ([`Form`](crate::knowledge::layout::Form)): they price having the move, so
//! the same discs with the other side to move are
//! scored apart (the colour-swapped position, side to move swapped too, still
//! scores the same for its mover). The hand-written one costs a few tens
//! of nanoseconds (two move generations and some population counts), the learned
//! one about a hundred (46 pattern look-ups besides); neither allocates.

pub mod features;
pub mod learned;
pub mod pattern;
pub mod score;
pub mod weights;

use crate::board::Board;
use features::Features;
use std::fmt;
use std::str::FromStr;

pub use score::{
    DISC, EVAL_MAX, MAX_MARGIN, ceil_discs, floor_discs, from_discs, from_float_discs,
    rounded_discs, to_discs, whole_discs,
};

/// Which static evaluation to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EvalKind {
    /// Mobility first: mobility, potential mobility, corners and edges, discs only
    /// near the end (the engine's evaluation).
    Mobility,
    /// The disc difference alone (a baseline to measure against).
    Discs,
    /// The learned pattern evaluation, mobility first ([`learned`]): the
    /// engine's default.
    #[default]
    Learned,
}

impl EvalKind {
    /// The name accepted by [`FromStr`] and written by [`Display`](fmt::Display).
    pub const fn name(self) -> &'static str {
        match self {
            EvalKind::Mobility => "mobility",
            EvalKind::Discs => "discs",
            EvalKind::Learned => "learned",
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An evaluation name other than `mobility` or `discs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEval(pub String);

impl fmt::Display for UnknownEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown evaluation '{}' (expected learned, mobility or discs)",
            self.0
        )
    }
}

impl std::error::Error for UnknownEval {}

impl FromStr for EvalKind {
    type Err = UnknownEval;

    /// Parses `learned`, `mobility` or `discs`, in any case.
    fn from_str(s: &str) -> Result<EvalKind, UnknownEval> {
        match s.trim().to_ascii_lowercase().as_str() {
            "mobility" => Ok(EvalKind::Mobility),
            "discs" => Ok(EvalKind::Discs),
            "learned" => Ok(EvalKind::Learned),
            _ => Err(UnknownEval(s.to_string())),
        }
    }
}

/// The static evaluation of `board` by `kind`, in centi-discs for the side to move,
/// within ±[`EVAL_MAX`].
#[inline]
pub fn evaluate(kind: EvalKind, board: &Board) -> i32 {
    match kind {
        EvalKind::Mobility => evaluate_mobility(board),
        EvalKind::Discs => evaluate_discs(board),
        EvalKind::Learned => learned::evaluate_learned(board),
    }
}

/// The mobility-first evaluation (see the module documentation).
///
/// On x86-64 CPUs with AVX2 and POPCNT it runs a copy compiled for them (two to
/// three times faster than the baseline build: hardware population counts and the
/// AVX2 move generator inlined); the feature check is a few predictable branches.
#[inline]
pub fn evaluate_mobility(board: &Board) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::board::movegen::has_fast_kernel() {
        // SAFETY: the CPU supports every feature `evaluate_mobility_fast` is compiled for.
        return unsafe { evaluate_mobility_fast(board) };
    }
    score(&Features::of(board))
}

/// [`evaluate_mobility`] compiled for AVX2, BMI and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn evaluate_mobility_fast(board: &Board) -> i32 {
    score(&Features::of(board))
}

/// The weighted sum of `f` at its phase, clamped to ±[`EVAL_MAX`]: the
/// mobility-first evaluation of extracted features (public for tests and tuning).
#[inline(always)]
pub fn score(f: &Features) -> i32 {
    let w = &weights::BY_EMPTIES[f.empties.min(64) as usize];
    let damping = weights::MOBILITY_SCALE[f.total_mobility.clamp(0, 127) as usize];
    // Division truncates towards zero, so the term stays exactly antisymmetric.
    let mobility = (i64::from(w.mobility * f.mobility) * i64::from(damping) / (1 << 16)) as i32;
    let s = mobility
        + w.corner_moves * f.corner_moves
        + w.potential_mobility * f.potential_mobility
        + w.corners * f.corners
        + w.x_squares * f.x_squares
        + w.c_squares * f.c_squares
        + w.stable_edges * f.stable_edges
        + w.wipeout * f.wipeout
        + w.discs * f.discs;
    s.clamp(-EVAL_MAX, EVAL_MAX)
}

/// The Anti-Reversi evaluation of extracted features, where the fewer discs win:
/// mobility and potential mobility keep their sign (having moves lets a player
/// choose the ones that take least and force the opponent to take more); every
/// term about owning discs changes sign: the disc difference, corners and stable
/// edge discs (discs that can never be turned away are a liability), the X- and
/// C-squares beside an empty corner (they hand the corner, and its permanent
/// discs, to the opponent) and the few-discs term (being wiped out wins). Corner
/// moves count for nothing: a corner is now a move to avoid, and having the
/// option costs nothing. Antisymmetric, like [`score`].
#[inline]
pub fn score_anti(f: &Features) -> i32 {
    let w = &weights::BY_EMPTIES[f.empties.min(64) as usize];
    let damping = weights::MOBILITY_SCALE[f.total_mobility.clamp(0, 127) as usize];
    let mobility = (i64::from(w.mobility * f.mobility) * i64::from(damping) / (1 << 16)) as i32;
    let owning = w.corners * f.corners
        + w.x_squares * f.x_squares
        + w.c_squares * f.c_squares
        + w.stable_edges * f.stable_edges
        + w.wipeout * f.wipeout
        + w.discs * f.discs;
    (mobility + w.potential_mobility * f.potential_mobility - owning).clamp(-EVAL_MAX, EVAL_MAX)
}

/// The disc difference times [`DISC`], clamped to ±[`EVAL_MAX`].
#[inline]
pub fn evaluate_discs(board: &Board) -> i32 {
    from_discs(board.disc_difference()).clamp(-EVAL_MAX, EVAL_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitboard::symmetry;
    use crate::test_positions::random_positions;

    /// A board from square names: the mover's and the opponent's discs.
    fn board(player: &[&str], opponent: &[&str]) -> Board {
        let bits = |names: &[&str]| -> u64 {
            names
                .iter()
                .map(|n| n.parse::<crate::Square>().unwrap().bit())
                .fold(0, |a, b| a | b)
        };
        Board::new(bits(player), bits(opponent))
    }

    #[test]
    fn x_square_penalised_only_beside_an_empty_corner() {
        let open = board(&["b2", "d4", "e5"], &["c3", "d5", "e4"]);
        assert_eq!(Features::of(&open).x_squares, 1);
        assert_eq!(Features::of(&open.pass()).x_squares, -1);
        let mine = board(&["a1", "b2", "d4", "e5"], &["c3", "d5", "e4"]);
        let theirs = board(&["b2", "d4", "e5"], &["a1", "c3", "d5", "e4"]);
        assert_eq!(Features::of(&mine).x_squares, 0);
        assert_eq!(Features::of(&theirs).x_squares, 0);
        const { assert!(weights::MIDGAME.x_squares < 0) };
        // The same for a C-square, on another corner.
        let c_open = board(&["h7", "d4", "e5"], &["d5", "e4"]);
        let c_owned = board(&["h7", "d4", "e5"], &["h8", "d5", "e4"]);
        assert_eq!(Features::of(&c_open).c_squares, 1);
        assert_eq!(Features::of(&c_owned).c_squares, 0);
        const { assert!(weights::MIDGAME.c_squares < 0) };
    }

    #[test]
    fn symmetric_positions_evaluate_equal() {
        for b in random_positions(40) {
            let v = evaluate_mobility(&b);
            for s in 1..8 {
                let m = Board::new(symmetry(b.player, s), symmetry(b.opponent, s));
                assert_eq!(evaluate_mobility(&m), v, "symmetry {s} of {b:?}");
                assert_eq!(Features::of(&m), Features::of(&b));
            }
        }
    }

    #[test]
    fn swapping_sides_negates_exactly() {
        for b in random_positions(40) {
            assert_eq!(evaluate_mobility(&b.pass()), -evaluate_mobility(&b));
            assert_eq!(evaluate_discs(&b.pass()), -evaluate_discs(&b));
        }
    }

    #[test]
    fn discs_count_for_nothing_with_20_or_more_empties() {
        for b in random_positions(40) {
            let f = Features::of(&b);
            let more = Features {
                discs: f.discs + 17,
                ..f
            };
            if f.empties >= 20 {
                assert_eq!(score(&more), score(&f), "{} empties", f.empties);
            } else if f.empties <= 1 {
                assert_eq!(weights::BY_EMPTIES[f.empties as usize].discs, DISC);
            }
        }
    }

    #[test]
    fn scores_stay_strictly_inside_63_discs() {
        let mut extreme = random_positions(200);
        // One disc against many, both ways round, early and late.
        extreme.push(board(
            &["d4"],
            &["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"],
        ));
        extreme.push(Board::new(!0 << 1, 0));
        extreme.push(Board::new(1 << 27, !(1u64 << 27) & !(1 << 63)));
        for b in extreme {
            for b in [b, b.pass()] {
                for kind in [EvalKind::Learned, EvalKind::Mobility, EvalKind::Discs] {
                    let v = evaluate(kind, &b);
                    assert!(v.abs() <= EVAL_MAX && v.abs() < 63 * DISC, "{kind} {v}");
                }
            }
        }
    }

    #[test]
    fn disc_evaluation_is_the_difference() {
        let b = Board::START.play("f5".parse().unwrap()).unwrap();
        assert_eq!(evaluate_discs(&b), -3 * DISC);
        assert_eq!(to_discs(evaluate_discs(&b)), -3.0);
    }

    #[test]
    fn the_start_is_level_and_corners_attract() {
        assert_eq!(evaluate_mobility(&Board::START), 0);
        // The mover can take a1 over the opponent's b2 (and play e5).
        let b = board(&["c3"], &["b2", "d4"]);
        assert_eq!(Features::of(&b).corner_moves, 1);
        assert!(evaluate_mobility(&b) > 0);
        assert!(evaluate_mobility(&b.pass()) < 0);
    }

    #[test]
    fn eval_kind_parses_and_displays() {
        for kind in [EvalKind::Learned, EvalKind::Mobility, EvalKind::Discs] {
            assert_eq!(kind.to_string().parse::<EvalKind>(), Ok(kind));
        }
        assert_eq!("Discs".parse::<EvalKind>(), Ok(EvalKind::Discs));
        assert!("material".parse::<EvalKind>().is_err());
        assert_eq!(EvalKind::default(), EvalKind::Learned);
    }
}
