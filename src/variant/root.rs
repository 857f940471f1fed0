//! The root of the variant search: iterative deepening with seeded tie-breaks
//! for a move choice ([`search`]), and every root move scored for hints
//! ([`hint`]). Scores are centi-discs for the side to move.

use super::search::{INF, INF_DISCS, Searcher, evaluate, key};
use super::{State, Variant, VariantPosition};
use crate::board::bitboard::Squares;
use crate::board::{Move, Square};
use crate::eval::DISC;
use crate::rng::Rng;
use crate::search::multipv::{MultiPvIteration, PvLine};
use crate::search::{Limits, RootSearch, ScoreKind, SearchResult, TimeLimit, pv_moves};
use crate::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What to search.
#[derive(Clone, Copy, Debug)]
pub struct VariantRequest {
    /// The rules.
    pub variant: Variant,
    /// The position, from the side to move.
    pub state: State,
    /// Depth and solve thresholds (see [`Limits::root_search`]).
    pub limits: Limits,
    /// Breaks ties between moves rated exactly equal at the root.
    pub seed: u64,
    /// Time limits from the start: no depth starts after `soft`, the search
    /// stops at `hard`; `None` searches to the depth.
    pub time: Option<TimeLimit>,
}

impl VariantRequest {
    /// A request for `pos` within `limits`, seed 0, no time limit.
    pub fn new(pos: &VariantPosition, limits: Limits) -> VariantRequest {
        VariantRequest {
            variant: pos.variant,
            state: pos.state(),
            limits,
            seed: 0,
            time: None,
        }
    }
}

/// One root: the searcher, the moves in order, and the depths to run.
struct Root<'a> {
    req: &'a VariantRequest,
    searcher: Searcher<'a>,
    order: Vec<u8>,
    root: RootSearch,
    start: Instant,
}

impl<'a> Root<'a> {
    fn new(req: &'a VariantRequest, tt: &'a TranspositionTable, stop: &'a AtomicBool) -> Self {
        let start = Instant::now();
        let deadline = req.time.map(|t| start + t.hard);
        let s = req.state;
        let empties = s.board.empties();
        tt.new_search();
        Root {
            req,
            searcher: Searcher::new(req.variant, tt, stop).with_deadline(deadline),
            order: Squares(s.moves(req.variant)).collect(),
            root: req.limits.root_search(empties),
            start,
        }
    }

    /// The depths to search: the whole game when solving.
    fn depths(&self) -> Vec<u32> {
        if self.root == RootSearch::Midgame {
            (1..=self.req.limits.depth.max(1)).collect()
        } else {
            vec![self.req.state.board.empties()]
        }
    }

    /// Whether another depth may start (the soft time limit).
    fn may_start(&self) -> bool {
        self.req.time.is_none_or(|t| self.start.elapsed() < t.soft)
    }

    /// Every root move's score at `depth` in centi-discs, best first (ties by
    /// square). With `exact_all` each is exact; otherwise only the best and those
    /// tied with it are, the others being upper bounds. `None` if stopped.
    fn pass(&mut self, depth: u32, exact_all: bool) -> Option<Vec<(u8, i32)>> {
        let (v, s, root) = (self.req.variant, self.req.state, self.root);
        let solving = root != RootSearch::Midgame;
        // Solving works in discs, the midgame in centi-discs.
        let (unit, inf) = if solving { (DISC, INF_DISCS) } else { (1, INF) };
        let mut scored: Vec<(u8, i32)> = Vec::new();
        let mut best = -inf;
        for &sq in &self.order {
            let child = s.make(sq, s.flips(v, sq));
            let searcher = &mut self.searcher;
            let mut value = |alpha: i32, beta: i32| {
                if solving {
                    -searcher.solve(child, -beta, -alpha)
                } else {
                    -searcher.midgame(child, depth - 1, -beta, -alpha)
                }
            };
            // A null window just below the best finds the moves tied with it.
            let score = if root == RootSearch::WinLossDraw {
                // Only the sign is proven.
                value(-1, 1).signum()
            } else if scored.is_empty() || exact_all {
                value(-inf, inf)
            } else {
                let probe = value(best - 1, best);
                if probe >= best {
                    value(best - 1, inf)
                } else {
                    probe
                }
            };
            if self.searcher.aborted() {
                return None;
            }
            best = best.max(score);
            scored.push((sq, score * unit));
        }
        scored.sort_by_key(|&(sq, sc)| (std::cmp::Reverse(sc), sq));
        self.order = scored.iter().map(|m| m.0).collect();
        Some(scored)
    }

    /// The line from the root through `sq`.
    fn line(&self, sq: u8) -> Vec<Move> {
        let (v, s) = (self.req.variant, self.req.state);
        let mut pv = vec![sq];
        pv.extend(self.searcher.pv(s.make(sq, s.flips(v, sq)), 60));
        pv_moves(&pv)
    }

    fn kind(&self, depth: u32) -> ScoreKind {
        match self.root {
            RootSearch::Midgame => ScoreKind::Midgame(depth),
            RootSearch::WinLossDraw => ScoreKind::WinLossDraw,
            RootSearch::Exact => ScoreKind::Exact,
        }
    }
}

/// The position after a forced pass, searched for the opponent, seen back from
/// the side that passes; `None` when the game is over.
fn behind_pass(req: &VariantRequest) -> Option<VariantRequest> {
    let (v, s) = (req.variant, req.state);
    (s.moves(v) == 0 && s.pass().moves(v) != 0).then(|| VariantRequest {
        state: s.pass(),
        ..*req
    })
}

/// Searches `req` to its depth (or solves it), reporting each completed depth;
/// ties between equally rated root moves are broken by the seed. A stop (or the
/// hard time limit) ends it with the last completed depth's answer.
pub fn search(
    req: &VariantRequest,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&SearchResult),
) -> SearchResult {
    let (v, s) = (req.variant, req.state);
    if s.moves(v) == 0 {
        let Some(passed) = behind_pass(req) else {
            return SearchResult {
                best: None,
                score: s.final_score(v) * DISC,
                kind: ScoreKind::Exact,
                pv: Vec::new(),
                nodes: 0,
                elapsed: std::time::Duration::ZERO,
                stopped: false,
            };
        };
        let mut r = search(&passed, tt, stop, &mut |_| {});
        r.score = -r.score;
        r.best = Some(Move::Pass);
        r.pv.insert(0, Move::Pass);
        report(&r);
        return r;
    }
    let mut root = Root::new(req, tt, stop);
    let mut rng = Rng::new(req.seed ^ key(v, &s));
    let mut last: Option<SearchResult> = None;
    for depth in root.depths() {
        if last.is_some() && !root.may_start() {
            break;
        }
        let Some(scored) = root.pass(depth, false) else {
            break;
        };
        let best = scored[0].1;
        let ties: Vec<u8> = scored.iter().filter(|m| m.1 == best).map(|m| m.0).collect();
        let sq = ties[rng.below(ties.len() as u64) as usize];
        let r = SearchResult {
            best: Square::new(sq).map(Move::Play),
            score: best,
            kind: root.kind(depth),
            pv: root.line(sq),
            nodes: root.searcher.nodes,
            elapsed: root.start.elapsed(),
            stopped: false,
        };
        report(&r);
        last = Some(r);
    }
    let stopped = root.searcher.aborted();
    let mut r = last.unwrap_or_else(|| {
        // Stopped before the first depth: the first move, unscored.
        let sq = root.order[0];
        SearchResult {
            best: Square::new(sq).map(Move::Play),
            score: evaluate(v, &s),
            kind: ScoreKind::Midgame(0),
            pv: pv_moves(&[sq]),
            nodes: 0,
            elapsed: root.start.elapsed(),
            stopped,
        }
    });
    r.nodes = root.searcher.nodes;
    r.elapsed = root.start.elapsed();
    r.stopped = stopped;
    r
}

/// The best `lines` root moves with exact scores at each depth (or the solve),
/// reported after every completed depth; when the side to move must pass, the
/// opponent's best line behind the pass. Returns the last report.
pub fn hint(
    req: &VariantRequest,
    lines: usize,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&MultiPvIteration),
) -> Option<MultiPvIteration> {
    if let Some(passed) = behind_pass(req) {
        return hint(&passed, 1, tt, stop, &mut |it| {
            let mut it = it.clone();
            for l in &mut it.lines {
                l.score = -l.score;
                l.pv.insert(0, Move::Pass);
            }
            report(&it);
        });
    }
    if req.state.moves(req.variant) == 0 {
        return None;
    }
    let mut root = Root::new(req, tt, stop);
    let mut last = None;
    for depth in root.depths() {
        let scored = root.pass(depth, true)?;
        let it = MultiPvIteration {
            kind: root.kind(depth),
            lines: scored
                .iter()
                .take(lines.max(1))
                .map(|&(sq, score)| PvLine {
                    score,
                    pv: root.line(sq),
                })
                .collect(),
            nodes: root.searcher.nodes,
            elapsed: root.start.elapsed(),
        };
        report(&it);
        last = Some(it);
    }
    last
}
