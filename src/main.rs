//! The `mollett` binary: command-line parsing only; the work is in the library.

/// `println!` for the subcommands' output: a closed pipe ends the process
/// quietly (see [`out::line`]).
macro_rules! say {
    ($($t:tt)*) => {
        $crate::out::line(format_args!($($t)*))
    };
}

mod cli;
mod learn_cli;
mod out;
mod probcut_cli;
mod tools;

use anyhow::{Context, Result};
use clap::{CommandFactory, FromArgMatches};
use cli::{Cli, Command, EngineArgs};
use mollett::engine::{DEFAULT_MOVE_TIME, MoveTime, Settings};
use mollett::protocol::{self, LoopOptions};
use mollett::variant::{Variant, VariantPosition};
use mollett::{Position, bench, format, solve, variant};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// A position under `variant`: a board string, or a transcript from the
/// variant's start.
fn parse_variant_position(text: &str, variant: Variant) -> Result<VariantPosition> {
    let (board, left) = match variant {
        Variant::Reversi => variant::split_discs_left(text),
        _ => (text, None),
    };
    match board.parse::<Position>() {
        Ok(p) if variant == Variant::Reversi => VariantPosition::reversi(p, left)
            .with_context(|| format!("'{text}' is not a position of historical reversi")),
        Ok(p) => Ok(VariantPosition::othello_like(variant, p)),
        Err(board_err) => format::parse_variant_transcript(variant.start(), text)
            .map(|(p, _)| p)
            .map_err(|moves_err| {
                anyhow::anyhow!(
                    "'{text}' is neither a board string ({board_err}) nor a transcript ({moves_err})"
                )
            }),
    }
}

fn run_perft(
    depth: u32,
    position: Option<String>,
    threads: Option<usize>,
    variant: Variant,
) -> Result<()> {
    let pos = match &position {
        Some(text) => parse_variant_position(text, variant)?,
        None => variant.start(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .context("cannot start the worker threads")?;
    for d in 1..=depth {
        let t = Instant::now();
        let n = pool.install(|| variant::perft::perft_position(&pos, d));
        let s = t.elapsed().as_secs_f64();
        say!("{d} {n} {s:.3} {:.0}", n as f64 / s.max(1e-9));
    }
    Ok(())
}

fn run_solve(file: &std::path::Path, opts: solve::SolveOptions, json: bool) -> Result<bool> {
    let name = file.display().to_string();
    let lines = mollett::input::BoundedLines::open(file, mollett::input::MAX_LINE)
        .with_context(|| format!("cannot read {name}"))?;
    // Streamed: each line is read when a solver is free for it.
    let mut entries = lines.filter_map(move |line| {
        let (n, text) = match line {
            Ok(l) => l,
            Err(e) => return Some(Err(anyhow::anyhow!("cannot read {name}: {e}"))),
        };
        let content = text.trim_start();
        if content.is_empty() || content.starts_with('%') {
            return None;
        }
        Some(
            format::parse_obf_line(&text)
                .map_err(|e| anyhow::Error::new(e.at_line(n)).context(format!("in {name}"))),
        )
    });
    let progress = std::io::stderr().is_terminal();
    if !json {
        say!("{}", solve::REPORT_HEADER);
    }
    let summary = solve::solve_all(&mut entries, &opts, &mut |r| {
        if progress {
            eprint!("\r\x1b[K");
        }
        if json {
            say!("{}", serde_json::to_string(r).expect("reports serialise"));
        } else {
            say!("{}", solve::format_report(r));
        }
        if progress {
            eprint!("solving position {}", r.index + 1);
            let _ = std::io::stderr().flush();
        }
    });
    if progress {
        eprint!("\r\x1b[K");
    }
    let summary = summary?;
    if json {
        say!("{}", serde_json::to_string(&summary)?);
    } else {
        say!(
            "positions {}, nodes {}, seconds {:.3}, nodes/s {:.0}, disagreements {}",
            summary.positions,
            summary.nodes,
            summary.seconds,
            summary.nodes_per_second,
            summary.disagreements
        );
    }
    Ok(summary.disagreements == 0)
}

fn run_bench(threads: usize) -> Result<()> {
    let lines = bench::run(threads, &mut |l| {
        say!(
            "position {:>2} depth {:>2} nodes {:>12} seconds {:.3}",
            l.index,
            l.depth,
            l.nodes,
            l.elapsed.as_secs_f64()
        );
    })?;
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let secs: f64 = lines.iter().map(|l| l.elapsed.as_secs_f64()).sum();
    say!("Nodes searched: {nodes}");
    say!("Seconds: {secs:.3}");
    say!("Nodes/second: {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(())
}

fn run_time_to_depth(level: mollett::search::Level, threads: usize) -> Result<()> {
    let (mut nodes, mut secs) = (0u64, 0.0f64);
    bench::time_to_depth(level, threads, &mut |l| {
        let what = match l.kind {
            mollett::search::ScoreKind::Midgame(d) => format!("depth {d:>2}"),
            mollett::search::ScoreKind::Exact => "exact   ".to_string(),
            mollett::search::ScoreKind::WinLossDraw => "wld     ".to_string(),
        };
        if l.last {
            nodes += l.nodes;
            secs += l.elapsed.as_secs_f64();
            say!(
                "position {:>2} done {what} nodes {:>12} seconds {:.3}",
                l.index,
                l.nodes,
                l.elapsed.as_secs_f64()
            );
        } else {
            say!(
                "position {:>2} {what} nodes {:>12} seconds {:.3}",
                l.index,
                l.nodes,
                l.elapsed.as_secs_f64()
            );
        }
    })?;
    say!("Level {level}, {threads} thread(s): nodes {nodes}, seconds {secs:.3}");
    Ok(())
}

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

/// The engine loop on stdin and stdout, with the flags' settings.
fn run_loop(args: EngineArgs) -> Result<()> {
    let defaults = Settings::default();
    let mut level = args.level.unwrap_or(defaults.level);
    if let Some(eval) = args.eval {
        level.eval = eval;
    }
    if let Some(selectivity) = args.selectivity {
        level.limits.selectivity = selectivity;
    }
    let settings = Settings {
        level,
        threads: args.threads.unwrap_or(defaults.threads),
        hash_mb: args.hash,
        seed: args.seed,
        exact_empties: args.exact_empties,
        contempt: 0,
        variant: args.variant,
        move_time: match (args.move_time, args.level) {
            (Some(s), _) => MoveTime::Given(Duration::from_secs_f64(s)),
            (None, None) => MoveTime::Default(DEFAULT_MOVE_TIME),
            (None, Some(_)) => MoveTime::Off,
        },
    };
    protocol::run(LoopOptions {
        protocol: args.protocol,
        settings,
        inject_panic: args.inject_panic,
        verbose: args.verbose,
    })?;
    Ok(())
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
        }) => run_perft(depth, position, threads.map(usize::from), variant).map(|()| true),
        Some(Command::Solve {
            file,
            wld,
            threads,
            jobs,
            hash,
            json,
            variant,
        }) => run_solve(
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
        }) => run_time_to_depth(level, threads.into()).map(|()| true),
        Some(Command::Bench {
            threads,
            level: None,
        }) => run_bench(threads.into()).map(|()| true),
        Some(Command::Match(args)) => tools::run_match(args).map(|()| true),
        Some(Command::Analyze(args)) => tools::run_analyze(args).map(|()| true),
        Some(Command::Datagen(args)) => learn_cli::run_datagen(args).map(|()| true),
        Some(Command::Relabel(args)) => learn_cli::run_relabel(args).map(|()| true),
        Some(Command::Train(args)) => learn_cli::run_train(args).map(|()| true),
        Some(Command::Pack(args)) => learn_cli::run_pack(args).map(|()| true),
        Some(Command::Unpack(args)) => learn_cli::run_unpack(args).map(|()| true),
        Some(Command::Probcut(args)) => probcut_cli::run_probcut(args).map(|()| true),
        None => run_loop(cli.engine).map(|()| true),
    }
}
