//! The Go Text Protocol, version 2, for Othello (see PROTOCOL.md).
//!
//! Framing by the spec: a command is `[id] name [args]`; control characters
//! other than tab are dropped, `#` starts a comment, tabs count as spaces and
//! blank lines get no answer. A success is `=id result` and a failure `?id
//! message`, each followed by a blank line; the id is echoed only when given.
//! Vertices are Othello squares (`a1` top-left) in any case, or `pass`; colours
//! are `b`, `black`, `w`, `white` in any case. [`COMMANDS`] drives parsing,
//! `list_commands` and `known_command`.

mod parse;

pub(crate) use parse::selects_gtp;
pub use parse::{COMMANDS, Command, Error, Request, Spec, format_response, parse, preprocess};

use super::text::{board_diagram, legal_moves_text, move_lower, result_text};
use super::{Ctx, Flow, Handler};
use crate::board::{Color, Move};
use crate::engine::{Event, Job, TimeLeft};
use crate::format::{Seconds, parse_first_ggf};
use crate::input::read_regular_file;
use crate::rules::Variant;
use std::time::{Duration, Instant};

/// One side's clock: seconds left, and the stones left in the byo-yomi period
/// (0 while in main time).
#[derive(Clone, Copy, Debug, PartialEq)]
struct SideClock {
    left: f64,
    stones: u32,
}

/// A genmove waiting for its search.
#[derive(Clone, Debug)]
struct Pending {
    id: Option<String>,
    play: bool,
    color: Color,
    since: Instant,
}

/// The GTP dialect's state: the clocks and the genmove in progress.
#[derive(Debug, Default)]
pub(crate) struct Gtp {
    /// Byo-yomi period (seconds, stones) from `time_settings`, if any.
    byoyomi: Option<(f64, u32)>,
    /// Black's and White's clocks, once known.
    clocks: [Option<SideClock>; 2],
    pending: Option<Pending>,
}

fn side(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Gtp {
    fn respond(cx: &mut Ctx, id: Option<&str>, result: Result<String, String>) {
        cx.out.block(&format_response(id, &result));
    }

    /// `color`'s clock for its next move, if known.
    fn clock(&self, color: Color) -> Option<TimeLeft> {
        let c = self.clocks[side(color)]?;
        // The clock's seconds were in range when set; what is left after moves
        // is at most that, and may be negative.
        let secs = |x: f64| Seconds::saturating(x).duration();
        Some(match (c.stones, self.byoyomi) {
            (0, Some((period, stones))) if c.left <= 0.0 => TimeLeft::Byoyomi {
                left: secs(period),
                stones,
            },
            (0, _) => TimeLeft::SuddenDeath {
                left: secs(c.left),
                increment: Duration::ZERO,
            },
            (stones, _) => TimeLeft::Byoyomi {
                left: secs(c.left),
                stones,
            },
        })
    }

    /// Charges `elapsed` to `color`'s clock after its move.
    fn charge(&mut self, color: Color, elapsed: f64) {
        let byoyomi = self.byoyomi;
        let Some(c) = self.clocks[side(color)].as_mut() else {
            return;
        };
        c.left -= elapsed;
        match (c.stones, byoyomi) {
            (0, Some((period, stones))) if c.left < 0.0 => {
                *c = SideClock {
                    left: period,
                    stones,
                }
            }
            (0, _) => {}
            (1, Some((period, stones))) => {
                *c = SideClock {
                    left: period,
                    stones,
                }
            }
            (_, _) => c.stones -= 1,
        }
    }

    /// Plays `color`'s `mv`, inserting the pass of the side to move if it must
    /// pass; on failure the game is unchanged.
    fn play(cx: &mut Ctx, color: Color, mv: Move) -> Result<String, String> {
        let pos = cx.engine.position();
        let inserted = color != pos.side && pos.must_pass();
        if color != pos.side && !inserted {
            return Err("illegal move".into());
        }
        if inserted {
            cx.engine.play(Move::Pass).map_err(|_| "illegal move")?;
        }
        match cx.engine.play(mv) {
            Ok(()) => Ok(String::new()),
            Err(_) => {
                if inserted {
                    cx.engine.undo();
                }
                Err("illegal move".into())
            }
        }
    }

    /// Starts a genmove (or answers at once when there is nothing to search).
    fn genmove(&mut self, cx: &mut Ctx, id: Option<&str>, color: Color, play: bool) {
        let mut pos = cx.engine.position();
        if pos.is_game_over() {
            return Self::respond(cx, id, Ok("pass".into()));
        }
        let mut inserted = false;
        let side = pos.side;
        if color != side {
            if !pos.must_pass() {
                return Self::respond(cx, id, Err(format!("wrong color: {side} is to move")));
            }
            inserted = cx.engine.play(Move::Pass).is_ok();
            pos = cx.engine.position();
        }
        if pos.must_pass() {
            if play {
                let _ = cx.engine.play(Move::Pass);
            } else if inserted {
                cx.engine.undo();
            }
            return Self::respond(cx, id, Ok("pass".into()));
        }
        let clock = self.clock(color);
        let started = cx.engine.start(Job::Go { clock });
        // The job has its own copy: the trial pass of a reg_genmove goes now.
        if inserted && !play {
            cx.engine.undo();
        }
        match started {
            Ok(_) => {
                self.pending = Some(Pending {
                    id: id.map(str::to_string),
                    play,
                    color,
                    since: Instant::now(),
                })
            }
            Err(e) => Self::respond(cx, id, Err(format!("cannot search: {e}"))),
        }
    }

    /// `time_settings`: `main` seconds, then byo-yomi periods of `period`
    /// seconds for `stones` moves, the same for both sides.
    fn set_time(&mut self, main: f64, period: f64, stones: u32) {
        if period > 0.0 && stones == 0 {
            // The spec's way of saying: no time limit.
            self.byoyomi = None;
            self.clocks = [None, None];
        } else {
            self.byoyomi = (stones > 0).then_some((period, stones));
            let clock = if main > 0.0 || stones == 0 {
                SideClock {
                    left: main,
                    stones: 0,
                }
            } else {
                SideClock {
                    left: period,
                    stones,
                }
            };
            self.clocks = [Some(clock), Some(clock)];
        }
    }

    /// Runs one command: the answer (`Err` is the failure message), or `None`
    /// when it is given later or was given already.
    fn exec(
        &mut self,
        cmd: Command,
        cx: &mut Ctx,
        id: Option<&str>,
    ) -> Option<Result<String, String>> {
        let pos = cx.engine.position();
        let ok = |s: &str| Some(Ok(s.to_string()));
        match cmd {
            Command::ProtocolVersion => ok("2"),
            Command::Name => ok("Mollett"),
            Command::Version => ok(env!("CARGO_PKG_VERSION")),
            Command::KnownCommand(n) => ok(if COMMANDS.iter().any(|s| s.name == n) {
                "true"
            } else {
                "false"
            }),
            Command::ListCommands => Some(Ok(COMMANDS
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join("\n"))),
            Command::Quit => None,
            Command::BoardSize(8) => ok(""),
            Command::BoardSize(_) => Some(Err("unacceptable size".into())),
            Command::ClearBoard => Some(
                cx.engine
                    .new_game(pos.variant.start())
                    .map(|()| String::new())
                    .map_err(|e| e.to_string()),
            ),
            Command::Komi => ok(""),
            Command::Play(color, mv) => Some(Self::play(cx, color, mv)),
            Command::Genmove(color) | Command::RegGenmove(color) => {
                let play = matches!(cmd, Command::Genmove(_));
                // Answered now, or when the search ends.
                self.genmove(cx, id, color, play);
                None
            }
            Command::Undo => match cx.engine.undo() {
                Some(_) => ok(""),
                None => Some(Err("cannot undo".into())),
            },
            Command::Showboard => Some(Ok(format!("\n{}", board_diagram(&pos, false).join("\n")))),
            Command::TimeSettings(main, period, stones) => {
                self.set_time(main.get(), period.get(), stones);
                ok("")
            }
            Command::TimeLeft(color, left, stones) => {
                let left = left.get();
                self.clocks[side(color)] = Some(SideClock { left, stones });
                ok("")
            }
            Command::FinalScore => Some(if pos.is_game_over() {
                Ok(result_text(&pos))
            } else {
                Err("cannot score".into())
            }),
            Command::LoadSgf(file, number) => Some(load(cx, &file, number)),
            // The game in play already: nothing changes (controllers send it
            // before every game); another game starts anew.
            Command::SetGame(name) => Some(match game_variant(&name) {
                Some(v) if v == pos.variant => Ok(String::new()),
                Some(v) => cx
                    .engine
                    .set_variant(v)
                    .map(|()| String::new())
                    .map_err(|e| e.to_string()),
                None => Err("unsupported game".into()),
            }),
            Command::ListGames => Some(Ok(Variant::ALL.map(Variant::gtp_name).join("\n"))),
            Command::RulesGameId => ok(Variant::gtp_name(pos.variant)),
            Command::RulesBoard => Some(Ok(rules_board(&pos))),
            Command::RulesBoardSize => ok("8"),
            Command::RulesLegalMoves => Some(Ok(legal_moves_text(&pos))),
            Command::RulesSideToMove => Some(Ok(pos.side.to_string())),
            Command::RulesFinalResult => Some(Ok(if pos.is_game_over() {
                result_text(&pos)
            } else {
                "unknown".into()
            })),
            Command::Threads(n) => Some(setting(n, cx.engine.settings().threads, |n| {
                cx.engine.set_threads(n)
            })),
            Command::Hash(n) => Some(setting(n, cx.engine.settings().hash_mb, |n| {
                cx.engine.set_hash(n)
            })),
            Command::Level(l) => Some(setting(l, cx.engine.settings().level, |l| {
                cx.engine.set_level(l);
                Ok::<(), String>(())
            })),
            Command::Seed(s) => Some(setting(s, cx.engine.settings().seed, |s| {
                cx.engine.set_seed(s);
                Ok::<(), String>(())
            })),
            Command::Variant(v) => Some(setting(v, pos.variant, |v| cx.engine.set_variant(v))),
            Command::Book(None) => {
                Some(Ok(crate::protocol::book_setting::describe_book(cx.engine)))
            }
            Command::Book(Some(s)) => Some(
                crate::protocol::book_setting::apply_book_setting(cx.engine, s)
                    .map(|()| String::new()),
            ),
        }
    }
}

/// The variant a `set_game` name stands for (any case; the variant's own name
/// works too).
fn game_variant(name: &str) -> Option<Variant> {
    Variant::ALL
        .into_iter()
        .find(|&v| name.eq_ignore_ascii_case(Variant::gtp_name(v)))
        .or_else(|| name.parse().ok())
}

/// Shows `now` when no value is given, else sets it.
fn setting<T: std::fmt::Display, E: std::fmt::Display>(
    value: Option<T>,
    now: impl std::fmt::Display,
    set: impl FnOnce(T) -> Result<(), E>,
) -> Result<String, String> {
    match value {
        None => Ok(now.to_string()),
        Some(v) => set(v).map(|()| String::new()).map_err(|e| e.to_string()),
    }
}

/// GoGui's board: rows 8 down to 1 (GoGui puts row 1 at the bottom), `X` black,
/// `O` white, `.` empty.
fn rules_board(pos: &crate::Position) -> String {
    let (b, w) = (pos.black(), pos.white());
    let rows: Vec<String> = (0..8)
        .rev()
        .map(|row| {
            (0..8)
                .map(|col| {
                    let bit = 1u64 << (row * 8 + col);
                    if b & bit != 0 {
                        'X'
                    } else if w & bit != 0 {
                        'O'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    format!("\n{}", rows.join("\n"))
}

/// The largest file `loadsgf` reads: far above any game record, and a guard
/// against `loadsgf /dev/zero`.
const MAX_FILE: u64 = 16 << 20;

/// `loadsgf`: the first GGF record of `file`, up to (not including) move
/// `number`; the table is cleared.
fn load(cx: &mut Ctx, file: &str, number: Option<usize>) -> Result<String, String> {
    // A FIFO or a device is refused without blocking the protocol thread.
    let text = read_regular_file(std::path::Path::new(file), MAX_FILE)
        .map_err(|e| format!("cannot load file: {e}"))?;
    // Only the first record is used, so only it is read.
    let first = parse_first_ggf(&text).map_err(|e| format!("cannot load file: {e}"))?;
    let mut game = first
        .to_game(cx.engine.settings().variant)
        .map_err(|_| "cannot load file: illegal move")?;
    if let Some(n) = number {
        game.moves.truncate(n.saturating_sub(1));
    }
    cx.engine.new_game(game.start).map_err(|e| e.to_string())?;
    cx.engine.set_game(game);
    Ok(String::new())
}

impl Handler for Gtp {
    fn line(&mut self, line: &str, cx: &mut Ctx) -> Flow {
        let Some(req) = parse(line) else {
            return Flow::Continue;
        };
        let id = req.id.as_deref();
        match req.command {
            Err(e) => Self::respond(cx, id, Err(e.to_string())),
            Ok(Command::Quit) => {
                Self::respond(cx, id, Ok(String::new()));
                return Flow::Quit;
            }
            Ok(cmd) => {
                if let Some(result) = self.exec(cmd, cx, id) {
                    Self::respond(cx, id, result);
                }
            }
        }
        Flow::Continue
    }

    fn event(&mut self, event: &Event, cx: &mut Ctx) -> Flow {
        // Kept until answered: a failure on the way is answered with its id.
        let Some(p) = self.pending.clone().filter(|_| event.is_last()) else {
            return Flow::Continue;
        };
        let result = match event {
            Event::Finished(f) => match f.result.as_ref().and_then(|r| r.best) {
                Some(mv) => {
                    if p.play {
                        let _ = cx.engine.play(mv);
                        self.charge(p.color, p.since.elapsed().as_secs_f64());
                    }
                    Ok(move_lower(mv))
                }
                None => Ok("pass".to_string()),
            },
            Event::Failed { message, .. } => {
                Err(format!("internal error: the search failed: {message}"))
            }
            _ => return Flow::Continue,
        };
        self.pending = None;
        Self::respond(cx, p.id.as_deref(), result);
        Flow::Continue
    }

    fn error(&mut self, line: Option<&str>, what: &str, cx: &mut Ctx) {
        // The failing command's id: from its line, or the genmove's whose
        // search event failed to be reported.
        let id = match line {
            Some(l) => parse::leading_id(l),
            None => match self.pending.take() {
                Some(p) => p.id,
                None => return,
            },
        };
        Self::respond(cx, id.as_deref(), Err(what.to_string()));
    }
}

#[cfg(test)]
mod tests;
