//! Drives the real `mollett` binary through pipes: write lines, read lines with
//! timeouts, close stdin and wait for the exit.

#![allow(dead_code)]

pub mod matches;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// How long any single expected line may take before a test fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    skip: fn(&str) -> bool,
}

/// Lines no test skips.
fn keep_all(_: &str) -> bool {
    false
}

impl Engine {
    /// Starts `mollett ARGS` with piped stdin and stdout (stderr inherited).
    pub fn spawn(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mollett"))
            .args(searching(args))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start mollett");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf)
                            .trim_end_matches('\n')
                            .to_string();
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            skip: keep_all,
        }
    }

    /// Like `spawn`, but stdout is closed at once (to test a broken pipe).
    pub fn spawn_with_closed_stdout(args: &[&str]) -> Engine {
        let mut child = spawn_piped(args);
        drop(child.stdout.take());
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: channel().1,
            skip: keep_all,
        }
    }

    /// Everything the process wrote to stderr (only after
    /// [`Engine::spawn_with_closed_stdout`]), once it has exited.
    pub fn stderr_text(&mut self) -> String {
        let mut s = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut s);
        }
        s
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        // A closed pipe shows up in the output checks.
        let _ = stdin.write_all(bytes).and_then(|()| stdin.flush());
    }

    /// The same engine, whose reads pass over the lines for which `skip` holds.
    pub fn skipping(mut self, skip: fn(&str) -> bool) -> Engine {
        self.skip = skip;
        self
    }

    /// The next line (not skipped), or `None` after `timeout`.
    pub fn line_within(&mut self, timeout: Duration) -> Option<String> {
        let t = Instant::now();
        loop {
            let left = timeout.saturating_sub(t.elapsed());
            let l = self.lines.recv_timeout(left).ok()?;
            if !(self.skip)(&l) {
                return Some(l);
            }
        }
    }

    /// The next line; panics after [`PATIENCE`].
    pub fn line(&mut self) -> String {
        self.line_within(PATIENCE)
            .expect("a line from the engine in time")
    }

    /// Every line up to and including the first for which `last` holds.
    pub fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.line();
            let done = last(&l);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// Expects no line at all for `quiet`.
    pub fn expect_silence(&mut self, quiet: Duration) {
        if let Some(l) = self.line_within(quiet) {
            panic!("unexpected line {l:?}");
        }
    }

    /// Closes stdin and waits (at most `limit`) for the exit; returns the
    /// status, the time it took and every line still unread.
    pub fn close(mut self, limit: Duration) -> (ExitStatus, Duration, Vec<String>) {
        let t = Instant::now();
        drop(self.stdin.take());
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                let took = t.elapsed();
                return (status, took, self.rest());
            }
            if t.elapsed() > limit {
                let _ = self.child.kill();
                panic!("the engine did not exit within {limit:?} of the end of input");
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// After the exit: every line still in the pipe, up to its end.
    fn rest(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(Duration::from_secs(2)) {
            out.push(l);
        }
        out
    }

    /// The exit status, if the process has ended (without waiting).
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().expect("wait")
    }

    /// Waits (at most `limit`) for the process to exit by itself.
    pub fn wait_exit(&mut self, limit: Duration) -> (ExitStatus, Vec<String>) {
        let t = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return (status, self.rest());
            }
            if t.elapsed() > limit {
                let _ = self.child.kill();
                panic!("the engine did not exit within {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `args`, with `--book off` added when they start the engine loop (no
/// subcommand) and name no book: the tests of searches, clocks and framing
/// need the engine to search from the start position, where the embedded book
/// would answer at once. The book's own tests name a book (`--book FILE`) or
/// `--book` the embedded one explicitly (see `tests/book.rs`).
pub fn searching<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let is_loop = args.first().is_none_or(|a| a.starts_with('-'));
    let mut out = args.to_vec();
    if is_loop && !args.iter().any(|a| a.starts_with("--book")) {
        out.extend(["--book", "off"]);
    }
    out
}

/// Starts `mollett ARGS` with stdin, stdout and stderr all piped.
fn spawn_piped(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(searching(args))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mollett")
}

/// Runs `mollett ARGS` over a whole script (stdin closed at its end) and
/// returns its stdout and stderr, once it has exited with status 0.
pub fn run_script(args: &[&str], input: &str) -> (String, String) {
    let mut child = spawn_piped(args);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("run");
    assert!(out.status.success(), "{out:?}");
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The FFO endgame test files shipped with the repository (`tests/data/ffo`).
pub fn ffo_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ffo")
}

/// The path of one FFO file, e.g. `fforum-1-19.obf`.
pub fn ffo_path(file: &str) -> std::path::PathBuf {
    ffo_dir().join(file)
}

/// The positions and scores of one FFO file, in file order.
pub fn ffo_entries(file: &str) -> Vec<mollett::format::ObfEntry> {
    let path = ffo_path(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (tests/data/ffo ships with the repository)",
            path.display()
        )
    });
    mollett::format::parse_obf(&text)
        .expect("FFO files parse")
        .into_iter()
        .map(|(_, e)| e)
        .collect()
}

/// The NBoard start position in GGF `BO` form.
pub const START_BO: &str = "8 ---------------------------O*------*O--------------------------- *";

/// A GGF record as NBoard writes it, from the start, with `moves` (e.g.
/// `B[F5]W[F6]`) and a clock.
pub fn ggf(moves: &str) -> String {
    format!(
        "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[me]PW[you]RE[?]TI[15:00]TY[8]BO[{START_BO}]{moves};)"
    )
}

/// Reads one GTP response block (up to its blank line), without the blank line.
pub fn gtp_response(e: &mut Engine) -> Vec<String> {
    let mut out = Vec::new();
    loop {
        let l = e.line();
        if l.is_empty() {
            return out;
        }
        out.push(l);
    }
}

/// A scratch folder for one test, under the system's temporary folder, named
/// after the test binary's process and `tag`; removed again when dropped, so
/// test runs leave nothing behind (even when the test fails).
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    /// A fresh, empty folder.
    pub fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("mollett-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a scratch folder");
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `mollett ARGS` run to its end: success, stdout, stderr.
pub fn mollett(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A path as the `&str` a command line takes.
pub fn s(p: &std::path::Path) -> &str {
    p.to_str().expect("test paths are UTF-8")
}

/// A whole game of the level-1 engine against itself, saved by the console
/// as GGF to `games`; then `book learn BOOK --games games --depth D --level 1`.
pub fn learn_one_game(
    games: &std::path::Path,
    book: &std::path::Path,
    depth: &str,
) -> (bool, String, String) {
    let out = run_script(
        &["--threads", "1", "--level", "1"],
        &format!("mode 2\nsave {}\nquit\n", s(games)),
    )
    .0;
    assert!(out.contains("move "), "{out}");
    mollett(&[
        "book",
        "learn",
        s(book),
        "--games",
        s(games),
        "--depth",
        depth,
        "--level",
        "1",
    ])
}

/// `book build BOOK --level 2 --depth DEPTH --deviation 2 --max-positions MAX
/// --threads THREADS`: a small book, quickly.
pub fn build_small_book(
    book: &std::path::Path,
    depth: &str,
    max: &str,
    threads: &str,
) -> (bool, String, String) {
    mollett(&[
        "book",
        "build",
        s(book),
        "--level",
        "2",
        "--depth",
        depth,
        "--deviation",
        "2",
        "--max-positions",
        max,
        "--threads",
        threads,
    ])
}
