//! The midgame search: a principal-variation search (negascout) over the
//! evaluation, with the transposition table, fastest-first move ordering, and a
//! hand-off to the exact solver once the remaining depth reaches the end of the game.
//!
//! Scores are centi-discs from the side to move's point of view (see [`crate::eval`]).
//! A pass costs no depth. A finished game scores its exact final count, except a
//! draw, which scores the side to move's contempt (see [`Midgame::with_draw`]).

use super::NullWindowBest;
use super::RuleSearch;
use super::context::Context;
use super::endgame::Solver;
use super::ordering::order_midgame;
use super::params::{
    MAX_CONTEMPT, MIDGAME_ABDADA_MIN_DEPTH, MIDGAME_TT_MIN_DEPTH, SELECTIVE_END_MIN_EMPTIES,
    endgame_passes, stability_threshold,
};
use super::probcut::{self, PROBCUT_MIN_DEPTH, ProbCut, Selectivity};
use super::stack::Stack;
use super::watch::Watched;
use super::{INF_DISCS, PASS, window_bounds};
use crate::board::MAX_MOVES;
#[cfg(target_arch = "x86_64")]
use crate::board::movegen::Avx2;
use crate::board::movegen::{self, Kernel, Portable};
use crate::eval::{EvalKind, MAX_MARGIN, ceil_discs, floor_discs, from_discs};
use crate::rules::Othello;
use crate::tt::{FULL_WIDTH, NO_MOVE, PROVEN, TranspositionTable, TtData};
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;

/// Above every score: no position is worth this.
pub const INF: i32 = 10_000;

/// A PV node's result: the score and the line that leads to it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Centi-discs for the side to move.
    pub score: i32,
    /// Moves from this position, [`PASS`] for a pass. Inside the search the
    /// line is kept last move first, so that each PV node pushes its move
    /// rather than shifting the line; [`Midgame::pvs`] returns it in playing
    /// order.
    pub pv: Vec<u8>,
}

/// One worker's midgame search state under the rules `R`.
pub struct Midgame<'a, R: RuleSearch = Othello> {
    /// The thread's context: table, stop flags, node count (exact-solver
    /// nodes included).
    ctx: Context<'a>,
    eval: EvalKind,
    /// What a drawn game is worth to the side to move at the current node
    /// (centi-discs); it changes sign with every ply, pass included.
    draw: i32,
    /// How sure a Multi-ProbCut cut must be (full width: no cut).
    selectivity: Selectivity,
    /// The regressions, when the search is selective and has some for its
    /// rules and evaluation; `None` searches full width.
    probcut: Option<&'static ProbCut>,
    rules: PhantomData<R>,
}

impl<'a, R: RuleSearch> Midgame<'a, R> {
    /// A search under the rules `R` sharing `tt`, watching `stop`, scoring
    /// leaves with `eval`.
    pub fn new(tt: &'a TranspositionTable, stop: &'a AtomicBool, eval: EvalKind) -> Self {
        Midgame::in_context(Context::new(tt, stop), eval)
    }

    /// A search under the rules `R` in the thread context `ctx`, scoring
    /// leaves with `eval`.
    pub fn in_context(ctx: Context<'a>, eval: EvalKind) -> Self {
        Midgame {
            ctx,
            eval,
            draw: 0,
            selectivity: Selectivity::FULL,
            probcut: None,
            rules: PhantomData,
        }
    }

    /// Positions visited so far, exact-solver nodes included.
    pub fn nodes(&self) -> u64 {
        self.ctx.nodes
    }

    /// Returns the node count and starts it again from 0.
    pub fn take_nodes(&mut self) -> u64 {
        std::mem::take(&mut self.ctx.nodes)
    }

    /// The same search at `selectivity`: below full width, null-window nodes
    /// try Multi-ProbCut cuts (see [`probcut`]) with the regressions fitted for
    /// these rules' learned weights (Othello's, which historical Reversi
    /// shares, or Anti-Reversi's). Where none were fitted (the hand-written and
    /// disc-count evaluations) the search stays full width, and its results
    /// are recorded as such.
    pub fn with_selectivity(mut self, selectivity: Selectivity) -> Self {
        self.probcut = self.fitted_cuts().filter(|_| !selectivity.is_full());
        self.selectivity = if self.probcut.is_some() {
            selectivity
        } else {
            Selectivity::FULL
        };
        self
    }

    /// The selectivities of the selective passes to the end that an exact or
    /// win/loss/draw solve of a position with `empties` empties starts with
    /// ([`endgame_passes`]), least sure first: none where this search has no
    /// regressions (it would only search full width).
    pub fn endgame_passes(&self, empties: u32) -> &'static [Selectivity] {
        match self.fitted_cuts() {
            Some(_) => endgame_passes(empties),
            None => &[],
        }
    }

    /// The regressions fitted for these rules' weights, if the search
    /// evaluates with them.
    fn fitted_cuts(&self) -> Option<&'static ProbCut> {
        (self.eval == EvalKind::Learned)
            .then(|| probcut::embedded(R::WEIGHTS).ok())
            .flatten()
    }

    /// The selectivity the search runs at (full width where it has no
    /// regressions).
    pub fn selectivity(&self) -> Selectivity {
        self.selectivity
    }

    /// The same search, valuing a drawn game at `draw` centi-discs for the side
    /// to move in the positions given to [`pvs`](Self::pvs) and [`nws`](Self::nws)
    /// (the contempt), clamped to ±[`MAX_CONTEMPT`]: a draw then stays strictly
    /// between a two-disc loss and a two-disc win (final margins are even), so a
    /// solved line is never preferred over a better one for it.
    pub fn with_draw(mut self, draw: i32) -> Self {
        self.draw = draw.clamp(-MAX_CONTEMPT, MAX_CONTEMPT);
        self
    }

    /// Whether the stop flag cut the last search short.
    pub fn aborted(&self) -> bool {
        self.ctx.aborted
    }

    /// A PV search of `board` to `depth` plies over `(alpha, beta)`.
    pub fn pvs(&mut self, board: R::Pos, depth: u32, alpha: i32, beta: i32) -> Line {
        let mut line = self.pvs_reversed(board, depth, alpha, beta);
        line.pv.reverse();
        line
    }

    /// [`pvs`](Self::pvs) with the line last move first.
    fn pvs_reversed(&mut self, board: R::Pos, depth: u32, alpha: i32, beta: i32) -> Line {
        #[cfg(target_arch = "x86_64")]
        if movegen::has_fast_kernel() {
            // SAFETY: the CPU supports every feature `pv_fast` is compiled for.
            return unsafe { pv_fast(self, board, depth, alpha, beta) };
        }
        pv_plain(self, board, depth, alpha, beta)
    }

    /// A null-window search: is `board` worth more than `alpha` at `depth`?
    pub fn nws(&mut self, board: R::Pos, depth: u32, alpha: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if movegen::has_fast_kernel() {
            // SAFETY: the CPU supports every feature `nws_fast` is compiled for.
            return unsafe { nws_fast(self, board, depth, alpha) };
        }
        nws_plain(self, board, depth, alpha)
    }

    /// Whether to stop now (see [`Context::should_stop`]), reading table
    /// entries at this search's selectivity.
    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        let selectivity = self.selectivity;
        self.ctx
            .should_stop(|d, w| usable(d, w.depth, selectivity.percent(), w.draw))
    }

    /// A final margin (or a solver's bound on it) in discs, as this search
    /// scores it: centi-discs, with the contempt for a draw. Non-decreasing in
    /// `discs`, so bounds map to bounds.
    #[inline(always)]
    fn value(&self, discs: i32) -> i32 {
        if discs == 0 {
            self.draw
        } else {
            from_discs(discs)
        }
    }

    /// Whether a node whose depth reaches the end of the game, with `empties`
    /// empties, goes to the exact solver: always at full width; a selective
    /// search goes on to the end itself, cutting by Multi-ProbCut, until
    /// fewer than [`SELECTIVE_END_MIN_EMPTIES`] empties are left (a selective
    /// endgame pass, see `Root::solve`).
    #[inline(always)]
    fn solves(&self, empties: u32) -> bool {
        self.probcut.is_none() || empties < SELECTIVE_END_MIN_EMPTIES
    }

    /// Hands a node whose depth reaches the end of the game to the exact solver,
    /// converting the window to discs and the result back (the line last move
    /// first).
    fn exact(&mut self, board: R::Pos, alpha: i32, beta: i32) -> Line {
        let (a, b) = disc_window(alpha, beta, self.draw);
        let mut solver = Solver::<R>::in_context(self.ctx.fresh());
        let r = solver.solve_reversed(board, a, b);
        self.ctx.nodes += solver.nodes();
        self.ctx.aborted |= solver.aborted();
        Line {
            score: self.value(r.score),
            pv: r.pv,
        }
    }
}

/// The solver's window for the centi-disc window `(alpha, beta)` when a draw is
/// worth `draw`: `a` is the largest margin valued at most `alpha`, `b` the
/// smallest valued at least `beta`, so a fail-low, fail-high or exact result in
/// discs is one in centi-discs too. With `draw == 0` it is the plain rounding
/// of `alpha` down and `beta` up to whole discs.
pub fn disc_window(alpha: i32, beta: i32, draw: i32) -> (i32, i32) {
    let mut a = floor_discs(alpha);
    if a == -1 || a == 0 {
        a = if draw <= alpha { 0 } else { -1 };
    }
    let mut b = ceil_discs(beta);
    if b == 0 || b == 1 {
        b = if draw >= beta { 0 } else { 1 };
    }
    let a = a.clamp(-INF_DISCS, INF_DISCS);
    let b = b.clamp(-INF_DISCS, INF_DISCS);
    (a, b.max(a + 1))
}

/// A table entry's bounds in this search's scores, if deep enough and sure
/// enough to use at `depth` and `selectivity` (a result of a less sure search
/// never passes for a surer one). The solver's entries hold whole discs × 100
/// and count a draw as 0, so they take the contempt `draw` here.
#[inline(always)]
fn usable(d: &TtData, depth: u32, selectivity: u8, draw: i32) -> Option<(i32, i32)> {
    let (lower, upper) = (d.lower as i32, d.upper as i32);
    if d.selectivity != PROVEN {
        return (d.depth as u32 >= depth && d.selectivity >= selectivity).then_some((lower, upper));
    }
    let value = |v: i32| if v == 0 { draw } else { v };
    (d.selectivity == PROVEN || d.depth as u32 >= depth).then_some((value(lower), value(upper)))
}

/// The null-window node. Steps: count and stop check; pass or game end; leaf
/// evaluation; exact hand-off; table cut-off; ordered moves; table store.
#[inline(always)]
fn nws_body<K: Kernel, R: RuleSearch>(
    k: K,
    m: &mut Midgame<R>,
    board: R::Pos,
    depth: u32,
    alpha: i32,
    nws: impl Fn(&mut Midgame<R>, R::Pos, u32, i32) -> i32,
) -> i32 {
    // Step 1. Count the node; poll the stop flag.
    m.ctx.nodes += 1;
    if m.should_stop() {
        return 0;
    }
    // Step 2. No move: a pass, which costs no depth, or the end of the game.
    let moves = R::moves(k, &board);
    if moves == 0 {
        let passed = R::pass(&board);
        if R::moves(k, &passed) == 0 {
            return m.value(R::final_score(&board));
        }
        m.draw = -m.draw;
        let v = -nws(m, passed, depth, -alpha - 1);
        m.draw = -m.draw;
        return v;
    }
    // Step 3. The horizon: the evaluation.
    if depth == 0 {
        return R::evaluate(m.eval, &board);
    }
    // Step 4. Deep enough to see the end: solve exactly (a selective search
    // only once few empties are left: see `Midgame::solves`).
    let empties = R::board(&board).empties();
    if depth >= empties && m.solves(empties) {
        return m.exact(board, alpha, alpha + 1).score;
    }
    // Step 4b. In a selective search to the end, the solver's stability
    // cut-off: stable discs cap what the mover can reach.
    if depth >= empties && alpha >= from_discs(stability_threshold(empties)) {
        let cap = m.value(R::score_cap(&board));
        if cap <= alpha {
            return cap;
        }
    }
    // Step 5. The table: a cut-off, or at least a move to try first.
    let hash = R::key(&board);
    let mut tt_move = NO_MOVE;
    if depth >= MIDGAME_TT_MIN_DEPTH
        && let Some(d) = m.ctx.tt.probe(hash)
    {
        if let Some((lo, hi)) = usable(&d, depth, m.selectivity.percent(), m.draw) {
            if lo > alpha {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
        }
        tt_move = d.best_move;
    }
    // Step 5b. Multi-ProbCut: a shallow search sure enough of the outcome
    // answers for the deep one.
    if depth >= PROBCUT_MIN_DEPTH
        && let Some(v) = probcut_cut(m, board, hash, (depth, empties), (alpha, tt_move), &nws)
    {
        return v;
    }
    // Step 6. The moves, best-looking first.
    let list = order_midgame::<K, R>(
        k,
        (m.eval, &mut m.ctx.nodes),
        &board,
        (moves, tt_move),
        depth,
    );
    let mut best = NullWindowBest::new(-INF);
    // With several threads, a later move another thread is on comes last
    // (ABDADA, as in the exact solver), by when the table may hold its result;
    // and this node is watched from below, as there.
    let busy = m.ctx.busy.filter(|_| depth >= MIDGAME_ABDADA_MIN_DEPTH);
    if busy.is_some() {
        m.ctx.watch.enter(Watched {
            hash,
            alpha,
            depth,
            draw: m.draw,
        });
    }
    let mut deferred: Stack<(u8, u64), MAX_MOVES> = Stack::new();
    'moves: for round in 0..2 {
        let count = [list.as_slice().len(), deferred.as_slice().len()][round];
        for i in 0..count {
            let (sq, f) = if round == 0 {
                list.as_slice()[i]
            } else {
                deferred.as_slice()[i]
            };
            let child = R::make(&board, sq, f);
            let _claim = match busy {
                Some(b) if round == 0 && i > 0 => {
                    let Some(claim) = b.claim(R::key(&child)) else {
                        deferred.push((sq, f));
                        continue;
                    };
                    Some(claim)
                }
                _ => None,
            };
            m.draw = -m.draw;
            let v = -nws(m, child, depth - 1, -alpha - 1);
            m.draw = -m.draw;
            if m.ctx.aborted || best.cuts(v, sq, alpha) {
                break 'moves;
            }
        }
    }
    // Unwound to here (another thread answered this node first, and its answer
    // is ours), or stopped.
    if let Some(score) = m.ctx.watch.unwound(busy.is_some(), &mut m.ctx.aborted) {
        return score;
    }
    // Step 7. Remember the bound.
    if depth >= MIDGAME_TT_MIN_DEPTH {
        let (lower, upper) = if best.score > alpha {
            (best.score, INF)
        } else {
            (-INF, best.score)
        };
        let sel = m.selectivity.percent();
        store(m.ctx.tt, hash, (lower, upper), (depth, sel), best.mv);
    }
    best.score
}

/// Step 5b of [`nws_body`], Multi-ProbCut: `Some(score)` when a shallow search
/// is sure enough of the outcome to answer for the deep one (the bound is then
/// stored), `Some(0)` when the search was stopped meanwhile, `None` to search on.
#[inline(always)]
fn probcut_cut<R: RuleSearch>(
    m: &mut Midgame<R>,
    board: R::Pos,
    hash: u64,
    (depth, empties): (u32, u32),
    (alpha, tt_move): (i32, u8),
    nws: &impl Fn(&mut Midgame<R>, R::Pos, u32, i32) -> i32,
) -> Option<i32> {
    let reg = m.probcut?.get(depth.min(empties), empties)?;
    let (high, low) = reg.bounds(alpha, m.selectivity.sigmas());
    let sel = m.selectivity.percent();
    if high <= MAX_MARGIN && nws(m, board, reg.shallow, high - 1) >= high {
        if m.ctx.aborted {
            return Some(0);
        }
        store(m.ctx.tt, hash, (alpha + 1, INF), (depth, sel), tt_move);
        return Some(alpha + 1);
    }
    if low >= -MAX_MARGIN && nws(m, board, reg.shallow, low) <= low {
        if m.ctx.aborted {
            return Some(0);
        }
        store(m.ctx.tt, hash, (-INF, alpha), (depth, sel), tt_move);
        return Some(alpha);
    }
    m.ctx.aborted.then_some(0)
}

/// Stores midgame bounds `(lower, upper)` found at `(depth, selectivity)`,
/// clamping the scores to the table's range.
fn store(
    tt: &TranspositionTable,
    hash: u64,
    (lower, upper): (i32, i32),
    (depth, selectivity): (u32, u8),
    mv: u8,
) {
    tt.store(
        hash,
        TtData {
            lower: lower.clamp(-MAX_MARGIN, MAX_MARGIN) as i16,
            upper: upper.clamp(-MAX_MARGIN, MAX_MARGIN) as i16,
            depth: depth.min(255) as u8,
            best_move: mv,
            selectivity: selectivity.min(FULL_WIDTH),
        },
    );
}

/// The PV node over the window `(alpha, beta)`: the first move with the full
/// window, the others with a null window, re-searched when they beat `alpha`.
#[inline(always)]
fn pv_body<K: Kernel, R: RuleSearch>(
    k: K,
    m: &mut Midgame<R>,
    board: R::Pos,
    depth: u32,
    (mut alpha, beta): (i32, i32),
    pv: impl Fn(&mut Midgame<R>, R::Pos, u32, i32, i32) -> Line,
    nws: impl Fn(&mut Midgame<R>, R::Pos, u32, i32) -> i32,
) -> Line {
    // Step 1. Count the node; poll the stop flag.
    m.ctx.nodes += 1;
    if m.should_stop() {
        return Line::default();
    }
    // Step 2. No move: a pass, which costs no depth, or the end of the game.
    let moves = R::moves(k, &board);
    if moves == 0 {
        let passed = R::pass(&board);
        if R::moves(k, &passed) == 0 {
            return Line {
                score: m.value(R::final_score(&board)),
                pv: Vec::new(),
            };
        }
        m.draw = -m.draw;
        let mut line = pv(m, passed, depth, -beta, -alpha);
        m.draw = -m.draw;
        line.score = -line.score;
        line.pv.push(PASS);
        return line;
    }
    // Step 3. The horizon: the evaluation.
    if depth == 0 {
        return Line {
            score: R::evaluate(m.eval, &board),
            pv: Vec::new(),
        };
    }
    // Step 4. Deep enough to see the end: solve exactly.
    let empties = R::board(&board).empties();
    if depth >= empties && m.solves(empties) {
        return m.exact(board, alpha, beta);
    }
    // Step 5. The moves, the table's best first, then best-looking first.
    let hash = R::key(&board);
    let tt_move = m.ctx.tt.probe(hash).map_or(NO_MOVE, |d| d.best_move);
    let list = order_midgame::<K, R>(
        k,
        (m.eval, &mut m.ctx.nodes),
        &board,
        (moves, tt_move),
        depth.max(2),
    );
    let alpha0 = alpha;
    let mut best = Line {
        score: -INF,
        pv: Vec::new(),
    };
    // Step 6. The first move with the full window, the others with a null
    // window, searched again with the full one when they beat `alpha`.
    for (i, &(sq, f)) in list.as_slice().iter().enumerate() {
        let child = R::make(&board, sq, f);
        let mut line;
        m.draw = -m.draw;
        if i == 0 {
            line = pv(m, child, depth - 1, -beta, -alpha);
            line.score = -line.score;
        } else {
            let v = -nws(m, child, depth - 1, -alpha - 1);
            if v > alpha && v < beta && !m.ctx.aborted {
                line = pv(m, child, depth - 1, -beta, -alpha);
                line.score = -line.score;
            } else {
                line = Line {
                    score: v,
                    pv: Vec::new(),
                };
            }
        }
        m.draw = -m.draw;
        if m.ctx.aborted {
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
    // Step 7. Remember the bound, or the exact score.
    let best_move = best.pv.last().copied().unwrap_or(NO_MOVE);
    let bounds = window_bounds(best.score, (alpha0, beta), INF);
    let sel = m.selectivity.percent();
    store(m.ctx.tt, hash, bounds, (depth, sel), best_move);
    best
}

fn nws_plain<R: RuleSearch>(m: &mut Midgame<R>, b: R::Pos, depth: u32, alpha: i32) -> i32 {
    nws_body(Portable, m, b, depth, alpha, nws_plain::<R>)
}

fn pv_plain<R: RuleSearch>(
    m: &mut Midgame<R>,
    b: R::Pos,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> Line {
    pv_body(
        Portable,
        m,
        b,
        depth,
        (alpha, beta),
        pv_plain::<R>,
        nws_plain::<R>,
    )
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn nws_fast<R: RuleSearch>(m: &mut Midgame<R>, b: R::Pos, depth: u32, alpha: i32) -> i32 {
    // SAFETY: `nws_fast` is entered only after `has_fast_kernel()` said yes.
    let k = unsafe { Avx2::assume() };
    nws_body(k, m, b, depth, alpha, |m, b, d, a| {
        nws_fast::<R>(m, b, d, a)
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn pv_fast<R: RuleSearch>(
    m: &mut Midgame<R>,
    b: R::Pos,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> Line {
    // SAFETY: `pv_fast` is entered only after `has_fast_kernel()` said yes.
    let k = unsafe { Avx2::assume() };
    pv_body(
        k,
        m,
        b,
        depth,
        (alpha, beta),
        |m, b, d, a, be| pv_fast::<R>(m, b, d, a, be),
        |m, b, d, a| nws_fast::<R>(m, b, d, a),
    )
}
