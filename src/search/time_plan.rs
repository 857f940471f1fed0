//! Stretching or shrinking a move's soft time limit by how settled the search is.
//!
//! Iterative deepening that keeps choosing the same move has likely found it; one
//! whose choice still changes from iteration to iteration has not, and the next
//! iteration is worth more there. The root keeps a decaying count of best-move
//! changes and scales the soft limit (the time after which no iteration starts)
//! by [`BestMoveStability::soft_factor`]. The hard limit never moves: it is the
//! promise made to the clock.

use super::params::{
    BEST_MOVE_CHANGE_DECAY, BEST_MOVE_CHANGE_WEIGHT, MAX_SOFT_FACTOR, SETTLED_SOFT_FACTOR,
};
use std::time::Duration;

/// The best move's history over the iterations of one search.
#[derive(Clone, Debug)]
pub(super) struct BestMoveStability {
    /// The last iteration's best move.
    last: Option<u8>,
    /// Best-move changes, each iteration's weight decaying by
    /// [`BEST_MOVE_CHANGE_DECAY`] per later iteration.
    changes: f64,
}

impl Default for BestMoveStability {
    /// A search that has not yet seen its move hold counts as one that has just
    /// changed it: the first iterations are too shallow to settle anything.
    fn default() -> Self {
        BestMoveStability {
            last: None,
            changes: 1.0,
        }
    }
}

impl BestMoveStability {
    /// Records the best move of a completed iteration.
    pub(super) fn record(&mut self, best: u8) {
        let changed = self.last.is_some_and(|last| last != best);
        self.changes = self.changes * BEST_MOVE_CHANGE_DECAY + f64::from(u8::from(changed));
        self.last = Some(best);
    }

    /// The factor to apply to the soft limit: [`SETTLED_SOFT_FACTOR`] for a move
    /// that has not changed for a while, rising by [`BEST_MOVE_CHANGE_WEIGHT`] per
    /// (decayed) change, at most [`MAX_SOFT_FACTOR`].
    pub(super) fn soft_factor(&self) -> f64 {
        (SETTLED_SOFT_FACTOR + BEST_MOVE_CHANGE_WEIGHT * self.changes).min(MAX_SOFT_FACTOR)
    }

    /// `soft` scaled by [`Self::soft_factor`], never past `hard`.
    pub(super) fn soft_limit(&self, soft: Duration, hard: Duration) -> Duration {
        soft.mul_f64(self.soft_factor()).min(hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settled_move_shrinks_the_soft_limit() {
        let mut s = BestMoveStability::default();
        for _ in 0..6 {
            s.record(19);
        }
        assert!(
            s.soft_factor() < SETTLED_SOFT_FACTOR + 0.02,
            "{}",
            s.soft_factor()
        );
        assert!(s.soft_factor() < 1.0);
        // Before any iteration the plan is near the nominal soft limit.
        let fresh = BestMoveStability::default().soft_factor();
        assert!((1.0..1.5).contains(&fresh), "{fresh}");
    }

    #[test]
    fn a_change_in_the_last_iteration_stretches_it() {
        let mut s = BestMoveStability::default();
        for _ in 0..6 {
            s.record(19);
        }
        s.record(37);
        assert!(s.soft_factor() > 1.0, "{}", s.soft_factor());
        // One more iteration on the new move: still above a settled search...
        s.record(37);
        assert!(s.soft_factor() > SETTLED_SOFT_FACTOR);
        // ...and back towards it as the move holds.
        for _ in 0..20 {
            s.record(37);
        }
        assert!(s.soft_factor() < SETTLED_SOFT_FACTOR + 0.001);
    }

    #[test]
    fn constant_changes_stay_capped_and_never_pass_hard() {
        let mut s = BestMoveStability::default();
        for i in 0..30 {
            s.record(i % 2);
        }
        let f = s.soft_factor();
        assert!(f > MAX_SOFT_FACTOR - 0.01 && f <= MAX_SOFT_FACTOR, "{f}");
        let (soft, hard) = (Duration::from_millis(100), Duration::from_millis(150));
        assert_eq!(s.soft_limit(soft, hard), hard);
        let mut settled = BestMoveStability::default();
        for _ in 0..60 {
            settled.record(5);
        }
        assert_eq!(
            settled.soft_limit(soft, hard),
            soft.mul_f64(SETTLED_SOFT_FACTOR)
        );
    }
}
