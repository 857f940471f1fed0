//! The root policy of a single-line search: the end of the game, a forced
//! pass and a lone move answered at once, and under a clock the hand-over
//! between the midgame search and the solve (a solve that likely does not fit
//! comes after a midgame search, so that one cut short still leaves a
//! searched move).

use super::super::answer::Standing;
use super::super::{
    INF_DISCS, RootSearch, ScoreKind, SearchRequest, SearchResult, TimeLimit, endgame, params,
    search, smp, timed_solve_fits,
};
use crate::board::Move;
use crate::board::Square;
use crate::board::movegen::Dispatch;
use crate::eval::from_discs;
use crate::search::{Control, RuleSearch};
use crate::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The body of [`search_answering`](crate::search::search_answering); the
/// main thread keeps `standing` up to date.
pub(in crate::search) fn search_standing<R: RuleSearch>(
    req: &SearchRequest<R>,
    tt: &TranspositionTable,
    control: Control,
    report: &mut dyn FnMut(&SearchResult),
    standing: &Standing,
) -> SearchResult {
    let moves = R::moves(Dispatch, &req.board);
    if moves == 0 {
        return no_move(req, tt, control, standing.start);
    }
    let stop = control.stop;
    // Under a clock, a lone legal move is played at once.
    if req.time.is_some() && moves.count_ones() == 1 {
        let mut r = lone_move(req, tt, stop, moves.trailing_zeros() as u8, standing.start);
        standing.report(&r, report);
        r.elapsed = standing.start.elapsed();
        return r;
    }
    tt.new_search();
    let start = standing.start;
    let empties = R::board(&req.board).empties();
    let root = req.limits.root_search(empties);
    let job = smp::Shared {
        req,
        tt,
        start,
        root,
        busy: None,
        outer_stop: None,
        deadline: req.time.map(|t| start + t.hard),
        standing: Some(standing),
        nodes: control.nodes,
    };
    // Under a clock, a solve that likely does not fit in the soft limit comes
    // after a midgame search, so that a solve cut short still leaves a searched
    // move; one that fits (or any solve with no clock) goes first and alone.
    match req.time {
        Some(time)
            if root == RootSearch::Midgame || !timed_solve_fits(empties, soft_seconds(time)) =>
        {
            timed(&job, time, stop, report)
        }
        _ => run(&job, stop, report),
    }
}

/// The soft limit in seconds.
fn soft_seconds(time: TimeLimit) -> f64 {
    time.soft.as_secs_f64()
}

/// The search of `job` on this thread, with its helpers when it has several.
fn run<R: RuleSearch>(
    job: &smp::Shared<R>,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&SearchResult),
) -> SearchResult {
    if job.req.threads <= 1 {
        job.run(stop, 0, report)
    } else {
        job.run_with_helpers(stop, report)
    }
}

/// A position with no legal move: the end of the game, or a forced pass, worth
/// the opponent's score, negated.
fn no_move<R: RuleSearch>(
    req: &SearchRequest<R>,
    tt: &TranspositionTable,
    control: Control,
    start: Instant,
) -> SearchResult {
    let passed = R::pass(&req.board);
    if R::moves(Dispatch, &passed) == 0 {
        return answered(
            None,
            from_discs(R::final_score(&req.board)),
            ScoreKind::Exact,
            start,
        );
    }
    let mut r = search(
        &SearchRequest {
            board: passed,
            contempt: -req.contempt,
            ..*req
        },
        tt,
        control,
        &mut |_| {},
    );
    r.score = -r.score;
    r.best = Some(Move::Pass);
    r.pv.insert(0, Move::Pass);
    r
}

/// The lone legal move (to `sq`), with the exact score when the rest of the
/// game is small enough to solve in a blink, else its evaluation.
fn lone_move<R: RuleSearch>(
    req: &SearchRequest<R>,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    sq: u8,
    start: Instant,
) -> SearchResult {
    let board = req.board;
    let child = R::make(&board, sq, R::flips(Dispatch, &board, sq));
    let mv = Square::new(sq).map(Move::Play);
    let over = R::moves(Dispatch, &child) == 0 && R::moves(Dispatch, &R::pass(&child)) == 0;
    let (score, kind) = if over {
        (from_discs(-R::final_score(&child)), ScoreKind::Exact)
    } else if R::board(&child).empties() <= params::LONE_MOVE_SOLVE_EMPTIES {
        let mut solver = endgame::Solver::<R>::new(tt, stop);
        let s = solver.solve(child, -INF_DISCS, INF_DISCS);
        (from_discs(-s.score), ScoreKind::Exact)
    } else {
        (-R::evaluate(req.eval, &child), ScoreKind::Midgame(1))
    };
    answered(mv, score, kind, start)
}

/// An answer found without a search.
fn answered(best: Option<Move>, score: i32, kind: ScoreKind, start: Instant) -> SearchResult {
    SearchResult {
        best,
        score,
        kind,
        pv: best.into_iter().collect(),
        nodes: 0,
        elapsed: start.elapsed(),
        stopped: false,
    }
}

/// Under the clock `time`: a midgame search first, then the solve if it
/// likely fits in what is left (the level's own solve), or beyond the level's
/// window one that is cheap next to the midgame search (see
/// [`params::EXTRA_SOLVE_SHARE`]). A solve cut short leaves the midgame answer
/// standing.
fn timed<R: RuleSearch>(
    job: &smp::Shared<R>,
    time: TimeLimit,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&SearchResult),
) -> SearchResult {
    let midgame_job = smp::Shared {
        root: RootSearch::Midgame,
        ..*job
    };
    let midgame = run(&midgame_job, stop, report);
    if midgame.stopped {
        return midgame;
    }
    let empties = R::board(&job.req.board).empties();
    let left = time.soft.saturating_sub(job.start.elapsed());
    let solved = if job.root == RootSearch::Midgame {
        // Beyond the level's window: only a solve that is cheap next to the
        // level's own search, as measured (see `EXTRA_SOLVE_SHARE`).
        let budget = midgame
            .elapsed
            .mul_f64(params::EXTRA_SOLVE_SHARE)
            .max(Duration::from_secs_f64(params::EXTRA_SOLVE_MIN_SECONDS))
            .min(left);
        if !timed_solve_fits(empties, budget.as_secs_f64()) {
            return midgame;
        }
        extra_solve(job, budget, stop)
    } else {
        // The level's own solve, in what is left of the soft limit.
        if !timed_solve_fits(empties, left.as_secs_f64()) {
            return midgame;
        }
        run(job, stop, &mut |_| {})
    };
    if solved.stopped {
        // Cut short (the hard limit, the budget, or a stop): the midgame
        // answer stands.
        let mut r = midgame;
        r.nodes += solved.nodes;
        r.elapsed = job.start.elapsed();
        r.stopped = stop.load(Ordering::Relaxed);
        return r;
    }
    let mut solved = solved;
    solved.nodes += midgame.nodes;
    if let Some(standing) = job.standing {
        standing.report(&solved, report);
    }
    solved
}

/// An exact solve beyond the level's window within `budget`, with a stop flag
/// of its own, so that running out of the budget stops this solve alone; the
/// caller's `stop` still ends it.
fn extra_solve<R: RuleSearch>(
    job: &smp::Shared<R>,
    budget: Duration,
    stop: &AtomicBool,
) -> SearchResult {
    let budget_stop = AtomicBool::new(false);
    let extra_job = smp::Shared {
        root: RootSearch::Exact,
        outer_stop: Some(stop),
        deadline: {
            let end = Instant::now() + budget;
            Some(job.deadline.map_or(end, |hard| hard.min(end)))
        },
        standing: None,
        ..*job
    };
    run(&extra_job, &budget_stop, &mut |_| {})
}
