//! The transposition table: lockless, shared by every search thread.
//!
//! A bucket is one 64-byte cache line holding four entries. An entry is two
//! `AtomicU64` words, `key ^ data` and `data`; a probe accepts it only if XOR-ing
//! the words gives back the full 64-bit hash. Two stores racing on one entry can
//! leave the words of different writes side by side; such a torn entry fails the
//! check and reads as a miss (the lockless XOR trick), so no locks are needed and
//! all accesses are relaxed. A full-hash collision between two positions is
//! still possible (about 2^-64 per probe), so callers check the move is legal.
//!
//! The data word (scores in centi-discs, as everywhere in the engine):
//!
//! | bits  | field        | meaning                                            |
//! |-------|--------------|----------------------------------------------------|
//! | 0–15  | `lower`      | lower bound of the score, `i16`                    |
//! | 16–31 | `upper`      | upper bound of the score, `i16`                    |
//! | 32–39 | `depth`      | search depth; the number of empties for solves     |
//! | 40–47 | `best_move`  | square 0..=63, or [`NO_MOVE`]                      |
//! | 48–54 | `selectivity`| [`FULL_WIDTH`] (a midgame search), [`PROVEN`] (a solve) |
//! | 55    | occupied     | always 1 when written: a zeroed slot never matches  |
//! | 56–63 | generation   | value of the table's generation at the store       |

use memory::ZeroedSlice;
use rayon::prelude::*;
use std::cmp::Ordering;
use std::fmt;

mod memory;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};

/// `best_move` of an entry that has no move (a pass, a leaf, or a fail-low).
pub const NO_MOVE: u8 = 64;
/// Selectivity of a full-width midgame search: every move searched to the
/// depth. A selective search (one that cuts moves it judges hopeless) stores
/// less, how sure its cuts are in percent, and its entries then rank below
/// full-width ones of the same depth.
pub const FULL_WIDTH: u8 = 100;
/// Selectivity of the exact solver's bounds (exact and win/loss/draw solves
/// alike): proofs, valid at any depth, ranked above every heuristic result.
pub const PROVEN: u8 = 127;

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
const BUCKET_ENTRIES: usize = 4;
/// Depths above this count as this in the replacement priority: an Othello game
/// has at most 60 moves left, so a deeper nominal depth carries no information.
const DEPTH_CAP: i32 = 64;
/// Priority bonus of a proof ([`PROVEN`]): it outranks a heuristic result of
/// any capped depth, even after a generation of age.
const PROOF_BONUS: i32 = 2 * (DEPTH_CAP + 1);
/// Priority lost per generation of age: after a root move most of an old tree is
/// unreachable, so one generation weighs a quarter of the depth range, and an
/// exact solve outlives fresh results of its own depth for about 8 root searches.
const AGE_WEIGHT: i32 = 16;
/// Entries sampled by [`TranspositionTable::hashfull`]: the count is the permille.
const HASHFULL_SAMPLE: usize = 1000;
/// Tables up to this size are written with zeros when made, as they all were
/// before issue 42: `mollett bench` (64 MB) took 2.3 % longer when its search met
/// the first-touch page faults (median of five runs, 1.665 s against 1.627 s),
/// and writing 256 MB costs about 0.1 s. Larger tables start at once instead,
/// and on pages of the system's usual size, not huge ones: with 2 MB pages, a
/// search's first few thousand stores each waited for the zeroing of a page,
/// so that at 0.1 s a move an engine with `--hash 4096` lost 4 games of 4 on
/// time here (its first moves took 0.26 to 0.93 s) and one with `--hash 1024`
/// 3 of 4; with 4 KB pages, none of 4 at either size (the longest move 0.054
/// s). Long solves lose nothing measurable: FFO #40-49 with a 1024 MB table
/// took 45.6 and 43.8 s against 42.9 and 44.3 s with huge pages, and FFO
/// #40-44 6.8 to 7.3 s against 8.8 to 9.4 s.
const PREFAULT_MAX_MB: usize = 256;

/// Whether a table of `megabytes` is written with zeros when made (and so
/// backed by huge pages): see [`PREFAULT_MAX_MB`].
fn prefaulted(megabytes: usize) -> bool {
    megabytes <= PREFAULT_MAX_MB
}
/// Tables with fewer buckets (4 MB) are cleared on the calling thread: below
/// this, waking rayon's pool costs more than it saves.
const PARALLEL_CLEAR_BUCKETS: usize = 1 << 16;

const OCCUPIED: u64 = 1 << 55;

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtData {
    /// Lower bound of the score for the side to move, in centi-discs.
    pub lower: i16,
    /// Upper bound of the score for the side to move, in centi-discs.
    pub upper: i16,
    /// Depth searched; for exact-solver entries the number of empties.
    pub depth: u8,
    /// Best (or refuting) move found, 0..=63, or [`NO_MOVE`].
    pub best_move: u8,
    /// How selective the search that found the bounds was, beside its depth:
    /// [`FULL_WIDTH`] for the midgame search, [`PROVEN`] for the solver.
    /// Larger values are clamped to [`PROVEN`] when stored.
    pub selectivity: u8,
}

impl TtData {
    /// The data word of the module table, written in `generation`.
    fn pack(self, generation: u8) -> u64 {
        debug_assert!(
            self.selectivity <= PROVEN,
            "bad selectivity {}",
            self.selectivity
        );
        (self.lower as u16 as u64)
            | (self.upper as u16 as u64) << 16
            | (self.depth as u64) << 32
            | (self.best_move as u64) << 40
            | (self.selectivity.min(PROVEN) as u64) << 48
            | OCCUPIED
            | (generation as u64) << 56
    }

    /// The data and generation of a packed word.
    fn unpack(word: u64) -> (TtData, u8) {
        let data = TtData {
            lower: word as u16 as i16,
            upper: (word >> 16) as u16 as i16,
            depth: (word >> 32) as u8,
            best_move: (word >> 40) as u8,
            selectivity: ((word >> 48) & 0x7f) as u8,
        };
        (data, (word >> 56) as u8)
    }
}

/// How much an entry in a packed word is worth keeping when `current` is the
/// table's generation: `min(depth, DEPTH_CAP) - AGE_WEIGHT * age`, plus
/// [`PROOF_BONUS`] for a proof.
fn priority(word: u64, current: u8) -> i32 {
    let (data, generation) = TtData::unpack(word);
    let age = current.wrapping_sub(generation) as i32;
    let bonus = if data.selectivity == PROVEN {
        PROOF_BONUS
    } else {
        0
    };
    (data.depth as i32).min(DEPTH_CAP) + bonus - AGE_WEIGHT * age
}

/// The data to write when `new` is stored over `old` (written in generation
/// `old_gen`) for the same key, or `None` to leave the entry alone:
/// - an entry from an older generation is overwritten;
/// - otherwise the result of higher rank (selectivity, then depth) wins: a lower-ranked
///   result never replaces a higher-ranked one of the current search;
/// - results of equal rank intersect their bounds, or take the new bounds if the
///   two are inconsistent (search instability);
/// - a kept or new entry without a best move inherits the other's.
fn merge(old: TtData, old_gen: u8, new: TtData, current: u8) -> Option<TtData> {
    let mut kept = new;
    if kept.best_move == NO_MOVE {
        kept.best_move = old.best_move;
    }
    // A midgame entry from an older search is stale; a solver's bounds are
    // proofs and never go stale, so they merge as if written in this search.
    if old_gen != current && old.selectivity != PROVEN {
        return Some(kept);
    }
    match (new.selectivity, new.depth).cmp(&(old.selectivity, old.depth)) {
        Ordering::Greater => Some(kept),
        Ordering::Equal => {
            let (lower, upper) = (old.lower.max(new.lower), old.upper.min(new.upper));
            if lower <= upper {
                (kept.lower, kept.upper) = (lower, upper);
            }
            Some(kept)
        }
        Ordering::Less => {
            (old.best_move == NO_MOVE && new.best_move != NO_MOVE).then_some(TtData {
                best_move: new.best_move,
                ..old
            })
        }
    }
}

/// One slot: `key ^ data` and `data`.
#[derive(Default)]
struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

impl Entry {
    fn write(&self, hash: u64, word: u64) {
        self.key.store(hash ^ word, Relaxed);
        self.data.store(word, Relaxed);
    }

    /// The hash and data word of an occupied slot.
    fn read(&self) -> Option<(u64, u64)> {
        let word = self.data.load(Relaxed);
        let key = self.key.load(Relaxed);
        (word & OCCUPIED != 0).then_some((key ^ word, word))
    }
}

/// Four entries in one cache line.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; BUCKET_ENTRIES],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// Why a table could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TtError {
    /// A size of 0 MB was asked for.
    ZeroSize,
    /// The memory for this many megabytes could not be allocated.
    AllocationFailed(usize),
    /// More megabytes were asked for than the machine has.
    MoreThanMemory {
        /// The size asked for.
        megabytes: usize,
        /// The machine's memory, in MB.
        machine: usize,
    },
}

impl fmt::Display for TtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TtError::ZeroSize => write!(f, "the transposition table needs at least 1 MB"),
            TtError::AllocationFailed(mb) => {
                write!(f, "cannot allocate a transposition table of {mb} MB")
            }
            TtError::MoreThanMemory { megabytes, machine } => write!(
                f,
                "a transposition table of {megabytes} MB is more than this machine's {machine} MB of memory"
            ),
        }
    }
}

impl std::error::Error for TtError {}

/// The lockless transposition table; share it as `&TranspositionTable`.
pub struct TranspositionTable {
    buckets: ZeroedSlice<Bucket>,
    megabytes: usize,
    generation: AtomicU8,
    /// Whether anything was stored since the table was made or cleared: clearing
    /// an untouched table would write (and so take from the system) every page of
    /// it for nothing. Set once by the first store; read-mostly after that.
    written: AtomicBool,
}

// The table is shared by reference between search threads.
const _: fn() = || {
    fn shareable<T: Send + Sync>() {}
    shareable::<TranspositionTable>();
};

/// As many zeroed buckets as fit in `megabytes`, without aborting when the
/// memory is not there.
///
/// The memory comes zeroed from the system ([`ZeroedSlice`]), so a table costs
/// nothing until the search writes to it: `--hash 4096` starts at once, where
/// writing the zeros took 3.3 s a GB (issue 42). Huge pages only for the tables
/// written with zeros when made (see [`PREFAULT_MAX_MB`]).
fn allocate(megabytes: usize) -> Result<ZeroedSlice<Bucket>, TtError> {
    if megabytes == 0 {
        return Err(TtError::ZeroSize);
    }
    if let Some(machine) = memory::machine_megabytes()
        && megabytes > machine
    {
        return Err(TtError::MoreThanMemory { megabytes, machine });
    }
    let failed = TtError::AllocationFailed(megabytes);
    let bytes = megabytes.checked_mul(1 << 20).ok_or(failed.clone())?;
    let count = bytes / std::mem::size_of::<Bucket>();
    let huge_pages = prefaulted(megabytes);
    // SAFETY: an all-zero bucket is a valid value: atomics holding 0, empty slots.
    unsafe { ZeroedSlice::new(count, huge_pages) }.ok_or(failed)
}

impl TranspositionTable {
    /// An empty table of `megabytes` MB (the engine's default is 64). Errors on
    /// 0 MB or when the memory cannot be allocated, instead of aborting.
    pub fn new(megabytes: usize) -> Result<Self, TtError> {
        let tt = TranspositionTable {
            buckets: allocate(megabytes)?,
            megabytes,
            generation: AtomicU8::new(0),
            written: AtomicBool::new(true),
        };
        tt.prefault();
        Ok(tt)
    }

    /// Writes the zeros of a table of up to [`PREFAULT_MAX_MB`] at once, so that
    /// its searches never wait for the system's first-touch page faults; a larger
    /// one is left untouched until the search writes to it.
    fn prefault(&self) {
        if prefaulted(self.megabytes) {
            self.clear();
        } else {
            self.written.store(false, Relaxed);
        }
    }

    /// Replaces the table by an empty one of `megabytes` MB. On error the old
    /// table and its contents are kept. Both tables exist during the call.
    pub fn resize(&mut self, megabytes: usize) -> Result<(), TtError> {
        self.buckets = allocate(megabytes)?;
        self.megabytes = megabytes;
        self.written = AtomicBool::new(true);
        self.prefault();
        Ok(())
    }

    /// The size in megabytes.
    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// Empties every entry, using rayon's pool for large tables. Not meant to
    /// run during a search (racing stores may survive it).
    pub fn clear(&self) {
        if !self.written.swap(false, Relaxed) {
            return;
        }
        let clear = |b: &Bucket| b.entries.iter().for_each(|e| e.write(0, 0));
        if self.buckets.len() >= PARALLEL_CLEAR_BUCKETS {
            self.buckets.par_iter().for_each(clear);
        } else {
            self.buckets.iter().for_each(clear);
        }
    }

    /// Starts a new generation; call once per root search, so that the results
    /// of earlier searches age and make room.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// The bucket of `hash`: its high bits scaled to the bucket count by a
    /// fixed-point multiply, so any count works.
    fn bucket(&self, hash: u64) -> &Bucket {
        &self.buckets[((hash as u128 * self.buckets.len() as u128) >> 64) as usize]
    }

    /// Asks the CPU to start loading the bucket of `hash` into the cache, so that
    /// a probe issued a little later does not wait for memory. Several prefetches
    /// in a row overlap their misses. A hint only: it changes no state.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(hash);
            // SAFETY: SSE, the intrinsic's only feature, is part of the x86-64
            // baseline; a prefetch of a valid address never faults nor writes.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// What is stored for `hash`, or `None` (never stored, replaced, or torn by
    /// a racing store). `selectivity` tells a heuristic bound from a proven one.
    pub fn probe(&self, hash: u64) -> Option<TtData> {
        let mut slots = self.bucket(hash).entries.iter().filter_map(Entry::read);
        slots
            .find(|&(key, _)| key == hash)
            .map(|(_, word)| TtData::unpack(word).0)
    }

    /// Stores `data` for `hash`. An entry with the same key is updated: a midgame
    /// one from an older search is overwritten, otherwise the higher (selectivity, depth) wins
    /// and equal ones intersect their bounds; a missing best move is inherited.
    /// Else the bucket's entry of lowest priority is replaced, where priority is
    /// `min(depth, 64) - AGE_WEIGHT * age` (plus a bonus for a proof) and age counts
    /// the generations since the entry was written (mod 256); empty slots go first.
    pub fn store(&self, hash: u64, data: TtData) {
        if !self.written.load(Relaxed) {
            self.written.store(true, Relaxed);
        }
        let current = self.generation.load(Relaxed);
        let bucket = self.bucket(hash);
        let mut victim = (&bucket.entries[0], i32::MAX);
        for e in &bucket.entries {
            let p = match e.read() {
                Some((key, word)) if key == hash => {
                    let (old, old_gen) = TtData::unpack(word);
                    if let Some(kept) = merge(old, old_gen, data, current) {
                        e.write(hash, kept.pack(current));
                    }
                    return;
                }
                Some((_, word)) => priority(word, current),
                None => i32::MIN,
            };
            if p < victim.1 {
                victim = (e, p);
            }
        }
        victim.0.write(hash, data.pack(current));
    }

    /// Permille of the first 1000 entries written in the current generation, a
    /// cheap estimate of how full the table is for this search (even a 1 MB
    /// table has 65536 entries, so the sample is always complete).
    pub fn hashfull(&self) -> u32 {
        let current = self.generation.load(Relaxed);
        let entries = self.buckets.iter().flat_map(|b| &b.entries);
        let fresh = |(_, word): (u64, u64)| TtData::unpack(word).1 == current;
        let sample = entries.take(HASHFULL_SAMPLE);
        sample.filter(|e| e.read().is_some_and(fresh)).count() as u32
    }

    /// Writes raw words into a slot, to forge a torn entry in tests.
    #[cfg(test)]
    fn write_raw(&self, hash: u64, slot: usize, key_word: u64, data_word: u64) {
        let e = &self.bucket(hash).entries[slot];
        e.key.store(key_word, Relaxed);
        e.data.store(data_word, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use std::time::{Duration, Instant};

    fn data(lower: i16, upper: i16, depth: u8, best_move: u8, selectivity: u8) -> TtData {
        TtData {
            lower,
            upper,
            depth,
            best_move,
            selectivity,
        }
    }

    /// Data derived from the key, so a probe can tell whose data it returned.
    fn data_of(key: u64) -> TtData {
        let b = key.to_le_bytes();
        data(key as i16, (key >> 16) as i16, b[4], b[5] % 65, b[6] % 3)
    }

    #[test]
    fn round_trip_and_misses() {
        let tt = TranspositionTable::new(1).unwrap();
        let (min, max) = (i16::MIN, i16::MAX);
        let cases = [
            (0, data(-6400, 6400, 60, 0, PROVEN)),
            (1 << 63, data(min, max, u8::MAX, NO_MOVE, FULL_WIDTH)),
            (u64::MAX, data(-1, -1, 0, 63, 73)),
            (0x1234_5678_9abc, data(-250, -100, 17, 37, FULL_WIDTH)),
        ];
        assert_eq!(tt.probe(0), None, "a zeroed slot must not match hash 0");
        cases.iter().for_each(|&(h, d)| tt.store(h, d));
        for (h, d) in cases {
            assert_eq!(tt.probe(h), Some(d));
            assert_eq!(tt.probe(h ^ 1), None); // same bucket, other key
            assert_eq!(tt.probe(h ^ 1 << 62), None); // other bucket
        }
    }

    #[test]
    fn same_key_keeps_the_better_result() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(7, data(-100, 300, 20, 11, FULL_WIDTH));
        tt.store(7, data(-900, 900, 10, 12, FULL_WIDTH));
        assert_eq!(tt.probe(7), Some(data(-100, 300, 20, 11, FULL_WIDTH)));
        tt.store(7, data(0, 500, 20, NO_MOVE, FULL_WIDTH));
        assert_eq!(tt.probe(7), Some(data(0, 300, 20, 11, FULL_WIDTH)));
        tt.store(7, data(200, 200, 4, 30, PROVEN));
        tt.store(7, data(-50, -50, 60, 31, FULL_WIDTH));
        assert_eq!(tt.probe(7), Some(data(200, 200, 4, 30, PROVEN)));
        // A later search keeps the proof over midgame bounds, and intersects it
        // with a new proof.
        tt.new_search();
        tt.store(7, data(-50, -50, 2, NO_MOVE, FULL_WIDTH));
        assert_eq!(tt.probe(7), Some(data(200, 200, 4, 30, PROVEN)));
        tt.store(8, data(0, 6400, 9, 5, PROVEN));
        tt.new_search();
        tt.store(8, data(-6400, 200, 9, NO_MOVE, PROVEN));
        assert_eq!(tt.probe(8), Some(data(0, 200, 9, 5, PROVEN)));
        // Stale midgame bounds give way to new ones, shallower or not.
        tt.store(9, data(-100, 300, 20, 11, FULL_WIDTH));
        tt.new_search();
        tt.store(9, data(-50, -50, 2, NO_MOVE, FULL_WIDTH));
        assert_eq!(tt.probe(9), Some(data(-50, -50, 2, 11, FULL_WIDTH)));
    }

    #[test]
    fn replacement_prefers_exact_and_deep() {
        let tt = TranspositionTable::new(1).unwrap();
        assert!(
            std::ptr::eq(tt.bucket(1), tt.bucket(100)),
            "all in bucket 0"
        );
        tt.store(1, data(0, 0, 0, NO_MOVE, PROVEN));
        tt.store(2, data(0, 0, 255, 3, FULL_WIDTH));
        tt.store(3, data(0, 0, 5, 3, FULL_WIDTH));
        tt.store(4, data(0, 0, 20, 3, PROVEN));
        tt.store(5, data(0, 0, 9, 3, FULL_WIDTH));
        assert_eq!(tt.probe(3), None, "the shallowest heuristic entry goes");
        tt.store(6, data(0, 0, 200, 3, FULL_WIDTH));
        assert_eq!(tt.probe(5), None);
        tt.store(8, data(0, 0, 1, 3, FULL_WIDTH));
        // Depths 255 and 200 both count as 64: one goes, the proofs stay.
        assert!(tt.probe(2).is_some() != tt.probe(6).is_some());
        assert!([1, 4, 8].iter().all(|&k| tt.probe(k).is_some()));
    }

    #[test]
    fn old_generations_are_replaced() {
        let tt = TranspositionTable::new(1).unwrap();
        (1..=4).for_each(|k| tt.store(k, data(0, 0, 40, 3, PROVEN)));
        (0..12).for_each(|_| tt.new_search());
        (11..=14).for_each(|k| tt.store(k, data(0, 0, 1, 3, FULL_WIDTH)));
        assert!((1..=4).all(|k| tt.probe(k).is_none()));
        assert!((11..=14).all(|k| tt.probe(k).is_some()));
    }

    #[test]
    fn torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1).unwrap();
        let h = 0xdead_beef_0123_4567;
        let a = data(100, 100, 9, 5, FULL_WIDTH);
        let (wa, wb) = (a.pack(0), data(-300, 200, 8, 6, FULL_WIDTH).pack(0));
        tt.write_raw(h, 0, h ^ wa, wb);
        assert_eq!(tt.probe(h), None);
        tt.write_raw(h, 0, h ^ wa, wa);
        assert_eq!(tt.probe(h), Some(a));
    }

    /// Random stores and probes until `until`; checks every hit, returns the hits.
    fn hammer(tt: &TranspositionTable, keys: &[u64], seed: u64, until: Instant) -> u64 {
        let (mut r, mut hits) = (Rng::new(seed), 0);
        while Instant::now() < until {
            for _ in 0..1000 {
                let k = keys[r.below(keys.len() as u64) as usize];
                if r.next_u64() & 1 == 0 {
                    tt.store(k, data_of(k));
                } else if let Some(d) = tt.probe(k) {
                    assert_eq!(d, data_of(k), "foreign data for {k:#x}");
                    hits += 1;
                }
            }
            if seed == 0 {
                tt.new_search();
            }
        }
        hits
    }

    #[test]
    fn concurrent_stores_never_return_foreign_data() {
        let tt = TranspositionTable::new(1).unwrap();
        // 64 keys in 4 buckets (top 12 bits clear): 16 slots, heavily contended.
        let mut r = Rng::new(99);
        let keys: Vec<u64> = (0..64).map(|_| r.next_u64() >> 12).collect();
        let (tt, keys) = (&tt, &keys[..]);
        let until = Instant::now() + Duration::from_millis(200);
        let hits: u64 = std::thread::scope(|s| {
            let threads: Vec<_> = (0..4)
                .map(|t| s.spawn(move || hammer(tt, keys, t, until)))
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).sum()
        });
        assert!(hits > 0);
    }

    /// The process's resident memory in MB (Linux).
    #[cfg(target_os = "linux")]
    fn resident_megabytes() -> usize {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        let kb: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        kb >> 10
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_table_takes_memory_only_where_it_is_written() {
        let before = resident_megabytes();
        let tt = TranspositionTable::new(2048).unwrap();
        tt.clear();
        // Stores scattered over the whole table, as a search's first ones are.
        let mut r = Rng::new(7);
        let keys: Vec<u64> = (0..2000).map(|_| r.next_u64()).collect();
        keys.iter().for_each(|&k| tt.store(k, data_of(k)));
        assert!(keys.iter().all(|&k| tt.probe(k).is_some()));
        let grown = resident_megabytes().saturating_sub(before);
        // Writing the zeros would have made all 2048 MB resident, and so would
        // huge pages, 2 MB for each store; 2000 pages of 4 KB are 8 MB (the
        // margin is for the tests running beside this one in the process).
        assert!(
            grown < 512,
            "{grown} MB resident after 2000 stores into a 2048 MB table"
        );
        tt.clear();
        assert!(
            keys.iter().all(|&k| tt.probe(k).is_none()),
            "a written table is cleared"
        );
    }

    #[test]
    fn bad_sizes_are_errors() {
        assert_eq!(TranspositionTable::new(0).err(), Some(TtError::ZeroSize));
        let huge = TranspositionTable::new(1_000_000_000).err().unwrap();
        assert!(huge.to_string().contains("1000000000 MB"));
        #[cfg(target_os = "linux")]
        assert!(
            matches!(huge, TtError::MoreThanMemory { machine, .. } if machine > 0),
            "{huge}"
        );
        let mut tt = TranspositionTable::new(1).unwrap();
        tt.store(5, data(1, 2, 3, 4, 73));
        assert!(tt.resize(usize::MAX).is_err());
        assert_eq!((tt.megabytes(), tt.probe(5).is_some()), (1, true));
        tt.resize(2).unwrap();
        assert_eq!((tt.megabytes(), tt.buckets.len()), (2, 2 << 14));
        assert_eq!(tt.probe(5), None);
    }

    #[test]
    fn clear_empties_and_hashfull_fills() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        let mut r = Rng::new(5);
        let keys: Vec<u64> = (0..100_000).map(|_| r.next_u64()).collect();
        keys.iter().for_each(|&k| tt.store(k, data_of(k)));
        let full = tt.hashfull();
        assert!(full > 700 && full <= 1000, "hashfull {full}");
        tt.new_search();
        assert_eq!(tt.hashfull(), 0, "entries of older searches do not count");
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    }
}
