//! An entrant's process: started with piped stdin and stdout, read line by line
//! on a thread of its own so that every read can have a deadline, and killed when
//! dropped. Whatever the entrant writes, the runner's memory stays bounded: a
//! line is at most [`MAX_REPLY_LINE`] bytes and at most `REPLY_QUEUE` (1024) lines
//! wait unread; a deadline holds however fast the entrant writes.

use super::log::GameLog;
use super::spec::EntrantSpec;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded};
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::Instant;

/// Why an entrant lost a game without the board deciding it.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// The program could not be started or did not answer its set-up commands.
    Start(String),
    /// The program exited or closed its output.
    Crashed(String),
    /// No answer before the deadline.
    Hung(String),
    /// An answer that breaks the protocol: the offending line.
    Protocol(String),
    /// A move that is not legal: the offending line and why.
    Illegal(String),
    /// The program resigned.
    Resigned(String),
    /// The clock ran out.
    Time(String),
}

impl Fault {
    /// Whether the fault is a loss on time (GGF `RE[..:t]`).
    pub fn is_time(&self) -> bool {
        matches!(self, Fault::Time(_))
    }
}

/// Makes a fault from its details.
type MakeFault = fn(String) -> Fault;

/// Each fault's report prefix, as [`Fault`]'s `Display` writes it.
const PREFIXES: [(&str, MakeFault); 7] = [
    ("failed to start: ", Fault::Start),
    ("crashed: ", Fault::Crashed),
    ("hung: ", Fault::Hung),
    ("protocol error: ", Fault::Protocol),
    ("illegal move: ", Fault::Illegal),
    ("resigned: ", Fault::Resigned),
    ("lost on time: ", Fault::Time),
];

impl Fault {
    /// The fault a games file's `CO` comment reports (as [`super::game`]
    /// writes it: `COLOUR (NAME) FAULT; the game was completed …`); a comment
    /// in another form gives its whole text, as a loss on time when `time`.
    pub fn from_comment(comment: &str, time: bool) -> Fault {
        let text = comment.split_once(") ").map_or(comment, |(_, rest)| rest);
        let text = text
            .rfind("; the game was completed")
            .map_or(text, |i| &text[..i]);
        PREFIXES
            .iter()
            .find_map(|(p, make)| text.strip_prefix(p).map(|rest| make(rest.to_string())))
            .unwrap_or_else(|| {
                if time {
                    Fault::Time(text.to_string())
                } else {
                    Fault::Protocol(text.to_string())
                }
            })
    }
}

impl fmt::Display for Fault {
    /// The prefix of `PREFIXES`, then the details.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (i, s) = match self {
            Fault::Start(s) => (0, s),
            Fault::Crashed(s) => (1, s),
            Fault::Hung(s) => (2, s),
            Fault::Protocol(s) => (3, s),
            Fault::Illegal(s) => (4, s),
            Fault::Resigned(s) => (5, s),
            Fault::Time(s) => (6, s),
        };
        write!(f, "{}{s}", PREFIXES[i].0)
    }
}

/// The longest line an entrant may write: a longer one is a protocol error
/// that loses the game (a real engine's lines are well under 1 KiB).
pub const MAX_REPLY_LINE: usize = 64 << 10;

/// Lines read ahead of the runner: when they are unread, the reader waits, and
/// so does the entrant's next write (memory stays bounded whatever it prints).
const REPLY_QUEUE: usize = 1024;

/// How much of an offending line a report quotes, in characters.
pub const QUOTE_CHARS: usize = 200;

/// What the reader thread hands over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A whole line (invalid UTF-8 shown as U+FFFD).
    Line(String),
    /// A line longer than [`MAX_REPLY_LINE`]: its start (the rest is skipped).
    TooLong(String),
}

/// `text` quoted for a report: in single quotes, control characters
/// escaped, cut once the quote has
/// [`QUOTE_CHARS`] characters, with the number of bytes left out, and marked
/// when it held invalid UTF-8.
pub fn quote(text: &str) -> String {
    let mut out = String::from("'");
    let mut shown = 0;
    for (i, c) in text.char_indices() {
        if shown >= QUOTE_CHARS {
            out.push_str(&format!("…' ({} more bytes)", text.len() - i));
            return mark_utf8(out, text);
        }
        if c.is_control() {
            let e: String = c.escape_default().collect();
            shown += e.chars().count();
            out.push_str(&e);
        } else {
            shown += 1;
            out.push(c);
        }
    }
    out.push('\'');
    mark_utf8(out, text)
}

/// Adds the note that `text` held invalid UTF-8 (replaced by U+FFFD).
fn mark_utf8(mut quoted: String, text: &str) -> String {
    if text.contains('\u{fffd}') {
        quoted.push_str(" (invalid UTF-8 shown as \u{fffd})");
    }
    quoted
}

/// Reads `r` line by line into `tx` until the end of input or until the
/// receiver is gone; lines over [`MAX_REPLY_LINE`] are cut and flagged (only
/// their first [`QUOTE_CHARS`] characters are kept).
pub fn read_replies(r: impl Read, tx: &Sender<Reply>) {
    let mut r = BufReader::new(r);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let Ok(n) = (&mut r)
            .take(MAX_REPLY_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
        else {
            return;
        };
        if n == 0 {
            return;
        }
        let whole = buf.last() == Some(&b'\n');
        if whole || buf.len() <= MAX_REPLY_LINE {
            let text = String::from_utf8_lossy(&buf);
            let line = text.trim_end_matches(['\n', '\r']).to_string();
            if tx.send(Reply::Line(line)).is_err() {
                return;
            }
            continue;
        }
        let start: String = String::from_utf8_lossy(&buf)
            .chars()
            .take(QUOTE_CHARS)
            .collect();
        if tx.send(Reply::TooLong(start)).is_err() {
            return;
        }
        // Skip the rest of the line (it may never end), in bounded pieces.
        loop {
            buf.clear();
            match (&mut r).take(1 << 16).read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => return,
                Ok(_) if buf.last() == Some(&b'\n') => break,
                Ok(_) => {}
            }
        }
    }
}

/// A running entrant.
pub struct Process {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Reply>,
    /// The last line read, for crash and hang reports.
    last: Option<String>,
    /// The game's protocol log, if one is kept.
    log: Option<GameLog>,
}

impl Process {
    /// Starts the entrant's command (stderr is discarded) in a process group
    /// of its own, so that a Ctrl-C at the terminal reaches only the runner,
    /// which then reports the games so far (the entrants see their input end).
    /// Every line sent and read goes to `log` when there is one.
    pub fn spawn(spec: &EntrantSpec, log: Option<GameLog>) -> Result<Process, Fault> {
        let mut command = Command::new(&spec.command[0]);
        command
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| Fault::Start(format!("cannot run '{}': {e}", spec.command[0])))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = bounded(REPLY_QUEUE);
        // The reader ends at end of file, which killing the child brings about.
        std::thread::Builder::new()
            .name(format!("{}-reader", spec.name))
            .spawn(move || read_replies(stdout, &tx))
            .map_err(|e| Fault::Start(format!("cannot start a reader thread: {e}")))?;
        Ok(Process {
            name: spec.name.clone(),
            child,
            stdin,
            lines,
            last: None,
            log,
        })
    }

    /// The entrant's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line (a newline is added) and flushes.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        if let Some(log) = &self.log {
            log.line(&self.name, '>', line);
        }
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.crashed(&format!("cannot write {}: {e}", quote(line))))
    }

    /// The next line, or a fault if the process ends, writes a line over
    /// [`MAX_REPLY_LINE`], or `deadline` passes first (however many lines it
    /// writes before then).
    pub fn recv(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Fault> {
        let reply = if Instant::now() >= deadline {
            Err(RecvTimeoutError::Timeout)
        } else {
            self.lines.recv_deadline(deadline)
        };
        match reply {
            Ok(Reply::Line(line)) => {
                if let Some(log) = &self.log {
                    log.line(&self.name, '<', &line);
                }
                self.last = Some(line.clone());
                Ok(line)
            }
            Ok(Reply::TooLong(start)) => Err(Fault::Protocol(format!(
                "a line longer than {} KiB in answer to {}, starting {}",
                MAX_REPLY_LINE >> 10,
                quote(waiting_for),
                quote(&start)
            ))),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Hung(format!(
                "no valid answer to {}{}",
                quote(waiting_for),
                self.last_line()
            ))),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed(&format!(
                "while waiting for the answer to {}",
                quote(waiting_for)
            ))),
        }
    }

    /// `; last line '…'`, or nothing before the first line.
    fn last_line(&self) -> String {
        self.last
            .as_deref()
            .map_or(String::new(), |l| format!("; last line {}", quote(l)))
    }

    /// A crash report: what happened, the exit status if known, the last line.
    fn crashed(&mut self, what: &str) -> Fault {
        // Give a dying process a moment to be reaped, so its status is known.
        let mut status = None;
        for _ in 0..EXIT_POLLS {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let status = status.map_or("still running".to_string(), |s| s.to_string());
        Fault::Crashed(format!("{what} ({status}{})", self.last_line()))
    }
}

/// How many 10 ms polls to wait for a crashed process's exit status.
const EXIT_POLLS: usize = 20;

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_short_escaped_and_say_what_is_wrong() {
        assert_eq!(quote("= d3"), "'= d3'");
        assert_eq!(quote("a\tb\u{1}"), "'a\\tb\\u{1}'");
        let long = "y".repeat(1 << 20);
        let q = quote(&long);
        assert!(q.len() < 300, "{q}");
        assert!(q.ends_with(&format!("…' ({} more bytes)", (1 << 20) - QUOTE_CHARS)));
        let nuls = quote(&"\0".repeat(1000));
        assert!(nuls.chars().count() < 250, "{nuls}");
        assert_eq!(
            quote("a\u{fffd}"),
            "'a\u{fffd}' (invalid UTF-8 shown as \u{fffd})"
        );
    }

    #[test]
    fn faults_read_back_from_their_comments() {
        for f in [
            Fault::Start("cannot run 'x': No such file".into()),
            Fault::Crashed("while waiting (exit status: 1)".into()),
            Fault::Hung("no valid answer to 'go' (limit 2.0 s, waited 2.0 s)".into()),
            Fault::Protocol("'y' is not a move".into()),
            Fault::Illegal("'= a1': a1 it flips nothing".into()),
            Fault::Resigned("'= resign'".into()),
            Fault::Time("the clock ran out (0.20 s over)".into()),
        ] {
            let co = format!(
                "black (a) {f}; the game was completed by a depth-4 search (+3 for Black) and …"
            );
            assert_eq!(Fault::from_comment(&co, f.is_time()), f);
        }
        assert_eq!(Fault::from_comment("odd", true), Fault::Time("odd".into()));
    }
}
