//! The variants through the real binary: GTP's `set_game` / `list_games` /
//! `mollett-variant`, the console's `variant`, the loop's `--variant` flag with
//! NBoard, and GGF records that carry a variant.

mod common;

use common::Engine;
use mollett::format::{parse_ggf, parse_transcript};
use mollett::rules::Variant;
use mollett::{Move, Square};

/// Sends `line` and returns the GTP response's lines (without the blank line).
fn ask(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    common::gtp_response(e)
}

#[test]
fn gtp_plays_historical_reversi_and_anti() {
    let mut e = Engine::spawn(&["--protocol", "gtp", "--threads", "1", "--level", "2"]);
    assert_eq!(
        ask(&mut e, "list_games"),
        ["= Othello", "Reversi", "Anti-Reversi"]
    );
    assert_eq!(ask(&mut e, "set_game Reversi"), ["="]);
    assert_eq!(ask(&mut e, "gogui-rules_game_id"), ["= Reversi"]);
    assert_eq!(ask(&mut e, "gogui-rules_legal_moves"), ["= d4 e4 d5 e5"]);
    // Off the centre: refused, nothing changes.
    assert_eq!(ask(&mut e, "play b a1"), ["? illegal move"]);
    assert_eq!(ask(&mut e, "play b d4"), ["="]);
    // The engine's placement is one of the three centre squares left.
    let reply = ask(&mut e, "genmove w");
    assert!(
        ["= e4", "= d5", "= e5"].contains(&reply[0].as_str()),
        "{reply:?}"
    );
    let board = ask(&mut e, "showboard");
    assert!(
        board.last().unwrap().contains("discs left X 31, O 31"),
        "{board:?}"
    );
    // Play a whole game out, engine against itself.
    let mut color = "b";
    for _ in 0..140 {
        let r = ask(&mut e, &format!("genmove {color}"));
        assert!(r[0].starts_with("= "), "{r:?}");
        color = if color == "b" { "w" } else { "b" };
        if ask(&mut e, "gogui-rules_final_result")[0] != "= unknown" {
            break;
        }
    }
    let result = ask(&mut e, "final_score");
    assert!(
        result[0] == "= 0" || result[0].starts_with("= B+") || result[0].starts_with("= W+"),
        "{result:?}"
    );
    // Unknown games are refused; the extension command switches too.
    assert_eq!(ask(&mut e, "set_game Chess"), ["? unsupported game"]);
    assert_eq!(ask(&mut e, "mollett-variant"), ["= reversi"]);
    assert_eq!(ask(&mut e, "mollett-variant anti"), ["="]);
    assert_eq!(ask(&mut e, "gogui-rules_game_id"), ["= Anti-Reversi"]);
    assert_eq!(ask(&mut e, "gogui-rules_legal_moves"), ["= d3 c4 f5 e6"]);
    assert_eq!(
        ask(&mut e, "mollett-variant chess")[0].chars().next(),
        Some('?')
    );
    e.send("quit");
}

#[test]
fn console_variant_command_and_flag() {
    let mut e = Engine::spawn(&["--threads", "1", "--level", "2", "--variant", "reversi"]);
    e.send("variant");
    assert_eq!(e.line(), "variant reversi");
    e.send("play d4e5");
    e.send("play c3");
    let l = e.line();
    assert!(
        l.starts_with("error: 'c3' is illegal as move 1: illegal move c3: the first four"),
        "{l}"
    );
    // A board string with the discs left restores a Reversi position reached
    // after passes; counts that do not add up to the empties are refused.
    let start = format!("{}XO------OX{} X", "-".repeat(27), "-".repeat(27));
    e.send(&format!("setboard {start} 28 32"));
    e.send("showboard");
    let board = e.until(|l| l.starts_with("played"));
    assert!(
        board[board.len() - 2].contains("discs left X 28, O 32"),
        "{board:?}"
    );
    e.send(&format!("setboard {start} 30 31"));
    assert!(
        e.line()
            .starts_with("error: not a position of historical reversi")
    );
    // Setting confirms, as asking does.
    e.send("variant anti");
    assert_eq!(e.line(), "variant anti");
    e.send("variant");
    assert_eq!(e.line(), "variant anti");
    e.send(&format!("setboard {start} 30 30"));
    assert!(
        e.line()
            .starts_with("error: not a position of historical reversi")
    );
    e.send("variant checkers");
    assert_eq!(
        e.line(),
        "error: variant: 'checkers' is not a variant (othello, reversi or anti)"
    );
    e.send("go");
    assert!(e.line().starts_with("move "));
    e.send("quit");
}

#[test]
fn nboard_with_the_variant_flag_takes_the_guis_games_under_it() {
    // NBoard knows only Othello's start: under --variant anti its games are
    // Anti-Reversi games; the engine answers with legal moves.
    let mut e = Engine::spawn(&["--threads", "1", "--variant", "anti"]);
    e.send("nboard 2");
    assert!(e.line().starts_with("set myname"));
    e.send("set depth 2");
    assert!(e.line().starts_with("set myname"));
    e.send(&format!("set game {}", common::ggf("B[F5]W[D6]")));
    e.send("go");
    let reply = e.until(|l| l.starts_with("=== ")).pop().unwrap();
    let mv: Move = reply[4..6].to_ascii_lowercase().parse().unwrap();
    let pos = parse_transcript(Variant::Anti.start(), "f5d6")
        .unwrap()
        .position();
    assert!(pos.legal_moves().contains(&mv), "{reply}");
    e.send("quit");
}

#[test]
fn ggf_records_carry_the_variant_and_the_discs_left() {
    // Historical Reversi from the empty board, with Mollett's VA and DL tags.
    let empty = "-".repeat(64);
    let text =
        format!("(;GM[Othello]VA[reversi]DL[32 32]TY[8]BO[8 {empty} *]B[D4]W[E4]B[E5]W[D5];)");
    let g = parse_ggf(&text).unwrap();
    assert_eq!(g.variant, Some(Variant::Reversi));
    let game = g.to_game(Variant::Othello).unwrap();
    assert_eq!(game.variant(), Variant::Reversi);
    assert_eq!(game.position().discs_left, [30, 30]);
    // Written back as read.
    assert_eq!(g.to_string(), text);
    // A move off the centre in the opening is refused by the parser.
    let bad = text.replace("B[E5]", "B[A1]");
    assert!(parse_ggf(&bad).is_err());
    // GGS's anti type.
    let anti = mollett::format::GgfGame::from_game(
        &parse_transcript(Variant::Anti.start(), "f5d6").unwrap(),
    )
    .to_string();
    assert!(anti.contains("TY[8a]"), "{anti}");
    let back = parse_ggf(&anti).unwrap();
    assert_eq!(back.variant, Some(Variant::Anti));
    assert_eq!(
        back.moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
        vec![
            Move::Play(Square::new(37).unwrap()),
            Move::Play("d6".parse().unwrap())
        ]
    );
}
