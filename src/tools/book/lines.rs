//! `mollett book lines`: random lines along a book's moves, seeded, one
//! transcript a line (`f5d6c3`, a forced pass written `PA`): openings for
//! `mollett match --openings`, or positions to check a book at.

use super::load_given;
use crate::board::Move;
use crate::book::Book;
use crate::rng::Rng;
use anyhow::{Result, bail};
use std::collections::HashSet;
use std::path::PathBuf;

/// How many draws per line asked for before giving up on finding distinct
/// lines long enough: a small book may not hold as many as asked.
const DRAWS_PER_LINE: usize = 100;

/// `mollett book lines`.
#[derive(clap::Args, Debug)]
pub struct LinesArgs {
    /// The book (default: the embedded one).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// How many distinct lines.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// The fewest plies of a line.
    #[arg(long, default_value_t = 0)]
    pub min_plies: usize,
    /// The most plies of a line; each line's length is drawn between the two.
    #[arg(long, default_value_t = 20)]
    pub max_plies: usize,
    /// Only moves within this many discs of the position's best (default:
    /// every move of the book).
    #[arg(long, value_parser = crate::tools::cli::parse_discs)]
    pub deviation: Option<f64>,
    /// The seed: the same seed and book, the same lines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `mollett book lines`.
pub fn run_lines(args: LinesArgs) -> Result<()> {
    if args.min_plies > args.max_plies || args.max_plies > 60 {
        bail!("--min-plies must be at most --max-plies, and that at most 60");
    }
    let book = load_given(args.book.as_deref())?;
    let margin = args.deviation.map(|d| (d * 100.0).round() as i32);
    let mut rng = Rng::new(args.seed);
    let mut seen = HashSet::new();
    let mut draws = 0;
    while seen.len() < args.count {
        draws += 1;
        if draws > args.count.saturating_mul(DRAWS_PER_LINE) {
            bail!(
                "the book holds only {} distinct lines of {} to {} plies found in {} draws",
                seen.len(),
                args.min_plies,
                args.max_plies,
                draws - 1
            );
        }
        let span = (args.max_plies - args.min_plies) as u64 + 1;
        let want = args.min_plies + rng.below(span) as usize;
        let line = walk(&book, want, margin, &mut rng);
        if line.len() < args.min_plies {
            continue;
        }
        let text: String = line.iter().map(ToString::to_string).collect();
        if seen.insert(text.clone()) {
            say!("{text}");
        }
    }
    Ok(())
}

/// A random line of up to `plies` moves along the book's moves (within
/// `margin` centi-discs of each position's best, when given), shorter where
/// it leaves the book.
pub fn walk(book: &Book, plies: usize, margin: Option<i32>, rng: &mut Rng) -> Vec<Move> {
    let mut pos = book.rules().start();
    let mut line = Vec::new();
    while line.len() < plies && !pos.is_game_over() {
        let mv = if pos.must_pass() {
            Move::Pass
        } else {
            let Some(hints) = book.hints(&pos) else { break };
            let best = i32::from(hints[0].score);
            let near: Vec<_> = hints
                .iter()
                .filter(|m| margin.is_none_or(|d| i32::from(m.score) >= best - d))
                .collect();
            Move::Play(near[rng.below(near.len() as u64) as usize].square)
        };
        pos = pos
            .play(mv)
            .expect("book hints and forced passes are legal");
        line.push(mv);
    }
    line
}
