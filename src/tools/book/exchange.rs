//! `mollett book import` and `export`: books passed to and from Edax, whose
//! `book.dat` [`crate::book::edax`] reads and writes.

use super::{BOOK_FILE_LIMIT, load_given, write_new};
use crate::book::edax::{self, EdaxDate};
use crate::book::file;
use anyhow::{Context, Result};
use std::path::PathBuf;

/// `mollett book import`.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The Edax book (`book.dat`).
    pub edax_book: PathBuf,
    /// The Mollett book to write: a new file (never replaces one that exists).
    #[arg(long)]
    pub out: PathBuf,
}

/// `mollett book export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The Mollett book (default: the embedded one).
    pub book: Option<PathBuf>,
    /// The Edax book to write: a new file (never replaces one that exists).
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `mollett book import`.
pub fn run_import(args: ImportArgs) -> Result<()> {
    let path = &args.edax_book;
    let bytes = crate::input::read_regular_file_bytes(path, BOOK_FILE_LIMIT)
        .with_context(|| format!("book {}", path.display()))?;
    let mut book = edax::parse(&bytes).with_context(|| format!("book {}", path.display()))?;
    book.note = format!(
        "{}\n{}",
        book.note,
        crate::tools::learn::cli::command_line()
    );
    write_new(&args.out, &file::write(&book))?;
    say!(
        "{}: {} positions from {}",
        args.out.display(),
        book.len(),
        path.display()
    );
    Ok(())
}

/// Runs `mollett book export`.
pub fn run_export(args: ExportArgs) -> Result<()> {
    let book = load_given(args.book.as_deref())?;
    let bytes =
        edax::write(&book, today()).with_context(|| format!("--out {}", args.out.display()))?;
    write_new(&args.out, &bytes)?;
    let positions = i32::from_le_bytes(bytes[38..42].try_into().expect("4 bytes"));
    say!(
        "{}: {positions} positions for Edax (the book's {} and the passes between them)",
        args.out.display(),
        book.len()
    );
    Ok(())
}

/// Now, in UTC, as an Edax book's date.
fn today() -> EdaxDate {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days((secs / 86_400) as i64);
    let t = secs % 86_400;
    EdaxDate {
        year: year as i16,
        month,
        day,
        hour: (t / 3600) as u8,
        minute: (t / 60 % 60) as u8,
        second: (t % 60) as u8,
    }
}

/// The proleptic Gregorian date of day `z` counted from 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u8, u8) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn days_turn_into_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_792), (2026, 12, 5));
    }
}
