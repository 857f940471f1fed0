//! The table's memory: a slice that the system hands out zeroed and backs with
//! pages only when they are first written, and the machine's memory size.

use std::ops::Deref;
use std::ptr::NonNull;

/// `count` values of `T` in memory that starts zeroed, owned like a `Box<[T]>`.
///
/// On Linux it is an anonymous mapping: the kernel gives it pages of zeros when
/// they are first touched, so making even a very large slice costs nothing until
/// it is written (an allocator would write the zeros itself for an alignment as
/// large as a cache line). Elsewhere it comes from the global allocator, zeroed.
pub struct ZeroedSlice<T> {
    start: NonNull<T>,
    count: usize,
}

// SAFETY: a ZeroedSlice owns its values as a Box<[T]> does; sending or sharing
// it sends or shares them, which T: Send / T: Sync allows.
unsafe impl<T: Send> Send for ZeroedSlice<T> {}
// SAFETY: as above; `&ZeroedSlice` gives only `&T`.
unsafe impl<T: Sync> Sync for ZeroedSlice<T> {}

impl<T> ZeroedSlice<T> {
    /// `count` (at least 1) zeroed values, or `None` when the memory cannot be had;
    /// backed by huge pages where the system allows them when `huge_pages`, and
    /// by pages of the usual size otherwise.
    ///
    /// # Safety
    /// A value of `T` whose bytes are all zero must be a valid `T`.
    pub unsafe fn new(count: usize, huge_pages: bool) -> Option<Self> {
        let layout = std::alloc::Layout::array::<T>(count).ok()?;
        if layout.size() == 0 || layout.align() > PAGE {
            return None;
        }
        let start = NonNull::new(map_zeroed(layout)?.cast::<T>())?;
        advise_huge_pages(start.as_ptr().cast(), layout.size(), huge_pages);
        Some(ZeroedSlice { start, count })
    }
}

impl<T> Deref for ZeroedSlice<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `start` points to `count` values of T, initialised (all-zero
        // values are valid, as `new`'s caller promised), owned by self, and only
        // shared references to them are ever handed out.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.count) }
    }
}

impl<T> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        let layout = std::alloc::Layout::array::<T>(self.count).expect("checked in new");
        // SAFETY: the memory was had from `map_zeroed` with this layout and is
        // released once, here.
        unsafe { unmap(self.start.as_ptr().cast(), layout) };
    }
}

/// The page size the mappings are aligned to (at least; 4 KB on x86-64).
const PAGE: usize = 4096;

/// Zeroed memory of `layout` (alignment at most a page), or `None`.
#[cfg(target_os = "linux")]
fn map_zeroed(layout: std::alloc::Layout) -> Option<*mut u8> {
    // SAFETY: an anonymous private mapping at an address of the kernel's choice
    // touches no existing memory; failure is MAP_FAILED, checked below.
    let start = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            layout.size(),
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    (start != libc::MAP_FAILED).then_some(start.cast())
}

/// Releases memory from [`map_zeroed`].
///
/// # Safety
/// `start` and `layout` must be a block `map_zeroed` returned, not yet released.
#[cfg(target_os = "linux")]
unsafe fn unmap(start: *mut u8, layout: std::alloc::Layout) {
    // SAFETY: the caller passes a live mapping of exactly this size. A failure
    // (impossible for a whole mapping) would only leak it.
    unsafe { libc::munmap(start.cast(), layout.size()) };
}

#[cfg(not(target_os = "linux"))]
fn map_zeroed(layout: std::alloc::Layout) -> Option<*mut u8> {
    // SAFETY: the layout's size is not zero (checked by the caller).
    let start = unsafe { std::alloc::alloc_zeroed(layout) };
    (!start.is_null()).then_some(start)
}

#[cfg(not(target_os = "linux"))]
unsafe fn unmap(start: *mut u8, layout: std::alloc::Layout) {
    // SAFETY: the caller passes a live block of the global allocator of this layout.
    unsafe { std::alloc::dealloc(start, layout) };
}

/// Asks the kernel to back `bytes` at `start`, not yet touched, with huge pages
/// (Linux's transparent huge pages, 2 MB on x86-64) when `huge`, and never to
/// when not (a system set to use them everywhere would otherwise). A probe lands
/// on a random bucket, so with 4 KB pages nearly every probe of a large table
/// also misses the TLB; with 2 MB pages a 64 MB table needs 32 TLB entries
/// instead of 16,384. The exact solver ran 5% faster with it on FFO 41–43 here
/// (median of five runs, 9.58 s against 9.06 s, the prefetches already in). But
/// each first write to a huge page waits while the kernel zeroes all 2 MB of it,
/// which only a table written with zeros when made does not feel. Only a hint:
/// where the kernel declines (or huge pages are off), the table works the same.
fn advise_huge_pages(start: *const u8, bytes: usize, huge: bool) {
    #[cfg(target_os = "linux")]
    {
        let first = (start as usize).next_multiple_of(PAGE);
        let end = (start as usize + bytes) & !(PAGE - 1);
        let advice = if huge {
            libc::MADV_HUGEPAGE
        } else {
            libc::MADV_NOHUGEPAGE
        };
        if end > first {
            // SAFETY: `first..end` lies inside a mapping the caller owns; the
            // advice changes only how the kernel backs those pages, never their
            // contents or validity, and its failure is harmless.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, advice);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes, huge);
}

/// The machine's memory in MB, where the system says: a table larger than it
/// could only be had by swapping (or be killed when touched), so it is refused.
pub fn machine_megabytes() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf reads a system setting; it has no preconditions.
        let (pages, page) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && page > 0 {
            return Some(((pages as u128 * page as u128) >> 20) as usize);
        }
    }
    None
}
