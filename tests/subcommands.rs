//! The one-shot subcommands as a shell uses them: a closed pipe ends them
//! quietly, `analyze` says when its file is missing and prints no `-0.00`, and
//! the files the README's examples read are there and work.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mollett");

fn repo(path: &str) -> String {
    format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `mollett ARGS`, reads one line of its stdout and closes the pipe, as
/// `| head -1` does: the process must exit by itself with status 0 and write
/// nothing to stderr.
fn first_line_then_close(args: &[&str]) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mollett");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(!first.is_empty(), "{args:?}: no output");
    drop(out);
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{args:?}: still running 60 s after its stdout closed");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(status.success(), "{args:?}: {status:?}, stderr {err}");
    assert_eq!(err, "", "{args:?}");
}

#[test]
fn a_closed_pipe_ends_every_subcommand_quietly() {
    let ffo = repo("tests/data/ffo/fforum-1-19.obf");
    first_line_then_close(&["perft", "11", "--threads", "1"]);
    first_line_then_close(&["solve", &ffo]);
    first_line_then_close(&["solve", &ffo, "--json"]);
    first_line_then_close(&["bench"]);
    first_line_then_close(&["analyze", "f5d6c3d3c4f4f6f3e6e7", "--level", "4"]);
}

/// `mollett ARGS`: exit code, stdout, stderr.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(BIN).args(args).output().expect("run mollett");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn analyze_says_a_file_is_missing_and_prints_no_negative_zero() {
    let (code, out, err) = run(&["analyze", "no-such-game.ggf"]);
    assert_eq!(code, Some(2));
    assert_eq!(out, "");
    assert!(
        err.starts_with("mollett: cannot read no-such-game.ggf: ") && !err.contains("not a move"),
        "{err}"
    );
    let (code, _, err) = run(&["analyze", "games/missing"]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("mollett: cannot read games/missing: "),
        "{err}"
    );
    // A transcript is still a transcript, and an empty game has nothing lost.
    let (code, out, _) = run(&["analyze", "f5d6", "--level", "2"]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out, _) = run(&["analyze", ""]);
    assert_eq!(code, Some(0));
    assert!(!out.contains("-0.00"), "{out}");
    assert!(
        out.ends_with("discs lost: black 0.00, white 0.00\n"),
        "{out}"
    );
}

#[test]
fn the_readme_example_files_are_shipped_and_work() {
    let (code, out, err) = run(&["analyze", &repo("examples/game.ggf"), "--level", "2"]);
    assert_eq!(code, Some(0), "{err}");
    // Every move of the 60-move game, the header and the summary.
    assert_eq!(out.lines().count(), 62, "{out}");
    let (code, out, err) = run(&[
        "match",
        "--engine",
        &format!("a={BIN} --level 1 --threads 1"),
        "--engine",
        &format!("b={BIN} --level 1 --threads 1"),
        "--openings",
        &repo("examples/openings.txt"),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("a vs b: 12 games"), "{out}");
}

#[test]
fn bench_at_a_level_prints_time_to_depth() {
    let (code, out, err) = run(&["bench", "--level", "4"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // The start after f5 first, one line per depth, then its result.
    for d in 1..=4 {
        let want = format!("position  1 depth  {d} nodes");
        assert!(lines.iter().any(|l| l.starts_with(&want)), "{want}\n{out}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("position  1 done depth  4"))
    );
    // Every position ends with a result; the last three have 14 empties, more
    // than level 4 solves (8), so they too are searched to depth 4.
    let done: Vec<_> = lines.iter().filter(|l| l.contains(" done ")).collect();
    assert_eq!(done.len(), 11);
    assert!(done.iter().all(|l| l.contains(" done depth  4 ")), "{out}");
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("Level 4, 1 thread(s): nodes ")
    );
}

#[test]
fn bench_scaling_needs_two_threads_and_no_level() {
    let (code, out, err) = run(&["bench", "--scaling"]);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert!(err.contains("give --threads 2 or more"), "{err}");
    let (code, _, err) = run(&["bench", "--scaling", "--threads", "2", "--level", "4"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
}

/// The whole scaling bench on two threads (about 70 s here): every line's shape
/// and the summaries. `cargo test --release --test subcommands -- --ignored`.
#[test]
#[ignore]
fn bench_scaling_reports_speed_up_and_inflation() {
    let (code, out, err) = run(&["bench", "--scaling", "--threads", "2"]);
    assert_eq!(code, Some(0), "{err}");
    for part in ["ffo 40-49", "level 21"] {
        for t in [1, 2] {
            let total = format!("{part} threads    {t} total nodes ");
            assert!(out.lines().any(|l| l.starts_with(&total)), "{total}\n{out}");
        }
        let summary = format!("{part}: 2 threads: speed-up ");
        let line = out.lines().find(|l| l.starts_with(&summary)).unwrap();
        assert!(
            line.contains("x, node inflation ") && line.ends_with('x'),
            "{line}"
        );
    }
    assert!(out.ends_with("FFO #40-49 scores: the published ones at both thread counts\n"));
}
