//! `mollett book check`: how good a book's values are. A seeded sample of its
//! positions is searched afresh, book off, at a level (an exact solve where
//! the level reaches the end), and each position's best book value is
//! compared with the search's score (a midgame one the mean of the last two
//! depths, as the book's values are): the mean absolute difference in discs,
//! overall and by ply band, and how often the book's best move is the
//! search's.

use super::load_given;
use crate::board::{Color, Move};
use crate::book::{Book, best_of};
use crate::rng::Rng;
use crate::rules::{Position, with_rules};
use crate::search::{Level, RuleSearch, ScoreKind, SearchRequest, search};
use crate::tools::learn::cli::{bar, pool};
use crate::tt::TranspositionTable;
use anyhow::{Result, bail};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Table size of each check search: a deep level fills a few tens of MB.
const CHECK_HASH_MB: usize = 64;

/// Plies per band of the report.
const BAND_PLIES: u32 = 10;

/// `mollett book check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The book (default: the embedded one).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Positions sampled (at most the book's).
    #[arg(long, default_value_t = 40)]
    pub sample: usize,
    /// The level each position is searched at, book off.
    #[arg(long, default_value = "20")]
    pub level: Level,
    /// The seed of the sample: the same seed and book, the same positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Positions searched at once, each alone with its own table (default:
    /// all logical CPUs).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// One sampled position's comparison.
struct Checked {
    ply: u32,
    /// Book best value and search score, centi-discs for the side to move.
    book: i32,
    searched: i32,
    /// Whether the search's move is the book's best (or valued the same in
    /// the book).
    same_move: bool,
    exact: bool,
}

/// Runs `mollett book check`.
pub fn run_check(args: CheckArgs) -> Result<()> {
    let book = load_given(args.book.as_deref())?;
    if book.is_empty() {
        bail!("the book holds no positions");
    }
    let sample = sample(&book, args.sample, args.seed);
    let pool = pool(args.threads)?;
    let progress = bar(sample.len() as u64, "positions");
    let level = args.level;
    let checked: Vec<Checked> = pool.install(|| {
        sample
            .par_iter()
            .map(|pos| {
                let c = check(&book, pos, level);
                if let Some(b) = &progress {
                    b.inc(1);
                }
                c
            })
            .collect()
    });
    if let Some(b) = progress {
        b.finish_and_clear();
    }
    say!(
        "{} positions of {} (seed {}), searched at level {}, book off:",
        checked.len(),
        book.len(),
        args.seed,
        level
    );
    let line = |what: &str, cs: &[&Checked]| {
        if cs.is_empty() {
            return;
        }
        let n = cs.len() as f64;
        let mae = cs
            .iter()
            .map(|c| f64::from((c.book - c.searched).abs()))
            .sum::<f64>()
            / n
            / 100.0;
        let bias = cs
            .iter()
            .map(|c| f64::from(c.book - c.searched))
            .sum::<f64>()
            / n
            / 100.0;
        let same = cs.iter().filter(|c| c.same_move).count();
        let exact = cs.iter().filter(|c| c.exact).count();
        say!(
            "{what:>12}: {:4} positions, mean |book - search| {mae:.2} discs, mean book - search \
             {bias:+.2}, same best move {:.0}%, exact {exact}",
            cs.len(),
            100.0 * same as f64 / n
        );
    };
    let all: Vec<&Checked> = checked.iter().collect();
    line("all", &all);
    let top = checked.iter().map(|c| c.ply).max().unwrap_or(0);
    for band in 0..=top / BAND_PLIES {
        let (lo, hi) = (band * BAND_PLIES, band * BAND_PLIES + BAND_PLIES - 1);
        let cs: Vec<&Checked> = checked
            .iter()
            .filter(|c| (lo..=hi).contains(&c.ply))
            .collect();
        line(&format!("plies {lo}-{hi}"), &cs);
    }
    Ok(())
}

/// `n` distinct positions of the book drawn by `seed` (all of them when it
/// holds no more), in key order of the draw; positions with no stored move
/// are left out.
pub fn sample(book: &Book, n: usize, seed: u64) -> Vec<Position> {
    let mut keys: Vec<_> = book
        .iter()
        .filter(|(_, moves)| !moves.is_empty())
        .map(|(k, _)| *k)
        .collect();
    keys.sort_unstable();
    let mut rng = Rng::new(seed);
    // A partial Fisher-Yates shuffle: the first n are the sample.
    let n = n.min(keys.len());
    for i in 0..n {
        let j = i + rng.below((keys.len() - i) as u64) as usize;
        keys.swap(i, j);
    }
    keys[..n]
        .iter()
        .map(|k| Position::new(k.board(), Color::Black).othello_like(book.rules()))
        .collect()
}

fn check(book: &Book, pos: &Position, level: Level) -> Checked {
    let hints = book.hints(pos).unwrap_or_default();
    let best = best_of(&hints).map_or(0, |m| i32::from(m.score));
    let (score, mv, kind) = with_rules!(pos.variant, R => search_one::<R>(pos, level));
    let same_move = hints
        .iter()
        .any(|h| Some(Move::Play(h.square)) == mv && i32::from(h.score) == best);
    Checked {
        ply: crate::book::ply(&pos.board),
        book: best,
        searched: score,
        same_move,
        exact: kind == ScoreKind::Exact,
    }
}

/// A fresh search of `pos` at `level`: score (centi-discs), move and kind.
/// A midgame score is the mean of the last two depths', as the book's own
/// values are (see `build`'s `parity_mean`), so that the evaluation's odd/even
/// bias does not count as the book's error.
fn search_one<R: RuleSearch>(pos: &Position, level: Level) -> (i32, Option<Move>, ScoreKind) {
    let tt = TranspositionTable::new(CHECK_HASH_MB)
        .or_else(|_| TranspositionTable::new(1))
        .expect("a 1 MB table");
    let stop = AtomicBool::new(false);
    let req = SearchRequest::<R>::new(pos.view::<R>(), level);
    let mut depths: Vec<(ScoreKind, i32)> = Vec::new();
    let r = search(&req, &tt, &stop, &mut |it| depths.push((it.kind, it.score)));
    let score = match (r.kind, depths.iter().rev().nth(1)) {
        (ScoreKind::Midgame(d), Some(&(ScoreKind::Midgame(e), before))) if e + 1 == d => {
            (r.score + before).div_euclid(2)
        }
        _ => r.score,
    };
    (score, r.best, r.kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{EMBEDDED, file};

    #[test]
    fn a_sample_is_seeded_distinct_and_of_the_book() {
        let book = file::parse(EMBEDDED).unwrap();
        let a = sample(&book, 30, 7);
        assert_eq!(a.len(), 30);
        assert_eq!(
            a.iter().map(|p| p.board).collect::<Vec<_>>(),
            sample(&book, 30, 7)
                .iter()
                .map(|p| p.board)
                .collect::<Vec<_>>()
        );
        assert_ne!(
            a.iter().map(|p| p.board).collect::<Vec<_>>(),
            sample(&book, 30, 8)
                .iter()
                .map(|p| p.board)
                .collect::<Vec<_>>()
        );
        let mut boards: Vec<_> = a
            .iter()
            .map(|p| (p.board.player, p.board.opponent))
            .collect();
        boards.sort_unstable();
        boards.dedup();
        assert_eq!(boards.len(), 30);
        assert!(a.iter().all(|p| book.hints(p).is_some()));
        assert_eq!(sample(&book, 10_000_000, 1).len(), book.len());
    }

    #[test]
    fn a_check_compares_the_book_with_a_search() {
        let book = file::parse(EMBEDDED).unwrap();
        let start = book.rules().start();
        let c = check(&book, &start, Level::number(4));
        let hints = book.hints(&start).unwrap();
        assert_eq!(c.book, i32::from(hints[0].score));
        assert_eq!(c.ply, 0);
        assert!(!c.exact);
        let (score, _, _) = search_one::<crate::rules::Othello>(&start, Level::number(4));
        assert_eq!(c.searched, score);
    }

    #[test]
    fn a_midgame_check_score_is_the_mean_of_the_last_two_depths() {
        let pos = Position::START
            .play(Move::Play("f5".parse().unwrap()))
            .unwrap();
        let alone = |depth: u32| {
            let tt = TranspositionTable::new(1).unwrap();
            let req = SearchRequest::<crate::rules::Othello>::new(
                pos.view::<crate::rules::Othello>(),
                Level::number(depth),
            );
            let r = search(&req, &tt, &AtomicBool::new(false), &mut |_| {});
            assert_eq!(r.kind, ScoreKind::Midgame(depth));
            r.score
        };
        let mut differ = false;
        for depth in [5, 6] {
            let (a, b) = (alone(depth), alone(depth - 1));
            differ |= a != b;
            let (score, _, kind) = search_one::<crate::rules::Othello>(&pos, Level::number(depth));
            assert_eq!(kind, ScoreKind::Midgame(depth));
            assert_eq!(score, (a + b).div_euclid(2), "depth {depth}: {a} and {b}");
        }
        assert!(differ, "the depths agree: the test proves nothing");
    }
}
