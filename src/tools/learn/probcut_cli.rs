//! The `probcut` subcommand: searches positions of `datagen` files at every
//! depth (resumable, one line per position as it finishes), then fits the
//! Multi-ProbCut regressions and writes them, for Othello (historical Reversi
//! shares them) or Anti-Reversi.

use crate::knowledge::mpc::MAGIC;
use crate::knowledge::{fnv1a, weights};
use crate::rules::Position;
use crate::rules::Variant;
use crate::rules::with_rules;
use crate::search::RuleSearch;
use crate::tools::learn::probcut::{
    DepthScores, depth_scores, fit, pick_positions, reaches, static_score,
};
use crate::tools::learn::train::read_samples_of;
use crate::tools::resume::{AppendOnly, complete_len};
use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

/// `mollett probcut`.
#[derive(clap::Args, Debug)]
pub struct ProbCutArgs {
    /// Training files written by `datagen`: the positions to search (of the
    /// rules of `--variant`).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The rules the positions are searched under, with that variant's learned
    /// weights: othello, or anti (Anti-Reversi; its data lines and scores lines
    /// end in `anti`). Historical Reversi shares Othello's weights and regressions.
    #[arg(long, default_value = "othello", value_parser = crate::tools::learn::cli::parse_rules)]
    pub variant: Variant,
    /// The scores file: one line per searched position, continued if it
    /// exists (positions it holds beyond those picked are left out of the fit).
    #[arg(long, value_name = "FILE")]
    pub scores: PathBuf,
    /// The regression file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Positions per phase (8 empties each, 12 to 59).
    #[arg(long, default_value_t = 150)]
    pub per_phase: usize,
    /// The deepest search of each position (full width, the variant's learned
    /// evaluation).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(3..=30))]
    pub max_depth: u32,
    /// Seed of the choice of positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Positions searched at once (default: all logical CPUs); the output does
    /// not depend on it. `--threads` is the older name.
    #[arg(long, visible_alias = "threads", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
}

/// The scores file's lines, after cutting a torn last line (an interrupt in
/// the middle of a write) so that appending goes on cleanly; a line of other
/// rules than `rules` is an error (and the file is left as it was).
fn read_scores(file: &mut AppendOnly, rules: Variant) -> Result<Vec<DepthScores>> {
    let path = file.path().to_path_buf();
    let text = file
        .read_with(|r| crate::input::read_text(r, SCORES_FILE_LIMIT))
        .with_context(|| format!("cannot read {}", path.display()))?;
    let whole = complete_len(&text);
    let scores = text[..whole]
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let d = DepthScores::parse(l)
                .map_err(|e| anyhow::anyhow!("{}: line {}: {e}", path.display(), i + 1))?;
            anyhow::ensure!(
                d.rules == rules,
                "{}: line {}: searched under {} rules, where {} is asked for",
                path.display(),
                i + 1,
                d.rules.name(),
                rules.name()
            );
            Ok(d)
        })
        .collect::<Result<Vec<_>>>()?;
    if whole < text.len() {
        file.cut(whole as u64)?;
    }
    Ok(scores)
}

/// Searches `todo` at every depth under the rules `R` (the job's), appending
/// a line per position to `out` as it finishes.
fn search_positions<R: RuleSearch>(
    todo: &[Position],
    args: &ProbCutArgs,
    out: &Mutex<AppendOnly>,
) -> Result<()> {
    let progress = crate::tools::learn::cli::bar(todo.len() as u64, "positions");
    let stop = AtomicBool::new(false);
    let pool = crate::tools::learn::cli::pool(args.jobs)?;
    pool.install(|| {
        todo.par_iter().try_for_each(|&p| -> Result<()> {
            if let Some(d) = depth_scores::<R>(p, args.max_depth, &stop)? {
                let line = format!("{}\n", d.line());
                out.lock().expect("no writer panics").append(&line)?;
            }
            if let Some(b) = &progress {
                b.inc(1);
            }
            Ok(())
        })
    })?;
    if let Some(b) = progress {
        b.finish_and_clear();
    }
    Ok(())
}

/// The largest `--scores` file read: a line per searched position (about 100
/// bytes), so 256 MiB is over two million positions, 400 times the shipped
/// regressions' 480 at `--per-phase 80`.
pub const SCORES_FILE_LIMIT: u64 = 256 << 20;

/// Runs `mollett probcut`.
pub fn run_probcut(args: ProbCutArgs) -> Result<()> {
    let is_regressions = |p: &std::path::Path| {
        crate::input::read_regular_file(p, crate::tools::cli::REGRESSIONS_FILE_LIMIT)
            .is_ok_and(|t| t.starts_with(MAGIC))
    };
    if args.out.exists() && !is_regressions(&args.out) {
        bail!(
            "{} exists and is not a regression file: not overwritten",
            args.out.display()
        );
    }
    let samples = read_samples_of(&args.data, args.variant)?;
    let positions = pick_positions(&samples, args.per_phase, args.seed);
    let picked: HashSet<String> = positions
        .iter()
        .map(crate::format::write_board_string)
        .collect();
    let mut scores = AppendOnly::open(&args.scores)
        .with_context(|| format!("cannot open {}", args.scores.display()))?;
    scores
        .lock()
        .with_context(|| format!("{}", args.scores.display()))?;
    let held = read_scores(&mut scores, args.variant)?;
    // Depth 0 is the evaluation: a line whose evaluation is not the weights in
    // use was searched with other weights, and its scores fit nothing here.
    let other = with_rules!(args.variant, R => held
        .iter()
        .find(|d| d.scores.first() != Some(&static_score::<R>(d.position))));
    if let Some(d) = other {
        bail!(
            "{}: the scores of {} were searched with other weights than those in use; \
             give a new --scores file",
            args.scores.display(),
            crate::format::write_board_string(&d.position)
        );
    }
    // A line searched less deep than this run asks (a run to a smaller
    // --max-depth) is searched again; the fit takes the deep line.
    let done: HashSet<String> = held
        .iter()
        .filter(|d| reaches(d, args.max_depth))
        .map(|d| crate::format::write_board_string(&d.position))
        .collect();
    let todo: Vec<_> = positions
        .into_iter()
        .filter(|p| !done.contains(&crate::format::write_board_string(p)))
        .collect();
    eprintln!(
        "probcut: {} positions searched before, {} to search to depth {}",
        done.len(),
        todo.len(),
        args.max_depth
    );
    let out = Mutex::new(scores);
    with_rules!(args.variant, R => search_positions::<R>(&todo, &args, &out))?;
    // The fit takes the positions this command picks, and only those (a
    // scores file may hold more, from a run with more per phase): the same
    // data, seed and count give the same file.
    let mut scores = out.into_inner().expect("no writer panics");
    let mut all = read_scores(&mut scores, args.variant)?;
    all.retain(|d| {
        reaches(d, args.max_depth)
            && picked.contains(&crate::format::write_board_string(&d.position))
    });
    let weights = fnv1a(weights(args.variant));
    let note = crate::tools::learn::cli::command_line();
    let file = fit(&all, weights, &note).map_err(|e| anyhow::anyhow!("{e}"))?;
    let text = file.write();
    eprintln!("probcut: depth, shallow depth, empties, a, b, sigma (centi-discs), positions:");
    for row in text.lines().filter(|l| l.starts_with("pair ")) {
        eprintln!("{row}");
    }
    let is_regressions = |head: &[u8]| head.starts_with(MAGIC.as_bytes());
    crate::input::write_whole_over_own(&args.out, text.as_bytes(), is_regressions)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "probcut: {} rows from {} positions written to {}",
        file.pairs.len(),
        all.len(),
        args.out.display()
    );
    Ok(())
}
