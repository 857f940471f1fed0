//! `mollett book learn`: a GGF file's games added to a book (NBoard's `learn`,
//! Edax's `book store`).
//!
//! Each finished game under the book's rules adds, for every position of its
//! first `--depth` plies, a win, draw or loss to the move played there (for the
//! side that played it). Every position that this makes new to the book has
//! all its moves searched at `--level`, as `build` does; then the book is
//! negamaxed and written whole. Unfinished games and games of other rules are
//! left out and counted.

use super::{BookFileArgs, load_or_new, save};
use crate::book::{Book, Games, key};
use crate::format::ggf::parse_ggf_records;
use crate::rules::Variant;
use crate::search::Level;
use crate::tools::book::build::search_moves;
use crate::tt::TranspositionTable;
use anyhow::{Context, Result};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The most bytes read of a games file (a long match writes a few MB).
pub const GAMES_FILE_LIMIT: u64 = 256 << 20;

/// `mollett book learn`.
#[derive(clap::Args, Debug)]
pub struct LearnArgs {
    /// The book to add to: made if missing.
    #[command(flatten)]
    pub file: BookFileArgs,
    /// The games: a GGF file, one or more records.
    #[arg(long, value_name = "FILE")]
    pub games: PathBuf,
    /// Learn the positions of the first this many plies of each game.
    #[arg(long, default_value_t = 20)]
    pub depth: u32,
    /// The level the moves of positions new to the book are searched at.
    #[arg(long, default_value = "12")]
    pub level: Level,
    /// The rules of a new book: othello (default) or anti.
    #[arg(long, default_value = "othello", value_parser = crate::tools::learn::cli::parse_rules)]
    pub rules: Variant,
}

/// What learning a file did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// Games learned.
    pub games: usize,
    /// Games left out: unfinished, or of other rules.
    pub left_out: usize,
    /// Positions new to the book (each searched).
    pub new_positions: usize,
}

/// Runs `mollett book learn`.
pub fn run_learn(args: LearnArgs) -> Result<()> {
    let path = &args.file.book;
    let mut book = load_or_new(path, args.rules)?;
    let text = crate::input::read_regular_file(&args.games, GAMES_FILE_LIMIT)
        .with_context(|| format!("--games {}", args.games.display()))?;
    let learned = learn_games(&mut book, &text, args.depth, args.level)
        .with_context(|| format!("--games {}", args.games.display()))?;
    book.note = format!(
        "{}\n{}",
        book.note,
        crate::tools::learn::cli::command_line()
    )
    .trim_start()
    .to_string();
    save(path, &book)?;
    say!(
        "{}: learned {} games ({} left out: unfinished or of other rules), {} new positions, {} in all",
        path.display(),
        learned.games,
        learned.left_out,
        learned.new_positions,
        book.len()
    );
    Ok(())
}

/// Adds the games of a GGF text to `book` (see the module's text) and
/// negamaxes it.
pub fn learn_games(book: &mut Book, ggf: &str, depth: u32, level: Level) -> Result<Learned> {
    let records = parse_ggf_records(ggf)?;
    let mut out = Learned::default();
    let mut touched = BTreeSet::new();
    for r in &records {
        let Ok(game) = r.to_game(book.rules()) else {
            out.left_out += 1;
            continue;
        };
        if game.start.variant != book.rules() || !game.is_over() {
            out.left_out += 1;
            continue;
        }
        out.games += 1;
        let positions = game.positions();
        let black = positions
            .last()
            .expect("a game has a position")
            .final_score_black();
        for (pos, mv) in positions.iter().zip(&game.moves) {
            let Some(sq) = mv.square() else { continue };
            if 60 - pos.board.empties() >= depth {
                break;
            }
            let mover = if pos.side == crate::board::Color::Black {
                black
            } else {
                -black
            };
            let games = Games {
                wins: u32::from(mover > 0),
                draws: u32::from(mover == 0),
                losses: u32::from(mover < 0),
            };
            if !book.contains(&pos.board) {
                touched.insert(key::canonical(&pos.board).key);
            }
            book.add_games(&pos.board, sq, games, 0);
        }
    }
    let tt = TranspositionTable::new(16)?;
    for k in &touched {
        let board = k.board();
        let kept: Vec<_> = book.moves_of(k).unwrap_or_default().to_vec();
        let mut moves = search_moves(&board, book.rules(), level, &tt);
        for m in &mut moves {
            if let Some(old) = kept.iter().find(|o| o.square == m.square) {
                m.games = old.games;
            }
        }
        book.insert(&board, &moves);
    }
    out.new_positions = touched.len();
    book.negamax();
    Ok(out)
}
