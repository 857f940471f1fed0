//! `mollett match` end to end, with the built binary as every entrant: fast games
//! through both protocols, replays, and test doubles that crash or play an
//! illegal move. The real peer (`gtp-rhino`) is in an ignored test at the end.

use mollett::format::{GgfGame, parse_ggf_records};
use mollett::rules::Variant;
use std::path::PathBuf;

mod common;
use common::matches::{BIN, mollett, moves, number, result, run_match, scratch, wdl};
use std::process::Command;

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
