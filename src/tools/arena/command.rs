//! The `match` subcommand: flags to a match, results to a report.

use crate::input::{MAX_TEXT, read_text};
use crate::tools::arena::games_file::{Existing, GamesFile, resumed_games};
use crate::tools::arena::openings::{parse_openings, random_openings};
use crate::tools::arena::progress::Progress;
use crate::tools::arena::report::{
    format_forfeits, format_pair, format_standings, pair_summary, standings,
};
use crate::tools::arena::spec::{EntrantSpec, LimitFlags};
use crate::tools::arena::{GameResult, MatchConfig, RunEnd, schedule, signals};
use crate::tools::cli::MatchArgs;
use anyhow::{Context, Result, bail};
use std::collections::HashSet;
use std::io::Write;

/// Random openings when neither `--games` nor `--random-openings` says: 10, so
/// 20 games, enough for a first look and done in seconds at low levels.
const DEFAULT_RANDOM_OPENINGS: usize = 10;

/// Runs a match or tournament and prints its report.
pub fn run_match(args: MatchArgs) -> Result<()> {
    // From the start: a signal during the set-up still gets its (empty) report.
    let interrupts = signals::interrupts();
    let entrants = args
        .engines
        .iter()
        .map(|e| e.parse::<EntrantSpec>())
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let limits = LimitFlags {
        depth: args.depth,
        move_time: args.move_time,
        clock: args.clock,
    }
    .resolve(&names)?;
    let openings = match &args.openings {
        Some(file) => {
            let text = std::fs::File::open(file)
                .and_then(|f| read_text(f, MAX_TEXT))
                .with_context(|| format!("cannot read {}", file.display()))?;
            parse_openings(&text, args.variant)?
        }
        None => {
            let count = args.random_openings.map_or_else(
                || {
                    args.games
                        .map_or(DEFAULT_RANDOM_OPENINGS, |g| usize::from(g).div_ceil(2))
                },
                usize::from,
            );
            random_openings(count, args.opening_plies.into(), args.seed, args.variant)?
        }
    };
    let games = args.games.map_or(2 * openings.len(), usize::from);
    let concurrency = args.concurrency.map_or_else(
        || (num_cpus::get() / usize::from(args.threads_per_engine)).max(1),
        usize::from,
    );
    if args.hang_timeout.is_zero() {
        bail!("--hang-timeout must be a positive number of seconds");
    }
    let config = MatchConfig {
        entrants,
        limits,
        proto: args.proto,
        variant: args.variant,
        openings,
        games_per_pairing: games,
        concurrency,
        hang_timeout: args.hang_timeout,
    };
    config.validate()?;
    let existing = match (args.overwrite, args.resume) {
        (true, _) => Existing::Overwrite,
        (_, true) => Existing::Resume,
        _ => Existing::Refuse,
    };
    let (mut games_file, mut results) = match &args.games_file {
        Some(path) => {
            let (file, text) = GamesFile::open(path, existing).map_err(anyhow::Error::msg)?;
            let done = resumed_games(&text, &config)
                .map_err(|e| anyhow::anyhow!("cannot resume from {}: {e}", path.display()))?;
            (Some(file), done)
        }
        None => (None, Vec::new()),
    };
    config.check_entrants()?;
    let total = schedule(names.len(), games, config.openings.len()).len();
    let done: HashSet<usize> = results.iter().map(|r| r.game.index).collect();
    let mut progress = Progress::new(total, &names, args.verbose);
    results.iter().for_each(|r| progress.resumed(r));
    let mut write_error = None;
    let end = config.run(&done, &interrupts, &mut |r| {
        // Saved first: a signal or a kill right after loses nothing.
        if let Some(f) = games_file.as_mut()
            && write_error.is_none()
            && let Err(e) = f.append(&r.outcome.record)
        {
            eprintln!(
                "mollett: game {}: {e}; later games are not saved",
                r.game.index + 1
            );
            write_error = Some(e);
        }
        progress.game(r);
        results.push(r.clone());
    })?;
    progress.finish();
    results.sort_by_key(|r| r.game.index);
    print_report(&results, &names, games);
    if let RunEnd::Interrupted(sig) = end {
        let _ = std::io::stdout().flush();
        eprintln!(
            "mollett: interrupted by signal {sig} after {} of {total} games; the report covers \
             those{}",
            results.len(),
            if args.games_file.is_some() {
                " (--resume continues the match)"
            } else {
                ""
            }
        );
        std::process::exit(128 + sig);
    }
    match write_error {
        Some(e) => bail!("{e}"),
        None => Ok(()),
    }
}

/// The match's report on stdout: the pairings, the standings (three or more
/// entrants) and the forfeits.
fn print_report(results: &[GameResult], names: &[String], games: usize) {
    for a in 0..names.len() {
        for b in a + 1..names.len() {
            println!("{}", format_pair(&pair_summary(results, a, b), names));
        }
    }
    if names.len() >= 3 {
        println!();
        println!(
            "{}",
            format_standings(&standings(results, names.len(), games), names)
        );
    }
    let forfeits = format_forfeits(results, names);
    if !forfeits.is_empty() {
        println!();
        println!("games lost by default:");
        for f in forfeits {
            println!("  {f}");
        }
    }
}
