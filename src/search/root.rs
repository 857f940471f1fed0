//! The root: iterative deepening with aspiration windows, the exact and
//! win/loss/draw solves, and the seeded choice between moves rated exactly equal.

use super::context::Context;
use super::endgame::{INF_DISCS, Solver};
use super::midgame::{INF, Midgame};
use super::ordering::order_moves;
use super::params::{
    ASPIRATION_WINDOW, ENDGAME_ASPIRATION_DISCS, FULL_WINDOW_DEPTH, ITERATION_GROWTH,
};
use super::time_plan::BestMoveStability;
use super::{ScoreKind, SearchRequest, SearchResult, pv_moves};
use crate::board::movegen::Dispatch;
use crate::board::{Move, Square};
use crate::eval::DISC;
use crate::rng::Rng;
use crate::tt::NO_MOVE;
use crate::variant::rules::Rules;
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
struct MidgameBelow<'m, 'a, R: Rules> {
    search: &'m mut Midgame<'a, R>,
    depth: u32,
}

impl<R: Rules> Below<R::Pos> for MidgameBelow<'_, '_, R> {
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

impl<R: Rules> Below<R::Pos> for Solver<'_, R> {
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

/// No game lasts longer than this many more plies.
const MAX_DEPTH: u32 = 60;

/// One pass over the root moves.
struct RootPass {
    /// The chosen move's score, in the searcher's unit.
    score: i32,
    /// The chosen line (first move first).
    pv: Vec<u8>,
}

/// The root of one search under the rules `R`.
pub(super) struct Root<'a, R: Rules> {
    req: &'a SearchRequest<R>,
    /// The thread's context, which every search below the root copies.
    ctx: Context<'a>,
    start: Instant,
    nodes: u64,
    /// Root moves in the order to try them; the last pass's choice first.
    order: Vec<u8>,
    /// Plies a lazy-SMP helper adds to every iteration's depth.
    depth_offset: u32,
}

impl<'a, R: Rules> Root<'a, R> {
    /// The root of `req`'s search in the thread context `ctx` (whose table,
    /// flags, deadline and busy table every search below uses).
    pub(super) fn new(req: &'a SearchRequest<R>, ctx: Context<'a>, start: Instant) -> Root<'a, R> {
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

    /// Searches every root move over `(alpha, beta)`; with ties wanted (by the
    /// request, and given an `rng`: a selective endgame pass, whose choice is
    /// not the answer, gives none), moves rated exactly equal to the best are
    /// found and one is drawn from `rng`. `clamp` folds scores into a range
    /// (the win/loss/draw sign). `None` if stopped.
    fn pass(
        &mut self,
        below: &mut dyn Below<R::Pos>,
        alpha: i32,
        beta: i32,
        clamp: (i32, i32),
        rng: Option<&mut Rng>,
    ) -> Option<RootPass> {
        let board = self.req.board;
        let find_ties = self.req.find_ties && rng.is_some();
        let mut best = i32::MIN;
        let mut ties: Vec<(u8, Vec<u8>)> = Vec::new();
        for (i, &sq) in self.order.clone().iter().enumerate() {
            let child = R::make(&board, sq, R::flips(Dispatch, &board, sq));
            let (mut v, mut line);
            if i == 0 {
                (v, line) = below.pv(child, -beta, -alpha);
                v = -v;
            } else {
                // Is this move at least as good as the best (ties wanted) or
                // better than it? A null window says; a re-search finds how much.
                let floor = best.max(alpha);
                let threshold = if find_ties && best > alpha {
                    best - 1
                } else {
                    floor
                };
                v = -below.nws(child, -threshold - 1);
                line = Vec::new();
                if v > threshold && !below.aborted() {
                    (v, line) = below.pv(child, -beta, -threshold);
                    v = -v;
                }
            }
            if below.aborted() {
                return None;
            }
            v = v.clamp(clamp.0, clamp.1);
            let line: Vec<u8> = std::iter::once(sq).chain(line).collect();
            if v > best {
                best = v;
                ties.clear();
                ties.push((sq, line));
            } else if v == best && best > alpha && best < beta && find_ties {
                ties.push((sq, line));
            }
            if best >= beta {
                break;
            }
        }
        let pick = match rng {
            Some(rng) if ties.len() > 1 => rng.below(ties.len() as u64) as usize,
            _ => 0,
        };
        let (sq, pv) = ties.swap_remove(pick);
        // The chosen move leads the next pass.
        self.order.retain(|&m| m != sq);
        self.order.insert(0, sq);
        Some(RootPass { score: best, pv })
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

    fn result(&self, score: i32, kind: ScoreKind, pv: &[u8], stopped: bool) -> SearchResult {
        let pv = pv_moves(pv);
        SearchResult {
            best: pv.first().copied(),
            score,
            kind,
            pv,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            stopped,
        }
    }

    /// One pass over the root moves inside an aspiration window: `half` either
    /// side of `guess` (the whole of `(lo, hi)` without a guess), doubled on
    /// every failure until the score lies inside or against an edge of
    /// `(lo, hi)`. `None` if stopped.
    fn aspirated(
        &mut self,
        below: &mut dyn Below<R::Pos>,
        guess: Option<i32>,
        half: i32,
        (lo, hi): (i32, i32),
        clamp: (i32, i32),
        mut rng: Option<&mut Rng>,
    ) -> Option<RootPass> {
        let (mut alpha, mut beta) = match guess {
            Some(g) => ((g - half).max(lo), (g + half).min(hi)),
            None => (lo, hi),
        };
        let mut widen = half;
        loop {
            match self.pass(below, alpha, beta, clamp, rng.as_deref_mut()) {
                Some(p) if p.score <= alpha && alpha > lo => alpha = (alpha - widen).max(lo),
                Some(p) if p.score >= beta && beta < hi => beta = (beta + widen).min(hi),
                other => return other,
            }
            widen *= 2;
        }
    }

    /// Solves the root exactly, or proves its win/loss/draw value when `wld`.
    /// With enough empties, selective searches to the end of the game at
    /// rising selectivity come first ([`Root::selective_passes`]): they fill
    /// the table with the best moves of the nodes the proof meets, and their
    /// score centres the exact pass's aspiration window. The result is as
    /// exact as without them: the last pass is the proof. Each pass is
    /// reported as it completes (a search to the end, not yet proven).
    pub(super) fn solve(
        &mut self,
        wld: bool,
        rng: &mut Rng,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let standing = match self.selective_passes(report) {
            Ok(standing) => standing,
            Err(stopped) => return stopped,
        };
        let mut solver = Solver::<R>::in_context(self.ctx.fresh());
        let pass = if wld {
            self.pass(&mut solver, -1, 1, (-1, 1), Some(rng))
        } else {
            let guess = standing
                .as_ref()
                .map(|r| (f64::from(r.score) / f64::from(DISC)).round() as i32);
            self.aspirated(
                &mut solver,
                guess,
                ENDGAME_ASPIRATION_DISCS,
                (-INF_DISCS, INF_DISCS),
                (-64, 64),
                Some(rng),
            )
        };
        self.nodes += solver.nodes();
        let kind = if wld {
            ScoreKind::WinLossDraw
        } else {
            ScoreKind::Exact
        };
        match pass {
            Some(p) => self.result(p.score * DISC, kind, &p.pv, false),
            None => self.stopped(standing),
        }
    }

    /// The selective searches to the end before a proof
    /// ([`Midgame::endgame_passes`]):
    /// the last one's result, `None` if there were none (too few empties, or
    /// no regressions for these rules and evaluation); `Err` with the answer
    /// to give if a stop cut them short.
    fn selective_passes(
        &mut self,
        report: &mut dyn FnMut(&SearchResult),
    ) -> Result<Option<SearchResult>, SearchResult> {
        let empties = R::board(&self.req.board).empties();
        let mut midgame =
            Midgame::<R>::in_context(self.ctx.fresh(), self.req.eval).with_draw(-self.req.contempt);
        let mut standing: Option<SearchResult> = None;
        for &sel in midgame.endgame_passes(empties) {
            midgame = midgame.with_selectivity(sel);
            let mut below = MidgameBelow {
                search: &mut midgame,
                depth: empties - 1,
            };
            let guess = standing.as_ref().map(|r| r.score);
            let pass = self.aspirated(
                &mut below,
                guess,
                ASPIRATION_WINDOW,
                (-INF, INF),
                (-INF, INF),
                None,
            );
            let aborted = midgame.aborted();
            self.nodes += midgame.take_nodes();
            match pass.filter(|_| !aborted) {
                Some(p) => {
                    let r = self.result(p.score, ScoreKind::Midgame(empties), &p.pv, false);
                    report(&r);
                    standing = Some(r);
                }
                None => return Err(self.stopped(standing)),
            }
        }
        Ok(standing)
    }

    /// The answer of a solve that a stop cut short: the last selective pass's
    /// (a move searched to the end, though not proven), else the fallback.
    fn stopped(&self, standing: Option<SearchResult>) -> SearchResult {
        let mut r = standing.unwrap_or_else(|| self.fallback());
        r.stopped = true;
        r.nodes = self.nodes;
        r.elapsed = self.start.elapsed();
        r
    }

    /// What to answer when stopped before any pass completed: the first ordered
    /// move, unsearched.
    pub(super) fn fallback(&self) -> SearchResult {
        let first = self.order[0];
        let mut r = self.result(0, ScoreKind::Midgame(0), &[first], true);
        r.best = Square::new(first).map(Move::Play);
        r
    }

    /// Iterative deepening to the request's depth, each iteration inside an
    /// aspiration window around the last score, widened on failure.
    pub(super) fn deepen(
        &mut self,
        rng: &mut Rng,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let board = self.req.board;
        let mut midgame = Midgame::<R>::in_context(self.ctx.fresh(), self.req.eval)
            .with_selectivity(self.req.limits.selectivity)
            // The midgame search scores the children: the opponent moves there.
            .with_draw(-self.req.contempt);
        let mut guess = R::evaluate(self.req.eval, &board);
        let mut last: Option<SearchResult> = None;
        let mut last_iteration = Duration::ZERO;
        let mut stability = BestMoveStability::default();
        for depth in 1..=self.req.limits.depth {
            if last.is_some() && !self.may_start_iteration(last_iteration, &stability) {
                break;
            }
            let iteration_start = Instant::now();
            let centre = (depth > FULL_WINDOW_DEPTH).then_some(guess);
            let mut below = MidgameBelow {
                search: &mut midgame,
                depth: (depth + self.depth_offset).min(MAX_DEPTH) - 1,
            };
            let pass = self.aspirated(
                &mut below,
                centre,
                ASPIRATION_WINDOW,
                (-INF, INF),
                (-INF, INF),
                Some(rng),
            );
            self.nodes = midgame.nodes();
            let Some(p) = pass else {
                let mut r = last.unwrap_or_else(|| self.fallback());
                r.stopped = true;
                r.nodes = self.nodes;
                r.elapsed = self.start.elapsed();
                return r;
            };
            guess = p.score;
            last_iteration = iteration_start.elapsed();
            if let Some(&best) = p.pv.first() {
                stability.record(best);
            }
            let searched = (depth + self.depth_offset).min(MAX_DEPTH);
            let r = self.result(p.score, ScoreKind::Midgame(searched), &p.pv, false);
            report(&r);
            last = Some(r);
        }
        last.unwrap_or_else(|| self.fallback())
    }
}
