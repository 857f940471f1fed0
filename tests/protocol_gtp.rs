//! GTP 2 against the real binary: the target exchange from the notes, framing,
//! passes, scoring, clocks, GoGui's rules commands and hostile input.

mod common;

use common::Engine;
use std::time::Duration;

/// Reads one response block (up to its blank line), without the blank line.
fn response(e: &mut Engine) -> Vec<String> {
    common::gtp_response(e)
}

/// Sends `line` and returns its one-line response.
fn ask(e: &mut Engine, line: &str) -> String {
    e.send(line);
    let r = response(e);
    assert_eq!(r.len(), 1, "{line}: {r:?}");
    r[0].clone()
}

fn gtp(args: &[&str]) -> Engine {
    let mut all = vec!["--protocol", "gtp", "--threads", "1", "--hash", "8"];
    all.extend_from_slice(args);
    Engine::spawn(&all)
}

#[test]
fn target_exchange_from_the_notes() {
    // No --protocol: the first line selects GTP.
    // The moves are the evaluation's choice (the notes show f6 and e6): each
    // must be legal where it is asked, the first one played and the second not.
    let mut e = Engine::spawn(&["--threads", "1", "--level", "1"]);
    for (line, want) in [
        ("1 boardsize 8", "=1"),
        ("2 clear_board", "=2"),
        ("3 play b f5", "=3"),
    ] {
        assert_eq!(ask(&mut e, line), want, "{line}");
    }
    let white = ask(&mut e, "4 genmove w");
    let white = white.strip_prefix("=4 ").expect("a move for id 4");
    assert!(["d6", "f4", "f6"].contains(&white), "{white}");
    let black = ask(&mut e, "reg_genmove b");
    let black = black.strip_prefix("= ").expect("a move");
    let game = format!("f5{white}{black}");
    let start = mollett::Position::START;
    assert!(
        mollett::format::transcript::parse_transcript(start, &game).is_ok(),
        "{game}"
    );
    // reg_genmove played nothing: Black's move is still free, d3 is not White's.
    assert_eq!(ask(&mut e, "play w d3"), "? illegal move");
    assert_eq!(ask(&mut e, &format!("play b {black}")), "=");
    e.send("quit");
    assert_eq!(response(&mut e), ["="]);
    let (status, rest) = e.wait_exit(Duration::from_secs(2));
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}

#[test]
fn framing_ids_comments_and_case() {
    let mut e = gtp(&["--level", "2"]);
    assert_eq!(ask(&mut e, "protocol_version"), "= 2");
    assert_eq!(ask(&mut e, "17 name"), "=17 Mollett");
    assert_eq!(
        ask(&mut e, "version"),
        format!("= {}", env!("CARGO_PKG_VERSION"))
    );
    // Blank lines and comments get no answer; tabs, CR and control characters
    // are cleaned away.
    e.send("");
    e.send("   # just a comment");
    e.send_raw(b"\t3\tplay\tB\tF5 # with a comment\r\n");
    assert_eq!(response(&mut e), ["=3"]);
    assert_eq!(ask(&mut e, "play W f6"), "=");
    assert_eq!(ask(&mut e, "known_command genmove"), "= true");
    assert_eq!(ask(&mut e, "known_command frobnicate"), "= false");
    assert_eq!(ask(&mut e, "8 frobnicate"), "?8 unknown command");
    assert_eq!(ask(&mut e, "boardsize 19"), "? unacceptable size");
    assert_eq!(ask(&mut e, "boardsize 8"), "=");
    assert_eq!(ask(&mut e, "komi 6.5"), "=");
    assert_eq!(ask(&mut e, "set_game Othello"), "=");
    assert_eq!(ask(&mut e, "set_game Go"), "? unsupported game");
    e.send("list_games");
    assert_eq!(response(&mut e), ["= Othello", "Reversi", "Anti-Reversi"]);
    assert!(ask(&mut e, "play b").starts_with("? syntax error"));
    assert!(ask(&mut e, "play x e6").starts_with("? syntax error: invalid color"));
    assert!(ask(&mut e, "play b z9").starts_with("? syntax error: invalid vertex"));
    assert_eq!(ask(&mut e, "play b a1"), "? illegal move");
    e.send("list_commands");
    let list = response(&mut e);
    assert_eq!(list[0], "= protocol_version");
    for c in [
        "genmove",
        "reg_genmove",
        "time_settings",
        "time_left",
        "final_score",
        "loadsgf",
        "gogui-rules_legal_moves",
        "mollett-threads",
        "mollett-hash",
        "mollett-level",
        "mollett-seed",
    ] {
        assert!(list.iter().any(|l| l == c), "{c} missing from {list:?}");
    }
    e.send("showboard");
    let board = response(&mut e);
    assert_eq!(board[0], "= ");
    assert_eq!(board[1], "  a b c d e f g h");
    assert_eq!(board[6], "5 . . . X O X . . 5");
    assert_eq!(board[7], "6 . . . . . O . . 6");
}

#[test]
fn undo_extensions_and_rules_commands() {
    let mut e = gtp(&["--level", "2"]);
    assert_eq!(ask(&mut e, "undo"), "? cannot undo");
    assert_eq!(ask(&mut e, "play b f5"), "=");
    assert_eq!(ask(&mut e, "undo"), "=");
    assert_eq!(ask(&mut e, "gogui-rules_game_id"), "= Othello");
    assert_eq!(ask(&mut e, "gogui-rules_board_size"), "= 8");
    assert_eq!(ask(&mut e, "gogui-rules_side_to_move"), "= black");
    assert_eq!(ask(&mut e, "gogui-rules_legal_moves"), "= d3 c4 f5 e6");
    assert_eq!(ask(&mut e, "gogui-rules_final_result"), "= unknown");
    assert_eq!(ask(&mut e, "final_score"), "? cannot score");
    e.send("gogui-rules_board");
    let board = response(&mut e);
    assert_eq!(board.len(), 9);
    assert_eq!(
        board[4], "...XO...",
        "row 4 is the fifth line (rows 8 to 1)"
    );
    assert_eq!(board[5], "...OX...");
    assert_eq!(ask(&mut e, "mollett-level"), "= 2");
    assert_eq!(ask(&mut e, "mollett-level 5"), "=");
    assert_eq!(ask(&mut e, "mollett-level"), "= 5");
    assert_eq!(ask(&mut e, "mollett-threads"), "= 1");
    assert!(ask(&mut e, "mollett-threads 0").starts_with("? 0 is not a thread count"));
    assert_eq!(ask(&mut e, "mollett-hash 4"), "=");
    assert_eq!(ask(&mut e, "mollett-hash"), "= 4");
    assert!(ask(&mut e, "mollett-hash 0").starts_with("? the transposition table"));
    assert_eq!(ask(&mut e, "mollett-seed 9"), "=");
    assert_eq!(ask(&mut e, "mollett-seed"), "= 9");
}

#[test]
fn passes_are_inserted_and_finished_games_score() {
    // Black a1, White b1, White to move: White must pass; Black c1 ends the game.
    let dir = common::Scratch::new("gtp");
    let file = dir.join("pass.ggf");
    let bo = format!("8 *O{} O", "-".repeat(62));
    std::fs::write(&file, format!("(;GM[Othello]BO[{bo}];)\n")).unwrap();
    let path = file.to_string_lossy().to_string();
    let mut e = gtp(&["--level", "3"]);
    assert_eq!(ask(&mut e, &format!("loadsgf {path}")), "=");
    assert_eq!(ask(&mut e, "gogui-rules_legal_moves"), "= pass");
    // White to move: genmove for Black inserts White's forced pass.
    assert_eq!(ask(&mut e, "reg_genmove b"), "= c1");
    assert_eq!(ask(&mut e, "gogui-rules_side_to_move"), "= white");
    assert_eq!(ask(&mut e, "genmove w"), "= pass");
    assert_eq!(ask(&mut e, "undo"), "=");
    assert_eq!(ask(&mut e, "play b c1"), "=");
    assert_eq!(ask(&mut e, "final_score"), "= B+64");
    assert_eq!(ask(&mut e, "gogui-rules_final_result"), "= B+64");
    assert_eq!(ask(&mut e, "gogui-rules_legal_moves"), "=");
    assert_eq!(ask(&mut e, "genmove w"), "= pass");
    assert_eq!(ask(&mut e, "play w pass"), "? illegal move");
    // A colour not to move, with moves to make: refused.
    assert_eq!(ask(&mut e, "clear_board"), "=");
    assert_eq!(ask(&mut e, "play w d3"), "? illegal move");
    assert!(ask(&mut e, "genmove w").starts_with("? wrong color"));
    assert!(ask(&mut e, "loadsgf /nonexistent/x.ggf").starts_with("? cannot load file"));
    std::fs::write(&file, "(;GM[Othello]BO[8 ---").unwrap();
    assert!(ask(&mut e, &format!("loadsgf {path}")).starts_with("? cannot load file"));
}

#[test]
fn time_controls_bound_the_search() {
    let mut e = gtp(&["--level", "60"]);
    assert_eq!(ask(&mut e, "time_settings 10 0 0"), "=");
    assert_eq!(ask(&mut e, "time_left b 1 0"), "=");
    // 1 s left with 60 empties: soft 1/30 s, hard 0.1 s, whatever the level.
    let t = std::time::Instant::now();
    let reply = ask(&mut e, "genmove b");
    assert!(
        ["= d3", "= c4", "= f5", "= e6"].contains(&reply.as_str()),
        "{reply}"
    );
    assert!(
        t.elapsed() < Duration::from_millis(900),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(ask(&mut e, "time_settings 0 1 0"), "=", "no time limit");
}

#[test]
fn garbage_never_breaks_the_framing() {
    let mut e = gtp(&[]);
    let huge = "y".repeat(2 << 20);
    e.send(&huge);
    assert_eq!(
        response(&mut e)[0],
        "? line too long (over 1048576 bytes), ignored"
    );
    e.send_raw(b"\x00\xff\xfe\x80\n");
    assert_eq!(response(&mut e), ["? unknown command"]);
    e.send_raw(b"\x01\x02\n\n\n");
    e.send("99999999999999999999999 name");
    assert_eq!(response(&mut e), ["=99999999999999999999999 Mollett"]);
    e.send("genmove");
    assert!(response(&mut e)[0].starts_with("? syntax error"));
    if cfg!(unix) {
        let r = ask(&mut e, "loadsgf /dev/zero");
        assert_eq!(r, "? cannot load file: not a regular file");
    }
    assert_eq!(ask(&mut e, "play b f5"), "=");
    e.send("quit");
    assert_eq!(response(&mut e), ["="]);
    let (status, rest) = e.wait_exit(Duration::from_secs(2));
    assert!(status.success() && rest.is_empty());
}

#[test]
fn end_of_input_stops_a_genmove_at_once() {
    let mut e = gtp(&["--level", "60"]);
    e.send("genmove b");
    std::thread::sleep(Duration::from_millis(100));
    let (status, took, _) = e.close(Duration::from_secs(2));
    assert!(status.success());
    assert!(took < Duration::from_millis(500), "{took:?}");
}

#[test]
fn a_quit_sent_ahead_still_gets_every_answer() {
    // genmove, quit and the end of input all at once: the quit stops the search,
    // which still answers, then the quit answers.
    let mut e = gtp(&["--level", "60"]);
    e.send("7 genmove b");
    e.send("8 quit");
    let (status, took, rest) = e.close(Duration::from_secs(2));
    assert!(status.success());
    assert!(took < Duration::from_millis(500), "{took:?}");
    assert_eq!(rest.len(), 4, "{rest:?}");
    assert!(
        ["=7 d3", "=7 c4", "=7 f5", "=7 e6"].contains(&rest[0].as_str()),
        "{rest:?}"
    );
    assert_eq!(rest[1..], ["", "=8", ""]);
}
