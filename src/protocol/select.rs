//! Which dialect a line is in, when no `--protocol` forces one.

use super::{Dialect, console, gtp, nboard};

/// Chooses the dialect line by line. Unless forced, the loop starts in the
/// console dialect, undecided, and switches only on a line that can only be
/// another dialect's: `nboard N`; `protocol_version`, a GTP command after a
/// numeric id, or a GTP-only command with valid arguments (`boardsize 8`,
/// `play b f5`; not the plain words `name` and `version`); NBoard's `ping N`
/// (N a number) and `set depth|game|contempt|threads ...` (the console has no
/// `set`). Once a console command has run, the session is in use and never
/// switches; NBoard and GTP, once selected, stay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selector {
    dialect: Dialect,
    chosen: bool,
    forced: bool,
    announce: bool,
}

impl Selector {
    /// Starts in `forced` for good, or undecided in the console dialect.
    pub fn new(forced: Option<Dialect>) -> Selector {
        Selector {
            dialect: forced.unwrap_or(Dialect::Console),
            chosen: forced.is_some(),
            forced: forced.is_some(),
            announce: false,
        }
    }

    /// The same selector, asking its owner to say each switch on stderr.
    pub fn announcing(self) -> Selector {
        Selector {
            announce: true,
            ..self
        }
    }

    /// Whether switches are to be said on stderr.
    pub fn announces(&self) -> bool {
        self.announce
    }

    /// The dialect in force.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The dialect for `line`, switching first if the line selects one.
    pub fn observe(&mut self, line: &str) -> Dialect {
        self.observe_switch(line).0
    }

    /// [`Selector::observe`], and whether this line switched the dialect.
    pub fn observe_switch(&mut self, line: &str) -> (Dialect, bool) {
        if self.chosen {
            return (self.dialect, false);
        }
        let clean = gtp::preprocess(line);
        let mut words = clean.split_whitespace();
        let Some(mut first) = words.next() else {
            return (self.dialect, false);
        };
        let mut has_id = false;
        if first.bytes().all(|b| b.is_ascii_digit()) {
            has_id = true;
            match words.next() {
                Some(w) => first = w,
                None => return (self.dialect, false),
            }
        }
        let first = first.to_ascii_lowercase();
        let rest: Vec<&str> = words.collect();
        let to = if first == "nboard" && !has_id && rest.len() == 1 {
            Some(Dialect::NBoard)
        } else if gtp::selects_gtp(&first, &rest, has_id)
            && gtp::parse(line).is_some_and(|r| r.command.is_ok())
        {
            Some(Dialect::Gtp)
        } else if !has_id && nboard::selects_nboard(&first, &rest) {
            Some(Dialect::NBoard)
        } else {
            if console::is_command(&first) {
                self.chosen = true;
            }
            None
        };
        match to {
            Some(d) => {
                self.dialect = d;
                self.chosen = true;
                (d, true)
            }
            None => (self.dialect, false),
        }
    }
}
