//! The best move alone: one root pass inside an aspiration window, and the
//! seeded choice between moves rated exactly equal.

use super::{Below, Range, Root, ScoredLine};
use crate::board::movegen::Dispatch;
use crate::rng::Rng;
use crate::search::RuleSearch;

impl<R: RuleSearch> Root<'_, R> {
    /// Searches every root move over `(alpha, beta)`; with ties wanted (by the
    /// request, and given an `rng`: a selective endgame pass, whose choice is
    /// not the answer, gives none), moves rated exactly equal to the best are
    /// found and one is drawn from `rng`. `clamp` folds scores into a range
    /// (the win/loss/draw sign). The chosen move's score and line, or `None`
    /// if stopped.
    fn best_pass(
        &mut self,
        below: &mut dyn Below<R::Pos>,
        alpha: i32,
        beta: i32,
        clamp: (i32, i32),
        rng: Option<&mut Rng>,
    ) -> Option<ScoredLine> {
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
        Some((best, pv))
    }

    /// One pass over the root moves inside an aspiration window: `range.half`
    /// either side of `guess` (the whole of `range.window` without a guess),
    /// doubled on every failure until the score lies inside or against an
    /// edge of the window. `None` if stopped.
    pub(super) fn aspirated(
        &mut self,
        below: &mut dyn Below<R::Pos>,
        guess: Option<i32>,
        range: Range,
        mut rng: Option<&mut Rng>,
    ) -> Option<ScoredLine> {
        let (lo, hi) = range.window;
        let (mut alpha, mut beta) = match guess {
            Some(g) => ((g - range.half).max(lo), (g + range.half).min(hi)),
            None => (lo, hi),
        };
        let mut widen = range.half;
        loop {
            match self.best_pass(below, alpha, beta, range.clamp, rng.as_deref_mut()) {
                Some(p) if p.0 <= alpha && alpha > lo => alpha = (alpha - widen).max(lo),
                Some(p) if p.0 >= beta && beta < hi => beta = (beta + widen).min(hi),
                other => return other,
            }
            widen *= 2;
        }
    }
}
