//! The search as a player: determinism, seeds, levels, forced passes, and the
//! bench signature.

use mollett::Board;
use mollett::eval::EvalKind;
use mollett::rules::Othello;
use mollett::search::{Level, Limits, ScoreKind, SearchRequest, search};
use mollett::tools::selfplay::{Player, play_game};
use mollett::tt::TranspositionTable;
use mollett::{Move, Position};
use std::sync::atomic::AtomicBool;

fn player(level: &str) -> Player {
    let l: Level = level.parse().unwrap();
    Player {
        limits: l.limits,
        eval: l.eval,
    }
}

#[test]
fn same_seed_same_game_and_seeds_differ() {
    let p = player("3");
    let a = play_game(p, p, 11, 4).unwrap();
    let b = play_game(p, p, 11, 4).unwrap();
    assert_eq!(a, b, "one thread replays a game move for move");
    let others: Vec<_> = (12..16)
        .map(|s| play_game(p, p, s, 4).unwrap().moves)
        .collect();
    assert!(
        others.iter().any(|m| *m != a.moves),
        "different seeds give different games"
    );
}

#[test]
fn medium_beats_easy() {
    let (easy, medium) = (player("easy"), player("medium"));
    let mut wins = 0;
    for seed in 0..24u64 {
        let medium_black = seed % 2 == 0;
        let (b, w) = if medium_black {
            (medium, easy)
        } else {
            (easy, medium)
        };
        let o = play_game(b, w, seed, 8).unwrap();
        let medium_score = if medium_black {
            o.black_score
        } else {
            -o.black_score
        };
        wins += (medium_score > 0) as u32;
    }
    println!("medium won {wins} of 24 against easy");
    assert!(wins >= 20, "medium won only {wins} of 24");
}

#[test]
fn forced_pass_and_finished_game() {
    let tt = TranspositionTable::new(1).unwrap();
    let stop = AtomicBool::new(false);
    let req = |board| SearchRequest::<Othello> {
        board,
        limits: Level::number(4).limits,
        eval: EvalKind::Mobility,
        seed: 0,
        find_ties: true,
        threads: 1,
        time: None,
        contempt: 0,
        lines: 1,
    };
    // Black f1 against White g1, h1: Black must pass; White then takes e1 and wins 64-0.
    let pos: Position = "-----XOO--------------------------------------------------------X"
        .parse()
        .unwrap();
    let r = search(&req(pos.board), &tt, &stop, &mut |_| {});
    assert_eq!(r.best, Some(Move::Pass));
    assert_eq!(r.score, -6400);
    let full = Board::new(u64::MAX >> 1, 1 << 63);
    let r = search(&req(full), &tt, &stop, &mut |_| {});
    assert_eq!((r.best, r.score, r.kind), (None, 6200, ScoreKind::Exact));
}

#[test]
fn iterations_are_reported_and_exact_when_deep_enough() {
    let tt = TranspositionTable::new(4).unwrap();
    let stop = AtomicBool::new(false);
    let mut depths = Vec::new();
    let req = SearchRequest::<Othello> {
        board: Board::START,
        limits: Limits {
            depth: 6,
            exact_empties: 0,
            wld_empties: 0,
            selectivity: mollett::search::Selectivity::FULL,
        },
        eval: EvalKind::Mobility,
        seed: 3,
        find_ties: true,
        threads: 1,
        time: None,
        contempt: 0,
        lines: 1,
    };
    let r = search(&req, &tt, &stop, &mut |it| depths.push(it.kind));
    assert_eq!(r.kind, ScoreKind::Midgame(6));
    assert_eq!(depths.last(), Some(&ScoreKind::Midgame(6)));
    assert_eq!(depths.len(), 6);
    assert!(r.pv.len() >= 2 && r.pv[0] == r.best.unwrap());
}

#[test]
fn bench_signature_is_reproducible() {
    let a: u64 = mollett::tools::bench::run(1, &mut |_| {})
        .unwrap()
        .iter()
        .map(|l| l.nodes)
        .sum();
    let b: u64 = mollett::tools::bench::run(1, &mut |_| {})
        .unwrap()
        .iter()
        .map(|l| l.nodes)
        .sum();
    assert_eq!(a, b);
}

#[test]
fn under_a_clock_a_solve_that_fits_is_made() {
    use mollett::search::{TimeLimit, timed_solve_fits};
    use std::time::Duration;
    // FFO #1, 14 empties: G8 wins by 18. Level 2 alone would not solve it.
    let pos: Position = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
        .parse()
        .unwrap();
    let stop = AtomicBool::new(false);
    let timed = |soft_ms: u64| {
        let tt = TranspositionTable::new(4).unwrap();
        let req = SearchRequest::<Othello> {
            time: Some(TimeLimit {
                soft: Duration::from_millis(soft_ms),
                hard: Duration::from_secs(60),
            }),
            ..SearchRequest::new(pos.board, Level::number(2))
        };
        search(&req, &tt, &stop, &mut |_| {})
    };
    let r = timed(30_000);
    assert_eq!((r.kind, r.score), (ScoreKind::Exact, 1800));
    assert_eq!(r.best, Some(Move::Play("g8".parse().unwrap())));
    // No time to spare: a midgame answer (one depth, the soft limit being 0).
    let r = timed(0);
    assert!(matches!(r.kind, ScoreKind::Midgame(_)), "{:?}", r.kind);
    // The estimate: cheap small solves fit, big ones never start.
    assert!(timed_solve_fits(14, 0.01));
    assert!(timed_solve_fits(20, 0.05));
    assert!(!timed_solve_fits(26, 1.0));
    assert!(!timed_solve_fits(31, 1e9));
}

#[test]
fn under_a_clock_a_solve_that_cannot_fit_comes_after_a_midgame_search() {
    use mollett::search::TimeLimit;
    use std::time::Duration;
    // Level 60 solves everything; from the start, under 50 ms, it searches
    // the midgame instead and answers with a searched move.
    let tt = TranspositionTable::new(4).unwrap();
    let stop = AtomicBool::new(false);
    let req = SearchRequest::<Othello> {
        time: Some(TimeLimit {
            soft: Duration::from_millis(50),
            hard: Duration::from_millis(150),
        }),
        ..SearchRequest::new(Board::START, Level::number(60))
    };
    let r = search(&req, &tt, &stop, &mut |_| {});
    let ScoreKind::Midgame(depth) = r.kind else {
        panic!("{:?}", r.kind)
    };
    assert!(depth >= 2, "depth {depth}");
    assert!(Position::START.legal_moves().contains(&r.best.unwrap()));
    assert!(r.elapsed < Duration::from_millis(1000), "{:?}", r.elapsed);
}

/// A hand-made position (found by a hill climb over disc patterns) where Black
/// has 33 legal moves: more than the move lists once held, which made the search
/// panic. Every search kind must now handle it.
#[test]
fn a_position_with_33_legal_moves_is_searched() {
    let pos: Position = "-------X-OXOO-O--OXOXOO--OO-OXX--X---XO--OX-XXO--OXOO--------XO- X"
        .parse()
        .unwrap();
    assert_eq!(pos.board.moves().count_ones(), 33);
    let tt = TranspositionTable::new(16).unwrap();
    let stop = AtomicBool::new(false);
    for threads in [1, 2] {
        let mut req = SearchRequest::<Othello>::new(pos.board, Level::number(5));
        req.threads = threads;
        let r = search(&req, &tt, &stop, &mut |_| {});
        let Some(Move::Play(sq)) = r.best else {
            panic!("no move: {r:?}")
        };
        assert!(pos.board.moves() >> sq.index() & 1 == 1);
        assert_eq!(r.kind, ScoreKind::Midgame(5));
    }
    // The multi-PV search (NBoard's hint) over all 33 moves.
    use mollett::search::multipv;
    let req = SearchRequest::<Othello> {
        board: pos.board,
        limits: Level::number(3).limits,
        eval: EvalKind::Mobility,
        lines: 33,
        threads: 2,
        contempt: 0,
        seed: 0,
        find_ties: false,
        time: None,
    };
    let last = multipv(&req, &tt, &stop, &mut |_| {}).expect("a completed depth");
    assert_eq!(last.lines.len(), 33);
}

/// Multi-PV is a request with `lines` > 1: `search` then answers with the best
/// of the lines that `multipv` reports for the same request, depth by depth
/// and through the solve.
#[test]
fn a_search_for_several_lines_answers_with_the_best_multi_pv_line() {
    use mollett::search::{PvLine, multipv};
    let opening = mollett::format::parse_transcript(Position::START, "f5d6c3d3c4f4f6").unwrap();
    // The first position of benches/data/accuracy-20.obf, every move solved.
    let solved = mollett::format::parse_obf_line(
        "--OOXX----OOOX--X-OOXOXXXXXOXXOXOOXOOOXX--OOOXXX--OOOO-X--O--O-- X; \
         A6:+2; B1:-2; B3:-8; D8:-8;",
    )
    .unwrap();
    let cases = [
        (opening.position().board, "1"),
        (opening.position().board, "4"),
        (opening.position().board, "7"),
        (solved.position.board, "60"),
    ];
    let stop = AtomicBool::new(false);
    for (board, level) in cases {
        let req = SearchRequest {
            lines: 3,
            ..SearchRequest::<Othello>::new(board, level.parse().unwrap())
        };
        let mut best_lines = Vec::new();
        let tt = TranspositionTable::new(4).unwrap();
        let r = search(&req, &tt, &stop, &mut |it| best_lines.push(it.pv.clone()));
        let mut top_lines = Vec::new();
        let tt = TranspositionTable::new(4).unwrap();
        let it = multipv(&req, &tt, &stop, &mut |it| {
            top_lines.push(it.lines[0].pv.clone())
        })
        .expect("a completed depth");
        assert_eq!(it.lines.len(), 3, "level {level}");
        let PvLine { score, pv } = &it.lines[0];
        assert_eq!(
            (r.score, &r.pv, r.kind),
            (*score, pv, it.kind),
            "level {level}"
        );
        assert_eq!(best_lines, top_lines, "level {level}");
        if level == "60" {
            let scores: Vec<i32> = it.lines.iter().map(|l| l.score).collect();
            let exact: Vec<i32> = solved.scores[..3]
                .iter()
                .map(|&(_, s)| mollett::eval::score::from_discs(s))
                .collect();
            assert_eq!(scores, exact, "the three best moves score as solved");
            assert_eq!(pv[0], solved.scores[0].0);
        }
    }
}

/// A solve that cannot end soon (level 60 at 59 empties) deepens the midgame
/// first: progress comes at once, and a stop answers with a searched move.
#[test]
fn a_long_solve_shows_progress_and_a_stop_answers_a_searched_move() {
    let board = mollett::format::parse_transcript(Position::START, "f5")
        .unwrap()
        .position()
        .board;
    let req = SearchRequest::<Othello>::new(board, "60".parse().unwrap());
    let tt = TranspositionTable::new(4).unwrap();
    let stop = AtomicBool::new(false);
    let mut depths = Vec::new();
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(300));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        search(&req, &tt, &stop, &mut |it| depths.push(it.kind))
    });
    assert!(r.stopped && r.searched(), "{r:?}");
    assert!(depths.len() >= 3, "{depths:?}");
    assert!(
        matches!(r.kind, ScoreKind::Midgame(d) if d >= 3),
        "{:?}",
        r.kind
    );
}
