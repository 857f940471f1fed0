//! Stop latency: how long a search takes to answer after the stop flag is
//! raised, and to return (every thread halted), over many stops at seeded random
//! moments, in the midgame search and in the exact solver, with 2 threads.
//! `cargo bench --bench stop_latency [-- STOPS]` (default 1000); prints the
//! median, the 99th percentile and the worst case of both over the stops that
//! met a running search, and how many searches ended first. The answer is what
//! the engine replies with (see `search_answering`); the return waits for the
//! last thread to see the stop as well.
//! On Linux it also prints the CPU time the host took from this machine during
//! the run (steal, from `/proc/stat`): on a virtual machine the worst cases are
//! often the host's, a stolen slice of several milliseconds landing on a stop.

use mollett::Position;
use mollett::rng::Rng;
use mollett::search::{Level, SearchRequest, SearchResult, search_answering};
use mollett::tt::TranspositionTable;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A 26-empty FFO position (#49), searched at level 60 (exact) or level 30 (midgame).
const POSITION: &str = "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X";

fn main() {
    let stops: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1000);
    let board = POSITION.parse::<Position>().expect("valid").board;
    let tt = TranspositionTable::new(64).expect("table");
    let stop = AtomicBool::new(false);
    let steal_before = host_steal_ms();
    let mut rng = Rng::new(2026);
    let mut answers = Vec::with_capacity(stops);
    let mut returns = Vec::with_capacity(stops);
    let mut early = 0;
    for i in 0..stops {
        let level = if i % 2 == 0 { 60 } else { 30 };
        let mut req = SearchRequest::new(board, Level::number(level));
        req.threads = 2;
        // A fresh table: proven results survive between searches, so the same
        // position searched again would end before most stops.
        tt.clear();
        // The clear runs on rayon's pool, whose idle workers spin for a while
        // before they sleep: let them settle, so that they do not compete with
        // the search threads for the two cores.
        std::thread::sleep(Duration::from_millis(20));
        stop.store(false, Ordering::Relaxed);
        let wait = Duration::from_micros(rng.below(20_000));
        let answered = Mutex::new(None);
        let answer =
            |_: &SearchResult| *answered.lock().expect("answer time") = Some(Instant::now());
        let (raised, returned) = std::thread::scope(|s| {
            let h = s.spawn(|| {
                search_answering(&req, &tt, &stop, &mut |_| {}, &answer);
                Instant::now()
            });
            std::thread::sleep(wait);
            let raised = Instant::now();
            stop.store(true, Ordering::Relaxed);
            (raised, h.join().expect("search thread"))
        });
        let answered = answered
            .into_inner()
            .expect("answer time")
            .expect("an answer");
        if answered < raised {
            early += 1;
        } else {
            answers.push(answered - raised);
            returns.push(returned - raised);
        }
    }
    let steal = host_steal_ms()
        .zip(steal_before)
        .map(|(after, before)| after - before);
    // Only stops that met a running search measure anything.
    let stops = answers.len();
    assert!(stops > 0, "every search ended before its stop");
    println!("searches that ended before their stop: {early}");
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    for (what, mut latencies) in [("answered", answers), ("returned", returns)] {
        latencies.sort();
        println!(
            "{stops} stops, {what}: median {:.3} ms, 99th percentile {:.3} ms, worst {:.3} ms",
            ms(latencies[stops / 2]),
            ms(latencies[stops * 99 / 100]),
            ms(latencies[stops - 1])
        );
    }
    if let Some(ms) = steal {
        println!("host steal during the run: {ms} ms over all CPUs");
    }
}

/// The CPU time the hypervisor has taken from this machine since boot, summed
/// over its CPUs, in ms (`None` where `/proc/stat` does not say).
fn host_steal_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu = stat.lines().find(|l| l.starts_with("cpu "))?;
    // Fields after "cpu": user nice system idle iowait irq softirq steal, in
    // clock ticks of 10 ms (USER_HZ is 100 on every Linux we target).
    let steal: u64 = cpu.split_whitespace().nth(8)?.parse().ok()?;
    Some(steal * 10)
}
