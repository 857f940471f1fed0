//! NBoard protocol v2 against the real binary: the GUI's sequence, the match
//! driver's sequence, ping ordering and latency, passes, hints, analyze, and
//! hostile input.

mod common;

use common::{Engine, START_BO, ggf};
use mollett::format::{parse_ggf, parse_move_item, parse_transcript};
use mollett::{Move, Position};
use std::time::{Duration, Instant};

/// The status lines around every search, as Edax sends them (checked by
/// `status_lines_frame_every_search`); the other tests pass over them.
fn is_search_status(line: &str) -> bool {
    line == "status Mollett is thinking" || line == "status Mollett is waiting"
}

/// Starts `mollett ARGS`, reading past the search status lines.
fn spawn(args: &[&str]) -> Engine {
    Engine::spawn(args).skipping(is_search_status)
}

/// `=== MOVE[/EVAL/TIME]`: the move and eval; checks the form.
fn parse_reply(line: &str) -> (Move, Option<f64>) {
    let item = line.strip_prefix("=== ").expect("a === line");
    assert!(!item.contains(' '), "{line}");
    let m = parse_move_item(item).unwrap_or_else(|e| panic!("{line}: {e}"));
    if m.mv != Move::Pass {
        let parts: Vec<&str> = item.split('/').collect();
        assert_eq!(parts.len(), 3, "{line}");
        assert!(two_decimals(parts[1]) && two_decimals(parts[2]), "{line}");
    }
    (m.mv, m.eval)
}

/// A plain decimal with exactly two decimals, optionally negative.
fn two_decimals(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    matches!(s.split_once('.'), Some((a, b)) if digits(a) && digits(b) && b.len() == 2)
}

fn is_nodestats(line: &str) -> bool {
    let f: Vec<&str> = line.split(' ').collect();
    f.len() == 3 && f[0] == "nodestats" && f[1].parse::<u64>().is_ok() && two_decimals(f[2])
}

/// `search PV EVAL 0 DEPTH`: (first move, depth field); checks the form.
fn parse_hint(line: &str) -> (String, String) {
    let f: Vec<&str> = line.split(' ').collect();
    assert_eq!(f.len(), 5, "{line}");
    assert_eq!((f[0], f[3]), ("search", "0"), "{line}");
    assert!(two_decimals(f[2]), "{line}");
    for m in f[1].split('-') {
        assert!(m.parse::<Move>().is_ok() && m == m.to_uppercase(), "{line}");
    }
    (f[1][..2].to_string(), f[4].to_string())
}

/// Hint lines grouped by depth (each group closed by its `nodestats`), until
/// the group of depth `last`.
fn hint_groups(e: &mut Engine, last: &str) -> Vec<(String, Vec<String>)> {
    let mut groups = Vec::new();
    let mut group: Vec<(String, String)> = Vec::new();
    loop {
        let l = e.line();
        if is_nodestats(&l) && group.is_empty() {
            // A progress count in the middle of a long depth.
            continue;
        }
        if is_nodestats(&l) {
            let depth = group[0].1.clone();
            assert!(group.iter().all(|(_, d)| *d == depth), "{group:?}");
            let moves = group.drain(..).map(|(m, _)| m).collect();
            let done = depth == last;
            groups.push((depth, moves));
            if done {
                return groups;
            }
        } else {
            group.push(parse_hint(&l));
        }
    }
}

fn position_of(moves: &str) -> Position {
    parse_transcript(Position::START, moves).unwrap().position()
}

/// The legal squares of `pos` in upper case, sorted.
fn legal_upper(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.upper()).collect();
    v.sort();
    v
}

#[test]
fn gui_sequence_from_the_notes() {
    let mut e = spawn(&["--threads", "1"]);
    e.send("nboard 2");
    e.send(&format!("set game {}", ggf("B[F5]W[F6]B[D3]")));
    e.send("set depth 4");
    e.send("ping 7");
    e.send("go");
    assert_eq!(e.line(), "set myname Mollett-21");
    assert_eq!(e.line(), "set myname Mollett-4");
    assert_eq!(e.line(), "pong 7");
    let lines = e.until(|l| l.starts_with("==="));
    let (reply, stats) = lines.split_last().unwrap();
    assert!(stats.iter().all(|l| is_nodestats(l)), "{lines:?}");
    let (mv, eval) = parse_reply(reply);
    assert!(eval.is_some());
    assert!(position_of("f5f6d3").legal_moves().contains(&mv), "{reply}");
    // NBoard echoes the move, then asks for hints behind a new ping.
    e.send(&format!("move {}", &reply[4..]));
    e.send("ping 8");
    e.send("hint 4");
    assert_eq!(e.line(), "pong 8");
    let groups = hint_groups(&mut e, "4");
    let depths: Vec<&str> = groups.iter().map(|g| g.0.as_str()).collect();
    assert_eq!(depths, ["1", "2", "3", "4"]);
    let after = position_of(&format!("f5f6d3{}", mv));
    let want = 4.min(after.legal_moves().len());
    for (_, moves) in &groups {
        assert_eq!(moves.len(), want, "{groups:?}");
        for m in moves {
            assert!(legal_upper(&after).contains(m), "{m}");
        }
    }
    e.send("ping 9");
    assert_eq!(e.line(), "pong 9");
    let (status, _, rest) = e.close(Duration::from_secs(2));
    assert!(status.success());
    assert!(rest.is_empty(), "{rest:?}");
}

/// A record as NBoard's headless match driver writes it (novello
/// `MutableGame.toGgf`): `TY[8r<discs>]`, the board in rows of 8 separated by
/// spaces, and the moves as `Move8x8` prints them (`C4/-3.73/0.02`, `PA`).
/// The clock is one minute, which bounds every move's solve well within the
/// test's patience.
fn novello_ggf(start: &Position, moves: &[String]) -> String {
    let squares = mollett::format::write_board_string(start);
    let rows: Vec<String> = squares.as_bytes()[..64]
        .chunks(8)
        .map(|r| {
            r.iter()
                .map(|&c| match c {
                    b'X' => '*',
                    b'O' => 'O',
                    _ => '-',
                })
                .collect()
        })
        .collect();
    let side = if start.side == mollett::Color::Black {
        '*'
    } else {
        'O'
    };
    let discs = 64 - start.board.empties();
    let mut text = format!(
        "(;GM[Othello]PC[headless]PB[Black:2]PW[White:2]RE[?]TI[1:00]TY[8r{discs}]BO[8 {} {side}]",
        rows.join(" ")
    );
    let mut color = start.side;
    for m in moves {
        let tag = if color == mollett::Color::Black {
            'B'
        } else {
            'W'
        };
        text.push_str(&format!("{tag}[{m}]"));
        color = color.opposite();
    }
    text.push_str(";)");
    text
}

#[test]
fn match_driver_plays_a_whole_game_without_nboard() {
    // NBoard's own headless driver (novello `NBoardSyncEngine`), exactly: `ping 1`
    // before anything, `clear` at the game's start, then per move `ping N`
    // (waiting for `pong N`), the whole record with `TY[8r4]`, `set depth D`
    // when it changed, `go`, reading up to the first `===` line.
    let mut e = spawn(&["--threads", "1", "--hash", "8"]);
    e.send("ping 1");
    assert_eq!(e.line(), "pong 1");
    e.send("clear");
    let start = Position::START;
    let mut moves: Vec<String> = Vec::new();
    let mut game = mollett::rules::game::Game::new(start);
    let mut passes = 0;
    let mut ping = 2;
    let mut last_depth = None;
    while !game.is_over() {
        e.send(&format!("ping {ping}"));
        assert_eq!(
            e.until(|l| l.starts_with("pong")).last().unwrap(),
            &format!("pong {ping}")
        );
        let record = novello_ggf(&start, &moves);
        assert!(record.contains("TY[8r4]BO[8 -------- -------- -------- ---O*--- ---*O--- "));
        e.send(&format!("set game {record}"));
        if last_depth != Some(2) {
            e.send("set depth 2");
            last_depth = Some(2);
        }
        e.send("go");
        let lines = e.until(|l| l.starts_with("==="));
        assert!(
            lines.iter().all(|l| !l.starts_with("status set game")),
            "the driver's record was refused: {lines:?}"
        );
        let reply = lines.last().unwrap();
        let (mv, eval) = parse_reply(reply);
        let side = game.position().side;
        if mv == Move::Pass {
            passes += 1;
            assert_eq!(reply, "=== PA");
        } else {
            // The driver multiplies by 100: the eval is in discs.
            assert!(eval.unwrap().abs() <= 64.0);
        }
        // A move for the side to move of the record just sent, never another's.
        game.play(mv)
            .unwrap_or_else(|err| panic!("{mv} for {side:?}: {err}"));
        moves.push(reply.strip_prefix("=== ").unwrap().to_string());
        ping += 1;
    }
    assert!(game.len() >= 58, "{} moves, {passes} passes", game.len());
    e.send("quit");
    let (status, rest) = e.wait_exit(Duration::from_secs(2));
    // Only the status after the last answer is left unread.
    assert!(
        status.success() && rest.iter().all(|l| is_search_status(l)),
        "{rest:?}"
    );
}

#[test]
fn a_refused_set_game_leaves_no_position_to_answer() {
    let mut e = spawn(&["--threads", "1"]);
    e.send("ping 1");
    e.send(&format!("set game {}", ggf("B[F5]")));
    e.send("set depth 2");
    e.send("go");
    let lines = e.until(|l| l.starts_with("==="));
    let (mv, _) = parse_reply(lines.last().unwrap());
    assert!(position_of("f5").play(mv).is_ok(), "{lines:?}");
    // A komi game (and an illegal move) is refused: the next requests answer a
    // status line and give no move, never one for the old position's side.
    for bad in [
        ggf("B[F5]W[F6]").replace("TY[8]", "TY[8k]"),
        ggf("B[F5]W[A1]"),
    ] {
        e.send(&format!("set game {bad}"));
        for (k, request) in ["go", "hint 2", "analyze", "move D3"].iter().enumerate() {
            e.send(&format!("ping {}", 10 + k));
            e.send(request);
            e.send(&format!("ping {}", 20 + k));
            let lines = e.until(|l| l == format!("pong {}", 20 + k));
            let word = request.split(' ').next().unwrap();
            let body: Vec<&String> = lines
                .iter()
                .filter(|l| !l.starts_with("pong") && !l.starts_with("status set game"))
                .collect();
            assert_eq!(body.len(), 1, "{request}: {lines:?}");
            assert!(
                body[0].starts_with(&format!("status {word}"))
                    && body[0].contains("no position, the last set game was refused"),
                "{request}: {lines:?}"
            );
        }
    }
    // An accepted record ends it.
    e.send(&format!("set game {}", ggf("B[F5]W[F6]")));
    e.send("ping 30");
    e.send("go");
    let lines = e.until(|l| l.starts_with("==="));
    let (mv, _) = parse_reply(lines.last().unwrap());
    assert!(position_of("f5f6").play(mv).is_ok(), "{lines:?}");
}

#[test]
fn a_bad_clock_alone_never_refuses_a_record() {
    let mut e = spawn(&["--threads", "1"]);
    e.send("nboard 2");
    e.send("set depth 2");
    e.send(&format!(
        "set game (;GM[Othello]PC[NBoard]TI[99999999999999999999]TY[8]BO[{START_BO}]B[F5];)"
    ));
    e.send("go");
    let lines = e.until(|l| l.starts_with("==="));
    assert!(
        lines.iter().any(|l| l.starts_with(
            "status set game: clock TI[99999999999999999999]: '99999999999999999999' is not a clock"
        ) && l.ends_with("; the game is played without it")),
        "{lines:?}"
    );
    let (mv, _) = parse_reply(lines.last().unwrap());
    assert!(position_of("f5").play(mv).is_ok(), "{lines:?}");
}

#[test]
fn forced_pass_replies_pa_and_the_echo_is_accepted() {
    // Black a1, White b1, White to move: White must pass, then Black c1 ends it.
    let bo = format!("8 *O{} O", "-".repeat(62));
    let mut e = spawn(&["--threads", "1"]);
    e.send("nboard 2");
    e.send(&format!(
        "set game (;GM[Othello]PC[NBoard]TI[5:00]TY[8]BO[{bo}];)"
    ));
    e.send("ping 1");
    e.send("go");
    assert_eq!(e.until(|l| l.starts_with("===")).last().unwrap(), "=== PA");
    e.send("move PA/0.00");
    e.send("ping 2");
    e.send("go");
    let lines = e.until(|l| l.starts_with("==="));
    assert!(lines.contains(&"pong 2".to_string()), "{lines:?}");
    assert_eq!(
        parse_reply(lines.last().unwrap()),
        ("c1".parse().unwrap(), Some(64.0))
    );
    // Hints while passing start with PA, the score from the passer's side.
    e.send(&format!("set game (;GM[Othello]BO[{bo}];)"));
    e.send("set depth 2");
    e.send("ping 3");
    e.send("hint 4");
    let lines = e.until(|l| l.starts_with("search") && l.ends_with(" 2"));
    assert!(lines.contains(&"pong 3".to_string()), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "search PA-C1 -64.00 0 2");
}

#[test]
fn ping_mid_search_answers_within_50_ms_with_nothing_stale_after() {
    let mut e = spawn(&["--threads", "1", "--hash", "16"]);
    e.send("nboard 2");
    e.send("set depth 60");
    e.send("ping 1");
    assert_eq!(e.until(|l| l == "pong 1").len(), 3);
    let mut worst = Duration::ZERO;
    for (k, request) in ["hint 64", "go", "analyze", "hint 2"].iter().enumerate() {
        e.send(request);
        // Let the search get deep (a solve from the start never ends).
        std::thread::sleep(Duration::from_millis(150));
        let pong = format!("pong {}", 10 + k);
        let sent = Instant::now();
        e.send(&format!("ping {}", 10 + k));
        let before = e.until(|l| l == pong);
        let took = sent.elapsed();
        worst = worst.max(took);
        for l in &before[..before.len() - 1] {
            assert!(
                l.starts_with("search ")
                    || is_nodestats(l)
                    || l.starts_with("=== ")
                    || l.starts_with("analysis "),
                "{request}: {l}"
            );
        }
        if *request == "go" {
            assert!(before.iter().any(|l| l.starts_with("=== ")), "{before:?}");
        }
        // Nothing of the aborted request comes after the pong.
        e.send(&format!("ping {}", 20 + k));
        assert_eq!(e.line(), format!("pong {}", 20 + k));
    }
    println!("worst ping latency {worst:?}");
    assert!(
        worst < Duration::from_millis(50),
        "worst ping latency {worst:?}"
    );
}

#[test]
fn analyze_scores_every_position_from_the_end() {
    let mut e = spawn(&["--threads", "1"]);
    e.send("nboard 2");
    e.send("set depth 3");
    e.send(&format!("set game {}", ggf("B[F5]W[F6]B[E6]W[F4]")));
    e.send("ping 1");
    e.send("analyze");
    let lines = e.until(|l| l.starts_with("nodestats"));
    let body = &lines[3..lines.len() - 1];
    let plies: Vec<&str> = body
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert!(
                f.len() == 3 && f[0] == "analysis" && two_decimals(f[2]),
                "{l}"
            );
            f[1]
        })
        .collect();
    assert_eq!(plies, ["4", "3", "2", "1", "0"]);
    // From Black's side, whoever moves: White passes, Black takes c1 and wins
    // 64-0, so every position of the game is +64 for Black.
    let bo = format!("8 *O{} O", "-".repeat(62));
    e.send(&format!("set game (;GM[Othello]TY[8]BO[{bo}]W[PA]B[C1];)"));
    e.send("ping 2");
    e.send("analyze");
    let lines = e.until(|l| l.starts_with("nodestats"));
    assert_eq!(
        lines[1..lines.len() - 1],
        ["analysis 2 64.00", "analysis 1 64.00", "analysis 0 64.00"],
        "{lines:?}"
    );
}

#[test]
fn learn_says_there_is_no_book() {
    let mut e = spawn(&["--threads", "1"]);
    e.send("nboard 2");
    e.send("ping 1");
    e.send("learn");
    assert_eq!(e.line(), "set myname Mollett-21");
    assert_eq!(e.line(), "pong 1");
    assert_eq!(e.line(), "learned");
    assert!(e.line().starts_with("status "));
}

#[test]
fn garbage_gets_status_lines_and_leaves_the_game_alone() {
    let mut e = spawn(&["--threads", "1"]);
    e.send("nboard 2");
    e.send("set depth 1");
    let record = ggf("B[F5]W[D6]");
    e.send(&format!("set game {record}"));
    e.send("ping 1");
    assert_eq!(e.until(|l| l == "pong 1").len(), 3);
    let huge = "x".repeat(2 << 20);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"\n".to_vec(), ""),
        (b"   \t \n".to_vec(), ""),
        (format!("{huge}\n").into_bytes(), "status line too long"),
        (
            b"\x00\x01\xff\xfe\x80 garbage\n".to_vec(),
            "status unknown command",
        ),
        (
            b"frobnicate 1 2 3\n".to_vec(),
            "status unknown command 'frobnicate' ignored",
        ),
        (
            b"set depth 0\n".to_vec(),
            "status set depth: '0' is not a depth",
        ),
        (b"set depth -5\n".to_vec(), "status set depth: "),
        (b"set depth 999999\n".to_vec(), "status set depth: "),
        (b"move Z9\n".to_vec(), "status move: "),
        (b"move A1\n".to_vec(), "status move A1: "),
        (b"move F5/x/y\n".to_vec(), "status move: "),
        (b"hint 0\n".to_vec(), "status hint: "),
        (b"hint -3\n".to_vec(), "status hint: "),
        (b"set contempt lots\n".to_vec(), "status set contempt: "),
    ];
    for (k, (bytes, want)) in cases.iter().enumerate() {
        e.send_raw(bytes);
        e.send(&format!("ping {}", 100 + k));
        let lines = e.until(|l| l.starts_with("pong"));
        assert_eq!(lines.last().unwrap(), &format!("pong {}", 100 + k));
        if want.is_empty() {
            assert_eq!(lines.len(), 1, "{lines:?}");
        } else {
            assert_eq!(lines.len(), 2, "{lines:?}");
            assert!(
                lines[0].starts_with(want),
                "{:?}: {}",
                bytes.get(..20),
                lines[0]
            );
        }
    }
    // The game is still f5 d6: the hints name exactly its moves.
    e.send("hint 64");
    let groups = hint_groups(&mut e, "1");
    let mut got = groups[0].1.clone();
    got.sort();
    assert_eq!(got, legal_upper(&position_of("f5d6")));
    // Bad records: one status line each (and no position afterwards: see
    // `a_refused_set_game_leaves_no_position_to_answer`).
    for (k, bytes) in [
        format!("set game {}\n", &record[..40]).into_bytes(),
        b"set game\n".to_vec(),
        b"set game (;GM[Chess]TY[10]BO[8 x];)\r\n".to_vec(),
    ]
    .iter()
    .enumerate()
    {
        e.send_raw(bytes);
        e.send(&format!("ping {}", 200 + k));
        let lines = e.until(|l| l.starts_with("pong"));
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("status set game: "), "{lines:?}");
    }
}

#[test]
fn end_of_input_ends_the_process_at_once() {
    let mut e = spawn(&["--threads", "1"]);
    e.send("nboard 2");
    e.send("set depth 60");
    e.send("hint 64");
    std::thread::sleep(Duration::from_millis(100));
    let (status, took, _) = e.close(Duration::from_secs(2));
    assert!(status.success());
    assert!(took < Duration::from_millis(500), "{took:?}");
}

#[test]
fn a_panicking_search_is_reported_and_the_engine_goes_on() {
    let mut e = spawn(&["--threads", "1", "--inject-panic"]);
    e.send("ping 1");
    e.send(&format!("set game {}", ggf("B[F5]")));
    e.send("set depth 2");
    e.send("go");
    let lines = e.until(|l| l.starts_with("==="));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("status search failed: injected fault")),
        "{lines:?}"
    );
    e.send("ping 2");
    e.send("go");
    let lines = e.until(|l| l.starts_with("==="));
    assert_eq!(lines[0], "pong 2");
    assert!(lines.iter().all(|l| !l.starts_with("status")), "{lines:?}");
    let (status, _, _) = e.close(Duration::from_secs(2));
    assert!(status.success());
}

#[test]
fn a_closed_stdout_ends_the_process_quietly() {
    let mut e = Engine::spawn_with_closed_stdout(&["--threads", "1"]);
    e.send("nboard 2");
    e.send("ping 1");
    let (status, _) = e.wait_exit(Duration::from_secs(2));
    assert!(status.success(), "{status:?}");
    // Only the note that `nboard 2` chose the dialect.
    let err = e.stderr_text();
    assert!(
        err.lines()
            .all(|l| l.starts_with("mollett: speaking nboard")),
        "{err}"
    );
}

#[test]
fn the_record_nboard_writes_round_trips_through_set_game() {
    // A human move with an empty eval and a long float time, the engine's own
    // echoed move, and a clock: all accepted as NBoard writes them.
    let text = format!(
        "(;GM[Othello]PC[NBoard]DT[2026-11-29 13:58:49 GMT]PB[]PW[]RE[?]TI[5:00]TY[8]BO[{START_BO}]B[F5/0.00]W[D6//15.309000000000001];)"
    );
    assert!(parse_ggf(&text).is_ok());
    let mut e = spawn(&["--threads", "1"]);
    e.send("nboard 2");
    e.send(&format!("set game {text}"));
    e.send("set depth 3");
    e.send("move C3/0.00");
    e.send("ping 4");
    e.send("hint 64");
    let lines = e.until(|l| l == "pong 4");
    assert_eq!(
        lines,
        ["set myname Mollett-21", "set myname Mollett-3", "pong 4"]
    );
    let groups = hint_groups(&mut e, "3");
    let mut got = groups[2].1.clone();
    got.sort();
    assert_eq!(got, legal_upper(&position_of("f5d6c3")));
}

#[test]
fn status_lines_frame_every_search_and_nodestats_come_every_second() {
    // As Edax: `status ... thinking` before a search, `status ... waiting`
    // after its answer; during a search longer than a second, nodestats lines
    // with a growing node count (also in the middle of an iteration), and the
    // final count once.
    let mut e = Engine::spawn(&["--threads", "1", "--hash", "16"]);
    e.send("nboard 2");
    e.send(&format!("set game {}", ggf("B[F5]W[F6]B[E6]W[F4]")));
    e.send("set depth 60");
    e.send("ping 1");
    e.send("go");
    assert_eq!(e.until(|l| l == "pong 1").len(), 3);
    assert_eq!(e.line(), "status Mollett is thinking");
    let start = Instant::now();
    let mut counts = Vec::new();
    while start.elapsed() < Duration::from_millis(3500) {
        if let Some(l) = e.line_within(Duration::from_millis(100)) {
            assert!(is_nodestats(&l), "{l}");
            counts.push(l.split(' ').nth(1).unwrap().parse::<u64>().unwrap());
        }
    }
    assert!(counts.len() >= 2, "{counts:?}");
    assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
    e.send("ping 2");
    let lines = e.until(|l| l == "pong 2");
    let n = lines.len();
    assert!(n >= 3, "{lines:?}");
    assert!(lines[n - 3].starts_with("=== "), "{lines:?}");
    assert_eq!(lines[n - 2], "status Mollett is waiting");
    assert!(lines[..n - 3].iter().all(|l| is_nodestats(l)), "{lines:?}");
    let nodestats: Vec<&String> = lines.iter().filter(|l| is_nodestats(l)).collect();
    assert!(
        nodestats.windows(2).all(|w| w[0] != w[1]),
        "no nodestats twice: {lines:?}"
    );
}
