//! Mollett: a Reversi/Othello engine.
//!
//! The library holds everything; `main.rs` only parses the command line. Modules
//! follow the phases of the engine: [`board`] (bitboards and rules), [`format`](mod@format)
//! (notation and file formats), [`game`] (a game record), [`knowledge`] (the
//! learned files: weights and Multi-ProbCut regressions, their formats and
//! embedding), [`eval`] (the evaluation),
//! [`tt`] (the transposition table), [`search`] (midgame search and exact solver) and
//! [`perft`] (move-generator verification); [`variant`] holds the rule variants
//! (historical Reversi, Anti-Reversi), the rule sets the one search runs under
//! and their perft; [`arena`]
//! runs engine-vs-engine matches and [`analyze`] reviews a game; [`input`] bounds
//! every file and stdin read.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod analyze;
pub mod arena;
pub mod bench;
pub mod board;
pub mod engine;
pub mod eval;
pub mod format;
pub mod game;
pub mod input;
pub mod knowledge;
pub mod learn;
pub mod perft;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod selfplay;
pub mod solve;
pub mod tt;
pub mod variant;

pub use board::{Board, Color, IllegalMove, Move, Position, Square};
