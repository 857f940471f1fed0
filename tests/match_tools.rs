//! The match runner's tools for engine testers, end to end: a seed per game
//! (`{game}`), the SPRT, the JSON report, protocol logs and adjudication.

mod common;
use common::matches::{BIN, mollett, moves, result, run_match, scratch};
use mollett::format::{GgfGame, parse_ggf_records};
use mollett::rules::Variant;
use std::process::Command;

#[test]
fn a_game_placeholder_gives_each_game_its_own_book_draw() {
    let dir = scratch("game-seed");
    // From the start, where the book's four first moves are equal: with the
    // same seed every game would open alike; `{game}` seeds each game anew.
    let drawn = format!("{} --seed {{game}} --book-randomness 3", mollett("a", 1));
    let plain = format!("{} --book off", mollett("b", 1));
    let args = [
        "--engine",
        drawn.as_str(),
        "--engine",
        plain.as_str(),
        "--random-openings",
        "1",
        "--opening-plies",
        "0",
        "--games",
        "12",
    ];
    let (_, games) = run_match(&dir, &args);
    let mut firsts: Vec<String> = games
        .iter()
        .filter(|g| g.pb.as_deref() == Some("a"))
        .map(|g| g.moves[0].mv.to_string())
        .collect();
    assert_eq!(firsts.len(), 6);
    firsts.sort_unstable();
    firsts.dedup();
    assert!(
        firsts.len() >= 2,
        "one opening move in every game: {firsts:?}"
    );
    // The same match again draws the same moves.
    let (_, again) = run_match(&dir, &args);
    assert_eq!(moves(&again), moves(&games));
}

#[test]
fn an_sprt_stops_a_decided_match_and_json_reports_it() {
    let dir = scratch("sprt");
    let file = dir.join("games.ggf");
    let strong = format!("{} --book off", mollett("strong", 3));
    let weak = format!("{} --book off", mollett("weak", 1));
    let run = |extra: &[&str]| {
        let out = Command::new(BIN)
            .args(["match", "--engine", &strong, "--engine", &weak])
            .args([
                "--random-openings",
                "100",
                "--games",
                "200",
                "--concurrency",
                "1",
            ])
            .args(["--sprt", "elo0=0,elo1=100", "--json", "--games-file"])
            .arg(&file)
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (report, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (report, log) = run(&[]);
    assert_eq!(report["end"], "decided", "{report}");
    assert_eq!(report["sprt"]["verdict"], "H1", "{report}");
    let games = report["games"].as_u64().unwrap();
    assert!(games < 60, "decided early: {report}");
    assert!(report["sprt"]["llr"].as_f64().unwrap() >= 2.94);
    assert_eq!(report["pairs"][0]["games"].as_u64(), Some(games));
    assert!(log.contains("LLR") && log.contains("ETA"), "{log}");
    assert!(log.contains(&format!("decided the match after {games} of 200")));
    let saved = parse_ggf_records(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved.len() as u64, games, "every finished game is saved");
    // Resumed, the match is decided already: nothing more is played.
    let (again, _) = run(&["--resume"]);
    assert_eq!(again["games"].as_u64(), Some(games), "{again}");
    // A test needs exactly two entrants.
    let third = mollett("third", 1);
    let out = Command::new(BIN)
        .args([
            "match", "--engine", &strong, "--engine", &weak, "--engine", &third,
        ])
        .args(["--sprt", "elo0=0,elo1=5"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("two entrants"));
}

#[test]
fn a_log_dir_keeps_every_line_of_every_game() {
    let dir = scratch("log-dir");
    let logs = dir.join("logs/deeper");
    let args = [
        "--engine",
        &mollett("a", 2),
        "--engine",
        &mollett("b", 1),
        "--games",
        "2",
        "--log-dir",
        logs.to_str().unwrap(),
    ]
    .map(String::from);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (_, games) = run_match(&dir, &args);
    for (i, g) in games.iter().enumerate() {
        let text = std::fs::read_to_string(logs.join(format!("game-{}.log", i + 1))).unwrap();
        assert!(text.starts_with(&format!("# game {}: ", i + 1)), "{text}");
        let mover = |n: usize| {
            if (n % 2 == 0) == (i % 2 == 0) {
                "a"
            } else {
                "b"
            }
        };
        let asked = text.lines().filter(|l| l.contains(" > genmove ")).count();
        // The 8 plies of the opening are the runner's; then one genmove a move.
        let played = g.moves[8..]
            .iter()
            .filter(|m| m.mv != mollett::board::Move::Pass)
            .count();
        assert_eq!(asked, played, "one genmove per move played: {text}");
        assert!(text.contains(&format!(" {} < = ", mover(0))), "{text}");
    }
    // Played again, a game's log gets a second section; nothing is cut.
    let before = std::fs::read_to_string(logs.join("game-1.log")).unwrap();
    run_match(&dir, &args);
    let after = std::fs::read_to_string(logs.join("game-1.log")).unwrap();
    assert!(after.starts_with(&before));
    assert_eq!(
        after.lines().filter(|l| l.starts_with("# game 1:")).count(),
        2
    );
}

#[test]
fn adjudication_ends_games_by_a_solve_or_by_agreeing_evaluations() {
    let dir = scratch("adjudicate");
    let a = mollett("a", 2);
    let b = mollett("b", 1);
    let exact = [
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "4",
        "--adjudicate-empties",
        "12",
    ];
    let (report, games) = run_match(&dir, &exact);
    let (ruled, played): (Vec<&GgfGame>, Vec<&GgfGame>) = games
        .iter()
        .partition(|g| g.re.as_deref().unwrap().ends_with(":s"));
    assert!(ruled.len() >= 2, "{report}");
    assert!(
        report.contains(&format!("adjudicated: {},", ruled.len())),
        "{report}"
    );
    // A game may end before it reaches 12 empties.
    assert!(
        played
            .iter()
            .all(|g| g.to_game(Variant::Othello).unwrap().is_over())
    );
    for g in ruled {
        let re = g.re.as_deref().unwrap();
        let co = &g.extra.iter().find(|(t, _)| t == "CO").unwrap().1;
        assert!(co.starts_with("adjudicated: solved at "), "{co}");
        let end = g.to_game(Variant::Othello).unwrap().position();
        assert!(end.board.empties() <= 12 && !end.is_game_over());
        assert!(co.contains(&format!("solved at {} empties", end.board.empties())));
        assert!(
            co.contains(&format!("gives {:+} for Black", result(g).0)),
            "{co} {re}"
        );
    }
    // The file resumes: adjudicated results are read back as such.
    let file = dir.join("games.ggf");
    let out = Command::new(BIN)
        .arg("match")
        .args(exact)
        .arg("--games-file")
        .arg(&file)
        .arg("--resume")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(text, report, "the same games, read back");
    // Evaluations: NBoard entrants give them, so a small margin soon ends
    // every game; GTP entrants give none, so the rule is refused there.
    let evals = [
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "2",
        "--proto",
        "nboard",
        "--adjudicate-margin",
        "1",
        "--adjudicate-moves",
        "1",
    ];
    let (report, games) = run_match(&dir, &evals);
    assert!(report.contains("adjudicated: "), "{report}");
    for g in games
        .iter()
        .filter(|g| g.re.as_deref().unwrap().ends_with(":s"))
    {
        let co = &g.extra.iter().find(|(t, _)| t == "CO").unwrap().1;
        assert!(co.contains("evaluations put"), "{co}");
        assert!(result(g).0.abs() >= 2, "at least 33-31");
    }
    let out = Command::new(BIN)
        .args([
            "match",
            "--engine",
            &a,
            "--engine",
            &b,
            "--adjudicate-margin",
            "3",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("GTP"));
}
