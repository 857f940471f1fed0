//! Stop latency, with 2 threads, over many stops at seeded random moments in the
//! midgame search and in the exact solver. `cargo bench --bench stop_latency
//! [-- STOPS]` (default 1000 for each part) prints the median, the 99th
//! percentile and the worst case over the stops that met a running search, and
//! how many searches ended first, for:
//! - the search itself: the time from raising the stop flag to its answer (the
//!   first thread to see the stop gives it: see `search_answering`), and to its
//!   return, which waits for the last thread to see the stop as well;
//! - the engine facade: the time from `Engine::stop` to the job's `Finished`
//!   event received on another thread, as a protocol loop receives it;
//! - the engine as a GUI sees it: the `mollett` binary in NBoard mode over
//!   pipes, from writing `stop` during a `go` (depth 30, after a seeded
//!   two-move opening) to reading its `===` line.
//!
//! On Linux it also prints the CPU time the host took from this machine during
//! each part (steal, from `/proc/stat`): on a virtual machine the worst returns
//! are often the host's, a stolen slice of several milliseconds landing on a
//! thread just as the stop comes.

use mollett::Position;
use mollett::engine::{Engine, Event, Job, Settings};
use mollett::rng::Rng;
use mollett::rules::Othello;
use mollett::search::{Level, SearchRequest, SearchResult, search_answering};
use mollett::tt::TranspositionTable;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A 26-empty FFO position (#49), searched at level 60 (exact) or level 30 (midgame).
const POSITION: &str = "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X";

/// The start position as a GGF board (`*` Black, `O` White, Black to move).
const START_GGF: &str = "---------------------------O*------*O--------------------------- *";

/// The level of stop `i`: exact solves and midgame searches in turn.
fn level(i: usize) -> u32 {
    if i % 2 == 0 { 60 } else { 30 }
}

/// The table is cleared before every search (proven results survive between
/// searches, so the same position searched again would end before most stops).
/// The clear runs on rayon's pool, whose idle workers spin for a while before
/// they sleep: this lets them settle, so that they do not compete with the
/// search threads for the two cores.
const SETTLE: Duration = Duration::from_millis(20);

/// Stops land this long after the start at most (uniformly, seeded).
const LATEST_STOP_US: u64 = 20_000;

fn main() {
    let stops: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1000);
    let position = POSITION.parse::<Position>().expect("valid");

    let steal_before = host_steal_ms();
    let (answers, returns, early) = search_stops(position, stops);
    println!("search: {early} of {stops} searches ended before their stop");
    print_latencies("search, answered", answers);
    print_latencies("search, returned", returns);
    print_steal(steal_before);

    let steal_before = host_steal_ms();
    let (finished, early) = engine_stops(position, stops);
    println!("engine: {early} of {stops} jobs ended before their stop");
    print_latencies("engine, Finished received", finished);
    print_steal(steal_before);

    let steal_before = host_steal_ms();
    print_latencies("NBoard over pipes, stop to ===", pipe_stops(stops));
    print_steal(steal_before);
}

/// Stops `go` searches of the engine binary in NBoard mode: the latencies from
/// writing `stop` to reading the `===` answer.
fn pipe_stops(stops: usize) -> Vec<Duration> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(["--protocol", "nboard", "--threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the mollett binary");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut send = |line: &str| writeln!(input, "{line}").expect("engine input");
    let mut until = |prefix: &str| {
        let mut line = String::new();
        loop {
            line.clear();
            let n = output.read_line(&mut line).expect("engine output");
            assert!(n > 0, "the engine closed its output");
            if line.starts_with(prefix) {
                return;
            }
        }
    };
    send("nboard 2");
    until("set myname");
    send("set depth 30");
    until("set myname");
    let mut rng = Rng::new(2028);
    let mut latencies = Vec::with_capacity(stops);
    for i in 0..stops {
        let reply = ["D6", "F6", "F4"][rng.below(3) as usize];
        send(&format!(
            "set game (;GM[Othello]BO[8 {START_GGF}]B[F5]W[{reply}];)"
        ));
        send("go");
        std::thread::sleep(Duration::from_micros(rng.below(LATEST_STOP_US)));
        let raised = Instant::now();
        send("stop");
        until("===");
        latencies.push(raised.elapsed());
        send(&format!("ping {i}"));
        until("pong");
    }
    send("quit");
    let _ = child.wait();
    latencies
}

/// Stops `search_answering` directly: the answer and return latencies, and how
/// many searches ended first.
fn search_stops(position: Position, stops: usize) -> (Vec<Duration>, Vec<Duration>, usize) {
    let tt = TranspositionTable::new(64).expect("table");
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(2026);
    let (mut answers, mut returns, mut early) = (Vec::new(), Vec::new(), 0);
    for i in 0..stops {
        let mut req = SearchRequest::<Othello>::new(position.board, Level::number(level(i)));
        req.threads = 2;
        tt.clear();
        std::thread::sleep(SETTLE);
        stop.store(false, Ordering::Relaxed);
        let wait = Duration::from_micros(rng.below(LATEST_STOP_US));
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
    (answers, returns, early)
}

/// Stops jobs of the engine facade: the latencies to the `Finished` event, and
/// how many jobs ended first.
fn engine_stops(position: Position, stops: usize) -> (Vec<Duration>, usize) {
    let mut engine = Engine::new(Settings {
        threads: 2,
        ..Settings::default()
    })
    .expect("engine");
    let events = engine.events();
    let mut rng = Rng::new(2027);
    let (mut latencies, mut early) = (Vec::new(), 0);
    for i in 0..stops {
        // A new game clears the table.
        engine.new_game(position).expect("idle engine");
        engine.set_level(Level::number(level(i)));
        std::thread::sleep(SETTLE);
        let wait = Duration::from_micros(rng.below(LATEST_STOP_US));
        let job = if level(i) == 60 {
            Job::Solve { wld: false }
        } else {
            Job::Go { clock: None }
        };
        engine.start(job).expect("idle engine");
        std::thread::sleep(wait);
        let raised = Instant::now();
        engine.stop();
        let mut finished = None;
        while engine.is_busy() {
            let event = events.recv().expect("the job's events");
            if let Event::Finished(f) = &event {
                finished = Some((Instant::now(), f.stopped));
            }
            engine.observe(&event);
        }
        match finished.expect("a Finished event") {
            // A job that was not stopped ended before the stop, even when its
            // event is received after it.
            (received, true) => latencies.push(received - raised),
            (_, false) => early += 1,
        }
    }
    (latencies, early)
}

fn print_latencies(what: &str, mut latencies: Vec<Duration>) {
    let n = latencies.len();
    assert!(n > 0, "{what}: every search ended before its stop");
    latencies.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{what}: {n} stops, median {:.3} ms, 99th percentile {:.3} ms, worst {:.3} ms",
        ms(latencies[n / 2]),
        ms(latencies[n * 99 / 100]),
        ms(latencies[n - 1])
    );
}

fn print_steal(before: Option<u64>) {
    if let Some(ms) = host_steal_ms().zip(before).map(|(a, b)| a - b) {
        println!("host steal during the part: {ms} ms over all CPUs");
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
