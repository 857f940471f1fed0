//! Mollett: a Reversi/Othello engine.
//!
//! The library holds everything; `main.rs` only parses the command line. Modules
//! follow the phases of the engine: [`board`] (bitboards and rules), [`format`](mod@format)
//! (notation and file formats) and [`perft`] (move-generator verification).

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod board;
pub mod format;
pub mod game;
pub mod perft;
pub mod rng;

pub use board::{Board, Color, IllegalMove, Move, Position, Square};
