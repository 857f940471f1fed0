//! Anti-Reversi: the learned evaluation (weights fitted to Anti-Reversi
//! self-play, `weights/anti.mlw`) against the hand-written Anti-Reversi
//! evaluation (`eval::score_anti`). Both sides run the engine's own search
//! under the Anti-Reversi rules at depth 4 (with no endgame solve in the
//! default test, so that they differ only in their evaluation). Each opening (seeded random moves from the start)
//! is played twice, the learned evaluation once as Black and once as White,
//! each game with its own tie-break seed.
//!
//! `mollett match` can play Anti-Reversi entrants, but its referee keeps
//! Othello's score, so it counts every result the wrong way round; this test
//! scores the games as Anti-Reversi.
//!
//! `cargo test --release --test anti_eval -- --nocapture` shows the figures;
//! `-- --ignored` plays the 200-game match the README quotes.

use mollett::board::Board;
use mollett::eval::EvalKind;
use mollett::rng::Rng;
use mollett::rules::{Anti, Rules};
use mollett::search::{Limits, SearchRequest, Selectivity, search};
use mollett::tools::arena::stats::Wdl;
use mollett::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;

/// Random moves from the start that make an opening.
const OPENING_PLIES: u32 = 8;

/// The position after [`OPENING_PLIES`] random moves drawn from `seed`.
fn opening(seed: u64) -> Board {
    let mut rng = Rng::new(seed);
    let mut b = Board::START;
    for _ in 0..OPENING_PLIES {
        let m = b.moves();
        let sq = rng.pick_bit(m);
        b = b.make(sq, b.flips(sq));
    }
    b
}

/// Plays out `start` (Black to move after an even number of plies) with
/// `black` and `white` at depth 4, solving exactly from `exact` empties on;
/// returns Black's Anti-Reversi margin.
fn play(start: Board, black: EvalKind, white: EvalKind, seed: u64, exact: u32) -> i32 {
    let tables = [
        TranspositionTable::new(4).unwrap(),
        TranspositionTable::new(4).unwrap(),
    ];
    let stop = AtomicBool::new(false);
    let (mut b, mut black_to_move) = (start, true);
    while !b.is_game_over() {
        if b.moves() == 0 {
            b = b.pass();
        } else {
            let (eval, tt) = if black_to_move {
                (black, &tables[0])
            } else {
                (white, &tables[1])
            };
            let req = SearchRequest::<Anti> {
                limits: Limits {
                    depth: 4,
                    exact_empties: exact,
                    wld_empties: exact,
                    selectivity: Selectivity::FULL,
                },
                eval,
                seed,
                ..SearchRequest::new(b, mollett::search::level::Level::default())
            };
            let r = search(&req, tt, &stop, &mut |_| {});
            let sq = r.best.and_then(|m| m.square()).expect("a legal move");
            b = b.make(sq.index(), b.flips(sq.index()));
        }
        black_to_move = !black_to_move;
    }
    let mover = Anti::final_score(&b);
    if black_to_move { mover } else { -mover }
}

/// The learned evaluation against the hand-written one from `openings`
/// openings, both colours, solving from `exact` empties: its W/D/L and total
/// margin.
fn match_from(openings: u64, exact: u32) -> (Wdl, i32) {
    let (mut wdl, mut margin) = (Wdl::default(), 0);
    for o in 0..openings {
        let start = opening(7000 + o);
        for learned_black in [true, false] {
            let seed = 2 * o + u64::from(learned_black);
            let m = if learned_black {
                play(start, EvalKind::Learned, EvalKind::Mobility, seed, exact)
            } else {
                -play(start, EvalKind::Mobility, EvalKind::Learned, seed, exact)
            };
            wdl.add(m);
            margin += m;
        }
    }
    let games = wdl.games();
    let elo = wdl.elo().expect("games were played");
    println!(
        "anti, learned vs hand-written, depth 4, exact from {exact} empties, {games} games: \
         {}/{}/{} (W/D/L), score {:.1} %, Elo {:+.0} ({:+.0}..{:+.0}), mean margin {:+.2} discs",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        100.0 * wdl.score().unwrap_or(0.0),
        elo.elo,
        elo.low,
        elo.high,
        f64::from(margin) / f64::from(games)
    );
    (wdl, margin)
}

#[test]
fn learned_anti_evaluation_beats_the_hand_written_one_at_depth_4() {
    let (wdl, margin) = match_from(24, 0);
    assert!(
        wdl.score().unwrap() >= 0.75 && margin > 0,
        "the learned Anti-Reversi evaluation scored only {:?}",
        wdl
    );
}

#[test]
#[ignore = "the matches quoted in the README (a minute or two)"]
fn learned_anti_evaluation_matches_of_1000_games() {
    match_from(500, 0);
    match_from(500, 12);
}
