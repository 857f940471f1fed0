//! The `mollett` binary: parses the command line and hands each subcommand to
//! its tool (`mollett::tools`); with no subcommand, the engine loop.

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches};
use mollett::tools::cli::{self, Cli, Command};
use mollett::tools::{accuracy, analyze, arena, bench, book, learn, perft, solve};

fn main() {
    let matches = Cli::command()
        .after_help(cli::console_commands_help())
        .get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match run(cli) {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        // A reader that stopped reading (`mollett unpack | head`) ends the
        // output, not in failure: as `cat` and `grep` do, say nothing.
        Err(e) if mollett::tools::out::is_broken_pipe(&e) => {}
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
    // Run-time learned files replace the embedded ones before anything evaluates.
    cli.knowledge.apply()?;
    if cli.command.as_ref().is_none_or(Command::needs_weights) {
        let regressions = cli.command.as_ref().is_none_or(Command::needs_regressions);
        mollett::knowledge::check_embedded(regressions).map_err(|e| {
            let hint = match (&cli.knowledge.eval_file, &cli.knowledge.regressions_file) {
                (Some(w), None) => format!(
                    "; with --eval-file, give --regressions-file fitted with those weights \
                     (mollett --eval-file {} probcut DATA --scores S --out R.mpc)",
                    w.display()
                ),
                _ => String::new(),
            };
            anyhow::anyhow!("{e}{hint}")
        })?;
    }
    let done = match cli.command {
        Some(Command::Perft(args)) => perft::run_perft(args),
        Some(Command::Solve(args)) => return solve::run_solve(args),
        Some(Command::Bench(args)) => bench::run_bench(args),
        Some(Command::Match(args)) => arena::command::run_match(args),
        Some(Command::Analyze(args)) => analyze::command::run_analyze(args),
        Some(Command::Accuracy(args)) => accuracy::run_accuracy(args),
        Some(Command::Datagen(args)) => learn::datagen::run(args),
        Some(Command::Relabel(args)) => learn::relabel::run(args),
        Some(Command::Train(args)) => learn::train::run(args),
        Some(Command::Pack(args)) => learn::pack::run_pack(args),
        Some(Command::Unpack(args)) => learn::pack::run_unpack(args),
        Some(Command::Probcut(args)) => learn::probcut_cli::run_probcut(args),
        Some(Command::Book(args)) => book::run_book(args),
        None => cli::run_engine(cli.engine),
    };
    done.map(|()| true)
}
