//! `mollett accuracy`: how close the engine's scores and moves come to the
//! exact ones, on an OBF file whose lines score every legal move exactly (as
//! Edax's problem files and `mollett solve --all-moves` write them).
//!
//! Each position is searched as a game move would be (`go` at the level, no
//! clock, a fresh table), and compared with the file: the error of the score
//! against the exact best score, the compression of |score| (the searched
//! |score| less the exact one: negative when scores are drawn toward zero),
//! whether the move is a best move, whether the score is within 3 and 6 discs,
//! and the discs the chosen move loses. The report gives these overall and per
//! band of [`BAND_WIDTH`] empties, with nodes and time.
//!
//! With `--games FILE` it measures instead how well a search's score agrees
//! with the score of the position after the move played ([`consistency`]).

pub mod consistency;

use crate::engine::{Engine, Event, Job, Settings};
use crate::eval::to_discs;
use crate::format::ObfEntry;
use crate::rules::{Position, Variant};
use crate::search::{Level, SearchResult, Selectivity};
use crate::tools::obf_lines::obf_entries;
use anyhow::{Context, Result, anyhow, bail};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The report groups positions by empties in bands this wide (20–23, 24–27,
/// …): the test sets hold positions at 20, 24, 28 and 32 empties, one band each.
pub const BAND_WIDTH: u32 = 4;

/// A score within this many discs of the exact one counts as close.
const CLOSE: f64 = 3.0;

/// A score within this many discs of the exact one counts as fair.
const FAIR: f64 = 6.0;

/// `mollett accuracy`.
#[derive(clap::Args, Debug)]
pub struct AccuracyArgs {
    /// The OBF file: each line a position and the exact score of every legal
    /// move (or `--games`).
    #[arg(required_unless_present = "games", conflicts_with = "games")]
    pub file: Option<PathBuf>,
    /// Measure odd/even consistency on the games of FILE instead (one game a
    /// line: a transcript or a GGF record): the score of each position plus
    /// the score of the position after the move played.
    #[arg(long, value_name = "FILE")]
    pub games: Option<PathBuf>,
    /// With `--games`: leave out the first K moves of every game (a random
    /// opening, whose moves are not the engine's).
    #[arg(long, value_name = "K", default_value_t = 0, requires = "games")]
    pub skip_plies: usize,
    /// With `--games`: measure only the first N games of the file.
    #[arg(long, value_name = "N", requires = "games")]
    pub games_limit: Option<usize>,
    /// Playing level: 1..60, easy, medium or hard (default 21, the engine's).
    #[arg(long)]
    pub level: Option<Level>,
    /// The midgame search's selectivity, 73, 87, 95, 98, 99 or 100 (full
    /// width), whatever the level (default: the level's).
    #[arg(long, value_name = "PERCENT")]
    pub selectivity: Option<Selectivity>,
    /// Solve exactly at this many empties or fewer, whatever the level.
    #[arg(long, value_name = "EMPTIES")]
    pub exact_empties: Option<u32>,
    /// Search threads (lazy SMP), 1..=1024.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Transposition table size, in MB (cleared between positions).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Print only JSON, one object per position (per pair with `--games`),
    /// then one per band and the total.
    #[arg(long)]
    pub json: bool,
    /// The rules: othello (default) or anti.
    #[arg(long, default_value = "othello")]
    pub variant: Variant,
}

/// One position searched and compared with its exact scores.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    /// The position's line in the file.
    pub line: usize,
    /// Empty squares.
    pub empties: u32,
    /// The move the engine chose.
    #[serde(rename = "move")]
    pub chosen: String,
    /// Its score, in discs for the side to move.
    pub score: f64,
    /// The exact score of the best move.
    pub exact: i32,
    /// The exact score of the chosen move.
    pub chosen_exact: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
}

impl Measured {
    /// The score's error against the exact best score, in discs.
    pub fn error(&self) -> f64 {
        self.score - f64::from(self.exact)
    }

    /// |score| less the exact |score|: below zero when the score is drawn
    /// toward a draw.
    pub fn compression(&self) -> f64 {
        self.score.abs() - f64::from(self.exact.abs())
    }

    /// The discs the chosen move gives away against the best.
    pub fn loss(&self) -> i32 {
        self.exact - self.chosen_exact
    }
}

/// Sums over a set of positions.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    count: usize,
    abs_error: f64,
    compression: f64,
    best: usize,
    close: usize,
    fair: usize,
    loss: i64,
    nodes: u64,
    seconds: f64,
}

impl Tally {
    /// Adds one position.
    pub fn add(&mut self, m: &Measured) {
        let e = m.error().abs();
        self.count += 1;
        self.abs_error += e;
        self.compression += m.compression();
        self.best += usize::from(m.loss() == 0);
        self.close += usize::from(e <= CLOSE);
        self.fair += usize::from(e <= FAIR);
        self.loss += i64::from(m.loss());
        self.nodes += m.nodes;
        self.seconds += m.seconds;
    }

    /// The figures, named `what` (a band or the total).
    pub fn summary(&self, what: String) -> Summary {
        let n = self.count.max(1) as f64;
        let share = |k: usize| 100.0 * k as f64 / n;
        Summary {
            what,
            positions: self.count,
            mean_abs_error: self.abs_error / n,
            mean_compression: self.compression / n,
            best_move_percent: share(self.best),
            within_3_percent: share(self.close),
            within_6_percent: share(self.fair),
            mean_loss: self.loss as f64 / n,
            nodes: self.nodes,
            seconds: self.seconds,
        }
    }
}

/// The figures over a band of empties or over the whole file.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    /// `empties A-B` or `all`.
    pub what: String,
    /// Positions measured.
    pub positions: usize,
    /// Mean absolute error of the score against the exact best score, in discs.
    pub mean_abs_error: f64,
    /// Mean |score| less exact |score|, in discs (negative: compressed).
    pub mean_compression: f64,
    /// Share of positions where the move chosen is a best move.
    pub best_move_percent: f64,
    /// Share of scores within 3 discs of the exact one.
    pub within_3_percent: f64,
    /// Share of scores within 6 discs of the exact one.
    pub within_6_percent: f64,
    /// Mean discs lost by the move chosen.
    pub mean_loss: f64,
    /// Nodes over the positions.
    pub nodes: u64,
    /// Time over the positions.
    pub seconds: f64,
}

impl Summary {
    /// One line of the text report.
    pub fn line(&self) -> String {
        format!(
            "{:<14} {:>9} {:>6.2} {:>+8.2} {:>7.1} {:>7.1} {:>7.1} {:>6.2} {:>13} {:>9.2}",
            self.what,
            self.positions,
            self.mean_abs_error,
            self.mean_compression,
            self.best_move_percent,
            self.within_3_percent,
            self.within_6_percent,
            self.mean_loss,
            self.nodes,
            self.seconds
        )
    }
}

/// The header over [`Summary::line`]s.
pub const TABLE_HEADER: &str = "band           positions  error compress    best   <=3 d   <=6 d   loss         nodes   seconds";

/// The band of `empties`, as `empties A-B`.
pub fn band(empties: u32) -> String {
    let low = empties / BAND_WIDTH * BAND_WIDTH;
    format!("empties {low}-{}", low + BAND_WIDTH - 1)
}

/// Searches `entry`'s position on `engine` at its level and compares the
/// result with the exact scores of the file's line `line`.
pub fn measure(
    engine: &mut Engine,
    line: usize,
    entry: &ObfEntry,
    variant: Variant,
) -> Result<Measured> {
    let pos = entry
        .position
        .under(variant, None)
        .ok_or_else(|| anyhow!("line {line}: not a position of {variant}"))?;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        bail!("line {line}: the game is over, there is no move to choose");
    }
    if let Some(m) = legal
        .iter()
        .find(|m| !entry.scores.iter().any(|(s, _)| s == *m))
    {
        bail!("line {line}: the move {m} has no exact score (every legal move needs one)");
    }
    let exact = entry.scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
    let r = search(engine, pos).with_context(|| format!("line {line}"))?;
    let best = r
        .best
        .ok_or_else(|| anyhow!("line {line}: the search chose no move"))?;
    let chosen_exact = entry
        .scores
        .iter()
        .find(|(m, _)| *m == best)
        .map(|&(_, s)| s)
        .ok_or_else(|| anyhow!("line {line}: the chosen move {best} has no exact score"))?;
    Ok(Measured {
        line,
        empties: pos.board.empties(),
        chosen: best.to_string(),
        score: to_discs(r.score),
        exact,
        chosen_exact,
        nodes: r.nodes,
        seconds: r.elapsed.as_secs_f64(),
    })
}

/// The engine's move choice in `pos`, with a fresh table.
fn search(engine: &mut Engine, pos: Position) -> Result<SearchResult> {
    engine.new_game(pos)?;
    engine.start(Job::Go { clock: None })?;
    match engine.wait().pop() {
        Some(Event::Finished(f)) => f.result.ok_or_else(|| anyhow!("the search gave no result")),
        Some(Event::Failed { message, .. }) => Err(anyhow!("the search failed: {message}")),
        other => Err(anyhow!("the search ended unexpectedly: {other:?}")),
    }
}

/// The level `args` ask for: `--level`, with `--selectivity` applied.
fn level_of(args: &AccuracyArgs) -> Level {
    let mut level = args.level.unwrap_or(Settings::default().level);
    if let Some(s) = args.selectivity {
        level.limits.selectivity = s;
    }
    level
}

/// An engine at `level` with the thread count, table size, exact-empties
/// override and rules of `args`.
fn engine_for(args: &AccuracyArgs, level: Level, exact_empties: Option<u32>) -> Result<Engine> {
    Engine::new(Settings {
        level,
        threads: args.threads.into(),
        hash_mb: args.hash,
        exact_empties,
        variant: args.variant,
        ..Settings::default()
    })
    .with_context(|| format!("an engine with a {} MB table", args.hash))
}

/// Runs `mollett accuracy`: a line per position (JSON only with `--json`),
/// then a line per band of empties and one for the whole file; with
/// `--games`, the consistency report instead ([`consistency::run`]).
pub fn run_accuracy(args: AccuracyArgs) -> Result<()> {
    let file = match (&args.file, &args.games) {
        (_, Some(games)) => return consistency::run(&args, games),
        (Some(file), None) => file.clone(),
        (None, None) => bail!("give an OBF file or --games FILE"),
    };
    if args.variant == Variant::Reversi {
        bail!("--variant reversi: accuracy files hold positions of othello or anti");
    }
    let level = level_of(&args);
    let mut engine = engine_for(&args, level, args.exact_empties)?;
    let (mut total, mut bands) = (Tally::default(), BTreeMap::<u32, Tally>::new());
    for item in obf_entries(&file)? {
        let (line, entry) = item?;
        let m = measure(&mut engine, line, &entry, args.variant)
            .with_context(|| format!("in {}", file.display()))?;
        if args.json {
            say!("{}", serde_json::to_string(&m)?);
        }
        total.add(&m);
        bands.entry(m.empties / BAND_WIDTH).or_default().add(&m);
    }
    if total.count == 0 {
        bail!("{} holds no position", file.display());
    }
    let mut summaries: Vec<Summary> = bands
        .iter()
        .map(|(&b, t)| t.summary(band(b * BAND_WIDTH)))
        .collect();
    summaries.push(total.summary("all".to_string()));
    let title = format!("level {level}, {} thread(s)", args.threads);
    print_rows(args.json, [&title, TABLE_HEADER], &summaries, Summary::line)
}

/// Prints a report's rows: the `heading` lines, then each row's text line; or,
/// with `json`, only each row as JSON.
fn print_rows<S: Serialize>(
    json: bool,
    heading: [&str; 2],
    rows: &[S],
    line: fn(&S) -> String,
) -> Result<()> {
    if !json {
        heading.iter().for_each(|h| say!("{h}"));
    }
    for row in rows {
        if json {
            say!("{}", serde_json::to_string(row)?);
        } else {
            say!("{}", line(row));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(score: f64, exact: i32, chosen_exact: i32) -> Measured {
        Measured {
            line: 1,
            empties: 25,
            chosen: "a1".into(),
            score,
            exact,
            chosen_exact,
            nodes: 10,
            seconds: 0.5,
        }
    }

    #[test]
    fn the_figures_of_a_few_positions() {
        let mut t = Tally::default();
        // Right move, score 2 discs low and compressed by 2.
        t.add(&measured(4.0, 6, 6));
        // A move losing 4 discs, its score 5 discs high and compressed by 5.
        t.add(&measured(-3.0, -8, -12));
        let s = t.summary("all".into());
        assert_eq!(s.positions, 2);
        assert!((s.mean_abs_error - 3.5).abs() < 1e-12);
        // |4| - |6| = -2 and |-3| - |-8| = -5: mean -3.5.
        assert!((s.mean_compression + 3.5).abs() < 1e-12);
        assert_eq!(s.best_move_percent, 50.0);
        assert_eq!(s.within_3_percent, 50.0);
        assert_eq!(s.within_6_percent, 100.0);
        assert_eq!(s.mean_loss, 2.0);
        assert_eq!(s.nodes, 20);
    }

    #[test]
    fn bands_are_four_empties_wide() {
        assert_eq!(band(20), "empties 20-23");
        assert_eq!(band(23), "empties 20-23");
        assert_eq!(band(32), "empties 32-35");
    }
}
