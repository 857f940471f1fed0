//! The search under any variant: iterative-deepening PVS over the variant's
//! evaluation, the shared transposition table, fastest-first ordering, and an
//! exact solver that plays the game out under the variant's own scoring and disc
//! supply (an Anti-Reversi endgame is solved by its own score, not by negating
//! Othello's).
//!
//! Othello itself is searched by the faster specialised code in
//! [`crate::search`]; this one serves Reversi and Anti-Reversi and is checked
//! against plain minimax on random endgames of every variant. The root (move
//! choice, hints) is in [`super::root`].
//!
//! Scores: centi-discs for the side to move, as in [`crate::search`]; the solver
//! works in discs.

use super::{State, Variant};
use crate::board::bitboard::Squares;
use crate::eval::features::Features;
use crate::eval::{DISC, evaluate_mobility, score_anti};
use crate::search::params::{ENDGAME_TT_MIN_EMPTIES, MIDGAME_TT_MIN_DEPTH, STOP_CHECK_INTERVAL};
use crate::tt::{LEVEL_EXACT, LEVEL_MIDGAME, NO_MOVE, TranspositionTable, TtData};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Above every midgame score.
pub(super) const INF: i32 = 10_000;
/// Above every final margin in discs.
pub(super) const INF_DISCS: i32 = 65;
/// From this many empties up, moves are sorted fastest-first: the subtrees are
/// large enough to repay one move generation per child (as in the Othello solver).
const ORDER_MIN_EMPTIES: u32 = 7;

/// The static evaluation of `state` under `variant`, centi-discs for the mover.
/// Othello and Reversi use the mobility-first evaluation (nothing to judge in
/// Reversi's four opening placements, which flip nothing: 0); Anti-Reversi
/// uses [`score_anti`].
pub fn evaluate(variant: Variant, state: &State) -> i32 {
    match variant {
        Variant::Anti => score_anti(&Features::of(&state.board)),
        _ if state.in_opening(variant) => 0,
        _ => evaluate_mobility(&state.board),
    }
}

/// The table key of `state` under `variant`: the variants never share entries.
pub(super) fn key(variant: Variant, state: &State) -> u64 {
    state.hash() ^ (variant as u64).wrapping_mul(0xd6e8_feb8_6659_fd93)
}

/// One search's state.
pub struct Searcher<'a> {
    variant: Variant,
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    /// Positions visited.
    pub nodes: u64,
    next_check: u64,
    aborted: bool,
    deadline: Option<Instant>,
}

impl<'a> Searcher<'a> {
    /// A search under `variant` sharing `tt`, watching `stop`.
    pub fn new(variant: Variant, tt: &'a TranspositionTable, stop: &'a AtomicBool) -> Self {
        Searcher {
            variant,
            tt,
            stop,
            nodes: 0,
            next_check: STOP_CHECK_INTERVAL,
            aborted: false,
            deadline: None,
        }
    }

    /// The same search, stopping (and raising the stop flag) at `deadline`.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Whether a stop cut the search short.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    fn count(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + STOP_CHECK_INTERVAL;
            self.tt.add_progress(STOP_CHECK_INTERVAL);
            self.aborted |= crate::search::must_stop(self.stop, None, self.deadline);
        }
        self.aborted
    }

    /// The moves of `s`, best-looking first: the table's move, then fewest
    /// replies for the opponent (when `sort`).
    fn ordered(&self, s: &State, moves: u64, tt_move: u8, sort: bool) -> Vec<(u8, State)> {
        let v = self.variant;
        let mut list: Vec<(i32, u8, State)> = Squares(moves)
            .map(|sq| {
                let child = s.make(sq, s.flips(v, sq));
                let key = if sq == tt_move {
                    i32::MIN
                } else if sort {
                    child.moves(v).count_ones() as i32
                } else {
                    0
                };
                (key, sq, child)
            })
            .collect();
        list.sort_by_key(|&(k, sq, _)| (k, sq));
        list.into_iter().map(|(_, sq, c)| (sq, c)).collect()
    }

    /// The exact final margin of `s` (discs, for the mover) within `(alpha, beta)`,
    /// fail-soft.
    pub fn solve(&mut self, s: State, mut alpha: i32, beta: i32) -> i32 {
        if self.count() {
            return 0;
        }
        let v = self.variant;
        let moves = s.moves(v);
        if moves == 0 {
            let passed = s.pass();
            if passed.moves(v) == 0 {
                return s.final_score(v);
            }
            return -self.solve(passed, -beta, -alpha);
        }
        let empties = s.board.empties();
        let use_tt = empties >= ENDGAME_TT_MIN_EMPTIES;
        let hash = key(v, &s);
        let mut tt_move = NO_MOVE;
        if use_tt && let Some(d) = self.tt.probe(hash) {
            if d.level == LEVEL_EXACT {
                let (lo, hi) = (i32::from(d.lower) / DISC, i32::from(d.upper) / DISC);
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                alpha = alpha.max(lo);
            }
            tt_move = d.best_move;
        }
        let alpha0 = alpha;
        let mut best = -INF_DISCS;
        let mut best_move = NO_MOVE;
        for (sq, child) in self.ordered(&s, moves, tt_move, empties >= ORDER_MIN_EMPTIES) {
            let score = -self.solve(child, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = sq;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if use_tt {
            let (lower, upper) = bounds(best, alpha0, beta, INF_DISCS - 1);
            self.store(
                hash,
                lower * DISC,
                upper * DISC,
                empties,
                best_move,
                LEVEL_EXACT,
            );
        }
        best
    }

    /// The value of `s` searched `depth` plies deep over `(alpha, beta)`, fail-soft,
    /// in centi-discs; a node that sees the end of the game is solved.
    pub fn midgame(&mut self, s: State, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if self.count() {
            return 0;
        }
        let v = self.variant;
        let moves = s.moves(v);
        if moves == 0 {
            let passed = s.pass();
            if passed.moves(v) == 0 {
                return s.final_score(v) * DISC;
            }
            return -self.midgame(passed, depth, -beta, -alpha);
        }
        if depth == 0 {
            return evaluate(v, &s);
        }
        if depth >= s.board.empties() {
            let a = alpha.div_euclid(DISC).clamp(-INF_DISCS, INF_DISCS);
            let b = (beta + DISC - 1)
                .div_euclid(DISC)
                .clamp(-INF_DISCS, INF_DISCS);
            return self.solve(s, a, b.max(a + 1)) * DISC;
        }
        let hash = key(v, &s);
        let mut tt_move = NO_MOVE;
        if depth >= MIDGAME_TT_MIN_DEPTH
            && let Some(d) = self.tt.probe(hash)
        {
            if d.level == LEVEL_EXACT || u32::from(d.depth) >= depth {
                let (lo, hi) = (i32::from(d.lower), i32::from(d.upper));
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
            }
            tt_move = d.best_move;
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        for (i, (sq, child)) in self
            .ordered(&s, moves, tt_move, depth >= 2)
            .into_iter()
            .enumerate()
        {
            let mut score;
            if i == 0 {
                score = -self.midgame(child, depth - 1, -beta, -alpha);
            } else {
                score = -self.midgame(child, depth - 1, -alpha - 1, -alpha);
                if score > alpha && score < beta && !self.aborted {
                    score = -self.midgame(child, depth - 1, -beta, -alpha);
                }
            }
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = sq;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if depth >= MIDGAME_TT_MIN_DEPTH {
            let (lower, upper) = bounds(best, alpha0, beta, 64 * DISC);
            self.store(hash, lower, upper, depth, best_move, LEVEL_MIDGAME);
        }
        best
    }

    fn store(&self, hash: u64, lower: i32, upper: i32, depth: u32, mv: u8, level: u8) {
        self.tt.store(
            hash,
            TtData {
                lower: lower.clamp(-64 * DISC, 64 * DISC) as i16,
                upper: upper.clamp(-64 * DISC, 64 * DISC) as i16,
                depth: depth.min(255) as u8,
                best_move: mv,
                level,
            },
        );
    }

    /// The line the table remembers from `s` (at most `max` moves).
    pub(super) fn pv(&self, mut s: State, max: usize) -> Vec<u8> {
        let v = self.variant;
        let mut line = Vec::new();
        while line.len() < max {
            let moves = s.moves(v);
            if moves == 0 {
                if s.pass().moves(v) == 0 {
                    break;
                }
                line.push(crate::search::PASS);
                s = s.pass();
                continue;
            }
            let Some(d) = self.tt.probe(key(v, &s)) else {
                break;
            };
            if d.best_move >= 64 || moves & (1 << d.best_move) == 0 {
                break;
            }
            line.push(d.best_move);
            s = s.make(d.best_move, s.flips(v, d.best_move));
        }
        line
    }
}

/// The table bounds of a fail-soft result `best` searched over `(alpha0, beta)`.
fn bounds(best: i32, alpha0: i32, beta: i32, inf: i32) -> (i32, i32) {
    if best >= beta {
        (best, inf)
    } else if best > alpha0 {
        (best, best)
    } else {
        (-inf, best)
    }
}
