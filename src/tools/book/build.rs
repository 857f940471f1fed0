//! `mollett book build`: grows a book from the start (or the positions of an
//! openings list) along the best lines and the near-best deviations, searching
//! every move of each new position at a level, as Edax's `deviate` does.
//!
//! The book grows in rounds. Each round negamaxes the book, walks it from the
//! roots through every move within `--deviation` discs of its position's best,
//! and collects the positions reached that are not in the book yet and lie no
//! deeper than `--depth` plies; the shallowest of them (then in key order) are
//! searched, in parallel, each alone with a cleared table (so the book is the
//! same whatever the thread count), added, and the file is written whole. An
//! interrupted build loses at most the round under way: run the same command
//! again and it goes on from the file.

use super::shard::{self, Shard};
use super::{BookFileArgs, load_or_new, save};
use crate::board::Square;
use crate::board::{Board, Color};
use crate::book::{Book, BookMove, EXACT_DEPTH, Key, Origin, best_of, clamp_score, key, ply};
use crate::rules::{Position, Variant, with_rules};
use crate::search::{
    Level, MultiPvIteration, RuleSearch, ScoreKind, SearchRequest, line_square, multipv,
};
use crate::tools::learn::cli::{bar, command_line, pool};
use crate::tt::TranspositionTable;
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Table size of each search thread: a book position is searched at a modest
/// level, which fills a few MB at most.
const BUILD_HASH_MB: usize = 16;

/// New positions searched per round: enough to keep 16 threads busy, few enough
/// that an interrupt loses little (a round is written whole). Fixed, not per
/// thread, so that the same command grows the same book on any machine.
pub const POSITIONS_PER_ROUND: usize = 64;

/// `mollett book build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The book to grow: made if missing, else continued (only a Mollett book
    /// file is ever replaced, and only by itself grown).
    #[command(flatten)]
    pub file: BookFileArgs,
    /// The level every new position's moves are searched at.
    #[arg(long, default_value = "12")]
    pub level: Level,
    /// The deepest position kept, in plies from the start (60 − empties).
    #[arg(long, default_value_t = 12)]
    pub depth: u32,
    /// Follow every move within this many discs of its position's best.
    #[arg(long, default_value_t = 2.0)]
    pub deviation: f64,
    /// Stop when the book holds this many positions.
    #[arg(long, default_value_t = 100_000)]
    pub max_positions: usize,
    /// Grow from the positions of these lines (one transcript per line, as
    /// `match --openings` reads) instead of from the start alone.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The rules of a new book: othello (default) or anti.
    #[arg(long, default_value = "othello", value_parser = crate::tools::learn::cli::parse_rules)]
    pub rules: Variant,
    /// Search threads, each on its own positions (default: all logical CPUs).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Build only shard I of N (from 1): the shared trunk and this shard's
    /// subtrees below it; `mollett book merge` joins the shards' files.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// With --shard: the trunk's depth in plies, which every shard grows
    /// alike before splitting the subtrees below it.
    #[arg(long, default_value_t = 6, requires = "shard")]
    pub trunk_depth: u32,
}

/// Runs `mollett book build`.
pub fn run_build(args: BuildArgs) -> Result<()> {
    let path = &args.file.book;
    let mut book = load_or_new(path, args.rules)?;
    let roots = roots(&args, book.rules())?;
    let pool = pool(args.threads)?;
    let tables = tables_for(&pool)?;
    add_note(&mut book, &command_line());
    let grower = Grower {
        args: &args,
        pool: &pool,
        tables: &tables,
        deviation: (args.deviation.max(0.0) * 100.0).round() as i32,
        progress: bar(args.max_positions as u64, "positions"),
    };
    let start = Instant::now();
    let before = book.len();
    let searched = match args.shard {
        None => grower.grow(&mut book, &roots, args.depth)?,
        Some(shard) => {
            let trunk_depth = args.trunk_depth.min(args.depth);
            let (shallow, deep): (Vec<Board>, Vec<Board>) =
                roots.iter().partition(|b| ply(b) <= trunk_depth);
            let mut searched = grower.grow(&mut book, &shallow, trunk_depth)?;
            let mut trunk = shard::trunk(&book, trunk_depth);
            trunk.negamax();
            let below = frontier(&trunk, &shallow, trunk_depth + 1, grower.deviation);
            let mine: Vec<Board> = below
                .iter()
                .map(|k| k.board())
                .chain(deep)
                .filter(|b| shard.owns(b))
                .collect();
            if grower.progress.is_none() {
                eprintln!(
                    "book: shard {shard}: {} positions in the trunk (to ply {trunk_depth}), \
                     {} of the {} subtrees below it",
                    trunk.len(),
                    mine.len(),
                    below.len()
                );
            }
            searched += grower.grow(&mut book, &mine, args.depth)?;
            searched
        }
    };
    book.negamax();
    save(path, &book)?;
    if let Some(b) = &grower.progress {
        b.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    say!(
        "{}: {} positions ({} new) in {:.1} s, {:.1} s per thousand searched",
        path.display(),
        book.len(),
        book.len() - before,
        secs,
        if searched > 0 {
            secs * 1000.0 / searched as f64
        } else {
            0.0
        }
    );
    Ok(())
}

/// Adds `note` (a command line) to the book's note unless it is there.
pub fn add_note(book: &mut Book, note: &str) {
    if !book.note.lines().any(|l| l == note) {
        book.note = [book.note.as_str(), note]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
    }
}

/// What each round of a build needs.
struct Grower<'a> {
    args: &'a BuildArgs,
    pool: &'a rayon::ThreadPool,
    /// One table per search thread.
    tables: &'a [Mutex<TranspositionTable>],
    /// `--deviation` in centi-discs.
    deviation: i32,
    progress: Option<indicatif::ProgressBar>,
}

impl Grower<'_> {
    /// Grows `book` from `roots` to `depth` plies in rounds, each written
    /// whole to the file, until `--max-positions` or nothing is left; returns
    /// how many positions it searched.
    fn grow(&self, book: &mut Book, roots: &[Board], depth: u32) -> Result<usize> {
        let args = self.args;
        let mut searched = 0usize;
        loop {
            book.negamax();
            let room = args.max_positions.saturating_sub(book.len());
            let mut new = frontier(book, roots, depth, self.deviation);
            if new.is_empty() || room == 0 {
                return Ok(searched);
            }
            new.truncate(room.min(POSITIONS_PER_ROUND));
            let found = search_all(self.pool, self.tables, &new, book.rules(), args.level);
            for (board, moves) in &found {
                book.insert(board, moves);
            }
            searched += found.len();
            save(&args.file.book, book)?;
            match &self.progress {
                Some(b) => b.set_position(book.len() as u64),
                None => eprintln!("book: {} positions ({} searched)", book.len(), searched),
            }
        }
    }
}

/// Every move of each position of `keys` searched at `level` (see
/// [`search_moves`]), in parallel on `pool`, each thread with its own table
/// of `tables`; in the order of `keys`.
pub fn search_all(
    pool: &rayon::ThreadPool,
    tables: &[Mutex<TranspositionTable>],
    keys: &[Key],
    rules: Variant,
    level: Level,
) -> Vec<(Board, Vec<BookMove>)> {
    pool.install(|| {
        keys.par_iter()
            .map(|k| {
                let i = rayon::current_thread_index().unwrap_or(0) % tables.len();
                let tt = tables[i].lock().unwrap_or_else(|e| e.into_inner());
                (k.board(), search_moves(&k.board(), rules, level, &tt))
            })
            .collect()
    })
}

/// One table of [`BUILD_HASH_MB`] for each thread of `pool`.
pub fn tables_for(pool: &rayon::ThreadPool) -> Result<Vec<Mutex<TranspositionTable>>> {
    Ok((0..pool.current_num_threads())
        .map(|_| TranspositionTable::new(BUILD_HASH_MB).map(Mutex::new))
        .collect::<Result<Vec<_>, _>>()?)
}

/// The positions the book grows from: the start, or every position along
/// each opening line (a position where the side to move must pass, after the
/// pass).
fn roots(args: &BuildArgs, rules: Variant) -> Result<Vec<Board>> {
    let Some(path) = &args.openings else {
        return Ok(vec![rules.start().board]);
    };
    let text =
        crate::input::read_regular_file(path, crate::tools::learn::datagen::OPENINGS_FILE_LIMIT)
            .with_context(|| format!("--openings {}", path.display()))?;
    let games = crate::tools::arena::openings::parse_openings(&text, rules)
        .with_context(|| format!("--openings {}", path.display()))?;
    let mut out = Vec::new();
    for g in games {
        for p in g.positions() {
            let p = if p.must_pass() {
                p.play(crate::board::Move::Pass)?
            } else {
                p
            };
            if !p.is_game_over() {
                out.push(p.board);
            }
        }
    }
    Ok(out)
}

/// The positions to search next: those reached from the roots through moves
/// within `deviation` centi-discs of their position's best, at most `depth`
/// plies deep, not in the book yet; shallowest first, then in key order.
pub fn frontier(book: &Book, roots: &[Board], depth: u32, deviation: i32) -> Vec<Key> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    let mut out = Vec::new();
    let mut reach = |b: &Board, queue: &mut VecDeque<Key>, out: &mut Vec<(u32, Key)>| {
        let k = key::canonical(b).key;
        if seen.insert(k) {
            if book.moves_of(&k).is_some() {
                queue.push_back(k);
            } else {
                out.push((ply(b), k));
            }
        }
    };
    for r in roots {
        reach(r, &mut queue, &mut out);
    }
    while let Some(k) = queue.pop_front() {
        let moves = book.moves_of(&k).unwrap_or_default();
        let Some(best) = best_of(moves) else { continue };
        let floor = i32::from(best.score) - deviation;
        for m in moves.iter().filter(|m| i32::from(m.score) >= floor) {
            if let Some(child) = book.child_board(&k.board(), m.square)
                && ply(&child) <= depth
            {
                reach(&child, &mut queue, &mut out);
            }
        }
    }
    out.sort_unstable();
    out.into_iter().map(|(_, k)| k).collect()
}

/// Every legal move of `board` (side to move relative, which has a move)
/// scored by a search at `level`, alone with a cleared table.
pub fn search_moves(
    board: &Board,
    rules: Variant,
    level: Level,
    tt: &TranspositionTable,
) -> Vec<BookMove> {
    let pos = Position::new(*board, Color::Black).othello_like(rules);
    with_rules!(rules, R => search_under::<R>(&pos, level, tt))
}

fn search_under<R: RuleSearch>(
    pos: &Position,
    level: Level,
    tt: &TranspositionTable,
) -> Vec<BookMove> {
    let lines = pos.moves().count_ones() as usize;
    if lines == 0 {
        return Vec::new();
    }
    tt.clear();
    let req = SearchRequest::<R> {
        lines,
        find_ties: false,
        ..SearchRequest::new(pos.view::<R>(), level)
    };
    let stop = AtomicBool::new(false);
    let mut before: Option<MultiPvIteration> = None;
    let mut latest: Option<MultiPvIteration> = None;
    let Some(it) = multipv(&req, tt, &stop, &mut |it| {
        before = latest.replace(it.clone());
    }) else {
        return Vec::new();
    };
    let scores = parity_mean(&it, before.as_ref());
    let (depth, origin) = match it.kind {
        ScoreKind::Midgame(d) => (d.min(u32::from(EXACT_DEPTH) - 1) as u8, Origin::Searched),
        ScoreKind::SelectiveEnd { .. } | ScoreKind::WinLossDraw | ScoreKind::Book { .. } => {
            (empties_depth(pos), Origin::Searched)
        }
        ScoreKind::Exact => (EXACT_DEPTH, Origin::Exact),
    };
    scores
        .into_iter()
        .map(|(square, score)| BookMove {
            square,
            score: clamp_score(score),
            depth,
            origin,
            games: Default::default(),
        })
        .collect()
}

/// Every move's score of the last depth `last`, or, where it is a midgame
/// depth d and `before` is depth d − 1 with every move scored, the mean of the
/// two (rounded down).
///
/// Why: a fixed-depth search leans by the evaluation's odd/even bias (README,
/// "Odd/even consistency": a position's and its child's scores at one level
/// sum to −3.7 discs at level 8 and +3.1 at level 15, not 0). In a book that
/// decides: a move leading into the book takes its child's value, searched a
/// ply deeper than the move's siblings, and a line's value is its deepest
/// position's search, whose ply alternates from line to line; at one depth,
/// with the evaluation before its odd-empties bonus, the moves the book had
/// followed stood 3 to 4 discs above those it had not. The mean of two consecutive depths carries both parities alike, and
/// the search has just computed depth d − 1 on its way to d. Measured on the
/// shipped 40,000 positions at level 14, from the start against NTest at 2 s
/// a move (100 games each): 28.5 % with single-depth values, 49.5 % with the
/// mean (README, "The opening book").
fn parity_mean(last: &MultiPvIteration, before: Option<&MultiPvIteration>) -> Vec<(Square, i32)> {
    let of = |it: &MultiPvIteration| -> Vec<(Square, i32)> {
        it.lines
            .iter()
            .filter_map(|l| Some((line_square(l)?, l.score)))
            .collect()
    };
    let now = of(last);
    let (ScoreKind::Midgame(d), Some(before)) = (last.kind, before) else {
        return now;
    };
    if before.kind != ScoreKind::Midgame(d.saturating_sub(1)) {
        return now;
    }
    let then = of(before);
    let mean: Option<Vec<(Square, i32)>> = now
        .iter()
        .map(|&(sq, a)| {
            let (_, b) = then.iter().find(|&&(s, _)| s == sq)?;
            Some((sq, (a + b).div_euclid(2)))
        })
        .collect();
    mean.unwrap_or(now)
}

/// The depth written for a search to the end that is not exact: the empties.
fn empties_depth(pos: &Position) -> u8 {
    pos.board.empties().min(u32::from(EXACT_DEPTH) - 1) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// Every move of `board` at exactly `depth`, as `multipv` reports it alone.
    fn at_depth(board: &Board, depth: u32) -> Vec<(Square, i32)> {
        let pos = Position::new(*board, Color::Black);
        let tt = TranspositionTable::new(1).unwrap();
        let req = SearchRequest::<crate::rules::Othello> {
            lines: 64,
            find_ties: false,
            ..SearchRequest::new(pos.view::<crate::rules::Othello>(), Level::number(depth))
        };
        let it = multipv(&req, &tt, &AtomicBool::new(false), &mut |_| {}).unwrap();
        assert_eq!(it.kind, ScoreKind::Midgame(depth));
        let mut out: Vec<_> = it
            .lines
            .iter()
            .map(|l| (line_square(l).unwrap(), l.score))
            .collect();
        out.sort_by_key(|&(sq, _)| sq.index());
        out
    }

    #[test]
    fn a_book_position_scores_its_moves_by_the_mean_of_two_depths() {
        let start = Variant::Othello.start();
        let first = Square::new(start.moves().trailing_zeros() as u8).unwrap();
        let board = start.play(crate::board::Move::Play(first)).unwrap().board;
        let tt = TranspositionTable::new(1).unwrap();
        for level in [3, 4] {
            let (a, b) = (at_depth(&board, level), at_depth(&board, level - 1));
            let mut got = search_moves(&board, Variant::Othello, Level::number(level), &tt);
            got.sort_by_key(|m| m.square.index());
            assert_eq!(got.len(), a.len());
            // The two depths disagree somewhere, or the test proves nothing.
            assert!(a.iter().zip(&b).any(|(x, y)| x.1 != y.1));
            for ((m, &(sa, va)), &(sb, vb)) in got.iter().zip(&a).zip(&b) {
                assert_eq!((m.square, sa), (sb, sb));
                assert_eq!(i32::from(m.score), (va + vb).div_euclid(2), "{sa}");
                assert_eq!((m.depth, m.origin), (level as u8, Origin::Searched));
            }
        }
    }
}
