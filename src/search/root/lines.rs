//! Multi-PV: the best N root moves with their own scores, depth after depth, for
//! hints (NBoard's `hint N`, the console's `hint N`).
//!
//! Each depth searches every root move (best first, in the order of the last
//! depth). While fewer than N moves have a score, a move gets a full-window
//! search, so its score is exact at that depth; once N have one, a null window
//! first asks whether the move beats the N-th best, and only a move that does is
//! searched again with the full window. The N best are then correct at every
//! depth, and the others are never reported. Near the end the root solves: every
//! reported move's score is then the exact final margin (or, in the win/loss/draw
//! range, its proven sign). With several threads, lazy-SMP helpers search the
//! same root beside it and fill the shared table (this thread alone reports). It
//! honours the shared stop flag, and a depth cut short is dropped, so every
//! report is a complete depth.
//!
//! Scores are centi-discs for the side to move at the root, as in
//! [`SearchResult`](crate::search::SearchResult).

use super::{Below, Lines, Range, Root, ScoredLine};
use crate::board::movegen::Dispatch;
use crate::board::{Move, Square};
use crate::search::RuleSearch;
use crate::search::context::Context;
use crate::search::control::Control;
use crate::search::{RootSearch, ScoreKind, SearchRequest, smp};
use crate::tt::TranspositionTable;
use std::time::{Duration, Instant};

/// One reported move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// Centi-discs for the side to move at the root.
    pub score: i32,
    /// The line, starting with the move it scores.
    pub pv: Vec<Move>,
}

/// One completed depth: the best moves, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiPvIteration {
    /// How the scores were obtained (the midgame depth, or a solve).
    pub kind: ScoreKind,
    /// At most `lines` moves, best first.
    pub lines: Vec<PvLine>,
    /// Nodes searched since the start.
    pub nodes: u64,
    /// Time since the start.
    pub elapsed: Duration,
}

/// A root move's result in one pass.
struct Scored {
    sq: u8,
    /// The exact score at this depth, or an upper bound when `!exact`.
    score: i32,
    exact: bool,
    pv: Vec<u8>,
}

impl<R: RuleSearch> Root<'_, R> {
    /// Scores every root move with `below` (scores in `range`): the best `n`
    /// lines, best first, or `None` if stopped. Unless the scores are signs
    /// only, a move that cannot enter the best `n` gets only a bound.
    pub(super) fn top_lines(
        &mut self,
        below: &mut dyn Below<R::Pos>,
        range: Range,
        n: usize,
    ) -> Option<Vec<ScoredLine>> {
        let board = self.req.board;
        let prune = !range.signs;
        let mut scored: Vec<Scored> = Vec::with_capacity(self.order.len());
        let mut exact_scores: Vec<i32> = Vec::new();
        for &sq in &self.order {
            // Polled per root move too: a shallow pass may end before the
            // searches below look at the flag.
            if self.ctx.stop_raised() {
                return None;
            }
            let child = R::make(&board, sq, R::flips(Dispatch, &board, sq));
            if prune && exact_scores.len() >= n {
                // The n-th best exact score so far: a move must beat it to count.
                exact_scores.sort_unstable_by(|a, b| b.cmp(a));
                let threshold = exact_scores[n - 1];
                let beats = below.nws(child, -threshold - 1) < -threshold;
                if below.aborted() {
                    return None;
                }
                if !beats {
                    scored.push(Scored {
                        sq,
                        score: threshold,
                        exact: false,
                        pv: vec![sq],
                    });
                    continue;
                }
            }
            let (v, line) = below.pv(child, -range.window.1, -range.window.0);
            if below.aborted() {
                return None;
            }
            let score = (-v).clamp(range.clamp.0, range.clamp.1);
            let pv = std::iter::once(sq).chain(line).collect();
            exact_scores.push(score);
            scored.push(Scored {
                sq,
                score,
                exact: true,
                pv,
            });
        }
        // Best first: exact scores by value, then the bounded moves (stable, so
        // ties keep the previous order).
        scored.sort_by(|a, b| b.exact.cmp(&a.exact).then(b.score.cmp(&a.score)));
        self.order = scored.iter().map(|s| s.sq).collect();
        let lines = scored
            .into_iter()
            .filter(|s| s.exact)
            .take(n)
            .map(|s| (s.score, s.pv))
            .collect();
        Some(lines)
    }
}

/// Reports the best `req.lines` root moves (at least one) of a position under
/// the rules `R` after every completed depth (and after the solve, near the
/// end); returns the last report, or `None` when the root has no legal move or
/// a stop came before the first depth completed. A hint has no clock and draws
/// no lots: `req.time`, `req.seed` and `req.find_ties` are not read.
pub fn multipv<'a, R: RuleSearch>(
    req: &SearchRequest<R>,
    tt: &TranspositionTable,
    control: impl Into<Control<'a>>,
    report: &mut dyn FnMut(&MultiPvIteration),
) -> Option<MultiPvIteration> {
    let start = Instant::now();
    let control = control.into();
    let board = req.board;
    if R::moves(Dispatch, &board) == 0 {
        return None;
    }
    tt.new_search();
    let empties = R::board(&board).empties();
    let root = req.limits.root_search(empties);
    let search = SearchRequest::<R> {
        seed: 0,
        find_ties: false,
        time: None,
        ..*req
    };
    let (last, _) = smp::beside_helpers(&search, tt, control, root, || {
        // This thread searches alone below the root: the helpers share the
        // table only.
        let lines = Lines::Top(req.lines.max(1));
        let ctx = Context::new(tt, control.stop).with_progress(control.nodes, 0);
        let mut top = Root::new(&search, ctx, start, lines);
        match top.run(root, None, report) {
            Ok(Some(proof)) if root != RootSearch::Midgame => {
                report(&proof);
                Some(proof)
            }
            Ok(last) | Err(last) => last,
        }
    });
    last
}

/// The first move of a line as a square, if it is one (for callers that key
/// lines by square).
pub fn line_square(line: &PvLine) -> Option<Square> {
    line.pv.first().and_then(|m| m.square())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::DISC;
    use crate::eval::EvalKind;
    use crate::rules::Othello;
    use crate::search::INF_DISCS;
    use crate::search::Limits;
    use crate::search::endgame::Solver;
    use crate::search::midgame::{INF, Midgame};
    use crate::search::ordering::order_moves;
    use crate::search::{Level, search};
    use crate::tt::NO_MOVE;
    use crate::{Board, Position};
    use std::sync::atomic::AtomicBool;

    fn board(moves: &str) -> Board {
        crate::format::parse_transcript(Position::START, moves)
            .unwrap()
            .position()
            .board
    }

    fn request(b: Board, level: &str, lines: usize) -> SearchRequest {
        let l: Level = level.parse().unwrap();
        SearchRequest {
            board: b,
            limits: l.limits,
            eval: l.eval,
            lines,
            threads: 1,
            contempt: 0,
            seed: 0,
            find_ties: false,
            time: None,
        }
    }

    /// Every root move's score, each searched alone with a fresh table.
    fn each_move(b: Board, depth: u32, exact: bool) -> Vec<(u8, i32)> {
        let stop = AtomicBool::new(false);
        let mut out = Vec::new();
        for (sq, f) in order_moves::<Othello>(&b, b.moves(), NO_MOVE, 2)
            .as_slice()
            .iter()
        {
            let tt = TranspositionTable::new(1).unwrap();
            let child = b.make(*sq, *f);
            let v = if exact {
                -Solver::<Othello>::new(&tt, &stop)
                    .solve(child, -INF_DISCS, INF_DISCS)
                    .score
                    * DISC
            } else {
                -Midgame::<Othello>::new(&tt, &stop, EvalKind::default())
                    .pvs(child, depth - 1, -INF, INF)
                    .score
            };
            out.push((*sq, v));
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.1));
        out
    }

    #[test]
    fn all_lines_match_single_searches_at_every_depth() {
        let b = board("f5d6c3d3c4f4");
        let tt = TranspositionTable::new(4).unwrap();
        let stop = AtomicBool::new(false);
        let mut depths = Vec::new();
        let req = request(b, "4", 64);
        let last = multipv(&req, &tt, &stop, &mut |it| {
            let ScoreKind::Midgame(d) = it.kind else {
                panic!("midgame expected")
            };
            let want: Vec<i32> = each_move(b, d, false).iter().map(|m| m.1).collect();
            let got: Vec<i32> = it.lines.iter().map(|l| l.score).collect();
            assert_eq!(got, want, "depth {d}");
            depths.push(d);
        })
        .unwrap();
        assert_eq!(depths, vec![1, 2, 3, 4]);
        assert_eq!(last.lines.len(), b.moves().count_ones() as usize);
    }

    #[test]
    fn best_lines_are_the_top_of_all_lines() {
        let b = board("f5f6e6f4e3");
        let stop = AtomicBool::new(false);
        let all = multipv(
            &request(b, "5", 64),
            &TranspositionTable::new(4).unwrap(),
            &stop,
            &mut |_| {},
        )
        .unwrap();
        let two = multipv(
            &request(b, "5", 2),
            &TranspositionTable::new(4).unwrap(),
            &stop,
            &mut |_| {},
        )
        .unwrap();
        let scores = |it: &MultiPvIteration| it.lines.iter().map(|l| l.score).collect::<Vec<_>>();
        assert_eq!(scores(&two), scores(&all)[..2].to_vec());
        // The best line agrees with the single-PV search.
        let l: Level = "5".parse().unwrap();
        let tt = TranspositionTable::new(4).unwrap();
        let r = search(
            &SearchRequest::<Othello>::new(b, l),
            &tt,
            &stop,
            &mut |_| {},
        );
        assert_eq!(r.score, two.lines[0].score);
    }

    #[test]
    fn exact_near_the_end() {
        // 14 empties: level 10 solves exactly at 20.
        let pos: Position = "OOOOOOOXOOOOOOXXOOOOXXOXOOXOOOXXOOOXOXXX-OOOXXXX---OXXXX----O--- X"
            .parse()
            .unwrap();
        let b = pos.board;
        assert!(b.empties() <= 20 && b.moves() != 0);
        let tt = TranspositionTable::new(4).unwrap();
        let stop = AtomicBool::new(false);
        let mut kinds = Vec::new();
        let last = multipv(&request(b, "10", 3), &tt, &stop, &mut |it| {
            kinds.push(it.kind)
        })
        .unwrap();
        assert_eq!(last.kind, ScoreKind::Exact);
        assert_eq!(kinds.last(), Some(&ScoreKind::Exact));
        let want: Vec<i32> = each_move(b, 0, true).iter().map(|m| m.1).take(3).collect();
        let got: Vec<i32> = last.lines.iter().map(|l| l.score).collect();
        assert_eq!(got, want);
        for l in &last.lines {
            assert!(line_square(l).is_some());
        }
    }

    #[test]
    fn helpers_leave_exact_lines_exact() {
        // The position of `exact_near_the_end`, with two and three threads: the
        // helpers fill the table, the reported exact scores stay the same.
        let pos: Position = "OOOOOOOXOOOOOOXXOOOOXXOXOOXOOOXXOOOXOXXX-OOOXXXX---OXXXX----O--- X"
            .parse()
            .unwrap();
        let b = pos.board;
        let want: Vec<i32> = each_move(b, 0, true).iter().map(|m| m.1).collect();
        for threads in [2, 3] {
            let tt = TranspositionTable::new(4).unwrap();
            let stop = AtomicBool::new(false);
            let req = SearchRequest {
                threads,
                ..request(b, "10", 64)
            };
            let last = multipv(&req, &tt, &stop, &mut |_| {}).unwrap();
            assert_eq!(last.kind, ScoreKind::Exact);
            let got: Vec<i32> = last.lines.iter().map(|l| l.score).collect();
            assert_eq!(got, want, "{threads} threads");
        }
    }

    #[test]
    fn win_loss_draw_in_its_range() {
        // FFO #1 (14 empties): G8 +18, H1 +12, H7 +6, A2 +6, ..., B1 -4.
        let pos: Position = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
            .parse()
            .unwrap();
        let req = SearchRequest::<Othello> {
            board: pos.board,
            limits: Limits {
                depth: 4,
                exact_empties: 10,
                wld_empties: 14,
                selectivity: crate::search::Selectivity::FULL,
            },
            eval: EvalKind::Mobility,
            lines: 64,
            threads: 1,
            contempt: 0,
            seed: 0,
            find_ties: false,
            time: None,
        };
        let tt = TranspositionTable::new(4).unwrap();
        let stop = AtomicBool::new(false);
        let last = multipv(&req, &tt, &stop, &mut |_| {}).unwrap();
        assert_eq!(last.kind, ScoreKind::WinLossDraw);
        assert_eq!(last.lines.len(), pos.board.moves().count_ones() as usize);
        assert_eq!(last.lines[0].score, DISC);
        assert!(
            last.lines
                .iter()
                .all(|l| [-DISC, 0, DISC].contains(&l.score))
        );
        let b1: Square = "b1".parse().unwrap();
        let b1_line = last.lines.iter().find(|l| line_square(l) == Some(b1));
        assert_eq!(b1_line.map(|l| l.score), Some(-DISC));
    }

    #[test]
    fn a_raised_stop_reports_nothing() {
        let stop = AtomicBool::new(true);
        let tt = TranspositionTable::new(1).unwrap();
        let r = multipv(&request(Board::START, "20", 4), &tt, &stop, &mut |_| {
            panic!("no report after a stop")
        });
        assert_eq!(r, None);
    }
}
