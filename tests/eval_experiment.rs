//! The evaluation experiment: two players search the same 4 plies with the
//! engine's own search and differ only in their evaluation. A mobility-first
//! evaluation plays the disc count 24 times, 12 as Black and 12 as White, each
//! game with its own seed for the tie-breaks. The learned evaluation (the
//! default) must win all 24; the hand-written one, at least 22.
//!
//! `cargo test --release --test eval_experiment -- --nocapture` shows the figures.

use mollett::eval::EvalKind;
use mollett::search::Limits;
use mollett::tools::selfplay::{Player, play_game};

fn player(eval: EvalKind) -> Player {
    Player {
        limits: Limits {
            depth: 4,
            exact_empties: 0,
            wld_empties: 0,
            selectivity: mollett::search::Selectivity::FULL,
        },
        eval,
    }
}

/// Plays `eval` against the disc count 24 times; returns its wins.
fn experiment(eval: EvalKind) -> u32 {
    let (first, discs) = (player(eval), player(EvalKind::Discs));
    let (mut wins, mut draws, mut margin, mut passes, mut with_empties) = (0, 0, 0, 0, 0);
    for game in 0..24u64 {
        let first_black = game < 12;
        let (b, w) = if first_black {
            (first, discs)
        } else {
            (discs, first)
        };
        let o = play_game(b, w, 1000 + game, 4).unwrap();
        let m = if first_black {
            o.black_score
        } else {
            -o.black_score
        };
        wins += (m > 0) as u32;
        draws += (m == 0) as u32;
        margin += m;
        passes += o.passes;
        with_empties += (o.empties > 0) as u32;
    }
    println!(
        "{eval} vs disc count, depth 4: {wins} wins, {draws} draws, {} losses of 24; \
         average margin {:+.1} discs; {passes} passes; {with_empties} games ended with empties",
        24 - wins - draws,
        margin as f64 / 24.0
    );
    wins
}

#[test]
fn learned_beats_disc_count_24_of_24_at_depth_4() {
    let wins = experiment(EvalKind::Learned);
    assert_eq!(wins, 24, "the learned evaluation won only {wins} of 24");
}

#[test]
fn mobility_beats_disc_count_at_depth_4() {
    let wins = experiment(EvalKind::Mobility);
    assert!(wins >= 22, "mobility-first won only {wins} of 24");
}
