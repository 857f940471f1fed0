//! A search's answer, given once and as early as it is known.
//!
//! A stop (or the hard deadline) ends a search; its answer is then what the
//! main thread would return at that moment: its last completed iteration, the
//! midgame answer that a cut-short solve leaves standing, or the first ordered
//! move. The main thread keeps that *standing answer* here as it goes, so that
//! whichever thread sees the stop first can give it. A thread that sees the stop
//! late (queued behind a kernel worker for a scheduler tick, or on a virtual CPU
//! the host has taken away for a few milliseconds, both traced on this project's
//! test machines) then no longer holds the answer back; it only unwinds late.
//!
//! Progress reports of the main thread go through here too, so that none
//! follows the answer: once given, the answer is the search's last word.

use super::SearchResult;
use std::sync::Mutex;
use std::time::Instant;

/// The answer a stop would get now, and where the answer goes (once).
pub(crate) struct Standing<'a> {
    state: Mutex<State>,
    /// Takes the answer.
    sink: &'a (dyn Fn(&SearchResult) + Sync),
    /// When the search started, for the answer's elapsed time.
    pub(crate) start: Instant,
}

#[derive(Default)]
struct State {
    /// What the main thread would answer if stopped now.
    standing: Option<SearchResult>,
    /// Whether the answer has gone to the sink.
    given: bool,
}

impl<'a> Standing<'a> {
    /// Nothing standing yet; the answer will go to `sink`.
    pub(crate) fn new(sink: &'a (dyn Fn(&SearchResult) + Sync), start: Instant) -> Standing<'a> {
        Standing {
            state: Mutex::new(State::default()),
            sink,
            start,
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A thread that panicked while holding the lock left a whole `State`
        // behind (every write below is a single assignment): keep using it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The main thread's fallback before it has searched anything; kept only if
    /// nothing stands yet (a solve after a midgame search keeps that search's
    /// answer standing).
    pub(crate) fn init(&self, fallback: &SearchResult) {
        let mut s = self.state();
        if s.standing.is_none() {
            s.standing = Some(fallback.clone());
        }
    }

    /// A completed iteration of the main thread: it stands from now on, and goes
    /// to `report` unless the answer has already been given.
    pub(crate) fn report(&self, r: &SearchResult, report: &mut dyn FnMut(&SearchResult)) {
        let mut s = self.state();
        s.standing = Some(r.clone());
        if !s.given {
            report(r);
        }
    }

    /// Gives the standing answer, marked stopped, unless an answer has gone
    /// already or nothing stands yet (then the main thread gives its own). Its
    /// node count is the main thread's at the standing answer, or `nodes` if
    /// higher (the main thread's count when it gives the answer itself); the
    /// helpers' nodes are counted only in the search's return value.
    pub(crate) fn give_standing(&self, nodes: u64) {
        let mut s = self.state();
        if s.given {
            return;
        }
        if let Some(mut r) = s.standing.clone() {
            r.stopped = true;
            r.elapsed = self.start.elapsed();
            r.nodes = r.nodes.max(nodes);
            s.given = true;
            (self.sink)(&r);
        }
    }

    /// Gives `r` as the answer, unless one has gone already.
    pub(crate) fn give(&self, r: &SearchResult) {
        let mut s = self.state();
        if !s.given {
            s.given = true;
            (self.sink)(r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Square};
    use crate::search::ScoreKind;
    use std::time::Duration;

    fn result(sq: u8, score: i32) -> SearchResult {
        SearchResult {
            best: Square::new(sq).map(Move::Play),
            score,
            kind: ScoreKind::Midgame(3),
            pv: vec![],
            nodes: 0,
            elapsed: Duration::ZERO,
            stopped: false,
        }
    }

    #[test]
    fn the_answer_is_given_once_and_ends_the_reports() {
        let given = Mutex::new(Vec::new());
        let sink = |r: &SearchResult| given.lock().unwrap().push(r.clone());
        let standing = Standing::new(&sink, Instant::now());
        let mut reported = Vec::new();
        // Nothing stands: a helper cannot answer yet.
        standing.give_standing(0);
        assert!(given.lock().unwrap().is_empty());
        standing.init(&result(19, 0));
        standing.report(&result(20, 5), &mut |r| reported.push(r.score));
        // A second fallback does not replace a searched answer.
        standing.init(&result(19, 0));
        standing.give_standing(0);
        standing.report(&result(21, 9), &mut |r| reported.push(r.score));
        standing.give(&result(21, 9));
        standing.give_standing(0);
        let given = given.into_inner().unwrap();
        assert_eq!(reported, vec![5]);
        assert_eq!(given.len(), 1);
        assert_eq!(given[0].best, Square::new(20).map(Move::Play));
        assert!(given[0].stopped);
    }

    #[test]
    fn a_midgame_answer_stands_through_the_solve_after_it() {
        let given = Mutex::new(None);
        let sink = |r: &SearchResult| *given.lock().unwrap() = Some(r.score);
        let standing = Standing::new(&sink, Instant::now());
        standing.report(&result(37, -4), &mut |_| {});
        // The solve's main thread starts with its fallback, which must not
        // replace the midgame search's answer.
        standing.init(&result(19, 0));
        standing.give_standing(0);
        assert_eq!(given.into_inner().unwrap(), Some(-4));
    }

    #[test]
    fn the_main_threads_own_answer_goes_when_none_was_given() {
        let given = Mutex::new(None);
        let sink = |r: &SearchResult| *given.lock().unwrap() = Some(r.score);
        let standing = Standing::new(&sink, Instant::now());
        standing.give(&result(19, 12));
        assert_eq!(given.into_inner().unwrap(), Some(12));
    }
}
