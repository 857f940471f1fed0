//! `mollett solve` end to end: text and JSON reports, the check against the
//! file's scores and the exit status, and `--jobs` (positions solved in
//! parallel, reported in file order with the same results).

mod common;
use common::Scratch;
use serde_json::Value;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mollett");

fn ffo_1_to_19() -> String {
    common::ffo_path("fforum-1-19.obf")
        .to_string_lossy()
        .into_owned()
}

/// Runs `mollett solve ARGS`: exit code and stdout.
fn solve(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(BIN)
        .arg("solve")
        .args(args)
        .output()
        .expect("run mollett");
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// The JSON lines of a `--json` run: per-position objects, then the summary.
fn json_lines(stdout: &str) -> (Vec<Value>, Value) {
    let mut lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("every stdout line is JSON"))
        .collect();
    let summary = lines.pop().expect("a summary line");
    (lines, summary)
}

#[test]
fn json_reports_every_position_and_agrees_with_the_file() {
    let (code, out) = solve(&[&ffo_1_to_19(), "--json"]);
    assert_eq!(code, Some(0), "{out}");
    let (positions, summary) = json_lines(&out);
    assert_eq!(positions.len(), 19);
    for (i, p) in positions.iter().enumerate() {
        assert_eq!(p["index"], i + 1);
        assert_eq!(p["score"], p["expected"], "{p}");
        for key in ["empties", "move", "nodes", "seconds", "pv"] {
            assert!(!p[key].is_null(), "{key} in {p}");
        }
    }
    assert_eq!(summary["positions"], 19);
    assert_eq!(summary["disagreements"], 0);
    assert!(summary["nodes_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn jobs_solve_in_parallel_with_the_same_results_in_file_order() {
    let file = ffo_1_to_19();
    let (code, one) = solve(&[&file, "--json"]);
    assert_eq!(code, Some(0));
    let (code, three) = solve(&[&file, "--json", "--jobs", "3", "--hash", "16"]);
    assert_eq!(code, Some(0), "{three}");
    let ((a, _), (b, summary)) = (json_lines(&one), json_lines(&three));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        for key in ["index", "empties", "score", "expected"] {
            assert_eq!(x[key], y[key], "{key}: {x} / {y}");
        }
    }
    assert_eq!(summary["positions"], 19);
    assert_eq!(summary["disagreements"], 0);
    // More jobs than positions is fine too.
    let (code, _) = solve(&[&file, "--jobs", "64", "--hash", "1"]);
    assert_eq!(code, Some(0));
}

#[test]
fn a_wrong_score_in_the_file_is_marked_and_fails_the_run() {
    let dir = Scratch::new("solve-cli");
    let text = std::fs::read_to_string(ffo_1_to_19()).unwrap();
    // FFO #1: G8 wins by 18; claim 16 instead.
    let first = text.lines().find(|l| l.contains("G8:+18")).expect("FFO #1");
    let wrong = dir.join("wrong.obf");
    std::fs::write(&wrong, first.replace("G8:+18", "G8:+16")).unwrap();
    let (code, out) = solve(&[wrong.to_str().unwrap(), "--jobs", "2"]);
    assert_eq!(code, Some(1), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "header, one position, totals: {out}");
    assert!(lines[1].contains("DISAGREES"), "{out}");
    assert!(lines[2].ends_with("disagreements 1"), "{out}");
}

/// More jobs than CPUs (this machine has two) with the default 64 MB tables,
/// whose clearing runs on rayon's pool: every position still gets a table of
/// its own (this once panicked with `one table per job`); more jobs than
/// positions make no more tables than positions.
#[test]
fn any_number_of_jobs_works() {
    let file = ffo_1_to_19();
    for jobs in ["8", "1024"] {
        let hash = if jobs == "8" { "64" } else { "1" };
        let (code, out) = solve(&[&file, "--json", "--jobs", jobs, "--hash", hash]);
        assert_eq!(code, Some(0), "--jobs {jobs}: {out}");
        let (positions, summary) = json_lines(&out);
        assert_eq!(positions.len(), 19);
        assert_eq!(summary["disagreements"], 0);
    }
}

/// The input is streamed line by line with a bound on the line's length, so
/// an endless input fails at once instead of filling memory.
#[test]
fn endless_input_is_refused_by_its_line_length() {
    let out = Command::new(BIN)
        .args(["solve", "/dev/zero"])
        .output()
        .expect("run mollett");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read /dev/zero: line 1 is longer than 64 KiB"),
        "{err}"
    );
}

/// A forced pass is solved like any position: its move is `PA`, its line
/// starts with the pass, and its score is exactly the negated score of the same
/// discs with the opponent to move (win/loss/draw: the negated sign), under
/// Othello's rules and Anti-Reversi's.
#[test]
fn a_forced_pass_is_solved_exactly() {
    let dir = Scratch::new("solve-pass");
    // Black (X) has no move here, White has several; 16 empties.
    let board = "-XXXXXXX-XXXXXXO-XXXXXOO-XXXXXXO-X-XXXXO-X-XXXOO--X--OOO----OOOO";
    let file = dir.join("pass.obf");
    std::fs::write(&file, format!("{board} X\n{board} O\n")).unwrap();
    let file = file.to_str().unwrap();
    for variant in ["othello", "anti"] {
        let exact = |wld: bool| {
            let mut args = vec![file, "--json", "--variant", variant];
            if wld {
                args.push("--wld");
            }
            let (code, out) = solve(&args);
            assert_eq!(code, Some(0), "{out}");
            json_lines(&out).0
        };
        let [passed, replied] = <[Value; 2]>::try_from(exact(false)).unwrap();
        assert_eq!(passed["move"], "pass", "{variant}: {passed}");
        assert_eq!(passed["pv"][0], "pass", "{variant}: {passed}");
        assert_ne!(replied["move"], "pass", "{variant}: {replied}");
        let score = passed["score"].as_i64().unwrap();
        assert_eq!(score, -replied["score"].as_i64().unwrap(), "{variant}");
        let [wld, _] = <[Value; 2]>::try_from(exact(true)).unwrap();
        assert_eq!(wld["move"], "pass", "{variant}: {wld}");
        assert_eq!(wld["score"].as_i64().unwrap(), score.signum(), "{variant}");
    }
}

/// `--all-moves` scores every legal move exactly, best first, as the FFO file
/// does: each line reads back as OBF with the file's scores for the same moves,
/// and the totals come as a `%` comment that OBF readers skip.
#[test]
fn all_moves_writes_obf_lines_with_every_move_scored() {
    let (code, out) = solve(&[&ffo_1_to_19(), "--all-moves"]);
    assert_eq!(code, Some(0), "{out}");
    let mut lines: Vec<&str> = out.lines().collect();
    let totals = lines.pop().unwrap();
    assert!(totals.starts_with("% positions 19,"), "{totals}");
    assert!(totals.ends_with("disagreements 0"), "{totals}");
    let want = common::ffo_entries("fforum-1-19.obf");
    assert_eq!(lines.len(), want.len());
    for (line, want) in lines.iter().zip(&want) {
        let got: mollett::format::ObfEntry = line.parse().expect("an OBF line");
        assert_eq!(got.position, want.position);
        let mut a = got.scores.clone();
        let mut b = want.scores.clone();
        a.sort_by_key(|&(m, _)| m.to_string());
        b.sort_by_key(|&(m, _)| m.to_string());
        assert_eq!(a, b, "{line}");
        // Best first.
        assert!(got.scores.windows(2).all(|w| w[0].1 >= w[1].1), "{line}");
    }
    // A wrong listed score is a disagreement (exit status 1).
    let dir = Scratch::new("solve-all-moves");
    let file = dir.join("wrong.obf");
    let first = std::fs::read_to_string(common::ffo_path("fforum-1-19.obf")).unwrap();
    let line = first.lines().find(|l| l.contains("G8:+18;")).unwrap();
    std::fs::write(&file, line.replace("G8:+18;", "G8:+16;")).unwrap();
    let (code, out) = solve(&[file.to_str().unwrap(), "--all-moves"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("G8:+18;"), "{out}");
}

#[test]
fn a_dash_reads_the_positions_from_standard_input() {
    let text = std::fs::read_to_string(ffo_1_to_19()).unwrap();
    let two: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    let (out, err) = common::run_script(&["solve", "-", "--json", "--verbose"], &two);
    // --verbose: each completed depth on stderr, named by its position.
    assert!(
        err.lines()
            .any(|l| l.starts_with("position 1: depth exact score +18 nodes ")),
        "{err}"
    );
    let (reports, summary) = json_lines(&out);
    assert_eq!(reports.len(), 2);
    assert_eq!(summary["disagreements"], 0);
    assert_eq!(reports[0]["score"], 18);
}

#[test]
fn one_position_may_be_given_instead_of_a_file() {
    let line = std::fs::read_to_string(ffo_1_to_19()).unwrap();
    let line = line.lines().nth(2).unwrap().to_string();
    let board = line.split(';').next().unwrap().trim().to_string();
    assert!(board.starts_with('-'), "a leading '-' is still a position");
    // The board alone: solved, nothing to compare with.
    let (code, out) = solve(&["--json", &board]);
    assert_eq!(code, Some(0), "{out}");
    let (reports, summary) = json_lines(&out);
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0]["score"], 2, "{out}");
    assert_eq!(summary["positions"], 1);
    // The OBF line with its scores: compared.
    let (code, out) = solve(&[&line]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(" +2   +2 "), "{out}");
    // Moves from the start to 12 empties: the same as its board string.
    let mut pos = mollett::rules::Position::START;
    let mut moves = String::new();
    while pos.board.empties() > 12 {
        let legal = pos.legal_moves();
        let mv = if legal.is_empty() {
            mollett::board::Move::Pass
        } else {
            legal[legal.len() / 2]
        };
        moves += &mv.to_string();
        pos = pos.play(mv).unwrap();
    }
    let (code, by_moves) = solve(&["--json", &moves]);
    assert_eq!(code, Some(0), "{by_moves}");
    let (code, by_board) = solve(&["--json", &format!("{pos}")]);
    assert_eq!(code, Some(0), "{by_board}");
    let score = |out: &str| json_lines(out).0[0]["score"].clone();
    assert_eq!(score(&by_moves), score(&by_board));
    // Neither a file nor a position: one error naming both readings.
    let (code, out) = solve(&["f5d6x9"]);
    assert_eq!(code, Some(2), "{out}");
}
