//! `--eval-file` and `--regressions-file` through the binary: weights fitted here
//! and their regressions replace the embedded ones for one run, the shipped files
//! untouched; bad or mismatched files are refused at start, naming the file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_mollett");

/// Runs mollett with `args` and `stdin`: exit code, stdout, stderr.
fn run(args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("mollett-knowledge-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn repo(path: &str) -> String {
    format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// The console's static evaluation of the start position after f5.
fn eval_line(flags: &[&str]) -> String {
    let (code, out, err) = run(flags, "play f5\neval\n");
    assert_eq!(code, Some(0), "{err}");
    out.lines()
        .find(|l| l.starts_with("eval "))
        .unwrap_or_else(|| panic!("{out}"))
        .to_string()
}

#[test]
fn weights_fitted_here_evaluate_with_their_regressions() {
    let d = dir();
    let (data, w, scores, r) = (
        d.join("d.txt"),
        d.join("w.mlw"),
        d.join("s.txt"),
        d.join("r.mpc"),
    );
    let ok = |args: &[&str]| {
        let (code, _, err) = run(args, "");
        assert_eq!(code, Some(0), "{args:?}: {err}");
    };
    ok(&[
        "datagen",
        "--games",
        "40",
        "--depth",
        "1",
        "--seed",
        "3",
        "--out",
        s(&data),
    ]);
    ok(&["train", s(&data), "--iterations", "4", "--out", s(&w)]);
    // probcut searches with the weights in use: the new ones.
    let pc = [
        "--eval-file",
        s(&w),
        "probcut",
        s(&data),
        "--scores",
        s(&scores),
        "--out",
        s(&r),
        "--per-phase",
        "40",
        "--max-depth",
        "3",
    ];
    ok(&pc);
    // The scores file belongs to the weights that searched it: with the shipped
    // ones it is refused; a deeper run searches its positions again.
    let (code, _, err) = run(&pc[2..], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("searched with other weights"), "{err}");
    let r4 = d.join("r4.mpc");
    let mut deeper = pc.to_vec();
    (deeper[7], deeper[11]) = (s(&r4), "4");
    let (code, _, err) = run(&deeper, "");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("probcut: 0 positions searched before"),
        "{err}"
    );
    let shipped = eval_line(&[]);
    let new = eval_line(&["--eval-file", s(&w), "--regressions-file", s(&r)]);
    assert_ne!(shipped, new, "the run-time weights evaluate");
    // A search without regressions fitted for the weights refuses to start, and
    // says what to give.
    let (code, _, err) = run(&["--eval-file", s(&w)], "eval\n");
    assert_eq!(code, Some(2));
    assert!(err.contains("but the weights in use are"), "{err}");
    assert!(err.contains("give --regressions-file"), "{err}");
    // The regressions alone belong to no weights in use.
    let (code, _, err) = run(&["--regressions-file", s(&r), "perft", "1"], "");
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with(&format!("mollett: --regressions-file {}: ", s(&r))),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_shipped_files_given_at_run_time_change_nothing() {
    let anti = [
        "--eval-file",
        &repo("weights/anti.mlw"),
        "--regressions-file",
        &repo("weights/anti.mpc"),
    ];
    assert_eq!(eval_line(&anti), eval_line(&[]));
    let (code, out, err) = run(&[&anti[..], &["perft", "2"]].concat(), "");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("1 4 "), "{out}");
}

#[test]
fn bad_files_are_refused_naming_them() {
    for (file, want) in [
        ("/dev/zero".to_string(), "not a regular file"),
        (repo("README.md"), "not a Mollett weights file"),
        (repo("no-such.mlw"), "No such file"),
    ] {
        let (code, out, err) = run(&["--eval-file", &file, "perft", "1"], "");
        assert_eq!((code, out.as_str()), (Some(2), ""), "{file}");
        assert!(
            err.starts_with(&format!("mollett: --eval-file {file}: ")) && err.contains(want),
            "{err}"
        );
    }
    let (code, _, err) = run(
        &["--regressions-file", &repo("README.md"), "perft", "1"],
        "",
    );
    assert_eq!(code, Some(2));
    assert!(err.starts_with("mollett: --regressions-file "), "{err}");
}
