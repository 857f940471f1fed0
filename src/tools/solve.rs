//! `mollett solve`: exact (or win/loss/draw) solves of every position of an OBF
//! file, checked against the scores the file gives.

use crate::board::Move;
use crate::engine::{Engine, Event, Job, Settings};
use crate::eval::whole_discs;
use crate::format::ObfEntry;
use crate::protocol::console::format_score;
use crate::rules::game::Game;
use crate::rules::{Position, Variant};
use crate::search::{ScoreKind, SearchResult};
use crate::tools::obf_lines::obf_entries;
use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::Instant;

/// `mollett solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The OBF file (one position per line, optionally with scored moves); `-`
    /// reads standard input. A name that is no file may be one position
    /// instead: an OBF line (a board string and the side to move), or the
    /// moves from the start (`f5d6c3d3c4`).
    #[arg(value_name = "FILE|POSITION", allow_hyphen_values = true)]
    pub file: std::path::PathBuf,
    /// Prove only win, loss or draw (faster).
    #[arg(long)]
    pub wld: bool,
    /// Search threads per position (lazy SMP sharing one table), 1..=1024.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Positions solved at once, 1..=1024, each with its own table (memory:
    /// jobs × hash); the reports still come in file order.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: u16,
    /// Transposition table size per search, in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Print only JSON, one object per line, on stdout.
    #[arg(long)]
    pub json: bool,
    /// Print each completed depth of every solve to stderr (also done when
    /// stderr is a terminal), so that a long position shows progress.
    #[arg(long)]
    pub verbose: bool,
    /// Solve every legal move exactly and print each position as an OBF line
    /// that scores them all, best first (as Edax's problem files do): the
    /// input `mollett accuracy` needs. The totals follow as a `%` comment.
    #[arg(long, conflicts_with = "wld")]
    pub all_moves: bool,
    /// The rules: othello (default), reversi (each position assumed reached
    /// without a pass) or anti.
    #[arg(long, default_value = "othello")]
    pub variant: Variant,
}

/// How to solve.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Prove only win, loss or draw.
    pub wld: bool,
    /// Search threads (lazy SMP) per position.
    pub threads: usize,
    /// Positions solved at once, each on a thread of its own with its own
    /// table; reports still come in file order.
    pub jobs: usize,
    /// Transposition table size per search, in MB (cleared between positions).
    pub hash_mb: usize,
    /// The rules the positions are solved under (Reversi positions assume no
    /// pass so far).
    pub variant: Variant,
    /// Solve every legal move, not only the best (exact only).
    pub all_moves: bool,
    /// Each completed depth of a solve to stderr, named by the position.
    pub progress: bool,
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
    /// With `--all-moves`: the position as an OBF line scoring every legal
    /// move, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub obf: Option<String>,
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

/// Solves one position on `engine`, with a fresh table.
fn solve_one(
    index: usize,
    entry: &ObfEntry,
    opts: &SolveOptions,
    engine: &mut Engine,
) -> PositionReport {
    if opts.all_moves {
        return solve_every_move(index, entry, opts, engine);
    }
    let board = entry.position.board;
    let progress = opts.progress.then_some(index);
    let r = solve_position(engine, start_of(entry, opts.variant), opts.wld, progress);
    let sign = |v: i32| if opts.wld { v.signum() } else { v };
    let score = sign(whole_discs(r.score));
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
        best: r.best.map(Move::lower),
        score,
        nodes: r.nodes,
        seconds: r.elapsed.as_secs_f64(),
        pv: r.pv.iter().map(|m| m.lower()).collect(),
        expected,
        disagrees,
        obf: None,
    }
}

/// Solves every legal move of the entry's position exactly, in one table
/// cleared once for the position: the report of the best (the first of the
/// best scores in the moves' order), and the position as an OBF line with
/// every move scored, best first. It disagrees with the file when any move the
/// file scores has another score.
fn solve_every_move(
    index: usize,
    entry: &ObfEntry,
    opts: &SolveOptions,
    engine: &mut Engine,
) -> PositionReport {
    let pos = start_of(entry, opts.variant);
    // The engine is idle between solves.
    engine.new_game(pos).expect("an idle engine starts a game");
    let (mut nodes, mut seconds) = (0, 0.0);
    let mut scored: Vec<(Move, i32, Vec<Move>)> = Vec::new();
    for mv in pos.legal_moves() {
        let child = pos.play(mv).expect("a legal move plays");
        let (score, line) = if child.is_game_over() {
            (-child.final_score(), Vec::new())
        } else {
            engine.set_game(Game::new(child));
            let r = solve_here(engine, false, opts.progress.then_some(index));
            nodes += r.nodes;
            seconds += r.elapsed.as_secs_f64();
            (-whole_discs(r.score), r.pv)
        };
        scored.push((mv, score, line));
    }
    // Best first; a stable sort keeps the moves' order among equal scores.
    scored.sort_by_key(|&(_, score, _)| std::cmp::Reverse(score));
    let listed = |mv: Move| entry.scores.iter().find(|(m, _)| *m == mv).map(|&(_, s)| s);
    let disagrees = scored
        .iter()
        .any(|&(mv, score, _)| listed(mv).is_some_and(|s| s != score));
    let best = scored.first();
    let scores: Vec<(Move, i32)> = scored.iter().map(|&(mv, s, _)| (mv, s)).collect();
    PositionReport {
        index,
        empties: pos.board.empties(),
        best: best.map(|(mv, _, _)| mv.lower()),
        score: best.map_or_else(|| pos.final_score(), |&(_, s, _)| s),
        nodes,
        seconds,
        pv: best.map_or_else(Vec::new, |(mv, _, line)| {
            std::iter::once(mv).chain(line).map(|m| m.lower()).collect()
        }),
        expected: entry.scores.first().map(|&(_, s)| s),
        disagrees,
        obf: Some(
            ObfEntry {
                position: entry.position,
                scores,
            }
            .to_string(),
        ),
    }
}

/// The entry's position under `variant`; `None` for a Reversi position that
/// no game without passes reaches (checked before solving).
fn variant_start(entry: &ObfEntry, variant: Variant) -> Option<Position> {
    entry.position.under(variant, None)
}

/// [`variant_start`] of an entry [`next_entry`] has checked.
fn start_of(entry: &ObfEntry, variant: Variant) -> Position {
    variant_start(entry, variant).expect("checked before solving")
}

/// The engine's solve of `pos` (exact, or win/loss/draw), in a fresh table.
pub(crate) fn solve_position(
    engine: &mut Engine,
    pos: Position,
    wld: bool,
    progress: Option<usize>,
) -> SearchResult {
    // The engine is idle between solves.
    engine.new_game(pos).expect("an idle engine starts a game");
    solve_here(engine, wld, progress)
}

/// The engine's solve of its current position, in the table as it is.
fn solve_here(engine: &mut Engine, wld: bool, progress: Option<usize>) -> SearchResult {
    // The engine is idle between solves and its thread count was checked.
    engine
        .start(Job::Solve { wld })
        .expect("an idle engine starts a solve");
    let mut show = |ev: &Event| {
        if let (Some(index), Event::Iteration { result: r, .. }) = (progress, ev) {
            let pv: Vec<String> = r.pv.iter().map(|m| m.lower()).collect();
            eprintln!(
                "position {index}: depth {} score {} nodes {} time {:.2} pv {}",
                r.kind,
                format_score(r.score, r.kind),
                r.nodes,
                r.elapsed.as_secs_f64(),
                pv.join(" ")
            );
        }
    };
    match engine.wait_each(&mut show).pop() {
        Some(Event::Finished(f)) => f.result.expect("a solve has a result"),
        other => panic!("the solve failed: {other:?}"),
    }
}

/// A source of positions: each the entry or why it could not be read (the
/// error ends the run, after the reports of every earlier position).
pub type Entries<'a> = dyn Iterator<Item = Result<ObfEntry>> + Send + 'a;

/// Solves every entry in order, calling `each` with each report, and returns
/// the totals. The entries are taken one at a time as solvers get free, so a
/// file is streamed, never held whole.
pub fn solve_all(
    entries: &mut Entries,
    opts: &SolveOptions,
    each: &mut dyn FnMut(&PositionReport),
) -> Result<Summary> {
    let mut summary = Summary::default();
    let mut add = |r: &PositionReport| {
        summary.positions += 1;
        summary.nodes += r.nodes;
        summary.seconds += r.seconds;
        summary.disagreements += r.disagrees as usize;
        each(r);
    };
    let jobs = opts.jobs.max(1);
    let start = Instant::now();
    solve_in_parallel(entries, opts, jobs, &mut add)?;
    if jobs > 1 {
        summary.seconds = start.elapsed().as_secs_f64();
    }
    summary.nodes_per_second = summary.nodes as f64 / summary.seconds.max(1e-9);
    Ok(summary)
}

/// An engine for `opts`: its table (of `opts.hash_mb` MB) and thread count.
fn engine(opts: &SolveOptions) -> Result<Engine> {
    Engine::new(Settings {
        threads: opts.threads.max(1),
        hash_mb: opts.hash_mb,
        variant: opts.variant,
        ..Settings::default()
    })
    .with_context(|| format!("an engine with a {} MB table", opts.hash_mb))
}

/// The next entry to solve, with its 1-based index, or `None` when the
/// entries are done or one failed (the failure is kept in `failed`).
fn next_entry(
    source: &Mutex<(&mut Entries, usize)>,
    failed: &Mutex<Option<anyhow::Error>>,
    variant: Variant,
) -> Option<(usize, ObfEntry)> {
    let mut guard = lock(source);
    let (entries, count) = &mut *guard;
    if lock(failed).is_some() {
        return None;
    }
    let entry = match entries.next()? {
        Ok(e) => e,
        Err(e) => {
            *lock(failed) = Some(e);
            return None;
        }
    };
    *count += 1;
    if variant == Variant::Reversi && variant_start(&entry, variant).is_none() {
        *lock(failed) = Some(anyhow::anyhow!(
            "position {count} is not a position of historical reversi"
        ));
        return None;
    }
    Some((*count, entry))
}

/// Solves the entries on `jobs` threads, each with an engine (and table) of its
/// own that it makes for its first entry and keeps from one position to the next; hands the reports to `each` in order
/// as soon as every earlier one is in. Each thread takes the next entry only
/// when it is free, so at most `jobs` solves (and tables) exist at once.
fn solve_in_parallel(
    entries: &mut Entries,
    opts: &SolveOptions,
    jobs: usize,
    each: &mut dyn FnMut(&PositionReport),
) -> Result<()> {
    let source = Mutex::new((entries, 0));
    let failed = Mutex::new(None);
    let (tx, rx) = crossbeam_channel::unbounded();
    std::thread::scope(|scope| -> Result<()> {
        let mut started = 0;
        for i in 0..jobs {
            let tx = tx.clone();
            let (source, failed) = (&source, &failed);
            // A thread the system refuses to start is left out, as long as
            // one runs.
            started += std::thread::Builder::new()
                .name(format!("mollett-solve-{i}"))
                .spawn_scoped(scope, move || {
                    // The engine is made for the first entry: more jobs than
                    // entries cost nothing.
                    let mut solver = None;
                    while let Some((index, e)) = next_entry(source, failed, opts.variant) {
                        if solver.is_none() {
                            match engine(opts) {
                                Ok(en) => solver = Some(en),
                                Err(err) => {
                                    lock(failed).get_or_insert(err);
                                    return;
                                }
                            }
                        }
                        let Some(solver) = &mut solver else { return };
                        // The receiver outlives the senders: this cannot fail.
                        let _ = tx.send(solve_one(index, &e, opts, solver));
                    }
                })
                .is_ok() as usize;
        }
        drop(tx);
        if started == 0 {
            anyhow::bail!("cannot start a solving thread");
        }
        let mut waiting = BTreeMap::new();
        let mut next = 1;
        for r in rx {
            waiting.insert(r.index, r);
            while let Some(r) = waiting.remove(&next) {
                each(&r);
                next += 1;
            }
        }
        Ok(())
    })?;
    match lock(&failed).take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// A lock's contents, even if a solve panicked while holding it (what it
/// guards is still valid then).
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

/// Runs `mollett solve`: solves every position of the OBF file and prints a
/// report per position and a summary (JSON lines with `--json`); `Ok(false)`
/// when a score disagrees with the file.
pub fn run_solve(args: SolveArgs) -> Result<bool> {
    let opts = SolveOptions {
        wld: args.wld,
        threads: args.threads.into(),
        jobs: args.jobs.into(),
        hash_mb: args.hash,
        variant: args.variant,
        all_moves: args.all_moves,
        progress: args.verbose || std::io::stderr().is_terminal(),
    };
    solve_file(&args.file, opts, args.json)
}

/// Solves every position of the OBF file `file` and prints a report per
/// position and a summary (JSON lines if `json`); `Ok(false)` when a score
/// disagrees with the file.
fn solve_file(file: &std::path::Path, opts: SolveOptions, json: bool) -> Result<bool> {
    // Streamed: each line is read when a solver is free for it.
    let mut entries: Box<dyn Iterator<Item = Result<ObfEntry>> + Send> =
        match position_argument(file, opts.variant) {
            Some(entry) => Box::new(std::iter::once(Ok(entry?))),
            None => Box::new(obf_entries(file)?.map(|item| item.map(|(_, entry)| entry))),
        };
    let progress = std::io::stderr().is_terminal();
    let obf = opts.all_moves && !json;
    if !json && !obf {
        say!("{}", REPORT_HEADER);
    }
    let summary = solve_all(&mut entries, &opts, &mut |r| {
        if progress {
            eprint!("\r\x1b[K");
        }
        match &r.obf {
            _ if json => say!("{}", serde_json::to_string(r).expect("reports serialise")),
            Some(line) if obf => say!("{line}"),
            _ => say!("{}", format_report(r)),
        }
        if progress {
            eprint!("solving position {}", r.index + 1);
            let _ = std::io::stderr().flush();
        }
    });
    if progress {
        eprint!("\r\x1b[K");
    }
    let summary = summary?;
    if json {
        say!("{}", serde_json::to_string(&summary)?);
    } else {
        // In an OBF file the totals are a comment.
        say!(
            "{}positions {}, nodes {}, seconds {:.3}, nodes/s {:.0}, disagreements {}",
            if obf { "% " } else { "" },
            summary.positions,
            summary.nodes,
            summary.seconds,
            summary.nodes_per_second,
            summary.disagreements
        );
    }
    Ok(summary.disagreements == 0)
}

/// The one position `arg` gives when it names no file (nor `-`): an OBF line,
/// or a transcript from the variant's start; an error naming both readings
/// when it is neither; `None` for a file.
fn position_argument(arg: &std::path::Path, variant: Variant) -> Option<Result<ObfEntry>> {
    if arg == std::path::Path::new("-") || std::fs::symlink_metadata(arg).is_ok() {
        return None;
    }
    let text = arg.to_string_lossy();
    if let Ok(entry) = crate::format::parse_obf_line(&text) {
        return Some(Ok(entry));
    }
    Some(
        crate::tools::perft::parse_position_under(&text, variant)
            .map(|position| ObfEntry {
                position,
                scores: Vec::new(),
            })
            .map_err(|e| anyhow::anyhow!("{text}: no such file, and {e:#}")),
    )
}
