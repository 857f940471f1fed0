//! A hash collision must not make the engine play an illegal move: the table's
//! move is only a hint among the legal moves of the probed position. These
//! tests forge colliding entries (every position near the root gets an entry
//! whose move is occupied, empty but illegal, or out of range, with bogus
//! bounds) and check that every move and principal variation the searches
//! return is legal.

use mollett::Board;
use mollett::eval::EvalKind;
use mollett::rng::Rng;
use mollett::rules::Othello;
use mollett::search::multipv;
use mollett::search::{Limits, SearchRequest, search};
use mollett::tt::{FULL_WIDTH, PROVEN, TranspositionTable, TtData};
use mollett::{Move, Square};
use std::sync::atomic::AtomicBool;

/// A square that is not a legal move of `board` (occupied, or empty without
/// a flip), or an out-of-range value; chosen by `rng`.
fn illegal_square(board: &Board, rng: &mut Rng) -> u8 {
    let occupied = board.player | board.opponent;
    let quiet = board.empty() & !board.moves();
    match rng.below(3) {
        0 => rng.pick_bit(occupied),
        1 if quiet != 0 => rng.pick_bit(quiet),
        _ => 65 + rng.below(191) as u8,
    }
}

/// Forges an entry for `board` and for every position up to `plies` moves
/// below it: an illegal move, a random selectivity and depth, random bounds.
fn poison(tt: &TranspositionTable, board: Board, plies: u32, rng: &mut Rng) {
    let mut bound = || (rng.below(12801) as i32 - 6400) as i16;
    let (a, b) = (bound(), bound());
    let selectivity = [FULL_WIDTH, 73, PROVEN][rng.below(3) as usize];
    let depth = if rng.below(2) == 0 {
        board.empties() as u8
    } else {
        60
    };
    let data = TtData {
        lower: a.min(b),
        upper: a.max(b),
        depth,
        best_move: illegal_square(&board, rng),
        selectivity,
    };
    tt.store(board.hash(), data);
    if plies == 0 {
        return;
    }
    let mut moves = board.moves();
    if moves == 0 && board.pass().moves() != 0 {
        poison(tt, board.pass(), plies - 1, rng);
    }
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        poison(tt, board.make(sq, board.flips(sq)), plies - 1, rng);
    }
}

/// Plays `pv` from `board`; panics on an illegal move.
fn replay(mut board: Board, pv: &[Move]) {
    for (i, &mv) in pv.iter().enumerate() {
        board = match mv {
            Move::Pass => {
                assert!(board.must_pass(), "pass {i} of {pv:?} is illegal");
                board.pass()
            }
            Move::Play(sq) => board
                .play(sq)
                .unwrap_or_else(|| panic!("move {i} ({sq}) of {pv:?} is illegal")),
        };
    }
}

/// Positions from seeded random games: every stage, down to a few empties.
fn positions(seed: u64, count: usize) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Board::START;
        let stop_at = 4 + rng.below(52) as u32;
        while b.empties() > stop_at && !b.is_game_over() {
            let m = b.moves();
            b = if m == 0 {
                b.pass()
            } else {
                let sq = rng.pick_bit(m);
                b.make(sq, b.flips(sq))
            };
        }
        if b.moves() != 0 {
            out.push(b);
        }
    }
    out
}

#[test]
fn forged_collisions_never_yield_an_illegal_move() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(41);
    for (k, board) in positions(5, 40).into_iter().enumerate() {
        let tt = TranspositionTable::new(1).unwrap();
        poison(&tt, board, 2, &mut rng);
        // Midgame depths, and solves near the end (the solver's table paths).
        let limits = Limits {
            depth: 5,
            exact_empties: 12,
            wld_empties: 14,
            selectivity: mollett::search::Selectivity::FULL,
        };
        let req = SearchRequest::<Othello> {
            board,
            limits,
            eval: EvalKind::Mobility,
            seed: k as u64,
            find_ties: true,
            threads: 1,
            time: None,
            contempt: 0,
            lines: 1,
        };
        let r = search(&req, &tt, &stop, &mut |it| replay(board, &it.pv));
        let best = r.best.expect("a move");
        assert!(
            matches!(best, Move::Play(sq) if board.moves() & sq.bit() != 0),
            "{best} in {board:?}"
        );
        replay(board, &r.pv);
        let mreq = SearchRequest::<Othello> {
            board,
            limits,
            eval: EvalKind::Mobility,
            lines: 3,
            threads: 1,
            contempt: 0,
            seed: 0,
            find_ties: false,
            time: None,
        };
        let it = multipv(&mreq, &tt, &stop, &mut |it| {
            it.lines.iter().for_each(|l| replay(board, &l.pv))
        })
        .expect("an iteration");
        for line in &it.lines {
            replay(board, &line.pv);
        }
    }
}

#[test]
fn the_forged_moves_are_really_illegal() {
    // The premise of the test above: each forged move fails to play.
    let mut rng = Rng::new(3);
    for board in positions(9, 20) {
        for _ in 0..20 {
            let sq = illegal_square(&board, &mut rng);
            let played = Square::new(sq).and_then(|s| board.play(s));
            assert!(played.is_none(), "{sq} is legal in {board:?}");
        }
    }
}
