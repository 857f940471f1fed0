//! Tests of the GGF reader and writer.

use super::*;

const START_BO: &str = "---------------------------O*------*O--------------------------- *";

fn record(moves: &str) -> String {
    format!(
        "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[me]PW[you]RE[?]TI[15:00]TY[8]BO[8 {START_BO}]{moves};)"
    )
}

#[test]
fn nboard_record_round_trips_exactly() {
    for moves in [
        "",
        "B[F5]W[F6]B[D3]",
        "B[F5/0.00]W[D6//15.309000000000001]",
        "B[F5/-1.50/0.5]",
    ] {
        let text = record(moves);
        let g = parse_ggf(&text).unwrap();
        assert_eq!(g.to_string(), text);
        assert_eq!(text.parse::<GgfGame>(), Ok(g));
    }
    let g = parse_ggf(&record("B[F5]W[F6]B[D3]")).unwrap();
    assert_eq!(g.pb.as_deref(), Some("me"));
    assert_eq!(g.dt.as_deref(), Some("2014-02-21 20:52:27 GMT"));
    assert_eq!(g.ti, Some(Clock::new(900.0)));
    assert_eq!(g.start, Position::START);
    assert_eq!(g.to_game(Variant::Othello).unwrap().len(), 3);
}

#[test]
fn white_to_move_and_lenient_board() {
    let p1 = Position::START.play("f5".parse().unwrap()).unwrap();
    let squares = squares_with(&p1, 'x', 'o', '.');
    let spaced: Vec<&str> = (0..8).map(|r| &squares[r * 8..r * 8 + 8]).collect();
    let text = format!("(;GM[Othello]BO[8 {} O]W[D6]B[C3];)", spaced.join(" "));
    let g = parse_ggf(&text).unwrap();
    assert_eq!(g.start, p1);
    assert_eq!(g.moves.len(), 2);
    let out = g.to_string();
    assert!(out.contains(" O]W[D6]B[C3];)"), "{out}");
    assert_eq!(parse_ggf(&out), Ok(g));
}

#[test]
fn passes_explicit_or_implied_and_unknown_tags_kept() {
    // Black a1, White b1, White to move: White must pass, Black plays c1.
    let bo = format!("*O{} O", "-".repeat(62));
    let explicit = parse_ggf(&format!("(;BO[8 {bo}]W[PA]B[C1];)")).unwrap();
    let implied = parse_ggf(&format!("(;BO[8 {bo}]B[C1];)")).unwrap();
    assert_eq!(explicit, implied);
    assert_eq!(implied.moves[0].mv, Move::Pass);
    assert!(implied.to_string().ends_with("W[PA]B[C1];)"));

    let text = format!("(;GM[Othello]KM[0.5]TB[5:00]C[a comment]TW[1:00/1]BO[8 {bo}]W[PA];)");
    let g = parse_ggf(&text).unwrap();
    let kept = vec![
        ("KM".to_string(), "0.5".to_string()),
        ("C".to_string(), "a comment".to_string()),
    ];
    assert_eq!(g.extra, kept);
    assert_eq!(
        g.tw,
        Some(Clock {
            increment: crate::format::Seconds::new(1.0).unwrap(),
            ..Clock::new(60.0)
        })
    );
    let out = g.to_string();
    assert!(
        out.starts_with("(;GM[Othello]TB[5:00]TW[1:00/1]KM[0.5]C[a comment]TY[8]"),
        "{out}"
    );
    assert_eq!(parse_ggf(&out), Ok(g));
}

#[test]
fn several_records_and_line_numbers() {
    let text = format!("{}\n\n{}\n", record("B[F5]"), record("B[F5]W[F6]"));
    let gs = parse_ggf_records(&text).unwrap();
    assert_eq!(
        gs.iter().map(|g| g.moves.len()).collect::<Vec<_>>(),
        vec![1, 2]
    );
    let bad = format!("{}\n  {}", record(""), record("B[F5]W[F5]"));
    let e = parse_ggf_records(&bad).unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(e.to_string().contains("at line 2, column "), "{e}");
    assert!(e.to_string().contains("'W[F5]'"), "{e}");
}

#[test]
fn errors_name_the_offending_text() {
    let ok = record("B[F5]");
    let cases = [
        (String::new(), "cut short before '(;'"),
        ("GM[Othello]".to_string(), "must start with '(;'"),
        (ok[..ok.len() - 2].to_string(), "not closed with ';)'"),
        (ok[..ok.len() - 1].to_string(), "not closed with ';)'"),
        (
            "(;GM[Othello".to_string(),
            "unclosed '[' in tag GM at column 3: 'GM[Othello'",
        ),
        ("(;GM".to_string(), "cut short after tag name 'GM'"),
        (
            "(;GM Othello];)".to_string(),
            "expected '[' after tag name 'GM', found ' '",
        ),
        ("(;GM[Othello]!;)".to_string(), "unexpected '!'"),
        ("(;GM[Othello];)".to_string(), "no BO tag"),
        (ok.replace("TY[8]", "TY[10]"), "TY[10] is not supported"),
        (
            ok.replace("BO[8 ", "BO[10 "),
            "board size 10 is not supported",
        ),
        (
            ok.replace("BO[8 ", "BO["),
            "BO must start with the board size 8",
        ),
        (
            ok.replace("O*---", "Q*---"),
            "unexpected character 'Q' for square d4",
        ),
        (ok.replace("--- *]", "---]"), "no side to move"),
        (ok.replace("--- *]", "--- -]"), "'-' is not a side to move"),
        (
            ok.replace("--- *]", "--- * x]"),
            "after the side to move in BO",
        ),
        (
            ok.replace("B[F5]", "B[F5/abc]"),
            "'abc' in move item 'F5/abc'",
        ),
        (ok.replace("B[F5]", "B[A1]"), "'A1' is illegal as move 1"),
        (
            ok.replace("B[F5]", "W[F5]"),
            "move 1 is out of turn: black is to move",
        ),
        (ok.replace("B[F5]", "B[PA]"), "'PA' is illegal as move 1"),
        (format!("{ok} x"), "after the GGF record's ';)'"),
    ];
    for (text, want) in cases {
        let e = parse_ggf(&text).unwrap_err();
        assert!(e.to_string().contains(want), "{text}: {e}");
    }
    // A clock alone never refuses a record: it is left out, with why.
    let g = parse_ggf(&ok.replace("TI[15:00]", "TI[15:xx]")).unwrap();
    assert_eq!(g.ti, None);
    assert_eq!(g.unread_clocks.len(), 1);
    assert!(
        g.unread_clocks[0].starts_with("TI[15:xx]: '15:xx' is not a clock"),
        "{:?}",
        g.unread_clocks
    );
    let g = parse_ggf(&ok.replace("TI[15:00]", "TI[1:00:00:00]TB[x]")).unwrap();
    assert_eq!((g.ti, g.tb, g.unread_clocks.len()), (None, None, 2));
}
