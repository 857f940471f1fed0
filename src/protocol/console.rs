//! The console: commands for people and scripts (see PROTOCOL.md).
//!
//! One table, [`COMMANDS`], names every command with its aliases, arguments and
//! help; it drives both parsing and `help`. A line that is no command but reads
//! as moves (`f5`, `f5d6c3`) plays them. Answers are one line each (a board
//! diagram excepted); commands that only change the state answer nothing when
//! stdin is a pipe, and show the board when it is a terminal. A refused command
//! answers `error: ...` and changes nothing.

use super::text::{board_diagram, move_lower};
use super::{Ctx, Flow, Handler};
use crate::board::{Move, Position};
use crate::engine::{Event, Job};
use crate::eval::{evaluate, to_discs};
use crate::format::parse_variant_transcript;
use crate::search::multipv::MultiPvIteration;
use crate::search::{Level, ScoreKind, SearchResult};
use crate::variant::Variant;

/// One console command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `help [COMMAND]`.
    Help(Option<String>),
    /// `new`: the start position (table cleared).
    New,
    /// `setboard POSITION`: a board string (table cleared).
    SetBoard(Position, Option<[u8; 2]>),
    /// `play MOVES`, or moves alone: play them (forced passes inserted).
    Play(String),
    /// `undo`: take back one move.
    Undo,
    /// `redo`: replay a move taken back.
    Redo,
    /// `go`: search and play the best move.
    Go,
    /// `hint [N]`: the best N moves (default 1), not played.
    Hint(usize),
    /// `eval`: the static evaluation.
    Eval,
    /// `solve`: the exact score and best line, not played.
    Solve,
    /// `showboard`: the board diagram.
    Showboard,
    /// `level [L]`: show or set the level.
    Level(Option<Level>),
    /// `threads [N]`: show or set the search threads.
    Threads(Option<usize>),
    /// `hash [MB]`: show or set the table size.
    Hash(Option<usize>),
    /// `seed [S]`: show or set the tie-break seed.
    Seed(Option<u64>),
    /// `variant [V]`: show or set the rules; setting starts a new game.
    Variant(Option<Variant>),
    /// `stop`: stop the running search.
    Stop,
    /// `quit`: exit.
    Quit,
    /// A blank line.
    Blank,
}

/// A command's names, arguments, help and argument parser.
pub struct Spec {
    /// The name.
    pub name: &'static str,
    /// Other names.
    pub aliases: &'static [&'static str],
    /// The arguments, for help.
    pub args: &'static str,
    /// What it does, one line.
    pub help: &'static str,
    /// Parses the text after the name.
    pub parse: fn(&str) -> Result<Command, String>,
}

/// No argument allowed.
fn none(a: &str, c: Command) -> Result<Command, String> {
    if a.is_empty() {
        Ok(c)
    } else {
        Err(format!("unexpected argument '{a}'"))
    }
}

/// An optional single argument.
fn optional<T>(a: &str, f: impl Fn(&str) -> Result<T, String>) -> Result<Option<T>, String> {
    match a.split_whitespace().count() {
        0 => Ok(None),
        1 => f(a).map(Some),
        _ => Err(format!("expected at most one argument, got '{a}'")),
    }
}

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("'{s}' is not {what}"))
}

/// Every command, in `help` order.
pub const COMMANDS: &[Spec] = &[
    Spec {
        name: "help",
        aliases: &["?"],
        args: "[COMMAND]",
        help: "list the commands, or explain one",
        parse: |a| optional(a, |s| Ok(s.to_ascii_lowercase())).map(Command::Help),
    },
    Spec {
        name: "new",
        aliases: &["n", "init"],
        args: "",
        help: "start a new game from the start position (clears the table)",
        parse: |a| none(a, Command::New),
    },
    Spec {
        name: "setboard",
        aliases: &["sb"],
        args: "POSITION [B W]",
        help: "start a new game from a board string: 64 squares a1..h8 (X O -) then the side \
               to move (in reversi, then the discs Black and White have left)",
        parse: |a| {
            let (board, left) = crate::variant::split_discs_left(a);
            board
                .parse()
                .map(|p| Command::SetBoard(p, left))
                .map_err(|e| format!("{e}"))
        },
    },
    Spec {
        name: "play",
        aliases: &["p"],
        args: "MOVES",
        help: "play moves such as f5 or f5d6c3 (forced passes are inserted); moves alone work too",
        parse: |a| {
            if looks_like_moves(a) && !a.is_empty() {
                Ok(Command::Play(a.to_string()))
            } else {
                Err(format!("'{a}' is not a list of moves"))
            }
        },
    },
    Spec {
        name: "undo",
        aliases: &["u"],
        args: "",
        help: "take back the last move",
        parse: |a| none(a, Command::Undo),
    },
    Spec {
        name: "redo",
        aliases: &["r"],
        args: "",
        help: "replay the last move taken back",
        parse: |a| none(a, Command::Redo),
    },
    Spec {
        name: "go",
        aliases: &["g"],
        args: "",
        help: "search at the current level and play the best move",
        parse: |a| none(a, Command::Go),
    },
    Spec {
        name: "hint",
        aliases: &["h"],
        args: "[N]",
        help: "show the best N moves (default 1) with scores and lines, without playing",
        parse: |a| match optional(a, |s| number::<usize>(s, "a number of moves"))? {
            Some(0) => Err("N must be 1 or more".into()),
            n => Ok(Command::Hint(n.unwrap_or(1))),
        },
    },
    Spec {
        name: "eval",
        aliases: &["e"],
        args: "",
        help: "show the static evaluation of the position (no search), in discs for the side to move",
        parse: |a| none(a, Command::Eval),
    },
    Spec {
        name: "solve",
        aliases: &[],
        args: "",
        help: "solve the position exactly (score and best line), without playing",
        parse: |a| none(a, Command::Solve),
    },
    Spec {
        name: "showboard",
        aliases: &["board", "d"],
        args: "",
        help: "show the board, whose turn, the disc counts and the legal moves (*)",
        parse: |a| none(a, Command::Showboard),
    },
    Spec {
        name: "level",
        aliases: &["l"],
        args: "[1..60|easy|medium|hard]",
        help: "show or set the level",
        parse: |a| optional(a, |s| s.parse().map_err(|e| format!("{e}"))).map(Command::Level),
    },
    Spec {
        name: "threads",
        aliases: &["t"],
        args: "[N]",
        help: "show or set the number of search threads",
        parse: |a| optional(a, |s| number(s, "a thread count")).map(Command::Threads),
    },
    Spec {
        name: "hash",
        aliases: &[],
        args: "[MB]",
        help: "show or set the transposition table size in MB (clears it)",
        parse: |a| optional(a, |s| number(s, "a size in MB")).map(Command::Hash),
    },
    Spec {
        name: "seed",
        aliases: &[],
        args: "[S]",
        help: "show or set the seed that breaks ties between equal moves",
        parse: |a| optional(a, |s| number(s, "a seed")).map(Command::Seed),
    },
    Spec {
        name: "variant",
        aliases: &[],
        args: "[V]",
        help: "show or set the rules: othello, reversi (1880s: empty start, 32 discs each) \
               or anti (fewest discs win); setting starts a new game",
        parse: |a| optional(a, |s| s.parse().map_err(|e| format!("{e}"))).map(Command::Variant),
    },
    Spec {
        name: "stop",
        aliases: &[],
        args: "",
        help: "stop the running search (its answer is still given)",
        parse: |a| none(a, Command::Stop),
    },
    Spec {
        name: "quit",
        aliases: &["q", "exit"],
        args: "",
        help: "leave (after the running command ends)",
        parse: |a| none(a, Command::Quit),
    },
];

/// The spec named `word` (a name or an alias, any case).
fn find(word: &str) -> Option<&'static Spec> {
    let w = word.to_ascii_lowercase();
    COMMANDS
        .iter()
        .find(|s| s.name == w || s.aliases.contains(&w.as_str()))
}

/// Whether `word` names a console command.
pub(crate) fn is_command(word: &str) -> bool {
    find(word).is_some() || looks_like_moves(word) && !word.is_empty()
}

/// Whether `s` spells moves only: squares, `pa`, `ps`, `pass`, `--`, spaces.
fn looks_like_moves(s: &str) -> bool {
    let b: Vec<u8> = s
        .bytes()
        .filter(|c| !c.is_ascii_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let square =
            rest.len() >= 2 && (b'a'..=b'h').contains(&rest[0]) && (b'1'..=b'8').contains(&rest[1]);
        i += if rest.starts_with(b"pass") {
            4
        } else if square || [b"pa", b"ps", b"--"].iter().any(|w| rest.starts_with(*w)) {
            2
        } else {
            return false;
        };
    }
    true
}

/// Reads one console line.
pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(Command::Blank);
    }
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    let (word, rest) = (&line[..end], line[end..].trim());
    match find(word) {
        Some(spec) => (spec.parse)(rest).map_err(|e| format!("{}: {e}", spec.name)),
        None if looks_like_moves(line) => Ok(Command::Play(line.to_string())),
        None => Err(format!("unknown command '{word}' (type help for the list)")),
    }
}

/// The help text: every command, or one.
pub fn help(command: Option<&str>) -> Result<Vec<String>, String> {
    let line = |s: &Spec| {
        let usage = format!("{} {}", s.name, s.args);
        let aliases = if s.aliases.is_empty() {
            String::new()
        } else {
            format!(" (also: {})", s.aliases.join(", "))
        };
        format!("{:<34} {}{aliases}", usage.trim_end(), s.help)
    };
    match command {
        None => {
            let mut out: Vec<String> = COMMANDS.iter().map(line).collect();
            out.push(format!("{:<34} play those moves", "MOVES"));
            Ok(out)
        }
        Some(c) => find(c)
            .map(|s| vec![line(s)])
            .ok_or_else(|| format!("unknown command '{c}'")),
    }
}

/// A score as the console writes it: `+0.50` (midgame), `+4` (exact), `win`.
pub fn format_score(score: i32, kind: ScoreKind) -> String {
    match kind {
        ScoreKind::Midgame(_) => format!("{:+.2}", to_discs(score)),
        ScoreKind::Exact => format!("{:+}", score / crate::eval::DISC),
        ScoreKind::WinLossDraw => match score.signum() {
            1 => "win".into(),
            0 => "draw".into(),
            _ => "loss".into(),
        },
    }
}

/// The depth field: `12`, `exact` or `wld`.
fn format_depth(kind: ScoreKind) -> String {
    match kind {
        ScoreKind::Midgame(d) => d.to_string(),
        ScoreKind::Exact => "exact".into(),
        ScoreKind::WinLossDraw => "wld".into(),
    }
}

fn format_pv(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| move_lower(*m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `move f5 score +0.50 depth 12 nodes 1234 time 0.52 pv f5 d6 c3`, with the
/// result's own nodes and time (those of its iteration).
pub fn format_result(r: &SearchResult) -> String {
    format_answer(r, r.nodes, r.elapsed)
}

/// [`format_result`] with the given nodes and time (a finished job's totals);
/// a forced pass, which is not searched, is `move pass (forced: no legal move)
/// nodes N time T`.
pub fn format_answer(r: &SearchResult, nodes: u64, elapsed: std::time::Duration) -> String {
    let best = r.best.map_or_else(|| "none".to_string(), move_lower);
    let time = elapsed.as_secs_f64();
    if r.best == Some(Move::Pass) && r.pv.len() <= 1 {
        return format!("move pass (forced: no legal move) nodes {nodes} time {time:.2}");
    }
    format!(
        "move {best} score {} depth {} nodes {nodes} time {time:.2} pv {}",
        format_score(r.score, r.kind),
        format_depth(r.kind),
        format_pv(&r.pv)
    )
}

/// The lines of a hint: `move f5 score +0.50 depth 12 pv f5 d6 c3`, best first.
pub fn format_hint(it: &MultiPvIteration) -> Vec<String> {
    it.lines
        .iter()
        .map(|l| {
            let mv =
                l.pv.first()
                    .map_or_else(|| "none".to_string(), |m| move_lower(*m));
            format!(
                "move {mv} score {} depth {} pv {}",
                format_score(l.score, it.kind),
                format_depth(it.kind),
                format_pv(&l.pv)
            )
        })
        .collect()
}

/// What the running job is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Running {
    Go,
    Solve,
    Hint,
}

/// The console's state: moves taken back (for `redo`) and the running job.
#[derive(Debug, Default)]
pub(crate) struct Console {
    redo: Vec<Move>,
    running: Option<Running>,
    last_hint: Option<MultiPvIteration>,
}

impl Console {
    fn error(cx: &mut Ctx, msg: &str) {
        cx.out.line(&format!("error: {msg}"));
    }

    /// After a change of position: the board, for a person at a terminal.
    fn changed(cx: &mut Ctx) {
        if cx.terminal {
            let pos = cx.engine.variant_position();
            cx.out.line(&board_diagram(&pos, true).join("\n"));
        }
    }

    fn start(&mut self, job: Job, running: Running, cx: &mut Ctx) {
        if cx.engine.game().is_over() {
            return Self::error(cx, "the game is over");
        }
        match cx.engine.start(job) {
            Ok(_) => {
                self.running = Some(running);
                self.last_hint = None;
            }
            Err(e) => Self::error(cx, &e.to_string()),
        }
    }

    fn play(&mut self, text: &str, cx: &mut Ctx) {
        match parse_variant_transcript(cx.engine.variant_position(), text) {
            Ok((_, moves)) => {
                for mv in moves {
                    // Checked by the parser from this very position.
                    let _ = cx.engine.play(mv);
                }
                self.redo.clear();
                Self::changed(cx);
            }
            Err(e) => Self::error(cx, &format!("{e}; nothing was played")),
        }
    }

    fn new_game(&mut self, start: Position, left: Option<[u8; 2]>, cx: &mut Ctx) {
        match cx.engine.new_game_with_supply(start, left) {
            Ok(()) => {
                self.redo.clear();
                Self::changed(cx);
            }
            Err(e) => Self::error(cx, &e.to_string()),
        }
    }

    fn exec(&mut self, cmd: Command, cx: &mut Ctx) -> Flow {
        match cmd {
            Command::Help(c) => match help(c.as_deref()) {
                Ok(lines) => cx.out.line(&lines.join("\n")),
                Err(e) => Self::error(cx, &e),
            },
            Command::New => match cx.engine.new_game_at_start() {
                Ok(()) => {
                    self.redo.clear();
                    Self::changed(cx);
                }
                Err(e) => Self::error(cx, &e.to_string()),
            },
            Command::SetBoard(pos, left) => self.new_game(pos, left, cx),
            Command::Play(text) => self.play(&text, cx),
            Command::Undo => match cx.engine.undo() {
                Some(mv) => {
                    self.redo.push(mv);
                    Self::changed(cx);
                }
                None => Self::error(cx, "nothing to undo"),
            },
            Command::Redo => match self.redo.pop() {
                Some(mv) => {
                    let _ = cx.engine.play(mv);
                    Self::changed(cx);
                }
                None => Self::error(cx, "nothing to redo"),
            },
            Command::Go => self.start(Job::Go { time: None }, Running::Go, cx),
            Command::Hint(n) => self.start(Job::Hint { lines: n }, Running::Hint, cx),
            Command::Solve => self.start(Job::Solve, Running::Solve, cx),
            Command::Eval => {
                let pos = cx.engine.variant_position();
                let (v, state) = (pos.variant, pos.state());
                let line = if pos.is_game_over() {
                    format!(
                        "eval {} (final)",
                        format_score(state.final_score(v) * 100, ScoreKind::Exact)
                    )
                } else {
                    let e = match v {
                        Variant::Othello => evaluate(cx.engine.settings().level.eval, &state.board),
                        _ => crate::variant::search::evaluate(v, &state),
                    };
                    format!("eval {}", format_score(e, ScoreKind::Midgame(0)))
                };
                cx.out.line(&line);
            }
            Command::Showboard => {
                let pos = cx.engine.variant_position();
                cx.out.line(&board_diagram(&pos, true).join("\n"));
            }
            Command::Level(None) => cx
                .out
                .line(&format!("level {}", cx.engine.settings().level)),
            Command::Level(Some(l)) => cx.engine.set_level(l),
            Command::Threads(None) => cx
                .out
                .line(&format!("threads {}", cx.engine.settings().threads)),
            Command::Threads(Some(n)) => {
                if let Err(e) = cx.engine.set_threads(n) {
                    Self::error(cx, &e.to_string());
                }
            }
            Command::Hash(None) => cx
                .out
                .line(&format!("hash {}", cx.engine.settings().hash_mb)),
            Command::Hash(Some(n)) => {
                if let Err(e) = cx.engine.set_hash(n) {
                    Self::error(cx, &e.to_string());
                }
            }
            Command::Seed(None) => cx.out.line(&format!("seed {}", cx.engine.settings().seed)),
            Command::Seed(Some(s)) => cx.engine.set_seed(s),
            Command::Variant(None) => cx
                .out
                .line(&format!("variant {}", cx.engine.settings().variant)),
            Command::Variant(Some(v)) => match cx.engine.set_variant(v) {
                Ok(()) => {
                    self.redo.clear();
                    Self::changed(cx);
                }
                Err(e) => Self::error(cx, &e.to_string()),
            },
            Command::Quit => return Flow::Quit,
            Command::Stop | Command::Blank => {}
        }
        Flow::Continue
    }
}

impl Handler for Console {
    fn line(&mut self, line: &str, cx: &mut Ctx) -> Flow {
        match parse(line) {
            Ok(cmd) => self.exec(cmd, cx),
            Err(e) => {
                Self::error(cx, &e);
                Flow::Continue
            }
        }
    }

    fn event(&mut self, event: &Event, cx: &mut Ctx) -> Flow {
        match event {
            Event::Iteration { result, .. } if cx.terminal => {
                cx.out.line(&format!("info {}", format_result(result)));
            }
            Event::Hint { iteration, .. } => {
                if cx.terminal
                    && let Some(best) = format_hint(iteration).first()
                {
                    cx.out.line(&format!("info {best}"));
                }
                self.last_hint = Some(iteration.clone());
            }
            Event::Finished(f) => match (self.running.take(), &f.result) {
                (Some(Running::Go), Some(r)) => {
                    cx.out.line(&format_answer(r, f.nodes, f.elapsed));
                    if let Some(mv) = r.best {
                        let _ = cx.engine.play(mv);
                        self.redo.clear();
                        Self::changed(cx);
                    }
                }
                (Some(Running::Solve), Some(r)) => {
                    cx.out.line(&format_answer(r, f.nodes, f.elapsed))
                }
                (Some(Running::Hint), _) => match self.last_hint.take() {
                    Some(it) => cx.out.line(&format_hint(&it).join("\n")),
                    None => Self::error(cx, "the search was stopped before its first depth"),
                },
                _ => {}
            },
            Event::Failed { message, .. } => {
                self.running = None;
                Self::error(cx, &format!("the search failed: {message}"));
            }
            _ => {}
        }
        Flow::Continue
    }

    fn error(&mut self, _line: Option<&str>, what: &str, cx: &mut Ctx) {
        Self::error(cx, what);
    }
}

#[cfg(test)]
mod tests;
