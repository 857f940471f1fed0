//! The `datagen` and `train` subcommands: flags to requests, progress to stderr.

use crate::eval::EvalKind;
use crate::knowledge::layout::Form;
use crate::knowledge::mlw;
use crate::rules::Variant;
use crate::tools::arena::openings::parse_openings;
use crate::tools::learn::datagen::{DatagenRequest, Labels};
use crate::tools::learn::job::Shard;
use crate::tools::learn::pack;
use crate::tools::learn::relabel::{RelabelRequest, run_relabel as run_relabel_file};
use crate::tools::learn::train::{TrainRequest, train_files};
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;

/// `mollett datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Games in the whole job (over every shard).
    #[arg(long)]
    pub games: u64,
    /// The output file; one already holding games of this shard is continued.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Play only the games `g` with `g % n == i` (`i/n`), for a job spread over
    /// processes or machines; the shards' files concatenate.
    #[arg(long, default_value = "0/1")]
    pub shard: Shard,
    /// The job's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The rules the games are played and scored under: othello, or anti
    /// (Anti-Reversi, the fewer discs win; its lines end in `anti`). Historical
    /// Reversi shares Othello's weights and has no data of its own.
    #[arg(long, default_value = "othello", value_parser = parse_rules)]
    pub variant: Variant,
    /// Openings to start from, one transcript per line (as the XOT lists), used in
    /// turn; default: the start position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Random moves after the opening: `A..B` (a seeded count in that range).
    #[arg(long, default_value = "2..14", value_parser = parse_range)]
    pub random_moves: (u32, u32),
    /// Midgame search depth of both sides.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// The midgame search's selectivity, 73..100 (100: full width).
    #[arg(long, default_value = "100", value_name = "PERCENT")]
    pub selectivity: crate::search::Selectivity,
    /// The midgame positions' labels: `game` (the game's final result) or
    /// `search` (the score of the search of the position, as `relabel` gives;
    /// random moves' positions are searched too).
    #[arg(long, default_value = "game", value_parser = parse_labels)]
    pub labels: LabelsArg,
    /// From this many empties on every move is an exact solve (exact labels).
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub exact_empties: u32,
    /// Chance, per thousand midgame moves, of a random move instead of the search's.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub noise: u32,
    /// The evaluation both sides play with.
    #[arg(long, default_value = "mobility")]
    pub eval: EvalKind,
    /// Table size per game, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Games played at once (default: all logical CPUs); the output does not
    /// depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// The `--labels` of `datagen`.
#[derive(Clone, Copy, Debug)]
pub struct LabelsArg(Labels);

/// Parses `game` or `search`.
fn parse_labels(s: &str) -> Result<LabelsArg, String> {
    match s {
        "game" => Ok(LabelsArg(Labels::Game)),
        "search" => Ok(LabelsArg(Labels::Search)),
        _ => Err(format!("'{s}' is not a kind of label (game or search)")),
    }
}

/// Parses a variant that has weights of its own: othello or anti.
pub(crate) fn parse_rules(s: &str) -> Result<Variant, String> {
    match s.parse::<Variant>().map_err(|e| e.to_string())? {
        Variant::Reversi => {
            Err("historical Reversi shares Othello's weights: generate or fit othello data".into())
        }
        rules => Ok(rules),
    }
}

/// Parses a ridge weight: a finite number above 0. With 0 a weight that no
/// training position sets would be 0/0, and the fit would write a file of zeros.
fn parse_ridge(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(r) if r > 0.0 && r.is_finite() => Ok(r),
        _ => Err(format!("'{s}' is not a ridge weight (a number above 0)")),
    }
}

/// Parses `A..B` with `A` ≤ `B` ≤ 60.
fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{s}' is not a range A..B with A <= B <= 60");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let (a, b): (u32, u32) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a > b || b > 60 {
        return Err(bad());
    }
    Ok((a, b))
}

/// The command as it was typed, named `mollett` whatever the binary's path:
/// the note a weights or regressions file keeps of how it was made, so the
/// same command from the same directory writes the same file, bit for bit.
pub(crate) fn command_line() -> String {
    std::iter::once("mollett".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A pool of `threads` workers (default: one per logical CPU).
pub(crate) fn pool(threads: Option<u16>) -> Result<rayon::ThreadPool> {
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, usize::from))
        .build()?)
}

/// A progress bar on a terminal, nothing elsewhere.
pub(crate) fn bar(total: u64, what: &str) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let b = ProgressBar::new(total);
        b.set_style(
            ProgressStyle::with_template(&format!("{what} {{bar:40}} {{pos}}/{{len}} {{eta}}"))
                .expect("a valid template"),
        );
        b
    })
}

/// Runs `mollett datagen`.
pub fn run_datagen(args: DatagenArgs) -> Result<()> {
    let openings = match &args.openings {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            // Anti-Reversi moves as Othello: the same transcripts serve both.
            parse_openings(&text, Variant::Othello)?
        }
        None => Vec::new(),
    };
    let req = DatagenRequest {
        rules: args.variant,
        seed: args.seed,
        openings,
        random_moves: args.random_moves,
        depth: args.depth,
        selectivity: args.selectivity,
        labels: args.labels.0,
        exact_empties: args.exact_empties,
        noise_per_mille: args.noise,
        eval: args.eval,
        hash_mb: args.hash,
    };
    let pool = pool(args.threads)?;
    let progress = bar(args.shard.len(args.games), "games");
    let played = pool.install(|| {
        crate::tools::learn::run_datagen(&req, args.games, args.shard, &args.out, &mut |done, _| {
            if let Some(b) = &progress {
                b.set_position(done);
            }
        })
    })?;
    if let Some(b) = progress {
        b.finish_and_clear();
    }
    eprintln!(
        "datagen: {played} games played, shard {}/{} of {} games in {}",
        args.shard.index,
        args.shard.count,
        args.games,
        args.out.display()
    );
    Ok(())
}

/// `mollett relabel`.
#[derive(clap::Args, Debug)]
pub struct RelabelArgs {
    /// A training file written by `datagen`.
    pub data: PathBuf,
    /// The output file; one already holding games of this shard is continued.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Relabel only the input's `k`-th games with `k % n == i` (`i/n`); the
    /// shards' files concatenate.
    #[arg(long, default_value = "0/1")]
    pub shard: Shard,
    /// The rules of the data: othello or anti.
    #[arg(long, default_value = "othello", value_parser = parse_rules)]
    pub variant: Variant,
    /// Midgame search depth of the labels.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// The search's selectivity, 73..100 (100: full width).
    #[arg(long, default_value = "100", value_name = "PERCENT")]
    pub selectivity: crate::search::Selectivity,
    /// The evaluation the search uses.
    #[arg(long, default_value = "learned")]
    pub eval: EvalKind,
    /// Table size per game, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Search again the positions that already have a search label (deeper
    /// labels for `datagen --labels search` data); exact labels are kept.
    #[arg(long)]
    pub redo_search: bool,
    /// Games relabelled at once (default: all logical CPUs); the output does not
    /// depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// Runs `mollett relabel`.
pub fn run_relabel(args: RelabelArgs) -> Result<()> {
    let req = RelabelRequest {
        rules: args.variant,
        depth: args.depth,
        selectivity: args.selectivity,
        eval: args.eval,
        hash_mb: args.hash,
        redo_search: args.redo_search,
    };
    let pool = pool(args.threads)?;
    let mut progress: Option<ProgressBar> = None;
    let done = pool.install(|| {
        run_relabel_file(
            &req,
            &args.data,
            args.shard,
            &args.out,
            &mut |done, total| {
                let b = progress
                    .get_or_insert_with(|| bar(total, "games").unwrap_or_else(ProgressBar::hidden));
                b.set_position(done);
            },
        )
    })?;
    if let Some(b) = progress {
        b.finish_and_clear();
    }
    eprintln!(
        "relabel: {done} games relabelled, shard {}/{} of {} in {}",
        args.shard.index,
        args.shard.count,
        args.data.display(),
        args.out.display()
    );
    Ok(())
}

/// `mollett train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Training files written by `datagen` (shards in any order).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Seed of the held-out split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The rules the weights are for (othello or anti): every position of the
    /// files must be of them, and the weights file is tagged with them.
    #[arg(long, default_value = "othello", value_parser = parse_rules)]
    pub variant: Variant,
    /// Share of the positions held out to measure the fit, in percent.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=50))]
    pub holdout: u32,
    /// Conjugate-gradient iterations.
    #[arg(long, default_value_t = 60)]
    pub iterations: u32,
    /// Ridge regularisation: the weight of a squared parameter against a squared
    /// disc of error; above 0 (a weight that no position sets is then 0).
    #[arg(long, default_value_t = 2.0, value_parser = parse_ridge)]
    pub ridge: f64,
    /// A weights file of the same rules to start from and regularise towards
    /// (the ridge then pulls each weight to the prior's value instead of to 0):
    /// a new round of data refines earlier weights without their data.
    #[arg(long, value_name = "FILE")]
    pub prior: Option<PathBuf>,
    /// How the weights are tied: `colour-tied` (blind to whose move it is: the
    /// colour swap of a configuration has the negated weight) or `side-to-move`
    /// (mover's and opponent's configurations and counts weighted apart; a
    /// colour-tied `--prior` is rewritten in this form first).
    #[arg(long, default_value = "colour-tied", value_parser = Form::parse)]
    pub form: Form,
}

/// Runs `mollett train`.
pub fn run_train(args: TrainArgs) -> Result<()> {
    if args.iterations == 0 {
        bail!("--iterations must be at least 1");
    }
    let prior = match &args.prior {
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            Some(
                mlw::parse_for(&bytes, args.variant)
                    .with_context(|| format!("--prior {}", path.display()))?,
            )
        }
        None => None,
    };
    let req = TrainRequest {
        rules: args.variant,
        form: args.form,
        seed: args.seed,
        holdout_percent: args.holdout,
        iterations: args.iterations,
        ridge: args.ridge,
        note: command_line(),
        prior,
    };
    let progress = bar(u64::from(args.iterations), "iterations");
    let report = train_files(
        &args.data,
        &req,
        &mut |line| match &progress {
            Some(b) => b.println(line),
            None => eprintln!("{line}"),
        },
        &mut |it| {
            if let Some(b) = &progress {
                b.set_position(u64::from(it));
            }
        },
    )?;
    if let Some(b) = progress {
        b.finish_and_clear();
    }
    std::fs::write(&args.out, &report.bytes)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "train: wrote {} ({} bytes)",
        args.out.display(),
        report.bytes.len()
    );
    Ok(())
}

/// `mollett pack`.
#[derive(clap::Args, Debug)]
pub struct PackArgs {
    /// Training files (position lines, or packed) whose games to pack, in order;
    /// each game's lines must be consecutive.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The packed file to write (name it `.mpk`, or `.mpk.gz` to compress it);
    /// it must not exist yet.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Runs `mollett pack`.
pub fn run_pack(args: PackArgs) -> Result<()> {
    if !pack::is_packed(&args.out) {
        bail!(
            "{}: a packed file's name ends in .mpk or .mpk.gz (so that readers know it)",
            args.out.display()
        );
    }
    let mut out = pack::create(&args.out)?;
    let (games, positions) = pack::pack_files(&args.data, &mut out)?;
    out.flush()
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    drop(out);
    eprintln!(
        "pack: {games} games, {positions} positions in {}",
        args.out.display()
    );
    Ok(())
}

/// `mollett unpack`.
#[derive(clap::Args, Debug)]
pub struct UnpackArgs {
    /// A packed training file (`.mpk` or `.mpk.gz`).
    pub data: PathBuf,
    /// The file of position lines to write (default: standard output); it must
    /// not exist yet.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Runs `mollett unpack`.
pub fn run_unpack(args: UnpackArgs) -> Result<()> {
    if !pack::is_packed(&args.data) {
        bail!(
            "{}: not a packed file (its name must end in .mpk or .mpk.gz)",
            args.data.display()
        );
    }
    let mut out: Box<dyn std::io::Write> = match &args.out {
        Some(path) => pack::create(path)?,
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    pack::for_each_line(&args.data, |line| Ok(writeln!(out, "{line}")?))?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ridge_weight_is_a_number_above_zero() {
        assert_eq!(parse_ridge("3"), Ok(3.0));
        assert_eq!(parse_ridge("0.5"), Ok(0.5));
        for bad in ["0", "-1", "inf", "NaN", "x", ""] {
            assert!(parse_ridge(bad).is_err(), "{bad}");
        }
    }
}
