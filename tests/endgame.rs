//! The exact solver against the FFO endgame test suite (`tests/data/ffo`): every
//! position's score must equal the file's best score, and the chosen move must be
//! one the file scores as best. FFO 1–39 run by default; 40–59 are `#[ignore]`d
//! (minutes each): `cargo test --release --test endgame -- --ignored`.

mod common;
use common::ffo_entries as ffo;
use mollett::search::endgame::Solver;
use mollett::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;

/// Solves entries `range` of `file` with a full window and checks score and move.
fn check(file: &str, range: std::ops::Range<usize>) {
    let entries = ffo(file);
    let tt = TranspositionTable::new(64).unwrap();
    let stop = AtomicBool::new(false);
    for (i, e) in entries
        .iter()
        .enumerate()
        .skip(range.start)
        .take(range.len())
    {
        tt.clear();
        let mut solver = Solver::new(&tt, &stop);
        let r = solver.solve(e.position.board, -64, 64);
        let want = e.scores[0].1;
        assert_eq!(r.score, want, "{file} line {}: score", i + 1);
        let best = r.best().expect("a move");
        let listed = e
            .scores
            .iter()
            .find(|(m, _)| m.square().map(|s| s.index()) == Some(best))
            .map(|&(_, s)| s);
        assert_eq!(listed, Some(want), "{file} line {}: move {best}", i + 1);
        // Win/loss/draw: the sign, through the null-window window (-1, 1).
        tt.clear();
        let mut solver = Solver::new(&tt, &stop);
        let w = solver.solve(e.position.board, -1, 1);
        assert_eq!(
            w.score.signum(),
            want.signum(),
            "{file} line {}: WLD",
            i + 1
        );
    }
}

#[test]
fn ffo_1_to_19() {
    check("fforum-1-19.obf", 0..19);
}

#[test]
fn ffo_20_to_29() {
    check("fforum-20-39.obf", 0..10);
}

#[test]
fn ffo_30_to_35() {
    check("fforum-20-39.obf", 10..16);
}

#[test]
fn ffo_36_to_39() {
    check("fforum-20-39.obf", 16..20);
}

#[test]
#[ignore]
fn ffo_40_to_49() {
    check("fforum-40-59.obf", 0..10);
}

#[test]
#[ignore]
fn ffo_50_to_59() {
    check("fforum-40-59.obf", 10..20);
}
