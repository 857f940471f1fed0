//! The root rule at every band edge: `go`, `hint`, `analyze` and `solve` run
//! the same kind of search (midgame, win/loss/draw proof, exact solve) on the
//! same position, as `Limits::root_search` says, under every rule set, and the
//! solves agree on the result.

mod common;

use mollett::Move;
use mollett::engine::{Engine, Event, Job, Settings};
use mollett::eval::DISC;
use mollett::format::ObfEntry;
use mollett::rng::Rng;
use mollett::rules::Othello;
use mollett::rules::{Position, Variant};
use mollett::search::{Level, Limits, RootSearch, ScoreKind};
use mollett::tools::solve::{SolveOptions, solve_all};

/// A position with `empties` empty squares and a move to play, reached from the
/// variant's start by random moves and no pass (so that an OBF line, which
/// assumes none, describes a Reversi position exactly).
fn position(variant: Variant, empties: u32, seed: u64) -> Position {
    let mut rng = Rng::new(seed);
    loop {
        let mut p = variant.start();
        while p.board.empties() > empties {
            let moves = p.legal_moves();
            if moves.is_empty() || moves == [Move::Pass] {
                break;
            }
            p = p
                .play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap();
        }
        let m = p.legal_moves();
        if p.board.empties() == empties && !m.is_empty() && m != [Move::Pass] {
            return p;
        }
    }
}

/// What each caller reported: the kind and the score (centi-discs, side to move).
#[derive(Debug, PartialEq)]
struct Reported {
    kind: ScoreKind,
    score: i32,
}

fn run(engine: &mut Engine, pos: Position, job: Job) -> Vec<Event> {
    // A fresh table for every job: no caller profits from another's work.
    engine.new_game(pos).unwrap();
    engine.start(job).unwrap();
    engine.wait()
}

fn go(engine: &mut Engine, pos: Position) -> Reported {
    let events = run(engine, pos, Job::Go { clock: None });
    let Some(Event::Finished(f)) = events.last() else {
        panic!("{events:?}")
    };
    let r = f.result.as_ref().unwrap();
    Reported {
        kind: r.kind,
        score: r.score,
    }
}

fn hint(engine: &mut Engine, pos: Position) -> Reported {
    let events = run(engine, pos, Job::Hint { lines: 1 });
    let last = events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Hint { iteration, .. } => Some(iteration),
            _ => None,
        })
        .unwrap();
    Reported {
        kind: last.kind,
        score: last.lines[0].score,
    }
}

fn analyze(engine: &mut Engine, pos: Position) -> Reported {
    let events = run(engine, pos, Job::Analyze);
    let (kind, score) = events
        .iter()
        .find_map(|e| match e {
            Event::Analysis {
                ply: 0,
                kind,
                score,
                ..
            } => Some((*kind, *score)),
            _ => None,
        })
        .unwrap();
    Reported { kind, score }
}

/// `mollett solve` on the position (with `--wld` for a win/loss/draw proof):
/// the score in centi-discs.
fn solve(pos: Position, wld: bool) -> i32 {
    let entry = ObfEntry {
        position: pos,
        scores: Vec::new(),
    };
    let opts = SolveOptions {
        wld,
        threads: 1,
        jobs: 1,
        hash_mb: 4,
        variant: pos.variant,
        all_moves: false,
        progress: false,
    };
    let mut score = None;
    let mut entries = std::iter::once(Ok(entry));
    solve_all(&mut entries, &opts, &mut |r| score = Some(r.score)).unwrap();
    score.unwrap() * DISC
}

/// Checks every caller at `empties` under `level` (with the exact-empties
/// override `exact`), and that the rule gives `want` there.
fn check(variant: Variant, level: &str, exact: Option<u32>, empties: u32, want: RootSearch) {
    let mut engine = Engine::new(Settings {
        level: level.parse::<Level>().unwrap(),
        threads: 1,
        hash_mb: 4,
        exact_empties: exact,
        variant,
        ..Settings::default()
    })
    .unwrap();
    let limits: Limits = engine.settings().limits();
    assert_eq!(limits.root_search(empties), want, "{level} at {empties}");
    let what = format!("{variant}, level {level}, {empties} empties");
    for seed in 0..2 {
        let pos = position(variant, empties, seed);
        let (g, h, a) = (
            go(&mut engine, pos),
            hint(&mut engine, pos),
            analyze(&mut engine, pos),
        );
        let kind = match want {
            RootSearch::Midgame => ScoreKind::Midgame(limits.depth),
            RootSearch::WinLossDraw => ScoreKind::WinLossDraw,
            RootSearch::Exact => ScoreKind::Exact,
        };
        assert_eq!((g.kind, h.kind, a.kind), (kind, kind, kind), "{what}");
        if want == RootSearch::Midgame {
            continue;
        }
        let solved = solve(pos, want == RootSearch::WinLossDraw);
        assert_eq!(
            (g.score, h.score, a.score),
            (solved, solved, solved),
            "{what}"
        );
        if want == RootSearch::Exact {
            let events = run(&mut engine, pos, Job::Solve { wld: false });
            let Some(Event::Finished(f)) = events.last() else {
                panic!("{events:?}")
            };
            assert_eq!(f.result.as_ref().unwrap().score, solved, "{what}");
        }
    }
}

#[test]
fn every_caller_follows_the_root_rule_at_each_band_edge() {
    for variant in Variant::ALL {
        // `medium`: depth 6, exact at 12, win/loss/draw at 14.
        check(variant, "medium", None, 12, RootSearch::Exact);
        check(variant, "medium", None, 13, RootSearch::WinLossDraw);
        check(variant, "medium", None, 14, RootSearch::WinLossDraw);
        check(variant, "medium", None, 15, RootSearch::Midgame);
        // Level 6 solving exactly at 2 only: the depth reaches the end at 6
        // empties (exact), the win/loss/draw band of 12 takes over above.
        check(variant, "6", Some(2), 6, RootSearch::Exact);
        check(variant, "6", Some(2), 7, RootSearch::WinLossDraw);
    }
}

#[test]
fn the_rule_is_monotone_in_the_empties() {
    // More empties never ask for a stronger search, at every level.
    let rank = |r: RootSearch| match r {
        RootSearch::Exact => 2,
        RootSearch::WinLossDraw => 1,
        RootSearch::Midgame => 0,
    };
    for n in 1..=60 {
        let limits = Level::number(n).limits;
        for e in 1..64 {
            assert!(
                rank(limits.root_search(e)) >= rank(limits.root_search(e + 1)),
                "level {n} at {e}"
            );
        }
    }
    assert_eq!(Limits::EXACT.root_search(64), RootSearch::Exact);
    assert_eq!(
        Limits::WIN_LOSS_DRAW.root_search(64),
        RootSearch::WinLossDraw
    );
    assert_eq!(
        Limits::WIN_LOSS_DRAW.root_search(1),
        RootSearch::WinLossDraw
    );
}

#[test]
fn under_a_clock_a_level_solves_beyond_its_window_only_when_cheap() {
    use mollett::search::{SearchRequest, TimeLimit, search};
    use mollett::tt::TranspositionTable;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;
    let stop = AtomicBool::new(false);
    // A generous clock: the old rule solved whatever the estimate fitted in it.
    let time = Some(TimeLimit {
        soft: Duration::from_secs(20),
        hard: Duration::from_secs(60),
    });
    let go = |empties: u32, level: u32| {
        let pos = position(Variant::Othello, empties, 3);
        let tt = TranspositionTable::new(4).unwrap();
        let req = SearchRequest::<Othello> {
            time,
            ..SearchRequest::new(pos.board, Level::number(level))
        };
        search(&req, &tt, &stop, &mut |_| {})
    };
    // Level 4 solves at 8 empties; 24 empties is far beyond, and a depth-4
    // search takes milliseconds: no solve.
    let r = go(24, 4);
    assert_eq!(r.kind, ScoreKind::Midgame(4));
    assert!(r.elapsed < Duration::from_secs(2), "{:?}", r.elapsed);
    // Ten empties cost next to nothing to solve, even at level 2.
    assert_eq!(go(10, 2).kind, ScoreKind::Exact);
}

#[test]
fn nboard_at_depth_4_under_a_five_minute_clock_plays_at_depth_4_speed() {
    // 26 empties: the old rule solved such a position (882 M nodes, about a
    // minute) because the clock seemed to leave time for it.
    let pos = position(Variant::Othello, 26, 1);
    let board = mollett::format::write_board_string(&pos);
    let (squares, side) = board.split_at(64);
    let bo = |s: &str| s.replace('X', "*");
    let record = format!(
        "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 {} {}];)",
        bo(squares),
        bo(side.trim())
    );
    let mut e = common::Engine::spawn(&["--threads", "1"]);
    e.send("nboard 2");
    e.send("set depth 4");
    e.send(&format!("set game {record}"));
    e.send("go");
    let lines = e.until(|l| l.starts_with("==="));
    let nodes: u64 = lines
        .iter()
        .filter_map(|l| l.strip_prefix("nodestats "))
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .max()
        .expect("a nodestats line");
    assert!(nodes < 5_000_000, "{nodes} nodes: {lines:?}");
}
