//! `mollett match --log-dir DIR`: every line sent to and read from the
//! entrants of a game, in `DIR/game-N.log`, for finding out why a game went
//! wrong (a hang, an illegal move, a protocol error).
//!
//! A log is appended to, never cut: a game played again (`--resume`) adds a
//! new section under its own header. Each line is `SECONDS NAME > LINE` (sent)
//! or `SECONDS NAME < LINE` (read), the seconds counted from the game's start.
//! A log that cannot be written is given up with one warning on stderr; the
//! game goes on.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// One game's log, shared by both sides' processes.
#[derive(Clone, Debug)]
pub struct GameLog {
    inner: Arc<Mutex<Option<File>>>,
    began: Instant,
    path: String,
}

impl GameLog {
    /// Opens (for appending; made if missing) the log of game `number` in
    /// `dir`, headed with `header`. `None`, after a warning, if it cannot be.
    pub fn open(dir: &Path, number: usize, header: &str) -> Option<GameLog> {
        let path = dir.join(format!("game-{number}.log"));
        let opened = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| writeln!(f, "# {header}").map(|()| f));
        match opened {
            Ok(f) => Some(GameLog {
                inner: Arc::new(Mutex::new(Some(f))),
                began: Instant::now(),
                path: path.display().to_string(),
            }),
            Err(e) => {
                eprintln!(
                    "mollett: protocol log {}: {e}; this game is not logged",
                    path.display()
                );
                None
            }
        }
    }

    /// Logs `line` sent to (`>`) or read from (`<`) entrant `name`.
    pub fn line(&self, name: &str, arrow: char, line: &str) {
        let mut file = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = file.as_mut() {
            let secs = self.began.elapsed().as_secs_f64();
            // One write per line, so that the two sides' lines never mix.
            let text = format!("{secs:.3} {name} {arrow} {line}\n");
            if let Err(e) = f.write_all(text.as_bytes()) {
                eprintln!(
                    "mollett: protocol log {}: {e}; the rest is not logged",
                    self.path
                );
                *file = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::GameLog;

    #[test]
    fn a_log_appends_sections_and_never_cuts() {
        let dir = std::env::temp_dir().join(format!("mollett-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = GameLog::open(&dir, 3, "game 3: a (black) vs b (white)").unwrap();
        log.line("a", '>', "genmove black");
        log.line("a", '<', "= d3");
        drop(log);
        let again = GameLog::open(&dir, 3, "game 3 again").unwrap();
        again.line("b", '>', "quit");
        let text = std::fs::read_to_string(dir.join("game-3.log")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "# game 3: a (black) vs b (white)");
        assert!(lines[1].ends_with(" a > genmove black"), "{text}");
        assert!(lines[2].ends_with(" a < = d3"), "{text}");
        assert_eq!(lines[3], "# game 3 again");
        assert!(lines[4].ends_with(" b > quit"));
        // A log that cannot be opened is no game's failure.
        assert!(GameLog::open(&dir.join("missing/deeper"), 1, "x").is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
