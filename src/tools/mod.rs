//! The tools: every subcommand of the `mollett` binary, on a floor above the
//! engine core. Each tool owns its command-line flags, its `run` and its logic,
//! and uses the core as any user of the library would; nothing in the core
//! imports this module (`.ci/run` checks it).
//!
//! - [`arena`]: engine-against-engine matches and tournaments (`match`).
//! - [`analyze`]: a game reviewed move by move (`analyze`).
//! - [`accuracy`]: scores and moves against exact ones on an OBF file, and
//!   the odd/even consistency of scores along games (`accuracy`).
//! - [`solve`]: exact solves of OBF files (`solve`).
//! - [`bench`]: the fixed bench and its signature, and time to depth (`bench`).
//! - [`perft`]: leaf counts (`perft`).
//! - [`book`]: opening books: build, learn, merge, show, stats (`book`).
//! - [`learn`]: training data, its packing, the fit of the learned weights and
//!   of the Multi-ProbCut regressions (`datagen`, `relabel`, `pack`, `unpack`,
//!   `train`, `probcut`).
//! - [`selfplay`]: whole games between two in-process players.
//! - [`resume`]: the append-only files that jobs continue after an interrupt.
//! - [`cli`]: the command line and the engine loop's flags; [`out`]: the
//!   subcommands' standard output.

/// `println!` for the subcommands' output: a closed pipe ends the process
/// quietly (see [`out::line`]).
macro_rules! say {
    ($($t:tt)*) => {
        $crate::tools::out::line(format_args!($($t)*))
    };
}

pub mod accuracy;
pub mod analyze;
pub mod arena;
pub mod bench;
pub mod book;
pub mod cli;
pub mod learn;
pub mod obf_lines;
pub mod out;
pub mod perft;
pub mod resume;
pub mod selfplay;
pub mod solve;
