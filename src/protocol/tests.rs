//! The loop's pure parts (dialect selection, interrupts, line reading, output
//! hygiene) and short scripts run in-process.

use super::lines::{Line, is_interrupt, read_line};
use super::*;
use std::sync::atomic::{AtomicBool, Ordering};

fn settings(level: &str) -> Settings {
    Settings {
        level: level.parse().unwrap(),
        threads: 1,
        hash_mb: 2,
        ..Settings::default()
    }
}

#[test]
fn dialect_selection_follows_the_rules() {
    let run = |forced, lines: &[&str]| {
        let mut s = Selector::new(forced);
        lines.iter().map(|l| s.observe(l)).collect::<Vec<_>>()
    };
    use Dialect::{Console as C, Gtp as G, NBoard as N};
    assert_eq!(run(None, &["nboard 2", "go"]), [N, N]);
    assert_eq!(run(None, &["ping 1", "clear"]), [N, N]);
    assert_eq!(run(None, &["set game (;;)"]), [N]);
    assert_eq!(run(None, &["SET DEPTH 4"]), [N]);
    assert_eq!(run(None, &["protocol_version", "play b f5"]), [G, G]);
    assert_eq!(run(None, &["1 boardsize 8"]), [G]);
    assert_eq!(run(None, &["boardsize 8"]), [G]);
    assert_eq!(run(None, &["play B F5"]), [G]);
    assert_eq!(run(None, &["genmove w"]), [G]);
    assert_eq!(run(None, &["2 name"]), [G]);
    // Words a person may type select nothing: `clear`, `ping` without a
    // number, `name`, `version`, a GTP command without its arguments.
    for line in [
        "clear",
        "ping",
        "ping x",
        "name",
        "version",
        "boardsize",
        "genmove",
        "nboard",
    ] {
        assert_eq!(run(None, &[line, "nboard 2"]), [C, N], "{line}");
    }
    // A console in use never switches, not even for nboard.
    assert_eq!(run(None, &["f5", "ping 1", "nboard 1"]), [C, C, C]);
    assert_eq!(
        run(None, &["help", "set depth 3", "list_commands"]),
        [C, C, C]
    );
    assert_eq!(run(None, &["play f5d6", "undo", "showboard"]), [C, C, C]);
    // Garbage decides nothing.
    assert_eq!(run(None, &["", "xyzzy", "# x", "ping 1"]), [C, C, C, N]);
    // Once chosen, NBoard and GTP stay; a forced dialect never changes.
    assert_eq!(run(None, &["nboard 2", "protocol_version"]), [N, N]);
    assert_eq!(run(None, &["protocol_version", "nboard 2"]), [G, G]);
    assert_eq!(run(Some(N), &["protocol_version", "help"]), [N, N]);
    assert_eq!(run(Some(G), &["nboard 2"]), [G]);
    assert_eq!(run(Some(C), &["nboard 2", "ping 1"]), [C, C]);
    // Each switch is reported once.
    let mut s = Selector::new(None);
    assert_eq!(s.observe_switch("ping 1"), (N, true));
    assert_eq!(s.observe_switch("ping 2"), (N, false));
}

#[test]
fn interrupts_depend_on_the_dialect() {
    use Dialect::{Console, Gtp, NBoard};
    for (d, line, want) in [
        (NBoard, "ping 4", true),
        (NBoard, "  PING 4", true),
        (NBoard, "stop", true),
        (NBoard, "quit", true),
        (NBoard, "go", false),
        (NBoard, "set game x", false),
        (Gtp, "quit", true),
        (Gtp, "7 quit", true),
        (Gtp, "genmove b", false),
        (Gtp, "ping 1", false),
        (Console, "stop", true),
        (Console, "quit", false),
        (Console, "ping 1", false),
    ] {
        assert_eq!(is_interrupt(d, line), want, "{d} {line}");
    }
}

#[test]
fn lines_are_read_whole_or_cut() {
    let long = "y".repeat(MAX_LINE + 10);
    let text = format!("a\r\nb\n{long}\nc");
    let mut r = text.as_bytes();
    let mut buf = Vec::new();
    assert_eq!(read_line(&mut r, &mut buf).unwrap(), Some(false));
    assert_eq!(buf, b"a\r");
    assert_eq!(read_line(&mut r, &mut buf).unwrap(), Some(false));
    assert_eq!(buf, b"b");
    assert_eq!(read_line(&mut r, &mut buf).unwrap(), Some(true));
    assert_eq!(buf.len(), MAX_LINE);
    assert_eq!(read_line(&mut r, &mut buf).unwrap(), Some(false));
    assert_eq!(buf, b"c");
    assert_eq!(read_line(&mut r, &mut buf).unwrap(), None);
}

#[test]
fn the_reader_raises_stop_before_forwarding_and_tags_lines() {
    let (tx, rx) = crossbeam_channel::unbounded();
    let stop = AtomicBool::new(false);
    read_input(
        &b"nboard 2\r\nping 3\n\xff\n"[..],
        &tx,
        &stop,
        Selector::new(None),
        false,
    );
    assert!(stop.load(Ordering::SeqCst));
    let got: Vec<Input> = rx.try_iter().collect();
    let line = |text: &str, interrupt| {
        Input::Line(Line {
            text: text.to_string(),
            dialect: Dialect::NBoard,
            interrupt,
            refused: None,
        })
    };
    assert_eq!(
        got,
        [
            line("nboard 2", false),
            line("ping 3", true),
            line("\u{fffd}", false),
            Input::Eof(Dialect::NBoard)
        ]
    );
    // In a console fed by a pipe, neither `quit` nor the end of input stops a
    // search; at a terminal both do.
    let stop = AtomicBool::new(false);
    read_input(&b"go\nquit\n"[..], &tx, &stop, Selector::new(None), false);
    assert!(!stop.load(Ordering::SeqCst));
    let piped: Vec<Input> = rx.try_iter().collect();
    assert!(matches!(&piped[1], Input::Line(l) if !l.interrupt));
    let stop = AtomicBool::new(false);
    read_input(&b"go\n"[..], &tx, &stop, Selector::new(None), true);
    assert!(stop.load(Ordering::SeqCst));
    let _ = rx.try_iter().count();
    read_input(&b"go\nquit\n"[..], &tx, &stop, Selector::new(None), true);
    let tty: Vec<Input> = rx.try_iter().collect();
    assert!(matches!(&tty[1], Input::Line(l) if l.interrupt && l.text == "quit"));
}

#[test]
fn output_escapes_control_characters() {
    let mut s = String::new();
    sanitize_into("a\rb\u{0}c\td", &mut s);
    assert_eq!(s, "a\\rb\\u{0}c\td");
}

#[test]
fn gtp_target_exchange_in_process() {
    let out = run_script(
        settings("1"),
        None,
        "1 boardsize 8\n2 clear_board\n3 play b f5\n4 genmove w\nreg_genmove b\nplay w d3\n",
    );
    // The moves are the evaluation's choice; the exchange around them is fixed,
    // and both must be legal where they were asked for.
    let lines: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(lines[..3], ["=1", "=2", "=3"], "{out}");
    let white = lines[3].strip_prefix("=4 ").expect(&out);
    let black = lines[4].strip_prefix("= ").expect(&out);
    let game = format!("f5{white}{black}");
    assert!(
        crate::format::transcript::parse_transcript(crate::Position::START, &game).is_ok(),
        "{out}"
    );
    assert_eq!(lines[5..], ["? illegal move", ""], "{out}");
}

#[test]
fn console_script_in_process() {
    let out = run_script(
        settings("2"),
        None,
        "f5 d6\nundo\nredo\nlevel\nbogus\nquit\nlevel\n",
    );
    assert_eq!(
        out,
        "level 2\nerror: unknown command 'bogus' (type help for the list)\n"
    );
}

#[test]
fn nboard_script_in_process() {
    let out = run_script(
        settings("2"),
        None,
        "ping 1\nset depth 1\nset game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\nhint 1\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "pong 1",
            "set myname Mollett-1",
            "status Mollett is thinking"
        ]
    );
    assert!(lines[3].starts_with("search "), "{out}");
    // The count is the search's (it varies with the weights), but a depth-1 hint
    // visits each of White's three replies to f5 at least once.
    let nodes: u64 = lines[4]
        .strip_prefix("nodestats ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect(&out);
    assert!(nodes >= 3, "{out}");
    // As Edax: thinking before the search, waiting after its answer.
    assert_eq!(lines[5..], ["status Mollett is waiting"], "{out}");
}

#[test]
fn nboard_threads_are_set_at_run_time() {
    let out = run_script(
        settings("2"),
        None,
        "nboard 2\nset threads 2\nset threads 0\nset depth 4\ngo\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "set myname Mollett-2",
            "status set threads: '0' is not a thread count (1..1024)",
            "set myname Mollett-4",
        ],
        "{out}"
    );
    assert_eq!(lines[3], "status Mollett is thinking", "{out}");
    // One nodestats, the final one, then the move.
    assert!(
        lines[4].starts_with("nodestats ") && lines.len() == 7,
        "{out}"
    );
    assert!(lines[5].starts_with("=== "), "{out}");
    assert_eq!(lines[6], "status Mollett is waiting", "{out}");
}

/// Valid commands of every dialect in random orders, mutated, truncated and
/// mixed with noise: no panic (a caught one would answer "internal error"),
/// and every run ends.
#[test]
fn random_lines_never_break_the_loop() {
    let words = [
        "nboard 2",
        "set depth 1",
        "set depth -5",
        "set depth 999999",
        "set game (;GM[Othello]",
        "set contempt 100",
        "move F5",
        "move PA/0.00",
        "move A1",
        "ping 3",
        "go",
        "hint 1",
        "hint 0",
        "hint 64",
        "learn",
        "analyze",
        "clear",
        "stop",
        "protocol_version",
        "boardsize 8",
        "clear_board",
        "play b f5",
        "play w pass",
        "genmove w",
        "reg_genmove b",
        "undo",
        "undo",
        "showboard",
        "final_score",
        "time_left b 0 0",
        "time_settings 1 0 0",
        "gogui-rules_legal_moves",
        "mollett-hash 1",
        "new",
        "setboard x",
        "f5d6c3",
        "redo",
        "eval",
        "level 1",
        "threads 1",
        "hash 1",
        "help",
        "",
        "#",
        "\u{0}\u{1b}[A",
        "\u{fffd}\u{fffd}",
        "9999999999999999999999 name",
    ];
    let mut rng = crate::rng::Rng::new(7);
    for round in 0..24 {
        let mut script = String::new();
        for _ in 0..40 {
            let w = words[rng.below(words.len() as u64) as usize];
            let cut = rng.below(w.len() as u64 + 1) as usize;
            let line = match rng.below(4) {
                0 => w.get(..cut).unwrap_or(w).to_string(),
                1 => w.to_uppercase(),
                _ => w.to_string(),
            };
            script.push_str(&line);
            script.push('\n');
        }
        let forced = [
            None,
            Some(Dialect::Console),
            Some(Dialect::NBoard),
            Some(Dialect::Gtp),
        ][round % 4];
        // Level 1 keeps every search short (the console's exact `solve` is
        // left out: from the middle of a game it would not end).
        let out = run_script(settings("1"), forced, &script);
        assert!(!out.contains("internal error"), "{script}\n---\n{out}");
    }
}

/// Input queued during a search is bounded in bytes: the lines past
/// [`MAX_QUEUED`] are answered in their turn with the documented error, ids
/// kept; the queued `quit` still stops the search.
#[test]
fn queued_input_is_bounded_in_bytes() {
    let filler = "x".repeat(500_000);
    let mut script = String::from("1 mollett-level 24\n2 genmove b\n");
    for id in 10..20 {
        script.push_str(&format!("{id} known_command {filler}\n"));
    }
    script.push_str("30 quit\n");
    let out = run_script(settings("1"), Some(Dialect::Gtp), &script);
    let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers.len(), 13, "{out}");
    assert!(answers[1].starts_with("=2 "), "{}", answers[1]);
    // 8 lines of 500 kB fit in 4 MiB; the ninth does not.
    for (k, a) in answers[2..12].iter().enumerate() {
        let id = 10 + k;
        if k < 8 {
            assert_eq!(*a, format!("={id} false"));
        } else {
            assert_eq!(
                *a,
                format!("?{id} busy: over 4 MiB of input queued during a search, line ignored")
            );
        }
    }
    assert_eq!(answers[12], "=30");
}

/// A writer the test can read back.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What a handler's `error` writes for a failed `line` (`None`: an event).
fn error_reply(handler: &mut dyn Handler, line: Option<&str>) -> String {
    let mut engine = Engine::new(settings("1")).unwrap();
    let buf = Captured::default();
    let mut out = Output::new(Box::new(buf.clone()));
    let mut cx = Ctx {
        engine: &mut engine,
        out: &mut out,
        terminal: false,
        progress: false,
        stop_queued: false,
    };
    handler.error(line, "internal error: boom", &mut cx);
    String::from_utf8(buf.0.lock().unwrap().clone()).unwrap()
}

/// An internal error still answers in the dialect's framing: GTP with the
/// command's id, NBoard's `go` with a move (the first legal one).
#[test]
fn internal_errors_keep_the_framing() {
    let mut g = gtp::Gtp::default();
    assert_eq!(
        error_reply(&mut g, Some("17 genmove b")),
        "?17 internal error: boom\n\n"
    );
    assert_eq!(
        error_reply(&mut g, Some("genmove b")),
        "? internal error: boom\n\n"
    );
    // An event with no genmove waiting has nobody to answer.
    assert_eq!(error_reply(&mut g, None), "");
    let mut nb = nboard::NBoard::default();
    let reply = error_reply(&mut nb, Some("go"));
    let lines: Vec<&str> = reply.lines().collect();
    assert_eq!(lines[0], "status internal error: boom");
    assert!(lines[1].starts_with("=== D3//"), "{reply}");
    assert_eq!(
        error_reply(&mut nb, Some("hint 3")),
        "status internal error: boom\n"
    );
}
