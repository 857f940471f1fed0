//! Resource bounds at the command line and the process level: refused table
//! sizes and thread counts end with a message and exit status 2 (never an
//! abort), and a closed stdout ends the process quietly in every dialect,
//! even in the middle of a search.

mod common;

use common::Engine;
use std::process::Command;
use std::time::Duration;

/// Runs `mollett ARGS` with empty stdin; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("start mollett");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn refused_table_sizes_and_thread_counts_exit_with_a_message() {
    for (args, want) in [
        (
            &["--hash", "0"][..],
            "mollett: the transposition table needs at least 1 MB\n",
        ),
        (
            &["--threads", "0"],
            "mollett: 0 is not a thread count (1..1024)\n",
        ),
        (
            &["--threads", "1025"],
            "mollett: 1025 is not a thread count (1..1024)\n",
        ),
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!((stdout.as_str(), stderr.as_str()), ("", want), "{args:?}");
    }
    // More than the machine's memory (the second fits in the address space but no
    // system has it): refused with the machine's size, not an abort.
    for mb in ["18446744073709551615", "1000000000000"] {
        let (code, stdout, stderr) = run(&["--hash", mb]);
        assert_eq!((code, stdout.as_str()), (Some(2), ""), "{mb}");
        let want =
            format!("mollett: a transposition table of {mb} MB is more than this machine's ");
        assert!(
            stderr.starts_with(&want) && stderr.ends_with(" MB of memory\n"),
            "{stderr}"
        );
    }
    // The subcommands' thread counts are checked by the argument parser.
    for args in [
        &["perft", "1", "--threads", "0"][..],
        &["perft", "1", "--threads", "100000"],
        &["bench", "--threads", "0"],
        &["solve", "x.obf", "--threads", "2000"],
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(stdout, "", "{args:?}");
        assert!(
            stderr.starts_with("error: invalid value") && stderr.contains("1..=1024"),
            "{args:?}: {stderr}"
        );
    }
}

/// Sends `lines` to `mollett ARGS` whose stdout is already closed, keeping
/// stdin open: the first answer fails to write, and the process must end by
/// itself (stopping any search), with status 0 and nothing on stderr.
fn closed_stdout(args: &[&str], lines: &[&str]) {
    let mut e = Engine::spawn_with_closed_stdout(args);
    for l in lines {
        e.send(l);
    }
    let (status, _) = e.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "{args:?}: {status:?}");
    assert_eq!(e.stderr_text(), "", "{args:?}");
}

#[test]
fn a_closed_stdout_ends_every_dialect_quietly() {
    // GTP and the console: the first move's answer fails; the rest never run.
    closed_stdout(
        &["--protocol", "gtp", "--threads", "1", "--level", "8"],
        &["1 genmove b", "2 genmove w", "3 name"],
    );
    closed_stdout(&["--threads", "1", "--level", "8"], &["go", "go", "level"]);
    // NBoard, in the middle of a search that would never end: the first depth's
    // hint line fails to write, and the loop stops the search and ends.
    closed_stdout(
        &["--protocol", "nboard", "--threads", "1", "--level", "60"],
        &["hint 3"],
    );
}

#[test]
fn a_flood_of_pings_is_answered_in_order() {
    // 20,000 pings sent at once behind a search that would never end: the
    // first stops it, and every pong comes back, in order, quickly.
    let mut e = Engine::spawn(&["--protocol", "nboard", "--threads", "1", "--level", "60"]);
    e.send("hint 3");
    let flood: String = (0..20_000).map(|k| format!("ping {k}\n")).collect();
    let t = std::time::Instant::now();
    e.send_raw(flood.as_bytes());
    let mut next = 0;
    while next < 20_000 {
        let l = e.line();
        if l.starts_with("pong") {
            assert_eq!(l, format!("pong {next}"));
            next += 1;
        } else {
            assert_eq!(next, 0, "{l} after a pong");
            assert!(
                l.starts_with("search ")
                    || l.starts_with("nodestats ")
                    || l.starts_with("status Mollett is "),
                "{l}"
            );
        }
    }
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let (status, _, rest) = e.close(Duration::from_secs(2));
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}
