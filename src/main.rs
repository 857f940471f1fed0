//! The `mollett` binary: parses the command line and hands each subcommand to
//! its tool (`mollett::tools`); with no subcommand, the engine loop.

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches};
use mollett::tools::cli::{self, Cli, Command};
use mollett::tools::{accuracy, analyze, arena, bench, learn, perft, solve};

fn main() {
    let matches = Cli::command()
        .after_help(cli::console_commands_help())
        .get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match run(cli) {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("mollett: {e:#}");
            std::process::exit(2);
        }
    }
}

/// Runs a command; `Ok(false)` means it ran but found a failure (exit status 1).
fn run(cli: Cli) -> Result<bool> {
    // A damaged or mismatched weights file stops every command at start-up,
    // before it could evaluate anything with it; so do regressions fitted for
    // other weights, before a selective search could fall back to full width
    // (except in the commands that make new weights or their regressions).
    if cli.command.as_ref().is_none_or(Command::needs_weights) {
        let regressions = cli.command.as_ref().is_none_or(Command::needs_regressions);
        mollett::knowledge::check_embedded(regressions).map_err(anyhow::Error::msg)?;
    }
    match cli.command {
        Some(Command::Perft {
            depth,
            position,
            threads,
            variant,
        }) => perft::run_perft(depth, position, threads.map(usize::from), variant).map(|()| true),
        Some(Command::Solve {
            file,
            wld,
            threads,
            jobs,
            hash,
            json,
            variant,
        }) => solve::run_solve(
            &file,
            solve::SolveOptions {
                wld,
                threads: threads.into(),
                jobs: jobs.into(),
                hash_mb: hash,
                variant,
            },
            json,
        ),
        Some(Command::Bench {
            threads,
            level: Some(level),
        }) => bench::run_time_to_depth(level, threads.into()).map(|()| true),
        Some(Command::Bench {
            threads,
            level: None,
        }) => bench::run_bench(threads.into()).map(|()| true),
        Some(Command::Match(args)) => arena::command::run_match(args).map(|()| true),
        Some(Command::Analyze(args)) => analyze::command::run_analyze(args).map(|()| true),
        Some(Command::Accuracy(args)) => accuracy::run_accuracy(args).map(|()| true),
        Some(Command::Datagen(args)) => learn::cli::run_datagen(args).map(|()| true),
        Some(Command::Relabel(args)) => learn::cli::run_relabel(args).map(|()| true),
        Some(Command::Train(args)) => learn::cli::run_train(args).map(|()| true),
        Some(Command::Pack(args)) => learn::cli::run_pack(args).map(|()| true),
        Some(Command::Unpack(args)) => learn::cli::run_unpack(args).map(|()| true),
        Some(Command::Probcut(args)) => learn::probcut_cli::run_probcut(args).map(|()| true),
        None => cli::run_engine(cli.engine).map(|()| true),
    }
}
