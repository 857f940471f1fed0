//! Mollett: a Reversi/Othello engine.
//!
//! Two floors. The engine core, from the ground up: [`board`] (bitboards, move
//! generation, stability), [`rules`] (the rule sets as types: Othello,
//! historical Reversi and Anti-Reversi, their positions, a game record and
//! perft), [`knowledge`] (the learned files: weights and Multi-ProbCut
//! regressions, their formats, embedding and start-up check), [`eval`] (the
//! evaluation), [`tt`] (the transposition table),
//! [`search`] (midgame search and exact solver), [`format`](mod@format)
//! (notation and file formats), [`engine`] (the facade the protocols drive) and
//! [`protocol`] (the console, NBoard and GTP loops), with [`input`] (bounded
//! reads) and [`rng`] beside them. Above it, [`tools`] holds every subcommand
//! (matches, analysis, solving, bench, perft, data generation and training);
//! the core never imports it. `main.rs` only hands the command line to a tool.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod board;
pub mod book;
pub mod engine;
pub mod eval;
pub mod format;
pub mod input;
pub mod knowledge;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod search;
pub mod tools;
pub mod tt;

pub use board::{Board, Color, IllegalMove, Move, Square};
pub use rules::Position;

/// The random-game positions the unit tests draw from (one fixture file with the
/// integration tests).
#[cfg(test)]
#[path = "../tests/common/positions.rs"]
mod test_positions;
#[cfg(test)]
use rng::Rng;
