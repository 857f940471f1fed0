//! The search thread's side of the engine: runs one job on a snapshot, reports
//! its events, and turns a panic into [`Event::Failed`].
//!
//! This is where the rule set is chosen, once per job ([`execute`] and
//! [`evaluate`]): everything below runs the one search, monomorphised for the
//! game's [`Rules`].

use super::{Event, Finished, Job, JobId, Settings};
use crate::board::{Color, Move};
use crate::eval::from_discs;
use crate::rules::Position;
use crate::rules::game::Game;
use crate::rules::with_rules;
use crate::search::{Control, MultiPvIteration, NodeCounters, RuleSearch, multipv};
use crate::search::{
    Limits, ScoreKind, SearchRequest, SearchResult, TimeLimit, search, search_answering,
};
use crate::tt::TranspositionTable;
use crossbeam_channel::Sender;
use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The search thread's name; the protocol loop's panic hook stays silent for
/// panics on threads of this name, since they are caught and reported.
pub(crate) const THREAD_NAME: &str = "mollett-search";

/// Everything a job needs, moved to its thread.
pub(super) struct Work {
    pub(super) id: JobId,
    pub(super) job: Job,
    /// The limits of a [`Job::Go`], from the time policy (`super::time`).
    pub(super) time: Option<TimeLimit>,
    pub(super) game: Game,
    pub(super) settings: Settings,
    pub(super) tt: Arc<TranspositionTable>,
    pub(super) stop: Arc<AtomicBool>,
    /// Where the search counts its nodes live, for the engine's `live_nodes`.
    pub(super) nodes: Arc<NodeCounters>,
    pub(super) tx: Sender<Event>,
    /// The fault-injection hook: panic before searching.
    pub(super) panic: bool,
    /// The opening book, if one is in use.
    pub(super) book: Option<Arc<crate::book::Book>>,
}

impl Work {
    /// The search's links to the engine: the stop flag and the live counters.
    fn control(&self) -> Control<'_> {
        Control::from(&*self.stop).counting(&self.nodes)
    }
}

/// Runs the job and sends its last event, whatever happens inside.
pub(super) fn run(work: Work) {
    // Started from the protocol thread, this thread has its short slice: the
    // search takes the default back (see `wakeup`).
    super::wakeup::default_slice();
    // Raised when the search itself sends the job's `Finished`.
    let answered = AtomicBool::new(false);
    let outcome = catch_unwind(AssertUnwindSafe(|| execute(&work, &answered)));
    let last = match outcome {
        Ok(Some(finished)) => Event::Finished(finished),
        Ok(None) => return,
        // The job's last event has gone: a panic while the search unwound after
        // its answer has nobody left to tell.
        Err(_) if answered.load(Ordering::SeqCst) => return,
        Err(payload) => Event::Failed {
            job: work.id,
            message: panic_message(payload.as_ref()),
        },
    };
    // A closed channel means nobody listens any more: nothing to do.
    let _ = work.tx.send(last);
}

/// The text of a panic payload.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// The job's `Finished`, or `None` when the search has sent it (raising
/// `answered`).
fn execute(w: &Work, answered: &AtomicBool) -> Option<Finished> {
    if w.panic {
        panic!("injected fault: the fault-injection hook was armed");
    }
    with_rules!(w.game.variant(), R => execute_under::<R>(w, answered))
}

/// The static evaluation of the game's position (see [`super::Engine::evaluate`]).
pub(super) fn evaluate(game: &Game, settings: &Settings) -> (i32, ScoreKind) {
    let pos = game.position();
    with_rules!(pos.variant, R => evaluate_under::<R>(&pos, settings))
}

fn evaluate_under<R: RuleSearch>(pos: &Position, settings: &Settings) -> (i32, ScoreKind) {
    let p = pos.view::<R>();
    if pos.is_game_over() {
        (from_discs(R::final_score(&p)), ScoreKind::Exact)
    } else {
        (R::evaluate(settings.level.eval, &p), ScoreKind::Midgame(0))
    }
}

/// The job under the rules `R`.
fn execute_under<R: RuleSearch>(w: &Work, answered: &AtomicBool) -> Option<Finished> {
    let start = Instant::now();
    let pos = w.game.position();
    match w.job {
        Job::Go { .. } => go::<R>(w, &pos, Choice::Move(w.time), start, answered),
        Job::Solve { wld } => go::<R>(w, &pos, Choice::Solve { wld }, start, answered),
        Job::Hint { lines } => Some(hint::<R>(w, &pos, lines, start)),
        Job::Analyze => Some(analyze::<R>(w, start)),
    }
}

/// A search request for `pos` from the job's settings.
fn request<R: RuleSearch>(
    w: &Work,
    pos: &Position,
    limits: Limits,
    time: Option<TimeLimit>,
) -> SearchRequest<R> {
    SearchRequest {
        limits,
        seed: w.settings.seed,
        threads: w.settings.threads,
        time,
        contempt: contempt_for(&w.settings, pos.side),
        ..SearchRequest::new(pos.view::<R>(), w.settings.level)
    }
}

/// The settings' contempt (Black's view) for `side`.
fn contempt_for(settings: &Settings, side: Color) -> i32 {
    match side {
        Color::Black => settings.contempt,
        Color::White => -settings.contempt,
    }
}

/// What a [`go`] searches for.
#[derive(Clone, Copy, Debug)]
enum Choice {
    /// A move, within the level and the clock's limits if any.
    Move(Option<TimeLimit>),
    /// The exact result (or only its sign, `wld`), whatever the level; this
    /// also scores a forced pass.
    Solve { wld: bool },
}

/// A move choice or a solve. The search sends the job's `Finished` itself, as
/// soon as it has its answer (`None` then).
fn go<R: RuleSearch>(
    w: &Work,
    pos: &Position,
    choice: Choice,
    start: Instant,
    answered: &AtomicBool,
) -> Option<Finished> {
    let finished = |result: &SearchResult| Finished {
        job: w.id,
        nodes: result.nodes,
        elapsed: start.elapsed(),
        stopped: result.stopped,
        result: Some(result.clone()),
    };
    let req = match choice {
        Choice::Move(_) if pos.must_pass() => {
            // Nothing to choose: no search.
            return Some(finished(&SearchResult {
                best: Some(Move::Pass),
                score: 0,
                kind: ScoreKind::Midgame(0),
                pv: vec![Move::Pass],
                nodes: 0,
                elapsed: start.elapsed(),
                stopped: false,
            }));
        }
        Choice::Move(_) if let Some(r) = book_move(w, pos, start) => return Some(finished(&r)),
        Choice::Move(time) => request::<R>(w, pos, w.settings.limits(), time),
        Choice::Solve { wld } => SearchRequest {
            // A solve reports the result: ties need not be told apart.
            find_ties: false,
            ..request::<R>(w, pos, Limits::solve(wld), None)
        },
    };
    let report = &mut |r: &SearchResult| {
        let _ = w.tx.send(Event::Iteration {
            job: w.id,
            result: r.clone(),
        });
    };
    // A stop is answered by the first search thread to see it, while the
    // others may still be unwinding (see `search_answering`).
    let answer = |r: &SearchResult| {
        answered.store(true, Ordering::SeqCst);
        let _ = w.tx.send(Event::Finished(finished(r)));
    };
    search_answering(&req, &w.tt, w.control(), report, &answer);
    None
}

/// The book's move for the position, if the book has one: drawn within the
/// settings' randomness by the game's seed, its line the book's best answers.
fn book_move(w: &Work, pos: &Position, start: Instant) -> Option<SearchResult> {
    let book = w.book.as_ref()?;
    let m = book.choose(pos, w.settings.book_randomness as i32, w.settings.seed)?;
    Some(SearchResult {
        best: Some(Move::Play(m.square)),
        score: i32::from(m.score),
        kind: ScoreKind::Book {
            depth: u32::from(m.depth),
        },
        pv: book.line(pos, m.square),
        nodes: 0,
        elapsed: start.elapsed(),
        stopped: false,
    })
}

/// The best `lines` moves at every depth. When the side to move must pass, the
/// opponent's best line is reported behind the pass, its score negated. In a
/// position of the book, its book moves instead, without a search.
fn hint<R: RuleSearch>(w: &Work, pos: &Position, lines: usize, start: Instant) -> Finished {
    let mut nodes = 0;
    if let Some(mut moves) = w.book.as_ref().and_then(|b| b.hints(pos)) {
        moves.truncate(lines.max(1));
        let _ = w.tx.send(Event::BookHints { job: w.id, moves });
    } else if !pos.is_game_over() {
        let passed = pos.must_pass();
        let board = pos.view::<R>();
        let contempt = contempt_for(&w.settings, pos.side);
        let req = SearchRequest::<R> {
            board: if passed { R::pass(&board) } else { board },
            limits: w.settings.limits(),
            eval: w.settings.level.eval,
            lines: if passed { 1 } else { lines.max(1) },
            threads: w.settings.threads,
            contempt: if passed { -contempt } else { contempt },
            seed: 0,
            find_ties: false,
            time: None,
        };
        multipv(&req, &w.tt, w.control(), &mut |it| {
            nodes = it.nodes;
            let iteration = if passed { behind_pass(it) } else { it.clone() };
            let _ = w.tx.send(Event::Hint {
                job: w.id,
                iteration,
            });
        });
    }
    Finished {
        job: w.id,
        result: None,
        nodes,
        elapsed: start.elapsed(),
        stopped: w.stop.load(Ordering::Relaxed),
    }
}

/// The opponent's lines seen from the side that passes.
fn behind_pass(it: &MultiPvIteration) -> MultiPvIteration {
    let mut out = it.clone();
    for line in &mut out.lines {
        line.score = -line.score;
        line.pv.insert(0, Move::Pass);
    }
    out
}

/// Scores every position of the game, last first (the solved tail fills the
/// table for the positions before it).
fn analyze<R: RuleSearch>(w: &Work, start: Instant) -> Finished {
    let mut nodes = 0;
    let mut stopped = false;
    let positions = w.game.positions();
    for (ply, pos) in positions.iter().enumerate().rev() {
        if w.stop.load(Ordering::Relaxed) {
            stopped = true;
            break;
        }
        let (score, kind) = if pos.is_game_over() {
            (
                from_discs(R::final_score(&pos.view::<R>())),
                ScoreKind::Exact,
            )
        } else {
            let req = request::<R>(w, pos, w.settings.limits(), None);
            let r = search(&req, &w.tt, w.control(), &mut |_| {});
            nodes += r.nodes;
            if r.stopped {
                stopped = true;
                break;
            }
            (r.score, r.kind)
        };
        let _ = w.tx.send(Event::Analysis {
            job: w.id,
            ply,
            score,
            kind,
        });
    }
    Finished {
        job: w.id,
        result: None,
        nodes,
        elapsed: start.elapsed(),
        stopped,
    }
}
