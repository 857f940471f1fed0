//! The console: commands for people and scripts (see PROTOCOL.md).
//!
//! One table, [`COMMANDS`], names every command with its aliases, arguments and
//! help; it drives both parsing and `help`. A line that is no command but reads
//! as moves (`f5`, `f5d6c3`) plays them. Answers are one line each (a board
//! diagram excepted); commands that only change the state answer nothing when
//! stdin is a pipe, and show the board when it is a terminal. A refused command
//! answers `error: ...` and changes nothing.

use super::text::board_diagram;
use super::{Ctx, Flow, Handler};
use crate::board::{Color, Move};
use crate::engine::{EngineError, Event, Job, MoveTime, TimeLeft};
use crate::format::{Clock, GgfGame, parse_first_ggf, parse_transcript};
use crate::input::{MAX_TEXT, read_regular_file, write_whole};
use crate::rules::Position;
use crate::rules::game::Game;
use crate::search::MultiPvIteration;
use crate::search::ScoreKind;
use std::path::Path;
use std::time::Duration;

/// Beyond this many empties an exact solve does not end in any useful time
/// (FFO #60-79, 32 to 36 empties, take minutes to hours each on a desktop;
/// each empty more multiplies that by two to three): the console says so.
const HOPELESS_SOLVE_EMPTIES: u32 = 36;

mod commands;
mod format;

pub(crate) use commands::is_command;
pub use commands::{COMMANDS, Command, Mode, Spec, help, parse};
pub use format::{
    format_answer, format_hint, format_hint_progress, format_played, format_progress,
    format_result, format_score,
};

/// What the running job is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Running {
    Go,
    Solve,
    Hint,
}

/// The console's game clock: the setting, and what each side has left
/// (Black's, White's). Only the engine's moves are charged.
#[derive(Clone, Copy, Debug, PartialEq)]
struct GameClock {
    clock: Clock,
    left: [Duration; 2],
}

impl GameClock {
    fn new(clock: Clock) -> GameClock {
        let main = clock.main.duration();
        GameClock {
            clock,
            left: [main; 2],
        }
    }

    fn index(side: Color) -> usize {
        match side {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// `clock 5:00/2 (black 4:31.2 left, white 5:00.0 left)`.
    fn describe(&self) -> String {
        let show = |d: Duration| {
            let s = d.as_secs_f64();
            format!("{}:{:04.1}", (s / 60.0).floor(), s % 60.0)
        };
        format!(
            "clock {} (black {} left, white {} left)",
            self.clock,
            show(self.left[0]),
            show(self.left[1])
        )
    }
}

/// The board as the console shows it: the diagram, then the moves played.
pub(crate) fn diagram(game: &Game) -> Vec<String> {
    let mut lines = board_diagram(&game.position(), true);
    lines.push(format_played(&game.moves));
    lines
}

/// The console's state: moves taken back (for `redo`), the running job, which
/// sides the engine plays, and the game clock.
#[derive(Debug, Default)]
pub(crate) struct Console {
    redo: Vec<Move>,
    running: Option<Running>,
    last_hint: Option<MultiPvIteration>,
    mode: Mode,
    clock: Option<GameClock>,
}

impl Console {
    fn error(cx: &mut Ctx, msg: &str) {
        cx.out.line(&format!("error: {msg}"));
    }

    /// After a change of position: the board, for a person at a terminal.
    fn changed(cx: &mut Ctx) {
        if cx.terminal {
            cx.out.line(&diagram(cx.engine.game()).join("\n"));
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

    /// A note that an exact solve from this many empties will not finish.
    fn warn_long_solve(cx: &mut Ctx) {
        let empties = cx.engine.position().board.empties();
        if empties > HOPELESS_SOLVE_EMPTIES {
            cx.out.line(&format!(
                "note: an exact solve from {empties} empties will not finish; midgame depths \
                 come first, and stop answers with the last"
            ));
        }
    }

    /// `go`: a move search, timed by the game clock when one is set.
    fn go(&mut self, cx: &mut Ctx) {
        let pos = cx.engine.position();
        if self.clock.is_none()
            && cx.engine.settings().limits().exact_empties >= pos.board.empties()
        {
            Self::warn_long_solve(cx);
        }
        let clock = self.clock.map(|c| TimeLeft::SuddenDeath {
            left: c.left[GameClock::index(pos.side)],
            increment: c.clock.increment.duration(),
        });
        self.start(Job::Go { clock }, Running::Go, cx);
    }

    /// In a mode where the engine plays the side to move, it moves now (a
    /// forced pass of the side it does not play is made for it).
    fn autoplay(&mut self, cx: &mut Ctx) {
        if self.mode == Mode::Neither || cx.engine.is_busy() {
            return;
        }
        let pos = cx.engine.position();
        if pos.is_game_over() {
            return;
        }
        if pos.must_pass() && !self.mode.plays(pos.side) {
            let _ = cx.engine.play(Move::Pass);
            Self::changed(cx);
            return self.autoplay(cx);
        }
        if self.mode.plays(pos.side) {
            self.go(cx);
        }
    }

    fn play(&mut self, text: &str, cx: &mut Ctx) {
        match parse_transcript(cx.engine.position(), text) {
            Ok(game) => {
                for mv in game.moves {
                    // Checked by the parser from this very position.
                    let _ = cx.engine.play(mv);
                }
                self.redo.clear();
                Self::changed(cx);
                self.autoplay(cx);
            }
            Err(e) => Self::error(cx, &format!("{e}; nothing was played")),
        }
    }

    fn new_game(&mut self, start: Position, left: Option<[u8; 2]>, cx: &mut Ctx) {
        let start = start
            .under(cx.engine.settings().variant, left)
            .ok_or(EngineError::NotInVariant);
        match start.and_then(|s| cx.engine.new_game(s)) {
            Ok(()) => self.reset(cx),
            Err(e) => Self::error(cx, &e.to_string()),
        }
    }

    /// After a new game: nothing to redo, full clocks, the board.
    fn reset(&mut self, cx: &mut Ctx) {
        self.redo.clear();
        self.clock = self.clock.map(|c| GameClock::new(c.clock));
        Self::changed(cx);
    }

    /// `load FILE`: the first GGF record (what follows it is not read), under
    /// its rules (or the variant's), which become the console's variant.
    fn load(&mut self, file: &str, cx: &mut Ctx) {
        let text = match read_regular_file(Path::new(file), MAX_TEXT) {
            Ok(t) => t,
            Err(e) => return Self::error(cx, &format!("load: cannot read {file}: {e}")),
        };
        if text.trim().is_empty() {
            return Self::error(cx, &format!("load: {file} holds no GGF record"));
        }
        let record = match parse_first_ggf(&text) {
            Ok(record) => record,
            Err(e) => return Self::error(cx, &format!("load: {file}: {e}")),
        };
        let game = match record.to_game(cx.engine.settings().variant) {
            Ok(g) => g,
            Err((i, e)) => {
                return Self::error(
                    cx,
                    &format!("load: {file}: move {} is illegal ({e})", i + 1),
                );
            }
        };
        let loaded = cx
            .engine
            .set_variant(game.variant())
            .and_then(|()| cx.engine.new_game(game.start));
        match loaded {
            Ok(()) => {
                cx.engine.set_game(game);
                self.reset(cx);
            }
            Err(e) => Self::error(cx, &e.to_string()),
        }
    }

    /// `save FILE`: the game as one GGF record and a newline.
    fn save(file: &str, cx: &mut Ctx) {
        let mut record = GgfGame::from_game(cx.engine.game());
        record.pc = Some("Mollett console".to_string());
        let pos = cx.engine.position();
        record.re = Some(if pos.is_game_over() {
            pos.final_score_black().to_string()
        } else {
            "?".to_string()
        });
        // Over a game record only: another file is never replaced by a save.
        let path = Path::new(file);
        if path.exists() {
            let is_record = read_regular_file(path, MAX_TEXT)
                .is_ok_and(|t| t.trim().is_empty() || parse_first_ggf(&t).is_ok());
            if !is_record {
                return Self::error(
                    cx,
                    &format!("save: {file} exists and is not a GGF game record; not replaced"),
                );
            }
        }
        if let Err(e) = write_whole(path, format!("{record}\n").as_bytes()) {
            Self::error(cx, &format!("save: cannot write {file}: {e}"));
        }
    }

    fn exec(&mut self, cmd: Command, cx: &mut Ctx) -> Flow {
        match cmd {
            Command::Help(c) => match help(c.as_deref()) {
                Ok(lines) => cx.out.line(&lines.join("\n")),
                Err(e) => Self::error(cx, &e),
            },
            Command::New => match cx.engine.new_game(cx.engine.settings().variant.start()) {
                Ok(()) => self.reset(cx),
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
                    self.autoplay(cx);
                }
                None => Self::error(cx, "nothing to redo"),
            },
            Command::Go => self.go(cx),
            Command::Hint(n) => self.start(Job::Hint { lines: n }, Running::Hint, cx),
            Command::Solve => {
                Self::warn_long_solve(cx);
                self.start(Job::Solve { wld: false }, Running::Solve, cx);
            }
            Command::Eval => {
                let (score, kind) = cx.engine.evaluate();
                let text = format_score(score, kind);
                let line = match kind {
                    ScoreKind::Exact => format!("eval {text} (final)"),
                    _ => format!("eval {text}"),
                };
                cx.out.line(&line);
            }
            Command::Showboard => cx.out.line(&diagram(cx.engine.game()).join("\n")),
            Command::Level(None) => cx
                .out
                .line(&format!("level {}", cx.engine.settings().level)),
            Command::Level(Some(l)) => {
                cx.engine.set_level(l);
                return self.exec(Command::Level(None), cx);
            }
            Command::Threads(None) => cx
                .out
                .line(&format!("threads {}", cx.engine.settings().threads)),
            Command::Threads(Some(n)) => match cx.engine.set_threads(n) {
                Ok(()) => return self.exec(Command::Threads(None), cx),
                Err(e) => Self::error(cx, &e.to_string()),
            },
            Command::Hash(None) => cx
                .out
                .line(&format!("hash {}", cx.engine.settings().hash_mb)),
            Command::Hash(Some(n)) => match cx.engine.set_hash(n) {
                Ok(()) => return self.exec(Command::Hash(None), cx),
                Err(e) => Self::error(cx, &e.to_string()),
            },
            Command::Seed(None) => cx.out.line(&format!("seed {}", cx.engine.settings().seed)),
            Command::Seed(Some(s)) => {
                cx.engine.set_seed(s);
                return self.exec(Command::Seed(None), cx);
            }
            Command::Variant(None) => cx
                .out
                .line(&format!("variant {}", cx.engine.settings().variant)),
            Command::Variant(Some(v)) => match cx.engine.set_variant(v) {
                Ok(()) => {
                    self.reset(cx);
                    return self.exec(Command::Variant(None), cx);
                }
                Err(e) => Self::error(cx, &e.to_string()),
            },
            Command::Book(None) => cx
                .out
                .line(&crate::protocol::book_setting::describe_book(cx.engine)),
            Command::Book(Some(s)) => {
                match crate::protocol::book_setting::apply_book_setting(cx.engine, s) {
                    Ok(()) => return self.exec(Command::Book(None), cx),
                    Err(e) => Self::error(cx, &e),
                }
            }
            Command::Mode(None) => cx.out.line(&self.mode.describe()),
            Command::Mode(Some(m)) => {
                self.mode = m;
                cx.out.line(&self.mode.describe());
                self.autoplay(cx);
            }
            Command::Time(None) => cx.out.line(&match cx.engine.settings().move_time {
                MoveTime::Off => "time off (the level alone limits a move)".to_string(),
                MoveTime::Given(d) => format!("time {:.2}", d.as_secs_f64()),
                MoveTime::Default(d) => format!(
                    "time {:.2} (the default while no level is set)",
                    d.as_secs_f64()
                ),
            }),
            Command::Time(Some(t)) => {
                cx.engine
                    .set_move_time(t.map_or(MoveTime::Off, MoveTime::Given));
                return self.exec(Command::Time(None), cx);
            }
            Command::Clock(None) => cx.out.line(
                &self
                    .clock
                    .map_or_else(|| "clock off".to_string(), |c| c.describe()),
            ),
            Command::Clock(Some(c)) => {
                self.clock = c.map(GameClock::new);
                return self.exec(Command::Clock(None), cx);
            }
            Command::Load(file) => self.load(&file, cx),
            Command::Save(file) => Self::save(&file, cx),
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
            Event::Iteration { result, .. } if cx.progress => {
                cx.out.line(&format_progress(result));
            }
            Event::Hint { iteration, .. } => {
                if cx.progress
                    && let Some(line) = format_hint_progress(iteration)
                {
                    cx.out.line(&line);
                }
                self.last_hint = Some(iteration.clone());
            }
            Event::BookHints { moves, .. } => {
                self.last_hint = Some(format::book_iteration(moves));
            }
            Event::Finished(f) => match (self.running.take(), &f.result) {
                (Some(Running::Go), Some(r)) => {
                    cx.out.line(&format_answer(r, f.nodes, f.elapsed));
                    if let Some(mv) = r.best {
                        let side = cx.engine.position().side;
                        if let Some(c) = self.clock.as_mut() {
                            let left = &mut c.left[GameClock::index(side)];
                            let inc = c.clock.increment.duration();
                            *left = left.saturating_sub(f.elapsed) + inc;
                        }
                        let _ = cx.engine.play(mv);
                        self.redo.clear();
                        Self::changed(cx);
                        // It moves on by itself, unless stopped by a `stop`
                        // line or Ctrl-C.
                        if !cx.stop_queued && !super::interrupt::pressed() {
                            self.autoplay(cx);
                        }
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
