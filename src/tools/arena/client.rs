//! Talking to an entrant: the GTP and NBoard sides of a game, behind one trait.
//!
//! The runner plays forced passes itself and never asks an entrant to pass. A
//! GTP entrant is told each pass with `play <colour> pass`, and a refusal is
//! accepted (some engines, such as `gtp-rhino`, refuse it and pass on their own).
//! An NBoard entrant is sent the whole game with `set game` before each `go`,
//! with its clock (as NBoard's own match driver does).
//!
//! Under a variant, a GTP entrant is told the game with `set_game` before the
//! first `clear_board` (an entrant that refuses it fails to start, so a match
//! stops before its first game); an NBoard entrant learns it from the record,
//! which names it (`TY[8a]`, `VA[..]`: NBoard has no command for it).

use super::log::GameLog;
use super::process::{Fault, Process, quote};
use super::spec::{EntrantLimits, EntrantSpec, Proto};
use crate::board::{Color, Move};
use crate::format::{GgfGame, GgfMove, parse_move_item};
use crate::rules::Variant;
use std::time::Instant;

/// Who to start, and for which kind of game.
#[derive(Clone, Copy, Debug)]
pub struct Entrant<'a> {
    /// The entrant's name and command.
    pub spec: &'a EntrantSpec,
    /// The protocol it speaks.
    pub proto: Proto,
    /// Its limits.
    pub limits: &'a EntrantLimits,
    /// The rules of the games it plays.
    pub variant: Variant,
    /// The game's protocol log, if one is kept.
    pub log: Option<&'a GameLog>,
}

/// What an entrant is asked for a move.
pub struct MoveRequest<'a> {
    /// The game so far, with the times taken (and evals given) per move.
    pub record: &'a GgfGame,
    /// The side to move (it has a legal move).
    pub side: Color,
    /// Seconds left on the side's clock, when a game clock is kept.
    pub time_left: Option<f64>,
    /// When to give up waiting.
    pub deadline: Instant,
}

/// An entrant's answer to a move request (not yet checked for legality).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The move.
    pub mv: Move,
    /// The entrant's eval in discs for the mover, if it gave one (NBoard).
    pub eval: Option<f64>,
    /// The line the move came from, for error reports.
    pub line: String,
}

/// One side of a game over a protocol.
pub trait Client: Send {
    /// The entrant's answer, or a fault.
    fn genmove(&mut self, req: &MoveRequest) -> Result<Answer, Fault>;
}

/// Starts an entrant and sets it up for a new game from its variant's start.
pub fn connect(entrant: &Entrant, deadline: Instant) -> Result<Box<dyn Client>, Fault> {
    let process = Process::spawn(entrant.spec, entrant.log.cloned())?;
    // A fault while setting up is a failure to start.
    let start = |f: Fault| match f {
        Fault::Start(_) => f,
        other => Fault::Start(other.to_string()),
    };
    match entrant.proto {
        Proto::Gtp => Gtp::new(process, entrant, deadline)
            .map(|c| Box::new(c) as Box<dyn Client>)
            .map_err(start),
        Proto::Nboard => Nboard::new(process, entrant.limits, deadline)
            .map(|c| Box::new(c) as Box<dyn Client>)
            .map_err(start),
    }
}

/// What one line of an entrant's output is, to the runner waiting for an
/// answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Reading<T> {
    /// Not the answer (a blank line, a status line): read on.
    Skip,
    /// The answer.
    Answer(T),
    /// A line that breaks the protocol.
    Bad,
}

/// A GTP entrant's line: a blank line is skipped (it ends the previous
/// answer), `=[id] text` is a success and `?[id] text` a failure (text
/// trimmed, the id dropped), anything else breaks the protocol.
pub fn parse_gtp_answer(line: &str) -> Reading<GtpAnswer> {
    let t = line.trim();
    let body = |rest: &str| {
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        rest.trim().to_string()
    };
    if t.is_empty() {
        Reading::Skip
    } else if let Some(rest) = t.strip_prefix('=') {
        Reading::Answer(Ok(body(rest)))
    } else if let Some(rest) = t.strip_prefix('?') {
        Reading::Answer(Err(body(rest)))
    } else {
        Reading::Bad
    }
}

/// An NBoard entrant's line while it thinks: `=== MOVE[/EVAL[/TIME]]` (the
/// parts may also be separated by spaces) is the answer, one that does not
/// parse breaks the protocol, and every other line (status, search,
/// nodestats, set myname …) is skipped.
pub fn parse_nboard_reply(line: &str) -> Reading<GgfMove> {
    let Some(rest) = line.trim().strip_prefix("===") else {
        return Reading::Skip;
    };
    let item = rest.split_whitespace().collect::<Vec<_>>().join("/");
    match parse_move_item(&item) {
        Ok(m) => Reading::Answer(m),
        Err(_) => Reading::Bad,
    }
}

/// Parses a move as engines write it: a square in any case, or a pass word.
fn parse_move(text: &str) -> Option<Move> {
    text.trim().parse::<Move>().ok()
}

/// A GTP entrant.
struct Gtp {
    process: Process,
    /// The moves the entrant has been told, passes included.
    told: Vec<Move>,
}

/// A GTP answer: success (`=`) or failure (`?`), with its text.
pub type GtpAnswer = Result<String, String>;

impl Gtp {
    fn new(process: Process, entrant: &Entrant, deadline: Instant) -> Result<Gtp, Fault> {
        let mut gtp = Gtp {
            process,
            told: Vec::new(),
        };
        gtp.expect_ok("boardsize 8", deadline)?;
        // Othello is every GTP Othello engine's game: only a variant is named.
        if entrant.variant != Variant::Othello {
            gtp.expect_ok(
                &format!("set_game {}", entrant.variant.gtp_name()),
                deadline,
            )?;
        }
        gtp.expect_ok("clear_board", deadline)?;
        let limits = entrant.limits;
        // Time settings are advice: an engine may not know them.
        if let Some(t) = limits.move_time {
            gtp.command(&format!("time_settings 0 {t} 1"), deadline)?
                .ok();
        } else if let Some(c) = limits.clock {
            gtp.command(&format!("time_settings {} 0 0", c.main), deadline)?
                .ok();
        }
        Ok(gtp)
    }

    /// Sends a command and reads its answer (ids are not used).
    fn command(&mut self, cmd: &str, deadline: Instant) -> Result<GtpAnswer, Fault> {
        self.process.send(cmd)?;
        loop {
            let line = self.process.recv(deadline, cmd)?;
            match parse_gtp_answer(&line) {
                Reading::Skip => continue,
                Reading::Answer(a) => return Ok(a),
                Reading::Bad => {
                    return Err(Fault::Protocol(format!(
                        "{} in answer to {}",
                        quote(&line),
                        quote(cmd)
                    )));
                }
            }
        }
    }

    fn expect_ok(&mut self, cmd: &str, deadline: Instant) -> Result<String, Fault> {
        self.command(cmd, deadline)?.map_err(|e| {
            Fault::Protocol(format!(
                "{} in answer to {}",
                quote(&format!("? {e}")),
                quote(cmd)
            ))
        })
    }
}

/// GTP's colour word.
fn colour(side: Color) -> &'static str {
    match side {
        Color::Black => "black",
        Color::White => "white",
    }
}

impl Client for Gtp {
    fn genmove(&mut self, req: &MoveRequest) -> Result<Answer, Fault> {
        let moves: Vec<Move> = req.record.moves.iter().map(|m| m.mv).collect();
        if !moves.starts_with(&self.told) {
            self.expect_ok("clear_board", req.deadline)?;
            self.told.clear();
        }
        let mut side = req.record.start.side;
        for (i, &mv) in moves.iter().enumerate() {
            if i >= self.told.len() {
                let cmd = format!("play {} {}", colour(side), mv);
                if mv == Move::Pass {
                    self.command(&cmd, req.deadline)?.ok();
                } else {
                    self.expect_ok(&cmd, req.deadline)?;
                }
                self.told.push(mv);
            }
            side = side.opposite();
        }
        if let Some(left) = req.time_left {
            let cmd = format!(
                "time_left {} {:.0} 0",
                colour(req.side),
                left.max(0.0).floor()
            );
            self.command(&cmd, req.deadline)?.ok();
        }
        let cmd = format!("genmove {}", colour(req.side));
        let answer = self.expect_ok(&cmd, req.deadline)?;
        if answer.eq_ignore_ascii_case("resign") {
            return Err(Fault::Resigned(quote(&format!("= {answer}"))));
        }
        let mv = parse_move(&answer).ok_or_else(|| {
            Fault::Protocol(format!("{} is not a move", quote(&format!("= {answer}"))))
        })?;
        self.told.push(mv);
        Ok(Answer {
            mv,
            eval: None,
            line: format!("= {answer}"),
        })
    }
}

/// An NBoard entrant.
struct Nboard {
    process: Process,
    ping: u64,
}

impl Nboard {
    fn new(process: Process, limits: &EntrantLimits, deadline: Instant) -> Result<Nboard, Fault> {
        let mut nb = Nboard { process, ping: 0 };
        nb.process.send("nboard 2")?;
        if let Some(d) = limits.depth {
            nb.process.send(&format!("set depth {d}"))?;
        }
        nb.sync(deadline)?;
        Ok(nb)
    }

    /// `ping N`, then waits for `pong N`, skipping every other line.
    fn sync(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.ping += 1;
        let cmd = format!("ping {}", self.ping);
        self.process.send(&cmd)?;
        let want = format!("pong {}", self.ping);
        while self.process.recv(deadline, &cmd)?.trim() != want {}
        Ok(())
    }
}

impl Client for Nboard {
    fn genmove(&mut self, req: &MoveRequest) -> Result<Answer, Fault> {
        self.process.send(&format!("set game {}", req.record))?;
        self.sync(req.deadline)?;
        self.process.send("go")?;
        loop {
            let line = self.process.recv(req.deadline, "go")?;
            match parse_nboard_reply(&line) {
                Reading::Skip => continue,
                Reading::Answer(m) => {
                    return Ok(Answer {
                        mv: m.mv,
                        eval: m.eval,
                        line,
                    });
                }
                Reading::Bad => {
                    return Err(Fault::Protocol(format!("{} is not a move", quote(&line))));
                }
            }
        }
    }
}
