//! What a search shares with its caller while it runs: the stop flag it polls
//! and the live node counters it publishes to.
//!
//! The counters are for progress reports only (NBoard's `nodestats` during a
//! long iteration): every search thread adds its nodes to a slot of its own at
//! each stop poll, so that threads never write the same cache line, and the
//! caller sums the slots when it asks. A result's node count comes from the
//! search's own counts, never from here.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Counter slots: a search thread writes slot `thread % SLOTS`, so up to this
/// many threads never share one (more share, still correctly, by atomic adds).
/// 64 slots of one cache line each are 4 KiB per engine.
const SLOTS: usize = 64;

/// One thread's counter, alone on its cache line (64 bytes on x86-64 and
/// most ARM cores), so that counting costs no traffic between cores.
#[repr(align(64))]
#[derive(Default)]
struct Slot(AtomicU64);

/// The live node counts of a search's threads, one slot per thread.
pub struct NodeCounters {
    slots: [Slot; SLOTS],
}

impl Default for NodeCounters {
    fn default() -> NodeCounters {
        NodeCounters {
            slots: std::array::from_fn(|_| Slot::default()),
        }
    }
}

impl NodeCounters {
    /// Counts `nodes` more searched by search thread `thread` (0 is the main
    /// thread, 1.. the helpers).
    #[inline]
    pub fn add(&self, thread: usize, nodes: u64) {
        self.slots[thread % SLOTS].0.fetch_add(nodes, Relaxed);
    }

    /// The nodes counted so far by all threads, about (threads count in steps
    /// of a few thousand).
    pub fn total(&self) -> u64 {
        self.slots.iter().map(|s| s.0.load(Relaxed)).sum()
    }

    /// Back to zero, for the next job; not meant to run during a search.
    pub fn reset(&self) {
        self.slots.iter().for_each(|s| s.0.store(0, Relaxed));
    }
}

/// A search's links to its caller: the stop flag it polls, and the counters it
/// publishes its node counts to, if the caller watches them. A bare
/// `&AtomicBool` converts into one that counts nowhere.
#[derive(Clone, Copy)]
pub struct Control<'a> {
    /// Raised by the caller to stop the search as soon as it can.
    pub stop: &'a AtomicBool,
    /// Where the threads count their nodes live, if anywhere.
    pub nodes: Option<&'a NodeCounters>,
}

impl<'a> From<&'a AtomicBool> for Control<'a> {
    fn from(stop: &'a AtomicBool) -> Control<'a> {
        Control { stop, nodes: None }
    }
}

impl<'a> Control<'a> {
    /// The same control, with the threads counting their nodes in `nodes`.
    pub fn counting(self, nodes: &'a NodeCounters) -> Control<'a> {
        Control {
            nodes: Some(nodes),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_count_apart_and_the_total_sums_them() {
        let c = NodeCounters::default();
        c.add(0, 4096);
        c.add(1, 4096);
        c.add(1 + SLOTS, 10);
        assert_eq!(c.total(), 8202);
        assert_eq!(c.slots[1].0.load(Relaxed), 4106);
        c.reset();
        assert_eq!(c.total(), 0);
        assert_eq!(std::mem::align_of::<Slot>(), 64);
    }
}
