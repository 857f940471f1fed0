//! `mollett accuracy` end to end: exact solves score no error, the JSON
//! summary is the mean of the per-position lines, and a file that does not
//! score every legal move is refused with the line named.

mod common;
use common::Scratch;
use serde_json::Value;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mollett");

/// Runs `mollett accuracy ARGS`: exit code, stdout, stderr.
fn accuracy(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(BIN)
        .arg("accuracy")
        .args(args)
        .output()
        .expect("run mollett");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn ffo(file: &str) -> String {
    common::ffo_path(file).to_string_lossy().into_owned()
}

#[test]
fn exact_solves_make_no_error() {
    // Level 60 solves every position exactly: its scores are the file's.
    let (code, out, err) = accuracy(&[&ffo("fforum-1-19.obf"), "--level", "60", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let all: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(all["what"], "all");
    assert_eq!(all["positions"], 19);
    assert_eq!(all["mean_abs_error"], 0.0);
    assert_eq!(all["best_move_percent"], 100.0);
    assert_eq!(all["mean_loss"], 0.0);
}

#[test]
fn the_summary_is_the_mean_of_the_positions() {
    let (code, out, err) = accuracy(&[&ffo("fforum-20-39.obf"), "--level", "4", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let positions: Vec<&Value> = lines.iter().filter(|v| v.get("line").is_some()).collect();
    assert_eq!(positions.len(), 20);
    let all = lines.last().unwrap();
    let mean = |f: &dyn Fn(&Value) -> f64| positions.iter().map(|v| f(v)).sum::<f64>() / 20.0;
    let error = mean(&|v| (v["score"].as_f64().unwrap() - v["exact"].as_f64().unwrap()).abs());
    let loss = mean(&|v| v["exact"].as_f64().unwrap() - v["chosen_exact"].as_f64().unwrap());
    let best = 5.0
        * positions
            .iter()
            .filter(|v| v["exact"] == v["chosen_exact"])
            .count() as f64;
    assert!((all["mean_abs_error"].as_f64().unwrap() - error).abs() < 1e-9);
    assert!((all["mean_loss"].as_f64().unwrap() - loss).abs() < 1e-9);
    assert!((all["best_move_percent"].as_f64().unwrap() - best).abs() < 1e-9);
    // Each band's positions add up to the whole.
    let bands: u64 = lines
        .iter()
        .filter(|v| v["what"].as_str().is_some_and(|w| w.starts_with("empties")))
        .map(|v| v["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(bands, 20);
    // The text report has the same rows.
    let (code, text, _) = accuracy(&[&ffo("fforum-20-39.obf"), "--level", "4"]);
    assert_eq!(code, Some(0));
    assert!(text.lines().last().unwrap().starts_with("all "), "{text}");
}

#[test]
fn a_line_without_every_move_scored_is_refused_by_number() {
    let dir = Scratch::new("accuracy");
    let file = dir.join("partial.obf");
    let first = std::fs::read_to_string(common::ffo_path("fforum-20-39.obf")).unwrap();
    let line = first.lines().next().unwrap();
    // Keep the best move's score only.
    let parts: Vec<&str> = line.split(';').collect();
    let cut = format!("{};{};", parts[0], parts[1]);
    std::fs::write(&file, format!("% a comment\n{line}\n{cut}\n")).unwrap();
    let (code, _, err) = accuracy(&[file.to_str().unwrap(), "--level", "2"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("line 3") && err.contains("has no exact score"),
        "{err}"
    );
    assert!(err.contains("partial.obf"), "{err}");
}

/// The committed test sets (`benches/data/accuracy-*.obf`, made by
/// `scripts/make-test-set.sh`): every line scores every legal move, best first,
/// at the file's number of empties; exact solves of the first positions agree.
#[test]
fn the_committed_test_sets_score_every_legal_move() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data");
    for (name, empties, count) in [("accuracy-20.obf", 20, 100), ("accuracy-24.obf", 24, 40)] {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).expect("the test set is committed");
        let entries = mollett::format::parse_obf(&text).expect("the test set parses");
        assert_eq!(entries.len(), count, "{name}");
        for (_, e) in &entries {
            assert_eq!(e.position.board.empties(), empties, "{name}");
            let legal = e.position.legal_moves();
            assert_eq!(e.scores.len(), legal.len(), "{name}: {e}");
            assert!(
                legal.iter().all(|m| e.scores.iter().any(|(s, _)| s == m)),
                "{e}"
            );
            assert!(e.scores.windows(2).all(|w| w[0].1 >= w[1].1), "{name}: {e}");
        }
    }
    // The first five positions of the 20-empty set, solved again.
    let scratch = Scratch::new("accuracy-sets");
    let five = scratch.join("five.obf");
    let text = std::fs::read_to_string(dir.join("accuracy-20.obf")).unwrap();
    let head: Vec<&str> = text.lines().take(5).collect();
    std::fs::write(&five, head.join("\n")).unwrap();
    let (code, out, err) = accuracy(&[five.to_str().unwrap(), "--level", "60", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let all: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(all["mean_abs_error"], 0.0);
    assert_eq!(all["best_move_percent"], 100.0);
}
