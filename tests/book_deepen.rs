//! `mollett book deepen` through the binary: a book's positions searched again
//! at a higher level, resumable, the same on any thread count, learned games
//! kept, foreign files refused.

mod common;

use common::{Scratch, build_small_book, learn_one_game, mollett, s};
use mollett::book::{Book, Origin, file};
use std::path::Path;

/// A small book: level 2, 8 plies, 2 discs of deviation, at most 80 positions.
fn build(path: &Path) {
    let (ok, _, err) = build_small_book(path, "8", "80", "2");
    assert!(ok, "{err}");
}

fn read(p: &Path) -> Book {
    file::parse(&std::fs::read(p).unwrap()).unwrap()
}

/// The book without its note (which names the commands).
fn positions(p: &Path) -> Book {
    let mut book = read(p);
    book.note.clear();
    book
}

fn deepen(path: &Path, extra: &[&str]) -> (bool, String, String) {
    let mut args = vec!["book", "deepen", s(path)];
    args.extend_from_slice(extra);
    mollett(&args)
}

/// The depths of the book's searched moves, lowest and highest.
fn searched_depths(book: &Book) -> (u8, u8) {
    let depths: Vec<u8> = book
        .iter()
        .flat_map(|(_, ms)| ms.iter())
        .filter(|m| m.origin == Origin::Searched)
        .map(|m| m.depth)
        .collect();
    (*depths.iter().min().unwrap(), *depths.iter().max().unwrap())
}

#[test]
fn deepen_searches_the_positions_below_a_level_once_and_goes_on() {
    let dir = Scratch::new("book-deepen");
    let (a, b) = (dir.join("a.mlb"), dir.join("b.mlb"));
    build(&a);
    std::fs::copy(&a, &b).unwrap();
    assert_eq!(searched_depths(&read(&a)), (2, 2));
    // Interrupted after 30 positions (a --max-positions stop), then run again.
    let (ok, out, err) = deepen(
        &a,
        &["--level", "3", "--max-positions", "30", "--threads", "1"],
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("30 of 80 positions searched again at level 3"),
        "{out}"
    );
    assert_eq!(searched_depths(&read(&a)), (2, 3));
    let (ok, out, _) = deepen(&a, &["--level", "3", "--threads", "2"]);
    assert!(
        ok && out.contains("positions searched again at level 3"),
        "{out}"
    );
    assert_eq!(searched_depths(&read(&a)), (3, 3));
    let (ok, out, _) = deepen(&a, &["--level", "3"]);
    assert!(ok && out.contains("nothing to do"), "{out}");
    // In one go on another thread count: the same book.
    assert!(deepen(&b, &["--level", "3", "--threads", "1"]).0);
    assert_eq!(positions(&a), positions(&b));
    // Only the shallow ones, then the rest at a higher level.
    let (ok, out, _) = deepen(&b, &["--level", "4", "--max-ply", "2"]);
    assert!(ok, "{out}");
    let book = read(&b);
    for (k, ms) in book.iter() {
        let ply = 60 - k.board().empties();
        for m in ms.iter().filter(|m| m.origin == Origin::Searched) {
            assert_eq!(m.depth, if ply <= 2 { 4 } else { 3 }, "ply {ply}");
        }
    }
    assert!(book.note.contains("mollett book deepen"), "{}", book.note);
}

#[test]
fn deepen_all_searches_everything_again_once_per_weights_and_resumes() {
    let dir = Scratch::new("book-deepen-all");
    let (a, b) = (dir.join("a.mlb"), dir.join("b.mlb"));
    build(&a);
    std::fs::copy(&a, &b).unwrap();
    let before = positions(&a);
    let (ok, out, err) = deepen(&a, &["--level", "2", "--all", "--max-positions", "25"]);
    assert!(ok, "{err}");
    assert!(out.contains("25 of 80 positions searched again"), "{out}");
    assert!(read(&a).note.contains("): 25 of "), "{}", read(&a).note);
    let (ok, out, _) = deepen(&a, &["--level", "2", "--all"]);
    assert!(
        ok && !out.contains(" 80 of 80"),
        "resumed, not started over: {out}"
    );
    let (ok, out, _) = deepen(&a, &["--level", "2", "--all"]);
    assert!(ok && out.contains("nothing to do"), "{out}");
    assert!(deepen(&b, &["--level", "2", "--all", "--threads", "1"]).0);
    let after = positions(&a);
    assert_eq!(after, positions(&b), "interrupted or not, the same book");
    // Searched again at the same level, the values are the same searches':
    // the build already scored its moves as deepen does.
    assert_eq!(after, before);
    // Another level is another run.
    let (ok, out, _) = deepen(&a, &["--level", "3", "--all", "--max-ply", "4"]);
    assert!(ok && out.contains("searched again at level 3"), "{out}");
}

#[test]
fn deepen_keeps_learned_games_and_refuses_what_is_not_its_own_book() {
    let dir = Scratch::new("book-deepen-files");
    let learned = dir.join("learned.mlb");
    let (ok, _, err) = learn_one_game(&dir.join("games.ggf"), &learned, "4");
    assert!(ok, "{err}");
    let games_of = |b: &Book| {
        let mut g: Vec<_> = b
            .iter()
            .flat_map(|(k, ms)| ms.iter().map(move |m| (*k, m.square, m.games)))
            .filter(|(_, _, g)| g.total() > 0)
            .collect();
        g.sort_by_key(|&(k, sq, _)| (k, sq.index()));
        g
    };
    let kept = games_of(&read(&learned));
    assert!(!kept.is_empty());
    assert!(deepen(&learned, &["--level", "3"]).0);
    assert_eq!(searched_depths(&read(&learned)).0, 3);
    assert_eq!(games_of(&read(&learned)), kept);

    // An Edax book is only read; a missing file is an error; neither is made.
    let edax = dir.join("book.dat");
    assert!(mollett(&["book", "export", s(&learned), "--out", s(&edax)]).0);
    let bytes = std::fs::read(&edax).unwrap();
    let (ok, _, err) = deepen(&edax, &["--level", "4"]);
    assert!(
        !ok && err.contains("Edax") && err.contains(s(&edax)),
        "{err}"
    );
    assert_eq!(std::fs::read(&edax).unwrap(), bytes);
    let missing = dir.join("missing.mlb");
    let (ok, _, err) = deepen(&missing, &["--level", "4"]);
    assert!(!ok && err.contains(s(&missing)), "{err}");
    assert!(!missing.exists());
}
