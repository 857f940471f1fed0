//! `mollett book deepen`: searches a book's positions again at a higher level
//! (Edax's `deepen`), so that its values are those of deeper searches without
//! growing it.
//!
//! The positions to do are taken once, at the start: those with a searched
//! move (one leading out of the book) below the level's depth, optionally no
//! deeper than `--max-ply`, shallowest first (the main lines' trunk is what a
//! game meets first), then in key order. They are searched in rounds as
//! `build` searches new ones (each alone with a cleared table, in parallel),
//! their moves replaced (learned games kept), the book negamaxed and the file
//! written whole after every round. An interrupted run loses at most the round
//! under way, and the same command goes on with the positions still below the
//! depth.
//!
//! `--all` searches every position with a searched move again, whatever its
//! depth (after new weights, or a change in how book positions are scored).
//! The positions with a searched move and their order do not change as the
//! run goes (whether a move is searched depends only on which positions the
//! book holds), so such a run keeps its place in the book's note, written with
//! each round, and the same command goes on after the last round written. The
//! place names the level and the weights in use (their FNV-1a hash): a run
//! that has finished is not repeated with the same weights, and new weights
//! start a new one.

use super::build::{POSITIONS_PER_ROUND, add_note, search_all, tables_for};
use super::{BookFileArgs, load_own, save};
use crate::book::{Book, Key, Origin, ply};
use crate::rules::Variant;
use crate::search::Level;
use crate::tools::learn::cli::{bar, command_line, pool};
use anyhow::Result;
use std::time::Instant;

/// `mollett book deepen`.
#[derive(clap::Args, Debug)]
pub struct DeepenArgs {
    /// The book to deepen (a Mollett book, replaced whole after every round).
    #[command(flatten)]
    pub file: BookFileArgs,
    /// The level to search at: a position is searched again when one of its
    /// searched moves is below this level's depth.
    #[arg(long)]
    pub level: Level,
    /// Only positions at most this many plies from the start (60 − empties).
    #[arg(long, value_name = "PLY")]
    pub max_ply: Option<u32>,
    /// Search every position with a searched move again, even those already
    /// at the level's depth.
    #[arg(long)]
    pub all: bool,
    /// Stop after this many positions (the rest wait for the next run).
    #[arg(long)]
    pub max_positions: Option<usize>,
    /// Search threads, each on its own positions (default: all logical CPUs).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// Runs `mollett book deepen`.
pub fn run_deepen(args: DeepenArgs) -> Result<()> {
    let path = &args.file.book;
    let mut book = load_own(path)?;
    let below = if args.all {
        u32::MAX
    } else {
        args.level.limits.depth
    };
    let todo = shallow_first(&book, below, args.max_ply);
    let run = Run::of(&args, book.rules(), todo.len());
    let skip = if args.all { run.done(&book.note) } else { 0 };
    let todo = &todo[skip.min(todo.len())..];
    let todo = &todo[..todo.len().min(args.max_positions.unwrap_or(usize::MAX))];
    if todo.is_empty() {
        say!(
            "{}: nothing to do ({} positions, none left to search at level {})",
            path.display(),
            book.len(),
            args.level
        );
        return Ok(());
    }
    let pool = pool(args.threads)?;
    let tables = tables_for(&pool)?;
    add_note(&mut book, &command_line());
    let progress = bar(todo.len() as u64, "positions");
    let start = Instant::now();
    let mut done = 0usize;
    for round in todo.chunks(POSITIONS_PER_ROUND) {
        let found = search_all(&pool, &tables, round, book.rules(), args.level);
        for (board, mut moves) in found {
            let k = crate::book::key::canonical(&board).key;
            let kept = book.moves_of(&k).unwrap_or_default();
            for m in &mut moves {
                if let Some(old) = kept.iter().find(|o| o.square == m.square) {
                    m.games = old.games;
                }
            }
            book.insert(&board, &moves);
        }
        book.negamax();
        done += round.len();
        if args.all {
            book.note = run.at(&book.note, skip + done);
        }
        save(path, &book)?;
        match &progress {
            Some(b) => b.set_position(done as u64),
            None => eprintln!("book: {done} of {} positions searched again", todo.len()),
        }
    }
    if let Some(b) = &progress {
        b.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    say!(
        "{}: {done} of {} positions searched again at level {} in {:.1} s, {:.1} s per thousand",
        path.display(),
        book.len(),
        args.level,
        secs,
        secs * 1000.0 / done as f64
    );
    Ok(())
}

/// Where an `--all` run stands, as the book's note keeps it: a line
/// `deepen --all (level L, max ply P, weights H): N of M positions`.
struct Run {
    /// The line's start, naming the run's settings.
    head: String,
    /// The positions the whole run searches.
    total: usize,
}

impl Run {
    fn of(args: &DeepenArgs, rules: Variant, total: usize) -> Run {
        let ply = args.max_ply.map_or("any".to_string(), |p| p.to_string());
        let weights = crate::knowledge::fnv1a(crate::knowledge::weights(rules));
        Run {
            head: format!(
                "deepen --all (level {}, max ply {ply}, weights {weights:016x}): ",
                args.level
            ),
            total,
        }
    }

    /// The positions an earlier run of the same settings has done.
    fn done(&self, note: &str) -> usize {
        note.lines()
            .filter_map(|l| l.strip_prefix(&self.head))
            .filter_map(|rest| rest.split(' ').next()?.parse().ok())
            .next_back()
            .unwrap_or(0)
    }

    /// `note` without this run's progress line.
    fn without(&self, note: &str) -> String {
        note.lines()
            .filter(|l| !l.starts_with(&self.head))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// `note` with this run's progress at `done` positions.
    fn at(&self, note: &str, done: usize) -> String {
        let line = format!("{}{done} of {} positions", self.head, self.total);
        [self.without(note), line]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The positions of `book` with a searched move below `depth`, at most
/// `max_ply` plies deep, shallowest first, then in key order.
pub fn shallow_first(book: &Book, depth: u32, max_ply: Option<u32>) -> Vec<Key> {
    let mut out: Vec<(u32, Key)> = book
        .iter()
        .filter(|(_, moves)| {
            moves
                .iter()
                .any(|m| m.origin == Origin::Searched && u32::from(m.depth) < depth)
        })
        .map(|(k, _)| (ply(&k.board()), *k))
        .filter(|&(p, _)| max_ply.is_none_or(|m| p <= m))
        .collect();
    out.sort_unstable();
    out.into_iter().map(|(_, k)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Move, Square};
    use crate::rules::Position;

    /// `pos` after its first legal move (in square order).
    fn after_first(pos: &Position) -> Position {
        let first = Square::new(pos.moves().trailing_zeros() as u8).unwrap();
        pos.play(Move::Play(first)).unwrap()
    }

    /// `board`'s moves searched at `level`, added to `book`, negamaxed.
    fn add(book: &mut Book, board: &Board, level: u32) -> Key {
        let pool = pool(Some(1)).unwrap();
        let tables = tables_for(&pool).unwrap();
        let k = crate::book::key::canonical(board).key;
        let lv = Level::number(level);
        for (b, moves) in search_all(&pool, &tables, &[k], Variant::Othello, lv) {
            book.insert(&b, &moves);
        }
        book.negamax();
        k
    }

    #[test]
    fn deepening_picks_positions_below_the_depth_shallowest_first() {
        let mut book = Book::new(Variant::Othello).unwrap();
        // After f5-like first move: three replies, two of them mirror images.
        let root = after_first(&Variant::Othello.start());
        let rk = add(&mut book, &root.board, 3);
        assert_eq!(shallow_first(&book, 3, None), Vec::<Key>::new());
        assert_eq!(shallow_first(&book, 4, None), vec![rk]);
        // A child one ply deeper, searched shallower: it comes after the root,
        // which keeps a searched move (the reply not leading to the child).
        let ck = add(&mut book, &after_first(&root).board, 2);
        assert_eq!(shallow_first(&book, 4, None), vec![rk, ck]);
        assert_eq!(shallow_first(&book, 4, Some(1)), vec![rk]);
        assert_eq!(shallow_first(&book, 3, None), vec![ck]);
        let searched = |k: &Key| {
            book.moves_of(k)
                .unwrap()
                .iter()
                .filter(|m| m.origin == Origin::Searched)
                .count()
        };
        assert!(searched(&rk) >= 1 && searched(&rk) < book.moves_of(&rk).unwrap().len());
    }
}
