//! Lazy SMP: more threads never change an exact score (FFO 1–19 at 1 and 2
//! threads, FFO 20–39 at 2 threads against the scores `tests/endgame.rs` checks
//! at 1, FFO 1–39 at 4 threads against the files' scores), and a threaded
//! midgame search returns a legal move with a sensible line.

mod common;
use common::ffo_entries;
use mollett::Board;
use mollett::rules::Othello;
use mollett::search::{Level, ScoreKind, SearchRequest, search};
use mollett::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;

fn ffo(file: &str) -> Vec<Board> {
    ffo_entries(file)
        .into_iter()
        .map(|e| e.position.board)
        .collect()
}

fn exact(board: Board, threads: usize) -> i32 {
    let tt = TranspositionTable::new(16).unwrap();
    let stop = AtomicBool::new(false);
    let mut req = SearchRequest::<Othello>::new(board, Level::number(60));
    req.threads = threads;
    req.find_ties = false;
    let r = search(&req, &tt, &stop, &mut |_| {});
    assert_eq!(r.kind, ScoreKind::Exact);
    assert!(!r.stopped);
    r.score
}

#[test]
fn one_and_two_threads_give_equal_exact_scores() {
    let boards = ffo("fforum-1-19.obf");
    for (i, b) in boards.into_iter().enumerate() {
        assert_eq!(exact(b, 1), exact(b, 2), "FFO #{}", i + 1);
    }
}

/// FFO 20–39 at 2 threads against the file's scores, which `tests/endgame.rs`
/// checks the single-threaded solver against: together, 1 and 2 threads agree on
/// all of FFO 1–39. One table for the whole run, as `mollett solve` uses it.
#[test]
fn two_threads_solve_ffo_20_to_39_exactly() {
    let tt = TranspositionTable::new(64).unwrap();
    let stop = AtomicBool::new(false);
    for (i, e) in ffo_entries("fforum-20-39.obf").into_iter().enumerate() {
        let mut req = SearchRequest::<Othello>::new(e.position.board, Level::number(60));
        req.threads = 2;
        req.find_ties = false;
        let r = search(&req, &tt, &stop, &mut |_| {});
        assert_eq!(r.kind, ScoreKind::Exact);
        assert_eq!(r.score, e.scores[0].1 * 100, "FFO #{}", i + 20);
    }
}

/// Four threads (three helpers: two deepen their midgame passes one or two
/// plies past the main thread's, one keeps its depths) on FFO 1–39 against the
/// files' scores, with the ties the `solve` command looks for: on two cores the
/// threads take turns, and a score must still never depend on which thread
/// answered a node first.
#[test]
fn four_threads_solve_ffo_1_to_39_exactly() {
    let tt = TranspositionTable::new(64).unwrap();
    let stop = AtomicBool::new(false);
    let entries = ffo_entries("fforum-1-19.obf")
        .into_iter()
        .chain(ffo_entries("fforum-20-39.obf"));
    for (i, e) in entries.enumerate() {
        let mut req = SearchRequest::<Othello>::new(e.position.board, Level::number(60));
        req.threads = 4;
        let r = search(&req, &tt, &stop, &mut |_| {});
        let top = e.scores[0].1;
        assert_eq!(r.kind, ScoreKind::Exact);
        assert_eq!(r.score, top * 100, "FFO #{}", i + 1);
        let best = r.best.expect("a move");
        assert!(
            e.scores.iter().any(|&(m, v)| m == best && v == top),
            "FFO #{}: {best:?} is not among the best moves",
            i + 1
        );
    }
}

#[test]
fn threaded_midgame_search_plays_a_legal_move() {
    let tt = TranspositionTable::new(16).unwrap();
    let stop = AtomicBool::new(false);
    let mut req = SearchRequest::<Othello>::new(Board::START, Level::number(9));
    req.threads = 3;
    let r = search(&req, &tt, &stop, &mut |_| {});
    let best = r.best.and_then(|m| m.square()).expect("a square");
    assert!(Board::START.play(best).is_some());
    assert_eq!(r.kind, ScoreKind::Midgame(9));
    assert!(r.pv.len() >= 2);
}

fn budget(ms: u64) -> Option<mollett::search::TimeLimit> {
    let d = std::time::Duration::from_millis(ms);
    Some(mollett::search::TimeLimit { soft: d, hard: d })
}

#[test]
fn a_tiny_time_budget_still_returns_a_legal_move() {
    let tt = TranspositionTable::new(16).unwrap();
    for (board, threads) in [(Board::START, 1), (ffo("fforum-40-59.obf")[9], 2)] {
        let stop = AtomicBool::new(false);
        let mut req = SearchRequest::<Othello>::new(board, Level::number(60));
        req.threads = threads;
        req.time = budget(10);
        let t = std::time::Instant::now();
        let r = search(&req, &tt, &stop, &mut |_| {});
        assert!(t.elapsed().as_millis() < 1000, "took {:?}", t.elapsed());
        let sq = r.best.and_then(|m| m.square()).expect("a square");
        assert!(board.play(sq).is_some(), "{sq} is legal");
    }
}

#[test]
fn a_lone_legal_move_is_played_at_once() {
    // Black f1 against White g1: Black's only move is h1.
    let board = Board::new(1 << 5, 1 << 6);
    assert_eq!(board.moves(), 1 << 7);
    let tt = TranspositionTable::new(1).unwrap();
    let stop = AtomicBool::new(false);
    let mut req = SearchRequest::<Othello>::new(board, Level::number(60));
    req.time = budget(5000);
    let t = std::time::Instant::now();
    let r = search(&req, &tt, &stop, &mut |_| {});
    assert!(t.elapsed().as_millis() < 100);
    assert_eq!(r.best.and_then(|m| m.square()).map(|s| s.index()), Some(7));
}

#[test]
fn a_stop_ends_an_exact_solve_promptly_and_the_table_stays_usable() {
    let boards = ffo("fforum-40-59.obf");
    let tt = TranspositionTable::new(16).unwrap();
    let stop = AtomicBool::new(false);
    let mut req = SearchRequest::<Othello>::new(boards[9], Level::number(60));
    req.threads = 2;
    let latency = std::thread::scope(|s| {
        let h = s.spawn(|| {
            let r = search(&req, &tt, &stop, &mut |_| {});
            (r, std::time::Instant::now())
        });
        std::thread::sleep(std::time::Duration::from_millis(100));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let raised = std::time::Instant::now();
        let (r, ended) = h.join().unwrap();
        assert!(r.stopped);
        let sq = r.best.and_then(|m| m.square()).expect("a square");
        assert!(boards[9].play(sq).is_some());
        ended.saturating_duration_since(raised)
    });
    assert!(latency.as_millis() < 500, "stop took {latency:?}");
    // The engine goes on: the same table serves a fresh exact solve.
    stop.store(false, std::sync::atomic::Ordering::Relaxed);
    let mut req = SearchRequest::<Othello>::new(ffo("fforum-1-19.obf")[0], Level::number(60));
    req.threads = 2;
    let r = search(&req, &tt, &stop, &mut |_| {});
    assert_eq!(
        (r.score, r.kind, r.stopped),
        (1800, ScoreKind::Exact, false)
    );
}

#[test]
fn more_threads_than_the_system_gives_still_search() {
    // Far more helpers than a test machine lets start: those it refuses are left
    // out, and the search still answers exactly.
    let board = ffo("fforum-1-19.obf")[0];
    let tt = TranspositionTable::new(4).unwrap();
    let stop = AtomicBool::new(false);
    let mut req = SearchRequest::<Othello>::new(board, Level::number(60));
    req.threads = 64;
    let r = search(&req, &tt, &stop, &mut |_| {});
    assert_eq!((r.score, r.kind), (1800, ScoreKind::Exact));
}
