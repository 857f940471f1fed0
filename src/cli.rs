//! The command line: the loop's flags and the one-shot subcommands.

use clap::{Parser, Subcommand};
use mollett::protocol::Dialect;
use mollett::search::Level;
use mollett::variant::Variant;

/// Mollett, a Reversi/Othello engine.
#[derive(Parser, Debug)]
#[command(name = "mollett", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The engine loop's settings (with no subcommand).
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Flags of the engine loop, which runs when no subcommand is given.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Speak only this protocol: console, nboard or gtp (default: console until
    /// an NBoard or GTP command selects that protocol).
    #[arg(long, value_name = "PROTOCOL")]
    pub protocol: Option<Dialect>,
    /// Playing level: 1..60, easy, medium or hard (default 21).
    #[arg(long)]
    pub level: Option<Level>,
    /// Search threads (default: all logical CPUs).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Seed for the tie-breaks between equal moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Solve exactly at this many empties or fewer, whatever the level.
    #[arg(long, value_name = "EMPTIES")]
    pub exact_empties: Option<u32>,
    /// The rules: othello (default), reversi (historical: empty start, free
    /// centre placements, 32 discs each) or anti (the fewer discs win).
    #[arg(long, default_value = "othello")]
    pub variant: Variant,
    /// Test hook: the first search panics (checks that the loop survives it).
    #[arg(long, hide = true)]
    pub inject_panic: bool,
}

/// The one-shot subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count leaf positions to DEPTH, one line per depth: `depth nodes seconds nodes_per_second`
    /// (a pass is a ply; a finished game reached early is one leaf).
    Perft {
        /// Deepest depth to count; every depth from 1 is printed.
        depth: u32,
        /// Start position: a board string (64 squares then the side to move) or a
        /// transcript of moves from the start (e.g. f5d6c3); default: the start.
        #[arg(long, allow_hyphen_values = true)]
        position: Option<String>,
        /// Worker threads, 1..=1024 (default: all logical CPUs).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: Option<u16>,
        /// The rules: othello (default), reversi (historical: empty start, 32 discs
        /// each) or anti (the fewer discs win). For reversi a board string assumes
        /// no pass so far (Black has placed the larger half of the discs).
        #[arg(long, default_value = "othello")]
        variant: Variant,
    },
    /// Solve every position of an OBF file exactly and check the file's scores.
    Solve {
        /// The OBF file (one position per line, optionally with scored moves).
        file: std::path::PathBuf,
        /// Prove only win, loss or draw (faster).
        #[arg(long)]
        wld: bool,
        /// Search threads per position (lazy SMP sharing one table), 1..=1024.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: u16,
        /// Transposition table size per search, in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Print only JSON, one object per line, on stdout.
        #[arg(long)]
        json: bool,
        /// The rules: othello (default), reversi (each position assumed reached
        /// without a pass) or anti.
        #[arg(long, default_value = "othello")]
        variant: Variant,
    },
    /// Search a fixed list of positions at fixed depths and print the node-count
    /// signature (`Nodes searched: N`, the signature only with one thread).
    Bench {
        /// Search threads, 1..=1024; more than one times the same depths (time to
        /// depth), with node counts that vary from run to run.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: u16,
    },
}
