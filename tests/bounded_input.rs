//! Every file and stdin read is bounded and never blocks the engine: GTP
//! `loadsgf` of a FIFO is refused at once (and `quit` still works), `loadsgf`
//! and `analyze` read only the first record of a file, and oversized inputs
//! (`analyze -`, `match --openings`) are refused with the size.

mod common;
use common::{Engine, Scratch, ggf, gtp_response};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mollett");

/// A file of two records: a good one, then one with an illegal move.
fn two_records(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("two.ggf");
    let good = ggf("B[F5]W[F6]");
    let bad = ggf("B[A1]");
    std::fs::write(&path, format!("{good}\n{bad}\n")).unwrap();
    path
}

#[test]
fn loadsgf_reads_only_the_first_record_and_refuses_a_fifo_at_once() {
    let dir = Scratch::new("bounded-loadsgf");
    let two = two_records(&dir);
    let fifo = dir.join("f.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut e = Engine::spawn(&["--protocol", "gtp"]);
    e.send(&format!("1 loadsgf {}", two.display()));
    assert_eq!(gtp_response(&mut e), ["=1"]);
    e.send("2 gogui-rules_side_to_move");
    assert_eq!(gtp_response(&mut e), ["=2 black"]);
    let t0 = Instant::now();
    e.send(&format!("3 loadsgf {}", fifo.display()));
    assert_eq!(
        gtp_response(&mut e),
        ["?3 cannot load file: not a regular file"]
    );
    assert!(t0.elapsed() < Duration::from_secs(5));
    // A regular file over 16 MiB (sparse) is refused with its size.
    let big = dir.join("big.ggf");
    std::fs::File::create(&big)
        .unwrap()
        .set_len((16 << 20) + 1)
        .unwrap();
    e.send(&format!("5 loadsgf {}", big.display()));
    assert_eq!(
        gtp_response(&mut e),
        ["?5 cannot load file: larger than 16 MiB"]
    );
    e.send("4 quit");
    assert_eq!(gtp_response(&mut e), ["=4"]);
}

/// Runs `mollett ARGS` with `input` on stdin: exit status and stderr.
fn run_with_stdin(args: &[&str], input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The reader may stop early: a broken pipe is expected then.
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn analyze_reads_the_first_record_and_bounds_stdin() {
    let dir = Scratch::new("bounded-analyze");
    let two = two_records(&dir);
    let out = Command::new(BIN)
        .args(["analyze", &two.display().to_string(), "--level", "1"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let big = vec![b' '; (64 << 20) + 1];
    let (code, err) = run_with_stdin(&["analyze", "-"], &big);
    assert_eq!(code, Some(2));
    assert!(err.contains("larger than 64 MiB"), "{err}");
}

#[test]
fn match_openings_are_bounded() {
    let out = Command::new(BIN)
        .args(["match", "--engine", "a=x", "--engine", "b=y"])
        .args(["--openings", "/dev/zero"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read /dev/zero: larger than 64 MiB"),
        "{err}"
    );
}

/// The training tools: `/dev/zero`, FIFOs and a file of NULs as inputs or as
/// outputs to continue are refused at once, naming the file, and nothing
/// existing is changed.
#[test]
fn the_training_tools_refuse_endless_and_special_files_at_once() {
    let dir = Scratch::new("bounded-training");
    let fifo = dir.join("f.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let nuls = dir.join("nuls.txt");
    std::fs::write(&nuls, vec![0u8; 3 << 20]).unwrap();
    let f = fifo.to_str().unwrap();
    let n = nuls.to_str().unwrap();
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let cases: [(&[&str], &str); 9] = [
        (
            &["train", "/dev/zero", "--out", o],
            "/dev/zero: not a regular file",
        ),
        (&["train", f, "--out", o], "f.fifo: not a regular file"),
        (
            &["probcut", "/dev/zero", "--scores", o, "--out", o],
            "/dev/zero: not a regular file",
        ),
        (
            &["relabel", "/dev/zero", "--out", o],
            "/dev/zero: not a regular file",
        ),
        (&["relabel", f, "--out", o], "f.fifo: not a regular file"),
        (
            &[
                "datagen",
                "--games",
                "1",
                "--openings",
                "/dev/zero",
                "--out",
                o,
            ],
            "/dev/zero: not a regular file",
        ),
        (
            &["datagen", "--games", "1", "--out", f],
            "f.fifo: not a regular file",
        ),
        (
            &["datagen", "--games", "1", "--out", n],
            "nuls.txt: the line at byte 0 is longer than 1 MiB",
        ),
        (
            &["unpack", "/dev/zero", "--out", o],
            "/dev/zero: not a packed file",
        ),
    ];
    for (args, want) in cases {
        let t0 = Instant::now();
        let (code, err) = run_with_stdin(args, b"");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(t0.elapsed() < Duration::from_secs(10), "{args:?}");
    }
    assert_eq!(std::fs::read(&nuls).unwrap(), vec![0u8; 3 << 20]);
    assert!(!out.exists(), "no output was made");
}

/// `datagen` continues only its own file: a second run with the same settings
/// has nothing to do and cuts nothing (even with fewer games asked), other
/// settings are refused, a torn last game is played again to the same bytes,
/// a concurrent job on the same output is refused; `relabel` never writes over
/// its input.
#[test]
fn datagen_continues_only_its_own_file_and_never_twice_at_once() {
    let dir = Scratch::new("datagen-resume");
    let out = dir.join("d.txt");
    let o = out.to_str().unwrap();
    let datagen = |games: &str, depth: &str, path: &str| {
        run_with_stdin(
            &["datagen", "--games", games, "--depth", depth, "--out", path],
            b"",
        )
    };
    assert_eq!(datagen("4", "2", o).0, Some(0));
    let whole = std::fs::read(&out).unwrap();
    for games in ["4", "2"] {
        let (code, err) = datagen(games, "2", o);
        assert_eq!(code, Some(0), "{err}");
        assert!(err.contains("nothing to do"), "{err}");
        assert_eq!(std::fs::read(&out).unwrap(), whole);
    }
    let (code, err) = datagen("6", "3", o);
    assert_eq!(code, Some(2));
    assert!(err.contains("made with other settings"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), whole);
    // Torn inside its last game: that game is played again, to the same bytes.
    let torn = dir.join("torn.txt");
    std::fs::write(&torn, &whole[..whole.len() - 30]).unwrap();
    let (code, err) = datagen("4", "2", torn.to_str().unwrap());
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("1 game played"), "{err}");
    assert_eq!(std::fs::read(&torn).unwrap(), whole);
    // Two jobs on one output: the second is refused while the first runs.
    let busy = dir.join("busy.txt");
    let b = busy.to_str().unwrap();
    let mut first = Command::new(BIN)
        .args(["datagen", "--games", "400", "--depth", "4", "--out", b])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !busy.exists() && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(100));
    let (code, err) = datagen("400", "4", b);
    first.kill().unwrap();
    first.wait().unwrap();
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("another job is writing it"), "{err}");
    let (code, err) = run_with_stdin(&["relabel", o, "--depth", "1", "--out", o], b"");
    assert_eq!(code, Some(2));
    assert!(err.contains("the output is the input"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), whole);
    // relabel, likewise: done once, nothing to do; other settings refused.
    let labels = dir.join("labels.txt");
    let relabel = |depth: &str| {
        run_with_stdin(
            &[
                "relabel",
                o,
                "--depth",
                depth,
                "--out",
                labels.to_str().unwrap(),
            ],
            b"",
        )
    };
    assert_eq!(relabel("2").0, Some(0));
    let first = std::fs::read(&labels).unwrap();
    let (code, err) = relabel("2");
    assert!(code == Some(0) && err.contains("nothing to do"), "{err}");
    let (code, err) = relabel("3");
    assert!(
        code == Some(2) && err.contains("made with other settings"),
        "{err}"
    );
    assert_eq!(std::fs::read(&labels).unwrap(), first);
}
