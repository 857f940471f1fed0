//! Lines to stdout for the one-shot subcommands. When the reader has gone (a
//! closed pipe, as in `mollett perft 11 | head -1`) the process ends quietly
//! with status 0, as the engine loop does; any other write error ends it with
//! a message and status 2.

use std::io::Write;

/// Writes `text` and a newline to stdout, flushed.
pub fn line(text: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("mollett: cannot write the output: {e}");
        std::process::exit(2);
    }
}

/// Whether `e` (or an error it wraps) is a write to a reader that has gone:
/// the end of the output, which [`line`] and the binary treat as success.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
