//! The `perft` subcommand: leaf counts from a position under a rule set, one
//! line per depth with its time and speed.

use crate::Position;
use crate::format;
use crate::rules::{self, Variant};
use anyhow::{Context, Result};
use std::time::Instant;

/// `mollett perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Deepest depth to count; every depth from 1 is printed.
    pub depth: u32,
    /// Start position: a board string (64 squares then the side to move) or a
    /// transcript of moves from the start (e.g. f5d6c3); default: the start.
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Worker threads, 1..=1024 (default: all logical CPUs).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// The rules: othello (default), reversi (historical: empty start, 32 discs
    /// each) or anti (the fewer discs win). For reversi a board string assumes
    /// no pass so far (Black has placed the larger half of the discs).
    #[arg(long, default_value = "othello")]
    pub variant: Variant,
}

/// A position under `variant`: a board string, or a transcript from the
/// variant's start.
pub fn parse_position_under(text: &str, variant: Variant) -> Result<Position> {
    let (board, left) = match variant {
        Variant::Reversi => rules::split_discs_left(text),
        _ => (text, None),
    };
    match board.parse::<Position>() {
        Ok(p) if variant == Variant::Reversi => p.reversi(left)
            .with_context(|| format!("'{text}' is not a position of historical reversi")),
        Ok(p) => Ok(p.othello_like(variant)),
        Err(board_err) => format::parse_transcript(variant.start(), text)
            .map(|g| g.position())
            .map_err(|moves_err| {
                anyhow::anyhow!(
                    "'{text}' is neither a board string ({board_err}) nor a transcript ({moves_err})"
                )
            }),
    }
}

/// Runs `mollett perft`: prints the leaf counts of depths 1 to `depth` below
/// `position` (the variant's start if none) on `threads` worker threads (all
/// if none).
pub fn run_perft(args: PerftArgs) -> Result<()> {
    let PerftArgs {
        depth,
        position,
        threads,
        variant,
    } = args;
    let pos = match &position {
        Some(text) => parse_position_under(text, variant)?,
        None => variant.start(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, usize::from))
        .build()
        .context("cannot start the worker threads")?;
    for d in 1..=depth {
        let t = Instant::now();
        let n = pool.install(|| rules::perft::perft_position(&pos, d));
        let s = t.elapsed().as_secs_f64();
        say!("{d} {n} {s:.3} {:.0}", n as f64 / s.max(1e-9));
    }
    Ok(())
}
