//! What the search needs from a rule set beyond its rules: the evaluation and
//! its learned weights, the exact solver's move ordering, and its last-empties
//! fast path. Implemented here for each rule set, so that the rules
//! (`crate::rules`) know nothing of the search or the evaluation; the
//! search is generic over [`RuleSearch`] and monomorphised, as over
//! [`Rules`].

use super::last_empties::solve;
use super::params::{ANTI_SOLVER_ORDER, OTHELLO_SOLVER_ORDER, SolverOrder};
use crate::board::Board;
use crate::board::movegen::Kernel;
use crate::eval::features::Features;
use crate::eval::learned::{evaluate_learned, evaluate_learned_anti};
use crate::eval::{EvalKind, evaluate, score_anti};
use crate::rules::{Anti, Othello, Reversi, Rules};
use crate::rules::{State, Variant};

/// A rule set as the search plays it: the leaf evaluation, the solver's
/// ordering weights and its last-empties solver.
pub trait RuleSearch: Rules {
    /// The learned weights these rules evaluate with, and so the Multi-ProbCut
    /// regressions fitted with them (`crate::search::probcut`).
    const WEIGHTS: Variant;

    /// The exact solver's move-ordering weights under these rules.
    const SOLVER_ORDER: SolverOrder = OTHELLO_SOLVER_ORDER;

    /// The last-empties solver these rules use, if any (see [`LastEmpties`]).
    const LAST_EMPTIES: LastEmpties = LastEmpties::None;

    /// The leaf evaluation, centi-discs for the side to move.
    fn evaluate(kind: EvalKind, p: &Self::Pos) -> i32;

    /// The evaluation the exact solver orders its moves by, with the kernel `k`
    /// (where [`RuleSearch::SOLVER_ORDER`] orders by the evaluation).
    fn order_value<K: Kernel>(k: K, p: &Self::Pos) -> i32;

    /// The null-window value over `alpha` of a position with `empties` (at most
    /// 4) empty squares by the specialised solver, counting its nodes in
    /// `nodes`; `None` where the rule set has none (the general search then
    /// goes on).
    #[inline(always)]
    fn last_empties<K: Kernel>(
        k: K,
        nodes: &mut u64,
        p: &Self::Pos,
        alpha: i32,
        empties: u32,
    ) -> Option<i32> {
        let b = Self::board(p);
        let odd_first = Self::SOLVER_ORDER.odd_first;
        match Self::LAST_EMPTIES {
            LastEmpties::None => None,
            LastEmpties::Othello => Some(solve::<K, false>(k, nodes, b, alpha, empties, odd_first)),
            LastEmpties::Anti => Some(solve::<K, true>(k, nodes, b, alpha, empties, odd_first)),
        }
    }
}

/// The search's hand-unrolled solver of the last four empties
/// (`search::last_empties`), for rule sets whose moves are Othello's on the
/// board alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastEmpties {
    /// None: the general search plays the last empties out.
    None,
    /// Counted as Othello: empties to the winner.
    Othello,
    /// Counted as Anti-Reversi: the fewer discs win, empties count for nobody.
    Anti,
}

/// Othello: the last-empties fast path.
impl RuleSearch for Othello {
    const WEIGHTS: Variant = Variant::Othello;
    const LAST_EMPTIES: LastEmpties = LastEmpties::Othello;

    #[inline(always)]
    fn evaluate(kind: EvalKind, p: &Board) -> i32 {
        evaluate(kind, p)
    }
    #[inline(always)]
    fn order_value<K: Kernel>(_k: K, p: &Board) -> i32 {
        // The learned evaluation, as the midgame search calls it: on FFO 40-49
        // it ordered the solver's moves into 1,356 M nodes where the
        // hand-written one took 1,529 M (`EVAL_ORDER_MIN_EMPTIES`).
        evaluate_learned(p)
    }
}

/// Anti-Reversi: the last-empties fast path with its own count, and its own
/// solver ordering.
impl RuleSearch for Anti {
    const WEIGHTS: Variant = Variant::Anti;
    const SOLVER_ORDER: SolverOrder = ANTI_SOLVER_ORDER;
    const LAST_EMPTIES: LastEmpties = LastEmpties::Anti;

    #[inline(always)]
    fn evaluate(kind: EvalKind, p: &Board) -> i32 {
        // Othello's evaluations would play for the wrong side: the learned one
        // has weights fitted to Anti-Reversi games, the others are the
        // hand-written Anti-Reversi evaluation.
        match kind {
            EvalKind::Learned => evaluate_learned_anti(p),
            EvalKind::Mobility | EvalKind::Discs => score_anti(&Features::of(p)),
        }
    }
    #[inline(always)]
    fn order_value<K: Kernel>(_k: K, p: &Board) -> i32 {
        // The learned evaluation: the hand-written one ordered worse than
        // fastest-first alone (`ANTI_SOLVER_ORDER`).
        evaluate_learned_anti(p)
    }
}

/// Historical Reversi: Othello's evaluation, on the board alone.
impl RuleSearch for Reversi {
    const WEIGHTS: Variant = Variant::Othello;

    #[inline(always)]
    fn evaluate(kind: EvalKind, p: &State) -> i32 {
        // Nothing to judge in the four flipless placements.
        if p.in_opening() {
            0
        } else {
            evaluate(kind, &p.board)
        }
    }
    #[inline(always)]
    fn order_value<K: Kernel>(_k: K, p: &State) -> i32 {
        evaluate_learned(&p.board)
    }
}
