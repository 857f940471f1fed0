//! The root: one deepening loop for every search. Midgame depths one after
//! the other (under the clock, inside aspiration windows), then, where the
//! root solves, the selective passes to the end of the game and the proof
//! (exact, or win/loss/draw). Each pass scores the root moves for either the
//! best move alone, with a seeded choice between moves rated exactly equal
//! (`best`), or the best N moves with a score each, multi-PV (`lines`).

mod best;
pub(super) mod lines;
pub(super) mod policy;

use super::INF_DISCS;
use super::context::Context;
use super::endgame::Solver;
use super::midgame::{INF, Midgame};
use super::ordering::order_moves;
use super::params::{
    ASPIRATION_WINDOW, ENDGAME_ASPIRATION_DISCS, FULL_WINDOW_DEPTH, ITERATION_GROWTH,
    LONG_SOLVE_EMPTIES, LONG_SOLVE_GAP, PRESOLVE_DEPTH,
};
use super::time_plan::BestMoveStability;
use super::{RootSearch, ScoreKind, SearchRequest, SearchResult, pv_moves};
use crate::board::movegen::Dispatch;
use crate::board::{Move, Square};
use crate::eval::{DISC, rounded_discs};
use crate::rng::Rng;
use crate::search::RuleSearch;
use crate::tt::NO_MOVE;
use lines::{MultiPvIteration, PvLine};
use std::time::{Duration, Instant};

/// What the root needs from the search below it (positions `P`), in that
/// search's own unit.
trait Below<P> {
    /// A PV search of `child` over `(alpha, beta)`: score and line.
    fn pv(&mut self, child: P, alpha: i32, beta: i32) -> (i32, Vec<u8>);
    /// A null-window search of `child` around `alpha`.
    fn nws(&mut self, child: P, alpha: i32) -> i32;
    /// Whether a stop cut the search short.
    fn aborted(&self) -> bool;
}

/// The midgame search to a fixed depth below the root.
struct MidgameBelow<'m, 'a, R: RuleSearch> {
    search: &'m mut Midgame<'a, R>,
    depth: u32,
}

impl<R: RuleSearch> Below<R::Pos> for MidgameBelow<'_, '_, R> {
    fn pv(&mut self, child: R::Pos, alpha: i32, beta: i32) -> (i32, Vec<u8>) {
        let l = self.search.pvs(child, self.depth, alpha, beta);
        (l.score, l.pv)
    }
    fn nws(&mut self, child: R::Pos, alpha: i32) -> i32 {
        self.search.nws(child, self.depth, alpha)
    }
    fn aborted(&self) -> bool {
        self.search.aborted()
    }
}

impl<R: RuleSearch> Below<R::Pos> for Solver<'_, R> {
    fn pv(&mut self, child: R::Pos, alpha: i32, beta: i32) -> (i32, Vec<u8>) {
        let s = self.solve(child, alpha, beta);
        (s.score, s.pv)
    }
    fn nws(&mut self, child: R::Pos, alpha: i32) -> i32 {
        Solver::nws(self, child, alpha)
    }
    fn aborted(&self) -> bool {
        Solver::aborted(self)
    }
}

/// The scores of a search below the root, in its own unit.
#[derive(Clone, Copy, Debug)]
struct Range {
    /// The full window.
    window: (i32, i32),
    /// What every root score is folded into (the win/loss/draw sign).
    clamp: (i32, i32),
    /// Centi-discs per unit.
    scale: i32,
    /// Half the first aspiration window around a guess.
    half: i32,
    /// Whether the scores are signs only: no null-window pruning among the
    /// lines then.
    signs: bool,
}

/// The midgame search: centi-discs.
const MIDGAME_RANGE: Range = Range {
    window: (-INF, INF),
    clamp: (-INF, INF),
    scale: 1,
    half: ASPIRATION_WINDOW,
    signs: false,
};

/// The exact solve: discs.
const EXACT_RANGE: Range = Range {
    window: (-INF_DISCS, INF_DISCS),
    clamp: (-64, 64),
    scale: DISC,
    half: ENDGAME_ASPIRATION_DISCS,
    signs: false,
};

/// The win/loss/draw proof: signs.
const WLD_RANGE: Range = Range {
    window: (-1, 1),
    clamp: (-1, 1),
    scale: DISC,
    half: ENDGAME_ASPIRATION_DISCS,
    signs: true,
};

/// No game lasts longer than this many more plies.
const MAX_DEPTH: u32 = 60;

/// How many lines the root scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lines {
    /// The best move alone, inside aspiration windows, a seeded draw between
    /// moves rated exactly equal, under the request's clock.
    Best,
    /// The best `n` moves, each with its own score (multi-PV).
    Top(usize),
}

/// The passes so far: `Ok` with the last one (`None` before any), or `Err`
/// with the last complete one when a stop cut the next short.
type Passes = Result<Option<MultiPvIteration>, Option<MultiPvIteration>>;

/// A root line: its score in the search's unit and its moves.
type ScoredLine = (i32, Vec<u8>);

/// The root of one search under the rules `R`.
pub(super) struct Root<'a, R: RuleSearch> {
    req: &'a SearchRequest<R>,
    /// The thread's context, which every search below the root copies.
    ctx: Context<'a>,
    start: Instant,
    nodes: u64,
    /// Root moves in the order to try them; the last pass's choice first.
    order: Vec<u8>,
    /// Plies a lazy-SMP helper adds to every iteration's depth.
    depth_offset: u32,
    /// How many lines each pass scores.
    lines: Lines,
}

impl<'a, R: RuleSearch> Root<'a, R> {
    /// The root of `req`'s search in the thread context `ctx` (whose table,
    /// flags, deadline and busy table every search below uses), scoring
    /// `lines`.
    pub(super) fn new(
        req: &'a SearchRequest<R>,
        ctx: Context<'a>,
        start: Instant,
        lines: Lines,
    ) -> Root<'a, R> {
        let b = req.board;
        let tt_move = ctx.tt.probe(R::key(&b)).map_or(NO_MOVE, |d| d.best_move);
        let order = order_moves::<R>(&b, R::moves(Dispatch, &b), tt_move, 2)
            .as_slice()
            .iter()
            .map(|&(sq, _)| sq)
            .collect();
        Root {
            req,
            ctx,
            start,
            nodes: 0,
            order,
            depth_offset: 0,
            lines,
        }
    }

    /// Makes this root lazy-SMP helper number `i` (from 1): it deepens
    /// `trailing_zeros(i + 1)` plies ahead of the main thread (half the helpers
    /// at +0, a quarter at +1, ...) and, when `rotate`, starts with a different
    /// root move, so the threads fill the shared table with different subtrees.
    /// Exact solves do not rotate: a full-window proof of a weaker root move is
    /// wasted work, while the busy table already spreads the threads over the
    /// best move's subtree (FFO 45–47 at 2 threads: 23.8 s rotating, 21.2 s not).
    pub(super) fn make_helper(&mut self, i: usize, rotate: bool) {
        let n = self.order.len();
        if rotate {
            self.order.rotate_left(i % n);
        }
        self.depth_offset = (i + 1).trailing_zeros();
    }

    /// The best move (see [`Lines::Best`]): the deepening's last iteration, or
    /// the proof where `root` solves (which the caller reports). A stop answers
    /// with the last complete pass, else the fallback.
    pub(super) fn best_move(
        &mut self,
        root: RootSearch,
        rng: &mut Rng,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        match self.run(root, Some(rng), &mut |it| report(&single(it, false))) {
            Ok(Some(it)) => single(&it, false),
            Ok(None) => self.fallback(),
            Err(last) => {
                let mut r = last.map_or_else(|| self.fallback(), |it| single(&it, true));
                r.stopped = true;
                r.nodes = self.nodes;
                r.elapsed = self.start.elapsed();
                r
            }
        }
    }

    /// Every pass of the search, each reported as it completes (the proof of
    /// a solve excepted: it is returned): midgame depths, then where `root`
    /// solves the selective passes and the proof. `rng` draws between moves
    /// rated exactly equal.
    fn run(
        &mut self,
        root: RootSearch,
        mut rng: Option<&mut Rng>,
        report: &mut dyn FnMut(&MultiPvIteration),
    ) -> Passes {
        let limits = self.req.limits;
        let empties = R::board(&self.req.board).empties();
        let presolve = if empties > LONG_SOLVE_EMPTIES {
            empties - LONG_SOLVE_GAP
        } else {
            0
        };
        let last_depth = match (root, self.lines) {
            (RootSearch::Midgame, _) => limits.depth,
            (_, Lines::Best) => limits.depth.min(presolve),
            (_, Lines::Top(_)) => limits
                .depth
                .min(PRESOLVE_DEPTH.max(presolve))
                .min(empties.saturating_sub(1)),
        };
        let mut midgame = Midgame::<R>::in_context(self.ctx.fresh(), self.req.eval)
            .with_selectivity(limits.selectivity)
            // The midgame search scores the children: the opponent moves there.
            .with_draw(-self.req.contempt);
        let last = self.deepen(&mut midgame, last_depth, rng.as_deref_mut(), report)?;
        if root == RootSearch::Midgame {
            return Ok(last);
        }
        self.solve(root == RootSearch::WinLossDraw, midgame, last, rng, report)
    }

    /// Iterative deepening to `last_depth`, each iteration inside an
    /// aspiration window around the last score, widened on failure.
    fn deepen(
        &mut self,
        midgame: &mut Midgame<'a, R>,
        last_depth: u32,
        mut rng: Option<&mut Rng>,
        report: &mut dyn FnMut(&MultiPvIteration),
    ) -> Passes {
        let mut last: Option<MultiPvIteration> = None;
        let mut last_iteration = Duration::ZERO;
        let mut stability = BestMoveStability::default();
        for depth in 1..=last_depth {
            if last.is_some() && !self.may_start_iteration(last_iteration, &stability) {
                break;
            }
            let iteration_start = Instant::now();
            let searched = (depth + self.depth_offset).min(MAX_DEPTH);
            let guess = (depth > FULL_WINDOW_DEPTH).then(|| {
                last.as_ref().map_or_else(
                    || R::evaluate(self.req.eval, &self.req.board),
                    |it| it.lines[0].score,
                )
            });
            let mut below = MidgameBelow {
                search: &mut *midgame,
                depth: searched - 1,
            };
            let pass = self.pass(&mut below, MIDGAME_RANGE, guess, rng.as_deref_mut());
            self.nodes = midgame.nodes();
            let Some(lines) = pass else {
                return Err(last);
            };
            last_iteration = iteration_start.elapsed();
            if let Some(&best) = lines[0].1.first() {
                stability.record(best);
            }
            let it = self.iteration(ScoreKind::Midgame(searched), MIDGAME_RANGE, lines);
            report(&it);
            last = Some(it);
        }
        Ok(last)
    }

    /// Solves the root exactly, or proves its win/loss/draw value when `wld`.
    /// With enough empties, selective searches to the end of the game at
    /// rising selectivity come first ([`Midgame::endgame_passes`]): they fill
    /// the table with the best moves of the nodes the proof meets, and their
    /// score centres the exact pass's aspiration window. The result is as
    /// exact as without them: the last pass is the proof. Each selective pass
    /// is reported as it completes (a search to the end, not yet proven).
    fn solve(
        &mut self,
        wld: bool,
        mut midgame: Midgame<'a, R>,
        mut last: Option<MultiPvIteration>,
        rng: Option<&mut Rng>,
        report: &mut dyn FnMut(&MultiPvIteration),
    ) -> Passes {
        let empties = R::board(&self.req.board).empties();
        for &sel in midgame.endgame_passes(empties) {
            midgame = midgame.with_selectivity(sel);
            let guess = last.as_ref().map(|it| it.lines[0].score);
            let mut below = MidgameBelow {
                search: &mut midgame,
                depth: empties - 1,
            };
            let pass = self.pass(&mut below, MIDGAME_RANGE, guess, None);
            let aborted = midgame.aborted();
            self.nodes = midgame.nodes();
            let Some(lines) = pass.filter(|_| !aborted) else {
                return Err(last);
            };
            let kind = ScoreKind::SelectiveEnd {
                empties,
                selectivity: sel,
            };
            let it = self.iteration(kind, MIDGAME_RANGE, lines);
            report(&it);
            last = Some(it);
        }
        let mut solver = Solver::<R>::in_context(self.ctx.fresh());
        let (range, kind) = if wld {
            (WLD_RANGE, ScoreKind::WinLossDraw)
        } else {
            (EXACT_RANGE, ScoreKind::Exact)
        };
        let guess = last
            .as_ref()
            .filter(|_| !wld)
            .map(|it| rounded_discs(it.lines[0].score));
        let pass = self.pass(&mut solver, range, guess, rng);
        self.nodes += solver.nodes();
        match pass {
            Some(lines) => Ok(Some(self.iteration(kind, range, lines))),
            None => Err(last),
        }
    }

    /// One pass over the root moves with `below`, whose scores lie in `range`
    /// (the best move's inside an aspiration window around `guess`): the
    /// lines, best first, or `None` if stopped. With an `rng`, moves rated
    /// exactly equal to the best are told apart by a draw from it.
    fn pass(
        &mut self,
        below: &mut dyn Below<R::Pos>,
        range: Range,
        guess: Option<i32>,
        rng: Option<&mut Rng>,
    ) -> Option<Vec<ScoredLine>> {
        match self.lines {
            Lines::Best => self.aspirated(below, guess, range, rng).map(|p| vec![p]),
            Lines::Top(n) => self.top_lines(below, range, n),
        }
    }

    /// Whether another iteration should start: not after the soft limit (scaled by
    /// how settled the best move is), nor when the last one's time, times the
    /// growth of an iteration, would pass the hard one.
    fn may_start_iteration(&self, last_iteration: Duration, plan: &BestMoveStability) -> bool {
        let Some(t) = self.req.time else {
            return true;
        };
        let elapsed = self.start.elapsed();
        elapsed < plan.soft_limit(t.soft, t.hard)
            && elapsed + last_iteration.mul_f64(ITERATION_GROWTH) < t.hard
    }

    /// The report of a completed pass: its lines in centi-discs.
    fn iteration(&self, kind: ScoreKind, range: Range, lines: Vec<ScoredLine>) -> MultiPvIteration {
        let lines = lines
            .into_iter()
            .map(|(score, pv)| PvLine {
                score: score * range.scale,
                pv: pv_moves(&pv),
            })
            .collect();
        MultiPvIteration {
            kind,
            lines,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
        }
    }

    /// What to answer when stopped before any pass completed: the first ordered
    /// move, unsearched.
    pub(super) fn fallback(&self) -> SearchResult {
        let first = self.order[0];
        let pv = pv_moves(&[first]);
        SearchResult {
            best: Square::new(first).map(Move::Play),
            score: 0,
            kind: ScoreKind::Midgame(0),
            pv,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            stopped: true,
        }
    }
}

/// A pass's best line as a single-line result.
fn single(it: &MultiPvIteration, stopped: bool) -> SearchResult {
    let line = &it.lines[0];
    SearchResult {
        best: line.pv.first().copied(),
        score: line.score,
        kind: it.kind,
        pv: line.pv.clone(),
        nodes: it.nodes,
        elapsed: it.elapsed,
        stopped,
    }
}
