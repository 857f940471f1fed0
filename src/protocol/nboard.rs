//! NBoard protocol version 2 (see PROTOCOL.md for the contract).
//!
//! [`parse`] turns a line into a [`Command`] (a pure function); the handler runs
//! it against the engine and writes the replies. Every reply line starts with
//! its keyword (`set myname`, `pong`, `status`, `===`, `search`, `nodestats`,
//! `analysis`, `learned`); evals are discs from the mover's point of view (an
//! `analysis` line's from Black's, as NBoard draws them) with
//! two decimals; times and node counts are plain decimals.

use super::{Ctx, Flow, Handler};
use crate::board::{Color, Move};
use crate::engine::time::ggf_clock;
use crate::engine::{Event, Job, MAX_THREADS};
use crate::eval::to_discs;
use crate::format::{GgfGame, GgfMove, parse_ggf, parse_move_item};
use crate::rules::Position;
use crate::rules::Variant;
use crate::search::PvLine;
use crate::search::ScoreKind;
use std::fmt;
use std::time::{Duration, Instant};

/// Progress `nodestats` lines come about this often during a search, also in
/// the middle of a long iteration, so that NBoard's node counter moves.
const STATS_INTERVAL: Duration = Duration::from_secs(1);

/// The status while a request is searched, as Edax words it.
const THINKING: &str = "status Mollett is thinking";

/// The status once a request has answered, as Edax words it.
const WAITING: &str = "status Mollett is waiting";

/// One NBoard command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `nboard N`: enter NBoard mode (any version is accepted).
    NBoard,
    /// `set depth N`: the level (1..=60).
    SetDepth(u32),
    /// `set game <GGF>`: replace the game.
    SetGame(Box<GgfGame>),
    /// `set contempt C`: how draws count for Black, taken as centi-discs (NBoard
    /// sends -100, 0 or 100; only the sign is reliable).
    SetContempt(i32),
    /// `set threads N`: the search threads (1..=`MAX_THREADS`), a Mollett
    /// extension (NBoard itself sends no thread count).
    SetThreads(usize),
    /// `set book on|off|randomness D`: the use of the opening book, a Mollett
    /// extension.
    SetBook(crate::protocol::book_setting::BookSetting),
    /// `move <item>`: append a move.
    Move(GgfMove),
    /// `ping K`: finish earlier work, then `pong K` (K echoed as given).
    Ping(String),
    /// `go`: choose a move (not played).
    Go,
    /// `hint N`: the best N moves, depth after depth.
    Hint(usize),
    /// `learn`: add the game to the book (the engine's book is read-only: the
    /// answer says how to learn games with `mollett book learn`).
    Learn,
    /// `analyze`: score every position of the game.
    Analyze,
    /// `stop`: stop searching (the reader thread already did).
    Stop,
    /// `quit`: exit.
    Quit,
    /// `clear`: sent by NBoard's match driver; ignored.
    Clear,
    /// A blank line: ignored.
    Blank,
}

/// Why a line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The first word is no command.
    Unknown(String),
    /// A known command with a bad argument.
    Bad {
        /// The command, e.g. `set depth`.
        command: &'static str,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unknown(w) => write!(f, "unknown command '{w}' ignored"),
            Error::Bad { command, message } => write!(f, "{command}: {message}"),
        }
    }
}

/// The first word of `s` and the rest after the spaces that follow it.
fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    (&s[..end], s[end..].trim_start())
}

/// Whether a command selects NBoard when no dialect is chosen yet: `ping N`
/// with a number (NBoard's headless driver starts so, without `nboard`) or a
/// `set` command.
pub(crate) fn selects_nboard(first: &str, rest: &[&str]) -> bool {
    match first {
        "ping" => matches!(rest, [n] if n.parse::<u64>().is_ok()),
        "set" => rest.first().is_some_and(|w| {
            let w = w.to_ascii_lowercase();
            matches!(w.as_str(), "game" | "depth" | "contempt" | "threads")
        }),
        _ => false,
    }
}

/// Reads one NBoard command line.
pub fn parse(line: &str) -> Result<Command, Error> {
    let bad = |command, message: String| Err(Error::Bad { command, message });
    let (word, rest) = split_word(line);
    let rest = rest.trim_end();
    match word.to_ascii_lowercase().as_str() {
        "" => Ok(Command::Blank),
        "nboard" => Ok(Command::NBoard),
        "set" => {
            let (what, arg) = split_word(rest);
            match what.to_ascii_lowercase().as_str() {
                "depth" => match arg.parse::<u32>() {
                    Ok(n @ 1..=60) => Ok(Command::SetDepth(n)),
                    _ => bad("set depth", format!("'{arg}' is not a depth (1..60)")),
                },
                "game" => match parse_ggf(arg) {
                    Ok(g) => Ok(Command::SetGame(Box::new(g))),
                    Err(e) => bad("set game", format!("{e}; the game is unchanged")),
                },
                "contempt" => match arg.replace(',', ".").parse::<f64>() {
                    Ok(c) if c.is_finite() => Ok(Command::SetContempt(c.clamp(-1e4, 1e4) as i32)),
                    _ => bad("set contempt", format!("'{arg}' is not a number")),
                },
                "threads" => match arg.parse::<usize>() {
                    Ok(n @ 1..=MAX_THREADS) => Ok(Command::SetThreads(n)),
                    _ => bad(
                        "set threads",
                        format!("'{arg}' is not a thread count (1..{MAX_THREADS})"),
                    ),
                },
                "book" => match crate::protocol::book_setting::parse_book_setting(arg) {
                    Ok(s) => Ok(Command::SetBook(s)),
                    Err(e) => bad("set book", e),
                },
                _ => Err(Error::Unknown(format!("set {what}"))),
            }
        }
        "move" => match parse_move_item(rest) {
            Ok(m) => Ok(Command::Move(m)),
            Err(e) => bad("move", format!("{e}; the game is unchanged")),
        },
        "ping" => Ok(Command::Ping(rest.to_string())),
        "go" => Ok(Command::Go),
        "hint" => match rest.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(Command::Hint(n)),
            _ => bad(
                "hint",
                format!("'{rest}' is not a number of moves (1 or more)"),
            ),
        },
        "learn" => Ok(Command::Learn),
        "analyze" => Ok(Command::Analyze),
        "stop" => Ok(Command::Stop),
        "quit" => Ok(Command::Quit),
        "clear" => Ok(Command::Clear),
        _ => Err(Error::Unknown(word.to_string())),
    }
}

/// An eval in discs with two decimals: `-1.50`, `0.00`.
pub fn format_eval(score: i32) -> String {
    format!("{:.2}", to_discs(score))
}

/// A PV without spaces, moves in upper case joined by `-`: `F5-D6-C3`, `PA-E6`.
pub fn format_pv(pv: &[Move]) -> String {
    pv.iter().map(|m| m.upper()).collect::<Vec<_>>().join("-")
}

/// The depth field of a hint: the midgame depth, `73%` (a selective search to
/// the end of the game at that confidence), `100%` (exact) or `100%W`
/// (win/loss/draw).
pub fn format_depth(kind: ScoreKind) -> String {
    match kind {
        ScoreKind::Midgame(d) => d.to_string(),
        ScoreKind::SelectiveEnd { selectivity, .. } => format!("{}%", selectivity.percent()),
        ScoreKind::Exact => "100%".to_string(),
        ScoreKind::WinLossDraw => "100%W".to_string(),
        ScoreKind::Book { depth } => depth.to_string(),
    }
}

/// `book PV EVAL GAMES DEPTH`: a book move as NBoard shows it (a book hint).
pub fn format_book_hint(m: &crate::book::BookMove) -> String {
    format!(
        "book {} {} {} {}",
        format_pv(&[Move::Play(m.square)]),
        format_eval(i32::from(m.score)),
        m.games.total(),
        m.depth
    )
}

/// `search PV EVAL 0 DEPTH`.
pub fn format_hint(line: &PvLine, kind: ScoreKind) -> String {
    format!(
        "search {} {} 0 {}",
        format_pv(&line.pv),
        format_eval(line.score),
        format_depth(kind)
    )
}

/// `nodestats NODES SECONDS`.
pub fn format_nodestats(nodes: u64, elapsed: Duration) -> String {
    format!("nodestats {nodes} {:.2}", elapsed.as_secs_f64())
}

/// The reply to `go`: `=== F5/-1.50/0.91`, `=== F5//0.91` for a move given
/// without a search (no eval: nothing was searched), or `=== PA` for a pass.
pub fn format_move(mv: Move, score: Option<i32>, elapsed: Duration) -> String {
    match mv {
        Move::Pass => "=== PA".to_string(),
        Move::Play(_) => format!(
            "=== {}/{}/{:.2}",
            mv.upper(),
            score.map_or_else(String::new, format_eval),
            elapsed.as_secs_f64()
        ),
    }
}

/// What the running job is, for its replies.
#[derive(Clone, Debug)]
enum Running {
    Go {
        since: Instant,
        position: Position,
    },
    Hint,
    /// The side to move at each ply of the analysed game, so that the
    /// `analysis` lines can be given from Black's side, as NBoard draws them.
    Analyze {
        sides: Vec<Color>,
    },
}

/// The NBoard dialect's state: a GGF mirror of the game (for the clocks and
/// move times), the running request, and why the last `set game` was refused
/// (until one is accepted, there is no position to search).
#[derive(Debug)]
pub(crate) struct NBoard {
    record: GgfGame,
    running: Option<Running>,
    last_stats: Instant,
    started: Instant,
    last_nodes: Option<u64>,
    refused: Option<String>,
}

impl Default for NBoard {
    fn default() -> NBoard {
        NBoard {
            record: GgfGame::new(Position::START),
            running: None,
            last_stats: Instant::now(),
            started: Instant::now(),
            last_nodes: None,
            refused: None,
        }
    }
}

/// An eval for the side to move, turned to Black's side.
fn to_black(side: Color, score: i32) -> i32 {
    match side {
        Color::Black => score,
        Color::White => -score,
    }
}

impl NBoard {
    /// `set myname Mollett-<level>`: one token, as NBoard keeps only one.
    fn myname(cx: &mut Ctx) {
        let level = cx.engine.settings().level;
        cx.out.line(&format!("set myname Mollett-{level}"));
    }

    /// The mirror, rebuilt from the engine's game if another dialect changed it.
    fn record(&mut self, cx: &Ctx) -> &mut GgfGame {
        if self.record.to_game(Variant::Othello).ok().as_ref() != Some(cx.engine.game()) {
            self.record = GgfGame::from_game(cx.engine.game());
        }
        &mut self.record
    }

    fn start(&mut self, job: Job, running: Running, cx: &mut Ctx) {
        match cx.engine.start(job) {
            Ok(_) => {
                self.running = Some(running);
                self.started = Instant::now();
                self.last_stats = self.started;
                self.last_nodes = None;
                cx.out.line(THINKING);
            }
            Err(e) => cx.out.line(&format!("status cannot search: {e}")),
        }
    }

    /// A `nodestats` line, remembered so that the same count is not repeated.
    fn stats(&mut self, nodes: u64, elapsed: Duration, cx: &mut Ctx) {
        self.last_stats = Instant::now();
        self.last_nodes = Some(nodes);
        cx.out.line(&format_nodestats(nodes, elapsed));
    }

    /// After a refused `set game` the position NBoard means is unknown: a
    /// request answers one `status` line instead of searching the old one.
    fn refuse_request(&self, request: &str, cx: &mut Ctx) -> bool {
        let Some(why) = &self.refused else {
            return false;
        };
        cx.out.line(&format!(
            "status {request}: no position, the last set game was refused ({why}); send a game first"
        ));
        true
    }

    fn go(&mut self, cx: &mut Ctx) {
        if self.refuse_request("go", cx) {
            return;
        }
        let position = cx.engine.position();
        if position.is_game_over() {
            cx.out.line("status go: the game is over, there is no move");
            return;
        }
        if position.must_pass() {
            cx.out.line("=== PA");
            return;
        }
        let clock = ggf_clock(self.record(cx), position.side);
        let since = Instant::now();
        self.start(Job::Go { clock }, Running::Go { since, position }, cx);
    }

    fn exec(&mut self, cmd: Command, cx: &mut Ctx) -> Flow {
        match cmd {
            Command::NBoard | Command::SetDepth(_) => {
                if let Command::SetDepth(n) = cmd {
                    cx.engine.set_level(crate::search::Level::number(n));
                }
                Self::myname(cx);
            }
            Command::SetGame(g) => match g.to_game(cx.engine.settings().variant) {
                Ok(game) => {
                    for why in &g.unread_clocks {
                        cx.out.line(&format!(
                            "status set game: clock {why}; the game is played without it"
                        ));
                    }
                    cx.engine.set_game(game);
                    self.record = *g;
                    self.refused = None;
                }
                Err((i, e)) => {
                    let why = format!("move {} is illegal ({e})", i + 1);
                    cx.out
                        .line(&format!("status set game: {why}; the game is unchanged"));
                    self.refused = Some(why);
                }
            },
            Command::SetContempt(c) => cx.engine.set_contempt(c),
            Command::SetThreads(n) => {
                if let Err(e) = cx.engine.set_threads(n) {
                    cx.out.line(&format!("status set threads: {e}"));
                }
            }
            Command::SetBook(s) => {
                if let Err(e) = crate::protocol::book_setting::apply_book_setting(cx.engine, s) {
                    cx.out.line(&format!("status set book: {e}"));
                }
            }
            Command::Move(item) => {
                if self.refuse_request(&format!("move {item}"), cx) {
                    return Flow::Continue;
                }
                self.record(cx);
                match cx.engine.play(item.mv) {
                    Ok(()) => self.record.moves.push(item),
                    Err(e) => cx
                        .out
                        .line(&format!("status move {item}: {e}; the game is unchanged")),
                }
            }
            Command::Ping(k) if k.is_empty() => cx.out.line("pong"),
            Command::Ping(k) => cx.out.line(&format!("pong {k}")),
            Command::Go => self.go(cx),
            Command::Hint(n) => {
                if self.refuse_request("hint", cx) {
                    return Flow::Continue;
                }
                if cx.engine.game().is_over() {
                    cx.out.line("status hint: the game is over");
                } else {
                    self.start(Job::Hint { lines: n }, Running::Hint, cx);
                }
            }
            Command::Learn => {
                cx.out.line("learned");
                cx.out
                    .line("status learn: the book is not changed from here; add games to a book file with mollett book learn");
            }
            Command::Analyze => {
                if !self.refuse_request("analyze", cx) {
                    let sides = cx
                        .engine
                        .game()
                        .positions()
                        .iter()
                        .map(|p| p.side)
                        .collect();
                    self.start(Job::Analyze, Running::Analyze { sides }, cx);
                }
            }
            Command::Quit => return Flow::Quit,
            Command::Stop | Command::Clear | Command::Blank => {}
        }
        Flow::Continue
    }
}

impl Handler for NBoard {
    fn line(&mut self, line: &str, cx: &mut Ctx) -> Flow {
        match parse(line) {
            Ok(cmd) => self.exec(cmd, cx),
            Err(e) => {
                cx.out.line(&format!("status {e}"));
                if let Error::Bad {
                    command: "set game",
                    message,
                } = e
                {
                    let why = message.trim_end_matches("; the game is unchanged");
                    self.refused = Some(why.to_string());
                }
                Flow::Continue
            }
        }
    }

    fn event(&mut self, event: &Event, cx: &mut Ctx) -> Flow {
        match event {
            Event::Iteration { result, .. } => {
                if self.last_stats.elapsed() >= STATS_INTERVAL {
                    self.stats(result.nodes, result.elapsed, cx);
                }
            }
            Event::Hint { iteration, .. } => {
                for line in &iteration.lines {
                    cx.out.line(&format_hint(line, iteration.kind));
                }
                self.stats(iteration.nodes, iteration.elapsed, cx);
            }
            Event::BookHints { moves, .. } => {
                for m in moves {
                    cx.out.line(&format_book_hint(m));
                }
            }
            Event::Analysis { ply, score, .. } => {
                let side = match &self.running {
                    Some(Running::Analyze { sides }) => sides.get(*ply).copied(),
                    _ => None,
                };
                let black = to_black(side.unwrap_or(Color::Black), *score);
                cx.out
                    .line(&format!("analysis {ply} {}", format_eval(black)));
            }
            Event::Finished(f) => {
                // A hint has given its node count with every depth already, and
                // a count already given is not repeated.
                if !matches!(self.running, Some(Running::Hint)) && self.last_nodes != Some(f.nodes)
                {
                    self.stats(f.nodes, f.elapsed, cx);
                }
                if let Some(Running::Go { since, .. }) = self.running {
                    let answer = f.result.as_ref().and_then(|r| {
                        let score = r.searched().then_some(r.score);
                        r.best.map(|b| (b, score))
                    });
                    match answer {
                        Some((mv, score)) => cx.out.line(&format_move(mv, score, since.elapsed())),
                        None => cx.out.line("status go: the game is over, there is no move"),
                    }
                }
                self.running = None;
                cx.out.line(WAITING);
            }
            Event::Failed { message, .. } => {
                cx.out.line(&format!("status search failed: {message}"));
                // A move still goes back, so that the game does not stall.
                if let Some(Running::Go { since, position }) = self.running
                    && let Some(&mv) = position.legal_moves().first()
                {
                    cx.out.line(&format_move(mv, None, since.elapsed()));
                }
                self.running = None;
                cx.out.line(WAITING);
            }
        }
        Flow::Continue
    }

    fn error(&mut self, line: Option<&str>, what: &str, cx: &mut Ctx) {
        cx.out.line(&format!("status {what}"));
        // A `go` is always answered with a move, so that a GUI never waits for
        // ever: one that failed before its search started, or whose search's
        // last event failed to be reported, gets the first legal move.
        let since = match (line.map(parse), &self.running) {
            (Some(Ok(Command::Go)), None) if !cx.engine.is_busy() => Instant::now(),
            (None, Some(Running::Go { since, .. })) => *since,
            _ => return,
        };
        self.running = None;
        let pos = cx.engine.position();
        if pos.must_pass() {
            cx.out.line("=== PA");
        } else if let Some(&mv) = pos.legal_moves().first() {
            cx.out.line(&format_move(mv, None, since.elapsed()));
        }
    }

    fn tick(&mut self, cx: &mut Ctx) {
        if self.running.is_some() && self.last_stats.elapsed() >= STATS_INTERVAL {
            // The live count, never below one already given.
            let nodes = cx.engine.live_nodes().max(self.last_nodes.unwrap_or(0));
            self.stats(nodes, self.started.elapsed(), cx);
        }
    }
}

#[cfg(test)]
mod tests;
