//! Perft: the published start-position counts, symmetry invariance, and agreement
//! with a slow reference perft built on the scan-every-square move generator.

use mollett::Board;
use mollett::board::bitboard::symmetry;
use mollett::rng::Rng;
use mollett::rules::Othello;
use mollett::rules::perft;

/// Published leaf counts from the start, depths 1..=12 (a pass is a ply; a finished
/// game is one leaf).
const START_COUNTS: [u64; 12] = [
    4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800, 1939886636,
];

#[test]
fn start_position_depths_1_to_9() {
    for d in 1..=9 {
        assert_eq!(
            perft::perft::<Othello>(Board::START, d),
            START_COUNTS[d as usize - 1],
            "depth {d}"
        );
    }
    assert_eq!(
        perft::perft_parallel::<Othello>(Board::START, 9),
        START_COUNTS[8]
    );
}

/// The 11th and 12th counts take seconds; run with `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn start_position_depths_10_to_12() {
    for d in 10..=12 {
        assert_eq!(
            perft::perft_parallel::<Othello>(Board::START, d),
            START_COUNTS[d as usize - 1]
        );
    }
}

fn sym(b: Board, s: u8) -> Board {
    Board::new(symmetry(b.player, s), symmetry(b.opponent, s))
}

/// A position `plies` random moves from the start (passes taken when forced).
fn random_position(rng: &mut Rng, plies: usize) -> Board {
    let mut b = Board::START;
    for _ in 0..plies {
        let m = b.moves();
        if m == 0 {
            if b.pass().moves() == 0 {
                break;
            }
            b = b.pass();
            continue;
        }
        let sq = rng.pick_bit(m);
        b = b.make(sq, b.flips(sq));
    }
    b
}

#[test]
fn the_eight_symmetries_give_equal_perft() {
    for s in 0..8 {
        assert_eq!(
            perft::perft::<Othello>(sym(Board::START, s), 7),
            START_COUNTS[6],
            "symmetry {s}"
        );
    }
    let mut rng = Rng::new(12);
    for plies in [6, 20, 35, 50] {
        let b = random_position(&mut rng, plies);
        let n = perft::perft::<Othello>(b, 5);
        for s in 1..8 {
            assert_eq!(
                perft::perft::<Othello>(sym(b, s), 5),
                n,
                "symmetry {s} after {plies} plies"
            );
        }
    }
}

/// The reference: square-by-square scans, no bulk counting, same pass rule.
fn slow_perft(p: u64, o: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let children: Vec<(u64, u64)> = (0..64)
        .filter_map(|sq| {
            let f = slow_flips(p, o, sq);
            (f != 0).then(|| (o & !f, p | f | 1 << sq))
        })
        .collect();
    if children.is_empty() {
        let opponent_can_move = (0..64).any(|sq| slow_flips(o, p, sq) != 0);
        return if opponent_can_move {
            slow_perft(o, p, depth - 1)
        } else {
            1
        };
    }
    children
        .iter()
        .map(|&(p, o)| slow_perft(p, o, depth - 1))
        .sum()
}

fn slow_flips(p: u64, o: u64, sq: u32) -> u64 {
    if (p | o) >> sq & 1 != 0 {
        return 0;
    }
    let mut all = 0;
    for (dc, dr) in [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ] {
        let (mut c, mut r, mut run) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr, 0u64);
        while (0..8).contains(&c) && (0..8).contains(&r) {
            let b = 1u64 << (r * 8 + c);
            if o & b == 0 {
                if p & b != 0 {
                    all |= run;
                }
                break;
            }
            run |= b;
            c += dc;
            r += dr;
        }
    }
    all
}

#[test]
fn fast_perft_agrees_with_slow_reference() {
    assert_eq!(
        slow_perft(Board::START.player, Board::START.opponent, 5),
        1396
    );
    let mut rng = Rng::new(77);
    for i in 0..40 {
        // Late positions too, where passes and early ends happen.
        let b = random_position(&mut rng, 20 + i);
        assert_eq!(
            perft::perft::<Othello>(b, 4),
            slow_perft(b.player, b.opponent, 4),
            "position {i}: {b:?}"
        );
    }
}
