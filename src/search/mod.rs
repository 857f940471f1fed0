//! The search: iterative deepening over the midgame search, or an exact (or
//! win/loss/draw) solve once the empties fall to the request's threshold.
//!
//! Scores are centi-discs ([`crate::eval::DISC`] = 100 per disc) for the side to
//! move; exact results are whole discs × 100. The search never prints: it reports
//! each completed iteration to a callback and returns a [`SearchResult`].
//!
//! Determinism: nothing here reads the clock to decide anything (the clock is only
//! measured for reports), and moves rated exactly equal at the root are told apart
//! by a draw from [`Rng`](crate::rng::Rng) seeded with the request's seed and the
//! position, so one thread replays a game move for move on any machine.

mod answer;
pub mod busy;
pub mod context;
pub mod control;
pub mod endgame;
pub(crate) mod last_empties;
pub mod level;
pub mod midgame;
pub mod ordering;
pub mod params;
pub mod probcut;
mod root;
mod rule_search;
mod smp;
pub mod stack;
mod time_plan;
mod watch;

use crate::board::{Move, Square};
use crate::eval::EvalKind;
use crate::rules::{Othello, Rules};
use crate::tt::{self, TranspositionTable};
use std::time::{Duration, Instant};

pub use control::{Control, NodeCounters};
pub use level::Level;
pub use probcut::Selectivity;
pub use root::lines::{MultiPvIteration, PvLine, line_square, multipv};
pub use rule_search::{LastEmpties, RuleSearch};

/// The pass move in a principal variation.
pub const PASS: u8 = 64;

/// A score no game reaches, above every final count, in whole discs (the
/// solver's unit).
pub const INF_DISCS: i32 = 65;

/// How deep to search, and where the exact and win/loss/draw solves take over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Midgame depth in plies (passes cost none).
    pub depth: u32,
    /// At this many empties or fewer the root solves exactly.
    pub exact_empties: u32,
    /// At this many empties or fewer (and above `exact_empties`) the root proves
    /// win, loss or draw.
    pub wld_empties: u32,
    /// How sure the midgame search's Multi-ProbCut cuts must be
    /// ([`Selectivity::FULL`]: no cut, every move searched to full depth).
    pub selectivity: Selectivity,
}

/// What the root of a search runs, chosen by [`Limits::root_search`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootSearch {
    /// Iterative deepening of the midgame search to the depth limit.
    Midgame,
    /// A proof of the sign only: win, loss or draw.
    WinLossDraw,
    /// The exact final margin.
    Exact,
}

impl Limits {
    /// An exact solve of any position, whatever the level (historical
    /// Reversi starts with 64 empties).
    pub const EXACT: Limits = Limits {
        depth: 64,
        exact_empties: 64,
        wld_empties: 64,
        selectivity: Selectivity::FULL,
    };

    /// A win/loss/draw proof of any position: no midgame depth, which would
    /// reach the end of the game and make the solve exact.
    pub const WIN_LOSS_DRAW: Limits = Limits {
        depth: 0,
        exact_empties: 0,
        wld_empties: 64,
        selectivity: Selectivity::FULL,
    };

    /// [`Limits::WIN_LOSS_DRAW`] when `wld`, else [`Limits::EXACT`].
    pub const fn solve(wld: bool) -> Limits {
        if wld {
            Limits::WIN_LOSS_DRAW
        } else {
            Limits::EXACT
        }
    }

    /// The root rule, the one every caller uses (`go`, `hint`, `analyze`,
    /// `solve`, matches, every rule set): an exact solve at `exact_empties` or
    /// fewer, or when the midgame depth reaches the end of the game (such a
    /// search would be an exact solve anyway); otherwise a win/loss/draw proof
    /// at `wld_empties` or fewer; otherwise a midgame search. Each band starts
    /// where the one before ends, so more empties never move a position to a
    /// stronger kind of search.
    pub fn root_search(&self, empties: u32) -> RootSearch {
        if empties <= self.exact_empties || self.depth >= empties {
            RootSearch::Exact
        } else if empties <= self.wld_empties {
            RootSearch::WinLossDraw
        } else {
            RootSearch::Midgame
        }
    }
}

/// Everything one search under the rules `R` (Othello unless named) needs
/// besides the shared table and stop flag: a game move's search ([`search`])
/// and a hint's ([`multipv`]) alike.
#[derive(Clone, Copy, Debug)]
pub struct SearchRequest<R: Rules = Othello> {
    /// The position, from the side to move.
    pub board: R::Pos,
    /// Depth and solve thresholds.
    pub limits: Limits,
    /// The leaf evaluation.
    pub eval: EvalKind,
    /// The game's seed: breaks ties between moves rated exactly equal.
    pub seed: u64,
    /// Whether to spend the extra search that finds every root move tied with
    /// the best (needed for seeded tie-breaks; `solve` benchmarks turn it off).
    pub find_ties: bool,
    /// Search threads sharing the table (1 searches alone, deterministically).
    pub threads: usize,
    /// Time limits, counted from the start of the search; `None` searches to the
    /// depth limits.
    pub time: Option<TimeLimit>,
    /// The contempt: what a drawn game is worth to the side to move at the root,
    /// in centi-discs, clamped to ±[`params::MAX_CONTEMPT`]. It changes how the
    /// midgame search scores draws it sees (and so its choice and score); an exact
    /// or win/loss/draw solve at the root reports the true result and its choice
    /// cannot change, since a draw stays between a two-disc loss and win.
    pub contempt: i32,
    /// How many root moves each pass scores exactly: 1 searches for the best
    /// move alone (inside aspiration windows, with the seeded draw between
    /// equal moves); N > 1 is multi-PV, each of the N best moves with its own
    /// score ([`multipv`] reports them all; [`search`] answers with the best).
    pub lines: usize,
}

impl<R: Rules> SearchRequest<R> {
    /// A request under the rules `R` for `board` at `level`: seed 0, ties
    /// broken, one thread, no time limit.
    pub fn new(board: R::Pos, level: Level) -> SearchRequest<R> {
        SearchRequest {
            board,
            limits: level.limits,
            eval: level.eval,
            seed: 0,
            find_ties: true,
            threads: 1,
            time: None,
            contempt: 0,
            lines: 1,
        }
    }
}

/// When to stop searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimit {
    /// No new iteration starts after this, nor one that would likely run past
    /// `hard`.
    pub soft: Duration,
    /// The search stops here, wherever it is, and answers with the last
    /// completed iteration.
    pub hard: Duration,
}

/// How a score was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// A heuristic search to the given depth.
    Midgame(u32),
    /// A selective search to the end of the game, from `empties` empty
    /// squares at `selectivity`: a likely final margin, not yet proven (the
    /// solver's passes before its proof).
    SelectiveEnd {
        /// The empty squares searched to the end.
        empties: u32,
        /// The Multi-ProbCut confidence of the pass.
        selectivity: Selectivity,
    },
    /// The exact final disc difference.
    Exact,
    /// Only the sign is proven: win (> 0), draw (0) or loss (< 0).
    WinLossDraw,
    /// A value from the opening book (no search now), whose searches went to
    /// `depth` (60: exact).
    Book {
        /// The depth of the book's searches behind the value.
        depth: u32,
    },
}

/// A completed iteration (or the final result): what the search knows now.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `Move::Pass` when the side to move must pass, `None` when
    /// the game is over.
    pub best: Option<Move>,
    /// Centi-discs for the side to move.
    pub score: i32,
    /// How the score was obtained.
    pub kind: ScoreKind,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// Whether a stop cut the search short (the result is then the last complete
    /// iteration's).
    pub stopped: bool,
}

impl std::fmt::Display for ScoreKind {
    /// The depth as the console and the tools write it: `12`, `24@73%` (a
    /// selective search to the end from 24 empties, as Edax writes it),
    /// `exact` or `wld`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScoreKind::Midgame(d) => write!(f, "{d}"),
            ScoreKind::SelectiveEnd {
                empties,
                selectivity,
            } => write!(f, "{empties}@{}%", selectivity.percent()),
            ScoreKind::Exact => f.write_str("exact"),
            ScoreKind::WinLossDraw => f.write_str("wld"),
            ScoreKind::Book { .. } => f.write_str("book"),
        }
    }
}

impl SearchResult {
    /// Whether the answer rests on a search: false for a search stopped before
    /// its first iteration completed, which answers with the first legal move
    /// at depth 0 and a score of 0 that means nothing.
    pub fn searched(&self) -> bool {
        !(self.stopped && self.kind == ScoreKind::Midgame(0))
    }
}

/// The best move so far of a null-window node, and its score (fail-soft).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NullWindowBest {
    /// The highest score seen.
    pub score: i32,
    /// The move that scored it.
    pub mv: u8,
}

impl NullWindowBest {
    /// No move yet: the score starts at `floor`, below any real score.
    #[inline(always)]
    pub fn new(floor: i32) -> NullWindowBest {
        NullWindowBest {
            score: floor,
            mv: tt::NO_MOVE,
        }
    }

    /// Takes the move to `sq` scored `v`; whether it beats `alpha`, a cut-off
    /// that ends the node.
    #[inline(always)]
    pub fn cuts(&mut self, v: i32, sq: u8, alpha: i32) -> bool {
        if v > self.score {
            self.score = v;
            self.mv = sq;
        }
        v > alpha
    }
}

/// The bounds a PV node's result leaves in the table: a lower bound when it
/// failed high (`score >= beta`), the exact score inside the window opened at
/// `(alpha0, beta)`, an upper bound when it failed low; `inf` stands for "no
/// bound" on the open side.
#[inline(always)]
pub(crate) fn window_bounds(score: i32, (alpha0, beta): (i32, i32), inf: i32) -> (i32, i32) {
    if score >= beta {
        (score, inf)
    } else if score > alpha0 {
        (score, score)
    } else {
        (-inf, score)
    }
}

/// Converts a PV of squares and [`PASS`] into moves.
pub fn pv_moves(pv: &[u8]) -> Vec<Move> {
    pv.iter()
        .map(|&m| Square::new(m).map_or(Move::Pass, Move::Play))
        .collect()
}

/// Runs one search under the rules `R` to its limits (or until `stop` is
/// raised), reporting every completed iteration to `report`. Uses and fills
/// `tt`.
pub fn search<'a, R: RuleSearch>(
    req: &SearchRequest<R>,
    tt: &TranspositionTable,
    control: impl Into<Control<'a>>,
    report: &mut dyn FnMut(&SearchResult),
) -> SearchResult {
    search_answering(req, tt, control, report, &|_| {})
}

/// [`search`], which also hands its answer to `answer`, once, as soon as it is
/// known: when a stop or the hard deadline ends the search, the first of its
/// threads to see it gives the answer the main thread would return, without
/// waiting for the others to unwind (see `answer`). No report follows the
/// answer. The answer may differ from the return value only in its node count,
/// and when a stop comes just as the search completes (the answer is then the
/// one standing at the stop).
pub fn search_answering<'a, R: RuleSearch>(
    req: &SearchRequest<R>,
    tt: &TranspositionTable,
    control: impl Into<Control<'a>>,
    report: &mut dyn FnMut(&SearchResult),
    answer: &(dyn Fn(&SearchResult) + Sync),
) -> SearchResult {
    let standing = answer::Standing::new(answer, Instant::now());
    let r = root::policy::search_standing(req, tt, control.into(), report, &standing);
    standing.give(&r);
    r
}

/// Whether an exact solve of a position with `empties` empty squares likely
/// takes at most `seconds` (see [`params::TIMED_SOLVE_BASE_SECONDS`]).
pub fn timed_solve_fits(empties: u32, seconds: f64) -> bool {
    if empties > params::TIMED_SOLVE_MAX_EMPTIES {
        return false;
    }
    let extra = f64::from(empties as i32 - 20);
    params::TIMED_SOLVE_BASE_SECONDS * params::TIMED_SOLVE_GROWTH.powf(extra) <= seconds
}
