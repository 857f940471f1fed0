//! What the learning tools' commands share: the rule sets that have weights of
//! their own, the command line a file notes, the worker pool and the progress bar.

use crate::rules::Variant;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// Parses a variant that has weights of its own: othello or anti.
pub(crate) fn parse_rules(s: &str) -> Result<Variant, String> {
    match s.parse::<Variant>().map_err(|e| e.to_string())? {
        Variant::Reversi => {
            Err("historical Reversi shares Othello's weights: generate or fit othello data".into())
        }
        rules => Ok(rules),
    }
}

/// The command as it was typed, named `mollett` whatever the binary's path:
/// the note a weights or regressions file keeps of how it was made, so the
/// same command from the same directory writes the same file, bit for bit.
pub(crate) fn command_line() -> String {
    std::iter::once("mollett".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A pool of `threads` workers (default: one per logical CPU).
pub(crate) fn pool(threads: Option<u16>) -> anyhow::Result<rayon::ThreadPool> {
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, usize::from))
        .build()?)
}

/// A progress bar on a terminal, nothing elsewhere.
pub(crate) fn bar(total: u64, what: &str) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let b = ProgressBar::new(total);
        b.set_style(
            ProgressStyle::with_template(&format!("{what} {{bar:40}} {{pos}}/{{len}} {{eta}}"))
                .expect("a valid template"),
        );
        b
    })
}
