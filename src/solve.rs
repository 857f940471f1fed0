//! `mollett solve`: exact (or win/loss/draw) solves of every position of an OBF
//! file, checked against the scores the file gives.

use crate::board::Move;
use crate::eval::{DISC, EvalKind};
use crate::format::ObfEntry;
use crate::search::{Limits, ScoreKind, SearchRequest, SearchResult, search};
use crate::tt::TranspositionTable;
use crate::variant::root::VariantRequest;
use crate::variant::{self, Variant, VariantPosition};
use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How to solve.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Prove only win, loss or draw.
    pub wld: bool,
    /// Search threads (lazy SMP) per position.
    pub threads: usize,
    /// Positions solved at once, each with its own table (data-parallel, on a
    /// rayon pool); reports still come in file order.
    pub jobs: usize,
    /// Transposition table size per search, in MB (cleared between positions).
    pub hash_mb: usize,
    /// The rules the positions are solved under (Reversi positions assume no
    /// pass so far; Reversi and Anti-Reversi solve on one thread, through
    /// [`crate::variant::root`], and `wld` reports the sign of the exact score).
    pub variant: Variant,
}

/// One solved position.
#[derive(Clone, Debug, Serialize)]
pub struct PositionReport {
    /// 1-based order of the position in the file.
    pub index: usize,
    /// Empty squares.
    pub empties: u32,
    /// The best move (`PA` for a forced pass), `null` when the game is over.
    #[serde(rename = "move")]
    pub best: Option<String>,
    /// Final disc difference for the side to move (in WLD mode: -1, 0 or 1).
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// The principal variation, lower-case squares and `PA`.
    pub pv: Vec<String>,
    /// The best score the file gives, if it gives one (as a sign in WLD mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<i32>,
    /// Whether the score (and the chosen move's listed score) disagrees with the file.
    #[serde(skip)]
    pub disagrees: bool,
}

/// Totals over a file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Positions solved.
    pub positions: usize,
    /// Nodes over all positions.
    pub nodes: u64,
    /// Wall time: the sum of the positions' times, or with several jobs the
    /// time of the whole run (the positions' times overlap).
    pub seconds: f64,
    /// `nodes / seconds`.
    pub nodes_per_second: f64,
    /// Positions whose result disagrees with the file.
    pub disagreements: usize,
}

/// Solves one position with a fresh table.
fn solve_one(
    index: usize,
    entry: &ObfEntry,
    opts: &SolveOptions,
    tt: &TranspositionTable,
) -> PositionReport {
    tt.clear();
    let board = entry.position.board;
    let stop = AtomicBool::new(false);
    let r = match variant_start(entry, opts.variant) {
        None => solve_othello(board, opts, tt, &stop),
        Some(pos) => {
            let limits = Limits {
                depth: 60,
                exact_empties: 64,
                wld_empties: 64,
            };
            let req = VariantRequest::new(&pos, limits);
            variant::root::search(&req, tt, &stop, &mut |_| {})
        }
    };
    let sign = |v: i32| if opts.wld { v.signum() } else { v };
    let score = sign(r.score / DISC);
    let expected = entry.scores.first().map(|&(_, s)| sign(s));
    let move_score = r
        .best
        .and_then(|m| entry.scores.iter().find(|(mv, _)| *mv == m))
        .map(|&(_, s)| sign(s));
    let disagrees = expected.is_some_and(|e| e != score || move_score.is_some_and(|m| m != e));
    debug_assert!(matches!(r.kind, ScoreKind::Exact | ScoreKind::WinLossDraw));
    PositionReport {
        index,
        empties: board.empties(),
        best: r.best.map(|m| m.to_string()),
        score,
        nodes: r.nodes,
        seconds: r.elapsed.as_secs_f64(),
        pv: r.pv.iter().map(Move::to_string).collect(),
        expected,
        disagrees,
    }
}

/// The entry's position under a variant other than Othello (`None` for
/// Othello; checked by [`solve_all`] to exist for Reversi).
fn variant_start(entry: &ObfEntry, variant: Variant) -> Option<VariantPosition> {
    match variant {
        Variant::Othello => None,
        Variant::Reversi => VariantPosition::reversi(entry.position, None),
        v => Some(VariantPosition::othello_like(v, entry.position)),
    }
}

/// The Othello solve (exact, or win/loss/draw) with the specialised search.
fn solve_othello(
    board: crate::Board,
    opts: &SolveOptions,
    tt: &TranspositionTable,
    stop: &AtomicBool,
) -> SearchResult {
    let req = SearchRequest {
        board,
        limits: Limits {
            depth: 60,
            exact_empties: if opts.wld { 0 } else { 64 },
            wld_empties: 64,
        },
        eval: EvalKind::Mobility,
        seed: 0,
        find_ties: false,
        threads: opts.threads.max(1),
        time: None,
        contempt: 0,
    };
    search(&req, tt, stop, &mut |_| {})
}

/// Solves every entry in file order, calling `each` with each report, and
/// returns the totals.
pub fn solve_all(
    entries: &[ObfEntry],
    opts: &SolveOptions,
    each: &mut dyn FnMut(&PositionReport),
) -> Result<Summary> {
    let mut summary = Summary::default();
    if opts.variant == Variant::Reversi
        && let Some(i) = entries
            .iter()
            .position(|e| variant_start(e, Variant::Reversi).is_none())
    {
        bail!("position {} is not a position of historical reversi", i + 1);
    }
    let mut add = |r: &PositionReport| {
        summary.positions += 1;
        summary.nodes += r.nodes;
        summary.seconds += r.seconds;
        summary.disagreements += r.disagrees as usize;
        each(r);
    };
    let jobs = opts.jobs.clamp(1, entries.len().max(1));
    if jobs == 1 {
        let tt = table(opts.hash_mb)?;
        for (i, e) in entries.iter().enumerate() {
            add(&solve_one(i + 1, e, opts, &tt));
        }
    } else {
        let start = Instant::now();
        solve_in_parallel(entries, opts, jobs, &mut add)?;
        summary.seconds = start.elapsed().as_secs_f64();
    }
    summary.nodes_per_second = summary.nodes as f64 / summary.seconds.max(1e-9);
    Ok(summary)
}

/// A table of `mb` MB, or an error naming the size.
fn table(mb: usize) -> Result<TranspositionTable> {
    TranspositionTable::new(mb).with_context(|| format!("a {mb} MB table"))
}

/// Solves the entries `jobs` at a time on a rayon pool, each solve taking one of
/// `jobs` tables; hands the reports to `each` in file order as soon as every
/// earlier one is in.
fn solve_in_parallel(
    entries: &[ObfEntry],
    opts: &SolveOptions,
    jobs: usize,
    each: &mut dyn FnMut(&PositionReport),
) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("mollett-solve-{i}"))
        .build()
        .context("a pool of solving threads")?;
    let tables = (0..jobs)
        .map(|_| table(opts.hash_mb))
        .collect::<Result<Vec<_>>>()?;
    let tables = Mutex::new(tables);
    let (tx, rx) = crossbeam_channel::unbounded();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.install(|| {
                entries
                    .par_iter()
                    .enumerate()
                    .for_each_with(tx, |tx, (i, e)| {
                        // At most `jobs` solves run at once, so a table is free.
                        let tt = lock(&tables).pop().expect("one table per job");
                        let r = solve_one(i + 1, e, opts, &tt);
                        lock(&tables).push(tt);
                        // The receiver outlives the senders: this cannot fail.
                        let _ = tx.send(r);
                    });
            });
        });
        let mut waiting = BTreeMap::new();
        let mut next = 1;
        for r in rx {
            waiting.insert(r.index, r);
            while let Some(r) = waiting.remove(&next) {
                each(&r);
                next += 1;
            }
        }
    });
    Ok(())
}

/// The table pool, even if a solve panicked while holding the lock (the pool
/// itself is then still a valid list of tables).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The text line for one report.
pub fn format_report(r: &PositionReport) -> String {
    let expected = match r.expected {
        Some(e) => format!("{e:+4}"),
        None => "   ?".to_string(),
    };
    format!(
        "{:>4} {:>3} {:>4} {:+4} {:>4} {:>14} {:>9.3}  {}{}",
        r.index,
        r.empties,
        r.best.as_deref().unwrap_or("--"),
        r.score,
        expected,
        r.nodes,
        r.seconds,
        r.pv.join(" "),
        if r.disagrees { "  DISAGREES" } else { "" }
    )
}

/// The header over [`format_report`] lines.
pub const REPORT_HEADER: &str =
    "   # emp move scor want          nodes   seconds  principal variation";
