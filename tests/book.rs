//! The opening book through the binary: `mollett book build|learn|merge|show|
//! stats`, and the engine playing and hinting from a book in every dialect.

mod common;

use common::{
    Engine, Scratch, build_small_book, gtp_response, learn_one_game, mollett, run_script, s,
};
use std::path::Path;

/// A small book: level 2, 10 plies, 2 discs of deviation, at most 120 positions.
fn build(path: &Path, threads: &str) -> (bool, String, String) {
    build_small_book(path, "10", "120", threads)
}

/// Whether two book files hold the same positions and moves (their notes,
/// which name the commands, aside).
fn same_positions(a: &Path, b: &Path) -> bool {
    let read = |p: &Path| {
        let mut book = mollett::book::file::parse(&std::fs::read(p).unwrap()).unwrap();
        book.note.clear();
        book
    };
    read(a) == read(b)
}

#[test]
fn a_build_is_the_same_on_any_thread_count_and_goes_on_from_its_file() {
    let dir = Scratch::new("book-build");
    let (one, two) = (dir.join("one.mlb"), dir.join("two.mlb"));
    let (ok, out, err) = build(&one, "1");
    assert!(ok, "{err}");
    assert!(
        out.contains("120 positions (120 new)"),
        "the limit is reached: {out}"
    );
    assert!(build(&two, "2").0);
    assert!(
        same_positions(&one, &two),
        "one thread and two build the same book"
    );
    // Run again, it has nothing left to do within its limit.
    let (ok, out, _) = build(&one, "2");
    assert!(ok && out.contains("120 positions (0 new)"), "{out}");
    assert!(same_positions(&one, &two));
    let (ok, stats, _) = mollett(&["book", "stats", s(&one)]);
    assert!(ok);
    assert!(stats.contains("positions  120"), "{stats}");
    assert!(stats.contains("note       mollett book build"), "{stats}");
    let (ok, show, _) = mollett(&["book", "show", "f5", "--book", s(&one)]);
    assert!(ok);
    let moves: Vec<&str> = show.lines().map(|l| &l[..2]).collect();
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["d6", "f4", "f6"], "{show}");
}

#[test]
fn bad_book_files_are_refused_naming_the_file_and_nothing_is_replaced() {
    let dir = Scratch::new("book-bad");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let (ok, _, err) = mollett(&["--book", s(&notes), "--protocol", "console"]);
    assert!(
        !ok && err.contains("notes.txt") && err.contains("neither a Mollett book"),
        "{err}"
    );
    let (ok, _, err) = build(&notes, "1");
    assert!(!ok && err.contains("notes.txt"), "{err}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    let (ok, _, err) = mollett(&["book", "stats", s(&dir.join("missing.mlb"))]);
    assert!(!ok && err.contains("missing.mlb"), "{err}");
    // A damaged book: one byte changed.
    let book = dir.join("b.mlb");
    assert!(build(&book, "1").0);
    let mut bytes = std::fs::read(&book).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&book, &bytes).unwrap();
    let (ok, _, err) = mollett(&["book", "show", "--book", s(&book)]);
    assert!(!ok && err.contains("checksum"), "{err}");
    // Merge never replaces a file.
    let (ok, _, err) = mollett(&["book", "merge", s(&book), "--out", s(&notes)]);
    assert!(!ok, "{err}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
}

/// The shipped book's file (the one embedded in the binary).
fn shipped() -> String {
    format!("{}/book/othello.mlb", env!("CARGO_MANIFEST_DIR"))
}

/// The console's answer lines to `script` with the shipped book and `args`.
fn console(args: &[&str], script: &str) -> Vec<String> {
    let book = shipped();
    let mut all = vec!["--threads", "1", "--level", "4", "--book", book.as_str()];
    all.extend_from_slice(args);
    run_script(&all, script)
        .0
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn the_console_plays_from_the_book_and_can_turn_it_off() {
    let out = console(&[], "go\nhint 4\nbook\nbook off\ngo\nbook\nquit\n");
    assert!(
        out[0].starts_with("move ") && out[0].contains(" depth book nodes 0 "),
        "{out:?}"
    );
    let hints: Vec<&String> = out.iter().filter(|l| l.starts_with("hint ")).collect();
    assert_eq!(hints.len(), 3, "three answers to the first move: {out:?}");
    assert!(hints.iter().all(|l| l.contains("depth book")), "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("book on (") && l.contains("randomness 0.00"))
    );
    let searched = out
        .iter()
        .filter(|l| l.starts_with("move "))
        .nth(1)
        .unwrap();
    assert!(searched.contains(" depth 4 "), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("book off (")), "{out:?}");
    let none = run_script(&["--book", "off"], "book\nbook on\nquit\n").0;
    assert!(none.contains("book none"), "{none}");
    assert!(none.contains("error: no book is loaded"), "{none}");
}

/// The first move the console plays from the start with `seed` and
/// `randomness`.
fn first_move(seed: &str, randomness: &str) -> String {
    let out = console(
        &["--seed", seed, "--book-randomness", randomness],
        "go\nquit\n",
    );
    out[0].split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn book_randomness_is_drawn_by_the_seed() {
    // At the start all four moves are equal: the seed draws one, the same
    // seed the same one.
    let firsts: Vec<String> = (0..12).map(|s| first_move(&s.to_string(), "0")).collect();
    assert_eq!(
        firsts,
        (0..12)
            .map(|s| first_move(&s.to_string(), "0"))
            .collect::<Vec<_>>()
    );
    let distinct: std::collections::HashSet<&String> = firsts.iter().collect();
    assert!(distinct.len() >= 3, "{firsts:?}");
    // After f5, randomness 0 always answers the book's best; a large
    // randomness plays the others too.
    let answer = |seed: u64, r: &str| {
        console(
            &["--seed", &seed.to_string(), "--book-randomness", r],
            "f5\ngo\nquit\n",
        )[0]
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string()
    };
    let best: std::collections::HashSet<String> = (0..8).map(|s| answer(s, "0")).collect();
    assert_eq!(best.len(), 1, "{best:?}");
    let wide: std::collections::HashSet<String> = (0..16).map(|s| answer(s, "64")).collect();
    assert_eq!(wide.len(), 3, "{wide:?}");
    let (ok, _, err) = mollett(&["--book-randomness=-1"]);
    assert!(!ok && err.contains("discs"), "{err}");
}

#[test]
fn nboard_marks_book_hints_and_set_book_turns_the_book_off() {
    let book = shipped();
    let mut e = Engine::spawn(&["--threads", "1", "--book", &book]);
    e.send("nboard 2");
    e.send("set depth 4");
    e.send("set game (;GM[Othello]PC[NBoard]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[F5];)");
    // A ping stops a search: each hint is let finish first.
    e.send("hint 3");
    let lines = e.until(|l| l == "status Mollett is waiting");
    let book_lines: Vec<&String> = lines.iter().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(book_lines.len(), 3, "{lines:?}");
    for l in &book_lines {
        let f: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(f.len(), 5, "book PV EVAL GAMES DEPTH: {l}");
        assert!(
            f[2].parse::<f64>().is_ok() && f[3].parse::<u64>().is_ok(),
            "{l}"
        );
    }
    assert!(!lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    e.send("set book off");
    e.send("hint 1");
    let lines = e.until(|l| l == "status Mollett is waiting");
    assert!(lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("book ")), "{lines:?}");
    e.send("set book sometimes");
    e.send("ping 3");
    let lines = e.until(|l| l == "pong 3");
    assert!(
        lines.iter().any(|l| l.starts_with("status set book: ")),
        "{lines:?}"
    );
}

#[test]
fn gtp_plays_from_the_book_and_mollett_book_sets_it() {
    let book = shipped();
    let mut e = Engine::spawn(&[
        "--protocol",
        "gtp",
        "--threads",
        "1",
        "--level",
        "1",
        "--book",
        &book,
    ]);
    e.send("mollett-book");
    assert!(gtp_response(&mut e)[0].starts_with("= book on ("));
    e.send("play b f5");
    gtp_response(&mut e);
    e.send("reg_genmove w");
    let from_book = gtp_response(&mut e);
    e.send("mollett-book randomness x");
    assert!(gtp_response(&mut e)[0].starts_with("? "));
    e.send("mollett-book off");
    assert_eq!(gtp_response(&mut e), ["="]);
    e.send("mollett-book");
    assert!(gtp_response(&mut e)[0].starts_with("= book off ("));
    let hints = console(&[], "f5\nhint 1\nquit\n");
    let best = hints[0].split_whitespace().nth(1).unwrap();
    assert_eq!(from_book, [format!("= {best}")]);
}

#[test]
fn learn_adds_a_games_moves_and_merge_adds_books() {
    let dir = Scratch::new("book-learn");
    let learned = dir.join("learned.mlb");
    let (ok, out, err) = learn_one_game(&dir.join("games.ggf"), &learned, "6");
    assert!(ok, "{err}");
    assert!(
        out.contains("learned 1 games") && out.contains("6 new positions"),
        "{out}"
    );
    let (_, show, _) = mollett(&["book", "show", "--book", s(&learned)]);
    assert!(
        show.lines().any(|l| l.contains("games 1/0/0")
            || l.contains("games 0/0/1")
            || l.contains("games 0/1/0")),
        "{show}"
    );
    let built = dir.join("built.mlb");
    assert!(build(&built, "1").0);
    let merged = dir.join("merged.mlb");
    let (ok, out, err) = mollett(&["book", "merge", s(&built), s(&learned), "--out", s(&merged)]);
    assert!(ok, "{err}");
    assert!(out.contains("positions"), "{out}");
    let (ok, _, err) = mollett(&["book", "merge", s(&built), "--out", s(&merged)]);
    assert!(!ok && err.contains("exists"), "{err}");
}

#[test]
fn analyze_marks_the_moves_of_the_book() {
    let (ok, out, err) = mollett(&["analyze", "f5d6c3d3c4a1", "--level", "1", "--json"]);
    // a1 is no move there: the game is refused, the others are read.
    assert!(!ok, "{out}{err}");
    let (ok, out, err) = mollett(&["analyze", "f5d6c3d3c4", "--level", "1", "--json"]);
    assert!(ok, "{err}");
    let books: Vec<bool> = out
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["book"]
                .as_bool()
                .unwrap()
        })
        .collect();
    assert_eq!(books, [true; 5], "the tiger is in the book: {out}");
    let (ok, out, _) = mollett(&["analyze", "f5d6c3d3c4", "--level", "1", "--book", "off"]);
    assert!(ok && !out.contains("book"), "{out}");
}

#[test]
fn shards_share_the_trunk_split_the_subtrees_and_merge() {
    let dir = Scratch::new("book-shards");
    let shard = |i: &str| {
        let path = dir.join(format!("shard-{i}.mlb"));
        let (ok, out, err) = mollett(&[
            "book",
            "build",
            s(&path),
            "--level",
            "1",
            "--depth",
            "6",
            "--deviation",
            "4",
            "--threads",
            "1",
            "--shard",
            &format!("{i}/2"),
            "--trunk-depth",
            "3",
        ]);
        assert!(ok, "{err}");
        (path, out)
    };
    let ((one, _), (two, _)) = (shard("1"), shard("2"));
    let plies = |p: &Path| {
        let book = mollett::book::file::parse(&std::fs::read(p).unwrap()).unwrap();
        let mut by_ply: Vec<Vec<String>> = vec![Vec::new(); 61];
        for (k, _) in book.iter() {
            by_ply[60 - k.board().empties() as usize].push(format!("{k:?}"));
        }
        by_ply.iter_mut().for_each(|v| v.sort_unstable());
        by_ply
    };
    let (a, b) = (plies(&one), plies(&two));
    for ply in 0..=3 {
        assert_eq!(a[ply], b[ply], "the same trunk at ply {ply}");
    }
    assert!(
        !a[4].is_empty() && !b[4].is_empty(),
        "each shard has subtrees"
    );
    assert!(
        a[4].iter().all(|k| !b[4].contains(k)),
        "the subtrees' roots are split"
    );
    assert!(
        !a[6].is_empty() && !b[6].is_empty(),
        "the subtrees grow to --depth"
    );
    // Run again: nothing left to do.
    let (_, out) = shard("1");
    assert!(out.contains("(0 new)"), "{out}");
    let merged = dir.join("all.mlb");
    let (ok, out, err) = mollett(&["book", "merge", s(&one), s(&two), "--out", s(&merged)]);
    assert!(ok, "{err}");
    let c = plies(&merged);
    assert_eq!(c[4].len(), a[4].len() + b[4].len(), "{out}");
    // A shard must be I/N with 1 <= I <= N.
    let (ok, _, err) = mollett(&["book", "build", s(&dir.join("x.mlb")), "--shard", "3/2"]);
    assert!(!ok && err.contains("shard"), "{err}");
}
