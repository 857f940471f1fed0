//! The `mollett train` command: flags to a [`TrainRequest`], progress to
//! stderr, the weights file written whole.

use super::{TrainRequest, train_files};
use crate::knowledge::layout::{Form, PatternSet};
use crate::knowledge::mlw;
use crate::rules::Variant;
use crate::tools::learn::cli::{bar, command_line, parse_rules};
use anyhow::{Context as _, Result, bail};
use std::path::PathBuf;

/// Parses a ridge weight: a finite number above 0. With 0 a weight that no
/// training position sets would be 0/0, and the fit would write a file of zeros.
pub(super) fn parse_ridge(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(r) if r > 0.0 && r.is_finite() => Ok(r),
        _ => Err(format!("'{s}' is not a ridge weight (a number above 0)")),
    }
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
    /// The patterns to fit: `classic` (the 11 of Logistello and Edax, 46 views)
    /// or `extended` (those and three 10-square corner patterns, 58 views; a
    /// classic `--prior` is carried over with the added patterns at zero).
    #[arg(long, default_value = "classic", value_parser = PatternSet::parse)]
    pub patterns: PatternSet,
    /// Give each search label the mean of it and its child's label along the
    /// game (negated for the other side), which cancels the odd/even bias of
    /// labels searched at one depth; other labels stay as they are.
    #[arg(long)]
    pub pair_child: bool,
}

/// Runs `mollett train`.
pub fn run(args: TrainArgs) -> Result<()> {
    if args.iterations == 0 {
        bail!("--iterations must be at least 1");
    }
    let prior = match &args.prior {
        Some(path) => {
            let bytes =
                crate::input::read_regular_file_bytes(path, crate::tools::cli::EVAL_FILE_LIMIT)
                    .with_context(|| format!("cannot read {}", path.display()))?;
            Some(
                mlw::parse_for(&bytes, args.variant)
                    .with_context(|| format!("--prior {}", path.display()))?,
            )
        }
        None => None,
    };
    let req = TrainRequest {
        rules: args.variant,
        patterns: args.patterns,
        form: args.form,
        seed: args.seed,
        holdout_percent: args.holdout,
        iterations: args.iterations,
        ridge: args.ridge,
        note: command_line(),
        prior,
        pair_child: args.pair_child,
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
    let is_weights = |head: &[u8]| head.starts_with(mlw::MAGIC);
    crate::input::write_whole_over_own(&args.out, &report.bytes, is_weights)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "train: wrote {} ({} bytes)",
        args.out.display(),
        report.bytes.len()
    );
    Ok(())
}
