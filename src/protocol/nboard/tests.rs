//! Tests of the NBoard parser, formats and handler.

use super::*;

#[test]
fn parses_every_command() {
    let ok = |l: &str| parse(l).unwrap();
    assert_eq!(ok("nboard 2"), Command::NBoard);
    assert_eq!(ok("  set depth 20 "), Command::SetDepth(20));
    assert_eq!(ok("set contempt -100"), Command::SetContempt(-100));
    assert_eq!(ok("set threads 2"), Command::SetThreads(2));
    assert_eq!(ok("SET THREADS 1024"), Command::SetThreads(1024));
    assert_eq!(ok("set contempt +100"), Command::SetContempt(100));
    assert_eq!(ok("ping 7"), Command::Ping("7".into()));
    assert_eq!(ok("ping"), Command::Ping(String::new()));
    assert_eq!(ok("hint 4"), Command::Hint(4));
    for (l, c) in [
        ("go", Command::Go),
        ("learn", Command::Learn),
        ("analyze", Command::Analyze),
        ("quit", Command::Quit),
        ("clear", Command::Clear),
        ("stop", Command::Stop),
        ("", Command::Blank),
        ("   ", Command::Blank),
    ] {
        assert_eq!(ok(l), c, "{l:?}");
    }
    let Command::Move(m) = ok("move F5/0.00") else {
        panic!()
    };
    assert_eq!(m.to_string(), "F5/0.00");
    let Command::Move(m) = ok("move PA/0.00") else {
        panic!()
    };
    assert_eq!(m.mv, Move::Pass);
    let game = "(;GM[Othello]PC[NBoard]PB[a b]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5/0.00]W[D6//15.309000000000001];)";
    let Command::SetGame(g) = ok(&format!("set game {game}")) else {
        panic!()
    };
    assert_eq!(g.moves.len(), 2);
    assert_eq!(g.pb.as_deref(), Some("a b"));
}

#[test]
fn refuses_bad_lines_with_a_reason() {
    for (line, want) in [
        ("set depth 0", "set depth: '0' is not a depth (1..60)"),
        ("set depth -5", "set depth: '-5' is not a depth"),
        ("set depth 999999", "set depth: '999999' is not a depth"),
        ("set depth", "set depth: '' is not a depth"),
        ("set game (;GM[Othello]BO[8 ---", "set game: "),
        ("set game", "set game: "),
        ("set contempt x", "set contempt: 'x' is not a number"),
        (
            "set threads 0",
            "set threads: '0' is not a thread count (1..1024)",
        ),
        (
            "set threads 1025",
            "set threads: '1025' is not a thread count",
        ),
        (
            "set threads two",
            "set threads: 'two' is not a thread count",
        ),
        ("move Z9", "move: 'Z9' in move item 'Z9' is not a square"),
        ("move", "move: "),
        ("hint 0", "hint: '0' is not a number of moves"),
        ("hint x", "hint: 'x' is not a number"),
        ("set foo 1", "unknown command 'set foo' ignored"),
        ("xyzzy 1 2", "unknown command 'xyzzy' ignored"),
        ("\u{0}\u{1}", "unknown command"),
    ] {
        let e = parse(line).unwrap_err().to_string();
        assert!(e.starts_with(want), "{line:?}: {e}");
    }
    let e = parse("set game (;GM[Othello]BO[8 ---")
        .unwrap_err()
        .to_string();
    assert!(e.ends_with("the game is unchanged"), "{e}");
}

#[test]
fn formats_replies() {
    let f5: Move = "f5".parse().unwrap();
    assert_eq!(
        format_move(f5, Some(-150), Duration::from_millis(910)),
        "=== F5/-1.50/0.91"
    );
    assert_eq!(
        format_move(f5, None, Duration::from_millis(20)),
        "=== F5//0.02"
    );
    assert_eq!(format_move(Move::Pass, Some(300), Duration::ZERO), "=== PA");
    let line = PvLine {
        score: 75,
        pv: vec![f5, "d6".parse().unwrap(), Move::Pass],
    };
    assert_eq!(
        format_hint(&line, ScoreKind::Midgame(10)),
        "search F5-D6-PA 0.75 0 10"
    );
    assert_eq!(format_depth(ScoreKind::Exact), "100%");
    assert_eq!(format_depth(ScoreKind::WinLossDraw), "100%W");
    let selective = ScoreKind::SelectiveEnd {
        empties: 24,
        selectivity: "73".parse().unwrap(),
    };
    assert_eq!(format_depth(selective), "73%");
    assert_eq!(
        format_nodestats(1_250_000, Duration::from_millis(840)),
        "nodestats 1250000 0.84"
    );
    assert_eq!(format_eval(0), "0.00");
    assert_eq!(format_eval(-6400), "-64.00");
}
