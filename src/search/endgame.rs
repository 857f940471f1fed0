//! The exact endgame solver: plays the rest of the game out to the final count.
//!
//! Scores here are whole discs (the final disc difference for the side to move,
//! empties to the winner); the caller converts to centi-discs. A pass costs no
//! depth: the search always runs to the end of the game. Layers, deepest first:
//! - [`Solver::solve`]: the root, a principal-variation search over the window;
//! - `pvs`: PV nodes (few), full window, null-window probes for later moves;
//! - `nws` (null-window search) above `SHALLOW_EMPTIES`: transposition table
//!   (from `ENDGAME_TT_MIN_EMPTIES`), fastest-first ordering (the learned
//!   evaluation's, then a small search's, with more empties);
//! - `nws` at `SHALLOW_EMPTIES` or fewer: no table, moves in quadrant-parity order;
//! - `solve_4` .. `solve_1` (in `last_empties`): hand-unrolled last empties, parity
//!   order, no move mask.
//!
//! Every `nws` node from `STABILITY_MIN_EMPTIES` up first tries the stability
//! cut-off, the last four empties included.
//!
//! The recursive functions exist twice, once compiled for the baseline and once for
//! AVX2/BMI/LZCNT/POPCNT, chosen at run time (see `board::movegen`).

use super::NullWindowBest;
use super::RuleSearch;
use super::context::Context;
use super::last_empties::parity_first;
use super::params::{
    ABDADA_MIN_EMPTIES, ENDGAME_TT_MIN_EMPTIES, ETC_MIN_EMPTIES, FASTEST_FIRST_MIN_EMPTIES,
    ORDER_MOBILITY_WEIGHT, SEARCH_ORDER_DEPTH, SHALLOW_EMPTIES, SOLVER_PARITY_BONUS,
    STABILITY_MIN_EMPTIES, stability_threshold,
};
use super::stack::Stack;
use super::watch::{Watched, exact_bounds};
use super::{INF_DISCS, PASS, window_bounds};
use crate::board::MAX_MOVES;
use crate::board::bitboard::{CORNERS, Squares};
#[cfg(target_arch = "x86_64")]
use crate::board::movegen::Avx2;
use crate::board::movegen::{self, Dispatch, Kernel, Portable};
use crate::eval::{from_discs, whole_discs};
use crate::rules::Othello;
use crate::tt::{NO_MOVE, PROVEN, TranspositionTable, TtData};
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;

/// The solver's state for one search under the rules `R`: its thread context
/// (node counter, stop flags, shared table).
pub struct Solver<'a, R: RuleSearch = Othello> {
    ctx: Context<'a>,
    rules: PhantomData<R>,
}

/// The result of a PV solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The score in discs for the side to move, exact when inside the window.
    pub score: i32,
    /// The principal variation, passes as [`PASS`]; empty when the game is over.
    pub pv: Vec<u8>,
}

impl Solved {
    /// The best move's square; `None` when the side to move must pass or the game
    /// is over.
    pub fn best(&self) -> Option<u8> {
        self.pv.first().copied().filter(|&m| m != PASS)
    }
}

impl<'a, R: RuleSearch> Solver<'a, R> {
    /// A solver under the rules `R` sharing `tt` and watching `stop`.
    pub fn new(tt: &'a TranspositionTable, stop: &'a AtomicBool) -> Solver<'a, R> {
        Solver::in_context(Context::new(tt, stop))
    }

    /// A solver under the rules `R` in the thread context `ctx`.
    pub fn in_context(ctx: Context<'a>) -> Solver<'a, R> {
        Solver {
            ctx,
            rules: PhantomData,
        }
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.ctx.nodes
    }

    /// Whether the stop flag cut the last search short (its result is then void).
    pub fn aborted(&self) -> bool {
        self.ctx.aborted
    }

    /// Solves `board` within `(alpha, beta)` (discs): the exact score if it lies
    /// strictly inside, otherwise a bound on the correct side. `(-1, 1)` gives a
    /// win/loss/draw proof.
    pub fn solve(&mut self, board: R::Pos, alpha: i32, beta: i32) -> Solved {
        let mut r = self.solve_reversed(board, alpha, beta);
        r.pv.reverse();
        r
    }

    /// [`solve`](Self::solve) with the line last move first, as the search
    /// builds it (each PV node pushes its move).
    pub(super) fn solve_reversed(&mut self, board: R::Pos, alpha: i32, beta: i32) -> Solved {
        #[cfg(target_arch = "x86_64")]
        if movegen::has_fast_kernel() {
            // SAFETY: the CPU supports every feature `pvs_fast` is compiled for.
            return unsafe { pvs_fast(self, board, alpha, beta) };
        }
        pvs_plain(self, board, alpha, beta)
    }

    /// A null-window search: the score if it is at most `alpha`, otherwise a
    /// lower bound above `alpha`.
    pub fn nws(&mut self, board: R::Pos, alpha: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if movegen::has_fast_kernel() {
            // SAFETY: the CPU supports every feature `nws_fast` is compiled for.
            return unsafe { nws_fast(self, board, alpha) };
        }
        nws_plain(self, board, alpha)
    }

    /// Whether to stop now (see [`Context::should_stop`]), reading table
    /// entries as the solver's exact bounds.
    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        self.ctx.should_stop(exact_bounds)
    }
}

// ---------------------------------------------------------------------------
// Null-window search from five empties up.

/// How promising a move is for fastest-first ordering (higher first): few replies
/// for the opponent, corners, the discs the mover gets, and the parity region
/// (`first`: the squares of the preferred parity),
/// weighed as the rules say ([`RuleSearch::SOLVER_ORDER`]).
#[inline(always)]
fn order_score<K: Kernel, R: RuleSearch>(k: K, child: &R::Pos, sq: u8, first: u64) -> i32 {
    let order = R::SOLVER_ORDER;
    let replies = R::moves(k, child);
    let replies = replies.count_ones() as i32
        + order.corner_reply_extra * (replies & CORNERS).count_ones() as i32;
    // The mover is the child's opponent; its siblings differ by their flips.
    let discs = R::board(child).opponent.count_ones() as i32;
    let mut v = -ORDER_MOBILITY_WEIGHT * replies - order.disc_weight * discs;
    if CORNERS >> sq & 1 != 0 {
        v += order.corner_bonus;
    }
    if first >> sq & 1 != 0 {
        v += SOLVER_PARITY_BONUS;
    }
    v
}

/// Beyond any evaluation.
const INF_EVAL: i32 = 10_000;

/// A small alpha-beta search over the evaluation, for move ordering only: no
/// table, passes cost no depth. Every position it visits counts as a node, as in
/// Edax, whose counts we compare with.
fn shallow_value<K: Kernel, R: RuleSearch>(
    k: K,
    s: &mut Solver<R>,
    board: &R::Pos,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    s.ctx.nodes += 1;
    if depth == 0 {
        return R::order_value(k, board);
    }
    let moves = R::moves(k, board);
    if moves == 0 {
        let passed = R::pass(board);
        if R::moves(k, &passed) == 0 {
            return from_discs(R::final_score(board));
        }
        return -shallow_value(k, s, &passed, depth, -beta, -alpha);
    }
    let mut best = -INF_EVAL;
    for sq in Squares(moves) {
        let child = R::make(board, sq, R::flips(k, board, sq));
        let v = -shallow_value(k, s, &child, depth - 1, -beta, -alpha);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The ordering key of the move to `sq` leading to `child`, at a node with
/// `empties` empties (higher first): a small search or the evaluation (each
/// less [`eval_reply_weight`](super::params::SolverOrder::eval_reply_weight)
/// per reply), fastest-first or parity alone, the more expensive the larger
/// the subtree (the evaluation only where the rules order by it).
#[inline(always)]
fn move_key<K: Kernel, R: RuleSearch>(
    k: K,
    s: &mut Solver<R>,
    child: &R::Pos,
    sq: u8,
    first: u64,
    empties: u32,
) -> i32 {
    let order = R::SOLVER_ORDER;
    let value = if empties >= order.search_min_empties {
        Some(shallow_value(
            k,
            s,
            child,
            SEARCH_ORDER_DEPTH,
            -INF_EVAL,
            INF_EVAL,
        ))
    } else if empties >= order.eval_min_empties {
        s.ctx.nodes += 1;
        Some(R::order_value(k, child))
    } else {
        None
    };
    if let Some(value) = value {
        let replies = R::moves(k, child).count_ones() as i32;
        -value - order.eval_reply_weight * replies
    } else if empties >= FASTEST_FIRST_MIN_EMPTIES {
        order_score::<K, R>(k, child, sq, first)
    } else {
        (first >> sq & 1) as i32
    }
}

/// The null-window node: is the score above `alpha`? Fail-soft.
#[inline(always)]
fn nws_body<K: Kernel, R: RuleSearch>(
    k: K,
    s: &mut Solver<R>,
    board: R::Pos,
    alpha: i32,
    recurse: impl Fn(&mut Solver<R>, R::Pos, i32) -> i32,
) -> i32 {
    // Step 1. Stability cut-off: stable discs cap what the mover can reach
    // (a node, counted, even where the specialised solver below would have
    // taken it).
    let empty = R::board(&board).empty();
    let empties = empty.count_ones();
    if empties >= STABILITY_MIN_EMPTIES && alpha >= stability_threshold(empties) {
        let cap = R::score_cap(&board);
        if cap <= alpha {
            s.ctx.nodes += 1;
            return cap;
        }
    }
    // Step 2. The last four empties: the rules' specialised solver.
    if empties <= 4
        && let Some(v) = R::last_empties(k, &mut s.ctx.nodes, &board, alpha, empties)
    {
        return v;
    }
    // Step 3. Count the node; poll the stop flag.
    s.ctx.nodes += 1;
    if s.should_stop() {
        return 0;
    }
    // Step 4. No move: a pass, or the end of the game.
    let moves = R::moves(k, &board);
    if moves == 0 {
        let passed = R::pass(&board);
        if R::moves(k, &passed) == 0 {
            return R::final_score(&board);
        }
        return -recurse(s, passed, -alpha - 1);
    }

    // Step 5. Shallow nodes: no table, the moves in parity order.
    let first = parity_first(empty, R::SOLVER_ORDER.odd_first);
    if empties <= SHALLOW_EMPTIES {
        let mut best = -INF_DISCS;
        for sq in Squares(moves & first).chain(Squares(moves & !first)) {
            let f = R::flips(k, &board, sq);
            let v = -recurse(s, R::make(&board, sq, f), -alpha - 1);
            if v > best {
                best = v;
                if v > alpha {
                    break;
                }
            }
        }
        return best;
    }

    // Step 6. Deep nodes: the table, a cut-off or a move to try first.
    let hash = R::key(&board);
    let mut tt_move = NO_MOVE;
    if empties >= ENDGAME_TT_MIN_EMPTIES
        && let Some(d) = s.ctx.tt.probe(hash)
    {
        if d.selectivity == PROVEN && d.depth as u32 == empties {
            let (lo, hi) = (whole_discs(d.lower as i32), whole_discs(d.upper as i32));
            if lo > alpha {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
        }
        tt_move = d.best_move;
    }

    // Step 7. The children, with their hashes when they will probe the
    // table; their buckets are prefetched all at once, so the misses overlap
    // each other and the ordering work below instead of stalling one by one.
    let mut stack: Stack<(u8, u64, i32, u64), MAX_MOVES> = Stack::new();
    let child_probes = empties > ENDGAME_TT_MIN_EMPTIES;
    for sq in Squares(moves) {
        let f = R::flips(k, &board, sq);
        let child_hash = if child_probes {
            let h = R::key(&R::make(&board, sq, f));
            s.ctx.tt.prefetch(h);
            h
        } else {
            0
        };
        stack.push((sq, f, 0, child_hash));
    }
    let list = stack.as_mut_slice();
    let n = list.len();
    // Step 8. Each child's ordering key, unless the table already cuts.
    for entry in list.iter_mut() {
        let (sq, f, _, child_hash) = *entry;
        // Enhanced transposition cut-off: a child the table already proves bad
        // enough for the opponent ends the search here.
        if empties >= ETC_MIN_EMPTIES
            && let Some(d) = s.ctx.tt.probe(child_hash)
            && d.selectivity == PROVEN
            && whole_discs(d.upper as i32) < -alpha
        {
            return whole_discs(-(d.upper as i32));
        }
        entry.2 = if sq == tt_move {
            i32::MAX
        } else {
            move_key(k, s, &R::make(&board, sq, f), sq, first, empties)
        };
    }
    // Step 9. With several threads, this node is watched from below: should
    // another thread resolve it meanwhile, this thread's work under it is
    // dropped.
    let busy = s.ctx.busy.filter(|_| empties >= ABDADA_MIN_EMPTIES);
    if busy.is_some() {
        s.ctx.watch.enter(Watched {
            hash,
            alpha,
            depth: empties,
            draw: 0,
        });
    }
    // Step 10. The moves, best key first; a move another thread is on
    // comes last (ABDADA).
    let mut best = NullWindowBest::new(-INF_DISCS);
    let mut deferred: Stack<(u8, u64), MAX_MOVES> = Stack::new();
    'moves: {
        for i in 0..n {
            // Selection sort, one step per move tried: a cut-off skips the rest.
            let mut k = i;
            for j in i + 1..n {
                if list[j].2 > list[k].2 {
                    k = j;
                }
            }
            list.swap(i, k);
            let (sq, f, _, h) = list[i];
            let child = R::make(&board, sq, f);
            // Another thread is on this move: come back to it after the others. The
            // first move is searched whatever the others do, and claims nothing (so
            // it never releases a claim that another thread holds).
            let _claim = match busy {
                Some(busy) if i > 0 => {
                    let Some(claim) = busy.claim(h) else {
                        deferred.push((sq, f));
                        continue;
                    };
                    Some(claim)
                }
                _ => None,
            };
            let v = -recurse(s, child, -alpha - 1);
            if s.ctx.aborted || best.cuts(v, sq, alpha) {
                break 'moves;
            }
        }
        for &(sq, f) in deferred.as_slice() {
            let v = -recurse(s, R::make(&board, sq, f), -alpha - 1);
            if s.ctx.aborted || best.cuts(v, sq, alpha) {
                break 'moves;
            }
        }
    }
    // Unwound to here (another thread answered this node first, and its answer
    // is ours), or stopped.
    if let Some(score) = s.ctx.watch.unwound(busy.is_some(), &mut s.ctx.aborted) {
        return score;
    }
    // Step 11. Remember the bound.
    if empties >= ENDGAME_TT_MIN_EMPTIES {
        let (lower, upper) = if best.score > alpha {
            (best.score, INF_DISCS - 1)
        } else {
            (-(INF_DISCS - 1), best.score)
        };
        s.ctx.tt.store(
            hash,
            TtData {
                lower: from_discs(lower.max(-64)) as i16,
                upper: from_discs(upper.min(64)) as i16,
                depth: empties as u8,
                best_move: best.mv,
                selectivity: PROVEN,
            },
        );
    }
    best.score
}

fn nws_plain<R: RuleSearch>(s: &mut Solver<R>, board: R::Pos, alpha: i32) -> i32 {
    nws_body(Portable, s, board, alpha, nws_plain::<R>)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn nws_fast<R: RuleSearch>(s: &mut Solver<R>, board: R::Pos, alpha: i32) -> i32 {
    // SAFETY: `nws_fast` is entered only after `has_fast_kernel()` said yes.
    let k = unsafe { Avx2::assume() };
    nws_body(k, s, board, alpha, |s, b, a| nws_fast::<R>(s, b, a))
}

// ---------------------------------------------------------------------------
// Principal-variation nodes.

/// A PV node over `(alpha, beta)`: the first move with the full window, the rest
/// with a null window and a re-search when one beats `alpha`. Returns the score
/// and the best move.
#[inline(always)]
fn pvs_body<K: Kernel, R: RuleSearch>(
    k: K,
    s: &mut Solver<R>,
    board: R::Pos,
    mut alpha: i32,
    beta: i32,
    recurse: impl Fn(&mut Solver<R>, R::Pos, i32, i32) -> Solved,
    nws: impl Fn(&mut Solver<R>, R::Pos, i32) -> i32,
) -> Solved {
    // Step 1. Count the node.
    s.ctx.nodes += 1;
    // Step 2. No move: a pass, or the end of the game.
    let moves = R::moves(Dispatch, &board);
    if moves == 0 {
        let passed = R::pass(&board);
        if R::moves(Dispatch, &passed) == 0 {
            let score = R::final_score(&board);
            return Solved {
                score,
                pv: Vec::new(),
            };
        }
        let mut r = recurse(s, passed, -beta, -alpha);
        r.score = -r.score;
        r.pv.push(PASS);
        return r;
    }
    // Step 3. The moves, the table's best first, then fastest-first.
    let empty = R::board(&board).empty();
    let first = parity_first(empty, R::SOLVER_ORDER.odd_first);
    let hash = R::key(&board);
    let tt_move = s.ctx.tt.probe(hash).map_or(NO_MOVE, |d| d.best_move);
    let mut stack = pv_order::<K, R>(k, &board, moves, tt_move, first);
    let list = stack.as_mut_slice();
    let n = list.len();
    let mut best = Solved {
        score: -INF_DISCS,
        pv: Vec::new(),
    };
    // Step 4. The first move with the full window, the others with a null
    // window, searched again with the full one when they beat `alpha`.
    let alpha0 = alpha;
    for (i, &(sq, _)) in list[..n].iter().enumerate() {
        let child = R::make(&board, sq, R::flips(Dispatch, &board, sq));
        let mut line = Solved {
            score: 0,
            pv: Vec::new(),
        };
        if i == 0 {
            line = recurse(s, child, -beta, -alpha);
            line.score = -line.score;
        } else {
            line.score = -nws(s, child, -alpha - 1);
            if line.score > alpha && line.score < beta && !s.ctx.aborted {
                line = recurse(s, child, -beta, -alpha);
                line.score = -line.score;
            }
        }
        if s.ctx.aborted {
            return best;
        }
        if line.score > best.score {
            line.pv.push(sq);
            best = line;
            if best.score > alpha {
                alpha = best.score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    // Step 5. Remember the bound, or the exact score.
    let empties = empty.count_ones();
    if empties >= ENDGAME_TT_MIN_EMPTIES {
        let (lower, upper) = window_bounds(best.score, (alpha0, beta), 64);
        s.ctx.tt.store(
            hash,
            TtData {
                lower: from_discs(lower) as i16,
                upper: from_discs(upper) as i16,
                depth: empties as u8,
                best_move: best.pv.last().copied().unwrap_or(NO_MOVE),
                selectivity: PROVEN,
            },
        );
    }
    best
}

/// The moves of a PV node with their ordering scores, best first: the table's
/// move, then the fastest-first order of [`order_score`].
#[inline(always)]
fn pv_order<K: Kernel, R: RuleSearch>(
    k: K,
    board: &R::Pos,
    moves: u64,
    tt_move: u8,
    first: u64,
) -> Stack<(u8, i32), MAX_MOVES> {
    let mut stack: Stack<(u8, i32), MAX_MOVES> = Stack::new();
    for sq in Squares(moves) {
        let child = R::make(board, sq, R::flips(Dispatch, board, sq));
        let score = if sq == tt_move {
            i32::MAX
        } else {
            order_score::<K, R>(k, &child, sq, first)
        };
        stack.push((sq, score));
    }
    stack
        .as_mut_slice()
        .sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    stack
}

fn pvs_plain<R: RuleSearch>(s: &mut Solver<R>, board: R::Pos, alpha: i32, beta: i32) -> Solved {
    pvs_body(
        Portable,
        s,
        board,
        alpha,
        beta,
        pvs_plain::<R>,
        nws_plain::<R>,
    )
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn pvs_fast<R: RuleSearch>(s: &mut Solver<R>, board: R::Pos, alpha: i32, beta: i32) -> Solved {
    // SAFETY: `pvs_fast` is entered only after `has_fast_kernel()` said yes.
    let k = unsafe { Avx2::assume() };
    pvs_body(
        k,
        s,
        board,
        alpha,
        beta,
        |s, b, a, be| pvs_fast::<R>(s, b, a, be),
        |s, b, a| nws_fast::<R>(s, b, a),
    )
}
