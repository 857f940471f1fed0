//! Quick wake-ups for the protocol's threads.
//!
//! By default the search uses every logical CPU, so when a line arrives (a
//! `stop`, a `ping`) or a search answers, the protocol thread that must run next
//! finds every CPU busy with a search thread. Linux's scheduler (EEVDF, since
//! 6.6) then lets the running search thread finish its time slice before the
//! woken thread runs: traced on this project's 2-core test machine, the stdin
//! reader waited 4 ms (a whole scheduler tick) behind a search thread before it
//! could raise the stop flag. Since Linux 6.12 a thread may ask for a shorter
//! slice (`sched_setattr`, `sched_runtime` under the normal policy), and a
//! thread with a shorter slice than the running one preempts it on waking. The
//! protocol's threads ask for the shortest slice; they sleep nearly all the time,
//! so this takes no CPU from the search. Elsewhere (other systems, older
//! kernels, a refusal) nothing changes.

/// The slice the protocol's threads ask for: the shortest Linux accepts.
#[cfg(target_os = "linux")]
const SLICE_NS: u64 = 100_000;

/// Asks the kernel to let the calling thread preempt a busy CPU as soon as it
/// wakes (see the module documentation); does nothing where it cannot.
pub(crate) fn prefer_quick_wakeups() {
    #[cfg(target_os = "linux")]
    linux::set_slice(SLICE_NS);
}

/// Gives the calling thread the kernel's default slice again. Threads inherit
/// their creator's slice: the search threads, started from the protocol thread,
/// take the default back, so that the protocol's threads keep the shorter one.
pub(crate) fn default_slice() {
    // A slice of 0 asks for the kernel's default.
    #[cfg(target_os = "linux")]
    linux::set_slice(0);
}

#[cfg(target_os = "linux")]
mod linux {
    /// The first version (48 bytes) of the kernel's `struct sched_attr`
    /// (`include/uapi/linux/sched/types.h`).
    #[repr(C)]
    struct SchedAttr {
        size: u32,
        policy: u32,
        flags: u64,
        nice: i32,
        priority: u32,
        runtime: u64,
        deadline: u64,
        period: u64,
    }

    /// `sched_setattr` keeps the thread's scheduling policy (normal, batch or
    /// idle, as the user may have chosen) instead of setting `policy`.
    const SCHED_FLAG_KEEP_POLICY: u64 = 0x08;

    /// Sets the calling thread's slice to `slice_ns` (0: the default), keeping
    /// its policy and nice value; a refusal (a real-time policy) is ignored.
    pub(super) fn set_slice(slice_ns: u64) {
        // SAFETY: getpriority reads the calling thread's nice value (`who` 0
        // is the caller) and touches no memory of ours.
        let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let attr = SchedAttr {
            size: std::mem::size_of::<SchedAttr>() as u32,
            policy: libc::SCHED_OTHER as u32,
            flags: SCHED_FLAG_KEEP_POLICY,
            nice,
            priority: 0,
            runtime: slice_ns,
            deadline: 0,
            period: 0,
        };
        // SAFETY: `attr` is a valid, initialised `sched_attr` of the size it
        // states, alive for the whole call; the kernel only reads it. Pid 0 is
        // the calling thread; the last argument (flags of the call) must be 0.
        unsafe {
            libc::syscall(libc::SYS_sched_setattr, 0, &attr as *const SchedAttr, 0);
        }
    }

    #[cfg(test)]
    mod tests {
        use super::super::{SLICE_NS, default_slice, prefer_quick_wakeups};

        /// The calling thread's slice in ns, from the kernel's `sched_getattr`:
        /// 0 where the kernel has no per-thread slice (before Linux 6.12).
        fn slice_now() -> u64 {
            // size and policy, flags, nice and priority, runtime, deadline,
            // period, the two utilisation clamps: 56 bytes.
            let mut attr = [0u64; 7];
            // SAFETY: the buffer is 56 bytes, as the size argument says, and
            // lives for the whole call; pid 0 is the calling thread.
            let r = unsafe { libc::syscall(libc::SYS_sched_getattr, 0, attr.as_mut_ptr(), 56, 0) };
            if r == 0 { attr[3] } else { 0 }
        }

        /// The calling thread's nice value.
        fn nice_now() -> i32 {
            // SAFETY: as in `set_slice`.
            unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) }
        }

        #[test]
        fn a_thread_gets_the_short_slice_where_the_kernel_has_slices() {
            std::thread::spawn(|| {
                let (slice, nice) = (slice_now(), nice_now());
                prefer_quick_wakeups();
                assert_eq!(nice_now(), nice);
                if slice != 0 {
                    assert_eq!(slice_now(), SLICE_NS);
                    // A thread started from here inherits the short slice
                    // until it asks for the default back.
                    std::thread::spawn(move || {
                        assert_eq!(slice_now(), SLICE_NS);
                        default_slice();
                        assert_eq!(slice_now(), slice);
                    })
                    .join()
                    .unwrap();
                }
            })
            .join()
            .unwrap();
        }
    }
}
