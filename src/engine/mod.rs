//! The engine facade: one game, its settings, the transposition table and a
//! search thread, behind a small non-blocking API that the protocols drive.
//!
//! - [`Engine::start`] runs a [`Job`] (a move choice, a hint, a retrograde
//!   analysis, an exact solve) on a new search thread and returns at once; a job
//!   works on a snapshot of the game and the settings, so the game may change
//!   while it runs.
//! - The job reports through [`Event`]s on a channel ([`Engine::events`]):
//!   progress, then exactly one [`Event::Finished`] or [`Event::Failed`], always
//!   last. The owner passes every event it receives to [`Engine::observe`], which
//!   marks the engine idle after the last one; only then may another job start.
//! - [`Engine::stop`] raises the shared stop flag: the job ends promptly and still
//!   reports what it has. The engine stays usable after a stop. A move choice or
//!   solve sends its `Finished` as soon as the first of its search threads sees
//!   the stop; a thread that sees it late is waited for when the engine next
//!   needs to be idle, not before the answer.
//! - A panic inside a job is caught on the search thread and reported as
//!   [`Event::Failed`]; the engine and its table stay usable.
//!
//! Changing the table (its size, or clearing it for a new game) needs an idle
//! engine; the other settings apply from the next job on.

pub mod time;

pub use time::{DEFAULT_MOVE_TIME, MoveTime, TimeLeft};
pub(crate) mod wakeup;
mod worker;

pub(crate) use worker::THREAD_NAME;

use crate::board::{IllegalMove, Move};
use crate::book::{Book, BookMove};
use crate::eval::EvalKind;
use crate::rules::Position;
use crate::rules::Variant;
use crate::rules::game::Game;
use crate::search::MultiPvIteration;
use crate::search::{Level, Limits, NodeCounters, ScoreKind, SearchResult, Selectivity};
use crate::tt::{TranspositionTable, TtError};
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// The most search threads accepted.
pub const MAX_THREADS: usize = 1024;

/// The engine's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Playing strength: depth, solve thresholds and evaluation.
    pub level: Level,
    /// Search threads (1..=[`MAX_THREADS`]).
    pub threads: usize,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Seed for the tie-breaks between equal moves.
    pub seed: u64,
    /// Solve exactly at this many empties or fewer, whatever the level says.
    pub exact_empties: Option<u32>,
    /// How a draw is valued, in centi-discs from Black's point of view (NBoard's
    /// `set contempt`). Stored for the search; see PROTOCOL.md.
    pub contempt: i32,
    /// The rules of new games.
    pub variant: Variant,
    /// A time limit for every move choice ([`Job::Go`]), beside the level.
    pub move_time: MoveTime,
    /// The evaluation and selectivity every level keeps (the command line's).
    pub overrides: LevelOverrides,
    /// How far below the best a book move may be and still be played, in
    /// centi-discs (0: only the best, ties drawn by the seed).
    pub book_randomness: u32,
    /// Whether move choices and hints use the engine's book (when it has one).
    pub use_book: bool,
}

/// Choices given on the command line (`--eval`, `--selectivity`) that every
/// level keeps: a level set later (the console's `level N`, NBoard's `set
/// depth`, GTP's level commands) changes the depth and the solve thresholds,
/// not these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelOverrides {
    /// The leaf evaluation, whatever the level says.
    pub eval: Option<EvalKind>,
    /// The midgame search's selectivity, whatever the level says.
    pub selectivity: Option<Selectivity>,
}

impl LevelOverrides {
    /// `level` with these choices applied.
    pub fn apply(self, mut level: Level) -> Level {
        if let Some(eval) = self.eval {
            level.eval = eval;
        }
        if let Some(selectivity) = self.selectivity {
            level.limits.selectivity = selectivity;
        }
        level
    }
}

impl Default for Settings {
    /// Level 21, every logical CPU, 64 MB, seed 0, no override, no contempt,
    /// no time limit per move, the book used (when the engine has one) without
    /// randomness.
    fn default() -> Settings {
        Settings {
            level: Level::default(),
            threads: num_cpus::get().clamp(1, MAX_THREADS),
            hash_mb: 64,
            seed: 0,
            exact_empties: None,
            contempt: 0,
            variant: Variant::Othello,
            move_time: MoveTime::Off,
            overrides: LevelOverrides::default(),
            book_randomness: 0,
            use_book: true,
        }
    }
}

impl Settings {
    /// The level's limits with the exact-empties override applied.
    pub fn limits(&self) -> Limits {
        let mut limits = self.level.limits;
        if let Some(e) = self.exact_empties {
            limits.exact_empties = e;
            limits.wld_empties = limits.wld_empties.max(e);
        }
        limits
    }
}

/// Work for the search thread, on the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// Choose a move (not played), within the level, the time per move and
    /// the game clock, if any ([`time::move_limits`]); in a position of the
    /// book, a book move without a search ([`ScoreKind::Book`]).
    Go {
        /// The side to move's game clock, as the protocol received it.
        clock: Option<TimeLeft>,
    },
    /// Report the best `lines` moves at every depth, within the level; a
    /// position of the book reports its book moves instead
    /// ([`Event::BookHints`]).
    Hint {
        /// How many moves to report (at least 1).
        lines: usize,
    },
    /// Score every position of the game, from the last back to the first.
    Analyze,
    /// Solve the current position exactly, whatever the level, or only prove
    /// its win/loss/draw value.
    Solve {
        /// Prove only win, loss or draw.
        wld: bool,
    },
}

/// A job's number, counted from 1.
pub type JobId = u64;

/// How a job ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The job.
    pub job: JobId,
    /// For [`Job::Go`] and [`Job::Solve`]: the result (`best` is `None` when the
    /// game is over, `Some(Move::Pass)` when the side to move must pass).
    pub result: Option<SearchResult>,
    /// Nodes searched by the whole job.
    pub nodes: u64,
    /// Wall time of the whole job.
    pub elapsed: Duration,
    /// Whether a stop cut the job short.
    pub stopped: bool,
}

/// What a job reports. Every job ends with exactly one `Finished` or `Failed`,
/// after all its other events.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A completed iteration of a [`Job::Go`] or [`Job::Solve`].
    Iteration {
        /// The job.
        job: JobId,
        /// What the search knows now.
        result: SearchResult,
    },
    /// A completed depth of a [`Job::Hint`]: the best moves, best first.
    Hint {
        /// The job.
        job: JobId,
        /// The lines of this depth.
        iteration: MultiPvIteration,
    },
    /// A [`Job::Hint`] in a position of the book: its moves, best first
    /// (squares as on the board), and no search.
    BookHints {
        /// The job.
        job: JobId,
        /// The book's moves.
        moves: Vec<BookMove>,
    },
    /// One position of a [`Job::Analyze`].
    Analysis {
        /// The job.
        job: JobId,
        /// Moves played before the position (passes count).
        ply: usize,
        /// Centi-discs for the side to move there.
        score: i32,
        /// How the score was obtained.
        kind: ScoreKind,
    },
    /// The job ended normally (possibly stopped).
    Finished(Finished),
    /// The job panicked; the message says where. The engine stays usable.
    Failed {
        /// The job.
        job: JobId,
        /// The panic's message.
        message: String,
    },
}

impl Event {
    /// The job the event belongs to.
    pub fn job(&self) -> JobId {
        match self {
            Event::Iteration { job, .. }
            | Event::Hint { job, .. }
            | Event::BookHints { job, .. }
            | Event::Analysis { job, .. }
            | Event::Failed { job, .. } => *job,
            Event::Finished(f) => f.job,
        }
    }

    /// Whether this is the job's last event.
    pub fn is_last(&self) -> bool {
        matches!(self, Event::Finished(_) | Event::Failed { .. })
    }
}

/// Why the engine refused a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A job is running; the request needs an idle engine.
    Busy,
    /// The table could not be made or resized (the old one is kept).
    Hash(TtError),
    /// A thread count of 0 or above [`MAX_THREADS`].
    BadThreads(usize),
    /// An exact-empties override above 60.
    BadExactEmpties(u32),
    /// The search thread could not be started.
    Spawn(String),
    /// A position that cannot occur in historical Reversi (discs off the centre
    /// before the fourth move, or the centre not filled after it).
    NotInVariant,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Busy => f.write_str("the engine is busy searching"),
            EngineError::Hash(e) => e.fmt(f),
            EngineError::BadThreads(n) => {
                write!(f, "{n} is not a thread count (1..{MAX_THREADS})")
            }
            EngineError::BadExactEmpties(n) => {
                write!(f, "{n} is not a number of empties (0..60)")
            }
            EngineError::Spawn(e) => write!(f, "cannot start the search thread: {e}"),
            EngineError::NotInVariant => f.write_str(
                "not a position of historical reversi (the centre fills first, \
                 the discs left add up to the empties, 32 at most each; \
                 only reversi counts discs left)",
            ),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<TtError> for EngineError {
    fn from(e: TtError) -> EngineError {
        EngineError::Hash(e)
    }
}

/// The running job.
struct Running {
    id: JobId,
    handle: JoinHandle<()>,
}

/// The engine: game, settings, table, stop flag and search thread.
pub struct Engine {
    settings: Settings,
    game: Game,
    tt: Arc<TranspositionTable>,
    stop: Arc<AtomicBool>,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    running: Option<Running>,
    /// The thread of a job whose last event has been observed, which may still
    /// be unwinding its search (a search answers a stop before all its threads
    /// have ended): joined before anything that needs an idle engine.
    retiring: Option<JoinHandle<()>>,
    last_job: JobId,
    inject_panic: bool,
    /// Where the running (or last) job's search threads count their nodes live.
    nodes: Arc<NodeCounters>,
    /// The opening book, if one is in use.
    book: Option<Arc<Book>>,
}

impl Engine {
    /// An idle engine at the start position, with a table of
    /// `settings.hash_mb` MB; errors on a bad thread count or table size.
    pub fn new(mut settings: Settings) -> Result<Engine, EngineError> {
        check_threads(settings.threads)?;
        settings.level = settings.overrides.apply(settings.level);
        if let Some(e) = settings.exact_empties {
            check_exact_empties(e)?;
        }
        let (tx, rx) = unbounded();
        Ok(Engine {
            settings,
            game: Game::new(settings.variant.start()),
            tt: Arc::new(TranspositionTable::new(settings.hash_mb)?),
            stop: Arc::new(AtomicBool::new(false)),
            tx,
            rx,
            running: None,
            retiring: None,
            last_job: 0,
            inject_panic: false,
            nodes: Arc::default(),
            book: None,
        })
    }

    /// A fault-injection hook for tests of the panic policy: the next job
    /// panics inside its search thread.
    pub fn inject_panic(&mut self) {
        self.inject_panic = true;
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position, with its rules and discs left.
    pub fn position(&self) -> Position {
        self.game.position()
    }

    /// Replaces the game, keeping the table (for a game that goes on).
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
    }

    /// Starts a new game from `start` (under its rules) and clears the table.
    /// [`Position::under`] makes a set-up position one of the settings'
    /// variant, and `variant.start()` its own start.
    pub fn new_game(&mut self, start: Position) -> Result<(), EngineError> {
        self.idle()?;
        self.game = Game::new(start);
        self.tt.clear();
        Ok(())
    }

    /// Sets the rules and starts a new game from the variant's start.
    pub fn set_variant(&mut self, variant: Variant) -> Result<(), EngineError> {
        self.idle()?;
        self.settings.variant = variant;
        self.new_game(variant.start())
    }

    /// The static evaluation of the current position, in centi-discs for the
    /// side to move, without a search: the final score ([`ScoreKind::Exact`])
    /// when the game is over, else the level's leaf evaluation under the game's
    /// rules ([`ScoreKind::Midgame`] 0).
    pub fn evaluate(&self) -> (i32, ScoreKind) {
        worker::evaluate(&self.game, &self.settings)
    }

    /// Plays `mv` in the game, if legal.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.game.play(mv)
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        self.game.undo()
    }

    /// Sets the level (from the next job on), keeping the settings'
    /// [`LevelOverrides`]; an explicit level ends the default time per move
    /// ([`MoveTime::Default`]).
    pub fn set_level(&mut self, level: Level) {
        self.settings.level = self.settings.overrides.apply(level);
        if let MoveTime::Default(_) = self.settings.move_time {
            self.settings.move_time = MoveTime::Off;
        }
    }

    /// Sets the time limit per move.
    pub fn set_move_time(&mut self, move_time: MoveTime) {
        self.settings.move_time = move_time;
    }

    /// Sets the number of search threads (1..=[`MAX_THREADS`]).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), EngineError> {
        check_threads(threads)?;
        self.settings.threads = threads;
        Ok(())
    }

    /// Replaces the table by an empty one of `mb` MB; needs an idle engine. On
    /// error the old table is kept.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), EngineError> {
        self.idle()?;
        let Some(tt) = Arc::get_mut(&mut self.tt) else {
            return Err(EngineError::Busy);
        };
        tt.resize(mb)?;
        self.settings.hash_mb = mb;
        Ok(())
    }

    /// Uses `book` for move choices and hints from the next job on (`None`:
    /// no book). A book of other rules than the game's is not used.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The opening book in use, if any.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// Sets how far below the best (centi-discs) a book move may be played.
    pub fn set_book_randomness(&mut self, centi_discs: u32) {
        self.settings.book_randomness = centi_discs;
    }

    /// Turns the use of the book on or off (the book stays loaded).
    pub fn set_use_book(&mut self, on: bool) {
        self.settings.use_book = on;
    }

    /// Sets the tie-break seed.
    pub fn set_seed(&mut self, seed: u64) {
        self.settings.seed = seed;
    }

    /// Sets or clears the exact-empties override (0..=60).
    pub fn set_exact_empties(&mut self, empties: Option<u32>) -> Result<(), EngineError> {
        if let Some(e) = empties {
            check_exact_empties(e)?;
        }
        self.settings.exact_empties = empties;
        Ok(())
    }

    /// Sets the contempt (centi-discs, from Black's point of view).
    pub fn set_contempt(&mut self, contempt: i32) {
        self.settings.contempt = contempt;
    }

    /// The channel every job reports on.
    pub fn events(&self) -> Receiver<Event> {
        self.rx.clone()
    }

    /// The shared stop flag (raised by [`Engine::stop`]; a reader thread may
    /// raise it directly).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Whether a job has started and its last event has not been observed.
    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// The running job, if any.
    pub fn running_job(&self) -> Option<JobId> {
        self.running.as_ref().map(|r| r.id)
    }

    /// Starts `job` on the current position and returns at once.
    pub fn start(&mut self, job: Job) -> Result<JobId, EngineError> {
        self.idle()?;
        self.last_job += 1;
        let id = self.last_job;
        self.stop.store(false, Ordering::SeqCst);
        self.nodes.reset();
        let time = match job {
            Job::Go { clock } => {
                let empties = self.game.position().board.empties();
                time::move_limits(clock, self.settings.move_time, empties)
            }
            _ => None,
        };
        let work = worker::Work {
            id,
            job,
            time,
            game: self.game.clone(),
            settings: self.settings,
            tt: Arc::clone(&self.tt),
            stop: Arc::clone(&self.stop),
            nodes: Arc::clone(&self.nodes),
            tx: self.tx.clone(),
            panic: std::mem::take(&mut self.inject_panic),
            book: self.book.clone().filter(|_| self.settings.use_book),
        };
        let handle = std::thread::Builder::new()
            .name(worker::THREAD_NAME.to_string())
            .spawn(move || worker::run(work))
            .map_err(|e| EngineError::Spawn(e.to_string()))?;
        self.running = Some(Running { id, handle });
        Ok(id)
    }

    /// About how many nodes the running (or last) job has searched so far,
    /// counted live in steps of a few thousand: for progress reports only.
    pub fn live_nodes(&self) -> u64 {
        self.nodes.total()
    }

    /// Asks the running job, if any, to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Must see every event taken from [`Engine::events`]: after the running
    /// job's last event the engine is idle again.
    pub fn observe(&mut self, event: &Event) {
        if !event.is_last() {
            return;
        }
        if let Some(r) = self.running.take_if(|r| r.id == event.job()) {
            // The thread sent its last event, and may still be unwinding the
            // search for a few milliseconds: it is joined when the engine next
            // needs to be idle, not now, so that its owner can answer at once.
            self.retiring = Some(r.handle);
        }
    }

    /// Blocks until the running job ends and returns its events, last one
    /// last (empty when idle). For callers that need no progress.
    pub fn wait(&mut self) -> Vec<Event> {
        self.wait_each(&mut |_| {})
    }

    /// [`wait`](Self::wait), handing each event to `each` as it comes (a
    /// tool's progress lines).
    pub fn wait_each(&mut self, each: &mut dyn FnMut(&Event)) -> Vec<Event> {
        let mut out = Vec::new();
        while self.is_busy() {
            let Ok(ev) = self.rx.recv() else { break };
            self.observe(&ev);
            each(&ev);
            out.push(ev);
        }
        out
    }

    /// `Err(Busy)` while a job runs; otherwise waits for the last job's thread
    /// to end, after which no thread but this one holds the table.
    fn idle(&mut self) -> Result<(), EngineError> {
        if self.is_busy() {
            return Err(EngineError::Busy);
        }
        if let Some(h) = self.retiring.take() {
            let _ = h.join();
        }
        Ok(())
    }
}

impl Drop for Engine {
    /// Stops the running job; the thread is left to end on its own.
    fn drop(&mut self) {
        self.stop();
    }
}

fn check_threads(n: usize) -> Result<(), EngineError> {
    if (1..=MAX_THREADS).contains(&n) {
        Ok(())
    } else {
        Err(EngineError::BadThreads(n))
    }
}

fn check_exact_empties(n: u32) -> Result<(), EngineError> {
    if n <= 60 {
        Ok(())
    } else {
        Err(EngineError::BadExactEmpties(n))
    }
}

#[cfg(test)]
mod tests;
