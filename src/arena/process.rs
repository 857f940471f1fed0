//! An entrant's process: started with piped stdin and stdout, read line by line
//! on a thread of its own so that every read can have a deadline, and killed when
//! dropped.

use super::spec::EntrantSpec;
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
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

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Start(s) => write!(f, "failed to start: {s}"),
            Fault::Crashed(s) => write!(f, "crashed: {s}"),
            Fault::Hung(s) => write!(f, "hung: {s}"),
            Fault::Protocol(s) => write!(f, "protocol error: {s}"),
            Fault::Illegal(s) => write!(f, "illegal move: {s}"),
            Fault::Resigned(s) => write!(f, "resigned: {s}"),
            Fault::Time(s) => write!(f, "lost on time: {s}"),
        }
    }
}

/// A running entrant.
pub struct Process {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The last line read, for crash reports.
    last: Option<String>,
}

impl Process {
    /// Starts the entrant's command (stderr is discarded).
    pub fn spawn(spec: &EntrantSpec) -> Result<Process, Fault> {
        let mut child = Command::new(&spec.command[0])
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::Start(format!("cannot run '{}': {e}", spec.command[0])))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = unbounded();
        // The reader ends at end of file, which killing the child brings about.
        std::thread::Builder::new()
            .name(format!("{}-reader", spec.name))
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| Fault::Start(format!("cannot start a reader thread: {e}")))?;
        Ok(Process {
            name: spec.name.clone(),
            child,
            stdin,
            lines,
            last: None,
        })
    }

    /// The entrant's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line (a newline is added) and flushes.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.crashed(&format!("cannot write '{line}': {e}")))
    }

    /// The next line, or a fault if the process ends or `deadline` passes first.
    pub fn recv(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                let line = line.trim_end_matches('\r').to_string();
                self.last = Some(line.clone());
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(Fault::Hung(format!(
                "no answer to '{waiting_for}' within {:.1} s",
                wait.as_secs_f64()
            ))),
            Err(RecvTimeoutError::Disconnected) => {
                Err(self.crashed(&format!("while waiting for the answer to '{waiting_for}'")))
            }
        }
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
        let last = self
            .last
            .as_deref()
            .map_or(String::new(), |l| format!("; last line '{l}'"));
        Fault::Crashed(format!("{what} ({status}{last})"))
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
