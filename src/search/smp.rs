//! Lazy SMP: several threads search the same root and share one transposition
//! table. The main thread alone watches the clock and reports; in the midgame
//! the helpers start from other root moves and search deeper iterations, in an
//! exact solve they follow the main thread's order (see `Root::make_helper`),
//! filling the table with work the main thread then finds. Below the root, the
//! threads share a [`BusyTable`]: a later move another thread is on is put off
//! (ABDADA), so they spread over different subtrees; and each thread watches the
//! nodes it is inside (`watch`), dropping its work below one as soon as another
//! thread's table entry answers it. The answer is the main
//! thread's: its last completed iteration, or its exact solve, which stays exact
//! whatever the helpers stored, since every table entry is a proven bound.
//!
//! Threads live for one search, spawned in a `std::thread::scope`. The helpers
//! poll the caller's stop flag and the main thread's hard deadline themselves,
//! and a flag of their own that the main thread raises when it returns. The
//! first thread to see a stop (or the deadline) gives the main thread's
//! standing answer (`answer`), so that a thread that sees it late does not hold
//! the answer back.

use super::RuleSearch;
use super::answer::Standing;
use super::busy::BusyTable;
use super::context::Context;
use super::control::{Control, NodeCounters};
use super::root::{Lines, Root};
use super::{Limits, RootSearch, SearchRequest, SearchResult};
use crate::rng::Rng;
use crate::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What every thread of one search under the rules `R` shares (one search,
/// several threads: not the engine's job).
#[derive(Clone, Copy)]
pub(super) struct Shared<'a, R: RuleSearch> {
    pub req: &'a SearchRequest<R>,
    pub tt: &'a TranspositionTable,
    pub start: Instant,
    /// What the root runs.
    pub root: RootSearch,
    /// The positions the threads are searching, when there are several threads.
    pub busy: Option<&'a BusyTable>,
    /// For a helper: the caller's stop flag, watched beside its own.
    pub outer_stop: Option<&'a AtomicBool>,
    /// The main thread's hard deadline, which its helpers watch too.
    pub deadline: Option<Instant>,
    /// The answer a stop would get now, for a search that gives one early.
    pub standing: Option<&'a Standing<'a>>,
    /// Where the threads count their nodes live for the caller, if anywhere.
    pub nodes: Option<&'a NodeCounters>,
}

impl<R: RuleSearch> Shared<'_, R> {
    /// One thread's search: the main thread when `helper` is 0.
    pub(super) fn run(
        &self,
        stop: &AtomicBool,
        helper: usize,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let mut rng = Rng::new(self.req.seed ^ R::key(&self.req.board));
        let ctx = Context::new(self.tt, stop)
            .with_deadline(self.deadline)
            .with_outer_stop(self.outer_stop)
            .with_busy(self.busy)
            .with_progress(self.nodes, helper);
        // The main thread scores the lines asked for; helpers look for the
        // best move alone, to fill the table.
        let lines = match self.req.lines {
            n if n > 1 && helper == 0 => Lines::Top(n),
            _ => Lines::Best,
        };
        let mut root = Root::new(self.req, ctx, self.start, lines);
        if helper > 0 {
            root.make_helper(helper, self.root == RootSearch::Midgame);
        }
        // The main thread keeps the standing answer, and reports through it so
        // that no report follows the answer.
        let standing = self.standing.filter(|_| helper == 0);
        if let Some(s) = standing {
            s.init(&root.fallback());
        }
        let mut report = |r: &SearchResult| match standing {
            Some(s) => s.report(r, report),
            None => report(r),
        };
        let r = root.best_move(self.root, &mut rng, &mut report);
        if let Some(s) = standing.filter(|_| r.stopped) {
            s.give_standing(r.nodes);
        }
        if self.root != RootSearch::Midgame {
            report(&r);
        }
        r
    }

    /// The main thread's search, with `threads - 1` helpers beside it.
    pub(super) fn run_with_helpers(
        &self,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let busy = BusyTable::default();
        let main_job = Shared {
            busy: Some(&busy),
            ..*self
        };
        let (mut result, helper_nodes) =
            main_job.beside_helpers(stop, || main_job.run(stop, 0, report));
        result.nodes += helper_nodes;
        result
    }

    /// Runs `main` on this thread while `threads - 1` helpers search this job's
    /// root beside it, filling the shared table; the helpers stop when `main`
    /// returns, or when the caller raises `stop`. Returns `main`'s result and
    /// the helpers' node count.
    pub(super) fn beside_helpers<T>(
        &self,
        stop: &AtomicBool,
        main: impl FnOnce() -> T,
    ) -> (T, u64) {
        // Helpers neither break ties nor keep time: they run until the main
        // thread is done, deepening as far as the game goes.
        let helper_req = SearchRequest {
            find_ties: false,
            time: None,
            limits: Limits {
                depth: 60,
                ..self.req.limits
            },
            ..*self.req
        };
        // A helper watches the caller's flag itself, not only its own (raised
        // when `main` returns): when a stop comes while the main thread is off
        // the CPU, a helper that waited for it would hold its core, and the main
        // thread queued behind it, until the scheduler's next tick (4 ms here).
        let helper_job = Shared {
            req: &helper_req,
            outer_stop: Some(stop),
            ..*self
        };
        let helpers_stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            // A helper the system cannot start is simply left out: the search
            // goes on with the threads it has.
            let handles: Vec<_> = (1..self.req.threads)
                .map_while(|i| {
                    let (job, flag) = (&helper_job, &helpers_stop);
                    std::thread::Builder::new()
                        .name(format!("mollett-helper-{i}"))
                        .spawn_scoped(scope, move || {
                            let nodes = job.run(flag, i, &mut |_| {}).nodes;
                            if job.stopped_from_outside() {
                                if let Some(s) = job.standing {
                                    s.give_standing(0);
                                }
                            }
                            nodes
                        })
                        .ok()
                })
                .collect();
            let result = main();
            helpers_stop.store(true, Ordering::Relaxed);
            let mut nodes = 0;
            for h in handles {
                nodes += h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            }
            (result, nodes)
        })
    }

    /// Whether the search must end for a reason from outside this job: the
    /// caller's stop flag, or the hard deadline.
    fn stopped_from_outside(&self) -> bool {
        self.outer_stop.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Runs `main` (a search of `req.board` by other means, such as multi-PV) with
/// `req.threads - 1` lazy-SMP helpers beside it sharing `tt`; `root` says what
/// the helpers search (a solve, or a deepening); the helpers also stop when
/// `control`'s flag is raised, and count their nodes in its counters. Returns
/// `main`'s result and the helpers' node count.
pub(super) fn beside_helpers<R: RuleSearch, T>(
    req: &SearchRequest<R>,
    tt: &TranspositionTable,
    control: Control,
    root: RootSearch,
    main: impl FnOnce() -> T,
) -> (T, u64) {
    if req.threads <= 1 {
        return (main(), 0);
    }
    let busy = BusyTable::default();
    let job = Shared {
        req,
        tt,
        start: Instant::now(),
        root,
        busy: Some(&busy),
        outer_stop: None,
        deadline: None,
        standing: None,
        nodes: control.nodes,
    };
    job.beside_helpers(control.stop, main)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::rules::Othello;
    use crate::rules::Position;
    use crate::search::Level;
    use std::sync::Mutex;
    use std::time::Duration;

    #[test]
    fn a_helper_answers_a_stop_while_the_main_thread_is_held_up() {
        // FFO #49: long enough to search well past the stop.
        let board = "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X"
            .parse::<Position>()
            .unwrap()
            .board;
        let req = SearchRequest::<Othello> {
            threads: 2,
            ..SearchRequest::new(board, Level::number(30))
        };
        let tt = TranspositionTable::new(16).unwrap();
        let stop = AtomicBool::new(false);
        let given = Mutex::new(None);
        let sink = |r: &SearchResult| {
            let thread = std::thread::current().name().map(String::from);
            *given.lock().unwrap() = Some((r.best, r.stopped, thread));
        };
        let standing = Standing::new(&sink, Instant::now());
        let standing_move = Some(Move::Play("c1".parse().unwrap()));
        standing.report(
            &SearchResult {
                best: standing_move,
                score: 0,
                kind: crate::search::ScoreKind::Midgame(1),
                pv: vec![],
                nodes: 0,
                elapsed: Duration::ZERO,
                stopped: false,
            },
            &mut |_| {},
        );
        let job = Shared {
            req: &req,
            tt: &tt,
            start: Instant::now(),
            root: RootSearch::Midgame,
            busy: None,
            outer_stop: None,
            deadline: None,
            standing: Some(&standing),
            nodes: None,
        };
        // The main thread raises the stop, then is held up without looking
        // at it: the answer must come from the helper.
        let (seen, _) = job.beside_helpers(&stop, || {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
            let give_up = Instant::now() + Duration::from_secs(10);
            while given.lock().unwrap().is_none() && Instant::now() < give_up {
                std::thread::sleep(Duration::from_millis(1));
            }
            given.lock().unwrap().clone()
        });
        let (best, stopped, thread) = seen.expect("an answer while the main thread was held up");
        assert_eq!(best, standing_move);
        assert!(stopped);
        assert_eq!(thread.as_deref(), Some("mollett-helper-1"));
    }
}
