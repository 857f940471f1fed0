//! The `perft` subcommand: leaf counts from a position under a rule set, one
//! line per depth with its time and speed.

use crate::Position;
use crate::format;
use crate::rules::{self, Variant, VariantPosition};
use anyhow::{Context, Result};
use std::time::Instant;

/// A position under `variant`: a board string, or a transcript from the
/// variant's start.
pub fn parse_variant_position(text: &str, variant: Variant) -> Result<VariantPosition> {
    let (board, left) = match variant {
        Variant::Reversi => rules::split_discs_left(text),
        _ => (text, None),
    };
    match board.parse::<Position>() {
        Ok(p) if variant == Variant::Reversi => VariantPosition::reversi(p, left)
            .with_context(|| format!("'{text}' is not a position of historical reversi")),
        Ok(p) => Ok(VariantPosition::othello_like(variant, p)),
        Err(board_err) => format::parse_transcript(variant.start(), text)
            .map(|g| g.variant_position())
            .map_err(|moves_err| {
                anyhow::anyhow!(
                    "'{text}' is neither a board string ({board_err}) nor a transcript ({moves_err})"
                )
            }),
    }
}

/// Prints the leaf counts of depths 1 to `depth` below `position` (the
/// variant's start if none) on `threads` worker threads (all if none).
pub fn run_perft(
    depth: u32,
    position: Option<String>,
    threads: Option<usize>,
    variant: Variant,
) -> Result<()> {
    let pos = match &position {
        Some(text) => parse_variant_position(text, variant)?,
        None => variant.start(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
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
