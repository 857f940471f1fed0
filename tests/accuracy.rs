//! `mollett accuracy` end to end: exact solves score no error, the JSON
//! summary is the mean of the per-position lines, and a file that does not
//! score every legal move is refused with the line named. With `--games`
//! (odd/even consistency, issue 41): the report counts every pair, pairs
//! solved exactly along best moves sum to 0, and a bad games file is refused.

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

/// The committed file `benches/data/NAME`, whole.
fn committed(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/data")
        .join(name);
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name} is committed: {e}"))
}

/// The committed test sets (`benches/data/accuracy-*.obf` and Anti-Reversi's
/// `anti-accuracy-*.obf`, made by `scripts/make-test-set.sh`): every line
/// scores every legal move, best first, at the file's number of empties; exact
/// solves of the first positions agree.
#[test]
fn the_committed_test_sets_score_every_legal_move() {
    for (name, empties, count) in [
        ("accuracy-20.obf", 20, 100),
        ("accuracy-24.obf", 24, 40),
        ("accuracy-25.obf", 25, 30),
        ("accuracy-28.obf", 28, 30),
        ("anti-accuracy-20.obf", 20, 30),
        ("anti-accuracy-21.obf", 21, 30),
        ("anti-accuracy-24.obf", 24, 10),
    ] {
        let text = committed(name);
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
    // The first positions of the 20-empty sets, solved again under their rules.
    let scratch = Scratch::new("accuracy-sets");
    solve_the_first(&scratch, "accuracy-20.obf", 3, &[]);
    solve_the_first(&scratch, "anti-accuracy-20.obf", 2, &["--variant", "anti"]);
}

/// Solves the first `count` positions of the committed test set `name` exactly
/// (level 60, with `rules` such as `--variant anti`) and checks that its scores
/// and moves agree with the file's.
fn solve_the_first(scratch: &Scratch, name: &str, count: usize, rules: &[&str]) {
    let text = committed(name);
    let head: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('%'))
        .take(count)
        .collect();
    let file = scratch.join(format!("first-{name}"));
    std::fs::write(&file, head.join("\n")).unwrap();
    let mut args = vec![file.to_str().unwrap()];
    args.extend_from_slice(rules);
    args.extend_from_slice(&["--level", "60", "--json"]);
    let (code, out, err) = accuracy(&args);
    assert_eq!(code, Some(0), "{name}: {err}");
    let all: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(all["positions"], count, "{name}");
    assert_eq!(all["mean_abs_error"], 0.0, "{name}");
    assert_eq!(all["best_move_percent"], 100.0, "{name}");
}

/// `examples/game.ggf`, a GGF record on one line.
fn example_game() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/game.ggf");
    std::fs::read_to_string(path).unwrap().trim().to_string()
}

/// The JSON lines of a `--games` run, split into pairs, rows and the totals.
fn consistency_json(args: &[&str]) -> (Vec<Value>, Vec<Value>, Value) {
    let (code, out, err) = accuracy(args);
    assert_eq!(code, Some(0), "{err}");
    let mut lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let totals = lines.pop().unwrap();
    assert_eq!(totals["what"], "games");
    let (pairs, rows) = lines.into_iter().partition(|v| v.get("sum").is_some());
    (pairs, rows, totals)
}

#[test]
fn the_consistency_report_counts_every_pair() {
    let dir = Scratch::new("consistency");
    let file = dir.join("games.txt");
    // The example game (60 moves, one ending it) and a transcript of 10 moves.
    let games = format!("% two games\n{}\n\nf5d6c3d3c4f4f6f3e6e7\n", example_game());
    std::fs::write(&file, games).unwrap();
    let f = file.to_str().unwrap();
    let args = ["--games", f, "--level", "2", "--skip-plies", "2", "--json"];
    let (pairs, rows, totals) = consistency_json(&args);
    let row = |what: &str| rows.iter().find(|v| v["what"] == what);
    let all = row("all").unwrap();
    let exact = row("exact").map_or(0, |v| v["pairs"].as_u64().unwrap());
    assert_eq!(pairs.len() as u64, all["pairs"].as_u64().unwrap() + exact);
    let bands: u64 = rows
        .iter()
        .filter(|v| v["what"].as_str().unwrap().starts_with("empties"))
        .map(|v| v["pairs"].as_u64().unwrap())
        .sum();
    assert_eq!(bands, all["pairs"].as_u64().unwrap());
    // Every move is a pair or left out, and each game's first two are left out.
    let skipped = &totals["skipped"];
    let left_out: u64 = ["opening", "pass", "end", "mixed"]
        .iter()
        .map(|k| skipped[k].as_u64().unwrap())
        .sum();
    assert_eq!(pairs.len() as u64 + left_out, 70);
    assert_eq!(skipped["opening"], 4);
    assert_eq!(skipped["end"], 1);
    assert_eq!(totals["games"], 2);
    // A sum is the position's score plus the child's, and a child's search is
    // the next position's.
    for p in &pairs {
        let (s, c) = (
            p["score"].as_f64().unwrap(),
            p["child_score"].as_f64().unwrap(),
        );
        assert!((p["sum"].as_f64().unwrap() - (s + c)).abs() < 1e-9, "{p}");
    }
    for w in pairs.windows(2) {
        if w[0]["line"] == w[1]["line"] && w[1]["ply"] == w[0]["ply"].as_u64().unwrap() + 1 {
            assert_eq!(w[0]["child_score"], w[1]["score"]);
        }
    }
    let midgame: Vec<&Value> = pairs.iter().filter(|p| p["exact"] == false).collect();
    let mean = midgame
        .iter()
        .map(|p| p["sum"].as_f64().unwrap())
        .sum::<f64>()
        / midgame.len() as f64;
    assert!((all["mean_sum"].as_f64().unwrap() - mean).abs() < 1e-9);
    // --games-limit 1: the first game alone.
    let mut one = args.to_vec();
    one.extend(["--games-limit", "1"]);
    let (first, _, totals) = consistency_json(&one);
    assert_eq!(totals["games"], 1);
    assert!(first.iter().all(|p| p["line"] == 2));
    assert!(first.len() < pairs.len());
    // The text report ends with the totals.
    let (code, text, _) = accuracy(&args[..args.len() - 1]);
    assert_eq!(code, Some(0));
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("games 2, searches "), "{text}");
}

/// The example game to 14 empties, then the solver's best move every turn to
/// the end, as a transcript.
fn solved_ending() -> String {
    use mollett::engine::{Engine, Event, Job, Settings};
    use mollett::rules::Variant;
    use mollett::rules::game::Game;
    let full = mollett::tools::analyze::parse_game(&example_game(), Variant::Othello).unwrap();
    let mut game = Game::from_moves(Variant::Othello.start(), full.moves[..46].to_vec()).unwrap();
    assert_eq!(game.position().board.empties(), 14);
    let mut engine = Engine::new(Settings {
        threads: 1,
        hash_mb: 16,
        ..Settings::default()
    })
    .unwrap();
    while !game.is_over() {
        let pos = game.position();
        let best = if pos.must_pass() {
            mollett::Move::Pass
        } else {
            engine.new_game(pos).unwrap();
            engine.start(Job::Solve { wld: false }).unwrap();
            match engine.wait().pop() {
                Some(Event::Finished(f)) => f.result.unwrap().best.unwrap(),
                other => panic!("{other:?}"),
            }
        };
        game.play(best).unwrap();
    }
    mollett::format::write_transcript(&game)
}

#[test]
fn exact_pairs_along_best_moves_sum_to_zero() {
    let dir = Scratch::new("consistency-exact");
    let file = dir.join("solved.txt");
    std::fs::write(&file, solved_ending()).unwrap();
    let f = file.to_str().unwrap();
    let (pairs, rows, _) = consistency_json(&[
        "--games",
        f,
        "--level",
        "2",
        "--exact-empties",
        "14",
        "--json",
    ]);
    let exact: Vec<&Value> = pairs.iter().filter(|p| p["exact"] == true).collect();
    // Every move from 14 empties that neither passes nor ends the game.
    assert!(exact.len() >= 8, "{}", exact.len());
    for p in &exact {
        assert!(p["empties"].as_u64().unwrap() <= 14, "{p}");
        assert_eq!(p["sum"].as_f64().unwrap(), 0.0, "{p}");
    }
    let row = rows.iter().find(|v| v["what"] == "exact").unwrap();
    assert_eq!(row["pairs"].as_u64().unwrap(), exact.len() as u64);
    assert_eq!(row["mean_abs_sum"], 0.0);
}

#[test]
fn a_bad_games_file_is_refused_by_line() {
    let dir = Scratch::new("consistency-bad");
    let file = dir.join("bad.txt");
    std::fs::write(&file, "f5d6c3\nf5f5\n").unwrap();
    let (code, out, err) = accuracy(&["--games", file.to_str().unwrap(), "--level", "1"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("bad.txt") && err.contains("line 2"), "{err}");
    std::fs::write(&file, "% nothing\n").unwrap();
    let (code, _, err) = accuracy(&["--games", file.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("holds no game"), "{err}");
    let (code, _, err) = accuracy(&["--games", dir.join("none.txt").to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot read"), "{err}");
    let (code, _, _) = accuracy(&["--games", file.to_str().unwrap(), "x.obf"]);
    assert_eq!(code, Some(2));
}

/// The committed games set (`benches/data/consistency-games.txt`, made by
/// `scripts/make-games-set.sh`: 20 whole games, one transcript a line) and the
/// tuning set the odd-empties bonus was set on
/// (`benches/data/consistency-tuning-games.txt`, `scripts/make-games-set.sh 12
/// 90131`: 12 whole games), none of them in both.
#[test]
fn the_tuning_games_set_holds_twelve_other_games() {
    games_sets_apart(
        ("consistency-tuning-games.txt", 12),
        ("consistency-games.txt", 20),
        mollett::rules::Variant::Othello,
    );
}

/// Anti-Reversi's games sets (`scripts/make-games-set.sh` with `VARIANT=anti
/// LEVEL=12`): the tuning set its parity terms were set on (12 games) and the
/// set reported on (20 games), whole games under its rules, none in both.
#[test]
fn the_anti_games_sets_hold_whole_games_apart() {
    games_sets_apart(
        ("anti-consistency-tuning-games.txt", 12),
        ("anti-consistency-games.txt", 20),
        mollett::rules::Variant::Anti,
    );
}

/// Checks that a committed tuning games set and the set reported on hold the
/// given numbers of whole games under `rules`, and share none.
fn games_sets_apart(
    (tuning, tuning_count): (&str, usize),
    (reported, reported_count): (&str, usize),
    rules: mollett::rules::Variant,
) {
    let (tuning_text, reported_text) = (committed(tuning), committed(reported));
    for (name, text, count) in [
        (tuning, &tuning_text, tuning_count),
        (reported, &reported_text, reported_count),
    ] {
        let games = mollett::tools::accuracy::consistency::parse_games(text, rules)
            .expect("the games set parses");
        assert_eq!(games.len(), count, "{name}");
        assert!(games.iter().all(|g| g.game.is_over()), "{name}");
    }
    for line in tuning_text.lines() {
        assert!(!reported_text.lines().any(|c| c == line), "{line}");
    }
}
