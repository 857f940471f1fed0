//! The command line: the loop's flags and the one-shot subcommands.

use crate::engine::{DEFAULT_MOVE_TIME, LevelOverrides, MoveTime, Settings};
use crate::protocol::Dialect;
use crate::protocol::{self, LoopOptions};
use crate::rules::Variant;
use crate::search::Level;
use anyhow::Result;
use clap::{Parser, Subcommand};
use std::time::Duration;

/// Mollett, a Reversi/Othello engine. With no subcommand it starts the engine
/// loop on stdin and stdout: a console for people and scripts (its commands are
/// listed below; type help), which speaks NBoard or GTP instead when a line
/// only they send arrives (or as --protocol says).
#[derive(Parser, Debug)]
#[command(name = "mollett", version)]
pub struct Cli {
    /// The subcommand to run; none starts the engine loop.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The engine loop's settings (with no subcommand).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// The learned files to use instead of the embedded ones.
    #[command(flatten)]
    pub knowledge: KnowledgeArgs,
}

/// Learned files given at run time, for the engine loop and every subcommand.
#[derive(clap::Args, Debug, Default)]
pub struct KnowledgeArgs {
    /// A weights file (`.mlw`, as `train` writes) to evaluate with instead of the
    /// embedded weights of the rules it was fitted for; the shipped files stay as
    /// they are. Searches need regressions fitted with it (`--regressions-file`).
    #[arg(long, value_name = "FILE", global = true)]
    pub eval_file: Option<std::path::PathBuf>,
    /// A Multi-ProbCut regression file (`.mpc`, as `probcut` writes) to use
    /// instead of the embedded one of the rules whose weights in use it was
    /// fitted with (`mollett --eval-file W.mlw probcut ... --out R.mpc` makes it).
    #[arg(long, value_name = "FILE", global = true)]
    pub regressions_file: Option<std::path::PathBuf>,
}

/// The most bytes read of a `--eval-file`: twice the ~20 MB a weights file may
/// grow to (issue 41), so a wrong file (`/dev/zero`) is refused, never read whole.
pub const EVAL_FILE_LIMIT: u64 = 40 << 20;

/// The most bytes read of a `--regressions-file` (the shipped ones are 2.6 KB).
pub const REGRESSIONS_FILE_LIMIT: u64 = 1 << 20;

impl KnowledgeArgs {
    /// Reads the files given and uses them in place of the embedded ones
    /// ([`crate::knowledge::use_files`]); errors name the file. Nothing to do
    /// when none is given.
    pub fn apply(&self) -> Result<()> {
        use anyhow::Context as _;
        if self.eval_file.is_none() && self.regressions_file.is_none() {
            return Ok(());
        }
        let weights = match &self.eval_file {
            Some(path) => Some(
                crate::input::read_regular_file_bytes(path, EVAL_FILE_LIMIT)
                    .with_context(|| format!("--eval-file {}", path.display()))?,
            ),
            None => None,
        };
        let regressions = match &self.regressions_file {
            Some(path) => Some(
                crate::input::read_regular_file(path, REGRESSIONS_FILE_LIMIT)
                    .with_context(|| format!("--regressions-file {}", path.display()))?,
            ),
            None => None,
        };
        let weights_name = self.eval_file.as_ref().map(|p| p.display().to_string());
        crate::knowledge::use_files(weights, regressions).map_err(|e| {
            let file = match (&weights_name, &self.regressions_file) {
                (Some(w), _) if e.starts_with("weights file") => format!("--eval-file {w}"),
                (_, Some(r)) => format!("--regressions-file {}", r.display()),
                (Some(w), None) => format!("--eval-file {w}"),
                (None, None) => unreachable!("checked above"),
            };
            anyhow::anyhow!("{file}: {e}")
        })
    }
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
    /// Seconds per move at most, in every dialect (a game clock, when known,
    /// can only shorten it). Default: 5 when no --level is given, else none.
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub move_time: Option<f64>,
    /// Console: print a progress line per completed depth even through a pipe.
    #[arg(long)]
    pub verbose: bool,
    /// Search threads (default: all logical CPUs).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Seed for the tie-breaks between equal moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The leaf evaluation: learned, mobility (hand-written) or discs (default: the level's).
    #[arg(long)]
    pub eval: Option<crate::eval::EvalKind>,
    /// The midgame search's selectivity, 73, 87, 95, 98, 99 or 100 (full
    /// width), whatever the level (default: the level's).
    #[arg(long, value_name = "PERCENT")]
    pub selectivity: Option<crate::search::Selectivity>,
    /// Solve exactly at this many empties or fewer, whatever the level.
    #[arg(long, value_name = "EMPTIES")]
    pub exact_empties: Option<u32>,
    /// The rules: othello (default), reversi (historical: empty start, free
    /// centre placements, 32 discs each) or anti (the fewer discs win).
    #[arg(long, default_value = "othello")]
    pub variant: Variant,
    /// The opening book: a `.mlb` file (as `mollett book build` writes) or
    /// `off` (default: the book built into the binary).
    #[arg(long, value_name = "FILE|off")]
    pub book: Option<String>,
    /// Play any book move within this many discs of the best, drawn by the
    /// seed (default 0: the best, ties drawn by the seed).
    #[arg(long, value_name = "DISCS", default_value_t = 0.0, value_parser = parse_discs)]
    pub book_randomness: f64,
    /// Test hook: the first search panics (checks that the loop survives it).
    #[arg(long, hide = true)]
    pub inject_panic: bool,
}

/// The one-shot subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count leaf positions to DEPTH, one line per depth: `depth nodes seconds nodes_per_second`
    /// (a pass is a ply; a finished game reached early is one leaf).
    Perft(crate::tools::perft::PerftArgs),
    /// Solve every position of an OBF file exactly and check the file's scores.
    Solve(crate::tools::solve::SolveArgs),
    /// Search a fixed list of positions at fixed depths and print the node-count
    /// signature (`Nodes searched: N`, the signature only with one thread).
    Bench(crate::tools::bench::BenchArgs),
    /// Play engines against each other over GTP or NBoard: a match of two, or a
    /// round-robin tournament of three or more.
    Match(crate::tools::arena::command::MatchArgs),
    /// Review a game: for every move, the best move, both evaluations, the loss
    /// in discs and a mark for mistakes.
    Analyze(crate::tools::analyze::command::AnalyzeArgs),
    /// Measure scores and moves against exact ones: search every position of
    /// an OBF file that scores each legal move and report the errors, overall
    /// and by empties; or, with `--games`, the odd/even consistency of the
    /// scores along games.
    Accuracy(crate::tools::accuracy::AccuracyArgs),
    /// Generate training positions from self-play, labelled by exact solves and
    /// game results (shardable, resumable).
    Datagen(crate::tools::learn::datagen::DatagenArgs),
    /// Label `datagen` positions with midgame search scores instead of game
    /// results (shardable, resumable).
    Relabel(crate::tools::learn::relabel::RelabelArgs),
    /// Fit the learned evaluation's weights to `datagen` files.
    Train(crate::tools::learn::train::TrainArgs),
    /// Pack training files into one game per line (for keeping; `.gz` compresses).
    Pack(crate::tools::learn::pack::PackArgs),
    /// Unpack a packed training file into position lines.
    Unpack(crate::tools::learn::pack::UnpackArgs),
    /// Fit the Multi-ProbCut regressions: search `datagen` positions at every
    /// depth (resumable), fit deep against shallow scores per depth and phase.
    Probcut(crate::tools::learn::probcut_cli::ProbCutArgs),
    /// Opening books: build, learn games, merge, show a position's book moves,
    /// stats.
    Book(crate::tools::book::BookArgs),
}

impl Command {
    /// Whether the command must refuse to run when the shipped regressions were
    /// fitted for other weights than the shipped ones. `train` never searches,
    /// and `probcut` searches full width to fit the regressions that new
    /// weights need: both must run between changing the weights and refitting
    /// the regressions, or new weights could never get regressions of their own.
    pub fn needs_regressions(&self) -> bool {
        !matches!(
            self,
            Command::Train(_) | Command::Probcut(_) | Command::Pack(_) | Command::Unpack(_)
        )
    }

    /// Whether the command must refuse to run when the shipped weights do not
    /// fit this build's pattern layout. `train` never evaluates with them (a
    /// `--prior` file is checked on its own): after a change of the pattern set
    /// it is what fits the first weights file of the new layout.
    pub fn needs_weights(&self) -> bool {
        !matches!(
            self,
            Command::Train(_) | Command::Pack(_) | Command::Unpack(_)
        )
    }
}

/// A number of discs, 0 to 64.
pub fn parse_discs(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(d) if (0.0..=64.0).contains(&d) => Ok(d),
        _ => Err(format!("'{s}' is not a number of discs (0..64)")),
    }
}

/// The book `--book` names: a file, `off`, or by default the embedded one.
pub fn engine_book(given: Option<&str>) -> Result<Option<std::sync::Arc<crate::book::Book>>> {
    let book = match given {
        Some(off) if off.eq_ignore_ascii_case("off") => return Ok(None),
        Some(path) => crate::tools::book::load(std::path::Path::new(path))
            .map_err(|e| anyhow::anyhow!("--book: {e:#}"))?,
        None => crate::book::file::parse(crate::book::EMBEDDED)
            .map_err(|e| anyhow::anyhow!("the embedded {e}"))?,
    };
    Ok(Some(std::sync::Arc::new(book)))
}

/// A positive, finite number of seconds.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() && t <= 1e6 => Ok(t),
        _ => Err(format!("'{s}' is not a number of seconds (above 0)")),
    }
}

/// The text after `--help`: the console's commands, from its command table.
pub fn console_commands_help() -> String {
    let lines = crate::protocol::console::help(None).unwrap_or_default();
    format!(
        "Console commands (the engine loop's default dialect):\n  {}",
        lines.join("\n  ")
    )
}

/// The engine loop on stdin and stdout, with the flags' settings.
pub fn run_engine(args: EngineArgs) -> Result<()> {
    let defaults = Settings::default();
    let settings = Settings {
        level: args.level.unwrap_or(defaults.level),
        overrides: LevelOverrides {
            eval: args.eval,
            selectivity: args.selectivity,
        },
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
        book_randomness: (args.book_randomness * 100.0).round() as u32,
        use_book: true,
    };
    let book = engine_book(args.book.as_deref())?;
    protocol::run(LoopOptions {
        protocol: args.protocol,
        settings,
        inject_panic: args.inject_panic,
        verbose: args.verbose,
        book,
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn command(args: &[&str]) -> Command {
        let cli = Cli::try_parse_from(std::iter::once("mollett").chain(args.iter().copied()))
            .expect("the arguments parse");
        cli.command.expect("a subcommand")
    }

    #[test]
    fn only_train_and_probcut_run_with_regressions_of_other_weights() {
        assert!(!command(&["train", "a.txt", "--out", "w.mlw"]).needs_regressions());
        assert!(
            !command(&["probcut", "a.txt", "--scores", "s.txt", "--out", "o.mpc"])
                .needs_regressions()
        );
        assert!(command(&["solve", "a.obf"]).needs_regressions());
        assert!(command(&["relabel", "a.txt", "--out", "b.txt"]).needs_regressions());
        assert!(command(&["datagen", "--games", "1", "--out", "b.txt"]).needs_regressions());
    }

    #[test]
    fn only_train_runs_with_weights_of_another_pattern_layout() {
        assert!(!command(&["train", "a.txt", "--out", "w.mlw"]).needs_weights());
        for args in [
            &["probcut", "a.txt", "--scores", "s.txt", "--out", "o.mpc"][..],
            &["solve", "a.obf"],
            &["relabel", "a.txt", "--out", "b.txt"],
            &["datagen", "--games", "1", "--out", "b.txt"],
        ] {
            assert!(command(args).needs_weights(), "{args:?}");
        }
    }
}
