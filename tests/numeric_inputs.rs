//! One out-of-range value per row of PROTOCOL.md §18 (numeric inputs), through
//! the built binary: flags exit with status 2 and the documented message,
//! protocol values get the dialect's error. The rows about sizes of lines and
//! files are checked where those limits live: the engine's queue in
//! `protocol::tests::queued_input_is_bounded_in_bytes`, entrant lines in
//! `tests/match_robustness.rs`, `solve` lines in `tests/solve_cli.rs`, whole
//! files and `loadsgf` in `tests/bounded_input.rs`.

mod common;
use common::{START_BO, run_script};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mollett");

/// Runs `mollett ARGS` with no input: it must exit with status 2 and say
/// `want` on stderr.
fn refused(args: &[&str], want: &str) {
    let out = Command::new(BIN)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: {err}");
}

#[test]
fn out_of_range_flags_are_refused() {
    let a = format!("a={BIN} --level 1 --threads 1 --hash 2");
    let b = format!("b={BIN} --level 1 --threads 1 --hash 2");
    let m = |extra: &[&str]| -> Vec<String> {
        ["match", "--engine", &a, "--engine", &b]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    let rows: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--level".into(), "61".into()],
            "'61' is not a level (1..60",
        ),
        (
            vec!["--threads".into(), "0".into()],
            "0 is not a thread count (1..1024)",
        ),
        (
            vec![
                "perft".into(),
                "3".into(),
                "--threads".into(),
                "1025".into(),
            ],
            "1025 is not in 1..=1024",
        ),
        (
            vec!["--hash".into(), "0".into()],
            "the transposition table needs at least 1 MB",
        ),
        (
            vec!["--exact-empties".into(), "61".into()],
            "61 is not a number of empties (0..60)",
        ),
        (
            vec!["--move-time".into(), "1e7".into()],
            "'1e7' is not a number of seconds (above 0)",
        ),
        (vec!["--seed".into(), "x".into()], "invalid value 'x'"),
        (
            vec!["perft".into(), "99999999999".into()],
            "is not in 0..=4294967295",
        ),
        (
            vec![
                "analyze".into(),
                "f5".into(),
                "--threshold".into(),
                "0".into(),
            ],
            "--threshold must be a positive number of discs",
        ),
        (m(&["--games", "10001"]), "10001 is not in 1..=10000"),
        (m(&["--random-openings", "0"]), "0 is not in 1..=10000"),
        (m(&["--opening-plies", "61"]), "61 is not in 0..=59"),
        (m(&["--concurrency", "0"]), "0 is not in 1..=1024"),
        (m(&["--threads-per-engine", "0"]), "0 is not in 1..=1024"),
        (
            m(&["--proto", "nboard", "--depth", "61"]),
            "'61' is not a depth (1..60)",
        ),
        (
            m(&["--move-time", "1e300"]),
            "move time: '1e300' is not a time in seconds (0 to 31536000)",
        ),
        (
            m(&["--clock", "99999999999999999999999"]),
            "is over 31536000 s (one year)",
        ),
        (
            m(&["--hang-timeout", "1e19"]),
            "'1e19' is not a time in seconds (0 to 31536000)",
        ),
        (
            m(&["--hang-timeout", "0"]),
            "--hang-timeout must be a positive number of seconds",
        ),
        (
            vec!["match".into(), "--engine".into(), a.clone()],
            "a match needs 2 to 64 entrants",
        ),
    ];
    for (args, want) in rows {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, want);
    }
}

#[test]
fn out_of_range_gtp_values_are_refused() {
    let script = "1 boardsize 9\n2 komi lots\n3 time_settings 1e20 0 0\n\
                  4 time_left b 10 99999999999\n5 loadsgf x -1\n6 mollett-threads 0\n\
                  7 mollett-hash 0\n8 mollett-level 61\n9 mollett-seed -1\n";
    let (out, _) = run_script(&["--protocol", "gtp"], script);
    let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
    let want = [
        "?1 unacceptable size",
        "?2 syntax error: 'lots' is not a komi",
        "?3 syntax error: '1e20' is not a time in seconds (0 to 31536000)",
        "?4 syntax error: '99999999999' is not a number of stones",
        "?5 syntax error: '-1' is not a move number",
        "?6 0 is not a thread count (1..1024)",
        "?7 the transposition table needs at least 1 MB",
        "?8 syntax error: '61' is not a level",
        "?9 syntax error: '-1' is not a seed",
    ];
    assert_eq!(answers.len(), want.len(), "{out}");
    for (a, w) in answers.iter().zip(want) {
        assert!(a.starts_with(w), "{a} / {w}");
    }
}

#[test]
fn out_of_range_nboard_and_ggf_values_are_refused_or_left_out() {
    let game = |tags: &str, moves: &str| {
        format!("set game (;GM[Othello]{tags}TY[8]BO[{START_BO}]{moves};)")
    };
    let script = [
        "nboard 2".to_string(),
        "set depth 61".into(),
        "set threads 1025".into(),
        "set contempt 1e300".into(),
        "set contempt x".into(),
        "hint 0".into(),
        "move F5/1e999".into(),
        "move F5//1e300".into(),
        game("TI[8761:00:00]", ""),
        game("TI[5:00/31536001]", ""),
        game("TI[5:00//99999999999]", ""),
        game("VA[reversi]DL[40 40]", ""),
        "ping 1".into(),
    ]
    .join("\n");
    let (out, _) = run_script(&["--protocol", "nboard"], &format!("{script}\n"));
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("set myname"))
        .collect();
    let want = [
        "status set depth: '61' is not a depth (1..60)",
        "status set threads: '1025' is not a thread count (1..1024)",
        // set contempt 1e300 is clamped: no reply.
        "status set contempt: 'x' is not a number",
        "status hint: '0' is not a number of moves (1 or more)",
        "status move: '1e999' in move item 'F5/1e999' is not an eval",
        "status move: '1e300' in move item 'F5//1e300' is not a time in seconds",
        // A clock alone never refuses a record: it is played without it.
        "status set game: clock TI[8761:00:00]: '8761:00:00' is not a clock",
        "status set game: clock TI[5:00/31536001]: '5:00/31536001' is not a clock",
        "status set game: clock TI[5:00//99999999999]: '5:00//99999999999' is not a clock",
        "status set game: DL[40 40] is not two disc counts (0..32)",
        "pong 1",
    ];
    assert_eq!(lines.len(), want.len(), "{out}");
    for (l, w) in lines.iter().zip(want) {
        assert!(l.starts_with(w), "{l} / {w}");
    }
}

#[test]
fn an_out_of_range_console_time_is_refused() {
    let (out, _) = run_script(
        &["--protocol", "console"],
        "time 1e7\ntime 0\ntime 2\ntime\n",
    );
    assert_eq!(
        out,
        "error: time: '1e7' is not a number of seconds (above 0)\n\
         error: time: '0' is not a number of seconds (above 0)\ntime 2.00\ntime 2.00\n"
    );
}

#[test]
fn an_input_line_over_1_mib_is_cut_and_answered_with_its_id() {
    let line = format!("7 known_command {}\n8 name\n", "x".repeat(1 << 20));
    let (out, _) = run_script(&["--protocol", "gtp"], &line);
    assert_eq!(
        out,
        "?7 line too long (over 1048576 bytes), ignored\n\n=8 Mollett\n\n"
    );
}
