//! The `mollett` binary: command-line parsing only; the work is in the library.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use mollett::{Position, format, perft};
use std::time::Instant;

/// Mollett, a Reversi/Othello engine.
#[derive(Parser, Debug)]
#[command(name = "mollett", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count leaf positions to DEPTH, one line per depth: `depth nodes seconds nodes_per_second`
    /// (a pass is a ply; a finished game reached early is one leaf).
    Perft {
        /// Deepest depth to count; every depth from 1 is printed.
        depth: u32,
        /// Start position: a board string (64 squares then the side to move) or a
        /// transcript of moves from the start (e.g. f5d6c3); default: the start.
        #[arg(long, allow_hyphen_values = true)]
        position: Option<String>,
        /// Worker threads (default: all logical CPUs).
        #[arg(long)]
        threads: Option<usize>,
    },
}

/// A position given on the command line: a board string, or else a transcript.
fn parse_position(text: &str) -> Result<Position> {
    match text.parse::<Position>() {
        Ok(p) => Ok(p),
        Err(board_err) => format::parse_transcript(Position::START, text)
            .map(|g| g.position())
            .map_err(|moves_err| {
                anyhow::anyhow!(
                    "'{text}' is neither a board string ({board_err}) nor a transcript ({moves_err})"
                )
            }),
    }
}

fn run_perft(depth: u32, position: Option<String>, threads: Option<usize>) -> Result<()> {
    let pos = position
        .as_deref()
        .map_or(Ok(Position::START), parse_position)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .context("cannot start the worker threads")?;
    for d in 1..=depth {
        let t = Instant::now();
        let n = pool.install(|| perft::perft_parallel(pos.board, d));
        let s = t.elapsed().as_secs_f64();
        println!("{d} {n} {s:.3} {:.0}", n as f64 / s.max(1e-9));
    }
    Ok(())
}

fn main() {
    if let Err(e) = run(Cli::parse()) {
        eprintln!("mollett: {e:#}");
        std::process::exit(2);
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Some(Command::Perft {
            depth,
            position,
            threads,
        }) => run_perft(depth, position, threads),
        None => {
            use clap::CommandFactory;
            Cli::command().print_help()?;
            Ok(())
        }
    }
}
