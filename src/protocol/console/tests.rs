//! The console parser, its table and its formats.

use super::*;
use crate::search::{Level, SearchResult};

#[test]
fn parses_commands_aliases_and_moves() {
    assert_eq!(parse("help"), Ok(Command::Help(None)));
    assert_eq!(parse("HELP go"), Ok(Command::Help(Some("go".into()))));
    assert_eq!(parse("n"), Ok(Command::New));
    assert_eq!(parse("hint"), Ok(Command::Hint(1)));
    assert_eq!(parse("hint 3"), Ok(Command::Hint(3)));
    assert_eq!(parse("level 5"), Ok(Command::Level(Some(Level::number(5)))));
    assert_eq!(parse("level"), Ok(Command::Level(None)));
    assert_eq!(parse("f5"), Ok(Command::Play("f5".into())));
    assert_eq!(parse("F5 d6C3"), Ok(Command::Play("F5 d6C3".into())));
    assert_eq!(parse("play f5d6"), Ok(Command::Play("f5d6".into())));
    assert_eq!(parse("  "), Ok(Command::Blank));
    let start = "---------------------------OX------XO--------------------------- X";
    assert_eq!(
        parse(&format!("setboard {start}")),
        Ok(Command::SetBoard(Position::START, None))
    );
}

#[test]
fn refuses_with_a_reason() {
    for (line, want) in [
        ("frobnicate", "unknown command 'frobnicate'"),
        ("hint 0", "hint: N must be 1 or more"),
        ("hint x", "hint: 'x' is not a number of moves"),
        ("level 99", "level: '99' is not a level"),
        ("threads 1 2", "threads: expected at most one argument"),
        ("setboard xyz", "setboard: "),
        ("play z9", "play: 'z9' is not a list of moves"),
        ("new now", "new: unexpected argument 'now'"),
    ] {
        let e = parse(line).unwrap_err();
        assert!(e.starts_with(want), "{line}: {e}");
    }
}

#[test]
fn help_comes_from_the_table() {
    let all = help(None).unwrap();
    assert_eq!(all.len(), COMMANDS.len() + 1);
    for (line, spec) in all.iter().zip(COMMANDS) {
        assert!(
            line.starts_with(spec.name) && line.contains(spec.help),
            "{line}"
        );
    }
    assert!(help(Some("q")).unwrap()[0].starts_with("quit"));
    assert!(help(Some("nope")).is_err());
    assert!(is_command("exit") && is_command("f5d6") && !is_command("ping"));
}

#[test]
fn scores() {
    assert_eq!(format_score(50, ScoreKind::Midgame(3)), "+0.50");
    assert_eq!(format_score(-400, ScoreKind::Exact), "-4");
    assert_eq!(format_score(100, ScoreKind::WinLossDraw), "win");
}

#[test]
fn a_move_given_without_a_search_says_so() {
    let stopped = SearchResult {
        best: Some("f6".parse().unwrap()),
        score: 0,
        kind: ScoreKind::Midgame(0),
        pv: vec!["f6".parse().unwrap()],
        nodes: 12,
        elapsed: Duration::from_millis(20),
        stopped: true,
    };
    assert!(!stopped.searched());
    assert_eq!(
        format_answer(&stopped, 12, stopped.elapsed),
        "move f6 (stopped before any depth was searched: the first legal move) nodes 12 time 0.02"
    );
    let one = SearchResult {
        kind: ScoreKind::Midgame(1),
        ..stopped.clone()
    };
    assert!(one.searched());
    assert!(format_answer(&one, 12, one.elapsed).starts_with("move f6 score +0.00 depth 1 "));
}

#[test]
fn modes_times_clocks_and_files() {
    assert_eq!(parse("mode 2"), Ok(Command::Mode(Some(Mode::Both))));
    assert_eq!(parse("mode white"), Ok(Command::Mode(Some(Mode::White))));
    assert_eq!(parse("m 3"), Ok(Command::Mode(Some(Mode::Neither))));
    assert_eq!(parse("mode"), Ok(Command::Mode(None)));
    assert!(Mode::White.plays(Color::White) && !Mode::White.plays(Color::Black));
    assert!(Mode::Both.plays(Color::Black) && !Mode::Neither.plays(Color::Black));
    assert_eq!(
        parse("time 2.5"),
        Ok(Command::Time(Some(Some(Duration::from_millis(2500)))))
    );
    assert_eq!(parse("time off"), Ok(Command::Time(Some(None))));
    assert_eq!(parse("clock off"), Ok(Command::Clock(Some(None))));
    let Ok(Command::Clock(Some(Some(c)))) = parse("clock 5:00/2") else {
        panic!()
    };
    assert_eq!((c.main.get(), c.increment.get()), (300.0, 2.0));
    assert_eq!(
        parse("load my game.ggf"),
        Ok(Command::Load("my game.ggf".into()))
    );
    assert_eq!(parse("save g.ggf"), Ok(Command::Save("g.ggf".into())));
    for (line, want) in [
        ("mode 4", "mode: '4' is not a mode"),
        ("time 0", "time: '0' is not a number of seconds"),
        ("time -1", "time: '-1' is not a number of seconds"),
        ("clock 5:xx", "clock: "),
        ("load", "load: a file name expected"),
        ("save", "save: a file name expected"),
    ] {
        let e = parse(line).unwrap_err();
        assert!(e.starts_with(want), "{line}: {e}");
    }
}

#[test]
fn the_move_list_marks_the_last_move() {
    let f5: Move = "f5".parse().unwrap();
    assert_eq!(format_played(&[]), "played: none");
    assert_eq!(format_played(&[f5]), "played (1): [f5]");
    assert_eq!(
        format_played(&[f5, "d6".parse().unwrap(), Move::Pass]),
        "played (3): f5 d6 [pass]"
    );
}
