//! The root: iterative deepening with aspiration windows, the exact and
//! win/loss/draw solves, and the seeded choice between moves rated exactly equal.

use super::busy::BusyTable;
use super::endgame::{INF_DISCS, Solver};
use super::midgame::{INF, Midgame};
use super::ordering::order_moves;
use super::params::{ASPIRATION_WINDOW, FULL_WINDOW_DEPTH, ITERATION_GROWTH};
use super::time_plan::BestMoveStability;
use super::{ScoreKind, SearchRequest, SearchResult, pv_moves};
use crate::board::movegen::Dispatch;
use crate::board::{Move, Square};
use crate::eval::DISC;
use crate::rng::Rng;
use crate::tt::{NO_MOVE, TranspositionTable};
use crate::variant::rules::Rules;
use std::sync::atomic::AtomicBool;
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
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    start: Instant,
    nodes: u64,
    /// Root moves in the order to try them; the last pass's choice first.
    order: Vec<u8>,
    /// Plies a lazy-SMP helper adds to every iteration's depth.
    depth_offset: u32,
    /// The positions other threads are searching, when there are several.
    pub(super) busy: Option<&'a BusyTable>,
    /// A lazy-SMP helper's second stop flag: the caller's (see `smp`).
    pub(super) outer_stop: Option<&'a AtomicBool>,
    /// The hard deadline: the request's, or for a helper the main thread's.
    pub(super) deadline: Option<Instant>,
}

impl<'a, R: Rules> Root<'a, R> {
    pub(super) fn new(
        req: &'a SearchRequest<R>,
        tt: &'a TranspositionTable,
        stop: &'a AtomicBool,
        start: Instant,
    ) -> Root<'a, R> {
        let b = req.board;
        let tt_move = tt.probe(R::key(&b)).map_or(NO_MOVE, |d| d.best_move);
        let order = order_moves::<R>(&b, R::moves(Dispatch, &b), tt_move, 2)
            .as_slice()
            .iter()
            .map(|&(sq, _)| sq)
            .collect();
        Root {
            req,
            tt,
            stop,
            start,
            nodes: 0,
            order,
            depth_offset: 0,
            busy: None,
            outer_stop: None,
            deadline: req.time.map(|t| start + t.hard),
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

    /// Searches every root move over `(alpha, beta)`; with ties wanted, moves rated
    /// exactly equal to the best are found and one is drawn from `rng`. `clamp`
    /// folds scores into a range (the win/loss/draw sign). `None` if stopped.
    fn pass(
        &mut self,
        below: &mut dyn Below<R::Pos>,
        alpha: i32,
        beta: i32,
        clamp: (i32, i32),
        rng: &mut Rng,
    ) -> Option<RootPass> {
        let board = self.req.board;
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
                let threshold = if self.req.find_ties && best > alpha {
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
            } else if v == best && best > alpha && best < beta && self.req.find_ties {
                ties.push((sq, line));
            }
            if best >= beta {
                break;
            }
        }
        let pick = if ties.len() > 1 {
            rng.below(ties.len() as u64) as usize
        } else {
            0
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

    /// Solves the root exactly, or proves its win/loss/draw value when `wld`.
    pub(super) fn solve(&mut self, wld: bool, rng: &mut Rng) -> SearchResult {
        let mut solver = Solver::<R>::under(self.tt, self.stop)
            .with_deadline(self.deadline)
            .with_outer_stop(self.outer_stop)
            .with_busy(self.busy);
        let (alpha, beta, clamp, kind) = if wld {
            (-1, 1, (-1, 1), ScoreKind::WinLossDraw)
        } else {
            (-INF_DISCS, INF_DISCS, (-64, 64), ScoreKind::Exact)
        };
        let pass = self.pass(&mut solver, alpha, beta, clamp, rng);
        self.nodes += solver.nodes;
        match pass {
            Some(p) => self.result(p.score * DISC, kind, &p.pv, false),
            None => self.fallback(),
        }
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
        let mut midgame = Midgame::<R>::under(self.tt, self.stop, self.req.eval)
            .with_deadline(self.deadline)
            .with_outer_stop(self.outer_stop)
            .with_busy(self.busy)
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
            let (mut alpha, mut beta) = if depth <= FULL_WINDOW_DEPTH {
                (-INF, INF)
            } else {
                (guess - ASPIRATION_WINDOW, guess + ASPIRATION_WINDOW)
            };
            let mut widen = ASPIRATION_WINDOW;
            let pass = loop {
                let mut below = MidgameBelow {
                    search: &mut midgame,
                    depth: (depth + self.depth_offset).min(MAX_DEPTH) - 1,
                };
                let pass = self.pass(&mut below, alpha, beta, (-INF, INF), rng);
                match pass {
                    Some(p) if p.score <= alpha && alpha > -INF => {
                        alpha = (alpha - widen).max(-INF)
                    }
                    Some(p) if p.score >= beta && beta < INF => beta = (beta + widen).min(INF),
                    other => break other,
                }
                widen *= 2;
            };
            self.nodes = midgame.nodes;
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
