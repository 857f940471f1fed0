//! The `match` subcommand: flags to a match, results to a report.

use crate::input::{MAX_TEXT, read_text};
use crate::rules::Variant;
use crate::rules::game::Game;
use crate::tools::arena::adjudicate::{Adjudication, MAX_ADJUDICATION_EMPTIES};
use crate::tools::arena::games_file::{Existing, GamesFile, resumed_games};
use crate::tools::arena::json::json_report;
use crate::tools::arena::openings::{parse_openings, random_openings};
use crate::tools::arena::progress::Progress;
use crate::tools::arena::report::{
    format_forfeits, format_pair, format_standings, pair_summary, standings,
};
use crate::tools::arena::spec::{EntrantSpec, LimitFlags, Proto};
use crate::tools::arena::sprt::Sprt;
use crate::tools::arena::stats::Wdl;
use crate::tools::arena::{GameResult, MatchConfig, RunEnd, schedule, signals};
use anyhow::{Context, Result, bail};
use std::collections::HashSet;
use std::io::Write;

/// `mollett match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// An entrant, `NAME=COMMAND` (repeatable; two or more). COMMAND is a whole
    /// command line, split into words as a shell would; `{game}` in it becomes
    /// the game's number in the match (from 1), e.g. for a seed per game.
    #[arg(long = "engine", value_name = "NAME=COMMAND", required = true)]
    pub engines: Vec<String>,
    /// The protocol every entrant speaks: gtp or nboard (`--protocol` too, as
    /// the engine loop names it).
    #[arg(long, visible_alias = "protocol", default_value = "gtp")]
    pub proto: crate::tools::arena::spec::Proto,
    /// Openings file: one transcript per line, `#` comments (as the XOT lists).
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    pub openings: Option<std::path::PathBuf>,
    /// Number of seeded random openings, 1..=10000 (default: half the games,
    /// rounded up).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=10_000))]
    pub random_openings: Option<u16>,
    /// The rules every game is played and scored under: othello (default),
    /// reversi (historical: games start empty, openings begin with the four
    /// centre placements) or anti (the fewer discs win). GTP entrants are told
    /// it with `set_game`, NBoard entrants by the game record.
    #[arg(long, default_value = "othello")]
    pub variant: Variant,
    /// Plies of each random opening, 0..=59.
    #[arg(long, value_name = "K", default_value_t = 8, value_parser = clap::value_parser!(u8).range(0..=59))]
    pub opening_plies: u8,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games per pairing, 1..=10000 (default: two per opening, colours swapped).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=10_000))]
    pub games: Option<u16>,
    /// Depth sent to the engines (NBoard `set depth`), `D` or `NAME=D`; repeatable.
    #[arg(long, value_name = "[NAME=]D")]
    pub depth: Vec<String>,
    /// Seconds per move, `S` or `NAME=S`; repeatable.
    #[arg(long, value_name = "[NAME=]S")]
    pub move_time: Vec<String>,
    /// Game clock kept by the runner, `[[h:]m:]s[/increment[/grace]]` or
    /// `NAME=CLOCK`; repeatable. The grace is 0 unless given.
    #[arg(long, value_name = "[NAME=]CLOCK")]
    pub clock: Vec<String>,
    /// Games played at once, 1..=1024 (default: cores / threads per engine).
    /// `--concurrency` is the older name.
    #[arg(long, visible_alias = "concurrency", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    /// Search threads each engine uses, 1..=1024 (only sets the default
    /// concurrency).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads_per_engine: u16,
    /// Seconds to wait for an answer when no clock bounds it (above 0, at most
    /// a year).
    #[arg(long, default_value = "60")]
    pub hang_timeout: crate::format::Seconds,
    /// Append every game as GGF to this file as it ends, one record per line
    /// (an existing file that holds games needs --resume or --overwrite).
    #[arg(long, value_name = "FILE")]
    pub games_file: Option<std::path::PathBuf>,
    /// Empty an existing games file first.
    #[arg(long, requires = "games_file", conflicts_with = "resume")]
    pub overwrite: bool,
    /// Continue the match whose games are in the games file: its games count,
    /// and only the others are played.
    #[arg(long, requires = "games_file")]
    pub resume: bool,
    /// A line per finished game on stderr also when it is a terminal (it is
    /// always written when stderr is not a terminal).
    #[arg(long)]
    pub verbose: bool,
    /// Stop when a sequential probability ratio test decides the match (two
    /// entrants): `elo0=0,elo1=5[,alpha=0.05,beta=0.05]`, the first entrant's
    /// Elo advantage under H0 and H1; `--games` is then the most to play.
    #[arg(long, value_name = "elo0=E0,elo1=E1[,alpha=A,beta=B]")]
    pub sprt: Option<Sprt>,
    /// The report as one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// Adjudicate a game by an exact solve when the side to move has this
    /// many empties or fewer (1..=26).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_ADJUDICATION_EMPTIES)))]
    pub adjudicate_empties: Option<u32>,
    /// Adjudicate a win when both sides' evaluations (NBoard entrants give
    /// them) put the same side this many discs ahead over their last
    /// --adjudicate-moves moves.
    #[arg(long, value_name = "DISCS", value_parser = crate::tools::cli::parse_discs)]
    pub adjudicate_margin: Option<f64>,
    /// Each side's moves that --adjudicate-margin looks at, 1..=30.
    #[arg(long, value_name = "M", default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=30))]
    pub adjudicate_moves: u8,
    /// Log every line sent to and read from the entrants, per game, in
    /// DIR/game-N.log (appended to; DIR is made if missing).
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<std::path::PathBuf>,
}

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
        depth: args.depth.clone(),
        move_time: args.move_time.clone(),
        clock: args.clock.clone(),
    }
    .resolve(&names)?;
    let openings = openings(&args)?;
    let games = args.games.map_or(2 * openings.len(), usize::from);
    let concurrency = args.jobs.map_or_else(
        || (num_cpus::get() / usize::from(args.threads_per_engine)).max(1),
        usize::from,
    );
    if args.hang_timeout.is_zero() {
        bail!("--hang-timeout must be a positive number of seconds");
    }
    if args.sprt.is_some() && entrants.len() != 2 {
        bail!(
            "--sprt tests a match of two entrants, not {}",
            entrants.len()
        );
    }
    if args.adjudicate_margin.is_some() && args.proto == Proto::Gtp {
        bail!(
            "--adjudicate-margin needs evaluations, which GTP entrants do not give (use --proto nboard)"
        );
    }
    if let Some(dir) = &args.log_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("--log-dir {}", dir.display()))?;
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
        log_dir: args.log_dir.clone(),
        adjudication: Adjudication {
            empties: args.adjudicate_empties,
            margin: args.adjudicate_margin,
            moves: usize::from(args.adjudicate_moves),
        },
    };
    config.validate()?;
    let (mut games_file, mut results) = open_games_file(&args, &config)?;
    config.check_entrants()?;
    let total = schedule(names.len(), games, config.openings.len()).len();
    let done: HashSet<usize> = results.iter().map(|r| r.game.index).collect();
    let mut progress = Progress::new(total, &names, args.verbose);
    results.iter().for_each(|r| progress.resumed(r));
    // The test and the one pairing's W/D/L so far, under `--sprt`.
    let test_of = |results: &[GameResult]| args.sprt.map(|t| (t, pair_summary(results, 0, 1).wdl));
    let decided =
        |test: Option<(Sprt, Wdl)>| test.is_some_and(|(t, wdl)| t.verdict(t.llr(&wdl)).is_some());
    let mut write_error = None;
    let end = if decided(test_of(&results)) {
        RunEnd::Decided
    } else {
        config.run(&done, &interrupts, &mut |r| {
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
            results.push(r.clone());
            let test = test_of(&results);
            let line = test.map(|(t, wdl)| t.describe(&wdl));
            progress.game(r, line.as_deref());
            !decided(test)
        })?
    };
    progress.finish();
    results.sort_by_key(|r| r.game.index);
    let sprt = test_of(&results);
    if args.json {
        let report = json_report(&results, &names, games, sprt.as_ref(), end);
        println!("{report}");
    } else {
        print_report(&results, &names, games);
        if let Some((t, wdl)) = &sprt {
            println!("{}", t.describe(wdl));
        }
    }
    if end == RunEnd::Decided {
        eprintln!(
            "mollett: the test decided the match after {} of {total} games",
            results.len()
        );
    }
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

/// The openings of the match: the `--openings` file's, or seeded random ones.
fn openings(args: &MatchArgs) -> Result<Vec<Game>> {
    Ok(match &args.openings {
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
    })
}

/// The `--games-file`, open and locked, with the games it holds when resuming.
fn open_games_file(
    args: &MatchArgs,
    config: &MatchConfig,
) -> Result<(Option<GamesFile>, Vec<GameResult>)> {
    let existing = match (args.overwrite, args.resume) {
        (true, _) => Existing::Overwrite,
        (_, true) => Existing::Resume,
        _ => Existing::Refuse,
    };
    Ok(match &args.games_file {
        Some(path) => {
            let (mut file, text) = GamesFile::open(path, existing).map_err(anyhow::Error::msg)?;
            let done = resumed_games(&text, config)
                .map_err(|e| anyhow::anyhow!("cannot resume from {}: {e}", path.display()))?;
            file.drop_torn_line().map_err(anyhow::Error::msg)?;
            (Some(file), done)
        }
        None => (None, Vec::new()),
    })
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
