//! `mollett pack` and `unpack` through the binary: a round's data kept small and
//! read back as it was, by `unpack` and by `train`.

use mollett::knowledge::mlw;
use mollett::rules::Variant;
use std::path::{Path, PathBuf};
use std::process::Command;

fn mollett(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("mollett-pack-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn packed_data_unpacks_and_trains_as_the_position_lines() {
    let d = dir();
    let (game, search) = (d.join("g.txt"), d.join("s.txt"));
    for (out, labels) in [(&game, "game"), (&search, "search")] {
        let (ok, err) = mollett(&[
            "datagen",
            "--games",
            "6",
            "--seed",
            "4",
            "--depth",
            "3",
            "--exact-empties",
            "10",
            "--eval",
            "mobility",
            "--threads",
            "1",
            "--labels",
            labels,
            "--out",
            s(out),
        ]);
        assert!(ok, "{err}");
    }
    let text = std::fs::read_to_string(&search).unwrap();
    assert!(text.contains(" search ") && !text.contains(" game "));
    let packed = d.join("r.mpk.gz");
    let (ok, err) = mollett(&["pack", s(&game), s(&search), "--out", s(&packed)]);
    assert!(ok && err.contains("12 games"), "{err}");
    let plain = std::fs::read(&game).unwrap().len() + text.len();
    assert!(std::fs::metadata(&packed).unwrap().len() * 10 < plain as u64);

    let back = d.join("back.txt");
    let (ok, err) = mollett(&["unpack", s(&packed), "--out", s(&back)]);
    assert!(ok, "{err}");
    let both = std::fs::read_to_string(&game).unwrap() + &text;
    assert_eq!(std::fs::read_to_string(&back).unwrap(), both);

    // `unpack | head -1`: a reader that goes away ends the output quietly
    // (the data thrice over, more than a pipe holds).
    let big = d.join("big.mpk");
    let (g, t) = (s(&game), s(&search));
    let (ok, err) = mollett(&["pack", g, t, g, t, g, t, "--out", s(&big)]);
    assert!(ok && 3 * both.len() > 1 << 17, "{err}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(["unpack", s(&big)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    assert_eq!(first, both.lines().next().unwrap().to_string() + "\n");
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && err.is_empty(),
        "{:?}: {err}",
        out.status
    );

    // The same positions in the same order fit the same weights, bit for bit.
    let (wa, wb) = (d.join("a.mlw"), d.join("b.mlw"));
    for (data, out) in [(&back, &wa), (&packed, &wb)] {
        let (ok, err) = mollett(&[
            "train",
            s(data),
            "--out",
            s(out),
            "--iterations",
            "3",
            "--ridge",
            "3",
        ]);
        assert!(ok, "{err}");
    }
    // (The files' notes name the commands, so compare the weights.)
    let weights = |p: &Path| {
        let bytes = std::fs::read(p).unwrap();
        mlw::parse_for(&bytes, Variant::Othello).unwrap().anchors
    };
    assert_eq!(weights(&wa), weights(&wb));

    // Refused: an output that exists, a name that does not say packed, a
    // position-lines file given to unpack, a broken packed line.
    let (ok, err) = mollett(&["pack", s(&game), "--out", s(&packed)]);
    assert!(!ok && err.contains("never replaced"), "{err}");
    let (ok, err) = mollett(&["pack", s(&game), "--out", s(&d.join("x.txt"))]);
    assert!(!ok && err.contains(".mpk"), "{err}");
    let (ok, err) = mollett(&["unpack", s(&game)]);
    assert!(!ok && err.contains("not a packed file"), "{err}");
    let bad = d.join("bad.mpk");
    std::fs::write(&bad, "3 - f5d6 g1,2,3\n4 - f5a1 g1,2,3\n").unwrap();
    let (ok, err) = mollett(&["unpack", s(&bad), "--out", s(&d.join("u.txt"))]);
    assert!(
        !ok && err.contains("line 2") && err.contains("illegal"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Outputs are written whole or not at all, and never over another kind of
/// file: `train --out` onto the training data, `analyze --svg` onto notes and
/// `pack` onto an existing file are refused, the files unchanged; an `unpack`
/// that fills the disk (a file size limit) leaves nothing behind.
#[test]
fn outputs_never_replace_other_files_nor_stay_half_written() {
    let d = std::env::temp_dir().join(format!("mollett-outputs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let data = d.join("d.txt");
    let (ok, err) = mollett(&["datagen", "--games", "3", "--depth", "1", "--out", s(&data)]);
    assert!(ok, "{err}");
    let before = std::fs::read(&data).unwrap();
    let (ok, err) = mollett(&["train", s(&data), "--iterations", "1", "--out", s(&data)]);
    assert!(!ok && err.contains("not replaced"), "{err}");
    assert_eq!(std::fs::read(&data).unwrap(), before);
    let notes = d.join("notes.txt");
    std::fs::write(&notes, "notes\n").unwrap();
    let game = format!("{}/examples/game.ggf", env!("CARGO_MANIFEST_DIR"));
    let (ok, err) = mollett(&["analyze", &game, "--level", "1", "--svg", s(&notes)]);
    assert!(!ok && err.contains("not replaced"), "{err}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "notes\n");
    // A weights file is replaced by a new one, whole.
    let w = d.join("w.mlw");
    for _ in 0..2 {
        let (ok, err) = mollett(&["train", s(&data), "--iterations", "1", "--out", s(&w)]);
        assert!(ok, "{err}");
    }
    let (ok, err) = mollett(&["pack", s(&data), "--out", s(&notes.with_extension("mpk"))]);
    assert!(ok, "{err}");
    let (ok, err) = mollett(&["pack", s(&data), "--out", s(&notes.with_extension("mpk"))]);
    assert!(!ok && err.contains("never replaced"), "{err}");
    // 40 KB of a file size limit: the unpacked lines do not fit.
    let big = d.join("big.txt");
    let packed = format!("{}/data/anti-r6.mpk.gz", env!("CARGO_MANIFEST_DIR"));
    let script = format!(
        "ulimit -f 40; trap '' XFSZ; exec {} unpack {packed} --out {}",
        env!("CARGO_BIN_EXE_mollett"),
        s(&big)
    );
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!big.exists());
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn jobs_is_the_one_name_for_work_side_by_side_and_threads_still_reads() {
    // datagen's --jobs (games at once) and its older name --threads make the same
    // file, which does not depend on the count; the default evaluation is the
    // learned one, as for relabel and the engine.
    let d = std::env::temp_dir().join(format!("mollett-jobs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = d.join(name);
        let mut args = vec!["datagen", "--games", "4", "--depth", "2", "--out", s(&out)];
        args.extend_from_slice(extra);
        let (ok, err) = mollett(&args);
        assert!(ok, "{err}");
        std::fs::read_to_string(&out).unwrap()
    };
    let jobs = run("jobs.txt", &["--jobs", "2"]);
    assert_eq!(run("threads.txt", &["--threads", "1"]), jobs);
    assert_eq!(
        run("learned.txt", &["--eval", "learned", "--jobs", "1"]),
        jobs
    );
    assert_ne!(run("mobility.txt", &["--eval", "mobility"]), jobs);
    let help = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(["match", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--jobs") && help.contains("alias: --concurrency"),
        "{help}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}
