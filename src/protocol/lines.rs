//! The input side of the engine loop: the reader thread, which reads stdin
//! line by line (bounded: [`MAX_LINE`]), classifies each line's dialect, raises
//! the stop flag for an interrupt before forwarding it, and the backlog where
//! lines wait while a search runs (bounded: [`MAX_QUEUED`]).

use super::{Dialect, Selector};
use crossbeam_channel::Sender;
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};

/// Longer input lines are cut to this many bytes and answered with an error.
pub const MAX_LINE: usize = 1 << 20;

/// Input queued while a job runs is bounded: a line that would take the queue
/// past this many bytes (each line counting its length plus
/// `QUEUED_LINE_COST` (64)) is refused, answered in its turn with an error.
pub const MAX_QUEUED: usize = 4 << 20;

/// What a queued line costs beyond its text (its slot and bookkeeping), so that
/// many short lines are bounded too.
const QUEUED_LINE_COST: usize = 64;

/// A refused line keeps this many bytes of its start (enough for a GTP id).
const REFUSED_KEEP: usize = 32;

/// Lines in flight from the reader thread to the protocol thread. When even
/// refused lines fill the queue to twice [`MAX_QUEUED`], the protocol thread
/// stops taking input until the job ends, and the reader waits on this channel
/// (it has raised the stop flag for any interrupt it read).
pub(super) const INPUT_CHANNEL: usize = 16;

/// Whether `line` interrupts a running search in `dialect`.
pub(super) fn is_interrupt(dialect: Dialect, line: &str) -> bool {
    let mut words = line.split_whitespace();
    let mut first = words.next().unwrap_or("");
    if dialect == Dialect::Gtp && first.bytes().all(|b| b.is_ascii_digit()) {
        first = words.next().unwrap_or("");
    }
    let first = first.to_ascii_lowercase();
    match dialect {
        Dialect::NBoard => matches!(first.as_str(), "ping" | "stop" | "quit"),
        Dialect::Gtp => first == "quit",
        Dialect::Console => first == "stop",
    }
}

/// Whether `item` is a `quit` line (after an optional GTP id).
pub(super) fn is_quit(item: &Input) -> bool {
    let Input::Line(l) = item else { return false };
    is_quit_text(&l.text)
}

/// Whether `text` is a `quit` line (after an optional GTP id).
pub(super) fn is_quit_text(text: &str) -> bool {
    let mut words = text.split_whitespace();
    let mut first = words.next().unwrap_or("");
    if first.bytes().all(|b| b.is_ascii_digit()) {
        first = words.next().unwrap_or("");
    }
    first.eq_ignore_ascii_case("quit")
}

/// One input line, as the reader classified it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    pub(super) text: String,
    pub(super) dialect: Dialect,
    pub(super) interrupt: bool,
    pub(super) refused: Option<Refusal>,
}

/// Why a line was refused unread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Longer than [`MAX_LINE`].
    TooLong,
    /// Over the bound of input queued during a job ([`MAX_QUEUED`]).
    QueueFull,
}

impl Line {
    /// What the line costs in the queue.
    pub(super) fn cost(&self) -> usize {
        self.text.len() + QUEUED_LINE_COST
    }

    /// The line refused for `why`, keeping only its start.
    pub(super) fn refuse(mut self, why: Refusal) -> Line {
        let mut end = self.text.len().min(REFUSED_KEEP);
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        self.text.truncate(end);
        self.text.shrink_to_fit();
        self.refused = Some(why);
        self
    }
}

/// What the reader forwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    Line(Line),
    /// The end of input, with the dialect in force then.
    Eof(Dialect),
}

/// Reads one line of at most [`MAX_LINE`] bytes into `buf` (the rest of a
/// longer line is skipped); `Some(too_long)`, or `None` at the end of input.
pub(super) fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some(too_long));
        }
        any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..newline.unwrap_or(chunk.len())];
        let room = MAX_LINE - buf.len();
        if part.len() > room {
            too_long = true;
        }
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = newline.map_or(chunk.len(), |i| i + 1);
        r.consume(used);
        if newline.is_some() {
            return Ok(Some(too_long));
        }
    }
}

/// The reader thread's loop: classify, raise the stop flag for interrupts,
/// forward; at the end of input, stop (in NBoard and GTP, and in an
/// `interactive` console) and say so.
pub(super) fn read_input(
    mut r: impl BufRead,
    tx: &Sender<Input>,
    stop: &AtomicBool,
    mut sel: Selector,
    interactive: bool,
) {
    let mut buf = Vec::new();
    while let Ok(Some(too_long)) = read_line(&mut r, &mut buf) {
        let text = String::from_utf8_lossy(&buf).replace('\r', "");
        let (dialect, interrupt) = if too_long {
            (sel.dialect(), false)
        } else {
            let (d, switched) = sel.observe_switch(&text);
            if switched && sel.announces() {
                eprintln!(
                    "mollett: speaking {d} from here on (selected by the line '{}'; --protocol chooses one)",
                    text.trim()
                );
            }
            let quit = interactive && d == Dialect::Console && is_quit_text(&text);
            (d, quit || is_interrupt(d, &text))
        };
        if interrupt {
            stop.store(true, Ordering::SeqCst);
        }
        let line = Line {
            text,
            dialect,
            interrupt,
            refused: None,
        };
        let line = if too_long {
            line.refuse(Refusal::TooLong)
        } else {
            line
        };
        if tx.send(Input::Line(line)).is_err() {
            return;
        }
    }
    if sel.dialect() != Dialect::Console || interactive {
        stop.store(true, Ordering::SeqCst);
    }
    let _ = tx.send(Input::Eof(sel.dialect()));
}

/// The input that waits while a search runs, in order, with its size.
#[derive(Default)]
pub(super) struct Backlog {
    pub(super) items: VecDeque<Input>,
    /// What `items` holds, in bytes as [`Line::cost`] counts them.
    pub(super) bytes: usize,
}

impl Backlog {
    /// Queues `item`; a line that would take the backlog past [`MAX_QUEUED`]
    /// is queued as refused (an interrupt never is).
    pub(super) fn push(&mut self, item: Input) {
        let item = match item {
            Input::Line(l) => {
                let l = if self.bytes + l.cost() > MAX_QUEUED && !l.interrupt {
                    l.refuse(Refusal::QueueFull)
                } else {
                    l
                };
                self.bytes += l.cost();
                Input::Line(l)
            }
            eof => eof,
        };
        self.items.push_back(item);
    }

    /// The oldest item, if any.
    pub(super) fn pop(&mut self) -> Option<Input> {
        let item = self.items.pop_front()?;
        if let Input::Line(l) = &item {
            self.bytes -= l.cost();
        }
        Some(item)
    }
}
