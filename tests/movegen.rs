//! The fast move generator against a deliberately slow, obviously correct one, and
//! the rule edge cases: no cascade, no flipless placement, multi-direction flips,
//! forced passes, early game ends with empties to the winner, a full-board draw.

use mollett::board::movegen;
use mollett::rng::Rng;
use mollett::{Board, Color, IllegalMove, Move, Position, Square};

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The reference: walk each of the eight directions square by square.
fn slow_flips(p: u64, o: u64, sq: u8) -> u64 {
    if (p | o) >> sq & 1 != 0 {
        return 0;
    }
    let (c0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut all = 0u64;
    for (dc, dr) in DIRECTIONS {
        let (mut c, mut r) = (c0 + dc, r0 + dr);
        let mut run = 0u64;
        while (0..8).contains(&c) && (0..8).contains(&r) {
            let b = 1u64 << (r * 8 + c);
            if o & b != 0 {
                run |= b;
            } else {
                if p & b != 0 {
                    all |= run;
                }
                break;
            }
            c += dc;
            r += dr;
        }
    }
    all
}

fn slow_moves(p: u64, o: u64) -> u64 {
    (0..64u8)
        .filter(|&sq| slow_flips(p, o, sq) != 0)
        .fold(0, |m, sq| m | 1 << sq)
}

/// Checks the fast generator (both the dispatched and the portable paths) against
/// the reference on one position, every empty square.
fn check(b: Board) {
    let (p, o) = (b.player, b.opponent);
    let want = slow_moves(p, o);
    assert_eq!(movegen::moves(p, o), want, "moves of {b:?}");
    assert_eq!(
        movegen::moves_portable(p, o),
        want,
        "portable moves of {b:?}"
    );
    for sq in 0..64u8 {
        if (p | o) >> sq & 1 != 0 {
            continue;
        }
        let f = slow_flips(p, o, sq);
        assert_eq!(movegen::flips(sq, p, o), f, "flips at {sq} of {b:?}");
        assert_eq!(movegen::flips_portable(sq, p, o), f, "portable flips {sq}");
        if f != 0 {
            let after = b.make(sq, f);
            assert_eq!(Some(after), b.play(Square::new(sq).unwrap()));
            // Conservation: one disc more, the flipped ones change side.
            assert_eq!(after.player.count_ones(), o.count_ones() - f.count_ones());
            assert_eq!(
                after.opponent.count_ones(),
                p.count_ones() + f.count_ones() + 1
            );
        } else {
            assert!(b.play(Square::new(sq).unwrap()).is_none());
        }
    }
}

/// Every position of `games` seeded random games from the start, passes included.
fn random_game_positions(seed: u64, games: usize) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut b = Board::START;
        loop {
            out.push(b);
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
    }
    out
}

#[test]
fn fast_generator_agrees_with_reference_on_random_games() {
    let positions = random_game_positions(2026, 1800);
    assert!(positions.len() >= 100_000, "{} positions", positions.len());
    for b in positions {
        check(b);
    }
}

#[test]
fn fast_generator_agrees_on_random_disc_patterns() {
    // Positions no game reaches (any density, discs anywhere) exercise every edge.
    let mut rng = Rng::new(99);
    for i in 0..20_000 {
        let a = rng.next_u64();
        let mut c = rng.next_u64();
        if i % 3 == 0 {
            c &= rng.next_u64();
        }
        check(Board::new(a & !c, c & !a));
    }
}

/// A board from eight rows of `X` (player), `O` (opponent) and `.`.
fn rows(r: [&str; 8]) -> Board {
    let mut b = Board::default();
    for (y, line) in r.iter().enumerate() {
        for (x, ch) in line.chars().enumerate() {
            let bit = 1u64 << (y * 8 + x);
            match ch {
                'X' => b.player |= bit,
                'O' => b.opponent |= bit,
                _ => {}
            }
        }
    }
    b
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

#[test]
fn flips_never_cascade() {
    // X plays a1: b1 turns (bounded by c1). Once b1 is X it would bound the
    // column b2..b3 with b4, but those discs must stay O.
    let b = rows([
        ".OX.....", ".O......", ".O......", ".X......", "........", "........", "........",
        "........",
    ]);
    let after = b.play(sq("a1")).unwrap();
    // After the move the sides swap: the former player is now `opponent`.
    assert_eq!(after.opponent, b.player | sq("a1").bit() | sq("b1").bit());
    assert!(after.player & sq("b2").bit() != 0, "b2 must not turn");
    assert!(after.player & sq("b3").bit() != 0, "b3 must not turn");
}

#[test]
fn a_placement_that_flips_nothing_is_not_a_move() {
    let b = rows([
        "........", ".O......", "..O.....", "........", "........", "........", "........",
        "...XO...",
    ]);
    assert_eq!(b.moves(), sq("f8").bit(), "f8 is the one move");
    assert!(b.play(sq("a1")).is_none());
    // A position with a move elsewhere: in a finished game every move is
    // refused as the end of the game instead.
    let pos = Position::new(b, Color::Black);
    assert_eq!(
        pos.play(Move::Play(sq("a1"))),
        Err(IllegalMove::NoFlips(sq("a1")))
    );
    assert_eq!(
        pos.play(Move::Play(sq("b2"))),
        Err(IllegalMove::Occupied(sq("b2")))
    );
}

#[test]
fn one_move_flips_in_every_direction() {
    // d3 is surrounded by O, each run closed by X two squares away.
    let b = rows([
        ".X.X.X..", "..OOO...", ".XO.OX..", "..OOO...", ".X.X.X..", "........", "........",
        "........",
    ]);
    let f = b.flips(sq("d3").index());
    assert_eq!(f.count_ones(), 8);
    let after = b.play(sq("d3")).unwrap();
    assert_eq!(after.player, 0, "the opponent lost every disc");
    assert_eq!(after.opponent.count_ones(), 8 + 9);
}

#[test]
fn forced_pass_and_only_then() {
    // Black f1 against White g1, h1: Black has no run to close; White takes e1.
    let black = sq("f1").bit();
    let white = sq("g1").bit() | sq("h1").bit();
    let pos = Position::from_colors(black, white, Color::Black).unwrap();
    assert_eq!(pos.board.moves(), 0);
    assert!(pos.board.must_pass() && !pos.board.is_game_over());
    assert_eq!(pos.legal_moves(), vec![Move::Pass]);
    assert_eq!(
        pos.play(Move::Play(sq("e1"))),
        Err(IllegalMove::NoFlips(sq("e1")))
    );
    let passed = pos.play(Move::Pass).unwrap();
    assert_eq!(passed.side, Color::White);
    assert_eq!(passed.board.moves(), sq("e1").bit());
    assert_eq!(
        passed.play(Move::Pass),
        Err(IllegalMove::PassWithMoves),
        "a pass is never a choice"
    );
    let after = passed.play(Move::Play(sq("e1"))).unwrap();
    assert_eq!(after.black(), 0);
    assert!(after.board.is_game_over());
    assert_eq!(after.final_score_black(), -64);
}

#[test]
fn game_ends_early_and_the_winner_takes_the_empties() {
    // Black has 3 discs, White none: nobody can move.
    let black = sq("a1").bit() | sq("d4").bit() | sq("h8").bit();
    let pos = Position::from_colors(black, 0, Color::White).unwrap();
    assert!(pos.board.is_game_over());
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.play(Move::Pass), Err(IllegalMove::GameOver));
    assert_eq!(pos.final_score_black(), 64);
    assert_eq!(pos.board.final_score(), -64);
    // 10 against 5 with blocked discs and 49 empties: 5 + 49 = 54 for Black.
    let black = 0x3ffu64; // a1..h1, a2, b2
    let white = 0x1f << 40; // a6..e6, far from any line to Black's discs
    let pos = Position::from_colors(black, white, Color::Black).unwrap();
    assert!(pos.board.is_game_over(), "no run connects the two groups");
    assert_eq!(pos.final_score_black(), 10 - 5 + 49);
}

#[test]
fn full_board_draw_scores_zero() {
    let black = 0x0f0f_0f0f_0f0f_0f0fu64;
    let pos = Position::from_colors(black, !black, Color::Black).unwrap();
    assert!(pos.board.is_game_over());
    assert_eq!(pos.final_score_black(), 0);
    assert_eq!(pos.board.final_score(), 0);
    // And a full board won 33–31 scores +2.
    let black = black | sq("e1").bit();
    let pos = Position::from_colors(black, !black, Color::White).unwrap();
    assert_eq!(pos.final_score_black(), 2);
}
