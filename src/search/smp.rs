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
//! poll the caller's stop flag themselves, and a flag of their own that the main
//! thread raises when it returns (done, stopped, or past its deadline, which it
//! alone watches).

use super::busy::BusyTable;
use super::root::Root;
use super::{Limits, SearchRequest, SearchResult};
use crate::rng::Rng;
use crate::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What every thread of one search shares.
#[derive(Clone, Copy)]
pub(super) struct Job<'a> {
    pub req: &'a SearchRequest,
    pub tt: &'a TranspositionTable,
    pub start: Instant,
    /// `Some(wld)`: solve at the root (exactly, or win/loss/draw); `None`: deepen.
    pub solve_wld: Option<bool>,
    /// The positions the threads are searching, when there are several threads.
    pub busy: Option<&'a BusyTable>,
    /// For a helper: the caller's stop flag, watched beside its own.
    pub outer_stop: Option<&'a AtomicBool>,
}

impl Job<'_> {
    /// One thread's search: the main thread when `helper` is 0.
    pub(super) fn run(
        &self,
        stop: &AtomicBool,
        helper: usize,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let mut rng = Rng::new(self.req.seed ^ self.req.board.hash());
        let mut root = Root::new(self.req, self.tt, stop, self.start);
        root.busy = self.busy;
        root.outer_stop = self.outer_stop;
        if helper > 0 {
            root.make_helper(helper, self.solve_wld.is_none());
        }
        match self.solve_wld {
            Some(wld) => {
                let r = root.solve(wld, &mut rng);
                report(&r);
                r
            }
            None => root.deepen(&mut rng, report),
        }
    }

    /// The main thread's search, with `threads - 1` helpers beside it.
    pub(super) fn run_with_helpers(
        &self,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let busy = BusyTable::default();
        let main_job = Job {
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
    pub(super) fn beside_helpers<R>(
        &self,
        stop: &AtomicBool,
        main: impl FnOnce() -> R,
    ) -> (R, u64) {
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
        let helper_job = Job {
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
                        .spawn_scoped(scope, move || job.run(flag, i, &mut |_| {}).nodes)
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
}

/// Runs `main` (a search of `req.board` by other means, such as multi-PV) with
/// `req.threads - 1` lazy-SMP helpers beside it sharing `tt`; `solve_wld` as for
/// the root (`Some(wld)`: the helpers solve); the helpers also stop when `stop`
/// is raised. Returns `main`'s result and the helpers' node count.
pub(super) fn beside_helpers<R>(
    req: &SearchRequest,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    solve_wld: Option<bool>,
    main: impl FnOnce() -> R,
) -> (R, u64) {
    if req.threads <= 1 {
        return (main(), 0);
    }
    let busy = BusyTable::default();
    let job = Job {
        req,
        tt,
        start: Instant::now(),
        solve_wld,
        busy: Some(&busy),
        outer_stop: None,
    };
    job.beside_helpers(stop, main)
}
