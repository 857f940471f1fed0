//! The console against the real binary, through pipes: answers only, one per
//! line; errors as `error: ...` with the state kept; scripts get every answer.

mod common;

use common::Engine;
use mollett::rules::Othello;
use std::time::{Duration, Instant};

/// FFO position #1: Black to move, G8 wins by 18, H1 by 12, H7 by 6.
const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

/// The position after `moves` from the start.
fn after(moves: &str) -> mollett::Position {
    mollett::format::parse_transcript(mollett::Position::START, moves)
        .unwrap()
        .position()
}

/// Runs a whole script through a pipe (stdin closed at its end) and returns
/// the output.
fn script(args: &[&str], input: &str) -> String {
    let (out, err) = common::run_script(args, input);
    assert!(err.is_empty(), "{err}");
    out
}

#[test]
fn a_piped_session_prints_only_answers() {
    let out = script(
        &["--threads", "1"],
        "level 3\nf5d6\nplay c3\nshowboard\nundo\nredo\nlevel\nthreads\nhash\nseed 7\nseed\neval\n",
    );
    let want = [
        // Each setting confirms what it set, as asking shows it.
        "level 3",
        "  a b c d e f g h",
        "1 . . . . . . . . 1",
        "2 . . . . . . . . 2",
        "3 . . X * . * . . 3",
        "4 . . . X X * . . 4",
        "5 . . . O X X * . 5",
        "6 . . . O . . . . 6",
        "7 . . . . . . . . 7",
        "8 . . . . . . . . 8",
        "  a b c d e f g h",
        "O (white) to move; X 5, O 2, empty 57; moves d3 f3 f4 g5",
        "played (3): f5 d6 [c3]",
        "level 3",
        "threads 1",
        "hash 64",
        "seed 7",
        "seed 7",
        // The static evaluation of the default (learned) evaluation.
        &format!(
            "eval {:+.2}",
            mollett::eval::to_discs(mollett::eval::evaluate(
                mollett::eval::EvalKind::default(),
                &after("f5d6c3").board
            ))
        ),
    ]
    .map(|l| format!("{l}\n"))
    .concat();
    assert_eq!(out, want);
}

#[test]
fn go_plays_and_reports_one_line() {
    let out = script(
        &["--threads", "1", "--level", "3"],
        "f5d6c3\ngo\nshowboard\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    let f: Vec<&str> = lines[0].split(' ').collect();
    // What the library's search at level 3 (seed 0, one thread) finds.
    let level: mollett::search::Level = "3".parse().unwrap();
    let req = mollett::search::SearchRequest::<Othello>::new(after("f5d6c3").board, level);
    let tt = mollett::tt::TranspositionTable::new(64).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let r = mollett::search::search(&req, &tt, &stop, &mut |_| {});
    let best = r.best.unwrap().to_string();
    let score = format!("{:+.2}", mollett::eval::to_discs(r.score));
    assert_eq!(f[..2], ["move", best.as_str()], "{out}");
    assert_eq!(f[2..6], ["score", score.as_str(), "depth", "3"], "{out}");
    assert_eq!((f[6], f[8], f[10]), ("nodes", "time", "pv"), "{out}");
    assert_eq!(f[11], best);
    // The move was played: Black is to move.
    assert!(lines[11].starts_with("X (black) to move"), "{out}");
    assert_eq!(lines[12], format!("played (4): f5 d6 c3 [{best}]"), "{out}");
}

#[test]
fn solve_and_hints_are_exact_near_the_end() {
    let out = script(
        &["--threads", "1", "--level", "20"],
        &format!("setboard {FFO1}\nsolve\nhint 3\n"),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines[0].starts_with("move g8 score +18 depth exact nodes "),
        "{out}"
    );
    assert!(
        lines[1].starts_with("hint g8 score +18 depth exact pv g8 "),
        "{out}"
    );
    assert!(
        lines[2].starts_with("hint h1 score +12 depth exact pv h1 "),
        "{out}"
    );
    assert!(
        lines[3].starts_with("hint h7 score +6 depth exact pv h7 "),
        "{out}"
    );
}

#[test]
fn errors_are_one_line_and_keep_the_state() {
    let huge = "z".repeat(2 << 20);
    let input = format!(
        "f5\nfrobnicate\nplay f5f5\nplay zz\nundo 3\nhint 0\nlevel 99\nthreads 0\nhash 0\nsetboard xyz\n\n{huge}\n\u{1}\u{7f}\nredo\nnew\nundo\nf5\nshowboard\n"
    );
    let out = script(&["--threads", "1"], &input);
    let lines: Vec<&str> = out.lines().collect();
    let errors = [
        "error: unknown command 'frobnicate' (type help for the list)",
        "error: 'f5' is illegal as move 1: illegal move f5: the square is taken at column 1: 'f5'; nothing was played",
        "error: play: 'zz' is not a list of moves",
        "error: undo: unexpected argument '3'",
        "error: hint: N must be 1 or more",
        "error: level: '99' is not a level (1..60, easy, medium or hard)",
        "error: 0 is not a thread count (1..1024)",
        "error: the transposition table needs at least 1 MB",
        "error: setboard: unexpected character 'y' for square b1 of the board string at column 2: 'y'",
        "error: line too long (over 1048576 bytes), ignored",
        "error: unknown command '\\u{1}\\u{7f}' (type help for the list)",
        "error: nothing to redo",
        "error: nothing to undo",
    ];
    assert_eq!(lines[..errors.len()], errors, "{out}");
    // After all that: a new game with f5 played.
    assert_eq!(lines[errors.len() + 6], "6 . . . * . * . . 6", "{out}");
}

#[test]
fn help_lists_every_command_from_the_table() {
    let out = script(&[], "help\nhelp hint\nhelp nope\n");
    let lines: Vec<&str> = out.lines().collect();
    for (line, spec) in lines.iter().zip(mollett::protocol::console::COMMANDS) {
        assert!(line.starts_with(spec.name), "{line}");
    }
    let n = mollett::protocol::console::COMMANDS.len() + 1;
    assert!(lines[n].starts_with("hint [N]"), "{out}");
    assert_eq!(lines[n + 1], "error: unknown command 'nope'");
}

#[test]
fn end_of_input_lets_the_running_command_answer() {
    // No quit: the script's last command still answers before the exit.
    let out = script(&["--threads", "1", "--level", "6"], "go");
    assert!(out.starts_with("move "), "{out}");
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn stop_interrupts_and_the_console_goes_on() {
    let mut e = Engine::spawn(&["--threads", "1", "--level", "60"]);
    e.send("solve");
    // A solve from the start cannot finish, and the console says so.
    let note = e.line();
    assert!(
        note.starts_with("note: an exact solve from 60 empties will not finish"),
        "{note}"
    );
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    e.send("stop");
    let answer = e.line();
    assert!(
        t.elapsed() < Duration::from_millis(200),
        "{:?}",
        t.elapsed()
    );
    assert!(answer.starts_with("move "), "{answer}");
    e.send("level");
    assert_eq!(e.line(), "level 60");
    e.send("quit");
    let (status, rest) = e.wait_exit(Duration::from_secs(2));
    assert!(status.success() && rest.is_empty());
}

#[test]
fn protocol_commands_switch_dialects_from_the_console() {
    // Only lines no person types switch, before any console command, and the
    // switch is said on stderr.
    let (out, err) = common::run_script(&["--threads", "1"], "protocol_version\n2 name\n");
    assert_eq!(out, "= 2\n\n=2 Mollett\n\n");
    assert_eq!(
        err,
        "mollett: speaking gtp from here on (selected by the line 'protocol_version'; --protocol chooses one)\n"
    );
    let (out, err) = common::run_script(&["--threads", "1"], "ping 5\nset depth 2\n");
    assert_eq!(out, "pong 5\nset myname Mollett-2\n");
    assert!(err.contains("speaking nboard"), "{err}");
    // Words a person may type are console errors, and a console in use stays one.
    let out = script(
        &["--threads", "1"],
        "name\nversion\nclear\nping\nhelp go\nnboard 2\nping 5\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    for (line, word) in lines.iter().zip(["name", "version", "clear", "ping"]) {
        assert_eq!(
            *line,
            format!("error: unknown command '{word}' (type help for the list)")
        );
    }
    assert!(lines[4].starts_with("go "), "{out}");
    assert!(
        lines[5].starts_with("error: unknown command 'nboard'"),
        "{out}"
    );
    assert!(
        lines[6].starts_with("error: unknown command 'ping'"),
        "{out}"
    );
    // Forced: no switching.
    let out = script(&["--protocol", "console"], "protocol_version\n");
    assert_eq!(
        out,
        "error: unknown command 'protocol_version' (type help for the list)\n"
    );
}

#[test]
fn a_forced_pass_is_played_unsearched_and_said_so() {
    // Black a1, White b1, White to move: White has no move.
    let board = format!("XO{} O", "-".repeat(62));
    let out = script(
        &["--threads", "1", "--level", "2"],
        &format!("setboard {board}\ngo\nshowboard\n"),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "move pass (forced: no legal move) nodes 0 time 0.00",
        "{out}"
    );
    assert!(lines[11].starts_with("X (black) to move"), "{out}");
    assert_eq!(lines[12], "played (1): [pass]", "{out}");
}

#[test]
fn a_solve_shows_its_selective_passes_apart() {
    // 20 empties (the first of benches/data/accuracy-20.obf, A6 wins by 2): the
    // selective passes to the end come before the proof, each named by its
    // confidence, never as a second "depth 20".
    let board = "--OOXX----OOOX--X-OOXOXXXXXOXXOXOOXOOOXX--OOOXXX--OOOO-X--O--O-- X";
    let out = script(
        &["--threads", "1", "--level", "60", "--verbose"],
        &format!("setboard {board}\ngo\n"),
    );
    let depths: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info "))
        .map(|l| l.split(' ').nth(2).unwrap())
        .collect();
    assert!(depths.contains(&"20@73%"), "{out}");
    assert_eq!(depths.last(), Some(&"exact"), "{out}");
    let mut seen = depths.clone();
    seen.dedup();
    assert_eq!(seen, depths, "each depth once: {out}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("move a6 score +2 depth exact"),
        "{out}"
    );
}

#[test]
fn a_new_level_keeps_the_command_line_s_evaluation() {
    let out = script(
        &["--threads", "1", "--eval", "mobility"],
        "f5\neval\nlevel 15\neval\n",
    );
    let evals: Vec<&str> = out.lines().filter(|l| l.starts_with("eval")).collect();
    assert_eq!(evals.len(), 2, "{out}");
    assert_eq!(evals[0], evals[1], "{out}");
    let learned = script(&["--threads", "1"], "f5\neval\n");
    assert_ne!(learned.lines().next(), Some(evals[0]), "{out}{learned}");
}

#[test]
fn mode_lets_the_engine_answer_and_play_itself() {
    // Mode 0: the engine plays White, so it answers f5 by itself.
    let out = script(
        &["--threads", "1", "--level", "2"],
        "mode\nmode 0\nmode\nf5\nshowboard\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    // Setting the mode confirms it, as asking does.
    assert_eq!(
        lines[..3],
        [
            "mode 3 (the engine plays neither side: go asks it to move)",
            "mode 0 (the engine plays white)",
            "mode 0 (the engine plays white)"
        ],
        "{out}"
    );
    assert!(lines[3].starts_with("move "), "{out}");
    assert!(lines[15].starts_with("played (2): f5 ["), "{out}");
    // Mode 2: a whole game, then the commands after it.
    let out = script(&["--threads", "1", "--level", "1"], "mode 2\nshowboard\n");
    let moves = out.lines().filter(|l| l.starts_with("move ")).count();
    assert!(moves >= 58, "{out}");
    assert!(out.lines().any(|l| l.starts_with("game over: ")), "{out}");
}

#[test]
fn games_are_saved_and_loaded_as_ggf() {
    let dir = common::Scratch::new("console-ggf");
    let file = dir.join("game.ggf");
    let file = file.to_str().unwrap();
    let out = script(
        &["--threads", "1"],
        &format!("f5d6c3\nsave {file}\nnew\nload {file}\nshowboard\nload {file}.none\n"),
    );
    let record = std::fs::read_to_string(file).unwrap();
    assert!(
        record.starts_with("(;GM[Othello]PC[Mollett console]RE[?]TY[8]BO[8 ")
            && record.ends_with("B[F5]W[D6]B[C3];)\n"),
        "{record}"
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[11], "played (3): f5 d6 [c3]", "{out}");
    assert!(lines[12].starts_with("error: load: cannot read "), "{out}");
    // NBoard's own records load too (clock and evals are ignored).
    std::fs::write(file, common::ggf("B[F5/0.00]W[F6//1.5]")).unwrap();
    let out = script(&["--threads", "1"], &format!("load {file}\nshowboard\n"));
    assert!(out.contains("played (2): f5 [f6]"), "{out}");
    // Only the first record is read: a broken second one does not matter. An
    // Anti-Reversi record makes the console's variant anti.
    let anti = common::ggf("B[F5]W[F6]").replace("TY[8]", "TY[8a]");
    std::fs::write(file, format!("{anti}\n(;GM[Othello]BO[nonsense\n")).unwrap();
    let out = script(&["--threads", "1"], &format!("load {file}\nvariant\n"));
    assert_eq!(out.lines().next(), Some("variant anti"), "{out}");
    // A save replaces a game record, never a file of another kind.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let notes = notes.to_str().unwrap();
    let out = script(
        &["--threads", "1"],
        &format!("f5\nsave {notes}\nsave /dev/null\n"),
    );
    assert_eq!(std::fs::read_to_string(notes).unwrap(), "my notes\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        format!("error: save: {notes} exists and is not a GGF game record; not replaced"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("error: save: /dev/null exists"),
        "{out}"
    );
}

#[test]
fn time_clock_and_progress_lines() {
    // With no level the loop has a default time per move; a level turns it off.
    let out = script(
        &["--threads", "1"],
        "time\nlevel 8\ntime\ntime 0.5\ntime\nclock\nclock 1:00/2\nclock\n",
    );
    assert_eq!(
        out,
        "time 5.00 (the default while no level is set)\nlevel 8\ntime off (the level alone limits a move)\n\
         time 0.50\ntime 0.50\nclock off\nclock 1:00/2 (black 1:00.0 left, white 1:00.0 left)\n\
         clock 1:00/2 (black 1:00.0 left, white 1:00.0 left)\n"
    );
    // --move-time bounds a deep level's move; --verbose prints a progress
    // line per completed depth through the pipe, and the answer's nodes and
    // time are the whole search's.
    let t = Instant::now();
    let out = script(
        &[
            "--threads",
            "1",
            "--level",
            "40",
            "--move-time",
            "0.5",
            "--verbose",
        ],
        "f5d6c3d3c4\ngo\n",
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    let lines: Vec<&str> = out.lines().collect();
    let info: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("info "))
        .collect();
    assert!(info.len() >= 3, "{out}");
    for l in &info {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(
            (f[1], f[3], f[5], f[7], f[9], f[11]),
            ("depth", "score", "nodes", "nps", "time", "pv"),
            "{l}"
        );
    }
    let last = lines.last().unwrap();
    assert!(last.starts_with("move "), "{out}");
    let field = |l: &str, name: &str| {
        let f: Vec<&str> = l.split(' ').collect();
        let i = f.iter().position(|w| *w == name).unwrap();
        f[i + 1].parse::<f64>().unwrap()
    };
    assert!(
        field(last, "nodes") >= field(info.last().unwrap(), "nodes"),
        "{out}"
    );
    assert!(field(last, "time") <= 0.5, "{out}");
    // A clock times the engine's move and is charged for it. The clock shows
    // tenths, so the game is long enough for the move to take more than a
    // twentieth of a second (with two seconds a move could take 0.05 s and
    // leave "0:02.0" showing).
    let out = script(
        &["--threads", "1", "--level", "60"],
        "clock 0:20\nf5d6c3d3c4\ngo\nclock\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "clock 0:20 (black 0:20.0 left, white 0:20.0 left)"
    );
    assert!(lines[1].starts_with("move "), "{out}");
    assert!(
        lines[2].starts_with("clock 0:20 (black 0:20.0 left, white 0:1"),
        "{out}"
    );
    assert!(field(lines[1], "time") > 0.1, "{out}");
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_the_search_keeps_the_game_and_twice_quits() {
    let mut e = Engine::spawn(&["--threads", "1", "--level", "60"]);
    let pid = e.pid() as i32;
    // An answer first: the loop (and its Ctrl-C handler) is up.
    e.send("level");
    assert_eq!(e.line(), "level 60");
    e.send("f5");
    e.send("go");
    assert!(e.line().starts_with("note: an exact solve from 59 empties"));
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signals a child process this test started.
    unsafe { libc::kill(pid, libc::SIGINT) };
    let answer = e.line();
    assert!(answer.starts_with("move "), "{answer}");
    e.send("showboard");
    let board = e.until(|l| l.starts_with("played "));
    assert!(
        board.last().unwrap().starts_with("played (2): f5 ["),
        "{board:?}"
    );
    assert!(e.exited().is_none(), "one Ctrl-C does not quit");
    for _ in 0..2 {
        // SAFETY: as above.
        unsafe { libc::kill(pid, libc::SIGINT) };
        std::thread::sleep(Duration::from_millis(100));
    }
    let (status, _) = e.wait_exit(Duration::from_secs(2));
    assert_eq!(status.code(), Some(130));
}

/// At a terminal (a pseudo-terminal here) the console greets, and prompts
/// whenever it waits for a command; through a pipe it never prompts.
#[cfg(target_os = "linux")]
#[test]
fn a_terminal_gets_a_prompt_whenever_the_engine_waits() {
    use std::io::{Read, Write};
    use std::os::fd::FromRawFd;
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two descriptors into the given integers; the
    // name, termios and winsize pointers may be null.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty");
    // SAFETY: both descriptors were just opened and are owned here alone.
    let (master, slave) = unsafe {
        (
            std::fs::File::from_raw_fd(master),
            std::fs::File::from_raw_fd(slave),
        )
    };
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(["--threads", "1", "--book", "off", "--level", "2"])
        .stdin(slave.try_clone().unwrap())
        .stdout(slave.try_clone().unwrap())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    drop(slave);
    let mut writer = master.try_clone().unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut master = master;
        let mut buf = [0u8; 4096];
        // The pty reports an error once the child has gone.
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&all).into_owned()
    });
    std::thread::sleep(Duration::from_millis(300));
    writer.write_all(b"seed 3\ngo\n").unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    writer.write_all(b"quit\n").unwrap();
    let status = child.wait().unwrap();
    assert!(status.success());
    drop(writer);
    let text = reader.join().unwrap();
    assert!(text.starts_with("Mollett "), "{text}");
    // One prompt at the start, one after `seed 3`, one after the move: three
    // before `quit`.
    assert!(text.matches("> ").count() >= 3, "{text}");
    assert!(text.contains("seed 3"), "{text}");
    assert!(text.contains("move "), "{text}");
    // Through a pipe: no prompt at all.
    let out = script(&["--threads", "1", "--level", "2"], "seed 3\ngo\n");
    assert!(!out.contains("> "), "{out}");
}
