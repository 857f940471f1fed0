//! `mollett book`: build, grow, merge and read opening books (the `.mlb`
//! files of [`crate::book`]).
//!
//! - `build` ([`build`]): from the start or an openings list, along the best
//!   lines and the near-best deviations, searching each new position's moves;
//!   in shards for many machines ([`shard`]).
//! - `learn` ([`learn`]): the games of a GGF file added to a book.
//! - `merge`: several books into a new one.
//! - `show`: a position's book moves, best first, as hints.
//! - `stats`: how big and how deep a book is.
//! - `import`, `export` ([`exchange`]): Edax's `book.dat` read and written.
//! - `lines` ([`lines`]): random lines along the book's moves.
//! - `check` ([`check`]): a sample of the book's values against fresh searches.
//! - `deepen` ([`deepen`]): a book's positions searched again at a higher level.
//!
//! Every tool names the file in its errors; a book file is replaced only
//! whole (a temporary file renamed over it) and only by a book.

pub mod build;
pub mod check;
pub mod deepen;
pub mod exchange;
pub mod learn;
pub mod lines;
pub mod shard;

use crate::book::{Book, BookMove, Origin, file};
use crate::rules::Variant;
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The most bytes read of a book file: the embedded one is a few MB; a book of
/// millions of positions still fits.
pub const BOOK_FILE_LIMIT: u64 = 1 << 30;

/// `mollett book`.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The book subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Grow a book from the start (or an openings list) along the best lines and
    /// the near-best deviations, searching each new position's moves at a level
    /// (resumable: run it again to go on).
    Build(build::BuildArgs),
    /// Add the games of a GGF file (a match's games file, say) to a book: their
    /// moves' wins, draws and losses, and their positions' moves searched.
    Learn(learn::LearnArgs),
    /// Merge books of one rule set into a new file (per move the deeper value
    /// and the games of all), then negamax.
    Merge(MergeArgs),
    /// Print a position's book moves, best first: square, value in discs, depth,
    /// where the value comes from and the games through it.
    Show(ShowArgs),
    /// Print a book's size, its positions by ply, its moves by origin and how
    /// far its main line goes.
    Stats(StatsArgs),
    /// Read an Edax book (`book.dat`) into a new Mollett book (`.mlb`).
    Import(exchange::ImportArgs),
    /// Write a Mollett book as an Edax book (`book.dat`) that Edax 4.x loads.
    Export(exchange::ExportArgs),
    /// Print random lines along a book's moves (seeded), one transcript a
    /// line: openings to start games from, or positions to check a book at.
    Lines(lines::LinesArgs),
    /// Compare a seeded sample of a book's values with fresh searches (book
    /// off): the mean error in discs, by ply band.
    Check(check::CheckArgs),
    /// Search a book's positions again at a higher level, shallowest first
    /// (resumable: run it again to go on).
    Deepen(deepen::DeepenArgs),
}

/// The book a subcommand works on.
#[derive(clap::Args, Debug)]
pub struct BookFileArgs {
    /// The book file (`.mlb`).
    pub book: PathBuf,
}

/// `mollett book merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The books to merge (at least one).
    #[arg(required = true)]
    pub books: Vec<PathBuf>,
    /// The merged book: a new file (never replaces one that exists).
    #[arg(long)]
    pub out: PathBuf,
}

/// `mollett book show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// A board string (64 squares then the side to move) or a transcript from
    /// the start (e.g. f5d6c3); default: the start.
    #[arg(allow_hyphen_values = true)]
    pub position: Option<String>,
    /// The book (default: the embedded one).
    #[arg(long)]
    pub book: Option<PathBuf>,
}

/// `mollett book stats`.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// The book (default: the embedded one).
    pub book: Option<PathBuf>,
}

/// Runs `mollett book`.
pub fn run_book(args: BookArgs) -> Result<()> {
    match args.command {
        BookCommand::Build(a) => build::run_build(a),
        BookCommand::Learn(a) => learn::run_learn(a),
        BookCommand::Merge(a) => run_merge(a),
        BookCommand::Show(a) => run_show(a),
        BookCommand::Stats(a) => run_stats(a),
        BookCommand::Import(a) => exchange::run_import(a),
        BookCommand::Export(a) => exchange::run_export(a),
        BookCommand::Lines(a) => lines::run_lines(a),
        BookCommand::Check(a) => check::run_check(a),
        BookCommand::Deepen(a) => deepen::run_deepen(a),
    }
}

/// Reads the book at `path`; errors name the file.
pub fn load(path: &Path) -> Result<Book> {
    let bytes = crate::input::read_regular_file_bytes(path, BOOK_FILE_LIMIT)
        .with_context(|| format!("book {}", path.display()))?;
    crate::book::read(&bytes).with_context(|| format!("book {}", path.display()))
}

/// The book given, or the embedded one.
pub fn load_given(path: Option<&Path>) -> Result<Book> {
    match path {
        Some(p) => load(p),
        None => Ok(file::parse(crate::book::EMBEDDED)?),
    }
}

/// The book at `path`, or a new one of `rules` if nothing is there.
pub fn load_or_new(path: &Path, rules: Variant) -> Result<Book> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(Book::new(rules)?);
    }
    let book = load_own(path)?;
    if book.rules() != rules {
        bail!(
            "book {}: a book of {}, not {} (--rules)",
            path.display(),
            book.rules().name(),
            rules.name()
        );
    }
    Ok(book)
}

/// Reads the Mollett book at `path`, to be changed and written back: an Edax
/// book (only ever read) is refused, as is a missing file.
pub fn load_own(path: &Path) -> Result<Book> {
    let bytes = crate::input::read_regular_file_bytes(path, BOOK_FILE_LIMIT)
        .with_context(|| format!("book {}", path.display()))?;
    if crate::book::edax::looks_like_edax(&bytes) {
        bail!(
            "book {}: an Edax book, which is only read; grow a Mollett book made from it \
             (mollett book import {0} --out FILE.mlb)",
            path.display()
        );
    }
    crate::book::read(&bytes).with_context(|| format!("book {}", path.display()))
}

/// Writes `book` to `path` whole, replacing only a book file.
pub fn save(path: &Path, book: &Book) -> Result<()> {
    crate::input::write_whole_over_own(path, &file::write(book), file::looks_like_book)
        .with_context(|| format!("book {}", path.display()))
}

fn run_merge(args: MergeArgs) -> Result<()> {
    let mut books = args.books.iter().map(|p| load(p));
    let mut merged = books.next().expect("clap requires one book")?;
    for (b, path) in books.zip(&args.books[1..]) {
        merged
            .merge(&b?)
            .with_context(|| format!("book {}", path.display()))?;
    }
    merged.note = format!(
        "{}\n{}",
        merged.note,
        crate::tools::learn::cli::command_line()
    );
    merged.negamax();
    write_new(&args.out, &file::write(&merged))?;
    say!("{}: {} positions", args.out.display(), merged.len());
    Ok(())
}

/// Writes `bytes` as the new file `out` (never replacing one), whole.
pub fn write_new(out: &Path, bytes: &[u8]) -> Result<()> {
    let (new, mut f) =
        crate::input::NewFile::create(out).with_context(|| format!("--out {}", out.display()))?;
    std::io::Write::write_all(&mut f, bytes)
        .and_then(|()| new.finish(f))
        .with_context(|| format!("--out {}", out.display()))
}

/// A book move as `show` prints it.
pub fn describe(m: &BookMove) -> String {
    let origin = match m.origin {
        Origin::Searched => "searched",
        Origin::Negamaxed => "negamaxed",
        Origin::Exact => "exact",
    };
    let mut s = format!(
        "{} {:+6.2} depth {:2} {origin}",
        m.square,
        f64::from(m.score) / 100.0,
        m.depth
    );
    if m.games.total() > 0 {
        s += &format!(
            " games {}/{}/{}",
            m.games.wins, m.games.draws, m.games.losses
        );
    }
    s
}

fn run_show(args: ShowArgs) -> Result<()> {
    let book = load_given(args.book.as_deref())?;
    let text = args.position.as_deref().unwrap_or("");
    let pos = if text.is_empty() {
        book.rules().start()
    } else {
        crate::tools::perft::parse_position_under(text, book.rules())?
    };
    match book.hints(&pos) {
        Some(hints) => hints.iter().for_each(|m| say!("{}", describe(m))),
        None => say!("not in the book"),
    }
    Ok(())
}

fn run_stats(args: StatsArgs) -> Result<()> {
    let book = load_given(args.book.as_deref())?;
    let mut by_ply: BTreeMap<u32, usize> = BTreeMap::new();
    let mut origins = [0usize; 3];
    let mut moves = 0usize;
    for (k, ms) in book.iter() {
        *by_ply.entry(crate::book::ply(&k.board())).or_default() += 1;
        for m in ms {
            moves += 1;
            origins[m.origin as usize] += 1;
        }
    }
    say!("rules      {}", book.rules().name());
    say!("positions  {}", book.len());
    say!(
        "moves      {moves} ({} searched, {} negamaxed, {} exact)",
        origins[0],
        origins[1],
        origins[2]
    );
    let bytes = match &args.book {
        Some(path) => std::fs::metadata(path).map_or(0, |m| m.len()),
        None => crate::book::EMBEDDED.len() as u64,
    };
    say!("file bytes {bytes}");
    let line = main_line(&book);
    say!("main line  {} plies: {}", line.len(), line.join(""));
    let plies: Vec<String> = by_ply.iter().map(|(p, n)| format!("{p}:{n}")).collect();
    say!("by ply     {}", plies.join(" "));
    for line in book.note.lines() {
        say!("note       {line}");
    }
    Ok(())
}

/// The book's best line from the start, as far as the book goes.
pub fn main_line(book: &Book) -> Vec<String> {
    let start = book.rules().start();
    match book.hints(&start) {
        Some(hints) => book
            .line(&start, hints[0].square)
            .iter()
            .map(ToString::to_string)
            .collect(),
        None => Vec::new(),
    }
}
