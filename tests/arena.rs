//! `mollett match` end to end, with the built binary as every entrant: fast games
//! through both protocols, replays, and test doubles that crash or play an
//! illegal move. The real peer (`gtp-rhino`) is in an ignored test at the end.

use mollett::format::{GgfGame, parse_ggf_records};
use mollett::rules::Variant;
use std::path::PathBuf;

mod common;
use common::Scratch;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mollett");

/// A fresh scratch folder for one test, removed when the test ends.
fn scratch(tag: &str) -> Scratch {
    Scratch::new(&format!("arena-{tag}"))
}

/// A Mollett entrant at `level`: one thread, a small table.
fn mollett(name: &str, level: u32) -> String {
    format!("{name}={BIN} --level {level} --threads 1 --hash 4")
}

/// A record's game number (`RO`, 1-based).
fn number(g: &GgfGame) -> usize {
    let ro = g.extra.iter().find(|(t, _)| t == "RO").expect("RO[..]");
    ro.1.parse().unwrap()
}

/// Runs `mollett match ARGS --games-file FILE --overwrite`: the report and
/// the games, in schedule order (the file has them in the order they ended).
fn run_match(dir: &std::path::Path, args: &[&str]) -> (String, Vec<GgfGame>) {
    let file = dir.join("games.ggf");
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .arg("--games-file")
        .arg(&file)
        .arg("--overwrite")
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut games = parse_ggf_records(&std::fs::read_to_string(&file).unwrap()).unwrap();
    games.sort_by_key(number);
    assert!(games.iter().enumerate().all(|(i, g)| number(g) == i + 1));
    (report, games)
}

/// The W/D/L line's three numbers.
fn wdl(report: &str) -> [u32; 3] {
    let line = report.lines().find(|l| l.contains("W/D/L")).unwrap();
    let nums = line.split(": ").nth(1).unwrap().split(',').next().unwrap();
    let v: Vec<u32> = nums.split('/').map(|n| n.trim().parse().unwrap()).collect();
    [v[0], v[1], v[2]]
}

/// Black's margin from `RE`, and whether it was a forfeit.
fn result(g: &GgfGame) -> (i32, bool) {
    let re = g.re.as_deref().unwrap();
    let (score, suffix) = re.split_once(':').unwrap_or((re, ""));
    (score.parse().unwrap(), !suffix.is_empty())
}

/// The moves alone (no times), as text.
fn moves(games: &[GgfGame]) -> Vec<String> {
    games
        .iter()
        .map(|g| g.moves.iter().map(|m| m.mv.to_string()).collect())
        .collect()
}

#[test]
fn two_levels_over_gtp_replay_identically_at_any_concurrency() {
    let dir = scratch("gtp");
    let (a, b) = (mollett("strong", 3), mollett("weak", 1));
    let args = |c: &'static str| {
        vec![
            "--engine",
            &a,
            "--engine",
            &b,
            "--games",
            "6",
            "--opening-plies",
            "6",
            "--seed",
            "3",
            "--concurrency",
            c,
        ]
    };
    let (report, games) = run_match(&dir, &args("2"));
    assert_eq!(games.len(), 6);
    assert_eq!(wdl(&report).iter().sum::<u32>(), 6, "{report}");
    assert!(report.contains("pentanomial"), "{report}");
    assert!(report.contains("Elo by pairs"), "{report}");
    for (i, g) in games.iter().enumerate() {
        // Colours alternate; each game replays legally to its end and RE is right.
        let (black, white) = if i % 2 == 0 {
            ("strong", "weak")
        } else {
            ("weak", "strong")
        };
        assert_eq!(
            (g.pb.as_deref(), g.pw.as_deref()),
            (Some(black), Some(white))
        );
        let game = g.to_game(Variant::Othello).unwrap();
        assert!(game.is_over());
        assert_eq!(result(g), (game.position().final_score_black(), false));
    }
    // The pairs share their opening (6 plies).
    assert_eq!(games[0].moves[..6], games[1].moves[..6]);
    let (_, again) = run_match(&dir, &args("1"));
    assert_eq!(moves(&games), moves(&again));
}

#[test]
fn two_levels_over_nboard_with_depths_and_a_clock() {
    let dir = scratch("nboard");
    let entrant = |n: &str| format!("{n}={BIN} --threads 1 --hash 4");
    let (a, b) = (entrant("deep"), entrant("shallow"));
    let (report, games) = run_match(
        &dir,
        &[
            // `--protocol`, as the engine loop names it, is `--proto` too.
            "--protocol",
            "nboard",
            "--engine",
            &a,
            "--engine",
            &b,
            "--depth",
            "deep=3",
            "--depth",
            "shallow=1",
            "--clock",
            "30/1",
            "--games",
            "4",
        ],
    );
    assert_eq!(games.len(), 4);
    assert_eq!(wdl(&report).iter().sum::<u32>(), 4, "{report}");
    for g in &games {
        assert!(g.to_game(Variant::Othello).unwrap().is_over());
        assert_eq!(
            g.ti.map(|c| (c.main.get(), c.increment.get())),
            Some((30.0, 1.0))
        );
        // Every move after the opening carries the time it took.
        assert!(
            g.moves[8..]
                .iter()
                .all(|m| m.time.is_some() || m.mv == mollett::Move::Pass)
        );
    }
}

/// A match of 4 games against a double that misbehaves after 2 honest moves.
fn misbehaving(mode: &str, limits: &[&str]) -> (String, Vec<GgfGame>) {
    let dir = scratch(&format!("{mode}{}", limits.join("")));
    let double = format!(
        "{}/tests/doubles/gtp_misbehave.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    let bad = format!(
        "bad=sh {double} {mode} 2 {} {BIN} --level 1 --threads 1 --hash 4",
        dir.display()
    );
    let good = mollett("good", 1);
    let mut args = vec![
        "--engine",
        &good,
        "--engine",
        &bad,
        "--games",
        "4",
        "--opening-plies",
        "4",
    ];
    args.extend(limits);
    run_match(&dir, &args)
}

/// Every game is lost by default by the double, in the way `what` says, with
/// `suffix` on the result (`r`, or `t` on time).
fn assert_forfeits(mode: &str, limits: &[&str], what: &str, suffix: &str) {
    let (report, games) = misbehaving(mode, limits);
    assert_eq!(games.len(), 4, "the match completes");
    assert_eq!(wdl(&report), [4, 0, 0], "{report}");
    for (i, g) in games.iter().enumerate() {
        let (margin, forfeit) = result(g);
        assert!(
            forfeit && g.re.as_deref().unwrap().ends_with(suffix),
            "{:?}",
            g.re
        );
        // good is Black in even games: the margin favours it, 33-31 at least.
        let for_good = if i % 2 == 0 { margin } else { -margin };
        assert!(for_good >= 2, "{:?}", g.re);
        // Four plies of opening, then two honest moves by the double.
        let bad_moves = g.moves[4..]
            .iter()
            .enumerate()
            .filter(|(k, _)| (k + usize::from(i % 2 == 1)) % 2 == 1)
            .count();
        assert_eq!(bad_moves, 2, "{g}");
        let comment = g.extra.iter().find(|(k, _)| k == "CO").unwrap();
        assert!(comment.1.contains(what), "{comment:?}");
    }
    assert!(report.contains("games lost by default:"), "{report}");
    assert_eq!(report.matches(what).count(), 4, "{report}");
}

#[test]
fn an_entrant_that_crashes_mid_game_loses_and_the_match_completes() {
    assert_forfeits("crash", &[], "crashed", ":r");
}

#[test]
fn an_entrant_that_plays_an_illegal_move_loses_with_the_offending_line() {
    assert_forfeits("illegal", &[], "illegal move: '= d4'", ":r");
}

#[test]
fn an_entrant_that_stops_answering_hangs_or_loses_on_time() {
    assert_forfeits(
        "silent",
        &["--hang-timeout", "1"],
        "hung: no valid answer to 'genmove",
        ":r",
    );
    assert_forfeits("silent", &["--move-time", "0.3"], "lost on time", ":t");
}

#[test]
fn bad_match_flags_are_clear_errors() {
    let run = |args: &[&str]| {
        let out = Command::new(BIN).arg("match").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let a = mollett("a", 1);
    assert!(run(&["--engine", &a]).contains("2 to 64 entrants"));
    assert!(run(&["--engine", &a, "--engine", &a]).contains("two entrants are named"));
    assert!(run(&["--engine", &a, "--engine", "b", "--games", "2"]).contains("NAME=COMMAND"));
    let b = mollett("b", 1);
    assert!(run(&["--engine", &a, "--engine", &b, "--depth", "3"]).contains("GTP has no depth"));
    // Every entrant starts and answers its set-up before the first game.
    let c = "c=/nonexistent/engine";
    let err = run(&["--engine", &a, "--engine", c, "--games", "2"]);
    assert!(
        err.contains("entrant 'c' failed to start: cannot run '/nonexistent/engine'"),
        "{err}"
    );
    let err = run(&[
        "--proto",
        "nboard",
        "--engine",
        &a,
        "--engine",
        &b,
        "--move-time",
        "1",
    ]);
    assert!(err.contains("NBoard has no time per move"), "{err}");
}

#[test]
fn a_round_robin_of_three_prints_standings_with_the_brightwell_quotient() {
    let dir = scratch("robin");
    let (a, b, c) = (mollett("l3", 3), mollett("l2", 2), mollett("l1", 1));
    let (report, games) = run_match(
        &dir,
        &[
            "--engine", &a, "--engine", &b, "--engine", &c, "--games", "2", "--seed", "5",
        ],
    );
    assert_eq!(games.len(), 6);
    let table: Vec<&str> = report
        .lines()
        .skip_while(|l| !l.starts_with("rank"))
        .collect();
    assert_eq!(table.len(), 4, "{report}");
    // Points are sorted; each entrant played 4 games; points add up to 6.
    let points: Vec<f64> = table[1..]
        .iter()
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{report}");
    assert_eq!(points.iter().sum::<f64>(), 6.0);
}

/// Installs `gtp-rhino` (Debian's `grhino`, unpacked, with `grhino-data`) into
/// `target/grhino` and returns its path.
fn install_grhino() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/grhino");
    let exe = root.join("usr/games/gtp-rhino");
    if exe.exists() {
        return exe;
    }
    let sh = |cmd: &str| {
        let ok = Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .status()
            .unwrap()
            .success();
        assert!(ok, "'{cmd}' failed");
    };
    sh("apt-get update -qq && apt-get install -y -qq grhino-data");
    std::fs::create_dir_all(&root).unwrap();
    sh(&format!(
        "cd {0} && apt-get download grhino && dpkg -x grhino_*.deb {0}",
        root.display()
    ));
    exe
}

/// A match against a real peer: `cargo test --release --test arena -- --ignored`
/// (needs root for apt-get, and the network to Debian's archive).
#[test]
#[ignore]
fn a_match_against_gtp_rhino_completes() {
    let rhino = install_grhino();
    let dir = scratch("rhino");
    let peer = format!("rhino={} -b 0", rhino.display());
    let me = mollett("mollett", 4);
    let (report, games) = run_match(&dir, &["--engine", &me, "--engine", &peer, "--games", "6"]);
    println!("{report}");
    assert_eq!(games.len(), 6);
    assert!(report.contains("forfeits: 0"), "{report}");
    assert!(
        games
            .iter()
            .all(|g| g.to_game(Variant::Othello).unwrap().is_over())
    );
}

/// An entrant whose standard input is copied to `log` on its way to a Mollett
/// at level 1 (the runner splits the command as a shell would).
fn logged(name: &str, log: &std::path::Path) -> String {
    format!(
        "{name}=sh -c 'tee -a {} | {BIN} --level 1 --threads 1 --hash 4'",
        log.display()
    )
}

#[test]
fn variant_matches_tell_the_entrants_and_score_by_the_variant() {
    for (proto, variant) in [("gtp", "anti"), ("nboard", "anti"), ("gtp", "reversi")] {
        let dir = scratch(&format!("variant-{proto}-{variant}"));
        let log = dir.join("commands.log");
        let mut args = vec![
            "--proto",
            proto,
            "--variant",
            variant,
            "--games",
            "4",
            "--seed",
            "5",
            "--verbose",
        ];
        let (a, b) = (logged("a", &log), mollett("b", 2));
        args.extend(["--engine", &a, "--engine", &b]);
        if proto == "nboard" {
            args.extend(["--depth", "a=1", "--depth", "b=2"]);
        }
        let (report, games) = run_match(&dir, &args);
        let want: Variant = variant.parse().unwrap();
        for g in &games {
            // The record names the rules, replays under them to the end, and
            // RE is the variant's score (Anti-Reversi: the fewer discs win).
            assert_eq!(g.variant, Some(want), "{g}");
            let game = g.to_game(Variant::Othello).unwrap();
            assert_eq!(game.variant(), want);
            let end = game.position();
            assert!(end.is_game_over());
            assert_eq!(result(g), (end.final_score_black(), false));
            if want == Variant::Reversi {
                // Historical Reversi starts empty: four centre placements first.
                assert_eq!(g.start.board.empties(), 64);
            }
        }
        let black_wins = |g: &GgfGame| result(g).0.signum();
        let a_score: i32 = games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                if i % 2 == 0 {
                    black_wins(g)
                } else {
                    -black_wins(g)
                }
            })
            .sum();
        let [w, _, l] = wdl(&report);
        assert_eq!(w as i32 - l as i32, a_score, "{report}");
        // The entrant was told the rules: GTP by set_game before its first
        // clear_board, NBoard by every record it was sent.
        let sent = std::fs::read_to_string(&log).unwrap();
        if proto == "gtp" {
            let name = if want == Variant::Anti {
                "Anti-Reversi"
            } else {
                "Reversi"
            };
            let first_set = sent.find(&format!("set_game {name}")).expect("set_game");
            assert!(first_set < sent.find("clear_board").unwrap(), "{sent}");
        } else {
            let records: Vec<&str> = sent.lines().filter(|l| l.starts_with("set game")).collect();
            assert!(!records.is_empty());
            assert!(records.iter().all(|r| r.contains("TY[8a]")), "{sent}");
        }
    }
}

#[test]
fn a_variant_match_resumes_and_refuses_another_variant_s_games() {
    let dir = scratch("variant-resume");
    let (a, b) = (mollett("a", 2), mollett("b", 1));
    let base = [
        "--variant",
        "anti",
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "4",
        "--seed",
        "7",
    ];
    let (report, games) = run_match(&dir, &base);
    // Keep two games, then resume: the other two are played again identically.
    let file = dir.join("games.ggf");
    let text = std::fs::read_to_string(&file).unwrap();
    let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&file, kept).unwrap();
    let resume = |args: &[&str]| {
        Command::new(BIN)
            .arg("match")
            .args(args)
            .arg("--games-file")
            .arg(&file)
            .arg("--resume")
            .output()
            .unwrap()
    };
    let out = resume(&base);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(wdl(&String::from_utf8(out.stdout).unwrap()), wdl(&report));
    let mut again = parse_ggf_records(&std::fs::read_to_string(&file).unwrap()).unwrap();
    again.sort_by_key(number);
    assert_eq!(moves(&again), moves(&games));
    // The same file is not a game of an Othello match.
    let mut othello = base.to_vec();
    othello[1] = "othello";
    let out = resume(&othello);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("is a game of anti, this match plays othello"),
        "{err}"
    );
    // A forfeit's result is checked: never a draw, never beyond 64 discs.
    let text = std::fs::read_to_string(&file).unwrap();
    let (head, rest) = text.split_once("RE[").unwrap();
    let rest = &rest[rest.find(']').unwrap()..];
    for bad in ["0:r", "2147483647:r", "-40:x"] {
        std::fs::write(&file, format!("{head}RE[{bad}{rest}")).unwrap();
        let out = resume(&base);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{bad}");
        assert!(
            err.contains(&format!("RE[{bad}] is not a forfeit")),
            "{err}"
        );
    }
}

#[test]
fn an_entrant_that_does_not_know_the_variant_stops_the_match_before_it_starts() {
    let a = mollett("a", 1);
    // Answers every command but set_game, as an Othello-only engine would.
    let plain = "plain=sh -c 'while read l; do case \"$l\" in set_game*) printf \"? unsupported game\\n\\n\";; *) printf \"=\\n\\n\";; esac; done'";
    let out = Command::new(BIN)
        .args([
            "match",
            "--variant",
            "anti",
            "--engine",
            &a,
            "--engine",
            plain,
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("entrant 'plain'") && err.contains("set_game Anti-Reversi"),
        "{err}"
    );
}

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
