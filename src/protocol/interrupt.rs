//! Ctrl-C (SIGINT) in the engine loop, as in Edax: the first stops the running
//! search (its answer is still given and the game is kept), a second one
//! before the next input line quits. On other systems than Linux, Ctrl-C keeps
//! its default meaning.
//!
//! A signal handler can reach nothing but statics, so this module holds the
//! crate's only mutable globals: the stop flag to raise and the Ctrl-C count.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, Ordering};

/// Ctrl-Cs since the last input line.
static PRESSES: AtomicU32 = AtomicU32::new(0);

/// The engine's stop flag, kept alive by [`install`] for the whole process.
static STOP: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());

/// Ctrl-Cs after which the process ends.
const PRESSES_TO_QUIT: u32 = 2;

/// Exit status after a second Ctrl-C, as a shell reports death by SIGINT.
#[cfg(target_os = "linux")]
const QUIT_STATUS: i32 = 130;

/// Routes SIGINT to `stop` from now on (the flag is kept alive for good).
pub(crate) fn install(stop: Arc<AtomicBool>) {
    let ptr = Arc::into_raw(stop) as *mut AtomicBool;
    STOP.store(ptr, Ordering::SeqCst);
    #[cfg(target_os = "linux")]
    // SAFETY: `on_sigint` only does async-signal-safe work (atomics, write(2),
    // _exit(2)); the handler's address stays valid for the whole process.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}

/// Whether Ctrl-C was pressed since the last input line.
pub(crate) fn pressed() -> bool {
    PRESSES.load(Ordering::SeqCst) > 0
}

/// An input line arrived: the next Ctrl-C is a first one again.
pub(crate) fn reset() {
    PRESSES.store(0, Ordering::SeqCst);
}

#[cfg(target_os = "linux")]
extern "C" fn on_sigint(_: libc::c_int) {
    let presses = PRESSES.fetch_add(1, Ordering::SeqCst) + 1;
    let say = |text: &[u8]| {
        // SAFETY: write(2) on stderr with a valid buffer is async-signal-safe.
        unsafe { libc::write(2, text.as_ptr().cast(), text.len()) };
    };
    if presses >= PRESSES_TO_QUIT {
        say(b"\nmollett: quit (Ctrl-C twice)\n");
        // SAFETY: _exit(2) is async-signal-safe and ends the process at once.
        unsafe { libc::_exit(QUIT_STATUS) };
    }
    let stop = STOP.load(Ordering::SeqCst);
    if !stop.is_null() {
        // SAFETY: `install` leaked the Arc, so the flag lives as long as the process.
        unsafe { (*stop).store(true, Ordering::SeqCst) };
    }
    say(b"\nmollett: stopped (Ctrl-C again to quit)\n");
}
