//! The search thread's side of the engine: runs one job on a snapshot, reports
//! its events, and turns a panic into [`Event::Failed`].

use super::{Event, Finished, Job, JobId, Settings};
use crate::board::{Board, Color, Move, Position};
use crate::eval::DISC;
use crate::game::Game;
use crate::search::multipv::{MultiPvIteration, MultiPvRequest, multipv};
use crate::search::{
    Limits, ScoreKind, SearchRequest, SearchResult, TimeLimit, search, search_answering,
};
use crate::tt::TranspositionTable;
use crate::variant::Variant;
use crate::variant::root::{self as variant_root, VariantRequest};
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
    pub(super) game: Game,
    pub(super) settings: Settings,
    pub(super) tt: Arc<TranspositionTable>,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) tx: Sender<Event>,
    /// The fault-injection hook: panic before searching.
    pub(super) panic: bool,
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
    let start = Instant::now();
    if w.panic {
        panic!("injected fault: the fault-injection hook was armed");
    }
    if w.game.variant != Variant::Othello {
        return Some(variant_job(w, start));
    }
    let board = w.game.position().board;
    match w.job {
        Job::Go { time } => go(w, board, Some(time), start, answered),
        Job::Solve => go(w, board, None, start, answered),
        Job::Hint { lines } => Some(hint(w, w.game.position(), lines, start)),
        Job::Analyze => Some(analyze(w, start)),
    }
}

/// A search request for `pos` from the job's settings.
fn request(w: &Work, pos: Position, limits: Limits, time: Option<TimeLimit>) -> SearchRequest {
    SearchRequest {
        limits,
        seed: w.settings.seed,
        threads: w.settings.threads,
        time,
        contempt: contempt_for(&w.settings, pos.side),
        ..SearchRequest::new(pos.board, w.settings.level)
    }
}

/// The settings' contempt (Black's view) for `side`.
fn contempt_for(settings: &Settings, side: Color) -> i32 {
    match side {
        Color::Black => settings.contempt,
        Color::White => -settings.contempt,
    }
}

/// A move choice within the level and `time` (`Some`), or an exact solve
/// (`None`), which also scores a forced pass. The search sends the job's
/// `Finished` itself, as soon as it has its answer (`None` then).
fn go(
    w: &Work,
    board: Board,
    time: Option<Option<TimeLimit>>,
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
    if board.must_pass() && time.is_some() {
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
    let req = match time {
        Some(time) => request(w, w.game.position(), w.settings.limits(), time),
        None => request(w, w.game.position(), Limits::EXACT, None),
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
    search_answering(&req, &w.tt, &w.stop, report, &answer);
    None
}

/// The best `lines` moves at every depth. When the side to move must pass, the
/// opponent's best line is reported behind the pass, its score negated.
fn hint(w: &Work, pos: Position, lines: usize, start: Instant) -> Finished {
    let mut nodes = 0;
    let board = pos.board;
    if !board.is_game_over() {
        let passed = board.moves() == 0;
        let contempt = contempt_for(&w.settings, pos.side);
        let req = MultiPvRequest {
            board: if passed { board.pass() } else { board },
            limits: w.settings.limits(),
            eval: w.settings.level.eval,
            lines: if passed { 1 } else { lines.max(1) },
            threads: w.settings.threads,
            contempt: if passed { -contempt } else { contempt },
        };
        multipv(&req, &w.tt, &w.stop, &mut |it| {
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
fn analyze(w: &Work, start: Instant) -> Finished {
    let mut nodes = 0;
    let mut stopped = false;
    let positions = w.game.positions();
    for (ply, pos) in positions.iter().enumerate().rev() {
        if w.stop.load(Ordering::Relaxed) {
            stopped = true;
            break;
        }
        let (score, kind) = if pos.board.is_game_over() {
            (pos.board.final_score() * DISC, ScoreKind::Exact)
        } else {
            let req = request(w, *pos, w.settings.limits(), None);
            let r = search(&req, &w.tt, &w.stop, &mut |_| {});
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

/// A job under Reversi or Anti-Reversi, through the variant search: the same
/// events as the Othello jobs.
fn variant_job(w: &Work, start: Instant) -> Finished {
    let request = |pos: &crate::variant::VariantPosition, limits: Limits, time| VariantRequest {
        seed: w.settings.seed,
        time,
        ..VariantRequest::new(pos, limits)
    };
    let finished = |result: Option<SearchResult>, nodes, stopped| Finished {
        job: w.id,
        nodes,
        elapsed: start.elapsed(),
        stopped,
        result,
    };
    let pos = w.game.variant_position();
    match w.job {
        Job::Go { .. } | Job::Solve => {
            let (limits, time) = match w.job {
                Job::Go { time } => (w.settings.limits(), time),
                _ => (Limits::EXACT, None),
            };
            let r = variant_root::search(&request(&pos, limits, time), &w.tt, &w.stop, &mut |r| {
                let _ = w.tx.send(Event::Iteration {
                    job: w.id,
                    result: r.clone(),
                });
            });
            let (nodes, stopped) = (r.nodes, r.stopped);
            finished(Some(r), nodes, stopped)
        }
        Job::Hint { lines } => {
            let req = request(&pos, w.settings.limits(), None);
            let mut nodes = 0;
            variant_root::hint(&req, lines, &w.tt, &w.stop, &mut |it| {
                nodes = it.nodes;
                let _ = w.tx.send(Event::Hint {
                    job: w.id,
                    iteration: it.clone(),
                });
            });
            finished(None, nodes, w.stop.load(Ordering::Relaxed))
        }
        Job::Analyze => {
            let (mut nodes, mut stopped) = (0, false);
            for (ply, pos) in w.game.variant_positions().iter().enumerate().rev() {
                let req = request(pos, w.settings.limits(), None);
                let r = variant_root::search(&req, &w.tt, &w.stop, &mut |_| {});
                nodes += r.nodes;
                if r.stopped {
                    stopped = true;
                    break;
                }
                let _ = w.tx.send(Event::Analysis {
                    job: w.id,
                    ply,
                    score: r.score,
                    kind: r.kind,
                });
            }
            finished(None, nodes, stopped)
        }
    }
}
