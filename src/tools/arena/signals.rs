//! SIGINT and SIGTERM for the match runner: [`interrupts`] turns them into
//! messages on a channel, so that the runner can print the report of the games
//! so far before it exits.
//!
//! The handler only writes the signal's number into a pipe (`write` is
//! async-signal-safe) and is installed with `SA_RESETHAND`, so a second signal
//! ends the process at once, as if no handler were there. A thread reads the
//! pipe and forwards each number. Elsewhere than on Linux no handler is
//! installed and the channel never delivers.

use crossbeam_channel::Receiver;

/// A channel that receives the number of each SIGINT or SIGTERM from now on
/// (on Linux); its sender lives as long as the process. Call it once.
pub fn interrupts() -> Receiver<i32> {
    #[cfg(target_os = "linux")]
    {
        if let Some(rx) = linux::install() {
            return rx;
        }
    }
    let (tx, rx) = crossbeam_channel::bounded(1);
    // Kept for ever, so that the channel is never disconnected.
    std::mem::forget(tx);
    rx
}

#[cfg(target_os = "linux")]
mod linux {
    use crossbeam_channel::Receiver;
    use std::sync::atomic::{AtomicI32, Ordering};

    /// The pipe's write end, for the handler. A signal handler can reach
    /// nothing but a global: this one is set once, before the handler is
    /// installed, and only read afterwards.
    static PIPE_WRITE: AtomicI32 = AtomicI32::new(-1);

    extern "C" fn on_signal(sig: libc::c_int) {
        let byte = sig as u8;
        // SAFETY: `__errno_location` returns this thread's errno; saving and
        // restoring it keeps the interrupted code's errno intact. `write` is
        // async-signal-safe and `byte` outlives the call.
        unsafe {
            let errno = *libc::__errno_location();
            libc::write(
                PIPE_WRITE.load(Ordering::Relaxed),
                (&byte as *const u8).cast(),
                1,
            );
            *libc::__errno_location() = errno;
        }
    }

    /// Makes the pipe, starts its reader and installs the handler; `None` if
    /// any step fails (then nothing is installed).
    pub(super) fn install() -> Option<Receiver<i32>> {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: `fds` has room for the two descriptors `pipe2` writes.
        // O_CLOEXEC keeps the pipe out of the entrants' processes.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return None;
        }
        let [read_end, write_end] = fds;
        PIPE_WRITE.store(write_end, Ordering::Relaxed);
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::Builder::new()
            .name("match-signals".into())
            .spawn(move || {
                let mut byte = 0u8;
                loop {
                    // SAFETY: reads one byte into `byte`, which is valid for
                    // the call; `read_end` stays open for the process's life.
                    let n = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
                    if n == 1 {
                        let _ = tx.send(i32::from(byte));
                    } else if n == 0
                        || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
                    {
                        return;
                    }
                }
            })
            .ok()?;
        for sig in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: a zeroed `sigaction` is a valid empty one; the handler
            // is an `extern "C" fn(c_int)`, as `sa_sigaction` without
            // SA_SIGINFO expects, and the old action is not asked for.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                action.sa_flags = libc::SA_RESTART | libc::SA_RESETHAND;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(sig, &action, std::ptr::null_mut());
            }
        }
        Some(rx)
    }
}
