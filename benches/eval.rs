//! Evaluations per second: the learned pattern evaluation against the
//! hand-written mobility-first one and the disc count, on the positions of
//! seeded random games, taken in order of empties as a search meets them. `cargo bench --bench eval [-- RUNS]` prints the median
//! of RUNS runs (default 5) for each.

use mollett::board::Board;
use mollett::eval::{EvalKind, evaluate};
use mollett::rng::Rng;
use std::hint::black_box;
use std::time::Instant;

#[path = "../tests/common/positions.rs"]
mod positions;
use positions::random_positions;

fn main() {
    let runs: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(5);
    // Sorted by empties and each empties count evaluated ten times over, as a
    // search meets them (its leaves at one or two empties counts, millions of
    // times): the learned tables of one phase stay in the cache.
    let mut boards = random_positions(2000);
    boards.sort_by_key(Board::empties);
    // Expand the learned tables before timing.
    black_box(evaluate(EvalKind::Learned, &Board::START));
    println!("{} positions, median of {runs} runs", boards.len());
    for kind in [EvalKind::Discs, EvalKind::Mobility, EvalKind::Learned] {
        let mut rates = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            let mut sum = 0i64;
            for group in boards.chunk_by(|a, b| a.empties() == b.empties()) {
                for _ in 0..10 {
                    for b in group {
                        sum += i64::from(evaluate(kind, black_box(b)));
                    }
                }
            }
            black_box(sum);
            rates.push(10.0 * boards.len() as f64 / t.elapsed().as_secs_f64());
        }
        rates.sort_by(f64::total_cmp);
        let m = rates[runs / 2];
        println!(
            "{kind:>9}: {:>7.2} M evaluations/s ({:.1} ns each)",
            m / 1e6,
            1e9 / m
        );
    }
}
