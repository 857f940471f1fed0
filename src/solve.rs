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
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// How to solve.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Prove only win, loss or draw.
    pub wld: bool,
    /// Search threads (lazy SMP) per position.
    pub threads: usize,
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
    /// Sum of the positions' wall times.
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
    let tt = TranspositionTable::new(opts.hash_mb)
        .with_context(|| format!("a {} MB table", opts.hash_mb))?;
    for (i, e) in entries.iter().enumerate() {
        let r = solve_one(i + 1, e, opts, &tt);
        summary.positions += 1;
        summary.nodes += r.nodes;
        summary.seconds += r.seconds;
        summary.disagreements += r.disagrees as usize;
        each(&r);
    }
    summary.nodes_per_second = summary.nodes as f64 / summary.seconds.max(1e-9);
    Ok(summary)
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
