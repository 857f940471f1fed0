//! The panic policy in every dialect, with the hidden `--inject-panic` hook
//! (the first search panics): the panic is answered in the dialect's error
//! form (PROTOCOL.md 12.2, 13.3, 14.2), nothing is played, nothing reaches
//! stderr, and the next search works. (NBoard's `go` is in protocol_nboard.rs.)

mod common;

use common::Engine;
use std::time::Duration;

/// Runs `mollett ARGS --inject-panic` over `input`; returns stdout and stderr.
fn script(args: &[&str], input: &str) -> (String, String) {
    let mut all = args.to_vec();
    all.push("--inject-panic");
    common::run_script(&all, input)
}

#[test]
fn gtp_answers_a_panicking_genmove_with_a_failure_and_plays_nothing() {
    let (out, err) = script(
        &["--protocol", "gtp", "--threads", "1", "--level", "2"],
        "1 genmove b\n2 gogui-rules_side_to_move\n3 genmove b\n4 gogui-rules_side_to_move\nquit\n",
    );
    let blocks: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(blocks.len(), 5, "{out}");
    assert!(
        blocks[0].starts_with("?1 internal error: the search failed: injected fault"),
        "{out}"
    );
    assert_eq!(blocks[1], "=2 black", "nothing was played");
    assert!(
        ["=3 d3", "=3 c4", "=3 f5", "=3 e6"].contains(&blocks[2]),
        "{out}"
    );
    assert_eq!(blocks[3], "=4 white");
    assert_eq!(err, "");
}

#[test]
fn console_answers_a_panicking_go_with_one_error_line_and_goes_on() {
    let (out, err) = script(
        &["--threads", "1", "--level", "2"],
        "f5\ngo\nshowboard\ngo\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("error: the search failed: injected fault"),
        "{out}"
    );
    // Nothing was played: White (O) is still to move after f5 alone.
    assert!(lines[11].starts_with("O (white) to move"), "{out}");
    assert_eq!(lines[12], "played (1): [f5]", "{out}");
    assert!(lines[13].starts_with("move "), "{out}");
    assert_eq!(lines.len(), 14, "{out}");
    assert_eq!(err, "");
}

#[test]
fn nboard_answers_a_panicking_hint_with_a_status_and_the_next_hint_works() {
    let mut e = Engine::spawn(&["--threads", "1", "--inject-panic"]);
    e.send("nboard 2");
    e.send("set depth 2");
    e.send("hint 2");
    e.send("ping 1");
    let lines = e.until(|l| l == "pong 1");
    assert_eq!(
        lines[..2],
        ["set myname Mollett-21", "set myname Mollett-2"],
        "{lines:?}"
    );
    assert_eq!(lines[2], "status Mollett is thinking", "{lines:?}");
    assert!(
        lines[3].starts_with("status search failed: injected fault"),
        "{lines:?}"
    );
    assert_eq!(lines[4], "status Mollett is waiting", "{lines:?}");
    assert_eq!(lines.len(), 6, "{lines:?}");
    e.send("hint 2");
    let lines = e.until(|l| l.starts_with("nodestats "));
    assert_eq!(lines[0], "status Mollett is thinking", "{lines:?}");
    assert!(lines[1].starts_with("search "), "{lines:?}");
    assert!(
        lines[1..].iter().all(|l| !l.starts_with("status")),
        "{lines:?}"
    );
    e.send("ping 2");
    e.until(|l| l == "pong 2");
    let (status, _, _) = e.close(Duration::from_secs(2));
    assert!(status.success());
}
