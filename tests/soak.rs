//! Soak: many fast games of Mollett against itself through the real binary,
//! with interruptions at random moments, checking every reply's form and
//! every move's legality against a mirror of the game. Ignored by default:
//!
//! ```sh
//! cargo test --release --test soak -- --ignored --nocapture
//! MOLLETT_SOAK_GAMES=100 cargo test --release --test soak -- --ignored --nocapture
//! ```
//!
//! Each run prints its figures: games, commands sent, errors (malformed or
//! unexpected replies, illegal moves), crashes (the process died) and hangs (no
//! expected line within [`common::PATIENCE`]); it fails unless all three are 0.
//! After a crash or a hang the engine is restarted and the soak goes on.

mod common;

use common::{Engine, PATIENCE, START_BO};
use mollett::format::{GgfGame, parse_move_item};
use mollett::rng::Rng;
use mollett::{Color, Move, Position};
use std::fmt;
use std::time::{Duration, Instant};

/// Games per dialect unless `MOLLETT_SOAK_GAMES` says otherwise.
const DEFAULT_GAMES: usize = 1000;
/// Errors printed in full (the rest are only counted).
const SHOWN_ERRORS: usize = 10;

fn games() -> usize {
    std::env::var("MOLLETT_SOAK_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_GAMES)
}

/// Why a game was abandoned.
enum Failure {
    /// A reply had the wrong form, or a move was illegal.
    Error(String),
    /// The process ended.
    Crash(String),
    /// An expected line did not come in time.
    Hang(String),
}

type Step<T> = Result<T, Failure>;

#[derive(Default)]
struct Figures {
    games: usize,
    moves: usize,
    /// Moves asked for with an interruption or a request queued behind them.
    interrupted: usize,
    commands: usize,
    errors: usize,
    crashes: usize,
    hangs: usize,
}

impl fmt::Display for Figures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games {}, moves {} ({} interrupted), commands {}, errors {}, crashes {}, hangs {}",
            self.games,
            self.moves,
            self.interrupted,
            self.commands,
            self.errors,
            self.crashes,
            self.hangs
        )
    }
}

/// The engine process with the command count and failure detection.
struct Session {
    args: Vec<String>,
    e: Engine,
    commands: usize,
}

impl Session {
    fn new(args: &[&str]) -> Session {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        Session {
            e: Engine::spawn(&refs),
            args,
            commands: 0,
        }
    }

    fn restart(&mut self) {
        let refs: Vec<&str> = self.args.iter().map(String::as_str).collect();
        self.e = Engine::spawn(&refs);
    }

    fn send(&mut self, line: &str) {
        self.commands += 1;
        self.e.send(line);
    }

    /// The next line, or a crash or hang. NBoard's status lines around every
    /// search (checked in `tests/protocol_nboard.rs`) are passed over.
    fn line(&mut self, waiting_for: &str) -> Step<String> {
        let line = loop {
            match self.e.line_within(PATIENCE) {
                Some(l)
                    if l == "status Mollett is thinking" || l == "status Mollett is waiting" => {}
                other => break other,
            }
        };
        match line {
            Some(l) => Ok(l),
            None => match self.e.exited() {
                Some(status) => Err(Failure::Crash(format!("{status} awaiting {waiting_for}"))),
                None => Err(Failure::Hang(format!("awaiting {waiting_for}"))),
            },
        }
    }
}

fn error<T>(msg: String) -> Step<T> {
    Err(Failure::Error(msg))
}

/// Checks that `mv` is legal in `pos` (a pass only when forced).
fn legal(pos: &Position, mv: Move, what: &str) -> Step<()> {
    match pos.play(mv) {
        Ok(_) => Ok(()),
        Err(e) => error(format!("{what}: {mv} is illegal: {e}")),
    }
}

/// Plays a few seeded random moves, for varied games.
fn random_opening(rng: &mut Rng, pos: &Position) -> Vec<Move> {
    let mut pos = *pos;
    let mut moves = Vec::new();
    for _ in 0..rng.below(8) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len() as u64) as usize];
        pos = pos.play(mv).expect("legal");
        moves.push(mv);
    }
    moves
}

/// Runs `games` games with `play_game`, restarting the engine after a crash
/// or a hang, and returns the figures.
fn soak(
    name: &str,
    args: &[&str],
    mut play_game: impl FnMut(&mut Session, &mut Rng, &mut Figures) -> Step<()>,
) -> Figures {
    let mut s = Session::new(args);
    let mut rng = Rng::new(0x50a4);
    let mut fig = Figures::default();
    let t = Instant::now();
    for g in 0..games() {
        let outcome = play_game(&mut s, &mut rng, &mut fig);
        fig.games += 1;
        let (kind, msg) = match outcome {
            Ok(()) => continue,
            Err(Failure::Error(m)) => {
                fig.errors += 1;
                ("error", m)
            }
            Err(Failure::Crash(m)) => {
                fig.crashes += 1;
                ("crash", m)
            }
            Err(Failure::Hang(m)) => {
                fig.hangs += 1;
                ("hang", m)
            }
        };
        if fig.errors + fig.crashes + fig.hangs <= SHOWN_ERRORS {
            println!("{name} game {g}: {kind}: {msg}");
        }
        s.restart();
    }
    fig.commands = s.commands;
    println!(
        "{name} soak: {fig}, wall time {:.1} s",
        t.elapsed().as_secs_f64()
    );
    fig
}

/// Whether `l` is a well-formed `nodestats N T` line.
fn is_nodestats(l: &str) -> bool {
    let f: Vec<&str> = l.split(' ').collect();
    f.len() == 3
        && f[0] == "nodestats"
        && f[1].parse::<u64>().is_ok()
        && f[2].parse::<f64>().is_ok()
}

/// Checks a `search PV EVAL 0 DEPTH` hint line: every PV move legal in turn.
fn check_hint(l: &str, pos: &Position) -> Step<()> {
    let f: Vec<&str> = l.split(' ').collect();
    if f.len() != 5 || f[0] != "search" || f[3] != "0" || f[2].parse::<f64>().is_err() {
        return error(format!("malformed hint {l:?}"));
    }
    let mut p = *pos;
    for m in f[1].split('-') {
        let Ok(mv) = m.parse::<Move>() else {
            return error(format!("bad move in hint {l:?}"));
        };
        legal(&p, mv, l)?;
        p = p.play(mv).expect("checked");
    }
    Ok(())
}

/// Reads NBoard lines up to the one for which `last` holds; every line before
/// must be nodestats, a hint (legal in `pos`) or the move (returned, legal).
fn nboard_until(
    s: &mut Session,
    pos: &Position,
    last: &dyn Fn(&str) -> bool,
) -> Step<Option<Move>> {
    let mut played = None;
    loop {
        let l = s.line("an NBoard reply")?;
        if let Some(item) = l.strip_prefix("=== ") {
            let mv = match parse_move_item(item) {
                Ok(m) => m.mv,
                Err(e) => return error(format!("malformed {l:?}: {e}")),
            };
            legal(pos, mv, &l)?;
            if played.replace(mv).is_some() {
                return error(format!("a second move {l:?}"));
            }
        } else if l.starts_with("search ") {
            check_hint(&l, pos)?;
        } else if !is_nodestats(&l) && !last(&l) {
            return error(format!("unexpected {l:?}"));
        }
        if last(&l) {
            return Ok(played);
        }
    }
}

/// One NBoard game: each move is a `go`, sometimes interrupted by a `ping`,
/// overtaken by a `set game`, or preceded by a `hint`.
fn nboard_game(s: &mut Session, rng: &mut Rng, fig: &mut Figures) -> Step<()> {
    let depth = 1 + rng.below(4);
    s.send(&format!("set depth {depth}"));
    let want = format!("set myname Mollett-{depth}");
    if s.line("set myname")? != want {
        return error(format!("no {want:?}"));
    }
    let mut record = GgfGame::new(Position::START);
    s.send(&format!("set game (;GM[Othello]TY[8]BO[{START_BO}];)"));
    let mut pos = Position::START;
    for mv in random_opening(rng, &pos) {
        s.send(&format!("move {}", mv.upper()));
        pos = pos.play(mv).expect("legal");
        record.moves.push(mv.into());
    }
    let mut ping = 0u64;
    while !pos.board.is_game_over() {
        let is_move = |l: &str| l.starts_with("=== ");
        let action = rng.below(10);
        fig.interrupted += usize::from(action <= 3);
        let mv = match action {
            0 | 1 => {
                // A ping at a random moment of the search: the move (if the
                // search got that far) comes first, then the pong.
                s.send("go");
                std::thread::sleep(Duration::from_micros(rng.below(3000)));
                ping += 1;
                let pong = format!("pong {ping}");
                s.send(&format!("ping {ping}"));
                nboard_until(s, &pos, &|l: &str| l == pong)?
            }
            2 => {
                // A set game (of the same game) while the search runs: queued,
                // applied after the move.
                s.send("go");
                std::thread::sleep(Duration::from_micros(rng.below(3000)));
                s.send(&format!("set game {record}"));
                nboard_until(s, &pos, &is_move)?
            }
            3 => {
                s.send(&format!("hint {}", 1 + rng.below(4)));
                s.send("go");
                nboard_until(s, &pos, &is_move)?
            }
            _ => {
                s.send("go");
                nboard_until(s, &pos, &is_move)?
            }
        };
        let Some(mv) = mv else {
            return error("a go without a move".to_string());
        };
        s.send(&format!("move {}", mv.upper()));
        pos = pos.play(mv).expect("checked");
        record.moves.push(mv.into());
        fig.moves += 1;
    }
    // A finished game: go is refused in the documented form.
    s.send("go");
    let l = s.line("the refusal of go")?;
    if l != "status go: the game is over, there is no move" {
        return error(format!("after the end: {l:?}"));
    }
    Ok(())
}

#[test]
#[ignore = "soak: minutes; run with --ignored"]
fn nboard_soak() {
    let fig = soak(
        "nboard",
        &["--protocol", "nboard", "--threads", "1", "--hash", "16"],
        nboard_game,
    );
    assert_eq!((fig.errors, fig.crashes, fig.hangs), (0, 0, 0), "{fig}");
}

/// Reads one GTP response block; checks its id and success.
fn gtp_response(s: &mut Session, id: u64) -> Step<Vec<String>> {
    let mut block = Vec::new();
    loop {
        let l = s.line("a GTP response")?;
        if l.is_empty() {
            break;
        }
        block.push(l);
    }
    let prefix = format!("={id}");
    match block.first() {
        Some(f) if *f == prefix || f.starts_with(&format!("{prefix} ")) => Ok(block),
        _ => error(format!("response to {id}: {block:?}")),
    }
}

/// The one-line result of a GTP success block.
fn gtp_value(block: &[String], id: u64) -> String {
    block[0][format!("={id}").len()..].trim().to_string()
}

fn gtp_color(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// The GTP result of a finished game, from Black's point of view.
fn result_text(pos: &Position) -> String {
    match pos.final_score_black() {
        0 => "0".to_string(),
        n if n > 0 => format!("B+{n}"),
        n => format!("W+{}", -n),
    }
}

/// One GTP game: genmove for both sides, with random `play`s, `undo`s,
/// clocks, and queries queued behind a running genmove.
fn gtp_game(s: &mut Session, rng: &mut Rng, fig: &mut Figures) -> Step<()> {
    let mut id = 0u64;
    let ask = |s: &mut Session, id: &mut u64, cmd: &str| -> Step<Vec<String>> {
        *id += 1;
        s.send(&format!("{id} {cmd}"));
        let mut b = gtp_response(s, *id)?;
        b[0] = gtp_value(&b, *id);
        Ok(b)
    };
    ask(s, &mut id, "clear_board")?;
    ask(s, &mut id, &format!("mollett-level {}", 1 + rng.below(4)))?;
    let mut pos = Position::START;
    for mv in random_opening(rng, &pos) {
        ask(s, &mut id, &format!("play {} {mv}", gtp_color(pos.side)))?;
        pos = pos.play(mv).expect("legal");
    }
    while !pos.board.is_game_over() {
        let color = gtp_color(pos.side);
        let mv = match rng.below(10) {
            0 => {
                // A move from outside, as an opponent's.
                let legal = pos.legal_moves();
                let mv = legal[rng.below(legal.len() as u64) as usize];
                ask(s, &mut id, &format!("play {color} {mv}"))?;
                mv
            }
            1 if !pos.board.must_pass() => {
                // Queries sent while the genmove searches: answered after it,
                // in order, about the position after its move.
                fig.interrupted += 1;
                s.send(&format!("{} genmove {color}", id + 1));
                s.send(&format!("{} name", id + 2));
                s.send(&format!("{} gogui-rules_legal_moves", id + 3));
                let g = gtp_response(s, id + 1)?;
                let mv = parse_gtp_move(&gtp_value(&g, id + 1))?;
                legal(&pos, mv, "genmove")?;
                let name = gtp_response(s, id + 2)?;
                if gtp_value(&name, id + 2) != "Mollett" {
                    return error(format!("name: {name:?}"));
                }
                let list = gtp_response(s, id + 3)?;
                let after = pos.play(mv).expect("checked");
                let want: Vec<String> = after.legal_moves().iter().map(|m| m.to_string()).collect();
                let got = gtp_value(&list, id + 3);
                let mut got: Vec<String> = got.split_whitespace().map(str::to_string).collect();
                got.sort();
                let mut want_sorted = want.clone();
                want_sorted.sort();
                if got != want_sorted && !(after.board.must_pass() && got == ["pass"]) {
                    return error(format!("legal moves {got:?}, want {want:?}"));
                }
                id += 3;
                mv
            }
            2 if !pos.board.must_pass() => {
                let mv = parse_gtp_move(&ask(s, &mut id, &format!("genmove {color}"))?[0])?;
                legal(&pos, mv, "genmove")?;
                // Take it back and play it again.
                ask(s, &mut id, "undo")?;
                ask(s, &mut id, &format!("play {color} {mv}"))?;
                mv
            }
            3 => {
                ask(
                    s,
                    &mut id,
                    &format!("time_left {color} {} 0", 1 + rng.below(10)),
                )?;
                parse_gtp_move(&ask(s, &mut id, &format!("genmove {color}"))?[0])?
            }
            _ => parse_gtp_move(&ask(s, &mut id, &format!("genmove {color}"))?[0])?,
        };
        legal(&pos, mv, "move")?;
        pos = pos.play(mv).expect("checked");
        fig.moves += 1;
    }
    let score = ask(s, &mut id, "final_score")?;
    if score[0] != result_text(&pos) {
        return error(format!("final_score {score:?}, want {}", result_text(&pos)));
    }
    Ok(())
}

fn parse_gtp_move(text: &str) -> Step<Move> {
    text.parse()
        .or_else(|_| error(format!("not a move: {text:?}")))
}

#[test]
#[ignore = "soak: minutes; run with --ignored"]
fn gtp_soak() {
    let fig = soak(
        "gtp",
        &["--protocol", "gtp", "--threads", "1", "--hash", "16"],
        gtp_game,
    );
    assert_eq!((fig.errors, fig.crashes, fig.hangs), (0, 0, 0), "{fig}");
}
