//! Books passed to and from Edax, and random lines from a book, through the
//! binary: `mollett book import|export|lines`, and an Edax `book.dat` given
//! straight to `--book`.

mod common;

use common::{Scratch, mollett, run_script, s};
use mollett::book::Book;
use std::path::{Path, PathBuf};

/// A book written by Edax 4.6 itself (`book new 2 5`, `book deviate 0 0`).
fn edax_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/edax-4.6-level2-depth5.dat")
}

fn read_book(p: &Path) -> Book {
    mollett::book::read(&std::fs::read(p).unwrap()).unwrap()
}

/// Every position's best move and score, key by key.
fn bests(book: &Book) -> Vec<(String, String, i16)> {
    let mut out: Vec<_> = book
        .iter()
        .map(|(key, moves)| {
            let best = mollett::book::best_of(moves).unwrap();
            (format!("{key:?}"), best.square.to_string(), best.score)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn an_edax_book_imports_and_is_played_from_directly() {
    let dir = Scratch::new("book-import");
    let out = dir.join("from-edax.mlb");
    let (ok, text, err) = mollett(&["book", "import", s(&edax_fixture()), "--out", s(&out)]);
    assert!(ok, "{err}");
    assert!(text.contains("401 positions"), "{text}");
    let (ok, stats, _) = mollett(&["book", "stats", s(&out)]);
    assert!(ok && stats.contains("positions  401"), "{stats}");
    assert!(stats.contains("imported from an Edax 4.6 book"), "{stats}");
    assert_eq!(bests(&read_book(&out)), bests(&read_book(&edax_fixture())));
    // The same file again is refused, and left as it was.
    let before = std::fs::read(&out).unwrap();
    let (ok, _, err) = mollett(&["book", "import", s(&edax_fixture()), "--out", s(&out)]);
    assert!(!ok && err.contains("exists"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // The Edax file itself serves as --book: the first move comes from it.
    let (stdout, _) = run_script(
        &[
            "--threads",
            "1",
            "--level",
            "2",
            "--book",
            s(&edax_fixture()),
        ],
        "go\nquit\n",
    );
    assert!(stdout.contains(" depth book "), "{stdout}");
    let (ok, show, _) = mollett(&["book", "show", "f5", "--book", s(&edax_fixture())]);
    assert!(ok && show.lines().count() == 3, "{show}");
    // It is only read: growing it is refused before any search.
    let copy = dir.join("book.dat");
    std::fs::copy(edax_fixture(), &copy).unwrap();
    let (ok, _, err) = mollett(&["book", "build", s(&copy), "--level", "1"]);
    assert!(!ok && err.contains("an Edax book"), "{err}");
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(edax_fixture()).unwrap()
    );
}

#[test]
fn a_book_exported_for_edax_comes_back_with_the_same_best_values() {
    let dir = Scratch::new("book-export");
    let dat = dir.join("book.dat");
    let (ok, text, err) = mollett(&["book", "export", "--out", s(&dat)]);
    assert!(ok, "{err}");
    assert!(text.contains("positions for Edax"), "{text}");
    let bytes = std::fs::read(&dat).unwrap();
    assert_eq!(&bytes[..8], b"XADEKOOB", "Edax's magic, little-endian");
    let back = dir.join("back.mlb");
    assert!(mollett(&["book", "import", s(&dat), "--out", s(&back)]).0);
    let embedded = mollett::book::file::parse(mollett::book::EMBEDDED).unwrap();
    let imported = read_book(&back);
    assert_eq!(imported.len(), embedded.len());
    // Edax keeps whole discs: each position's best value comes back rounded.
    let rounded: Vec<i16> = bests(&embedded)
        .iter()
        .map(|b| ((f64::from(b.2) / 100.0).round() * 100.0) as i16)
        .collect();
    let back_values: Vec<i16> = bests(&imported).iter().map(|b| b.2).collect();
    assert_eq!(back_values, rounded);
    // Export never replaces a file; a Mollett file given for import is
    // refused naming it.
    let (ok, _, err) = mollett(&["book", "export", "--out", s(&back)]);
    assert!(!ok && err.contains("exists"), "{err}");
    let (ok, _, err) = mollett(&["book", "import", s(&back), "--out", s(&dir.join("x.mlb"))]);
    assert!(!ok && err.contains("back.mlb"), "{err}");
    assert!(!dir.join("x.mlb").exists());
}

#[test]
fn book_lines_are_distinct_seeded_and_follow_the_book() {
    let args = [
        "book",
        "lines",
        "--count",
        "40",
        "--min-plies",
        "6",
        "--max-plies",
        "12",
        "--deviation",
        "2",
        "--seed",
        "7",
    ];
    let (ok, first, err) = mollett(&args);
    assert!(ok, "{err}");
    let (_, again, _) = mollett(&args);
    assert_eq!(first, again, "the same seed, the same lines");
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 40);
    let mut unique = lines.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), 40, "distinct lines");
    let book = mollett::book::file::parse(mollett::book::EMBEDDED).unwrap();
    for line in &lines {
        assert!((12..=24).contains(&line.len()), "{line}");
        let mut pos = book.rules().start();
        for ply in line.as_bytes().chunks(2) {
            let text = std::str::from_utf8(ply).unwrap();
            let hints = book.hints(&pos).expect("every position is in the book");
            let best = hints[0].score;
            let mv = hints
                .iter()
                .find(|m| m.square.to_string() == text)
                .unwrap_or_else(|| panic!("{text} is a book move in {line}"));
            assert!(mv.score >= best - 200, "within 2 discs: {line}");
            pos = pos.play(mollett::board::Move::Play(mv.square)).unwrap();
        }
    }
    let (ok, other, _) = mollett(&[&args[..10], &["--seed", "8"]].concat());
    assert!(ok && other != first);
    // More lines than a tiny book holds: an error, not a hang.
    let (ok, _, err) = mollett(&["book", "lines", "--count", "50", "--max-plies", "1"]);
    assert!(!ok && err.contains("distinct lines"), "{err}");
    let (ok, _, err) = mollett(&["book", "lines", "--max-plies", "61"]);
    assert!(!ok && err.contains("60"), "{err}");
}

#[test]
fn book_check_compares_a_seeded_sample_with_searches() {
    let args = [
        "book",
        "check",
        "--sample",
        "6",
        "--level",
        "2",
        "--threads",
        "1",
        "--seed",
        "3",
    ];
    let (ok, out, err) = mollett(&args);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("6 positions of 40000 (seed 3), searched at level 2, book off:"),
        "{out}"
    );
    assert!(
        out.contains("all:    6 positions, mean |book - search| "),
        "{out}"
    );
    assert_eq!(
        mollett(&args).1,
        out,
        "the same seed, the same sample and figures"
    );
    let dir = Scratch::new("book-check");
    let empty = dir.join("empty.mlb");
    std::fs::write(
        &empty,
        mollett::book::file::write(&Book::new(Default::default()).unwrap()),
    )
    .unwrap();
    let (ok, _, err) = mollett(&["book", "check", "--book", s(&empty)]);
    assert!(!ok && err.contains("no positions"), "{err}");
}
