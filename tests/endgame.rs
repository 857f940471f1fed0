//! The exact solver against the FFO endgame test suite (`tests/data/ffo`): every
//! position's score must equal the file's best score, and the chosen move must be
//! one the file scores as best. FFO 1–39 run by default; 40–59 are `#[ignore]`d
//! (minutes each): `cargo test --release --test endgame -- --ignored`.

mod common;
use common::ffo_entries as ffo;
use mollett::rules::Othello;
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
        let mut solver = Solver::<Othello>::new(&tt, &stop);
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
        let mut solver = Solver::<Othello>::new(&tt, &stop);
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

/// Through the engine's search at level 60 (the learned evaluation), an exact
/// solve from 18 empties up starts with selective passes (`Root::solve`):
/// FFO 30–39 (20–26 empties) must still get the file's exact scores and
/// win/loss/draw signs, and the passes must pay: fewer nodes in all than the
/// bare solver above.
#[test]
fn selective_passes_keep_solves_exact_and_save_nodes() {
    use mollett::search::{Level, ScoreKind, SearchRequest, search};
    let tt = TranspositionTable::new(64).unwrap();
    let stop = AtomicBool::new(false);
    let (mut with_passes, mut bare) = (0, 0);
    for (i, e) in ffo("fforum-20-39.obf").iter().enumerate().skip(10) {
        let want = e.scores[0].1;
        for wld in [false, true] {
            tt.clear();
            let mut req = SearchRequest::<Othello>::new(e.position.board, Level::number(60));
            req.find_ties = false;
            if wld {
                req.limits.exact_empties = 0;
                req.limits.depth = 1;
                req.limits.wld_empties = 64;
            }
            let r = search(&req, &tt, &stop, &mut |_| {});
            let line = i + 1;
            if wld {
                assert_eq!(r.kind, ScoreKind::WinLossDraw, "line {line}");
                assert_eq!(r.score.signum(), want.signum(), "line {line}: WLD");
            } else {
                assert_eq!(r.kind, ScoreKind::Exact, "line {line}");
                assert_eq!(r.score, want * 100, "line {line}: score");
                with_passes += r.nodes;
                tt.clear();
                let mut solver = Solver::<Othello>::new(&tt, &stop);
                solver.solve(e.position.board, -64, 64);
                bare += solver.nodes();
            }
        }
    }
    assert!(
        with_passes < bare,
        "passes {with_passes} nodes, bare solver {bare}"
    );
}

/// Multi-PV analysis (`hint`, `analyze`) solves after the same selective
/// passes: at level 60 on fforum-20-39 line 7 (20 empties), a 73 % pass to the
/// end is reported before the exact lines, whose scores are the file's three
/// best.
#[test]
fn multi_pv_solves_after_a_selective_pass() {
    use mollett::search::{Level, ScoreKind};
    use mollett::search::{SearchRequest, multipv};
    let e = &ffo("fforum-20-39.obf")[6];
    let board = e.position.board;
    assert_eq!(board.empties(), 20);
    let level = Level::number(60);
    let req = SearchRequest::<Othello> {
        board,
        limits: level.limits,
        eval: level.eval,
        lines: 3,
        threads: 1,
        contempt: 0,
        seed: 0,
        find_ties: false,
        time: None,
    };
    let tt = TranspositionTable::new(16).unwrap();
    let stop = AtomicBool::new(false);
    let mut kinds = Vec::new();
    let last = multipv(&req, &tt, &stop, &mut |it| kinds.push(it.kind)).unwrap();
    let selective = ScoreKind::SelectiveEnd {
        empties: 20,
        selectivity: "73".parse().unwrap(),
    };
    let pass = kinds.iter().position(|&k| k == selective);
    let exact = kinds.iter().position(|&k| k == ScoreKind::Exact);
    assert!(pass.is_some() && pass < exact, "{kinds:?}");
    let got: Vec<i32> = last.lines.iter().map(|l| l.score).collect();
    let want: Vec<i32> = e.scores.iter().take(3).map(|s| s.1 * 100).collect();
    assert_eq!(got, want);
}
