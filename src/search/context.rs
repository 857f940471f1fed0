//! One search thread's context, shared by the midgame search and the exact
//! solver: the transposition table, the stop flags and the deadline, the busy
//! table of a lazy-SMP search, the watched nodes, the node count and where it
//! is published live.
//!
//! The root builds one context per thread ([`Context::new`] and the `with_`
//! builders) and hands a copy of its links to each search it runs
//! ([`Context::fresh`]); the midgame search hands one to the solver at the
//! end of the game the same way.

use super::busy::BusyTable;
use super::control::NodeCounters;
use super::params::STOP_CHECK_INTERVAL;
use super::watch::{Watch, Watched};
use crate::tt::{TranspositionTable, TtData};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What one thread's search shares with the other searches of its thread and
/// of the other threads, and its own counters.
pub struct Context<'a> {
    /// Positions visited.
    pub(super) nodes: u64,
    /// The shared transposition table.
    pub(super) tt: &'a TranspositionTable,
    /// The search's stop flag (raised at the deadline too).
    stop: &'a AtomicBool,
    /// The node count at which to poll the flags next.
    next_check: u64,
    /// When the search must stop, wherever it is.
    deadline: Option<Instant>,
    /// A lazy-SMP helper's second stop flag: the caller's (see `smp`).
    outer_stop: Option<&'a AtomicBool>,
    /// Whether a stop (or an unwind to a watched node) cut the search short.
    pub(super) aborted: bool,
    /// The positions other threads are searching, when there are several.
    pub(super) busy: Option<&'a BusyTable>,
    /// With several threads: the null-window nodes this thread is inside.
    pub(super) watch: Watch,
    /// Where this thread counts its nodes live for the caller, and its slot.
    progress: Option<(&'a NodeCounters, usize)>,
}

impl<'a> Context<'a> {
    /// A context sharing `tt` and watching `stop`: no deadline, one thread.
    pub fn new(tt: &'a TranspositionTable, stop: &'a AtomicBool) -> Context<'a> {
        Context {
            nodes: 0,
            tt,
            stop,
            next_check: STOP_CHECK_INTERVAL,
            deadline: None,
            outer_stop: None,
            aborted: false,
            busy: None,
            watch: Watch::default(),
            progress: None,
        }
    }

    /// The same links (table, flags, deadline, busy table) with nothing
    /// counted or watched yet: the context of another search of this thread.
    pub fn fresh(&self) -> Context<'a> {
        Context {
            deadline: self.deadline,
            outer_stop: self.outer_stop,
            busy: self.busy,
            progress: self.progress,
            ..Context::new(self.tt, self.stop)
        }
    }

    /// The same context, stopping (and raising the stop flag) at `deadline`.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// The same context, stopping as well when `outer` is raised (a lazy-SMP
    /// helper watches the caller's flag itself: see `smp`).
    pub fn with_outer_stop(mut self, outer: Option<&'a AtomicBool>) -> Self {
        self.outer_stop = outer;
        self
    }

    /// The same context, sharing `busy` with the other threads of a lazy-SMP
    /// search.
    pub fn with_busy(mut self, busy: Option<&'a BusyTable>) -> Self {
        self.busy = busy;
        self
    }

    /// The same context, counting its nodes live in `nodes` (if any) as search
    /// thread `thread` (0 for the main thread).
    pub fn with_progress(mut self, nodes: Option<&'a NodeCounters>, thread: usize) -> Self {
        self.progress = nodes.map(|n| (n, thread));
        self
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether a stop cut the last search short (its result is then void).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Whether the search's own stop flag is up (the outer flag and the
    /// deadline aside).
    pub(super) fn stop_raised(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether to stop now; polls the stop flags every few thousand nodes, and
    /// with them the table, for a watched node above this one that another
    /// thread has answered meanwhile (then this thread unwinds to it: see
    /// `watch`), reading table entries with `bounds`.
    #[inline(always)]
    pub(super) fn should_stop(
        &mut self,
        bounds: impl Fn(&TtData, &Watched) -> Option<(i32, i32)>,
    ) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + STOP_CHECK_INTERVAL;
            if let Some((counters, thread)) = self.progress {
                counters.add(thread, STOP_CHECK_INTERVAL);
            }
            let stopped = must_stop(self.stop, self.outer_stop, self.deadline);
            if self.watch.must_abort(stopped, self.tt, bounds) {
                self.aborted = true;
            }
        }
        self.aborted
    }
}

/// Whether a search must stop: the shared flag or the `outer` one is up, or
/// `deadline` has passed, in which case the flag is raised so that every thread
/// of the search stops.
pub(crate) fn must_stop(
    stop: &AtomicBool,
    outer: Option<&AtomicBool>,
    deadline: Option<Instant>,
) -> bool {
    if stop.load(Ordering::Relaxed) || outer.is_some_and(|f| f.load(Ordering::Relaxed)) {
        return true;
    }
    if deadline.is_some_and(|d| Instant::now() >= d) {
        stop.store(true, Ordering::Relaxed);
        return true;
    }
    false
}
