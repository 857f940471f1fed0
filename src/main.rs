//! The `mollett` binary: command-line parsing only; the work is in the library.

use anyhow::Result;
use clap::{Parser, Subcommand};
use mollett::{Board, perft};
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
    /// Count leaf positions to DEPTH (a pass is a ply; a finished game is one leaf).
    Perft {
        /// Deepest depth to count; every depth from 1 is printed.
        depth: u32,
        /// Worker threads (default: all logical CPUs).
        #[arg(long)]
        threads: Option<usize>,
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, threads }) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads.unwrap_or(0))
                .build()?;
            for d in 1..=depth {
                let t = Instant::now();
                let n = pool.install(|| perft::perft_parallel(Board::START, d));
                let s = t.elapsed().as_secs_f64();
                println!("{d} {n} {s:.3} {:.0}", n as f64 / s.max(1e-9));
            }
        }
        None => {
            use clap::CommandFactory;
            Cli::command().print_help()?;
        }
    }
    Ok(())
}
