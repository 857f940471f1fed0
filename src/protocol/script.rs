//! The loop run in-process over a whole input held in memory: for the
//! property tests and the fuzz targets, which feed it hostile bytes.
//!
//! The input goes through the same reader ([`read_input`]: line cutting,
//! invalid UTF-8, dialect selection, interrupts) and the same loop
//! ([`run_loop`]) as stdin does, with the end of input waiting for the running
//! job so that every line gets its answer.

use super::{Dialect, Output, Selector, read_input, run_loop};
use crate::engine::{Engine, EngineError, Settings};
use crate::rules::game::Game;
use crossbeam_channel::{RecvTimeoutError, bounded, unbounded};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How to run a script.
#[derive(Clone, Debug)]
pub struct ScriptOptions {
    /// The engine's settings at the start.
    pub settings: Settings,
    /// A dialect forced for the whole script, as `--protocol` does.
    pub forced: Option<Dialect>,
    /// If set, a stopper thread raises the stop flag this often, so that no
    /// job outlives about twice this (a fuzzer's input may ask for a level-60
    /// solve; the answers to stopped jobs are what is checked then).
    pub stop_every: Option<Duration>,
    /// The opening book, if any.
    pub book: Option<Arc<crate::book::Book>>,
}

/// A writer into a shared buffer (the loop's output must be `Send + 'static`).
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::ErrorKind::Other)?
            .extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What a script left behind.
#[derive(Clone, Debug)]
pub struct ScriptRun {
    /// Everything the loop wrote.
    pub output: Vec<u8>,
    /// The engine's game at the end.
    pub game: Game,
    /// The engine's settings at the end.
    pub settings: Settings,
}

/// Runs the loop over `input` (any bytes) until a `quit` or its end. Errors
/// only when the engine cannot be made from `options.settings`.
pub fn run_bytes(options: ScriptOptions, input: &[u8]) -> Result<ScriptRun, EngineError> {
    let mut engine = Engine::new(options.settings)?;
    engine.set_book(options.book);
    let (tx, rx) = unbounded();
    let stop = engine.stop_flag();
    read_input(input, &tx, &stop, Selector::new(options.forced), false);
    let (done_tx, done_rx) = bounded::<()>(0);
    let stopper = options.stop_every.map(|every| {
        std::thread::spawn(move || {
            while done_rx.recv_timeout(every) == Err(RecvTimeoutError::Timeout) {
                stop.store(true, Ordering::SeqCst);
            }
        })
    });
    let buf = Arc::new(Mutex::new(Vec::new()));
    let out = Output::new(Box::new(Shared(Arc::clone(&buf))));
    let session = super::Session {
        eof_waits: true,
        ..super::Session::default()
    };
    run_loop(&mut engine, &rx, out, session);
    drop(done_tx);
    if let Some(s) = stopper {
        let _ = s.join();
    }
    let output = buf.lock().map(|b| b.clone()).unwrap_or_default();
    Ok(ScriptRun {
        output,
        game: engine.game().clone(),
        settings: *engine.settings(),
    })
}
