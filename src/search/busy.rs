//! Which positions other threads are searching right now: a small lossy table in
//! the spirit of ABDADA. A thread about to search a position that is not the first
//! move of its parent, and finds it claimed, searches its other moves first and
//! comes back to it later, by when the table usually holds its result. Threads so
//! spread over different subtrees instead of repeating each other's work. Races
//! only make the advice wrong, never the search: it changes the move order alone.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table: far more than the positions being searched at once by a
/// few dozen threads (a handful each), small enough to stay in cache (128 KB).
const SLOTS: usize = 1 << 14;

/// The positions being searched, by hash; 0 marks a free slot.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyTable {
    fn default() -> BusyTable {
        BusyTable {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl BusyTable {
    fn slot(&self, hash: u64) -> &AtomicU64 {
        &self.slots[(hash as usize) & (SLOTS - 1)]
    }

    /// Claims `hash` for this thread until the returned guard is dropped; `None`
    /// when another thread holds it. Only a claim releases, so a thread never
    /// frees a slot another thread holds.
    #[inline]
    pub fn claim(&self, hash: u64) -> Option<Claim<'_>> {
        let slot = self.slot(hash);
        if slot.load(Ordering::Relaxed) == hash {
            return None;
        }
        slot.store(hash, Ordering::Relaxed);
        Some(Claim { slot, hash })
    }
}

/// A position claimed in a [`BusyTable`], released when dropped (after its
/// search, or when the search unwinds on a stop).
pub struct Claim<'a> {
    slot: &'a AtomicU64,
    hash: u64,
}

impl Drop for Claim<'_> {
    #[inline]
    fn drop(&mut self) {
        // The slot may since hold another position that hashed to it: leave it.
        let _ = self
            .slot
            .compare_exchange(self.hash, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_and_releases() {
        let t = BusyTable::default();
        let claim = t.claim(12345);
        assert!(claim.is_some());
        assert!(t.claim(12345).is_none());
        drop(claim);
        assert!(t.claim(12345).is_some());
    }
}
