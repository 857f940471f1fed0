//! Lazy SMP: more threads never change an exact score, and a threaded midgame
//! search returns a legal move with a sensible line.

use mollett::Board;
use mollett::format::parse_obf;
use mollett::search::{Level, ScoreKind, SearchRequest, search};
use mollett::tt::TranspositionTable;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

fn ffo(file: &str) -> Vec<Board> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/ffo")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("the FFO files live in ../shared/ffo");
    parse_obf(&text)
        .expect("FFO files parse")
        .into_iter()
        .map(|(_, e)| e.position.board)
        .collect()
}

fn exact(board: Board, threads: usize) -> i32 {
    let tt = TranspositionTable::new(16).unwrap();
    let stop = AtomicBool::new(false);
    let mut req = SearchRequest::new(board, Level::number(60));
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

#[test]
fn threaded_midgame_search_plays_a_legal_move() {
    let tt = TranspositionTable::new(16).unwrap();
    let stop = AtomicBool::new(false);
    let mut req = SearchRequest::new(Board::START, Level::number(9));
    req.threads = 3;
    let r = search(&req, &tt, &stop, &mut |_| {});
    let best = r.best.and_then(|m| m.square()).expect("a square");
    assert!(Board::START.play(best).is_some());
    assert_eq!(r.kind, ScoreKind::Midgame(9));
    assert!(r.pv.len() >= 2);
}
