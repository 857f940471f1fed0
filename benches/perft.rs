//! Perft speed: leaves per second for perft 11 and 12 from the start, on one thread
//! and on every core. `cargo bench --bench perft [-- RUNS]` (default 3 runs each);
//! prints every run and the median.

use mollett::Board;
use mollett::rules::Othello;
use mollett::rules::perft::perft_parallel;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let runs: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(3);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("perft from the start, {runs} runs each, median of the runs");
    println!(
        "{:>7} {:>6} {:>12} {:>9} {:>14}",
        "threads", "depth", "leaves", "seconds", "leaves/s"
    );
    for threads in [1, cores] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        for depth in [11, 12] {
            let mut times = Vec::new();
            let mut leaves = 0;
            for _ in 0..runs {
                let t = Instant::now();
                leaves = pool.install(|| perft_parallel::<Othello>(Board::START, depth));
                times.push(t.elapsed().as_secs_f64());
            }
            let all: Vec<String> = times.iter().map(|t| format!("{t:.3}")).collect();
            let s = median(times);
            println!(
                "{threads:>7} {depth:>6} {leaves:>12} {s:>9.3} {:>14.0}   runs: {}",
                leaves as f64 / s,
                all.join(" ")
            );
        }
    }
}
