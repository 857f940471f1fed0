//! The notation and file formats: round trips on seeded random games, the NBoard
//! and FFO examples, error messages, and robustness against arbitrary input.

mod common;
use mollett::format::{
    Clock, ErrorKind, GgfGame, GgfMove, ObfEntry, ParseError, parse_board_prefix, parse_ggf,
    parse_ggf_records, parse_move_item, parse_obf, parse_obf_line, parse_transcript,
    write_board_string, write_transcript,
};
use mollett::rng::Rng;
use mollett::rules::Variant;
use mollett::rules::game::Game;
use mollett::{Color, Move, Position};

/// A whole random game from `start` (forced passes included), seeded.
fn random_game(start: Position, rng: &mut Rng) -> Game {
    let mut game = Game::new(start);
    let mut pos = start;
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return game;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        pos = pos.play(mv).unwrap();
        game.moves.push(mv);
    }
}

/// `count` seeded random whole games from the start.
fn games(count: u64) -> Vec<Game> {
    let mut rng = Rng::new(0x5eed_f0a7);
    (0..count)
        .map(|_| random_game(Position::START, &mut rng))
        .collect()
}

/// A game cut after a random number of its moves, restarted from a random
/// position of another game (so either side may be to move at the start).
fn random_midgame_game(rng: &mut Rng, source: &Game) -> Game {
    let positions = source.positions();
    let start = positions[rng.below(positions.len() as u64) as usize];
    let mut g = random_game(start, rng);
    let keep = rng.below(g.moves.len() as u64 + 1) as usize;
    g.moves.truncate(keep);
    g
}

#[test]
fn random_games_are_complete_and_include_passes() {
    let gs = games(200);
    assert!(gs.iter().all(|g| g.is_over()));
    assert!(
        gs.iter().any(|g| g.moves.contains(&Move::Pass)),
        "some game has a forced pass"
    );
}

#[test]
fn board_strings_round_trip() {
    for g in games(50) {
        for pos in g.positions() {
            let s = pos.to_string();
            assert_eq!(s.len(), 66);
            assert_eq!(s, write_board_string(&pos));
            assert_eq!(s.parse::<Position>(), Ok(pos));
            // The lenient alphabet and whitespace give the same position.
            let lenient: String = s
                .chars()
                .enumerate()
                .flat_map(|(i, c)| {
                    let c = match (c, i % 3) {
                        ('X', 0) => 'x',
                        ('X', 1) => '*',
                        ('X', _) => 'b',
                        ('O', 0) => 'o',
                        ('O', 1) => 'w',
                        ('O', _) => '0',
                        ('-', 0) => '.',
                        ('-', 1) => '_',
                        ('-', _) => 'e',
                        (c, _) => c,
                    };
                    if i % 8 == 7 { vec![c, '\n'] } else { vec![c] }
                })
                .collect();
            assert_eq!(lenient.parse::<Position>(), Ok(pos), "{lenient}");
            assert_eq!(parse_board_prefix(&format!("{s};rest")), Ok((pos, 66)));
        }
    }
}

#[test]
fn transcripts_round_trip() {
    let mut rng = Rng::new(11);
    let gs = games(300);
    let mut passes = 0;
    for g in &gs {
        let text = write_transcript(g);
        assert!(
            !text.contains("pa"),
            "a finished game has no trailing pass: {text}"
        );
        assert_eq!(parse_transcript(Position::START, &text).as_ref(), Ok(g));
        // Upper case, spaces and explicit passes read the same.
        let spelled: String = g
            .moves
            .iter()
            .map(|m| match m {
                Move::Pass => " PASS ".to_string(),
                Move::Play(sq) => format!("{} ", sq.to_string().to_uppercase()),
            })
            .collect();
        assert_eq!(parse_transcript(Position::START, &spelled).as_ref(), Ok(g));
        passes += g.moves.iter().filter(|&&m| m == Move::Pass).count();
        // Partial games from set-up positions, possibly ending in a pass.
        let part = random_midgame_game(&mut rng, g);
        let text = write_transcript(&part);
        assert_eq!(parse_transcript(part.start, &text), Ok(part));
    }
    assert!(passes > 0, "the random games exercise implied passes");
}

#[test]
fn obf_round_trips_on_random_positions() {
    let mut rng = Rng::new(3);
    for g in games(30) {
        for pos in g.positions() {
            let scores: Vec<(Move, i32)> = pos
                .legal_moves()
                .into_iter()
                .map(|m| (m, rng.below(129) as i32 - 64))
                .collect();
            let entry = ObfEntry {
                position: pos,
                scores,
            };
            let line = entry.to_string();
            assert_eq!(parse_obf_line(&line).as_ref(), Ok(&entry), "{line}");
            assert_eq!(line.parse::<ObfEntry>(), Ok(entry));
        }
    }
}

#[test]
fn all_ffo_lines_parse_and_print_back() {
    let dir = common::ffo_dir();
    let listing = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut total = 0;
    for file in listing {
        let path = file.unwrap().path();
        if path.extension().is_none_or(|e| e != "obf") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let entries = parse_obf(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let lines: Vec<&str> = text.lines().collect();
        for (n, entry) in &entries {
            assert!(!entry.scores.is_empty());
            for (mv, score) in &entry.scores {
                assert!(entry.position.play(*mv).is_ok(), "{mv} in line {n}");
                assert!((-64..=64).contains(score) && score % 2 == 0, "line {n}");
            }
            assert!(
                entry.scores.windows(2).all(|w| w[0].1 >= w[1].1),
                "best first"
            );
            assert_eq!(entry.to_string(), lines[n - 1].trim_end(), "line {n}");
        }
        total += entries.len();
    }
    // Positions 1 to 79 (the 80 lines of the files include one blank line).
    assert_eq!(total, 79);
}

/// An eval as NBoard writes it (two decimals), read back.
fn two_decimals(rng: &mut Rng) -> f64 {
    format!("{:.2}", (rng.below(12_801) as f64 - 6400.0) / 100.0)
        .parse()
        .unwrap()
}

/// A time that stresses float formatting: tiny, long-mantissa or whole.
fn awkward_time(rng: &mut Rng) -> f64 {
    match rng.below(4) {
        0 => 1e-4,
        1 => rng.below(100_000) as f64 * 0.001 + 0.1,
        2 => f64::from_bits(rng.next_u64() >> 12 | 0x4000_0000_0000_0000),
        _ => rng.below(60) as f64,
    }
}

#[test]
fn ggf_round_trips_on_random_games() {
    let mut rng = Rng::new(99);
    for (k, g) in games(120).iter().enumerate() {
        let base = if k % 2 == 0 {
            g.clone()
        } else {
            random_midgame_game(&mut rng, g)
        };
        let mut rec = GgfGame::from_game(&base);
        for m in &mut rec.moves {
            if rng.below(2) == 0 {
                m.eval = Some(two_decimals(&mut rng));
            }
            if rng.below(2) == 0 {
                m.time = Some(awkward_time(&mut rng));
            }
        }
        rec.pc = Some("NBoard".into());
        rec.dt = Some("2014-02-21 20:52:27 GMT".into());
        rec.pb = Some(format!("player {k}"));
        rec.pw = Some(String::new());
        rec.re = Some(if base.is_over() {
            base.position().final_score_black().to_string()
        } else {
            "?".into()
        });
        if k % 3 == 0 {
            rec.tb = Some(Clock {
                increment: mollett::format::Seconds::new(2.0).unwrap(),
                ..Clock::new(300.0)
            });
            rec.tw = Some(Clock::new(3600.0 + k as f64));
            rec.extra.push(("KM".into(), "0".into()));
        } else {
            rec.ti = Some(Clock::new(900.0));
        }
        let text = rec.to_string();
        let back = parse_ggf(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back, rec, "{text}");
        assert_eq!(back.to_game(Variant::Othello), Ok(base));
        assert_eq!(back.to_string(), text);
    }
}

const NBOARD_START: &str = "---------------------------O*------*O--------------------------- *";

#[test]
fn nboard_examples() {
    let first = format!(
        "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[me]PW[you]RE[?]TI[15:00]TY[8]BO[8 {NBOARD_START}]B[F5]W[F6]B[D3];)"
    );
    let g = parse_ggf(&first).unwrap();
    assert_eq!(g.to_string(), first);
    let game = g.to_game(Variant::Othello).unwrap();
    assert_eq!(write_transcript(&game), "f5f6d3");
    assert_eq!(game.position().side, Color::White);

    let second = format!(
        "(;GM[Othello]PC[NBoard]DT[2026-11-29 13:58:49 GMT]PB[Engine4]PW[]RE[?]TI[5:00]TY[8]BO[8 {NBOARD_START}]B[F5/0.00]W[D6//15.309000000000001];)"
    );
    let g = parse_ggf(&second).unwrap();
    assert_eq!(g.to_string(), second);
    assert_eq!(g.moves[1].time, Some(15.309000000000001));
    assert_eq!(g.moves[1].eval, None);
    assert_eq!(g.ti, Some(Clock::new(300.0)));
    assert_eq!(g.pw.as_deref(), Some(""));

    // A set-up position with White to move: the first move tag is W.
    let after_f5 = Position::START.play("f5".parse().unwrap()).unwrap();
    let bo: String = write_board_string(&after_f5).replace('X', "*");
    let third = format!(
        "(;GM[Othello]PC[NBoard]DT[x]PB[a b]PW[c]RE[?]TI[1:00:00]TY[8]BO[8 {bo}]W[D6/-1.00/0.5]B[C3];)"
    );
    let g = parse_ggf(&third).unwrap();
    assert_eq!(g.start, after_f5);
    assert_eq!(g.pb.as_deref(), Some("a b"));
    assert_eq!(g.to_string(), third);
    assert_eq!(
        parse_ggf_records(&format!("{first}\n{second}\r\n{third}\n"))
            .unwrap()
            .len(),
        3
    );

    // Move items as sent with `move` and `===`.
    assert_eq!(parse_move_item("C6/0.00").unwrap().to_string(), "C6/0.00");
    assert_eq!(parse_move_item("PA/0.00").unwrap().mv, Move::Pass);
    assert_eq!("e6//4.2".parse::<GgfMove>().unwrap().to_string(), "E6//4.2");
}

/// The message of the error from parsing `text` with `parse`.
fn message<T: std::fmt::Debug>(r: Result<T, ParseError>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn malformed_inputs_are_rejected_with_clear_messages() {
    let start = "---------------------------OX------XO--------------------------- X";
    let m = message(start.replace("OX", "OZ").parse::<Position>());
    assert!(
        m.contains("'Z' for square e4") && m.contains("column 29"),
        "{m}"
    );
    let m = message(start[..20].parse::<Position>());
    assert!(m.contains("only 20 squares"), "{m}");

    let m = message(parse_transcript(Position::START, "f5 d6 c3 q7"));
    assert!(
        m.contains("'q7' is not a move") && m.contains("column 10: 'q7'"),
        "{m}"
    );
    let m = message(parse_transcript(Position::START, "f5d6c3h8"));
    assert!(
        m.contains("'h8' is illegal as move 4") && m.contains("column 7"),
        "{m}"
    );

    let finished = &games(1)[0];
    let text = format!("{} a1", write_transcript(finished));
    let m = message(parse_transcript(Position::START, &text));
    assert!(
        m.contains("'a1' is illegal as move") && m.contains("the game is over"),
        "{m}"
    );

    let m = message(parse_obf_line(&format!("{start}; F5:+2x;")));
    assert!(m.contains("'+2x' is not a score"), "{m}");
    let m = message(parse_obf(&format!(
        "% c\n{start}; D3:+0;\n{start}; E3:+0;\n"
    )));
    assert!(
        m.contains("scored move 'E3' is illegal") && m.contains("line 3"),
        "{m}"
    );

    let ok = format!("(;GM[Othello]TY[8]BO[8 {NBOARD_START}]B[F5]W[D6];)");
    for (text, want) in [
        (
            ok.replace("W[D6]", "W[D6/1.0/x]"),
            "'x' in move item 'D6/1.0/x' is not a time",
        ),
        (ok.replace("W[D6]", "W[F5]"), "'F5' is illegal as move 2"),
        (
            ok.replace("W[D6]", "B[D6]"),
            "move 2 is out of turn: white is to move",
        ),
        (
            ok.replace(" *]", " *"),
            "unexpected text after the side to move in BO",
        ),
        (ok.replace("W[D6];)", "W[D6;)"), "unclosed '[' in tag W"),
        (
            ok.replace("BO[8 ", "BO[6 "),
            "board size 6 is not supported",
        ),
        (ok.replace(";)", ""), "not closed with ';)'"),
    ] {
        let m = message(parse_ggf(&text));
        assert!(m.contains(want), "{text}: {m}");
    }
    let e = parse_ggf(&ok.replace("W[D6]", "W[D6")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert!(e.excerpt.starts_with("W[D6;)"));
}

/// Runs every parser on `text`; none may panic.
fn parse_everything(text: &str) {
    let _ = text.parse::<Position>();
    let _ = parse_board_prefix(text);
    let _ = parse_transcript(Position::START, text);
    let _ = parse_obf_line(text);
    let _ = parse_obf(text);
    let _ = parse_ggf(text);
    let _ = parse_ggf_records(text);
    let _ = parse_move_item(text);
    let _ = text.parse::<Clock>();
    for r in [parse_ggf(text).err(), parse_obf(text).err()]
        .into_iter()
        .flatten()
    {
        let _ = r.to_string();
    }
}

#[test]
fn arbitrary_bytes_and_truncations_never_panic() {
    let mut rng = Rng::new(2024);
    let alphabet = b"(;)[]/:+-*OoXx0._ \n\r8abcdefghBWPAST12345678,.E\xc3\xa9\xe2\x82\xac\xff";
    for _ in 0..3000 {
        let len = rng.below(120) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                if rng.below(4) == 0 {
                    rng.next_u64() as u8
                } else {
                    alphabet[rng.below(alphabet.len() as u64) as usize]
                }
            })
            .collect();
        parse_everything(&String::from_utf8_lossy(&bytes));
    }
    // Every prefix and single-character mutation of valid records and lines.
    let g = &games(1)[0];
    let mut rec = GgfGame::from_game(g);
    rec.ti = Some(Clock::new(300.0));
    rec.moves[0].eval = Some(1.5);
    let valid = [
        rec.to_string(),
        format!("{}; G8:+18; PA:-2;", Position::START),
        format!("{} é", write_transcript(g)),
    ];
    for text in &valid {
        for (i, _) in text.char_indices() {
            let prefix = &text[..i];
            parse_everything(prefix);
            if text.starts_with("(;") {
                assert!(parse_ggf(prefix).is_err(), "{prefix}");
            }
            for c in ['[', ']', ';', '/', 'é', '\0', '9'] {
                let mut mutated = text.clone();
                mutated.replace_range(
                    i..i + text[i..].chars().next().unwrap().len_utf8(),
                    &c.to_string(),
                );
                parse_everything(&mutated);
            }
        }
    }
    // Huge inputs are fine too.
    let huge = "-".repeat(1 << 20);
    parse_everything(&huge);
    parse_everything(&format!("(;{}", "XX[a]".repeat(100_000)));
    parse_everything(&"f5".repeat(100_000));
}

#[test]
fn ggf_game_types_as_ggs_and_nboard_write_them() {
    let record = |ty: &str| {
        format!(
            "(;GM[Othello]TY[{ty}]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[F5];)"
        )
    };
    for (ty, variant) in [
        ("8", None),
        ("8r4", None),
        ("8r", None),
        ("s8r20", None),
        ("8a", Some(Variant::Anti)),
        ("8r4a", Some(Variant::Anti)),
    ] {
        let g = parse_ggf(&record(ty)).unwrap_or_else(|e| panic!("TY[{ty}]: {e}"));
        assert_eq!(g.variant, variant, "TY[{ty}]");
        assert_eq!(g.moves.len(), 1);
    }
    for (ty, why) in [("10", "a 10x10 board"), ("8k", "komi games"), ("8q", "'q'")] {
        let e = parse_ggf(&record(ty)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported, "TY[{ty}]");
        assert!(e.to_string().contains(why), "TY[{ty}]: {e}");
    }
}
