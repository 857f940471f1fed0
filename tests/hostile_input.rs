//! Hostile input through the whole loop, in-process ([`run_bytes`]): every
//! rejected command of each dialect gets exactly the documented error form
//! (PROTOCOL.md: NBoard one `status` line, GTP one `?` block, the console one
//! `error:` line) and leaves the game and the settings as they were; random
//! and mutated scripts (valid commands in random orders, huge numbers, NUL
//! bytes, invalid UTF-8, 1 MB lines) never panic, never hang, and keep each
//! dialect's framing.

use mollett::engine::Settings;
use mollett::protocol::{Dialect, ScriptOptions, ScriptRun, run_bytes};
use mollett::rng::Rng;
use std::sync::mpsc::channel;
use std::time::Duration;

/// A script must finish within this, or the test reports a hang.
const HANG: Duration = Duration::from_secs(60);

fn options(forced: Option<Dialect>) -> ScriptOptions {
    ScriptOptions {
        settings: Settings {
            level: "1".parse().unwrap(),
            threads: 1,
            hash_mb: 1,
            ..Settings::default()
        },
        forced,
        // Cuts any long job (a level-60 solve) to a few milliseconds.
        stop_every: Some(Duration::from_millis(20)),
        // The embedded book, so that book moves and hints meet hostile input too.
        book: Some(std::sync::Arc::new(
            mollett::book::file::parse(mollett::book::EMBEDDED).unwrap(),
        )),
    }
}

/// Runs `input` on another thread; panics if it takes longer than [`HANG`].
fn run(forced: Option<Dialect>, input: &[u8]) -> ScriptRun {
    let (tx, rx) = channel();
    let owned = input.to_vec();
    std::thread::spawn(move || {
        let _ = tx.send(run_bytes(options(forced), &owned).expect("engine"));
    });
    match rx.recv_timeout(HANG) {
        Ok(r) => r,
        Err(_) => panic!(
            "the loop hung (or panicked) on {:?}",
            String::from_utf8_lossy(&input[..input.len().min(400)])
        ),
    }
}

fn text(r: &ScriptRun) -> String {
    String::from_utf8(r.output.clone()).expect("the output is UTF-8")
}

/// A line over the 1 MB limit.
fn huge_line() -> Vec<u8> {
    let mut v = vec![b'x'; (1 << 20) + 100];
    v.push(b'\n');
    v
}

/// Lines every dialect must reject with its error form, keeping the game.
fn common_garbage() -> Vec<Vec<u8>> {
    vec![
        // (GTP drops control characters: a line of NULs alone is blank there.)
        b"\x00\x00\x00x\x00\n".to_vec(),
        b"\xff\xfe\xc0\x80 play\n".to_vec(),
        b"frobnicate 1 2 3\n".to_vec(),
        huge_line(),
    ]
}

/// Checks that each of `rejected` after `setup` adds exactly one reply in the
/// dialect's error form and leaves the game and settings unchanged.
fn check_rejections(
    dialect: Dialect,
    setup: &str,
    rejected: &[Vec<u8>],
    is_error: impl Fn(&str) -> bool,
) {
    let base = run(Some(dialect), setup.as_bytes());
    let before = text(&base);
    assert!(!base.game.is_empty(), "the setup plays moves: {before}");
    for line in rejected {
        let mut input = setup.as_bytes().to_vec();
        input.extend_from_slice(line);
        let r = run(Some(dialect), &input);
        let out = text(&r);
        let shown = String::from_utf8_lossy(&line[..line.len().min(60)]);
        let reply = out
            .strip_prefix(&before)
            .unwrap_or_else(|| panic!("{dialect} {shown:?}: the setup's answers changed: {out}"));
        assert!(is_error(reply), "{dialect} {shown:?}: reply {reply:?}");
        assert_eq!(r.game, base.game, "{dialect} {shown:?} changed the game");
        assert_eq!(
            r.settings, base.settings,
            "{dialect} {shown:?} changed the settings"
        );
    }
}

/// Exactly one line.
fn one_line(reply: &str, prefix: &str) -> bool {
    reply.starts_with(prefix) && reply.ends_with('\n') && reply.matches('\n').count() == 1
}

fn lines(v: &[&str]) -> Vec<Vec<u8>> {
    v.iter().map(|l| format!("{l}\n").into_bytes()).collect()
}

#[test]
fn nboard_rejections_are_one_status_line_and_keep_the_game() {
    let setup = "nboard 2\nset depth 1\nset game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3];)\n";
    let mut rejected = lines(&[
        "set depth -5",
        "set depth 0",
        "set depth 61",
        "set depth 999999",
        "set depth 18446744073709551616",
        "set depth",
        "hint 0",
        "hint -1",
        "hint 99999999999999999999999",
        "move A1",
        "move D4",
        "move Z9",
        "move PA",
        "move F5/x/y",
        "move",
        "set game (;GM[Othello]TY[8]BO[8 ----",
        "set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[A1];)",
        "set game (;GM[Chess];)",
        "set game",
        "set contempt 1e999",
        "set contempt lots",
        "set frobs 3",
    ]);
    rejected.extend(common_garbage());
    check_rejections(Dialect::NBoard, setup, &rejected, |r| {
        one_line(r, "status ")
    });
}

#[test]
fn gtp_rejections_are_one_failure_block_and_keep_the_game() {
    let setup = "1 boardsize 8\n2 clear_board\n3 play b f5\n4 play w d6\n5 play b c3\n";
    let mut rejected = lines(&[
        "play b a1",
        "play w f5",
        "play b d3",
        "play b zz",
        "play x f5",
        "play b",
        "play",
        "genmove",
        "genmove purple",
        "boardsize 19",
        "boardsize 99999999999999999999999",
        "komi abc",
        "time_settings -1 -1 -1",
        "time_left b x 0",
        "undo 3",
        "loadsgf /nonexistent/mollett-file",
        "set_game chess",
        "mollett-threads 0",
        "mollett-threads 1025",
        "mollett-threads 99999999999999999999999",
        "mollett-hash 0",
        "mollett-hash 18446744073709551615",
        "mollett-level 0",
        "mollett-level 999999",
        "mollett-seed x",
        "known_command",
        "77 frobnicate",
    ]);
    rejected.extend(common_garbage());
    check_rejections(Dialect::Gtp, setup, &rejected, |r| {
        r.starts_with('?') && r.ends_with("\n\n") && r.matches('\n').count() == 2
    });
}

#[test]
fn console_rejections_are_one_error_line_and_keep_the_game() {
    let setup = "f5d6c3\n";
    let mut rejected = lines(&[
        "a1",
        "f5f5",
        "play zz",
        "play a1",
        "undo 3",
        "undo -1",
        "redo",
        "hint 0",
        "hint -5",
        "hint 99999999999999999999999",
        "level -5",
        "level 0",
        "level 999999",
        "threads 0",
        "threads 1025",
        "threads 99999999999999999999999",
        "hash 0",
        "hash 18446744073709551615",
        "hash -1",
        "seed x",
        "setboard xyz",
        "setboard ---------------------------OX------XO--------------------------- Q",
        "help nope",
        "\u{1b}[A",
    ]);
    rejected.extend(common_garbage());
    check_rejections(Dialect::Console, setup, &rejected, |r| {
        one_line(r, "error: ")
    });
}

#[test]
fn undo_past_the_start_is_refused_in_gtp_and_the_console() {
    let r = run(Some(Dialect::Gtp), b"1 play b f5\n2 undo\n3 undo\n4 undo\n");
    assert_eq!(text(&r), "=1\n\n=2\n\n?3 cannot undo\n\n?4 cannot undo\n\n");
    assert!(r.game.is_empty());
    let r = run(Some(Dialect::Console), b"f5\nundo\nundo\n");
    assert_eq!(text(&r), "error: nothing to undo\n");
    assert!(r.game.is_empty());
}

/// Commands of all three dialects, valid and invalid, for the random scripts.
const WORDS: [&str; 60] = [
    "nboard 2",
    "set depth 1",
    "set depth 2",
    "set depth -5",
    "set depth 999999",
    "set depth 60",
    "set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)",
    "set game (;GM[Othello]",
    "set contempt 100",
    "move F5",
    "move D6",
    "move C3",
    "move PA",
    "move A1",
    "ping 1",
    "ping 2",
    "go",
    "go",
    "hint 1",
    "hint 0",
    "hint 3",
    "learn",
    "analyze",
    "clear",
    "stop",
    "1 protocol_version",
    "boardsize 8",
    "clear_board",
    "play b f5",
    "play w d6",
    "play w pass",
    "genmove b",
    "genmove w",
    "reg_genmove b",
    "undo",
    // A second good record: a refused one (cut, mutated) leaves NBoard no
    // position to search until a record is accepted again.
    "set game (;GM[Othello]TY[8r4]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)",
    "showboard",
    "final_score",
    "time_left b 1 0",
    "time_settings 1 0 0",
    "gogui-rules_legal_moves",
    "mollett-level 60",
    "new",
    "setboard ---------------------------OX------XO--------------------------- X",
    "f5d6c3",
    "redo",
    "eval",
    "level 60",
    "level 1",
    "solve",
    "hint 2",
    "help",
    "",
    "#",
    "\u{0}\u{1b}[A",
    "9999999999999999999999 name",
    "set depth 18446744073709551617",
    "hint 18446744073709551617",
    "threads 1",
    "quit",
];

/// A random script: words from [`WORDS`], some cut, upper-cased, with bytes
/// flipped or NULs and invalid UTF-8 spliced in, and now and then a 1 MB line.
fn random_script(rng: &mut Rng, len: usize) -> Vec<u8> {
    let mut script = Vec::new();
    for _ in 0..len {
        let w = WORDS[rng.below(WORDS.len() as u64) as usize];
        // Quit ends a script early; keep most scripts long.
        if w == "quit" && rng.below(4) != 0 {
            continue;
        }
        let mut line = w.as_bytes().to_vec();
        match rng.below(8) {
            0 => line.truncate(rng.below(line.len() as u64 + 1) as usize),
            1 => line.make_ascii_uppercase(),
            2 if !line.is_empty() => {
                let i = rng.below(line.len() as u64) as usize;
                line[i] ^= 1 << rng.below(8);
            }
            3 => {
                let i = rng.below(line.len() as u64 + 1) as usize;
                let junk: &[u8] =
                    [&b"\x00"[..], b"\xff", b"\xc3", b"\r", b"\t"][rng.below(5) as usize];
                line.splice(i..i, junk.iter().copied());
            }
            4 if rng.below(40) == 0 => line = huge_line()[..(1 << 20) + 100].to_vec(),
            _ => {}
        }
        line.retain(|&b| b != b'\n');
        script.extend_from_slice(&line);
        script.push(b'\n');
    }
    script
}

/// The input lines of a script as the loop sees them.
fn input_lines(script: &[u8]) -> Vec<String> {
    script
        .split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l).replace('\r', ""))
        .collect()
}

/// GTP framing: the output is whole blocks, each `=`/`?` then a blank line,
/// one per command line up to a quit (blank and comment lines get none).
fn check_gtp_framing(script: &[u8], out: &str) {
    let mut expected = 0;
    for l in input_lines(script) {
        if l.len() > 1 << 20 {
            expected += 1;
            continue;
        }
        let Some(req) = mollett::protocol::gtp::parse(&l) else {
            continue;
        };
        expected += 1;
        if matches!(req.command, Ok(mollett::protocol::gtp::Command::Quit)) {
            break;
        }
    }
    let blocks: Vec<&str> = out.split_terminator("\n\n").collect();
    assert!(out.is_empty() || out.ends_with("\n\n"), "{out}");
    assert_eq!(blocks.len(), expected, "{out}");
    for b in blocks {
        assert!(b.starts_with('=') || b.starts_with('?'), "block {b:?}");
    }
}

/// NBoard framing: every line is one of the replies NBoard knows, and the
/// pongs answer the pings in order.
fn check_nboard_framing(script: &[u8], out: &str) {
    const REPLIES: [&str; 9] = [
        "set myname ",
        "pong",
        "status ",
        "search ",
        "nodestats ",
        "=== ",
        "book ",
        "learned",
        "analysis ",
    ];
    for l in out.lines() {
        assert!(REPLIES.iter().any(|r| l.starts_with(r)), "line {l:?}");
    }
    let mut pings = Vec::new();
    for l in input_lines(script) {
        let mut words = l.split_whitespace();
        let first = words.next().unwrap_or("").to_ascii_lowercase();
        if l.len() <= 1 << 20 && first == "ping" {
            let rest = l
                .trim()
                .split_once(char::is_whitespace)
                .map_or("", |(_, r)| r.trim());
            pings.push(if rest.is_empty() {
                "pong".to_string()
            } else {
                format!("pong {rest}")
            });
        }
        if l.len() <= 1 << 20 && first == "quit" {
            break;
        }
    }
    let pongs: Vec<&str> = out.lines().filter(|l| l.starts_with("pong")).collect();
    assert_eq!(pongs, pings, "{out}");
}

#[test]
fn random_scripts_keep_each_dialects_framing() {
    let mut rng = Rng::new(2026);
    // Answers seen per dialect (NBoard moves and hints, GTP blocks, console moves): the
    // scripts must really search, not only be refused.
    let mut answers = [0usize; 3];
    for round in 0..36 {
        let dialect = [Dialect::NBoard, Dialect::Gtp, Dialect::Console][round % 3];
        let script = random_script(&mut rng, 40);
        let r = run(Some(dialect), &script);
        let out = text(&r);
        assert!(!out.contains("internal error"), "{out}");
        assert!(
            !out.chars()
                .any(|c| c.is_control() && c != '\n' && c != '\t'),
            "{out:?}"
        );
        match dialect {
            Dialect::Gtp => {
                check_gtp_framing(&script, &out);
                answers[1] += out.matches("\n\n").count();
            }
            Dialect::NBoard => {
                check_nboard_framing(&script, &out);
                answers[0] += out
                    .lines()
                    .filter(|l| {
                        l.starts_with("=== ") || l.starts_with("search ") || l.starts_with("book ")
                    })
                    .count();
            }
            Dialect::Console => {
                answers[2] += out.lines().filter(|l| l.starts_with("move ")).count();
            }
        }
    }
    assert!(answers.iter().all(|&n| n >= 10), "{answers:?}");
}

#[test]
fn random_scripts_with_the_dialect_chosen_by_the_input_never_break() {
    let mut rng = Rng::new(77);
    for _ in 0..24 {
        let script = random_script(&mut rng, 30);
        let r = run(None, &script);
        let out = text(&r);
        assert!(!out.contains("internal error"), "{out}");
    }
}
