//! Contempt: the midgame search scores a drawn game at the side to move's
//! contempt, and agrees with a plain full-width minimax that does the same, both
//! over full windows and null windows, in positions where the evaluation, the
//! exact solver and finished games all meet.

use mollett::Board;
use mollett::Position;
use mollett::eval::{DISC, EvalKind, evaluate};
use mollett::rng::Rng;
use mollett::rules::Othello;
use mollett::search::midgame::{INF, Midgame, disc_window};
use mollett::search::multipv;
use mollett::search::{Level, Limits, SearchRequest, search};
use mollett::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;

/// A final margin in discs as the search should value it.
fn value(discs: i32, draw: i32) -> i32 {
    if discs == 0 { draw } else { discs * DISC }
}

/// The exact final margin by plain minimax.
fn exact(b: Board) -> i32 {
    let moves = b.moves();
    if moves == 0 {
        let p = b.pass();
        return if p.moves() == 0 {
            b.final_score()
        } else {
            -exact(p)
        };
    }
    let mut best = -65;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        best = best.max(-exact(b.make(sq, b.flips(sq))));
    }
    best
}

/// The value the midgame search must find: minimax over the evaluation, passes
/// free, a finished game at its margin (a draw at `draw`), and a node deep enough
/// to see the end valued by its exact margin.
fn reference(b: Board, depth: u32, draw: i32) -> i32 {
    let moves = b.moves();
    if moves == 0 {
        let p = b.pass();
        return if p.moves() == 0 {
            value(b.final_score(), draw)
        } else {
            -reference(p, depth, -draw)
        };
    }
    if depth == 0 {
        return evaluate(EvalKind::Mobility, &b);
    }
    if depth >= b.empties() {
        return value(exact(b), draw);
    }
    let mut best = -INF;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        best = best.max(-reference(b.make(sq, b.flips(sq)), depth - 1, -draw));
    }
    best
}

/// A random position `plies` moves into a random game (or the game's end).
fn random_position(rng: &mut Rng, plies: u32) -> Board {
    let mut b = Position::START.board;
    for _ in 0..plies {
        if b.is_game_over() {
            break;
        }
        if b.moves() == 0 {
            b = b.pass();
            continue;
        }
        let sq = rng.pick_bit(b.moves());
        b = b.make(sq, b.flips(sq));
    }
    b
}

#[test]
fn disc_window_without_contempt_rounds_to_discs() {
    for alpha in -700i32..700 {
        let beta = alpha + 1 + (alpha.rem_euclid(7) * 37);
        let (a, b) = disc_window(alpha, beta, 0);
        assert_eq!(a, alpha.div_euclid(DISC), "alpha {alpha}");
        assert_eq!(b, (beta + DISC - 1).div_euclid(DISC).max(a + 1));
    }
}

#[test]
fn disc_window_brackets_the_window() {
    for draw in [-100, -99, -37, 0, 1, 50, 100] {
        for alpha in -500i32..500 {
            let beta = alpha + 1 + alpha.rem_euclid(5) * 61;
            let (a, b) = disc_window(alpha, beta, draw);
            assert!(a < b);
            // `a` is the largest margin valued at most `alpha`, `b` the smallest
            // valued at least `beta`.
            assert!(value(a, draw) <= alpha && value(a + 1, draw) > alpha);
            assert!(value(b, draw) >= beta || b == a + 1);
            assert!(value(b - 1, draw) < beta || b == a + 1);
        }
    }
}

#[test]
fn midgame_search_scores_draws_at_the_contempt() {
    let mut rng = Rng::new(0xC0DE);
    let mut draws_seen = 0;
    for case in 0..1500 {
        let plies = 46 + rng.below(12) as u32;
        let b = random_position(&mut rng, plies);
        if b.is_game_over() {
            continue;
        }
        let empties = b.empties();
        let depth = 1 + rng.below(u64::from(empties.min(5)) + 1) as u32;
        let draw = [-100, -60, -1, 0, 30, 100][case % 6];
        let want = reference(b, depth, draw);
        if reference(b, depth, 100) != reference(b, depth, -100) {
            draws_seen += 1;
        }
        let tt = TranspositionTable::new(1).unwrap();
        let stop = AtomicBool::new(false);
        let got = Midgame::<Othello>::new(&tt, &stop, EvalKind::Mobility)
            .with_draw(draw)
            .pvs(b, depth, -INF, INF)
            .score;
        assert_eq!(got, want, "case {case}: {b:?} depth {depth} draw {draw}");
        // Null windows around the value agree on the side they fall.
        for alpha in [want - 1, want, want - 101, want + 99] {
            let tt = TranspositionTable::new(1).unwrap();
            let v = Midgame::<Othello>::new(&tt, &stop, EvalKind::Mobility)
                .with_draw(draw)
                .nws(b, depth, alpha);
            assert_eq!(v > alpha, want > alpha, "case {case}: alpha {alpha}");
        }
    }
    // Not vacuous: in some cases the value depends on the draw score.
    assert!(draws_seen >= 5, "draws mattered in only {draws_seen} cases");
}

/// Positions (side to move X) and depths below their empties where the value
/// depends on how draws count: games end inside the horizon, or a pass brings
/// the end within reach. Found by a random scan with `reference` (draws matter
/// in about one position in 100,000 at 3 to 7 empties).
const DRAW_SENSITIVE: [(&str, u32); 11] = [
    (
        "O-XXOO-XOOXOOOXXOOOXOXXXOOOOXXXX-XOOXXOXXOOOOOOOO-XXXO-X-XXXXXO- X",
        6,
    ),
    (
        "XXXXXX--XXXOOOOOXXOXXXXOXXOXO-OOXXOOOOOOXXOOOOOOX-OOXOOO-OOOOOOO X",
        4,
    ),
    (
        "XXXXXXXXXXXOOOXOXXXXOXOOXXXXXOOOXXOOOOXOXOOOOOOOX-OOOOOO--OOOOOO X",
        1,
    ),
    (
        "XXXXXXXXXXXOOOXOXXXXOXOOXXXXXOOOXXOOOOXOXOOOOOOOX-OOOOOO--OOOOOO X",
        2,
    ),
    (
        "-OOOOOOO--OOOOOO-OOOXOOXO-OOXOXXOOXXOXXXOOOOXOXXOOOOXXO-XOO-XXXO X",
        5,
    ),
    (
        "-OOOOOOO--OOOOOO-OOOXOOXO-OOXOXXOOXXOXXXOOOOXOXXOOOOXXO-XOO-XXXO X",
        6,
    ),
    (
        "-XXXXXX-OOOO-X-XOOOOXOOXOXOXOOOXOXXOOXOXOXOXOOOXOOOOOO-XOOOOOOO- X",
        4,
    ),
    (
        "-XXXXXX-OOOO-X-XOOOOXOOXOXOXOOOXOXXOOXOXOXOXOOOXOOOOOO-XOOOOOOO- X",
        5,
    ),
    (
        "O-XXXOOOXOXXXX--XXOOOOO-XXXOXOOX-XXXOXOOOXXOOXOOXXOOXOOXX-OOOOO- X",
        5,
    ),
    (
        "OOOOOOO-OOOOOO--OXOOOXXXOOOOOXXXOOOOXXXOOOOXXXOOOOOOOOO---OOOOOX X",
        5,
    ),
    (
        "OOOOOOOOOOOOOO-XOOOOXXXXOXOXXOXX-X-XXXXXOXXXXO-X--XXOOXXXXXO-OXX X",
        5,
    ),
];

#[test]
fn contempt_is_for_the_side_to_move_at_the_root() {
    let level: Level = "8".parse().unwrap();
    let stop = AtomicBool::new(false);
    for (text, depth) in DRAW_SENSITIVE {
        let b = text.parse::<Position>().unwrap().board;
        assert!(depth < b.empties());
        assert_ne!(
            reference(b, depth, 100),
            reference(b, depth, -100),
            "{text}"
        );
        for contempt in [-100, -30, 0, 70, 100] {
            let want = reference(b, depth, contempt);
            let mut req = SearchRequest::<Othello> {
                contempt,
                eval: EvalKind::Mobility,
                ..SearchRequest::new(b, level)
            };
            req.limits = Limits {
                depth,
                exact_empties: 0,
                wld_empties: 0,
                selectivity: mollett::search::Selectivity::FULL,
            };
            let tt = TranspositionTable::new(1).unwrap();
            let r = search(&req, &tt, &stop, &mut |_| {});
            assert_eq!(r.score, want, "{text} depth {depth} contempt {contempt}");
            // Multi-PV (hints) agrees on the best line.
            let mpv = SearchRequest::<Othello> {
                board: b,
                limits: req.limits,
                eval: EvalKind::Mobility,
                lines: 2,
                threads: 1,
                contempt,
                seed: 0,
                find_ties: false,
                time: None,
            };
            let tt = TranspositionTable::new(1).unwrap();
            let it = multipv(&mpv, &tt, &stop, &mut |_| {}).unwrap();
            assert_eq!(
                it.lines[0].score, want,
                "multi-PV: {text} contempt {contempt}"
            );
        }
        // A solve at the root reports the true result, whatever the contempt.
        let tt = TranspositionTable::new(1).unwrap();
        let mut req = SearchRequest::<Othello> {
            contempt: 100,
            ..SearchRequest::new(b, level)
        };
        req.limits.exact_empties = 64;
        assert_eq!(search(&req, &tt, &stop, &mut |_| {}).score, exact(b) * DISC);
    }
}
