//! The null-window nodes one thread of a lazy-SMP search is inside, watched for
//! another thread's answer. Two threads often end up under the same node: both
//! search its first move, or one searches a move the node no longer needs after
//! the other found a cut-off. When the other thread finishes the node first, it
//! stores the answer in the shared table, and everything this thread is still
//! doing below the node is moot. So, every few thousand nodes, a thread looks up
//! the nodes it is inside; when the table answers one (outermost first), it
//! unwinds to that node and takes the table's answer as the node's.
//!
//! The answer is a proven bound, as good as a table cut-off at the node itself:
//! the search's result is unchanged, only found sooner. With one thread nothing
//! is watched, and the search stays deterministic.

use super::stack::Stack;
use crate::eval::whole_discs;
use crate::tt::{PROVEN, TranspositionTable, TtData};

/// A null-window node being searched: what a table entry must show for the
/// work below it to be moot.
#[derive(Clone, Copy, Debug)]
pub(super) struct Watched {
    /// The node's position hash.
    pub hash: u64,
    /// Its null window: is the score above `alpha`?
    pub alpha: i32,
    /// The depth it is searched to (empties, for the exact solver).
    pub depth: u32,
    /// What a draw is worth to the side to move there (midgame contempt; 0 in
    /// the exact solver).
    pub draw: i32,
}

/// The exact solver's reading of a table entry: its bounds in whole discs, if
/// it is an exact-solver entry for the node's empties.
pub(super) fn exact_bounds(d: &TtData, w: &Watched) -> Option<(i32, i32)> {
    (d.selectivity == PROVEN && d.depth as u32 == w.depth)
        .then_some((whole_discs(d.lower as i32), whole_discs(d.upper as i32)))
}

/// Nested watched nodes at most: one per ply of the deepest game.
const MAX_WATCHED: usize = 64;

/// The watched nodes of one thread, outermost first, and the one it is
/// unwinding to, if any.
#[derive(Default)]
pub(super) struct Watch {
    nodes: Stack<Watched, MAX_WATCHED>,
    /// The index of the node to unwind to, and its answer.
    target: Option<(usize, i32)>,
}

impl Watch {
    /// Starts watching `node`, the innermost now.
    #[inline(always)]
    pub fn enter(&mut self, node: Watched) {
        self.nodes.push(node);
    }

    /// Stops watching the innermost node; its answer when the thread was
    /// unwinding to it: the unwind then ends, and `aborted` (which the unwind
    /// raised) is lowered.
    #[inline(always)]
    pub fn leave(&mut self, aborted: &mut bool) -> Option<i32> {
        self.nodes.pop();
        match self.target {
            Some((at, score)) if at == self.nodes.len() => {
                self.target = None;
                *aborted = false;
                Some(score)
            }
            _ => None,
        }
    }

    /// At the end of a node's move loop (`watched`: the node was entered):
    /// what the node must return now, or `None` to go on and store its result.
    /// That is the table's answer when the thread was unwinding to this node
    /// (see [`leave`](Self::leave)), or 0 when the search is still aborted.
    #[inline(always)]
    pub fn unwound(&mut self, watched: bool, aborted: &mut bool) -> Option<i32> {
        if watched && let Some(score) = self.leave(aborted) {
            return Some(score);
        }
        aborted.then_some(0)
    }

    /// One poll of the thread's search, every few thousand nodes: whether it
    /// must abort, because `stopped` (its stop flags or deadline say so, which
    /// overrides any unwind under way) or because the table now answers a
    /// watched node (see [`find_answered`](Self::find_answered)).
    pub fn must_abort(
        &mut self,
        stopped: bool,
        tt: &TranspositionTable,
        bounds: impl Fn(&TtData, &Watched) -> Option<(i32, i32)>,
    ) -> bool {
        if stopped {
            self.target = None;
            return true;
        }
        !self.nodes.is_empty() && self.find_answered(tt, bounds)
    }

    /// Looks the watched nodes up in `tt`, outermost first; `bounds` reads an
    /// entry as `(lower, upper)` bounds valid at the node, or `None` when it is
    /// not deep enough. Returns whether one node's null-window question is
    /// answered: the thread must then unwind to it.
    #[cold]
    fn find_answered(
        &mut self,
        tt: &TranspositionTable,
        bounds: impl Fn(&TtData, &Watched) -> Option<(i32, i32)>,
    ) -> bool {
        self.target = self.nodes.as_slice().iter().enumerate().find_map(|(i, w)| {
            let (lo, hi) = bounds(&tt.probe(w.hash)?, w)?;
            if lo > w.alpha {
                Some((i, lo))
            } else if hi <= w.alpha {
                Some((i, hi))
            } else {
                None
            }
        });
        self.target.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::NO_MOVE;

    fn node(hash: u64, alpha: i32) -> Watched {
        Watched {
            hash,
            alpha,
            depth: 20,
            draw: 0,
        }
    }

    fn entry(lower: i16, upper: i16, depth: u8) -> TtData {
        TtData {
            lower,
            upper,
            depth,
            best_move: NO_MOVE,
            selectivity: PROVEN,
        }
    }

    #[test]
    fn unwinds_to_the_outermost_answered_node() {
        let tt = TranspositionTable::new(1).unwrap();
        let mut watch = Watch::default();
        for (hash, alpha) in [(101, 0), (202, 4), (303, -2)] {
            watch.enter(node(hash, alpha));
        }
        assert!(!watch.find_answered(&tt, exact_bounds));
        // An entry too shallow answers nothing; a bound inside the window neither.
        tt.store(202, entry(600, 6400, 19));
        tt.store(303, entry(-6400, 0, 20));
        assert!(!watch.find_answered(&tt, exact_bounds));
        // Node 202 fails high (6 > 4): the thread unwinds to it, past 303.
        tt.store(202, entry(600, 6400, 20));
        assert!(watch.find_answered(&tt, exact_bounds));
        let mut aborted = true;
        assert_eq!(watch.leave(&mut aborted), None);
        assert!(aborted);
        assert_eq!(watch.leave(&mut aborted), Some(6));
        assert!(!aborted);
        assert_eq!(watch.leave(&mut aborted), None);
        assert!(watch.nodes.is_empty());
    }

    #[test]
    fn a_stop_overrides_an_unwind() {
        let tt = TranspositionTable::new(1).unwrap();
        let mut watch = Watch::default();
        assert!(!watch.must_abort(false, &tt, exact_bounds));
        watch.enter(node(7, 0));
        tt.store(7, entry(-6400, -200, 20));
        assert!(watch.must_abort(false, &tt, exact_bounds));
        assert!(watch.must_abort(true, &tt, exact_bounds));
        let mut aborted = true;
        assert_eq!(watch.leave(&mut aborted), None);
        assert!(aborted);
    }
}
