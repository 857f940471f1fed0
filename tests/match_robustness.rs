//! `mollett match` under interruption and against runaway entrants: games are
//! saved as they end and survive SIGINT, SIGTERM and SIGKILL; `--resume`
//! finishes a match; the games file is locked and never truncated unasked; an
//! entrant that floods its output or writes a line without end loses its game
//! while the runner's memory stays small.
//!
//! The kill test of the default run is short (a few kills of fast games); the
//! full one (20 kills of each signal) is `#[ignore]`d:
//! `cargo test --release --test match_robustness -- --ignored`.

mod common;
use common::Scratch;
use mollett::format::{GgfGame, parse_ggf_records};
use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mollett");

/// A Mollett entrant at `level`: one thread, a small table.
fn mollett(name: &str, level: u32) -> String {
    format!("{name}={BIN} --level {level} --threads 1 --hash 2")
}

/// `mollett match` between Mollett entrants `a` and `b` at these levels.
fn match_of(a: u32, b: u32) -> Command {
    let mut c = Command::new(BIN);
    c.args([
        "match",
        "--engine",
        &mollett("a", a),
        "--engine",
        &mollett("b", b),
    ]);
    c
}

/// The games of a games file (which must parse whole).
fn games_in(file: &Path) -> Vec<GgfGame> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    parse_ggf_records(&text).expect("every record of the games file parses")
}

/// A record's game number (`RO`).
fn number(g: &GgfGame) -> usize {
    let ro = g.extra.iter().find(|(t, _)| t == "RO").expect("RO[..]");
    ro.1.parse().unwrap()
}

/// The game numbers of the progress lines (`game N (k/T done): …`).
fn reported(stderr: &str) -> HashSet<usize> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("game ")?.split_once(" (")?.0.parse().ok())
        .collect()
}

/// The match the kill tests interrupt: 40 games of two levels, one at a time
/// (about 3 s here).
fn match_args(file: &Path) -> Vec<String> {
    [
        "match",
        "--engine",
        &mollett("a", 7),
        "--engine",
        &mollett("b", 6),
        "--games",
        "40",
        "--concurrency",
        "1",
        "--games-file",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([file.display().to_string()])
    .collect()
}

/// Runs the match and sends `signal` after `after`; checks that every game it
/// reported finished is in the file, whole, and (for SIGINT and SIGTERM) that
/// the report of the games so far was printed. Returns the games lost: those
/// reported but missing from the file.
fn kill_once(dir: &Path, signal: &str, after: Duration, k: usize) -> usize {
    let file = dir.join(format!("kill-{signal}-{k}.ggf"));
    let child = Command::new(BIN)
        .args(match_args(&file))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    let games = games_in(&file);
    let saved: HashSet<usize> = games.iter().map(number).collect();
    assert_eq!(saved.len(), games.len(), "no game twice");
    if !sent.success() || out.status.success() {
        // The match ended first (or the signal came as it ended): it is complete.
        assert_eq!(games.len(), 40, "{stderr}");
        return 0;
    }
    if signal != "KILL" {
        let code = if signal == "INT" { 130 } else { 143 };
        assert_eq!(out.status.code(), Some(code), "{stderr}");
        let line = format!("a vs b: {} games", games.len());
        assert!(stdout.contains(&line), "{line} in {stdout}");
        assert!(stderr.contains("interrupted by signal"), "{stderr}");
    }
    let lost = reported(&stderr).difference(&saved).count();
    eprintln!(
        "SIG{signal} after {} ms: {} games saved, {lost} lost",
        after.as_millis(),
        games.len()
    );
    lost
}

/// Kills at moments spread over the first seconds of the match, then resumes
/// the last killed file to the end.
fn kill_test(per_signal: usize) {
    let dir = Scratch::new("match-kill");
    let mut lost = 0;
    for signal in ["INT", "TERM", "KILL"] {
        for k in 0..per_signal {
            // Seeded spread: 0.3 s to 2.6 s after the start.
            let ms = 300 + (k as u64 * 7919 + signal.len() as u64 * 104_729) % 2300;
            lost += kill_once(&dir, signal, Duration::from_millis(ms), k);
        }
    }
    assert_eq!(lost, 0, "games lost");
    // A killed match resumes to its end, keeping its games.
    let file = dir.join(format!("kill-KILL-{}.ggf", per_signal - 1));
    let before = games_in(&file).len();
    let out = Command::new(BIN)
        .args(match_args(&file))
        .arg("--resume")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = games_in(&file);
    assert_eq!(games.len(), 40);
    let numbers: HashSet<usize> = games.iter().map(number).collect();
    assert_eq!(numbers, (1..=40).collect());
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("a vs b: 40 games"), "{report}");
    assert!(before <= 40);
}

#[test]
fn killed_matches_lose_no_game_and_resume() {
    kill_test(2);
}

/// The full kill test: 20 kills with each of SIGINT, SIGTERM and SIGKILL.
#[test]
#[ignore]
fn killed_matches_lose_no_game_full() {
    kill_test(20);
}

#[test]
fn a_games_file_is_never_truncated_unasked_and_is_locked() {
    let dir = Scratch::new("match-file");
    let file = dir.join("games.ggf");
    let run = |extra: &[&str]| {
        match_of(1, 1)
            .args(["--games", "2", "--games-file"])
            .arg(&file)
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(run(&[]).status.success());
    let first = std::fs::read_to_string(&file).unwrap();
    assert_eq!(games_in(&file).len(), 2);
    let again = run(&[]);
    assert_eq!(again.status.code(), Some(2));
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("already holds games: --resume"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first, "untouched");
    // Resuming a finished match plays nothing and reports its games.
    let resumed = run(&["--resume"]);
    assert!(resumed.status.success());
    assert!(String::from_utf8_lossy(&resumed.stdout).contains("a vs b: 2 games"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first);
    assert!(run(&["--overwrite"]).status.success());
    assert_eq!(games_in(&file).len(), 2);
    // A file another match holds is refused at once.
    let slow = match_of(8, 8)
        .args([
            "--games",
            "40",
            "--concurrency",
            "1",
            "--overwrite",
            "--games-file",
        ])
        .arg(&file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let locked = run(&["--resume"]);
    let _ = Command::new("kill").arg(slow.id().to_string()).status();
    let mut slow = slow;
    let _ = slow.wait();
    let err = String::from_utf8_lossy(&locked.stderr);
    assert_eq!(locked.status.code(), Some(2), "{err}");
    assert!(err.contains("another job is writing it"), "{err}");
    // A file of another kind, its last line unterminated, is refused and not
    // cut: the torn line is dropped only from a file of this match's games.
    let notes = dir.join("notes.ggf");
    std::fs::write(&notes, "my notes\nunterminated").unwrap();
    let other = match_of(1, 1)
        .args(["--games", "2", "--resume", "--games-file"])
        .arg(&notes)
        .output()
        .unwrap();
    assert_eq!(other.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "my notes\nunterminated"
    );
    // A device is refused before any game.
    let full = match_of(1, 1)
        .args(["--games-file", "/dev/full"])
        .output()
        .unwrap();
    assert_eq!(full.status.code(), Some(2));
    let err = String::from_utf8_lossy(&full.stderr);
    assert!(
        err.contains("games file /dev/full is not a regular file"),
        "{err}"
    );
}

/// The largest resident size of any waited-for child of this test process, in
/// bytes (Linux's `ru_maxrss`, for the runner and the entrants it reaped).
fn children_max_rss() -> u64 {
    // SAFETY: a zeroed rusage is valid; getrusage fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid rusage for the call.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    usage.ru_maxrss as u64 * 1024
}

/// Entrants that answer their set-up, then flood their output, write an
/// endless line or one of 200 MB when asked for a move: each loses its game
/// (at the latest at the hang timeout), the match completes, and no process of
/// the run grew past 100 MB.
#[test]
fn runaway_entrants_lose_and_the_runner_stays_small() {
    let double = format!("{}/tests/doubles/runaway.sh", env!("CARGO_MANIFEST_DIR"));
    for (proto, mode, what) in [
        ("gtp", "yes", "protocol error: 'y' in answer to 'genmove"),
        (
            "gtp",
            "zero",
            "a line longer than 64 KiB in answer to 'genmove",
        ),
        ("gtp", "hugeline", "a line longer than 64 KiB"),
        (
            "nboard",
            "yes",
            "hung: no valid answer to 'go'; last line 'y' (limit 2.0 s",
        ),
        (
            "nboard",
            "pongs",
            "hung: no valid answer to 'go'; last line 'pong 1'",
        ),
        (
            "nboard",
            "zero",
            "a line longer than 64 KiB in answer to 'go'",
        ),
    ] {
        let t0 = Instant::now();
        let out = Command::new(BIN)
            .args([
                "match",
                "--proto",
                proto,
                "--games",
                "2",
                "--hang-timeout",
                "2",
            ])
            .args(["--engine", &format!("r=sh {double} {proto} {mode}")])
            .args(["--engine", &mollett("m", 1)])
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{proto} {mode}: {report}");
        assert!(t0.elapsed() < Duration::from_secs(30), "{proto} {mode}");
        assert_eq!(report.matches(what).count(), 2, "{proto} {mode}: {report}");
        assert!(report.len() < 4000, "short quotes: {report}");
    }
    let rss = children_max_rss();
    assert!(rss < 100 << 20, "peak resident size {rss} bytes");
}
