//! The engine loop: three dialects (console, NBoard, GTP) over stdin and stdout.
//!
//! Threads and order:
//! - A reader thread reads stdin line by line (invalid UTF-8 replaced, CR
//!   dropped, lines over [`MAX_LINE`] bytes cut and answered with an error). It
//!   decides each line's dialect ([`Selector`]) and, for an interrupting line,
//!   raises the engine's stop flag *before* forwarding it, so a search stops
//!   within milliseconds whatever the protocol thread is doing.
//! - The protocol thread (the caller of [`run`]) waits on input lines and engine
//!   events at once. It alone writes stdout, one whole line at a time, flushed.
//!   While a job runs, input is queued in order and run once the job's last
//!   event is out: so every line of an earlier request precedes the answer to a
//!   later one (NBoard's `pong` comes after the aborted search's last line).
//!   The queue is bounded ([`MAX_QUEUED`] bytes): a line past the bound is
//!   refused and answered in its turn with the dialect's error.
//! - Interrupting lines: NBoard `ping`, `stop`, `quit`; GTP `quit` (GTP is
//!   synchronous, so other commands wait); console `stop`, and `quit` when stdin
//!   is a terminal. End of input interrupts in NBoard and GTP and ends the
//!   process at once, and so it does in the console at a terminal (Ctrl-D); in a
//!   console fed by a pipe a running command finishes first, so a script gets
//!   all its answers.
//! - A closed stdout ends the loop quietly.

pub mod book_setting;
pub mod console;
pub mod gtp;
mod interrupt;
mod lines;
pub mod nboard;
mod script;
mod select;
mod text;

use lines::{Backlog, INPUT_CHANNEL, Input, Refusal, is_quit, read_input};
pub use lines::{MAX_LINE, MAX_QUEUED};
pub use script::{ScriptOptions, ScriptRun, run_bytes};
pub use select::Selector;

use crate::engine::{Engine, EngineError, Event, Settings};
use crossbeam_channel::{Receiver, bounded, select};
use std::fmt;
use std::io::{IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;

/// A protocol dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Commands for people and scripts (the default).
    Console,
    /// NBoard protocol version 2.
    NBoard,
    /// The Go Text Protocol, version 2.
    Gtp,
}

impl FromStr for Dialect {
    type Err = String;

    fn from_str(s: &str) -> Result<Dialect, String> {
        match s.to_ascii_lowercase().as_str() {
            "console" => Ok(Dialect::Console),
            "nboard" => Ok(Dialect::NBoard),
            "gtp" => Ok(Dialect::Gtp),
            _ => Err(format!("'{s}' is not a protocol (console, nboard or gtp)")),
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Console => "console",
            Dialect::NBoard => "nboard",
            Dialect::Gtp => "gtp",
        })
    }
}

/// The console's prompt at a terminal, written when the engine waits for a
/// command (as Edax's `>`).
const CONSOLE_PROMPT: &str = "> ";

/// The single writer: whole lines, control characters escaped, flushed at once.
/// After a write error (a closed pipe) it writes nothing more.
pub(crate) struct Output {
    w: Box<dyn Write + Send>,
    broken: bool,
}

impl Output {
    /// A writer over `w`.
    pub(crate) fn new(w: Box<dyn Write + Send>) -> Output {
        Output { w, broken: false }
    }

    /// Writes `text` (which may hold several lines) and a newline, then flushes.
    pub(crate) fn line(&mut self, text: &str) {
        self.write(text, "\n");
    }

    /// Writes `text` as given (GTP blocks end with their own blank line).
    pub(crate) fn block(&mut self, text: &str) {
        self.write(text, "");
    }

    fn write(&mut self, text: &str, end: &str) {
        if self.broken {
            return;
        }
        let mut s = String::with_capacity(text.len() + 1);
        for (i, part) in text.split('\n').enumerate() {
            if i > 0 {
                s.push('\n');
            }
            sanitize_into(part, &mut s);
        }
        s.push_str(end);
        if self
            .w
            .write_all(s.as_bytes())
            .and_then(|()| self.w.flush())
            .is_err()
        {
            self.broken = true;
        }
    }

    /// Whether a write failed (the reader of stdout is gone).
    pub(crate) fn is_broken(&self) -> bool {
        self.broken
    }
}

/// Appends `part` with every control character but tab escaped, so that no
/// output line can be split (NBoard's reader breaks lines at CR too).
fn sanitize_into(part: &str, s: &mut String) {
    for c in part.chars() {
        if c.is_control() && c != '\t' {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
}

/// What a handler needs: the engine, the writer, and how the session runs.
pub(crate) struct Ctx<'a> {
    pub(crate) engine: &'a mut Engine,
    pub(crate) out: &'a mut Output,
    pub(crate) terminal: bool,
    /// Whether to print progress lines (at a terminal, or asked with `--verbose`).
    pub(crate) progress: bool,
    /// Whether an interrupting line (a stop) waits in the queue.
    pub(crate) stop_queued: bool,
}

impl<'a> Ctx<'a> {
    /// The context of one call into a handler.
    fn new(
        engine: &'a mut Engine,
        out: &'a mut Output,
        session: Session,
        stop_queued: bool,
    ) -> Ctx<'a> {
        Ctx {
            engine,
            out,
            terminal: session.terminal,
            progress: session.terminal || session.verbose,
            stop_queued,
        }
    }
}

/// How the loop runs: whether a person types at a terminal, whether progress
/// lines are asked for through a pipe, and (for tests) whether the end of
/// input waits for the running job in every dialect.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Session {
    pub(crate) terminal: bool,
    pub(crate) verbose: bool,
    pub(crate) eof_waits: bool,
}

/// Whether the loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Quit,
}

/// One dialect's command handling.
pub(crate) trait Handler {
    /// Runs one input line (the engine is idle).
    fn line(&mut self, line: &str, cx: &mut Ctx) -> Flow;
    /// Reports one event of a job this handler started.
    fn event(&mut self, event: &Event, cx: &mut Ctx) -> Flow;
    /// Answers a line that was refused unread (too long, or over the queue's
    /// bound) or a command or event that failed unexpectedly (`what` says
    /// which); `line` is the line at fault (its start, for a refused line), or
    /// `None` when an event failed.
    fn error(&mut self, line: Option<&str>, what: &str, cx: &mut Ctx);
    /// Called every [`PROGRESS_TICK`] while a job runs (progress reports).
    fn tick(&mut self, _cx: &mut Ctx) {}
}

/// How often a running job's handler is asked for progress reports.
const PROGRESS_TICK: std::time::Duration = std::time::Duration::from_millis(250);

/// The three handlers; their state persists across switches.
struct Handlers {
    console: console::Console,
    nboard: nboard::NBoard,
    gtp: gtp::Gtp,
}

impl Handlers {
    fn get(&mut self, d: Dialect) -> &mut dyn Handler {
        match d {
            Dialect::Console => &mut self.console,
            Dialect::NBoard => &mut self.nboard,
            Dialect::Gtp => &mut self.gtp,
        }
    }
}

/// How to run the loop.
#[derive(Clone, Debug)]
pub struct LoopOptions {
    /// A dialect forced for the whole session (`--protocol`).
    pub protocol: Option<Dialect>,
    /// The engine's settings from the command line.
    pub settings: Settings,
    /// Arm the fault-injection hook: the first search panics (for tests).
    pub inject_panic: bool,
    /// Console progress lines through a pipe too (`--verbose`).
    pub verbose: bool,
    /// The opening book (`--book`), if any.
    pub book: Option<std::sync::Arc<crate::book::Book>>,
}

/// Runs the loop on stdin and stdout until `quit`, the end of input or a closed
/// stdout. Errors only when the engine cannot be made (e.g. the table size).
pub fn run(options: LoopOptions) -> Result<(), EngineError> {
    let mut engine = Engine::new(options.settings)?;
    engine.set_book(options.book);
    if options.inject_panic {
        engine.inject_panic();
    }
    let stdin = std::io::stdin();
    let terminal = stdin.is_terminal();
    let (tx, rx) = bounded(INPUT_CHANNEL);
    let stop = engine.stop_flag();
    let selector = Selector::new(options.protocol).announcing();
    std::thread::Builder::new()
        .name("mollett-stdin".to_string())
        .spawn(move || {
            crate::engine::wakeup::prefer_quick_wakeups();
            read_input(stdin.lock(), &tx, &stop, selector, terminal)
        })
        .map_err(|e| EngineError::Spawn(e.to_string()))?;
    interrupt::install(engine.stop_flag());
    install_panic_hook();
    crate::engine::wakeup::prefer_quick_wakeups();
    let out = Output::new(Box::new(std::io::stdout()));
    let session = Session {
        terminal,
        verbose: options.verbose,
        eof_waits: false,
    };
    run_loop(&mut engine, &rx, out, session);
    Ok(())
}

/// Panics in the loop are caught (on the search thread by the engine, on this
/// thread by [`guarded`]) and reported in the dialect's error form, so the
/// default hook's message is kept off stderr, which NBoard merges into its
/// input. Panics on other threads (the reader) still use the default hook.
fn install_panic_hook() {
    let default = std::panic::take_hook();
    let main = std::thread::current().id();
    std::panic::set_hook(Box::new(move |info| {
        let current = std::thread::current();
        let caught = current.id() == main || current.name() == Some(crate::engine::THREAD_NAME);
        if !caught {
            default(info);
        }
    }));
}

/// Runs `f` on `handler`; a panic (a bug) becomes an error reply in the
/// dialect's form and the loop goes on.
fn guarded(
    handler: &mut dyn Handler,
    cx: &mut Ctx,
    line: Option<&str>,
    f: impl FnOnce(&mut dyn Handler, &mut Ctx) -> Flow,
) -> Flow {
    match catch_unwind(AssertUnwindSafe(|| f(&mut *handler, &mut *cx))) {
        Ok(flow) => flow,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            handler.error(line, &format!("internal error: {msg}"), cx);
            Flow::Continue
        }
    }
}

/// The protocol thread's loop (see the module documentation). With
/// `session.eof_waits` (for tests) the end of input waits for the running job
/// in every dialect, as it does in the console.
pub(crate) fn run_loop(
    engine: &mut Engine,
    input: &Receiver<Input>,
    mut out: Output,
    session: Session,
) {
    let Session {
        terminal,
        eof_waits,
        ..
    } = session;
    let events = engine.events();
    let mut handlers = Handlers {
        console: console::Console::default(),
        nboard: nboard::NBoard::default(),
        gtp: gtp::Gtp::default(),
    };
    let mut current = Dialect::Console;
    let mut pending = Backlog::default();
    let never = crossbeam_channel::never();
    let ticker = crossbeam_channel::tick(PROGRESS_TICK);
    let never_tick = crossbeam_channel::never();
    let mut input_open = true;
    // Whether the console's prompt ends the output: a person at a terminal
    // gets one whenever the engine waits for a command.
    let mut prompted = false;
    if terminal {
        let version = env!("CARGO_PKG_VERSION");
        out.line(&format!("Mollett {version}: type help for the commands"));
        out.line(&console::diagram(engine.game()).join("\n"));
    }
    loop {
        while !engine.is_busy() && !out.is_broken() {
            let Some(item) = pending.pop() else {
                break;
            };
            let mut cx = Ctx::new(&mut *engine, &mut out, session, false);
            if process(item, &mut handlers, &mut current, &mut cx) == Flow::Quit {
                return;
            }
        }
        if out.is_broken() {
            engine.stop();
            return;
        }
        if terminal && !prompted && input_open && current == Dialect::Console && !engine.is_busy() {
            out.block(CONSOLE_PROMPT);
            prompted = true;
        }
        let source = if input_open && pending.bytes < 2 * MAX_QUEUED {
            input
        } else {
            &never
        };
        let ticks = if engine.is_busy() {
            &ticker
        } else {
            &never_tick
        };
        select! {
            recv(ticks) -> _ => {
                let mut cx = Ctx::new(&mut *engine, &mut out, session, false);
                handlers.get(current).tick(&mut cx);
            }
            recv(source) -> msg => {
                // The line typed after the prompt ended it.
                prompted = false;
                let item = msg.unwrap_or(Input::Eof(current));
                if let Input::Eof(dialect) = item {
                    input_open = false;
                    // At once, unless a queued quit ends things anyway (its search
                    // is already stopped): then every answer before it is given.
                    let quitting = pending.items.iter().any(is_quit);
                    let at_once = dialect != Dialect::Console || terminal;
                    if at_once && !eof_waits && !quitting {
                        engine.stop();
                        return;
                    }
                }
                if engine.is_busy() || !pending.items.is_empty() {
                    if matches!(&item, Input::Line(l) if l.interrupt) {
                        engine.stop();
                    }
                    pending.push(item);
                } else {
                    let mut cx = Ctx::new(&mut *engine, &mut out, session, false);
                    if process(item, &mut handlers, &mut current, &mut cx) == Flow::Quit {
                        return;
                    }
                }
            }
            recv(events) -> ev => {
                let Ok(ev) = ev else { continue };
                engine.observe(&ev);
                let stop_queued = pending
                    .items
                    .iter()
                    .any(|i| matches!(i, Input::Line(l) if l.interrupt));
                let mut cx = Ctx::new(&mut *engine, &mut out, session, stop_queued);
                let flow = guarded(handlers.get(current), &mut cx, None, |h, cx| h.event(&ev, cx));
                if flow == Flow::Quit {
                    return;
                }
            }
        }
    }
}

/// Runs one input item with the handler of its dialect. A panic in a handler
/// (a bug) is reported as an error in the dialect's form; the loop goes on.
fn process(item: Input, handlers: &mut Handlers, current: &mut Dialect, cx: &mut Ctx) -> Flow {
    let line = match item {
        Input::Eof(_) => return Flow::Quit,
        Input::Line(line) => line,
    };
    *current = line.dialect;
    interrupt::reset();
    let handler = handlers.get(line.dialect);
    if let Some(why) = line.refused {
        let what = match why {
            Refusal::TooLong => format!("line too long (over {MAX_LINE} bytes), ignored"),
            Refusal::QueueFull => format!(
                "busy: over {} MiB of input queued during a search, line ignored",
                MAX_QUEUED >> 20
            ),
        };
        handler.error(Some(&line.text), &what, cx);
        return Flow::Continue;
    }
    guarded(handler, cx, Some(&line.text), |h, cx| {
        h.line(&line.text, cx)
    })
}

/// For tests: runs the loop over `input` (a whole script) and returns what it
/// wrote, without threads for reading.
#[cfg(test)]
pub(crate) fn run_script(settings: Settings, forced: Option<Dialect>, input: &str) -> String {
    let options = ScriptOptions {
        settings,
        forced,
        stop_every: None,
        book: None,
    };
    let run = run_bytes(options, input.as_bytes()).expect("engine");
    String::from_utf8_lossy(&run.output).into_owned()
}

#[cfg(test)]
mod tests;
