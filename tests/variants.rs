//! The variants against a slow reference written straight from the rules:
//! moves, flips, passes, the disc supply, game ends and scores on random games
//! of every variant; perft; exact solves of random endgames against plain
//! minimax over the reference; rule cases; and self-play games that finish.

use mollett::board::movegen::Dispatch;
use mollett::board::{Color, IllegalMove, Move, Square};
use mollett::rng::Rng;
use mollett::rules::Position;
use mollett::rules::perft::perft_position;
use mollett::rules::{Anti, Othello, Reversi, Rules};
use mollett::rules::{State, Variant};
use mollett::search::endgame::Solver;
use mollett::search::{Level, Limits, RuleSearch, ScoreKind, SearchRequest, SearchResult, search};
use mollett::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;

/// The reference: a square array, colours, and the rules as written.
#[derive(Clone, Debug, PartialEq)]
struct Reference {
    variant: Variant,
    cells: [Option<Color>; 64],
    to_move: Color,
    /// Discs left, Black's then White's (`None`: unlimited).
    left: Option<[u32; 2]>,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Reference {
    fn start(variant: Variant) -> Reference {
        let mut cells = [None; 64];
        let mut left = None;
        if variant == Variant::Reversi {
            left = Some([32, 32]);
        } else {
            // d4, e5 White; e4, d5 Black.
            cells[27] = Some(Color::White);
            cells[36] = Some(Color::White);
            cells[28] = Some(Color::Black);
            cells[35] = Some(Color::Black);
        }
        Reference {
            variant,
            cells,
            to_move: Color::Black,
            left,
        }
    }

    fn discs(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    fn opening(&self) -> bool {
        self.variant == Variant::Reversi && self.discs() < 4
    }

    /// The squares `sq` would turn for `who`.
    fn turned(&self, sq: usize, who: Color) -> Vec<usize> {
        let (row, col) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut out = Vec::new();
        for (dr, dc) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut r, mut c) = (row + dr, col + dc);
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let i = (r * 8 + c) as usize;
                match self.cells[i] {
                    Some(x) if x != who => run.push(i),
                    Some(_) => {
                        out.extend(&run);
                        break;
                    }
                    None => break,
                }
                r += dr;
                c += dc;
            }
        }
        out
    }

    fn moves_for(&self, who: Color) -> Vec<usize> {
        if self.left.is_some_and(|l| l[index(who)] == 0) {
            return Vec::new();
        }
        (0..64)
            .filter(|&sq| self.cells[sq].is_none())
            .filter(|&sq| {
                if self.opening() {
                    [27, 28, 35, 36].contains(&sq)
                } else {
                    !self.turned(sq, who).is_empty()
                }
            })
            .collect()
    }

    fn over(&self) -> bool {
        self.moves_for(Color::Black).is_empty() && self.moves_for(Color::White).is_empty()
    }

    fn play(&mut self, sq: usize) {
        let who = self.to_move;
        if !self.opening() {
            for t in self.turned(sq, who) {
                self.cells[t] = Some(who);
            }
        }
        self.cells[sq] = Some(who);
        if let Some(l) = &mut self.left {
            l[index(who)] -= 1;
        }
        self.to_move = who.opposite();
    }

    fn pass(&mut self) {
        self.to_move = self.to_move.opposite();
    }

    /// The final score for the side to move.
    fn score(&self) -> i32 {
        let count = |c: Color| self.cells.iter().filter(|&&x| x == Some(c)).count() as i32;
        let (me, them) = (count(self.to_move), count(self.to_move.opposite()));
        let empties = 64 - me - them;
        match self.variant {
            Variant::Anti => them - me,
            _ if me > them => me - them + empties,
            _ if me < them => me - them - empties,
            _ => 0,
        }
    }

    /// The engine's view of the same position.
    fn to_position(&self) -> Position {
        let bits = |c: Color| {
            (0..64)
                .filter(|&i| self.cells[i] == Some(c))
                .fold(0u64, |a, i| a | 1 << i)
        };
        let position =
            Position::from_colors(bits(Color::Black), bits(Color::White), self.to_move).unwrap();
        let discs_left = self.left.map_or([u8::MAX; 2], |l| [l[0] as u8, l[1] as u8]);
        Position {
            variant: self.variant,
            discs_left,
            ..position
        }
    }

    /// Plain minimax to the end: the exact score for the side to move.
    fn minimax(&self) -> i32 {
        let moves = self.moves_for(self.to_move);
        if moves.is_empty() {
            if self.moves_for(self.to_move.opposite()).is_empty() {
                return self.score();
            }
            let mut p = self.clone();
            p.pass();
            return -p.minimax();
        }
        moves
            .into_iter()
            .map(|sq| {
                let mut c = self.clone();
                c.play(sq);
                -c.minimax()
            })
            .max()
            .unwrap()
    }
}

/// A random game under `variant`, as reference positions (the end included).
/// Random play passes often enough that Reversi's supply runs out for one side
/// in some games (the test below counts them).
fn random_game(variant: Variant, rng: &mut Rng) -> Vec<Reference> {
    let mut r = Reference::start(variant);
    let mut out = vec![r.clone()];
    while !r.over() {
        let moves = r.moves_for(r.to_move);
        if moves.is_empty() {
            r.pass();
        } else {
            let sq = moves[rng.below(moves.len() as u64) as usize];
            r.play(sq);
        }
        out.push(r.clone());
    }
    out
}

#[test]
fn fast_rules_agree_with_the_reference_on_random_games() {
    let mut rng = Rng::new(2026);
    let mut passes = 0;
    let mut out_of_discs = 0;
    for variant in Variant::ALL {
        for _ in 0..300 {
            let game = random_game(variant, &mut rng);
            for pair in game.windows(2) {
                let (r, next) = (&pair[0], &pair[1]);
                let p = r.to_position();
                let legal: Vec<Move> = p.legal_moves();
                let want: Vec<usize> = r.moves_for(r.to_move);
                if want.is_empty() {
                    assert_eq!(legal, vec![Move::Pass]);
                    passes += 1;
                    if r.left.is_some_and(|l| l[index(r.to_move)] == 0) {
                        out_of_discs += 1;
                    }
                } else {
                    let got: Vec<usize> = legal
                        .iter()
                        .map(|m| m.square().unwrap().index() as usize)
                        .collect();
                    assert_eq!(got, want, "{variant}: {p:?}");
                }
                // The move the reference made gives the same next position.
                let made = (0..64).find(|&i| r.cells[i].is_none() && next.cells[i].is_some());
                let mv = made.map_or(Move::Pass, |i| Move::Play(Square::new(i as u8).unwrap()));
                assert_eq!(p.play(mv).unwrap(), next.to_position(), "{variant}");
            }
            let end = game.last().unwrap();
            let p = end.to_position();
            assert!(p.is_game_over() && p.legal_moves().is_empty());
            assert_eq!(p.final_score(), end.score());
        }
    }
    assert!(
        passes > 0 && out_of_discs > 0,
        "{passes} passes, {out_of_discs} out of discs"
    );
}

/// Perft over the reference rules.
fn reference_perft(r: &Reference, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = r.moves_for(r.to_move);
    if moves.is_empty() {
        if r.over() {
            return 1;
        }
        let mut p = r.clone();
        p.pass();
        return reference_perft(&p, depth - 1);
    }
    moves
        .into_iter()
        .map(|sq| {
            let mut c = r.clone();
            c.play(sq);
            reference_perft(&c, depth - 1)
        })
        .sum()
}

#[test]
fn perft_agrees_with_the_reference() {
    for variant in Variant::ALL {
        let r = Reference::start(variant);
        for depth in 0..=6 {
            let want = reference_perft(&r, depth);
            assert_eq!(
                perft_position(&r.to_position(), depth),
                want,
                "{variant} {depth}"
            );
        }
    }
    // From random midgame and endgame positions too.
    let mut rng = Rng::new(5);
    for variant in Variant::ALL {
        for _ in 0..20 {
            let game = random_game(variant, &mut rng);
            let r = &game[(game.len() - 1).min(30 + rng.below(30) as usize)];
            let want = reference_perft(r, 4);
            assert_eq!(perft_position(&r.to_position(), 4), want, "{variant}");
        }
    }
}

/// The exact value of `pos` by the solver (with null windows on both sides of
/// it) and by the root search at 1 and 2 threads, each checked against `want`.
fn check_solve<R: RuleSearch>(pos: &Position, want: i32) {
    let stop = AtomicBool::new(false);
    let tt = TranspositionTable::new(1).unwrap();
    let p = pos.view::<R>();
    let mut s = Solver::<R>::new(&tt, &stop);
    assert_eq!(s.solve(p, -65, 65).score, want, "{pos:?}");
    // Null windows fall on the right side.
    for alpha in [want - 1, want] {
        let v = s.nws(p, alpha);
        assert_eq!(v > alpha, want > alpha, "{pos:?}");
    }
    // The root search solves too, alone and with a helper; so does the
    // win/loss/draw proof, which finds the sign.
    for (threads, limits) in [
        (1, Limits::EXACT),
        (2, Limits::EXACT),
        (1, Limits::WIN_LOSS_DRAW),
    ] {
        let tt = TranspositionTable::new(1).unwrap();
        let req = SearchRequest {
            limits,
            threads,
            ..SearchRequest::<R>::new(p, Level::number(1))
        };
        let res = search(&req, &tt, &stop, &mut |_| {});
        if limits == Limits::EXACT {
            assert_eq!((res.score, res.kind), (want * 100, ScoreKind::Exact));
        } else {
            let sign = want.signum() * 100;
            assert_eq!((res.score, res.kind), (sign, ScoreKind::WinLossDraw));
        }
    }
}

#[test]
fn solver_is_exact_on_random_endgames_of_every_variant() {
    let mut rng = Rng::new(77);
    for variant in Variant::ALL {
        let (mut solved, mut draws, mut wins) = (0, 0, 0);
        while solved < 200 {
            let game = random_game(variant, &mut rng);
            // A position with 4 to 10 empties (plain minimax over the reference
            // takes seconds at 10, so the larger counts come less often).
            const EMPTIES: [usize; 12] = [4, 5, 5, 6, 6, 7, 7, 8, 8, 8, 9, 10];
            let target = EMPTIES[rng.below(EMPTIES.len() as u64) as usize];
            let Some(r) = game.iter().find(|r| 64 - r.discs() <= target && !r.over()) else {
                continue;
            };
            let want = r.minimax();
            let pos = r.to_position();
            match variant {
                Variant::Othello => check_solve::<Othello>(&pos, want),
                Variant::Reversi => check_solve::<Reversi>(&pos, want),
                Variant::Anti => check_solve::<Anti>(&pos, want),
            }
            solved += 1;
            draws += usize::from(want == 0);
            wins += usize::from(want > 0);
        }
        assert!(
            draws > 0 && wins > 0,
            "{variant}: {draws} draws, {wins} wins"
        );
    }
}

#[test]
fn reversi_rule_cases() {
    let p = Variant::Reversi.start();
    assert_eq!(p.legal_moves().len(), 4);
    // Off the centre: refused; on it: nothing flips, the discs left drop.
    let a1 = Move::Play("a1".parse().unwrap());
    assert_eq!(
        p.play(a1),
        Err(IllegalMove::OffCentre("a1".parse().unwrap()))
    );
    let mv = |s: &str| Move::Play(s.parse().unwrap());
    // A parallel start: Black d4, White d5, Black e4, White e5 (row by row).
    let q = ["d4", "d5", "e4", "e5"]
        .iter()
        .fold(p, |q, m| q.play(mv(m)).unwrap());
    assert_eq!(q.black().count_ones(), 2);
    assert_eq!(q.white().count_ones(), 2);
    assert_eq!(q.discs_left, [30, 30]);
    assert_eq!(q.side, Color::Black);
    // From the fifth move on, a move must flip.
    assert!(q.legal_moves().iter().all(|m| {
        let sq = m.square().unwrap();
        q.board.flips(sq.index()) != 0
    }));
    // A player out of discs cannot move; the other plays on alone.
    let mut out = q;
    out.discs_left = [0, 60];
    let state = State {
        board: out.board,
        left: [0, 60],
    };
    assert_eq!(Reversi::moves(Dispatch, &state), 0);
    assert_ne!(Reversi::moves(Dispatch, &state.pass()), 0);
    assert_eq!(out.legal_moves(), vec![Move::Pass]);
    assert_eq!(out.play(mv("c3")), Err(IllegalMove::NoDiscsLeft));
    // Both stuck: the game ends with empties on the board.
    let mut stuck = out;
    stuck.discs_left = [0, 0];
    assert!(stuck.is_game_over() && stuck.legal_moves().is_empty());
    assert_eq!(stuck.play(Move::Pass), Err(IllegalMove::GameOver));
}

#[test]
fn anti_reversi_scores_the_fewer_discs() {
    // Black a1, b1; White h8: the game is over; White has fewer discs and wins,
    // empties counting for nobody.
    let pos = Position::from_colors(0b11, 1 << 63, Color::Black).unwrap();
    let p = pos.othello_like(Variant::Anti);
    assert!(p.is_game_over());
    assert_eq!(p.final_score_black(), -1);
    let draw = Position::from_colors(1, 1 << 63, Color::White).unwrap();
    assert_eq!(draw.othello_like(Variant::Anti).final_score_black(), 0);
    // Othello scores the same board the other way, empties to the winner.
    assert_eq!(pos.othello_like(Variant::Othello).final_score_black(), 62);
}

#[test]
fn anti_reversi_solves_a_24_empty_position_through_its_ordering_bands() {
    // Position 18 of the Anti-Reversi bench set (about 140 M nodes): at 24
    // empties the root runs the selective passes, and the solver orders by the
    // learned evaluation from 18 empties and by a small search from 22.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/anti-24.obf");
    let text = std::fs::read_to_string(path).expect("the bench set ships with the repository");
    let entries = mollett::format::parse_obf(&text).expect("the bench set parses");
    let (_, e) = &entries[17];
    let want = e.scores[0].1;
    assert_eq!(e.position.board.empty().count_ones(), 24);
    let pos = e.position.othello_like(Variant::Anti);
    let stop = AtomicBool::new(false);
    for threads in [1, 2] {
        let tt = TranspositionTable::new(64).unwrap();
        let req = SearchRequest {
            limits: Limits::EXACT,
            threads,
            ..SearchRequest::<Anti>::new(pos.view::<Anti>(), Level::number(1))
        };
        let res = search(&req, &tt, &stop, &mut |_| {});
        assert_eq!(
            (res.score, res.kind),
            (want * 100, ScoreKind::Exact),
            "{threads} threads"
        );
        // The move chosen reaches that score: the position after it is worth
        // exactly the opposite to the opponent.
        let after = pos.play(res.best.expect("a move")).unwrap();
        let tt = TranspositionTable::new(64).unwrap();
        let mut s = Solver::<Anti>::new(&tt, &stop);
        assert_eq!(s.solve(after.view::<Anti>(), -65, 65).score, -want);
    }
}

/// One move choice for `p` at depth 3 (exact at 8 empties) with `seed`.
fn choose<R: RuleSearch>(p: &Position, seed: u64, tt: &TranspositionTable) -> SearchResult {
    let stop = AtomicBool::new(false);
    let req = SearchRequest {
        limits: Limits {
            depth: 3,
            exact_empties: 8,
            wld_empties: 8,
            selectivity: mollett::search::Selectivity::FULL,
        },
        seed,
        ..SearchRequest::<R>::new(p.view::<R>(), Level::number(3))
    };
    search(&req, tt, &stop, &mut |_| {})
}

#[test]
fn self_play_finishes_legally_in_every_variant() {
    for variant in Variant::ALL {
        for seed in 0..2 {
            let tt = TranspositionTable::new(4).unwrap();
            let mut p = variant.start();
            let mut plies = 0;
            while !p.is_game_over() {
                let r = match variant {
                    Variant::Othello => choose::<Othello>(&p, seed, &tt),
                    Variant::Reversi => choose::<Reversi>(&p, seed, &tt),
                    Variant::Anti => choose::<Anti>(&p, seed, &tt),
                };
                let mv = r.best.expect("a move or a pass");
                assert!(p.legal_moves().contains(&mv), "{variant}: {mv:?}");
                p = p.play(mv).unwrap();
                plies += 1;
                assert!(plies < 130);
            }
            let discs = (p.black() | p.white()).count_ones();
            assert!(discs >= 4, "{variant}");
        }
    }
}
