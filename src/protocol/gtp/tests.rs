//! The GTP parser, framing and clocks.

use super::*;

fn secs(x: f64) -> Seconds {
    Seconds::new(x).unwrap()
}

fn cmd(line: &str) -> Result<Command, Error> {
    parse(line).expect("not blank").command
}

#[test]
fn preprocessing_follows_the_spec() {
    assert_eq!(preprocess("  genmove\tb  # comment\r"), "genmove b");
    assert_eq!(preprocess("\u{0}pl\u{7}ay b f5"), "play b f5");
    assert_eq!(preprocess("# only a comment"), "");
    assert!(parse("").is_none());
    assert!(parse("   \t ").is_none());
    assert!(parse("# x").is_none());
}

#[test]
fn ids_are_echoed_as_written() {
    let r = parse("12 protocol_version").unwrap();
    assert_eq!(r.id.as_deref(), Some("12"));
    assert_eq!(r.command, Ok(Command::ProtocolVersion));
    let r = parse("007 name").unwrap();
    assert_eq!(r.id.as_deref(), Some("007"));
    // An id alone is a command with no name.
    assert_eq!(parse("5").unwrap().command, Err(Error::Unknown));
    assert_eq!(parse("name").unwrap().id, None);
}

#[test]
fn parses_every_command_with_its_arguments() {
    let f5 = Move::Play("f5".parse().unwrap());
    assert_eq!(cmd("play b f5"), Ok(Command::Play(Color::Black, f5)));
    assert_eq!(cmd("play WHITE F5"), Ok(Command::Play(Color::White, f5)));
    assert_eq!(
        cmd("play w pass"),
        Ok(Command::Play(Color::White, Move::Pass))
    );
    assert_eq!(
        cmd("play W PASS"),
        Ok(Command::Play(Color::White, Move::Pass))
    );
    assert_eq!(cmd("genmove B"), Ok(Command::Genmove(Color::Black)));
    assert_eq!(
        cmd("reg_genmove white"),
        Ok(Command::RegGenmove(Color::White))
    );
    assert_eq!(cmd("boardsize 19"), Ok(Command::BoardSize(19)));
    assert_eq!(cmd("komi 6.5"), Ok(Command::Komi));
    assert_eq!(
        cmd("time_settings 300 0 0"),
        Ok(Command::TimeSettings(secs(300.0), Seconds::ZERO, 0))
    );
    assert_eq!(
        cmd("time_left b 12.5 3"),
        Ok(Command::TimeLeft(Color::Black, secs(12.5), 3))
    );
    assert_eq!(
        cmd("loadsgf g.ggf 12"),
        Ok(Command::LoadSgf("g.ggf".into(), Some(12)))
    );
    assert_eq!(
        cmd("set_game Othello"),
        Ok(Command::SetGame("Othello".into()))
    );
    assert_eq!(cmd("mollett-level"), Ok(Command::Level(None)));
    assert_eq!(cmd("mollett-threads 4"), Ok(Command::Threads(Some(4))));
    assert_eq!(
        cmd("known_command genmove"),
        Ok(Command::KnownCommand("genmove".into()))
    );
    for spec in COMMANDS {
        // Every name parses (with or without arguments, it is known).
        assert_ne!(cmd(spec.name), Err(Error::Unknown), "{}", spec.name);
    }
}

#[test]
fn refusals_name_the_problem() {
    for (line, want) in [
        ("frobnicate", "unknown command"),
        ("PLAY b f5", "unknown command"),
        ("play b", "syntax error: expected 2 argument(s), got 1"),
        ("play x f5", "syntax error: invalid color 'x'"),
        ("play b z9", "syntax error: invalid vertex 'z9'"),
        ("genmove", "syntax error: expected 1 argument(s), got 0"),
        ("boardsize x", "syntax error: 'x' is not a board size"),
        ("komi lots", "syntax error: 'lots' is not a komi"),
        (
            "time_left b -1 0",
            "syntax error: '-1' is not a time in seconds (0 to 31536000)",
        ),
        (
            "time_settings 1e20 0 0",
            "syntax error: '1e20' is not a time in seconds (0 to 31536000)",
        ),
        (
            "time_settings 0 0 99999999999",
            "syntax error: '99999999999' is not",
        ),
        ("mollett-level 99", "syntax error: '99' is not a level"),
        ("name please", "syntax error: expected 0 argument(s), got 1"),
    ] {
        let e = cmd(line).unwrap_err().to_string();
        assert!(e.starts_with(want), "{line}: {e}");
    }
}

#[test]
fn responses_are_framed() {
    assert_eq!(format_response(Some("3"), &Ok(String::new())), "=3\n\n");
    assert_eq!(format_response(None, &Ok("e6".into())), "= e6\n\n");
    assert_eq!(
        format_response(Some("9"), &Err("illegal move".into())),
        "?9 illegal move\n\n"
    );
}

#[test]
fn gtp_only_commands_select_gtp() {
    assert!(selects_gtp("genmove", &["b"], false));
    assert!(selects_gtp("play", &["w", "d3"], false));
    assert!(!selects_gtp("play", &["f5d6"], false));
    assert!(!selects_gtp("undo", &[], false));
    assert!(selects_gtp("undo", &[], true));
    assert!(!selects_gtp("hint", &[], true));
}

#[test]
fn clocks_give_budgets_and_run_down() {
    let mut g = Gtp::default();
    assert_eq!(g.clock(Color::Black).map(|c| c.budget(40)), None);
    // Sudden death, 60 s each.
    g.clocks = [Some(SideClock {
        left: 60.0,
        stones: 0,
    }); 2];
    let t = g.clock(Color::Black).map(|c| c.budget(40)).unwrap();
    assert_eq!(t.soft, Duration::from_secs(3));
    g.charge(Color::Black, 10.0);
    assert_eq!(
        g.clocks[0],
        Some(SideClock {
            left: 50.0,
            stones: 0
        })
    );
    // Byo-yomi: 10 s for 5 stones after the main time.
    g.byoyomi = Some((10.0, 5));
    g.charge(Color::Black, 55.0);
    assert_eq!(
        g.clocks[0],
        Some(SideClock {
            left: 10.0,
            stones: 5
        })
    );
    assert_eq!(
        g.clock(Color::Black).map(|c| c.budget(40)).unwrap().hard,
        Duration::from_millis(1950)
    );
    g.charge(Color::Black, 1.0);
    assert_eq!(
        g.clocks[0],
        Some(SideClock {
            left: 9.0,
            stones: 4
        })
    );
    for _ in 0..3 {
        g.charge(Color::Black, 1.0);
    }
    g.charge(Color::Black, 1.0);
    assert_eq!(
        g.clocks[0],
        Some(SideClock {
            left: 10.0,
            stones: 5
        })
    );
}
